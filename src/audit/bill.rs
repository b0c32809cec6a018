//! The audited bill, and the builder that makes it one line item at a time.

use rust_decimal::Decimal;

use super::*;
use crate::model::{Category, Check, Finding, LineItem, Totals};
use crate::normalise::SkipReason;

/// The audited bill: figures and findings. One per file and currency.
#[derive(Debug, Clone, PartialEq)]
pub struct Bill {
    /// The input the bill was read from, as given (a ZIP member is `archive.zip:member.csv`).
    pub path: String,
    /// The profile that read it (`generic-csv`, `aws-cur`, `text-invoice`, ...).
    pub format: String,
    /// The bill's currency code, when known.
    pub currency: Option<String>,
    /// Set when the file has no currency column: where the currency came
    /// from, or that it is unknown (`ColumnMap::currency_note`).
    pub currency_note: Option<String>,
    /// How many line items the bill has.
    pub line_items: u64,
    /// Rows that became no line item, counted by reason.
    pub skipped: SkipCounts,
    /// The sum of the amounts of each category.
    pub totals: Totals,
    /// Every category except tax and credit.
    pub subtotal: Decimal,
    /// Subtotal plus tax plus credit: what the bill comes to.
    pub total: Decimal,
    /// storage_replica + bandwidth + scheduling.
    pub hidden: Decimal,
    /// `hidden / subtotal`; `None` when the subtotal is not positive.
    pub hidden_share: Option<Decimal>,
    /// `storage_replica / subtotal`; `None` when the subtotal is not positive.
    pub replica_share: Option<Decimal>,
    /// A total the bill states itself (a `合计` row, an invoice's `Total`).
    pub stated_total: Option<Decimal>,
    /// A subtotal the bill states itself, when it states one.
    pub stated_subtotal: Option<Decimal>,
    /// The `hidden-fee-share` threshold the bill was held to.
    pub hidden_threshold: Decimal,
    /// The largest positive hidden-fee items, largest first (at most
    /// [`TOP_HIDDEN`]).
    pub top_hidden: Vec<HiddenItem>,
    /// How many positive hidden-fee items the bill has in all.
    pub hidden_items: u64,
    /// Hidden fees and subtotal per month of the items' dates.
    pub monthly: Monthly,
    /// GPU compute per model, for `billaudit reprice`.
    pub gpu_usage: Vec<GpuUsage>,
    /// What the checks found, in the order of the check table.
    pub findings: Vec<Finding>,
    /// No finding at or above the policy's `fail_on`.
    pub passed: bool,
    /// Set when the run compared with a baseline report.
    pub baseline: Option<baseline::BaselineDiff>,
    /// How the file was read where the file alone does not say (the order
    /// assumed for its slashed dates): facts for the reader, not findings.
    pub notes: Vec<String>,
    /// The encoding the file was read in when it was not UTF-8, and why.
    pub encoding: Option<crate::ingest::EncodingChoice>,
    /// The columns whose roles were inferred from the content (no profile
    /// and no header name matched them), with the reasons.
    pub inferred_columns: Vec<crate::normalise::infer::InferredColumn>,
}

impl Bill {
    /// Rows that became no line item, all reasons together.
    pub fn skipped_rows(&self) -> u64 {
        self.skipped.total()
    }
}

/// Builds one bill from its line items, one item at a time, in constant memory.
#[derive(Debug)]
pub struct BillBuilder<'p> {
    pub path: String,
    pub format: String,
    pub currency: Option<String>,
    /// See [`Bill::currency_note`].
    pub currency_note: Option<String>,
    pub line_items: u64,
    pub skipped: SkipCounts,
    pub totals: Totals,
    pub stated_total: Option<(u64, Decimal)>,
    pub stated_subtotal: Option<(u64, Decimal)>,
    /// Every subtotal and total a text invoice states, in line order, for
    /// `parse-double-counted` (empty for CSV exports).
    pub stated_figures: Vec<parse_double_counted::Stated>,
    /// Set when a sum no longer fits a Decimal; the bill is then refused.
    pub overflow_at: Option<u64>,
    pub(super) unclassified: unclassified_items::Tally,
    pub(super) top_hidden: TopHidden,
    pub(super) monthly: MonthlyTally,
    pub(super) idle_storage: idle_storage::IdleStorage,
    pub(super) duplicates: duplicate_line::Seen,
    pub(super) granularity: billing_granularity::Granularity,
    pub(super) gpu: gpu_usage::GpuTally,
    pub(super) commitments: unused_commitment::Commitments,
    pub(super) contract: contract_price::Excess,
    pub(super) list: contract_price::Excess,
    pub(super) plans: plan_cost::Plans,
    pub(super) sink: Sink<'p>,
}

impl<'p> BillBuilder<'p> {
    pub fn new(path: &str, format: &str, currency: Option<String>, policy: &'p Policy) -> Self {
        BillBuilder {
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
            unclassified: unclassified_items::Tally::default(),
            top_hidden: TopHidden::default(),
            monthly: MonthlyTally::default(),
            idle_storage: idle_storage::IdleStorage::default(),
            duplicates: duplicate_line::Seen::default(),
            granularity: billing_granularity::Granularity::default(),
            gpu: gpu_usage::GpuTally::default(),
            commitments: unused_commitment::Commitments::default(),
            contract: contract_price::Excess::contract(),
            list: contract_price::Excess::list(),
            plans: plan_cost::Plans::default(),
            sink: Sink::new(path, policy),
        }
    }

