//! The one state of a bill's audit, in the style of DataFusion's
//! `Accumulator`: [`BillState::add_item`] / [`BillState::add_skip`] update
//! it with rows, [`BillState::merge`] appends the state of the rows right
//! after, and [`BillState::finish`] evaluates it into the [`Bill`]'s
//! figures and findings.
//!
//! One state serves a whole file read on one thread, a byte range of it, a
//! Parquet row group and a text invoice; one thread is one partition. The
//! state of a bill's first rows decides as rows come what must see them in
//! order (repeats, idle storage: [`Start::First`]); the state of rows that
//! come after rows not yet seen keeps them in order for its merge to
//! decide ([`Start::After`]): the findings in [`InOrder`], and each
//! stateful check in its own state ([`super::accumulator`]). Merging is associative, and a bill's rows
//! cut anywhere into states merged in order finish into the same bill as
//! the rows added to one state (the property tests in `merge_tests.rs`).
//! A kept state counts its lines from wherever its reader did
//! ([`BillState::shift_lines`]), and its rows are of the part being read.

use rust_decimal::Decimal;

use super::accumulator::{Evaluation, Row, Start, States};
use super::in_order::InOrder;
use super::*;
use crate::model::{Category, Check, Finding, LineItem, Totals};
use crate::normalise::SkipReason;
use crate::vocab::summary::SummaryKind;

/// The checks of one line alone, given what several of them ask of it,
/// worked out once a row ([`Row::above_list`], [`Row::above_contract`]).
fn check_item<'p>(item: &LineItem, row: &Row<'_>, out: &mut impl Emit<'p>) {
    line_arithmetic::check(item, row.above_list.is_some(), out);
    rate_above_reference::check(item, out);
    billing_rounding::check(item, out);
    ingress_charged::check(item, out);
    contract_price::check(item, row.above_contract, out);
    above_list_price::check(item, row.above_list, out);
}

/// The state of the audit of one bill, or of a run of consecutive rows of
/// it (see the module docs).
#[derive(Debug)]
pub struct BillState<'p> {
    /// The bill's input, profile and currency ([`Bill::path`] and on); not
    /// read of a kept state, which is merged into the bill's.
    pub path: String,
    pub format: String,
    pub currency: Option<String>,
    /// See [`Bill::currency_note`].
    pub currency_note: Option<String>,
    pub line_items: u64,
    pub skipped: SkipCounts,
    pub totals: Totals,
    /// The last total and subtotal the rows state, with their lines.
    pub stated_total: Option<(u64, Decimal)>,
    pub stated_subtotal: Option<(u64, Decimal)>,
    /// Every subtotal and total a text invoice states, in line order, for
    /// `parse-double-counted` (empty for CSV exports).
    pub stated_figures: Vec<parse_double_counted::Stated>,
    /// The first line whose amount no longer fit a Decimal sum; the bill is
    /// then refused.
    pub overflow_at: Option<u64>,
    /// The line of the first item, where a merged sum that no longer fits
    /// is said to overflow.
    first_item: Option<u64>,
    top_hidden: TopHidden,
    /// `ragged-row` findings by shape ([`ragged_rows`]).
    ragged: ragged_rows::RaggedRows,
    /// Tax and discount summary rows without a figure, and top-ups
    /// ([`unstated`]).
    unstated: unstated::Unstated,
    monthly: MonthlyTally,
    gpu: gpu_usage::GpuTally,
    /// The state of every stateful check, each registered in its own file
    /// ([`super::accumulator`]).
    checks: States,
    /// The descriptions' GPU models and the units' hours seen so far.
    memo: usage::Memo,
    order: InOrder<'p>,
}

/// The caches of a state's tallies (descriptions to GPU models, units to
/// hours): a worker keeps them from range to range ([`BillState::take_caches`]).
#[derive(Debug, Default)]
pub struct Caches(usage::Memo);

impl<'p> BillState<'p> {
    /// The state of a bill from its first row (a file on one thread).
    pub fn new(path: &str, format: &str, currency: Option<String>, policy: &'p Policy) -> Self {
        Self::start(path, format, currency, policy, Start::First)
    }

    /// The state of rows that come after rows not seen here (a range read
    /// on another thread), to merge into the state of the rows before.
    pub fn later(policy: &'p Policy) -> Self {
        Self::start("", "", None, policy, Start::After)
    }

    /// [`BillState::later`], starting with the caches of an earlier state.
    pub fn later_with_caches(policy: &'p Policy, caches: Caches) -> Self {
        let mut s = Self::later(policy);
        s.memo = caches.0;
        s
    }

