//! `billaudit convert --to focus`: every line item as one FOCUS 1.2 Cost and
//! Usage row (docs/focus-export.md gives the mapping and the decisions).
//!
//! The items of one input are held until its bills are audited, because a
//! row names the findings on its line (`x_Findings`) and a line without a
//! date takes its bill's period; then they are written and dropped. Only
//! the current input is held.

use std::collections::BTreeMap;
use std::io::Write;

use chrono::{Datelike, Months, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::audit::{Bill, SkipCounts};
use crate::model::{Category, LineItem, dec};
use crate::vocab::{currency, focus::SERVICE_CATEGORIES};

/// The 57 columns of FOCUS 1.2 Cost and Usage, in the specification's order.
pub const COLUMNS: [&str; 57] = [
    "ProviderName",
    "PublisherName",
    "InvoiceIssuerName",
    "InvoiceId",
    "BillingAccountId",
    "BillingAccountName",
    "BillingAccountType",
    "SubAccountId",
    "SubAccountName",
    "SubAccountType",
    "BillingPeriodStart",
    "BillingPeriodEnd",
    "ChargePeriodStart",
    "ChargePeriodEnd",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "BilledCost",
    "EffectiveCost",
    "ListCost",
    "ContractedCost",
    "ListUnitPrice",
    "ContractedUnitPrice",
    "PricingCategory",
    "PricingQuantity",
    "PricingUnit",
    "PricingCurrency",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
    "BillingCurrency",
    "ConsumedQuantity",
    "ConsumedUnit",
    "ServiceName",
    "ServiceCategory",
    "ServiceSubcategory",
    "SkuId",
    "SkuMeter",
    "SkuPriceId",
    "SkuPriceDetails",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "RegionId",
    "RegionName",
    "AvailabilityZone",
    "CommitmentDiscountId",
    "CommitmentDiscountName",
    "CommitmentDiscountCategory",
    "CommitmentDiscountType",
    "CommitmentDiscountStatus",
    "CommitmentDiscountQuantity",
    "CommitmentDiscountUnit",
    "CapacityReservationId",
    "CapacityReservationStatus",
    "Tags",
];

/// billaudit's own facts, after the FOCUS columns (`x_` is the
/// specification's prefix for columns of one's own).
pub const EXTRA_COLUMNS: [&str; 6] = [
    "x_BillauditCategory",
    "x_BillauditRule",
    "x_SourceFile",
    "x_SourceLine",
    "x_Findings",
    "x_ChargePeriodSource",
];

/// The ISO 4217 code for "no currency": a bill whose currency billaudit
/// could not tell (no column, no mark).
pub const NO_CURRENCY: &str = "XXX";

/// `BillingAccountType` (not null where the column is written): billaudit
/// knows one kind of account, the one the bill is for.
pub const BILLING_ACCOUNT_TYPE: &str = "Billing Account";

/// Where a row's charge period came from (`x_ChargePeriodSource`).
pub(crate) mod period_source {
    /// The line's own date(s).
    pub(crate) const LINE: &str = "line";
    /// The line has no date: its bill's billing period.
    pub(crate) const BILL: &str = "bill";
    /// No line of the bill has a date: the period given with `--period`.
    pub(crate) const GIVEN: &str = "given";
    /// No date anywhere and no `--period`: the month of 1970-01 stands in.
    pub(crate) const NONE: &str = "none";
}

/// What a conversion wrote and left out, per run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rows written (line items).
    pub rows: u64,
    /// Summary rows (subtotal, total) read and not written.
    pub summary_rows: u64,
    /// Other rows skipped by the audit (blank, unparsable, no amount).
    pub skipped: SkipCounts,
    /// Sum of BilledCost per BillingCurrency.
    pub billed: BTreeMap<String, Decimal>,
    /// Rows whose period is not their own date (`x_ChargePeriodSource` not `line`).
    pub inferred_periods: u64,
    /// Rows of bills without any date and no `--period` (1970-01 stands in).
    pub undated: u64,
}

impl Tally {
    /// Rows the audit skipped that are not summary rows.
    pub fn other_skipped(&self) -> u64 {
        self.skipped.total() - self.skipped.summary
    }

    /// The one line on stderr.
    pub fn summary_line(&self) -> String {
        let mut s = format!(
            "convert: {} FOCUS rows written; not written: {} summary rows, {} skipped rows",
            self.rows,
            self.summary_rows,
            self.other_skipped()
        );
        if self.inferred_periods > 0 {
            s.push_str(&format!(
                "; {} rows without a date of their own (x_ChargePeriodSource)",
                self.inferred_periods
            ));
        }
        if self.undated > 0 {
            s.push_str(&format!(
                "; {} rows of bills without any date got 1970-01 (give --period YYYY-MM)",
                self.undated
            ));
        }
        s
    }