    /// Adds a classified line item and runs the per-item checks on it. What
    /// it does is also done by [`Partial::add_item`] on other threads and
    /// [`BillBuilder::absorb`]: a tally or check added here goes there too
    /// (the property tests in `merge_tests.rs` compare the two).
    pub fn add_item(&mut self, item: &LineItem) {
        if self
            .totals
            .checked_add(item.category, item.amount)
            .is_none()
        {
            self.overflow_at.get_or_insert(item.line);
        }
        self.line_items += 1;
        partial::check_item(item, &mut self.sink);
        self.duplicates.add(item, &mut self.sink);
        self.unclassified.add(item, self.sink.part());
        self.top_hidden.add_in(item, self.sink.part());
        self.monthly.add(item);
        self.idle_storage.add(item, self.sink.part());
        self.granularity.add(item);
        self.gpu.add(item);
        self.commitments.add(item, self.sink.part());
        self.contract.add(contract_price::excess(item).map(|e| e.1));
        self.list.add(above_list_price::excess(item));
        self.plans.add(item, self.sink.part());
    }

    pub fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.skipped.add(reason);
        if let Some(f) = finding {
            self.sink.push(f);
        }
    }

    pub fn add_finding(&mut self, f: Finding) {
        self.sink.push(f);
    }

    pub fn emit(&mut self, check: Check, line: Option<u64>, message: String) {
        self.sink.emit(check, line, message);
    }

    /// The lines added from now on come from the part `path` of a merged
    /// bill: findings on them name it.
    pub fn begin_part(&mut self, path: &str) {
        self.sink.begin_part(path);
    }

    /// The plain figures, for [`BillBuilder::absorb`].
    pub(super) fn figures(&mut self) -> partial::FiguresMut<'_> {
        partial::FiguresMut {
            line_items: &mut self.line_items,
            skipped: &mut self.skipped,
            totals: &mut self.totals,
            stated_total: &mut self.stated_total,
            stated_subtotal: &mut self.stated_subtotal,
            overflow_at: &mut self.overflow_at,
        }
    }

    /// Computes the figures and runs the bill-level checks.
    pub fn finish(mut self) -> Bill {
        let policy = self.sink.policy();
        let totals = self.totals.clone();
        let subtotal = totals.sum(Category::in_subtotal);
        let hidden = totals.sum(Category::is_hidden);
        let total = totals.sum(|_| true);
        let currency = self.currency.clone();
        let figures = Figures {
            totals: &totals,
            subtotal,
            hidden,
        };
        let t = &policy.thresholds;
        hidden_fee_share::check(&figures, t, &mut self.sink);
        replica_share::check(&figures, t, &mut self.sink);
        replica_redundancy::check(&figures, t, &mut self.sink);
        scheduling_fee_share::check(&figures, t, &mut self.sink);
        self.unclassified
            .report(currency.as_deref(), &mut self.sink);
        std::mem::take(&mut self.idle_storage).report(currency.as_deref(), &mut self.sink);
        self.granularity.report(currency.as_deref(), &mut self.sink);
        self.commitments.report(currency.as_deref(), &mut self.sink);
        self.contract.report(currency.as_deref(), &mut self.sink);
        self.list.report(currency.as_deref(), &mut self.sink);
        self.plans.report(currency.as_deref(), &mut self.sink);
        subtotal_mismatch::check(
            self.stated_subtotal,
            &figures,
            currency.as_deref(),
            &mut self.sink,
        );
        total_mismatch::check(
            self.stated_total,
            &figures,
            total,
            currency.as_deref(),
            &mut self.sink,
        );
        parse_double_counted::check(
            &self.stated_figures,
            subtotal,
            total,
            currency.as_deref(),
            &mut self.sink,
        );
        // Each kept item names the file of its line (a part of a merged bill).
        let hidden_items = self.top_hidden.seen;
        let top_hidden: Vec<HiddenItem> = std::mem::take(&mut self.top_hidden)
            .finish()
            .into_iter()
            .map(|mut h| {
                h.path = self.sink.part_path(h.part).to_string();
                h
            })
            .collect();
        let findings = self.sink.finish();
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
            gpu_usage: std::mem::take(&mut self.gpu).finish(),
            totals,
            findings,
            passed,
            baseline: None,
            notes: Vec::new(),
            encoding: None,
            inferred_columns: Vec::new(),
        }
    }
}

// ---- the rows read on other threads: a partial, merged in file order.

impl<'p> BillBuilder<'p> {
    /// Adds the rows of a partial (of the part being read), right after the
    /// rows added so far: the bill finishes as if they were added one by one.
    pub fn absorb(&mut self, later: Partial<'p>) {
        let sums = later.figures_of();
        partial::add_figures(&mut self.figures(), sums);
        let part = self.sink.part();
        later.log.replay(&mut self.duplicates, &mut self.sink);
        self.unclassified.merge(later.unclassified.in_part(part));
        self.top_hidden.merge(later.top_hidden.in_part(part));
        self.monthly.merge(later.monthly);
        self.idle_storage.replay(later.idle_storage, part);
        self.granularity.merge(later.granularity);
        self.gpu.merge(later.gpu);
        self.commitments.merge(later.commitments.in_part(part));
        self.contract.merge(later.contract);
        self.list.merge(later.list);
        self.plans.merge(later.plans.in_part(part));
    }
}
