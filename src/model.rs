//! The data the stages pass along: line items, findings, per-category
//! totals, and the decimal formatting every output uses.
//!
//! Data flows one way: `ingest` (bytes -> records) -> `normalise` (records ->
//! [`LineItem`]s) -> `classify` (a [`Category`] per item) -> `audit` (figures and
//! [`Finding`]s) -> `report`. The words they share (categories, checks,
//! currencies, units, labels) are in `vocab`, one rank below.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

pub use crate::vocab::category::Category;
pub use crate::vocab::checks::{Check, Severity};

mod cells;
pub use cells::{Cells, fold_hash, record_fingerprint};

/// One thing a careful auditor would flag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The check that raised it, serialised as its kebab-case code.
    pub code: Check,
    /// `error` or `warning`: the check's default, or billaudit.toml's.
    pub severity: Severity,
    /// What was found, with the figures, for people.
    pub message: String,
    /// The bill the finding is about.
    pub path: String,
    /// 1-based line in the source file, when the finding is about one line.
    pub line: Option<u64>,
    /// Why the finding is accepted (`[[accept]]` in billaudit.toml): it is
    /// still reported, but never fails the run. Serialised only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
}

impl Finding {
    /// Whether this finding fails a run that fails on `fail_on`.
    pub fn fails(&self, fail_on: Severity) -> bool {
        self.accepted.is_none() && self.severity >= fail_on
    }
}

/// Which field of a slashed date (`03/04/2024`) is the day. Decided once
/// per file (`normalise::date::DateScan`) from evidence or a profile's
/// `date-order`; month-first when nothing decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DateOrder {
    /// `03/04/2024` is 4 March (`mdy`, US exports such as Azure's).
    #[default]
    MonthFirst,
    /// `03/04/2024` is 3 April (`dmy`).
    DayFirst,
}