    fn start(
        path: &str,
        format: &str,
        currency: Option<String>,
        policy: &'p Policy,
        start: Start,
    ) -> Self {
        BillState {
            path: path.to_string(),
            format: format.to_string(),
            currency,
            currency_note: None,
            line_items: 0,
            skipped: SkipCounts::default(),
            totals: Totals::default(),
            stated_total: None,
            stated_subtotal: None,
            stated_figures: Vec::new(),
            overflow_at: None,
            first_item: None,
            top_hidden: TopHidden::default(),
            ragged: ragged_rows::RaggedRows::default(),
            unstated: unstated::Unstated::default(),
            monthly: MonthlyTally::start(start),
            gpu: gpu_usage::GpuTally::start(start),
            checks: States::start(start),
            memo: usage::Memo::default(),
            order: InOrder::start(start, path, policy),
        }
    }

    /// Takes the caches, for the next state the thread builds (merging
    /// does not need them).
    pub fn take_caches(&mut self) -> Caches {
        Caches(std::mem::take(&mut self.memo))
    }

    /// Gives back the caches taken by [`BillState::take_caches`].
    pub fn give_caches(&mut self, caches: Caches) {
        self.memo = caches.0;
    }

    /// Adds a classified line item and runs the per-item checks on it. A
    /// tally or check added here also goes in [`BillState::merge`].
    pub fn add_item(&mut self, item: &LineItem) {
        if self
            .totals
            .checked_add(item.category, item.amount)
            .is_none()
        {
            self.overflow_at.get_or_insert(item.line);
        }
        self.first_item.get_or_insert(item.line);
        self.line_items += 1;
        let mut row = Row {
            part: self.order.part(),
            memo: &mut self.memo,
            above_list: above_list_price::excess(item),
            above_contract: contract_price::excess(item),
        };
        check_item(item, &row, &mut self.order);
        self.order.add(item);
        self.top_hidden.add_in(item, row.part);
        self.monthly.add(item);
        self.gpu.add(item, row.memo);
        self.checks.update(item, &mut row);
    }

