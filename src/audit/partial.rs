//! What a run of consecutive rows of one bill gives, built on whichever
//! thread reads them, and merged in file order into the bill.
//!
//! A [`Partial`] holds everything [`BillBuilder::add_item`] and
//! [`BillBuilder::add_skip`] make of its rows: sums, counts, the stated
//! figures, the per-item checks' findings (capped per code, all counted),
//! each row's `duplicate-line` key, and each tally. [`Partial::merge`]
//! appends the partial of the rows right after; it is associative, and
//! [`BillBuilder::absorb`] of the partials of a bill's rows, in order,
//! finishes into the same [`super::Bill`] as adding the rows one by one.
//! A partial counts its lines from wherever its reader did
//! ([`Partial::shift_lines`]) and its rows are of the part being read.

use rust_decimal::Decimal;

use super::idle_events::Events;
use super::*;
use crate::model::{Category, Finding, LineItem, Totals};
use crate::normalise::SkipReason;

/// The checks of one line alone, on the bill's thread ([`BillBuilder::add_item`])
/// or a worker's ([`Partial::add_item`]).
pub(super) fn check_item<'p>(item: &LineItem, out: &mut impl Emit<'p>) {
    line_arithmetic::check(item, out);
    rate_above_reference::check(item, out);
    billing_rounding::check(item, out);
    ingress_charged::check(item, out);
    contract_price::check(item, out);
    above_list_price::check(item, out);
}

/// What a run of consecutive rows of one bill gives (see the module docs).
#[derive(Debug)]
pub struct Partial<'p> {
    pub line_items: u64,
    pub skipped: SkipCounts,
    pub totals: Totals,
    /// The last total and subtotal the rows state, with their lines.
    pub stated_total: Option<(u64, Decimal)>,
    pub stated_subtotal: Option<(u64, Decimal)>,
    /// The first line whose amount no longer fit a Decimal sum.
    pub overflow_at: Option<u64>,
    /// The line of the first item, where a merged sum that no longer fits
    /// is said to overflow.
    pub(super) first_item: Option<u64>,
    pub(super) log: FindingLog<'p>,
    pub(super) unclassified: unclassified_items::Tally,
    pub(super) top_hidden: TopHidden,
    pub(super) monthly: MonthlyTally,
    pub(super) idle_storage: Events,
    pub(super) granularity: billing_granularity::Granularity,
    pub(super) gpu: gpu_usage::GpuTally,
    pub(super) commitments: unused_commitment::Commitments,
    pub(super) contract: contract_price::Excess,
    pub(super) list: contract_price::Excess,
    pub(super) plans: plan_cost::Plans,
}

/// The caches of a partial's tallies (descriptions to GPU models, units to
/// hours): a worker keeps them from range to range ([`Partial::take_caches`]).
#[derive(Debug, Default)]
pub struct Caches {
    gpu: usage::Memo,
    granularity: usage::Memo,
}

impl<'p> Partial<'p> {
    /// A partial that starts with the caches of an earlier one.
    pub fn with_caches(policy: &'p Policy, caches: Caches) -> Self {
        let mut p = Partial::new(policy);
        p.gpu.memo = caches.gpu;
        p.granularity.memo = caches.granularity;
        p
    }

    /// Takes the caches, for the next partial the thread builds (merging
    /// does not need them).
    pub fn take_caches(&mut self) -> Caches {
        Caches {
            gpu: std::mem::take(&mut self.gpu.memo),
            granularity: std::mem::take(&mut self.granularity.memo),
        }
    }

    pub fn new(policy: &'p Policy) -> Self {
        Partial {
            line_items: 0,
            skipped: SkipCounts::default(),
            totals: Totals::default(),
            stated_total: None,
            stated_subtotal: None,
            overflow_at: None,
            first_item: None,
            log: FindingLog::new(policy),
            unclassified: unclassified_items::Tally::default(),
            top_hidden: TopHidden::default(),
            monthly: MonthlyTally::deferred(),
            idle_storage: Events::default(),
            granularity: billing_granularity::Granularity::deferred(),
            gpu: gpu_usage::GpuTally::deferred(),
            commitments: unused_commitment::Commitments::default(),
            contract: contract_price::Excess::contract(),
            list: contract_price::Excess::list(),
            plans: plan_cost::Plans::default(),
        }
    }

