//! The audited bill: what [`super::BillState::finish`] makes of a bill's rows.

use rust_decimal::Decimal;

use super::*;
use crate::model::{Finding, Totals};

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
