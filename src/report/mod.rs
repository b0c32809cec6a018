//! Stage 5: rendering. One file per output format, chosen by a plain match.
//! Reports go to stdout; progress and errors never do.

pub(crate) mod csv;
pub mod focus;
pub mod focus_parquet;
pub(crate) mod github;
pub(crate) mod gitlab;
pub mod html;
pub mod human;
pub mod json;
pub(crate) mod junit;
pub mod lines;
pub(crate) mod markdown;
pub mod paint;
pub(crate) mod sarif;

use std::io;

use rust_decimal::Decimal;

use crate::audit::{Bill, share};
use crate::expect::{Report, Status};
use crate::model::Severity;
/// Re-exported where the reports always found them.
pub use crate::model::dec;
pub use crate::terminal::{term_report, term_text};

/// Output formats of `billaudit audit` and `billaudit check` (the
/// command line's `--format` is `cli::args::FormatArg`, built from
/// [`Format::ALL`], [`Format::name`] and [`Format::help`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Human,
    Json,
    Jsonl,
    Csv,
    Markdown,
    Junit,
    Sarif,
    Github,
    Gitlab,
    Html,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 10] = [
        Format::Human,
        Format::Json,
        Format::Jsonl,
        Format::Csv,
        Format::Markdown,
        Format::Junit,
        Format::Sarif,
        Format::Github,
        Format::Gitlab,
        Format::Html,
    ];

    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        self.row().0
    }

    /// What the format is for, one line (the `--format` help).
    pub fn help(self) -> &'static str {
        self.row().1
    }

    fn row(self) -> (&'static str, &'static str) {
        match self {
            Format::Human => ("human", "Tables and findings for people (default)"),
            Format::Json => ("json", "One JSON document (docs/json-output.md)"),
            Format::Jsonl => (
                "jsonl",
                "One JSON object per bill, streamed as each finishes",
            ),
            Format::Csv => ("csv", "One CSV row per bill, safe to open in a spreadsheet"),
            Format::Markdown => (
                "markdown",
                "Markdown for pull-request comments and $GITHUB_STEP_SUMMARY",
            ),
            Format::Junit => (
                "junit",
                "JUnit XML: a testsuite per bill, a testcase per check",
            ),
            Format::Sarif => ("sarif", "SARIF 2.1.0 for code-scanning tools"),
            Format::Github => (
                "github",
                "GitHub Actions annotations (`::error file=...,line=...::`)",
            ),
            Format::Gitlab => (
                "gitlab",
                "GitLab Code Quality JSON (`> gl-code-quality-report.json`)",
            ),
            Format::Html => (
                "html",
                "One self-contained HTML page with charts (`> report.html`)",
            ),
        }
    }
}

/// What a result weighs in the run's verdict: the formats with levels
/// (SARIF, GitLab) say it as the exit code does (docs/output-formats.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// Reported, and cannot fail the run: an accepted finding, an input
    /// error that the bill's expectation records.
    Accepted,
    /// Reported, below the fail level (or a finding under `check`, whose
    /// verdict is the expectations).
    Reported,
    /// Fails the run with exit code 1: a finding at or above `--fail-on`
    /// (`audit`), a broken, mismatched or required-but-missing expectation
    /// (`check`).
    Fails,
    /// Fails the run with exit code 2: an input that could not be audited.
    InputError,
}

/// A result that is not a finding: an input error, or an expectation of
/// `check` that failed. `code` is its rule / check name in SARIF and GitLab.
#[derive(Debug, Clone)]
pub struct Other {
    pub code: &'static str,
    pub path: String,
    pub line: Option<u64>,
    pub message: String,
    pub weight: Weight,
}

/// The rule id of an input that could not be audited.
pub const INPUT_ERROR: &str = "input-error";

/// The rule id of an expectation of `check` that did not hold: the audit
/// differs from it, it cannot be read, or it is missing (a failure only
/// under `--require-expectations`).
pub fn expectation_code(s: &Status) -> Option<&'static str> {
    match s {
        Status::Mismatch(_) => Some("expectation-mismatch"),
        Status::Broken(_) => Some("expectation-broken"),
        Status::Missing => Some("expectation-missing"),
        Status::Matched | Status::Blessed => None,
    }
}

