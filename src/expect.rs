//! Fixture expectations for `billaudit check`: a `<bill>.expect.toml`
//! beside a bill records what its audit must give. A change in behaviour
//! shows up as a readable diff per field, never a silent change.

pub mod exit;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::audit::Bill;
use crate::error::Error;
use crate::model::Category;
use crate::model::dec;

/// The result of a run over many inputs.
#[derive(Debug, Default)]
pub struct Report {
    /// The audited bills, in path order (one per file and currency).
    pub bills: Vec<Bill>,
    /// Inputs that could not be audited (exit code 2).
    pub errors: Vec<Error>,
    /// Inputs not audited because `--fail-fast` stopped the run.
    pub not_audited: usize,
    /// Expectation results, for `billaudit check`.
    pub expectations: Vec<Outcome>,
}

impl Report {
    /// No bill failed and every input could be read.
    pub fn passed(&self) -> bool {
        self.errors.is_empty() && self.bills.iter().all(|b| b.passed)
    }
}

/// The expectation file beside a bill: `bill.csv` -> `bill.csv.expect.toml`.
pub fn expectation_path(bill: &Path) -> PathBuf {
    let mut name = bill
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".expect.toml");
    bill.with_file_name(name)
}

/// What a bill file must give.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// The input error expected instead of bills (a substring of its message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, rename = "bill", skip_serializing_if = "Vec::is_empty")]
    pub bills: Vec<ExpectedBill>,
}

/// One bill (one currency) of the file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedBill {
    pub currency: Option<String>,
    pub passed: bool,
    pub total: String,
    pub hidden_share: Option<String>,
    /// Finding codes with their lines: `line-arithmetic:3`, or the code
    /// alone for a bill-level finding.
    pub findings: Vec<String>,
    /// Exact totals per category.
    pub totals: BTreeMap<String, String>,
}

impl ExpectedBill {
    pub fn of(b: &Bill) -> Self {
        ExpectedBill {
            currency: b.currency.clone(),
            passed: b.passed,
            total: dec(b.total),
            hidden_share: b.hidden_share.map(dec),
            findings: b
                .findings
                .iter()
                .map(|f| match f.line {
                    Some(l) => format!("{}:{l}", f.code),
                    None => f.code.to_string(),
                })
                .collect(),
            totals: Category::ALL
                .iter()
                .map(|c| (c.to_string(), dec(b.totals.get(*c))))
                .collect(),
        }
    }
}

impl Expectation {
    pub fn of(result: &Result<Vec<Bill>, &Error>) -> Self {
        match result {
            Ok(bills) => Expectation {
                error: None,
                bills: bills.iter().map(ExpectedBill::of).collect(),
            },
            Err(e) => Expectation {
                error: Some(error_message(e)),
                bills: Vec::new(),
            },
        }
    }

