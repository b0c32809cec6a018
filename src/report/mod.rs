//! Stage 5: rendering. One file per output format, chosen by a plain match.
//! Reports go to stdout; progress and errors never do.

pub mod csv;
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
use crate::model::Severity;
use crate::pipeline::Report;

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

/// Bill text made safe to print on a terminal, for every human-readable
/// format (`audit`/`check` human, `lines`, `reprice`, markdown, github):
/// each control character (C0 including tab, CR and LF, DEL, C1) and each
/// bidi embedding, override or isolate mark (U+202A-U+202E, U+2066-U+2069)
/// is written as its Rust escape, `\u{1b}`. An ESC sequence in a
/// description then cannot recolour, clear or rewrite the screen, and a
/// line break in it cannot fake a report line. Borrowed when clean.
pub fn term_text(s: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(s, false)
}

/// A whole human report: escaped as [`term_text`], except the printer's
/// own line feeds. The last guard: fields are escaped with [`term_text`]
/// where they are written, so a line feed inside bill text never gets here.
pub fn term_report(s: String) -> String {
    match escape_controls(&s, true) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(o) => o,
    }
}

fn escape_controls(s: &str, keep_lf: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && !(keep_lf && c == '\n'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// An exact decimal as the report writes it: scale kept, never `-0`.
pub fn dec(d: Decimal) -> String {
    let mut d = d;
    if d.is_zero() {
        d.set_sign_positive(true);
    }
    d.to_string()
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