impl Context {
    /// How a finding weighs: accepted ones never fail; under `check` the
    /// findings do not fail the run (the expectations do).
    pub fn weigh(&self, f: &crate::model::Finding) -> Weight {
        if f.accepted.is_some() {
            Weight::Accepted
        } else if !self.check && f.fails(self.fail_on) {
            Weight::Fails
        } else {
            Weight::Reported
        }
    }

    /// The input errors and failed expectations of a report, weighed as
    /// [`crate::expect::exit`] does: an input error that a matched
    /// expectation records is [`Weight::Accepted`]; a missing expectation
    /// is reported only under `--require-expectations`.
    pub fn others(&self, report: &Report) -> Vec<Other> {
        let mut out = Vec::new();
        let unexpected =
            crate::expect::exit::unexpected_errors(&report.expectations, &report.errors);
        for e in &report.errors {
            let line = match e {
                crate::Error::Input(i) => i.line,
                _ => None,
            };
            let expected = self.check && !unexpected.iter().any(|u| std::ptr::eq(*u, e));
            out.push(Other {
                code: INPUT_ERROR,
                path: e.path().unwrap_or("").to_string(),
                line,
                message: e.to_string(),
                weight: if expected {
                    Weight::Accepted
                } else {
                    Weight::InputError
                },
            });
        }
        for o in &report.expectations {
            let message = match &o.status {
                Status::Mismatch(d) => format!(
                    "{} differs from {}: {}",
                    o.path,
                    o.expectation,
                    d.join("; ")
                ),
                Status::Broken(m) => format!("{} is broken: {m}", o.expectation),
                Status::Missing if self.require_expectations => {
                    format!(
                        "{} has no expectation ({} is missing)",
                        o.path, o.expectation
                    )
                }
                _ => continue,
            };
            // A broken expectation is located at itself, the others at the bill.
            let path = match o.status {
                Status::Broken(_) => o.expectation.clone(),
                _ => o.path.clone(),
            };
            if let Some(code) = expectation_code(&o.status) {
                out.push(Other {
                    code,
                    path,
                    line: None,
                    message,
                    weight: Weight::Fails,
                });
            }
        }
        out
    }
}

/// What the renderers need to know besides the report itself.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    /// Findings at or above this level fail (JUnit failures, SARIF levels).
    pub fail_on: Severity,
    /// `billaudit check`: expectation results are the verdict.
    pub check: bool,
    /// Colour in the human report (no other format is ever painted).
    pub paint: paint::Paint,
    /// `billaudit check --require-expectations`: a bill without an
    /// expectation fails the run.
    pub require_expectations: bool,
}

impl Default for Context {
    fn default() -> Self {
        Context {
            fail_on: Severity::Error,
            check: false,
            paint: paint::Paint::Plain,
            require_expectations: false,
        }
    }
}

/// How every renderer of a whole [`Report`] is called: the report, the
/// context (fail level, colour, `check`), and where to write it. Each
/// format's file has one (`json::write`, `html::write`, ...);
/// [`Format::renderer`] is the table.
pub type Renderer = fn(&Report, &Context, &mut dyn io::Write) -> io::Result<()>;

impl Format {
    /// The renderer of this format.
    pub fn renderer(self) -> Renderer {
        // The formats built as one text are written in one `write_all`.
        match self {
            // Escaped (`term_report`) piece by piece in `paint::Styled`.
            Format::Human => human::write,
            Format::Json => json::write,
            Format::Jsonl => json::write_lines,
            Format::Csv => |r, _, out| out.write_all(csv::render(r).as_bytes()),
            Format::Markdown => markdown::write,
            Format::Junit => |r, c, out| out.write_all(junit::render(r, c).as_bytes()),
            Format::Sarif => |r, c, out| out.write_all(sarif::render(r, c).as_bytes()),
            Format::Github => |r, _, out| out.write_all(github::render(r).as_bytes()),
            Format::Gitlab => |r, c, out| out.write_all(gitlab::render(r, c).as_bytes()),
            Format::Html => html::write,
        }
    }
}

/// Writes a whole report in the chosen format to `out`.
pub fn write(
    report: &Report,
    format: Format,
    ctx: &Context,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    (format.renderer())(report, ctx, out)
}