    /// The sidecar `FILE.meta.json` (docs/focus-export.md).
    pub fn to_json(&self) -> String {
        let billed: serde_json::Map<String, serde_json::Value> = self
            .billed
            .iter()
            .map(|(c, d)| (c.clone(), serde_json::Value::String(dec(*d))))
            .collect();
        let v = serde_json::json!({
            "focus_version": "1.2",
            "dataset": "Cost and Usage",
            "rows": self.rows,
            "summary_rows": self.summary_rows,
            "skipped_rows": {
                "total": self.other_skipped(),
                "blank": self.skipped.blank,
                "unparsable": self.skipped.unparsable,
                "missing_amount": self.skipped.missing_amount,
            },
            "billed_cost": billed,
            "inferred_periods": self.inferred_periods,
            "undated_rows": self.undated,
        });
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Writes FOCUS rows as CSV, one input at a time.
pub struct FocusCsv<W: Write> {
    w: csv::Writer<W>,
    /// The month used for bills without any date (`--period`).
    period: Option<NaiveDate>,
    pub tally: Tally,
}

impl<W: Write> FocusCsv<W> {
    /// Writes the header row. `period` is the first day of the month that
    /// bills without any date are given.
    pub fn new(out: W, period: Option<NaiveDate>) -> std::io::Result<Self> {
        let mut w = csv::WriterBuilder::new().from_writer(out);
        w.write_record(COLUMNS.iter().chain(EXTRA_COLUMNS.iter()))
            .map_err(std::io::Error::other)?;
        Ok(FocusCsv {
            w,
            period,
            tally: Tally::default(),
        })
    }

    /// Writes the items of one input (each with the path the item hook
    /// gave), with the bills the audit made of them.
    pub fn write_input(
        &mut self,
        items: &[(String, LineItem)],
        bills: &[Bill],
    ) -> std::io::Result<()> {
        for b in bills {
            self.tally.summary_rows += b.skipped.summary;
            let s = &mut self.tally.skipped;
            s.summary += b.skipped.summary;
            s.blank += b.skipped.blank;
            s.unparsable += b.skipped.unparsable;
            s.missing_amount += b.skipped.missing_amount;
        }
        let fallback = bills.first().and_then(|b| b.currency.clone());
        let currencies: Vec<String> = items
            .iter()
            .map(|(_, i)| billing_currency(i.currency.as_deref().or(fallback.as_deref())))
            .collect();
        // The billing period of each currency's bill: the months its dates span.
        let mut periods: BTreeMap<&str, (NaiveDateTime, NaiveDateTime)> = BTreeMap::new();
        for ((_, item), cur) in items.iter().zip(&currencies) {
            if let Some((s, e)) = charge_period(item) {
                let p = periods.entry(cur).or_insert((s, e));
                p.0 = p.0.min(s);
                p.1 = p.1.max(e);
            }
        }
        for ((path, item), cur) in items.iter().zip(&currencies) {
            let (billing, source) = match periods.get(cur.as_str()) {
                Some((s, e)) => ((month_start(*s), month_end(*e)), None),
                None => match self.period {
                    Some(p) => (month_of(p), Some(period_source::GIVEN)),
                    None => {
                        self.tally.undated += 1;
                        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
                        (month_of(epoch), Some(period_source::NONE))
                    }
                },
            };
            let (charge, source) = match (charge_period(item), source) {
                (Some(c), _) => (c, period_source::LINE),
                (None, Some(s)) => (billing, s),
                (None, None) => (billing, period_source::BILL),
            };
            if source != period_source::LINE {
                self.tally.inferred_periods += 1;
            }
            let bill = bills
                .iter()
                .find(|b| b.path == *path)
                .or_else(|| bills.first());
            let findings = findings_on(bills, path, item.line);
            let row = Row {
                path,
                item,
                currency: cur,
                format: bill.map_or("", |b| b.format.as_str()),
                billing,
                charge,
                period_source: source,
                findings: &findings,
            };
            self.w
                .write_record(row.cells())
                .map_err(std::io::Error::other)?;
            self.tally.rows += 1;
            let sum = self.tally.billed.entry(cur.clone()).or_default();
            *sum = sum.checked_add(item.amount).unwrap_or(*sum);
        }
        self.w.flush()
    }

    /// Flushes and returns what was written.
    pub fn finish(mut self) -> std::io::Result<Tally> {
        self.w.flush()?;
        Ok(self.tally)
    }
}

/// The check codes of the findings on `path:line`, `;`-separated, each once.
fn findings_on(bills: &[Bill], path: &str, line: u64) -> String {
    let mut codes: Vec<&str> = Vec::new();
    for f in bills.iter().flat_map(|b| &b.findings) {
        if f.line == Some(line) && f.path == path {
            let code = f.code.code();
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
    }
    codes.join(";")
}

/// ISO 4217: a code as billaudit holds it (`USD`; `RMB` becomes `CNY`), a
/// symbol or name through `vocab::currency` (`¥` is CNY there), or
/// [`NO_CURRENCY`].
pub fn billing_currency(held: Option<&str>) -> String {
    let Some(c) = held.map(str::trim).filter(|c| !c.is_empty()) else {
        return NO_CURRENCY.to_string();
    };
    if let Some(code) = currency::code_of(c) {
        return code.to_string();
    }
    if c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()) {
        return c.to_ascii_uppercase();
    }
    NO_CURRENCY.to_string()
}

/// The line's own charge period, end exclusive: a date alone (or an end not
/// after the start) covers one day from it; an end at midnight on a month's
/// last day (`2024-11-01 .. 2024-11-30`, an invoice's period) is that day
/// included.
fn charge_period(item: &LineItem) -> Option<(NaiveDateTime, NaiveDateTime)> {
    let start = item.start.or(item.end)?;
    let day = chrono::Duration::days(1);
    let end = match item.end {
        Some(e) if e > start && e.time() == chrono::NaiveTime::MIN && (e + day).day() == 1 => {
            e + day
        }
        Some(e) if e > start => e,
        _ => start + day,
    };
    Some((start, end))
}

fn month_start(d: NaiveDateTime) -> NaiveDateTime {
    first_of_month(d.date())
}

/// The first instant of the month after the one `d` falls in, or `d` itself
/// when it is a month's first instant (an exclusive end).
fn month_end(d: NaiveDateTime) -> NaiveDateTime {
    let first = first_of_month(d.date());
    if first == d {
        return d;
    }
    first.checked_add_months(Months::new(1)).unwrap_or(first)
}

fn first_of_month(d: NaiveDate) -> NaiveDateTime {
    d.with_day(1)
        .unwrap_or(d)
        .and_hms_opt(0, 0, 0)
        .unwrap_or_default()
}

fn month_of(d: NaiveDate) -> (NaiveDateTime, NaiveDateTime) {
    let s = first_of_month(d);
    (s, s.checked_add_months(Months::new(1)).unwrap_or(s))
}

fn iso(d: NaiveDateTime) -> String {
    d.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Provider, publisher and invoice issuer, from the profile that read the bill.
fn provider(format: &str) -> &'static str {
    match format {
        "aws-cur" | "aws-cur2" => "AWS",
        "azure" => "Microsoft",
        "gcp" => "Google Cloud",
        "oci" => "Oracle",
        "alibaba" => "Alibaba Cloud",
        "tencent" => "Tencent Cloud",
        "huawei" => "Huawei Cloud",
        _ => "Unknown",
    }
}

/// FOCUS `ChargeCategory` from billaudit's category.
pub fn charge_category(c: Category) -> &'static str {
    match c {
        Category::Tax => "Tax",
        Category::Credit => "Credit",
        _ => "Usage",
    }
}

/// FOCUS `ServiceCategory`: the source's own where it has one (a FOCUS
/// input's `ServiceCategory`, kept in the item's classification texts),
/// else from billaudit's category.
pub fn service_category(item: &LineItem, format: &str) -> &'static str {
    if format == "focus" {
        let own = item
            .class_text
            .iter()
            .rev()
            .flatten()
            .find_map(|t| SERVICE_CATEGORIES.iter().find(|s| **s == t.as_str()));
        if let Some(s) = own {
            return s;
        }
    }
    match item.category {
        Category::Compute => "Compute",
        Category::Storage | Category::StorageReplica => "Storage",
        Category::Bandwidth => "Networking",
        Category::Scheduling => "Management and Governance",
        Category::Tax | Category::Credit | Category::Other => "Other",
    }
}