    pub fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.skipped.add(reason);
        if let Some(f) = finding {
            self.add_finding(f);
        }
    }

    /// The `ragged-row` finding of a row read as shape `shape`: one
    /// finding per shape at the end ([`ragged_rows`]).
    pub fn add_ragged(&mut self, f: Finding, shape: &str) {
        let part = self.order.part();
        self.ragged.add(f, shape, part);
    }

    /// A tax or discount summary row without a figure: a `summary` skip,
    /// named in a note ([`unstated`]).
    pub fn add_unstated(&mut self, line: u64, kind: SummaryKind, label: &str) {
        self.skipped.add(SkipReason::Summary);
        self.unstated.add(line, kind, label);
    }

    /// Money put into the account (`充值`): a `summary` skip, named in a
    /// note ([`unstated`]).
    pub fn add_top_up(&mut self, line: u64, label: &str) {
        self.skipped.add(SkipReason::Summary);
        self.unstated.add_top_up(line, label);
    }

    /// Takes a finding made by an earlier stage (e.g. `unparsable-value`).
    pub fn add_finding(&mut self, f: Finding) {
        self.order.emit(f.code, f.line, f.message);
    }

    pub fn emit(&mut self, check: Check, line: Option<u64>, message: String) {
        self.order.emit(check, line, message);
    }

    /// The lines added from now on come from the part `path` of a merged
    /// bill: findings on them name it. (A kept state's rows are of the part
    /// being read when it is merged.)
    pub fn begin_part(&mut self, path: &str) {
        self.order.begin_part(path);
    }

    /// Appends the state of the rows right after these (a kept state, of
    /// the part being read): the bill finishes as if its rows were added
    /// here one by one. Counts and sums add, the last stated figure wins,
    /// the first overflow stays; a sum that overflows only now is said to
    /// overflow at the later rows' first item (the bill is refused either
    /// way; one state would name the exact item).
    pub fn merge(&mut self, later: Self) {
        self.line_items += later.line_items;
        self.skipped.merge(later.skipped);
        for c in Category::ALL {
            if self.totals.checked_add(c, later.totals.get(c)).is_none() {
                self.overflow_at
                    .get_or_insert(later.first_item.unwrap_or(0));
            }
        }
        if later.stated_total.is_some() {
            self.stated_total = later.stated_total;
        }
        if later.stated_subtotal.is_some() {
            self.stated_subtotal = later.stated_subtotal;
        }
        self.stated_figures.extend(later.stated_figures);
        if self.overflow_at.is_none() {
            self.overflow_at = later.overflow_at;
        }
        self.first_item = self.first_item.or(later.first_item);
        let part = self.order.part();
        self.order.merge(later.order);
        self.top_hidden.merge(later.top_hidden.in_part(part));
        self.ragged.merge(later.ragged, part);
        self.unstated.merge(later.unstated);
        self.monthly.merge(later.monthly);
        self.gpu.merge(later.gpu);
        self.checks.merge(later.checks, part);
    }

    /// Moves every line of a kept state by `by`: a range read on its own
    /// counts its lines from its start. (The state of a bill's first rows
    /// counts them from the file's start.)
    pub fn shift_lines(&mut self, by: u64) {
        if !self.order.shift_lines(by) {
            debug_assert!(false, "the state of a bill's first rows is never shifted");
            return;
        }
        let shift = |l: &mut Option<u64>| *l = l.map(|l| l + by);
        shift(&mut self.overflow_at);
        shift(&mut self.first_item);
        for (line, _) in [&mut self.stated_total, &mut self.stated_subtotal]
            .into_iter()
            .flatten()
        {
            *line += by;
        }
        for s in &mut self.stated_figures {
            s.line += by;
        }
        self.top_hidden = std::mem::take(&mut self.top_hidden).shift_lines(by);
        self.ragged.shift_lines(by);
        self.unstated.shift_lines(by);
        self.checks.shift_lines(by);
    }

    /// Computes the figures and runs the bill-level checks. A kept state
    /// is first merged into a fresh state of its bill.
    pub fn finish(self) -> Bill {
        if !self.order.is_decided() {
            let policy = self.order.policy();
            let mut head = BillState::new(&self.path, &self.format, self.currency.clone(), policy);
            head.currency_note.clone_from(&self.currency_note);
            head.merge(self);
            return head.finish();
        }
        let Some(mut sink) = self.order.into_sink() else {
            unreachable!("a kept state was merged into a fresh state above")
        };
        let policy = sink.policy();
        let totals = self.totals;
        let subtotal = totals.sum(Category::in_subtotal);
        let hidden = totals.sum(Category::is_hidden);
        let total = totals.sum(|_| true);
        let currency = self.currency;
        let cur = currency.as_deref();
        let figures = Figures {
            totals: &totals,
            subtotal,
            hidden,
        };
        let t = &policy.thresholds;
        self.ragged.evaluate(&mut sink);
        hidden_fee_share::check(&figures, t, &mut sink);
        replica_share::check(&figures, t, &mut sink);
        replica_redundancy::check(&figures, t, &mut sink);
        scheduling_fee_share::check(&figures, t, &mut sink);
        let bill = Evaluation {
            figures: &figures,
            currency: cur,
        };
        self.checks.evaluate(&bill, &mut sink);
        subtotal_mismatch::check(self.stated_subtotal, &figures, cur, &mut sink);
        total_mismatch::check(self.stated_total, &figures, total, cur, &mut sink);
        parse_double_counted::check(&self.stated_figures, subtotal, total, cur, &mut sink);
        // Each kept item names the file of its line (a part of a merged bill).
        let hidden_items = self.top_hidden.seen;
        let top_hidden: Vec<HiddenItem> = self
            .top_hidden
            .finish()
            .into_iter()
            .map(|mut h| {
                h.path = sink.part_path(h.part).to_string();
                h
            })
            .collect();
        let findings = sink.finish();
        let passed = !findings.iter().any(|f| f.fails(policy.fail_on));
        Bill {
            path: self.path,
            format: self.format,
            currency,
            currency_note: self.currency_note,
            line_items: self.line_items,
            skipped: self.skipped,
            subtotal,
            total,
            hidden,
            hidden_share: share(hidden, subtotal),
            replica_share: share(totals.get(Category::StorageReplica), subtotal),
            stated_total: self.stated_total.map(|(_, d)| d),
            stated_subtotal: self.stated_subtotal.map(|(_, d)| d),
            hidden_threshold: policy.thresholds.hidden_share,
            hidden_items,
            top_hidden,
            monthly: self.monthly.finish(),
            gpu_usage: self.gpu.finish(),
            totals,
            findings,
            passed,
            baseline: None,
            notes: self.unstated.notes(),
            encoding: None,
            inferred_columns: Vec::new(),
        }
    }
}