/// Renders a whole report in the chosen format, as text ([`write`] into
/// memory).
///
/// ```
/// use billaudit::{Context, Format, Options, audit_paths, render};
///
/// let bill = format!("{}/fixtures/csv/gpu-pod-en.csv", env!("CARGO_MANIFEST_DIR"));
/// let report = audit_paths(&[bill], &Options::default());
/// let json = render(&report, Format::Json, &Context::default());
/// // docs/json-output.md: money is exact text; 233.52 + 18.23 - 10.00 = 241.75.
/// let v: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(v["bills"][0]["total"], "241.75");
/// assert_eq!(v["passed"], false);
/// ```
pub fn render(report: &Report, format: Format, ctx: &Context) -> String {
    let mut text = Vec::new();
    // Writing into memory cannot fail, and every renderer writes UTF-8.
    let _ = write(report, format, ctx, &mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// The figures of all bills in one currency.
#[derive(Debug, Clone, PartialEq)]
pub struct CurrencySummary {
    pub currency: Option<String>,
    pub bills: usize,
    pub failed: usize,
    pub subtotal: Decimal,
    pub hidden: Decimal,
    pub total: Decimal,
    pub hidden_share: Option<Decimal>,
    /// Up to three bills with the highest hidden share: (path, share).
    pub worst: Vec<(String, Decimal)>,
    /// For a bill of unknown currency, which is never summed with another:
    /// its path.
    pub unknown_bill: Option<String>,
}

impl CurrencySummary {
    /// `USD`, or `currency unknown (path)` for a bill of unknown currency.
    pub fn label(&self) -> String {
        match (&self.currency, &self.unknown_bill) {
            (Some(c), _) => c.clone(),
            (None, Some(p)) => format!("currency unknown ({p})"),
            (None, None) => "currency unknown".into(),
        }
    }
}

/// Aggregates per currency, in order of first appearance. Amounts in
/// different currencies are never added together, and a bill of unknown
/// currency is never added to another: it has a summary of its own (two
/// unknown currencies may be two currencies).
pub fn summarise(bills: &[Bill]) -> Vec<CurrencySummary> {
    let mut out: Vec<CurrencySummary> = Vec::new();
    for b in bills {
        let same = |s: &CurrencySummary| s.currency.is_some() && s.currency == b.currency;
        let i = match out.iter().position(same) {
            Some(i) => i,
            None => {
                out.push(CurrencySummary {
                    currency: b.currency.clone(),
                    bills: 0,
                    failed: 0,
                    subtotal: Decimal::ZERO,
                    hidden: Decimal::ZERO,
                    total: Decimal::ZERO,
                    hidden_share: None,
                    worst: Vec::new(),
                    unknown_bill: b.currency.is_none().then(|| b.path.clone()),
                });
                out.len() - 1
            }
        };
        let s = &mut out[i];
        s.bills += 1;
        s.failed += usize::from(!b.passed);
        s.subtotal = s.subtotal.saturating_add(b.subtotal);
        s.hidden = s.hidden.saturating_add(b.hidden);
        s.total = s.total.saturating_add(b.total);
        if let Some(h) = b.hidden_share {
            s.worst.push((b.path.clone(), h));
        }
    }
    for s in &mut out {
        s.hidden_share = share(s.hidden, s.subtotal);
        s.worst
            .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        s.worst.truncate(3);
    }
    out
}

/// The most severe finding of a bill, for one-line summaries.
pub fn worst_finding(b: &Bill) -> Option<&crate::model::Finding> {
    // An accepted finding is the worst only when every finding is accepted.
    b.findings.iter().max_by(|a, b| {
        (a.accepted.is_none(), a.severity)
            .cmp(&(b.accepted.is_none(), b.severity))
            .then_with(|| b.line.cmp(&a.line))
    })
}

/// A bill of compute 90.00 and bandwidth 10.00 (hidden 10.00 of a subtotal
/// of 100.00: 10%) under the policy of a billaudit.toml, for the report
/// formats' tests.
#[cfg(test)]
pub(crate) fn test_bill(toml: &str) -> crate::audit::Bill {
    use crate::audit::{BillState, Policy};
    use crate::model::{Category, LineItem};
    let config = crate::config::parse("billaudit.toml", toml).unwrap();
    let mut policy = Policy::default();
    config.apply_policy(&mut policy);
    let mut b = BillState::new("bill.csv", "csv", Some("USD".into()), &policy);
    for (line, category, amount) in [
        (2, Category::Compute, "90.00"),
        (3, Category::Bandwidth, "10.00"),
    ] {
        let mut item = LineItem::new(line, "x", amount.parse().unwrap());
        item.category = category;
        b.add_item(&item);
    }
    b.finish()
}
