//! Stage 5: rendering. One file per output format, chosen by a plain match.
//! Reports go to stdout; progress and errors never do.

pub mod csv;
pub mod focus;
pub mod github;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod lines;
pub mod markdown;
pub mod sarif;

use rust_decimal::Decimal;

use crate::audit::{Bill, share};
use crate::expect::Report;
use crate::model::Severity;
/// Re-exported where the reports always found them.
pub use crate::model::dec;
pub use crate::terminal::{term_report, term_text};

/// Output formats of `billaudit audit` and `billaudit check`.
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
    /// A self-contained HTML page with charts (`report/html/`).
    Html,
}

/// What the renderers need to know besides the report itself.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    /// Findings at or above this level fail (JUnit failures, SARIF levels).
    pub fail_on: Severity,
    /// `billaudit check`: expectation results are the verdict.
    pub check: bool,
}

impl Default for Context {
    fn default() -> Self {
        Context {
            fail_on: Severity::Error,
            check: false,
        }
    }
}

/// Renders a whole report in the chosen format.
pub fn render(report: &Report, format: Format, ctx: &Context) -> String {
    match format {
        Format::Human => term_report(human::render(report, ctx)),
        Format::Json => json::render(report),
        Format::Jsonl => json::render_lines(report),
        Format::Csv => csv::render(report),
        Format::Markdown => term_report(markdown::render(report, ctx)),
        Format::Junit => junit::render(report, ctx),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report),
        Format::Html => html::render(report),
    }
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
}

/// Aggregates per currency, in order of first appearance. Amounts in
/// different currencies are never added together.
pub fn summarise(bills: &[Bill]) -> Vec<CurrencySummary> {
    let mut out: Vec<CurrencySummary> = Vec::new();
    for b in bills {
        let i = match out.iter().position(|s| s.currency == b.currency) {
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