    /// [`BillBuilder::add_item`], for the bill to replay what only it can
    /// decide (repeats, idle storage) when the partial is merged into it.
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
        check_item(item, &mut self.log);
        self.log.key(item);
        self.unclassified.add(item, 0);
        self.top_hidden.add_in(item, 0);
        self.monthly.add(item);
        self.idle_storage.push(item);
        self.granularity.add(item);
        self.gpu.add(item);
        self.commitments.add(item, 0);
        self.contract.add(contract_price::excess(item).map(|e| e.1));
        self.list.add(above_list_price::excess(item));
        self.plans.add(item, 0);
    }

    /// [`BillBuilder::add_skip`].
    pub fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.skipped.add(reason);
        if let Some(f) = finding {
            self.log.emit(f.code, f.line, f.message);
        }
    }

    /// Appends the partial of the rows right after these.
    pub fn merge(&mut self, later: Self) {
        add_figures(&mut self.figures(), later.figures_of());
        self.first_item = self.first_item.or(later.first_item);
        self.log.merge(later.log);
        self.unclassified.merge(later.unclassified);
        self.top_hidden.merge(later.top_hidden);
        self.monthly.merge(later.monthly);
        self.idle_storage.merge(later.idle_storage);
        self.granularity.merge(later.granularity);
        self.gpu.merge(later.gpu);
        self.commitments.merge(later.commitments);
        self.contract.merge(later.contract);
        self.list.merge(later.list);
        self.plans.merge(later.plans);
    }

    /// Moves every line by `by`: a range read on its own counts its lines
    /// from its start.
    pub fn shift_lines(&mut self, by: u64) {
        let shift = |l: &mut Option<u64>| *l = l.map(|l| l + by);
        shift(&mut self.overflow_at);
        shift(&mut self.first_item);
        for (line, _) in [&mut self.stated_total, &mut self.stated_subtotal]
            .into_iter()
            .flatten()
        {
            *line += by;
        }
        self.log.shift_lines(by);
        self.unclassified.shift_lines(by);
        self.top_hidden = std::mem::take(&mut self.top_hidden).shift_lines(by);
        self.idle_storage.shift_lines(by);
        self.commitments.shift_lines(by);
        self.plans.shift_lines(by);
    }

    fn figures(&mut self) -> FiguresMut<'_> {
        FiguresMut {
            line_items: &mut self.line_items,
            skipped: &mut self.skipped,
            totals: &mut self.totals,
            stated_total: &mut self.stated_total,
            stated_subtotal: &mut self.stated_subtotal,
            overflow_at: &mut self.overflow_at,
        }
    }

    pub(super) fn figures_of(&self) -> Sums {
        Sums {
            line_items: self.line_items,
            skipped: self.skipped,
            totals: self.totals.clone(),
            stated_total: self.stated_total,
            stated_subtotal: self.stated_subtotal,
            overflow_at: self.overflow_at,
            first_item: self.first_item,
        }
    }
}

/// The plain figures of a bill or partial, to add the later ones to.
pub(super) struct FiguresMut<'a> {
    pub(super) line_items: &'a mut u64,
    pub(super) skipped: &'a mut SkipCounts,
    pub(super) totals: &'a mut Totals,
    pub(super) stated_total: &'a mut Option<(u64, Decimal)>,
    pub(super) stated_subtotal: &'a mut Option<(u64, Decimal)>,
    pub(super) overflow_at: &'a mut Option<u64>,
}

/// The plain figures of a later partial.
pub(super) struct Sums {
    line_items: u64,
    skipped: SkipCounts,
    totals: Totals,
    stated_total: Option<(u64, Decimal)>,
    stated_subtotal: Option<(u64, Decimal)>,
    overflow_at: Option<u64>,
    first_item: Option<u64>,
}

/// Adds the later rows' figures: counts and sums add, the last stated
/// figure wins, the first overflow stays. A sum that overflows only now is
/// said to overflow at the later rows' first item (the bill is refused
/// either way; one thread would name the exact item).
pub(super) fn add_figures(to: &mut FiguresMut<'_>, later: Sums) {
    *to.line_items += later.line_items;
    to.skipped.merge(later.skipped);
    for c in Category::ALL {
        if to.totals.checked_add(c, later.totals.get(c)).is_none() {
            to.overflow_at.get_or_insert(later.first_item.unwrap_or(0));
        }
    }
    if later.stated_total.is_some() {
        *to.stated_total = later.stated_total;
    }
    if later.stated_subtotal.is_some() {
        *to.stated_subtotal = later.stated_subtotal;
    }
    if to.overflow_at.is_none() {
        *to.overflow_at = later.overflow_at;
    }
}
