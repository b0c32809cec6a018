//! `--format html`: one self-contained page for people who will not read
//! JSON. Inline CSS and inline SVG drawn here; no script, no font, no image
//! and no link leaves the file (a Content-Security-Policy says so too).
//!
//! The page is a set of [maud] templates, checked at compile time. maud
//! escapes every spliced string, so a text from a bill can never become
//! markup; the only unescaped text is the static stylesheet
//! (`style::CSS`). Bill text goes through `text::Text`, which also turns
//! control characters into U+FFFD.
//!
//! Every chart has a table of its figures under it, so nothing is only in a
//! picture. Every figure shown as text is an exact decimal; `f64` is used
//! only for the geometry of the drawings. Every long list is cut at a
//! documented limit and says how much was left out.
//!
//! One file per job: `mod.rs` the page layout (head, summary, unreadable
//! inputs, navigation, footer), `overview.rs` the batch overview, `bill.rs`
//! one bill's section, `findings.rs` its findings table, `charts.rs` the
//! SVG charts, `svg.rs` their drawing kit, `text.rs` bill text on the page,
//! `style.rs` the stylesheet.

mod bill;
mod charts;
mod findings;
mod overview;
mod style;
mod svg;
#[cfg(test)]
mod tests;
mod text;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::dec;
use crate::expect::Report;
use crate::model::Severity;
use text::{above, bill_name, cut_text, plural, result_tag};

/// Bills drawn in full, in input order; the rest are in the overview only.
pub const MAX_BILL_SECTIONS: usize = 100;
/// Bars in the overview chart (the highest hidden shares).
pub const MAX_OVERVIEW_BARS: usize = 40;
/// Rows of the overview table.
pub const MAX_OVERVIEW_ROWS: usize = 1000;
/// Findings listed per bill.
pub const MAX_FINDINGS_SHOWN: usize = 50;
/// Unreadable inputs listed.
pub const MAX_ERRORS_SHOWN: usize = 100;
/// Currencies drawn in the overview trend.
pub const MAX_TREND_SERIES: usize = 6;
/// Characters of a description shown in a table cell; the rest is in `title`.
pub const DESCRIPTION_CHARS: usize = 120;

/// `--format html`: the [`Renderer`](super::Renderer) of the format.
pub fn write(
    report: &Report,
    _ctx: &super::Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    out.write_all(render(report).as_bytes())
}

/// The whole page.
pub fn render(report: &Report) -> String {
    let n = report.bills.len();
    let version = env!("CARGO_PKG_VERSION");
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content={ "billaudit " (version) };
                title { "billaudit report: " (plural(n, "bill", "bills")) }
                style { (PreEscaped(style::CSS)) }
            }
            body {
                (svg::defs())
                (header(report))
                @if !report.errors.is_empty() {
                    (errors(report))
                }
                @if n > 1 {
                    (overview::section(report))
                    (nav(report))
                }
                @for (i, b) in report.bills.iter().take(MAX_BILL_SECTIONS).enumerate() {
                    (bill::section(i + 1, b))
                }
                @if n > MAX_BILL_SECTIONS {
                    p.note #bills-not-shown {
                        (n - MAX_BILL_SECTIONS) " more bills not shown in detail (only the first "
                        (MAX_BILL_SECTIONS) " are); every bill is counted in the summary and ranked in the overview."
                    }
                }
                footer.muted {
                    p {
                        "Made by billaudit " (version) ". Hidden fees are storage_replica + bandwidth + scheduling; "
                        "the hidden share is hidden fees / subtotal (every category but tax and credit). "
                        "Amounts are exact, as the bills state them."
                    }
                }
            }
        }
    };
    let mut page = page.into_string();
    page.push('\n');
    page
}

/// The title and the summary of the whole run.
fn header(report: &Report) -> Markup {
    let n = report.bills.len();
    let failed = report.bills.iter().filter(|b| !b.passed).count();
    let count = |s: Severity| {
        report
            .bills
            .iter()
            .flat_map(|b| &b.findings)
            .filter(|f| f.severity == s)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let unread = report.errors.len();
    let above_n = report.bills.iter().filter(|b| above(b)).count();
    let word = |k: usize, one: &'static str, many: &'static str| if k == 1 { one } else { many };
    html! {
        header {
            h1 { "billaudit report" }
            p.muted {
                "Where the money went, how large the hidden part is against its threshold, and which lines cause it."
            }
            div.summary {
                div { b { (n) } " " (word(n, "bill", "bills")) " audited" }
                div { b { (n - failed) } " passed" }
                div { b { (failed) } " failed" }
                div { b { (above_n) } " above the hidden-fee threshold" }
                div {
                    b { (errors) } " " (word(errors, "error", "errors")) ", "
                    b { (warnings) } " " (word(warnings, "warning", "warnings"))
                }
                div { b { (unread) } " " (word(unread, "input", "inputs")) " could not be read" }
            }
            p { "Overall: " (result_tag(report.passed())) }
        }
    }
}

/// The inputs that could not be read, with their errors.
fn errors(report: &Report) -> Markup {
    html! {
        section #errors {
            h2 { "Inputs that could not be read" }
            table {
                thead { tr { th { "#" } th { "error" } } }
                tbody {
                    @for (i, e) in report.errors.iter().take(MAX_ERRORS_SHOWN).enumerate() {
                        tr { td.num { (i + 1) } td.text { (cut_text(&e.to_string(), 400, false)) } }
                    }
                }
            }
            @if report.errors.len() > MAX_ERRORS_SHOWN {
                p.note { (report.errors.len() - MAX_ERRORS_SHOWN) " more unreadable inputs not shown." }
            }
        }
    }
}

/// Links to the bills drawn in detail.
fn nav(report: &Report) -> Markup {
    html! {
        nav aria-label="Bills" {
            h2 { "Bills" }
            ol {
                @for (i, b) in report.bills.iter().take(MAX_BILL_SECTIONS).enumerate() {
                    li {
                        a href={ "#bill-" (i + 1) } { (cut_text(&bill_name(b), 90, false)) }
                        " " (result_tag(b.passed))
                    }
                }
            }
        }
    }
}