/// A charge, normalised from one input row or invoice line.
#[derive(Debug, Clone, PartialEq)]
pub struct LineItem {
    /// 1-based physical line of the source file where the record starts.
    pub line: u64,
    /// What the charge is, for people: each distinct text of `class_text`,
    /// in tier order, joined with ` / ` (a row with Description `VM`, Type
    /// `usage` and Service `VM` gives `VM / usage`); a text invoice line's
    /// item text; `credit: NAME` for one credit of a credit-list column.
    pub description: String,
    /// The payable amount. Exactly as written, scale preserved.
    pub amount: Decimal,
    /// The quantity, when the bill states one.
    pub quantity: Option<Decimal>,
    /// The quantity's unit (`hours`, `GB-month`), when stated.
    pub unit: Option<String>,
    /// The price per unit, when stated.
    pub unit_price: Option<Decimal>,
    /// The unit the price is per, when the bill has its own column for it
    /// (Alibaba and Huawei `单价单位`: `元/万次`).
    pub price_unit: Option<String>,
    /// The list (pre-discount) amount, when the bill states one.
    pub list_amount: Option<Decimal>,
    /// Currency code, when known for this row (column or header suffix).
    pub currency: Option<String>,
    /// Date or start of the charge period, as written (parsed by `normalise::date`).
    pub start: Option<chrono::NaiveDateTime>,
    pub end: Option<chrono::NaiveDateTime>,
    /// The order of slashed dates this row's date cells prove (`13/05/2024`
    /// proves day-first), so the file's order can be checked in file order.
    pub date_proves: Option<DateOrder>,
    /// The resource the charge is for (instance, pod, volume id), when the
    /// bill has such a column. Checks that follow one resource across rows
    /// (`idle-storage`, `duplicate-line`) use it.
    pub resource: Option<String>,
    /// A 64-bit hash of every cell of the source row except the row's own
    /// id columns, so rows that differ in a column billaudit does not read
    /// (AWS `lineItem/Operation`) are not taken for the same charge.
    pub fingerprint: u64,
    /// Texts used for classification, in priority tiers: every rule is tried
    /// on tier 0 before any rule is tried on tier 1 (e.g. description before
    /// service category).
    pub class_text: Vec<Vec<String>>,
    /// Set by the profile when a column decides the category outright
    /// (FOCUS `ChargeCategory=Tax`, a text invoice's tax line, ...).
    /// The id is the rule's (`summary-tax`, a marker's id), or
    /// [`CREDIT_LIST_RULE`] / [`TAX_COLUMN_RULE`] / [`CREDIT_COLUMN_RULE`]
    /// for an item a row gives
    /// besides its own charge ([`LineItem::beside`]).
    pub forced: Option<(Category, &'static str)>,
    pub category: Category,
    /// Id of the rule that classified the item (`builtin:...`, `profile:...`).
    pub rule: std::sync::Arc<str>,
    /// What the row says of a commitment (reservation, savings plan) or a
    /// contract, when the bill has such columns (FOCUS, AWS CUR, Azure);
    /// boxed, as most bills have none. Never part of any total.
    pub terms: Option<Box<Terms>>,
}

/// The commitment and contract cells of a row, as written (see
/// `normalise::terms`); `audit::unused_commitment` and
/// `audit::contract_price` read them. None of them is ever summed into the
/// bill's totals: the money is the amount's alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    /// The commitment's id (FOCUS `CommitmentDiscountId`, AWS
    /// `reservation/ReservationARN`, `savingsPlan/SavingsPlanARN`, Azure
    /// `ReservationId`/`benefitId`).
    pub commitment_id: Option<String>,
    /// How the row stands to its commitment: FOCUS `CommitmentDiscountStatus`
    /// (`Used`, `Unused`), Azure `ChargeType` (`UnusedReservation`), AWS
    /// `lineItem/LineItemType` (`RIFee`, `SavingsPlanRecurringFee`).
    pub status: Option<String>,
    /// The amortised cost (FOCUS `EffectiveCost`).
    pub effective: Option<Decimal>,
    /// FOCUS `ContractedCost` and `ContractedUnitPrice`.
    pub contracted: Option<Decimal>,
    pub contracted_unit_price: Option<Decimal>,
    /// AWS `reservation/UnusedRecurringFee`,
    /// `reservation/UnusedAmortizedUpfrontFeeForBillingPeriod` and
    /// `reservation/AmortizedUpfrontFeeForBillingPeriod` (on `RIFee` rows).
    pub unused_recurring: Option<Decimal>,
    pub unused_upfront: Option<Decimal>,
    pub upfront: Option<Decimal>,
    /// AWS `savingsPlan/TotalCommitmentToDate` and
    /// `savingsPlan/UsedCommitment` (on `SavingsPlanRecurringFee` rows).
    pub commitment_total: Option<Decimal>,
    pub commitment_used: Option<Decimal>,
}

/// The forced id of a credit a row lists in a credits column (GCP
/// `credits`): its own `credit` item, on the row's line.
pub const CREDIT_LIST_RULE: &str = "credit-list";
/// The forced id of the tax a row states in a tax column (`VAT`, Linode
/// `tax`): its own `tax` item, on the row's line.
pub const TAX_COLUMN_RULE: &str = "tax-column";
/// The forced id of the credit a row states in a credit column inside its
/// amount (AWS monthly report `Credits`): its own `credit` item, on the
/// row's line.
pub const CREDIT_COLUMN_RULE: &str = "credit-column";