/// One row's inputs.
struct Row<'a> {
    path: &'a str,
    item: &'a LineItem,
    currency: &'a str,
    format: &'a str,
    billing: (NaiveDateTime, NaiveDateTime),
    charge: (NaiveDateTime, NaiveDateTime),
    period_source: &'static str,
    findings: &'a str,
}

impl Row<'_> {
    /// The cells, in the order of [`COLUMNS`] then [`EXTRA_COLUMNS`]; `""` is null.
    fn cells(&self) -> Vec<String> {
        let i = self.item;
        let who = provider(self.format);
        let billed = dec(i.amount);
        let list = dec(i.list_amount.unwrap_or(i.amount));
        let usage = !matches!(i.category, Category::Tax | Category::Credit);
        // The bill's unit price, kept where FOCUS's own arithmetic holds
        // (ListUnitPrice x PricingQuantity = ListCost); null elsewhere.
        let list_cost = i.list_amount.unwrap_or(i.amount);
        let unit_price = match (i.unit_price, i.quantity) {
            (Some(p), Some(q)) if p.checked_mul(q) == Some(list_cost) => dec(p),
            _ => String::new(),
        };
        let service = service_category(i, self.format);
        let opt = |s: Option<&str>| s.unwrap_or_default().to_string();
        // The price's own unit column, else the quantity's unit; null with
        // a null PricingQuantity, as FOCUS requires.
        let pricing_unit = match i.quantity {
            Some(_) => opt(i.price_unit.as_deref().or(i.unit.as_deref())),
            None => String::new(),
        };
        let cells: [(&str, String); 63] = [
            ("ProviderName", who.into()),
            ("PublisherName", who.into()),
            ("InvoiceIssuerName", who.into()),
            ("InvoiceId", String::new()),
            ("BillingAccountId", self.path.into()),
            ("BillingAccountName", String::new()),
            ("BillingAccountType", BILLING_ACCOUNT_TYPE.into()),
            ("SubAccountId", String::new()),
            ("SubAccountName", String::new()),
            ("SubAccountType", String::new()),
            ("BillingPeriodStart", iso(self.billing.0)),
            ("BillingPeriodEnd", iso(self.billing.1)),
            ("ChargePeriodStart", iso(self.charge.0)),
            ("ChargePeriodEnd", iso(self.charge.1)),
            ("ChargeCategory", charge_category(i.category).into()),
            ("ChargeClass", String::new()),
            ("ChargeDescription", i.description.clone()),
            (
                "ChargeFrequency",
                if usage { "Usage-Based" } else { "One-Time" }.into(),
            ),
            ("BilledCost", billed.clone()),
            ("EffectiveCost", billed.clone()),
            ("ListCost", list),
            ("ContractedCost", billed.clone()),
            ("ListUnitPrice", unit_price.clone()),
            ("ContractedUnitPrice", String::new()),
            ("PricingCategory", String::new()),
            ("PricingQuantity", i.quantity.map(dec).unwrap_or_default()),
            ("PricingUnit", pricing_unit),
            ("PricingCurrency", self.currency.into()),
            ("PricingCurrencyContractedUnitPrice", String::new()),
            ("PricingCurrencyEffectiveCost", billed.clone()),
            ("PricingCurrencyListUnitPrice", unit_price),
            ("BillingCurrency", self.currency.into()),
            ("ConsumedQuantity", String::new()),
            ("ConsumedUnit", String::new()),
            ("ServiceName", format!("{who} {service}")),
            ("ServiceCategory", service.into()),
            ("ServiceSubcategory", format!("Other ({service})")),
            ("SkuId", String::new()),
            ("SkuMeter", String::new()),
            ("SkuPriceId", String::new()),
            ("SkuPriceDetails", String::new()),
            ("ResourceId", opt(i.resource.as_deref())),
            ("ResourceName", String::new()),
            ("ResourceType", String::new()),
            ("RegionId", String::new()),
            ("RegionName", String::new()),
            ("AvailabilityZone", String::new()),
            ("CommitmentDiscountId", String::new()),
            ("CommitmentDiscountName", String::new()),
            ("CommitmentDiscountCategory", String::new()),
            ("CommitmentDiscountType", String::new()),
            ("CommitmentDiscountStatus", String::new()),
            ("CommitmentDiscountQuantity", String::new()),
            ("CommitmentDiscountUnit", String::new()),
            ("CapacityReservationId", String::new()),
            ("CapacityReservationStatus", String::new()),
            ("Tags", String::new()),
            ("x_BillauditCategory", i.category.as_str().into()),
            ("x_BillauditRule", i.rule.to_string()),
            ("x_SourceFile", self.path.into()),
            ("x_SourceLine", i.line.to_string()),
            ("x_Findings", self.findings.into()),
            ("x_ChargePeriodSource", self.period_source.into()),
        ];
        debug_assert!(
            cells
                .iter()
                .map(|c| c.0)
                .eq(COLUMNS.iter().chain(EXTRA_COLUMNS.iter()).copied())
        );
        cells.into_iter().map(|c| c.1).collect()
    }
}

#[cfg(test)]
mod tests;