    /// The differences between what was expected and what the audit gave,
    /// one readable line per field.
    pub fn diff(&self, actual: &Expectation) -> Vec<String> {
        let mut out = Vec::new();
        match (&self.error, &actual.error) {
            (Some(want), Some(got)) if got.contains(want.as_str()) => return out,
            (Some(want), Some(got)) => {
                out.push(format!(
                    "error: expected a message containing `{want}`, got `{got}`"
                ));
                return out;
            }
            (Some(want), None) => {
                out.push(format!(
                    "error: expected `{want}`, but the bill was audited"
                ));
                return out;
            }
            (None, Some(got)) => {
                out.push(format!(
                    "error: expected bills, got the input error `{got}`"
                ));
                return out;
            }
            (None, None) => {}
        }
        if self.bills.len() != actual.bills.len() {
            out.push(format!(
                "bills: expected {} (currencies {}), got {} (currencies {})",
                self.bills.len(),
                currencies(&self.bills),
                actual.bills.len(),
                currencies(&actual.bills)
            ));
        }
        for want in &self.bills {
            let label = want.currency.as_deref().unwrap_or("no currency");
            let Some(got) = actual.bills.iter().find(|b| b.currency == want.currency) else {
                out.push(format!("bill {label}: expected, but not in the audit"));
                continue;
            };
            let mut field = |name: &str, w: String, g: String| {
                if w != g {
                    out.push(format!("bill {label}: {name}: expected {w}, got {g}"));
                }
            };
            field("total", want.total.clone(), got.total.clone());
            field(
                "hidden_share",
                opt(&want.hidden_share),
                opt(&got.hidden_share),
            );
            field("passed", want.passed.to_string(), got.passed.to_string());
            for (cat, w) in &want.totals {
                let g = got
                    .totals
                    .get(cat)
                    .cloned()
                    .unwrap_or_else(|| "(none)".into());
                field(&format!("totals.{cat}"), w.clone(), g);
            }
            if want.findings != got.findings {
                let missing: Vec<&String> = want
                    .findings
                    .iter()
                    .filter(|f| !got.findings.contains(f))
                    .collect();
                let extra: Vec<&String> = got
                    .findings
                    .iter()
                    .filter(|f| !want.findings.contains(f))
                    .collect();
                out.push(format!(
                    "bill {label}: findings: expected [{}], got [{}] (missing: [{}], new: [{}])",
                    want.findings.join(", "),
                    got.findings.join(", "),
                    join(&missing),
                    join(&extra)
                ));
            }
        }
        out
    }

    pub fn to_toml(&self, bill_name: &str) -> String {
        let body = toml::to_string_pretty(self).unwrap_or_default();
        format!(
            "# Expected audit of `{bill_name}`, checked by `billaudit check`.\n\
             # Regenerate after a reviewed change with `billaudit check --bless`.\n\n{body}"
        )
    }
}

fn opt(s: &Option<String>) -> String {
    s.clone().unwrap_or_else(|| "null".into())
}

fn join(v: &[&String]) -> String {
    v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

fn currencies(b: &[ExpectedBill]) -> String {
    b.iter()
        .map(|b| b.currency.clone().unwrap_or_else(|| "none".into()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn error_message(e: &Error) -> String {
    match e {
        Error::Input(i) => i.message.clone(),
        Error::Io { source, .. } => source.to_string(),
        Error::Usage(m) => m.clone(),
    }
}

/// How one bill file fared against its expectation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Matched,
    Mismatch(Vec<String>),
    /// No expectation file beside the bill.
    Missing,
    /// `--bless` wrote the expectation.
    Blessed,
    /// The expectation file itself could not be read.
    Broken(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub path: String,
    pub expectation: String,
    pub status: Status,
}

/// Reads an expectation file. `Ok(None)` when there is none.
pub fn load(path: &Path) -> Result<Option<Expectation>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    toml::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `content` to `path` atomically: a temporary file in the same
/// directory, flushed, then renamed over the target.
pub fn write_atomic(path: &Path, content: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(content.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Compares (or, with `bless`, records) the audit of one bill file.
pub fn check_file(bill_path: &str, result: Result<Vec<Bill>, &Error>, bless: bool) -> Outcome {
    let exp_path = expectation_path(Path::new(bill_path));
    let actual = Expectation::of(&result);
    let outcome = |status| Outcome {
        path: bill_path.to_string(),
        expectation: exp_path.display().to_string(),
        status,
    };
    let existing = match load(&exp_path) {
        Ok(e) => e,
        Err(msg) if !bless => return outcome(Status::Broken(msg)),
        Err(_) => None,
    };
    if bless {
        if existing.as_ref() == Some(&actual) {
            return outcome(Status::Matched);
        }
        let name = Path::new(bill_path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return match write_atomic(&exp_path, &actual.to_toml(&name)) {
            Ok(()) => outcome(Status::Blessed),
            Err(e) => outcome(Status::Broken(format!(
                "{}: cannot write: {e}",
                exp_path.display()
            ))),
        };
    }
    match existing {
        None => outcome(Status::Missing),
        Some(want) => {
            let diffs = want.diff(&actual);
            if diffs.is_empty() {
                outcome(Status::Matched)
            } else {
                outcome(Status::Mismatch(diffs))
            }
        }
    }
}