impl LineItem {
    /// An item a row gives besides its own charge (a listed credit, the
    /// tax of a tax column): on the charge's line, with its currency and
    /// dates, of the category `rule` decides.
    pub fn beside(
        charge: &LineItem,
        description: String,
        amount: Decimal,
        (category, rule): (Category, &'static str),
    ) -> Self {
        let mut part = LineItem::new(charge.line, description, amount);
        part.currency.clone_from(&charge.currency);
        part.start = charge.start;
        part.end = charge.end;
        part.forced = Some((category, rule));
        part
    }

    /// The tax of a tax column or the credit of a credit column
    /// ([`TAX_COLUMN_RULE`], [`CREDIT_COLUMN_RULE`]): a part of its row's
    /// amount, which repeats when its row does.
    pub fn is_row_part(&self) -> bool {
        self.forced
            .is_some_and(|(_, id)| id == TAX_COLUMN_RULE || id == CREDIT_COLUMN_RULE)
    }

    pub fn new(line: u64, description: impl Into<String>, amount: Decimal) -> Self {
        let description = description.into();
        let class_text = vec![vec![description.clone()]];
        Self::with_class_text(line, description, amount, class_text)
    }

    /// A line item classified from `class_text` (tiers of texts) rather
    /// than from its description alone.
    pub fn with_class_text(
        line: u64,
        description: String,
        amount: Decimal,
        class_text: Vec<Vec<String>>,
    ) -> Self {
        LineItem {
            line,
            class_text,
            description,
            amount,
            quantity: None,
            unit: None,
            unit_price: None,
            price_unit: None,
            list_amount: None,
            currency: None,
            start: None,
            end: None,
            date_proves: None,
            resource: None,
            fingerprint: 0,
            forced: None,
            category: Category::Other,
            rule: "".into(),
            terms: None,
        }
    }
}

/// Totals per category, indexed by [`Category::index`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Totals(pub [Decimal; 8]);

impl Totals {
    pub fn get(&self, c: Category) -> Decimal {
        self.0[c.index()]
    }

    /// Adds without overflow; `None` when the sum no longer fits a Decimal.
    pub fn checked_add(&mut self, c: Category, amount: Decimal) -> Option<()> {
        let slot = &mut self.0[c.index()];
        *slot = slot.checked_add(amount)?;
        Some(())
    }

    /// Sums the picked categories; `None` when the sum does not fit a Decimal.
    pub fn checked_sum(&self, pick: impl Fn(Category) -> bool) -> Option<Decimal> {
        Category::ALL
            .into_iter()
            .filter(|c| pick(*c))
            .try_fold(Decimal::ZERO, |a, c| a.checked_add(self.get(c)))
    }

    /// Whether the total, subtotal and hidden sums all fit a Decimal, so
    /// that [`Totals::sum`] never saturates.
    pub fn sums_fit(&self) -> bool {
        self.checked_sum(|_| true).is_some()
            && self.checked_sum(Category::in_subtotal).is_some()
            && self.checked_sum(Category::is_hidden).is_some()
    }

    pub fn sum(&self, pick: impl Fn(Category) -> bool) -> Decimal {
        Category::ALL
            .into_iter()
            .filter(|c| pick(*c))
            .map(|c| self.get(c))
            .fold(Decimal::ZERO, |a, b| a.saturating_add(b))
    }
}

/// An exact decimal as the report writes it: scale kept, never `-0`.
pub fn dec(d: Decimal) -> String {
    let mut d = d;
    if d.is_zero() {
        d.set_sign_positive(true);
    }
    d.to_string()
}

/// A serde visitor for an exact decimal written in a config file: a string
/// (`"5%"`, `"2.00"`) read by `parse`, or a TOML number read through its
/// shortest decimal spelling, never through binary arithmetic.
pub struct DecimalText {
    pub parse: fn(&str) -> Result<Decimal, String>,
    /// What the value should look like, for serde's "expected ..." message.
    pub expecting: &'static str,
}

impl serde::de::Visitor<'_> for DecimalText {
    type Value = Decimal;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.expecting)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Decimal, E> {
        (self.parse)(v).map_err(E::custom)
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Decimal, E> {
        if !v.is_finite() {
            return Err(E::custom("not a finite number"));
        }
        self.visit_str(&format!("{v}"))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Decimal, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Decimal, E> {
        self.visit_str(&v.to_string())
    }
}
