//! `--format json`: the contract documented in `docs/json-output.md`.
//! Money is an exact decimal string; shares are fractions with 6 places.

use serde::{Deserialize, Serialize};

use super::dec;
use crate::audit::Bill;
use crate::error::Error;
use crate::model::{Category, Finding};
use crate::pipeline::Report;

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
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JsonBill {
    pub path: String,
    pub format: String,
    pub currency: Option<String>,
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

pub fn to_json(report: &Report) -> JsonReport {
    JsonReport {
        schema_version: SCHEMA_VERSION,
        passed: report.passed(),
        bills: report.bills.iter().map(JsonBill::from).collect(),
        errors: report.errors.iter().map(JsonError::from).collect(),
    }
}

pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&to_json(report))
        .unwrap_or_else(|e| format!("{{\"schema_version\":{SCHEMA_VERSION},\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}
