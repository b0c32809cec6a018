//! `--format json`: the contract documented in `docs/json-output.md`.
//! Money is an exact decimal string; shares are fractions with 6 places.

use serde::{Deserialize, Serialize};

use super::{dec, summarise};
use crate::audit::Bill;
use crate::audit::baseline::{Baseline, BaselineBill};
use crate::error::Error;
use crate::expect::Report;
use crate::expect::{Outcome, Status};
use crate::model::{Category, Finding};

/// Bumped on any incompatible change of this document.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonReport {
    pub schema_version: u32,
    pub passed: bool,
    pub bills: Vec<JsonBill>,
    /// Inputs that could not be audited.
    #[serde(default)]
    pub errors: Vec<JsonError>,
    /// Inputs not audited because `--fail-fast` stopped the run.
    #[serde(default)]
    pub not_audited: usize,
    /// Aggregates per currency.
    #[serde(default)]
    pub summary: Vec<JsonSummary>,
    /// `billaudit check` only: one entry per bill file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expectations: Vec<JsonExpectation>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonSummary {
    pub currency: Option<String>,
    pub bills: usize,
    pub failed: usize,
    pub subtotal: String,
    pub hidden: String,
    pub total: String,
    pub hidden_share: Option<String>,
    /// The bill, when its currency is unknown: such a bill is never summed
    /// with another and has a summary of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bill: Option<String>,
    pub worst: Vec<JsonWorst>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonWorst {
    pub path: String,
    pub hidden_share: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonExpectation {
    pub path: String,
    pub expectation: String,
    /// `matched`, `mismatch`, `missing`, `blessed` or `broken`.
    pub status: String,
    pub diffs: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonBaseline {
    pub found: bool,
    pub previous_hidden_share: Option<String>,
    pub new_findings: Vec<String>,
    pub vanished_findings: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonBill {
    pub path: String,
    pub format: String,
    pub currency: Option<String>,
    /// Set when the file has no currency column: where the currency came
    /// from (a header suffix), or that it is unknown.
    #[serde(default)]
    pub currency_note: Option<String>,
    pub line_items: u64,
    pub skipped_rows: u64,
    #[serde(default)]
    pub skipped: JsonSkipped,
    pub totals: JsonTotals,
    pub subtotal: String,
    pub total: String,
    pub hidden: String,
    pub hidden_share: Option<String>,
    pub replica_share: Option<String>,
    #[serde(default)]
    pub stated_subtotal: Option<String>,
    #[serde(default)]
    pub stated_total: Option<String>,
    pub findings: Vec<Finding>,
    pub passed: bool,
    /// With `--baseline`: what changed since the earlier report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<JsonBaseline>,
    /// How the file was read where it does not say itself (the order
    /// assumed for slashed dates). Serialised only when there are some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The encoding the file was read in when it was not UTF-8, and why.
    /// Serialised only then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<JsonEncoding>,
    /// The columns whose roles were inferred from the content, with the
    /// reasons. Serialised only when there are some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inferred_columns: Vec<JsonInferredColumn>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonEncoding {
    pub name: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonInferredColumn {
    pub role: String,
    /// 1-based, as `--columns role=N` takes it.
    pub column: usize,
    /// The header cell, `null` in a file without a header row.
    pub header: Option<String>,
    pub reason: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct JsonSkipped {
    pub unparsable: u64,
    pub missing_amount: u64,
    pub blank: u64,
    pub summary: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonTotals {
    pub compute: String,
    pub storage: String,
    pub storage_replica: String,
    pub bandwidth: String,
    pub scheduling: String,
    pub tax: String,
    pub credit: String,
    pub other: String,
}

impl JsonTotals {
    /// The total of one category (an exhaustive match: a new category
    /// does not compile until the JSON has its field).
    pub fn get(&self, c: Category) -> &str {
        match c {
            Category::Compute => &self.compute,
            Category::Storage => &self.storage,
            Category::StorageReplica => &self.storage_replica,
            Category::Bandwidth => &self.bandwidth,
            Category::Scheduling => &self.scheduling,
            Category::Tax => &self.tax,
            Category::Credit => &self.credit,
            Category::Other => &self.other,
        }
    }

    /// `(category, total)` in the order of [`Category::ALL`].
    pub fn pairs(&self) -> [(&'static str, &str); 8] {
        Category::ALL.map(|c| (c.as_str(), self.get(c)))
    }

    /// The eight totals in the order of [`Category::ALL`].
    pub fn values(&self) -> [&str; 8] {
        self.pairs().map(|(_, v)| v)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonError {
    pub path: Option<String>,
    pub line: Option<u64>,
    pub field: Option<String>,
    pub message: String,
}

impl From<&Bill> for JsonBill {
    fn from(b: &Bill) -> Self {
        let t = |c: Category| dec(b.totals.get(c));
        JsonBill {
            path: b.path.clone(),
            format: b.format.clone(),
            currency: b.currency.clone(),
            currency_note: b.currency_note.clone(),
            line_items: b.line_items,
            skipped_rows: b.skipped_rows(),
            skipped: JsonSkipped {
                unparsable: b.skipped.unparsable,
                missing_amount: b.skipped.missing_amount,
                blank: b.skipped.blank,
                summary: b.skipped.summary,
            },
            totals: JsonTotals {
                compute: t(Category::Compute),
                storage: t(Category::Storage),
                storage_replica: t(Category::StorageReplica),
                bandwidth: t(Category::Bandwidth),
                scheduling: t(Category::Scheduling),
                tax: t(Category::Tax),
                credit: t(Category::Credit),
                other: t(Category::Other),
            },
            subtotal: dec(b.subtotal),
            total: dec(b.total),
            hidden: dec(b.hidden),
            hidden_share: b.hidden_share.map(dec),
            replica_share: b.replica_share.map(dec),
            stated_subtotal: b.stated_subtotal.map(dec),
            stated_total: b.stated_total.map(dec),
            findings: b.findings.clone(),
            passed: b.passed,
            baseline: b.baseline.as_ref().map(|d| JsonBaseline {
                found: d.found,
                previous_hidden_share: d.previous_hidden_share.map(dec),
                new_findings: d.new_findings.clone(),
                vanished_findings: d.vanished_findings.clone(),
            }),
            notes: b.notes.clone(),
            encoding: b.encoding.as_ref().map(|e| JsonEncoding {
                name: e.name.clone(),
                reason: e.reason.clone(),
            }),
            inferred_columns: b
                .inferred_columns
                .iter()
                .map(|c| JsonInferredColumn {
                    role: c.role.as_str().to_string(),
                    column: c.column + 1,
                    header: c.header.clone(),
                    reason: c.reason.clone(),
                })
                .collect(),
        }
    }
}

/// An earlier JSON report read back for `--baseline`: the figures the
/// comparison needs, as domain values. A hidden share that is not a number
/// counts as none.
impl From<&JsonReport> for Baseline {
    fn from(r: &JsonReport) -> Self {
        Baseline {
            bills: r
                .bills
                .iter()
                .map(|b| BaselineBill {
                    path: b.path.clone(),
                    currency: b.currency.clone(),
                    hidden_share: b.hidden_share.as_deref().and_then(|s| s.parse().ok()),
                    findings: b.findings.clone(),
                })
                .collect(),
        }
    }
}

impl From<&Error> for JsonError {
    fn from(e: &Error) -> Self {
        match e {
            Error::Input(i) => JsonError {
                path: Some(i.path.clone()),
                line: i.line,
                field: i.field.clone(),
                message: i.message.clone(),
            },
            Error::Io { path, source } => JsonError {
                path: Some(path.clone()),
                line: None,
                field: None,
                message: source.to_string(),
            },
            Error::Usage(m) => JsonError {
                path: None,
                line: None,
                field: None,
                message: m.clone(),
            },
        }
    }
}

impl From<&Outcome> for JsonExpectation {
    fn from(o: &Outcome) -> Self {
        let (status, diffs) = match &o.status {
            Status::Matched => ("matched", Vec::new()),
            Status::Mismatch(d) => ("mismatch", d.clone()),
            Status::Missing => ("missing", Vec::new()),
            Status::Blessed => ("blessed", Vec::new()),
            Status::Broken(m) => ("broken", vec![m.clone()]),
        };
        JsonExpectation {
            path: o.path.clone(),
            expectation: o.expectation.clone(),
            status: status.into(),
            diffs,
        }
    }
}

pub fn summary_json(bills: &[crate::audit::Bill]) -> Vec<JsonSummary> {
    summarise(bills)
        .into_iter()
        .map(|s| JsonSummary {
            currency: s.currency,
            bills: s.bills,
            failed: s.failed,
            subtotal: dec(s.subtotal),
            hidden: dec(s.hidden),
            total: dec(s.total),
            hidden_share: s.hidden_share.map(dec),
            bill: s.unknown_bill,
            worst: s
                .worst
                .into_iter()
                .map(|(path, h)| JsonWorst {
                    path,
                    hidden_share: dec(h),
                })
                .collect(),
        })
        .collect()
}

pub fn to_json(report: &Report) -> JsonReport {
    JsonReport {
        schema_version: SCHEMA_VERSION,
        passed: report.passed(),
        bills: report.bills.iter().map(JsonBill::from).collect(),
        errors: report.errors.iter().map(JsonError::from).collect(),
        not_audited: report.not_audited,
        summary: summary_json(&report.bills),
        expectations: report
            .expectations
            .iter()
            .map(JsonExpectation::from)
            .collect(),
    }
}

fn to_string<T: Serialize>(v: &T, pretty: bool) -> String {
    let r = if pretty {
        serde_json::to_string_pretty(v)
    } else {
        serde_json::to_string(v)
    };
    r.unwrap_or_else(|e| format!("{{\"schema_version\":{SCHEMA_VERSION},\"error\":\"{e}\"}}"))
}

/// `--format json`: the [`Renderer`](super::Renderer) of the format.
pub fn write(
    report: &Report,
    _ctx: &super::Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    out.write_all(render(report).as_bytes())
}

pub fn render(report: &Report) -> String {
    let mut s = to_string(&to_json(report), true);
    s.push('\n');
    s
}

/// One JSON Lines record.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JsonLine {
    Bill(Box<JsonBill>),
    Error(JsonError),
    Expectation(JsonExpectation),
}

fn line(record: JsonLine) -> String {
    let mut s = to_string(&record, false);
    s.push('\n');
    s
}

/// The JSON Lines records of one input's result, for streaming.
pub fn lines_of(result: &Result<Vec<crate::audit::Bill>, Error>) -> String {
    match result {
        Ok(bills) => bills
            .iter()
            .map(|b| line(JsonLine::Bill(Box::new(JsonBill::from(b)))))
            .collect(),
        Err(e) => line(JsonLine::Error(JsonError::from(e))),
    }
}

pub fn expectation_line(o: &Outcome) -> String {
    line(JsonLine::Expectation(JsonExpectation::from(o)))
}

/// `--format jsonl` for a finished report: the [`Renderer`](super::Renderer) of the format.
pub fn write_lines(
    report: &Report,
    _ctx: &super::Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    out.write_all(render_lines(report).as_bytes())
}

/// `--format jsonl` for a finished report (the CLI streams instead).
pub fn render_lines(report: &Report) -> String {
    let mut s = String::new();
    for b in &report.bills {
        s.push_str(&line(JsonLine::Bill(Box::new(JsonBill::from(b)))));
    }
    for e in &report.errors {
        s.push_str(&line(JsonLine::Error(JsonError::from(e))));
    }
    for o in &report.expectations {
        s.push_str(&expectation_line(o));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{BillState, Policy};

    #[test]
    fn a_json_report_becomes_a_baseline_by_path_and_currency() {
        let bill =
            BillState::new("oct.csv", "csv", Some("EUR".into()), &Policy::default()).finish();
        let mut good = JsonBill::from(&bill);
        good.hidden_share = Some("0.031000".into());
        let mut bad = good.clone();
        bad.path = "nov.csv".into();
        bad.hidden_share = Some("3.1%".into());
        let report = JsonReport {
            schema_version: 1,
            passed: true,
            bills: vec![good, bad],
            errors: Vec::new(),
            not_audited: 0,
            summary: Vec::new(),
            expectations: Vec::new(),
        };
        let b = Baseline::from(&report);
        assert_eq!(b.bills.len(), 2);
        assert_eq!(
            (b.bills[0].path.as_str(), b.bills[0].currency.as_deref()),
            ("oct.csv", Some("EUR"))
        );
        // "0.031000" read as the exact decimal 31/1000
        assert_eq!(
            b.bills[0].hidden_share,
            Some(rust_decimal::Decimal::new(31, 3))
        );
        // "3.1%" is not a number: no share, as before the split
        assert_eq!(b.bills[1].hidden_share, None);
    }

    #[test]
    fn totals_are_the_categories_in_their_order() {
        // A totals object written from Category::ALL, with each category's
        // index as its value, reads back field by field and is written
        // again with the keys in the order of Category::ALL.
        let names: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
        let map: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .enumerate()
            .rev()
            .map(|(i, n)| (n.to_string(), serde_json::Value::from(i.to_string())))
            .collect();
        let t: JsonTotals = serde_json::from_value(serde_json::Value::Object(map)).unwrap();
        for (i, c) in Category::ALL.into_iter().enumerate() {
            assert_eq!(t.get(c), i.to_string());
        }
        let pairs = t.pairs();
        assert_eq!(pairs.map(|(n, _)| n).to_vec(), names);
        let json = serde_json::to_string(&t).unwrap();
        let order: Vec<usize> = names
            .iter()
            .map(|n| json.find(&format!("\"{n}\"")).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{json}");
    }
}
