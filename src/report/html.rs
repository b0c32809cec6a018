//! `--format html`: one self-contained page for people who will not read
//! JSON. Inline CSS and inline SVG drawn here; no script, no font, no image
//! and no link leaves the file (a Content-Security-Policy says so too).
//!
//! Every chart has a table of its figures under it, so nothing is only in a
//! picture. Every figure shown as text is an exact decimal; `f64` is used
//! only for the geometry of the drawings. Every text that came from a bill
//! goes through [`esc`]. Every long list is cut at a documented limit and
//! says how much was left out.

use std::collections::BTreeMap;
use std::fmt::Write;

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use unicode_width::UnicodeWidthStr;

use super::dec;
use crate::audit::hidden_items::cut;
use crate::audit::{Bill, MAX_MONTHS, TOP_HIDDEN, percent, share};
use crate::model::{Category, Severity};
use crate::pipeline::Report;

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
/// Characters of a bill's name in a chart label.
const LABEL_CHARS: usize = 36;
/// Characters of a `file:line` shown in a table cell.
const LOCATION_CHARS: usize = 48;

/// Chart width in SVG user units; charts scale to the page width.
const W: f64 = 720.0;

/// Okabe-Ito colours, which stay distinct for the common forms of colour
/// blindness. Hidden categories are also hatched and labelled.
fn colour(c: Category) -> &'static str {
    match c {
        Category::Compute => "#0072B2",
        Category::Storage => "#56B4E9",
        Category::Other => "#BBBBBB",
        Category::StorageReplica => "#E69F00",
        Category::Bandwidth => "#D55E00",
        Category::Scheduling => "#CC79A7",
        Category::Tax => "#F0E442",
        Category::Credit => "#009E73",
    }
}
const ABOVE: &str = "#D55E00";
const WITHIN: &str = "#009E73";
const SERIES: [&str; MAX_TREND_SERIES] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
];

/// The order of the stacked bar: what was priced first, hidden fees last
/// and side by side, so one bracket can span them.
const BAR_ORDER: [Category; 6] = [
    Category::Compute,
    Category::Storage,
    Category::Other,
    Category::StorageReplica,
    Category::Bandwidth,
    Category::Scheduling,
];

const CSS: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
  color: #1a1a1a; background: #fff; max-width: 1040px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.6em; margin: .2em 0; }
h2 { font-size: 1.3em; margin: 1.4em 0 .4em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
p { margin: .3em 0; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .92em; }
.muted { color: #555; }
.note { color: #444; background: #f4f4f4; border-left: 3px solid #999; padding: 3px 8px; margin: .4em 0; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; margin: .6em 0; }
.summary div { border: 1px solid #ccc; border-radius: 4px; padding: 4px 10px; }
.summary b { font-size: 1.2em; }
table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 2px 0; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; border-bottom: 1px solid #999; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.text { overflow-wrap: anywhere; }
td.code { white-space: nowrap; }
tr.sum td { border-top: 1px solid #777; font-weight: 600; }
.tag { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: .85em; font-weight: 600; white-space: nowrap; }
.error { background: #D55E00; color: #fff; }
.warning { background: #E69F00; color: #000; }
.hidden { background: #fff; color: #000; border: 1px dashed #000; }
.failed { background: #D55E00; color: #fff; }
.passed { background: #009E73; color: #fff; }
.cut { color: #555; font-style: italic; white-space: nowrap; }
figure { margin: .6em 0 1em; }
figcaption { font-weight: 600; margin-bottom: 2px; }
svg.chart { display: block; width: 100%; height: auto; max-width: 900px; }
svg.chart text { font-family: inherit; }
section.bill { border-top: 3px solid #333; margin-top: 2em; }
nav ol { columns: 2; font-size: 13px; }
a { color: #0062a0; }
@page { size: A4; margin: 12mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  nav { display: none; }
  section.bill { break-before: page; border-top: none; }
  /* A chart is never cut, and stays with its caption; long tables may
     break between rows, with their header repeated. */
  svg.chart, table.keep, .note { break-inside: avoid; }
  tr { break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3, caption, figcaption, p.muted { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
"#;

/// Patterns shared by every chart on the page.
const DEFS: &str = concat!(
    r##"<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>"##,
    r##"<pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"##,
    r##"<rect x="0" y="0" width="3" height="7" fill="#ffffff" fill-opacity="0.55"/></pattern>"##,
    r##"</defs></svg>"##
);

/// Escapes text for HTML element content and quoted attribute values:
/// `& < > " '`. Control characters (other than tab and newline), which HTML
/// does not allow, become U+FFFD.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A text cut to `max` characters, visibly: the cut text ends in an ellipsis
/// and a note of how much is missing, and the full text is the `title`.
/// `already_cut` says the text was cut before (a kept description).
fn cut_text(s: &str, max: usize, already_cut: bool) -> String {
    let (short, cut_here) = cut(s, max);
    if !cut_here && !already_cut {
        return esc(s);
    }
    let total = s.chars().count();
    let missing = total - short.chars().count();
    let note = if already_cut {
        format!("+{missing} characters, and more not kept")
    } else {
        format!("+{missing} characters")
    };
    let title = if already_cut {
        format!("{s} … (cut at {total} characters)")
    } else {
        s.to_string()
    };
    format!(
        "<span title=\"{}\">{}<span class=\"cut\">… [{}]</span></span>",
        esc(&title),
        esc(&short),
        note
    )
}

/// The end of a long name, for chart labels: `…/csv/bill.csv`.
fn tail(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let skip = n - max.saturating_sub(1);
    format!("…{}", s.chars().skip(skip).collect::<String>())
}

/// A `file:line` location for a table cell: kept on one line, and when long
/// only its end is shown (the line number matters most), the whole in `title`.
fn location(path: &str, line: Option<u64>) -> String {
    let full = match line {
        Some(l) => format!("{path}:{l}"),
        None => path.to_string(),
    };
    if full.chars().count() <= LOCATION_CHARS {
        return esc(&full);
    }
    format!(
        "<span title=\"{}\">{}</span>",
        esc(&full),
        esc(&tail(&full, LOCATION_CHARS))
    )
}

/// part / whole as a drawing fraction in [0, 1].
fn frac(part: Decimal, whole: Decimal) -> f64 {
    if whole <= Decimal::ZERO {
        return 0.0;
    }
    let f = part.to_f64().unwrap_or(0.0) / whole.to_f64().unwrap_or(1.0);
    if f.is_finite() {
        f.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

fn f(d: Decimal) -> f64 {
    d.to_f64().filter(|x| x.is_finite()).unwrap_or(0.0)
}

/// Approximate drawn width of a label at 12px, for placing it.
fn text_w(s: &str) -> f64 {
    s.width() as f64 * 7.6
}

/// SVG text with a white halo, readable on any fill.
fn label(x: f64, y: f64, anchor: &str, weight: &str, text: &str) -> String {
    format!(
        "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" font-size=\"12\" font-weight=\"{weight}\" \
         fill=\"#111\" stroke=\"#fff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>",
        esc(text)
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn bill_name(b: &Bill) -> String {
    match &b.currency {
        Some(c) => format!("{} ({c})", b.path),
        None => b.path.clone(),
    }
}

/// The directory every bill's path starts with (`fixtures/csv/`), or "".
fn common_dir(bills: &[Bill]) -> &str {
    let Some(first) = bills.first() else {
        return "";
    };
    let mut end = first.path.len();
    for b in &bills[1..] {
        let common = first
            .path
            .char_indices()
            .zip(b.path.chars())
            .find(|((_, x), y)| x != y)
            .map_or(first.path.len().min(b.path.len()), |((i, _), _)| i);
        end = end.min(common);
    }
    let head = &first.path[..end];
    match head.rfind(['/', '\\']) {
        Some(i) => &first.path[..=i],
        None => "",
    }
}

fn above(b: &Bill) -> bool {
    b.findings.iter().any(|f| f.code == "hidden-fee-share")
}

fn status(b: &Bill) -> &'static str {
    match b.hidden_share {
        None => "no share",
        Some(_) if above(b) => "above threshold",
        Some(_) => "within threshold",
    }
}

fn result_tag(passed: bool) -> &'static str {
    if passed {
        "<span class=\"tag passed\">PASSED</span>"
    } else {
        "<span class=\"tag failed\">FAILED</span>"
    }
}

pub fn render(report: &Report) -> String {
    let mut o = String::with_capacity(64 * 1024);
    let n = report.bills.len();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"billaudit {}\">\n<title>billaudit report: {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{DEFS}\n",
        env!("CARGO_PKG_VERSION"),
        plural(n, "bill", "bills")
    );
    render_header(&mut o, report);
    if !report.errors.is_empty() {
        render_errors(&mut o, report);
    }
    if n > 1 {
        render_overview(&mut o, report);
    }
    if n > 1 {
        let _ = writeln!(o, "<nav aria-label=\"Bills\"><h2>Bills</h2><ol>");
        for (i, b) in report.bills.iter().take(MAX_BILL_SECTIONS).enumerate() {
            let _ = writeln!(
                o,
                "<li><a href=\"#bill-{}\">{}</a> {}</li>",
                i + 1,
                cut_text(&bill_name(b), 90, false),
                result_tag(b.passed)
            );
        }
        let _ = writeln!(o, "</ol></nav>");
    }
    for (i, b) in report.bills.iter().take(MAX_BILL_SECTIONS).enumerate() {
        render_bill(&mut o, i + 1, b);
    }
    if n > MAX_BILL_SECTIONS {
        let _ = writeln!(
            o,
            "<p class=\"note\" id=\"bills-not-shown\">{} more bills not shown in detail (only the first {MAX_BILL_SECTIONS} are); \
             every bill is counted in the summary and ranked in the overview.</p>",
            n - MAX_BILL_SECTIONS
        );
    }
    let _ = writeln!(
        o,
        "<footer class=\"muted\"><p>Made by billaudit {}. Hidden fees are storage_replica + bandwidth + scheduling; \
         the hidden share is hidden fees / subtotal (every category but tax and credit). Amounts are exact, as the bills state them.</p></footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    o
}

fn render_header(o: &mut String, report: &Report) {
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
    let above_n = report.bills.iter().filter(|b| above(b)).count();
    let _ = writeln!(
        o,
        "<header><h1>billaudit report</h1>\
         <p class=\"muted\">Where the money went, how large the hidden part is against its threshold, and which lines cause it.</p>\
         <div class=\"summary\">\
         <div><b>{n}</b> {} audited</div>\
         <div><b>{}</b> passed</div>\
         <div><b>{failed}</b> failed</div>\
         <div><b>{above_n}</b> above the hidden-fee threshold</div>\
         <div><b>{}</b> {}, <b>{}</b> {}</div>\
         <div><b>{}</b> {} could not be read</div>\
         </div>\
         <p>Overall: {}</p></header>",
        if n == 1 { "bill" } else { "bills" },
        n - failed,
        count(Severity::Error),
        if count(Severity::Error) == 1 {
            "error"
        } else {
            "errors"
        },
        count(Severity::Warning),
        if count(Severity::Warning) == 1 {
            "warning"
        } else {
            "warnings"
        },
        report.errors.len(),
        if report.errors.len() == 1 {
            "input"
        } else {
            "inputs"
        },
        result_tag(report.passed())
    );
}

fn render_errors(o: &mut String, report: &Report) {
    let _ = writeln!(
        o,
        "<section id=\"errors\"><h2>Inputs that could not be read</h2>\
         <table><thead><tr><th>#</th><th>error</th></tr></thead><tbody>"
    );
    for (i, e) in report.errors.iter().take(MAX_ERRORS_SHOWN).enumerate() {
        let _ = writeln!(
            o,
            "<tr><td class=\"num\">{}</td><td class=\"text\">{}</td></tr>",
            i + 1,
            cut_text(&e.to_string(), 400, false)
        );
    }
    let _ = writeln!(o, "</tbody></table>");
    if report.errors.len() > MAX_ERRORS_SHOWN {
        let _ = writeln!(
            o,
            "<p class=\"note\">{} more unreadable inputs not shown.</p>",
            report.errors.len() - MAX_ERRORS_SHOWN
        );
    }
    let _ = writeln!(o, "</section>");
}

// ---------------------------------------------------------------- overview

fn render_overview(o: &mut String, report: &Report) {
    let n = report.bills.len();
    let mut ranked: Vec<(usize, &Bill)> = report.bills.iter().enumerate().collect();
    // Highest share first; bills without a share last; input order on ties.
    ranked.sort_by(|(ia, a), (ib, b)| b.hidden_share.cmp(&a.hidden_share).then_with(|| ia.cmp(ib)));
    let _ = writeln!(
        o,
        "<section id=\"overview\"><h2>Overview</h2>\
         <figure><figcaption>Hidden share per bill, highest first, against the threshold</figcaption>"
    );
    let dir = common_dir(&report.bills);
    if !dir.is_empty() {
        let _ = writeln!(
            o,
            "<p class=\"muted\">Chart labels are paths under <code>{}</code>.</p>",
            esc(dir)
        );
    }
    overview_chart(o, &ranked, dir);
    if n > MAX_OVERVIEW_BARS {
        let _ = writeln!(
            o,
            "<p class=\"note\">The chart shows the {MAX_OVERVIEW_BARS} highest of {n} bills; {} more not shown in the chart.</p>",
            n - MAX_OVERVIEW_BARS
        );
    }
    let _ = writeln!(
        o,
        "<table id=\"overview-table\"><caption>Hidden share per bill</caption><thead><tr><th class=\"num\">rank</th><th>bill</th>\
         <th class=\"num\">hidden fees</th><th class=\"num\">subtotal</th><th class=\"num\">hidden share</th>\
         <th class=\"num\">threshold</th><th>hidden share is</th><th>result</th></tr></thead><tbody>"
    );
    for (rank, (i, b)) in ranked.iter().take(MAX_OVERVIEW_ROWS).enumerate() {
        let name = cut_text(&bill_name(b), 90, false);
        let name = if *i < MAX_BILL_SECTIONS {
            format!("<a href=\"#bill-{}\">{name}</a>", i + 1)
        } else {
            name
        };
        let _ = writeln!(
            o,
            "<tr><td class=\"num\">{}</td><td class=\"text\">{name}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
            rank + 1,
            dec(b.hidden),
            dec(b.subtotal),
            b.hidden_share.map_or_else(|| "n/a".to_string(), percent),
            percent(b.hidden_threshold),
            status(b),
            result_tag(b.passed)
        );
    }
    let _ = writeln!(o, "</tbody></table>");
    if n > MAX_OVERVIEW_ROWS {
        let _ = writeln!(
            o,
            "<p class=\"note\">{} more bills not shown in this table (only the {MAX_OVERVIEW_ROWS} highest hidden shares are).</p>",
            n - MAX_OVERVIEW_ROWS
        );
    }
    let _ = writeln!(o, "</figure>");
    overview_trend(o, report);
    let _ = writeln!(o, "</section>");
}

fn overview_chart(o: &mut String, ranked: &[(usize, &Bill)], dir: &str) {
    let shown: Vec<&(usize, &Bill)> = ranked.iter().take(MAX_OVERVIEW_BARS).collect();
    let label_w = 280.0;
    let value_w = 140.0;
    let bar_w = W - label_w - value_w;
    let row = 22.0;
    let top = 24.0;
    let h = top + row * shown.len() as f64 + 24.0;
    let scale = shown
        .iter()
        .flat_map(|(_, b)| [b.hidden_share.map_or(0.0, f), f(b.hidden_threshold) * 1.5])
        .fold(0.1_f64, f64::max);
    let uniform = shown
        .first()
        .map(|(_, b)| b.hidden_threshold)
        .filter(|t| shown.iter().all(|(_, b)| b.hidden_threshold == *t));
    let _ = write!(
        o,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {h:.0}\" role=\"img\" aria-labelledby=\"ov-t\">\
         <title id=\"ov-t\">Hidden share per bill, highest first; the dashed line is the threshold. The table below has the figures.</title>"
    );
    for (k, (_, b)) in shown.iter().enumerate() {
        let y = top + row * k as f64;
        let name = bill_name(b);
        let short = name.strip_prefix(dir).unwrap_or(&name);
        let _ = write!(o, "<g><title>{}</title>", esc(&name));
        o.push_str(&label(
            label_w - 8.0,
            y + 15.0,
            "end",
            "normal",
            &tail(short, LABEL_CHARS),
        ));
        let _ = write!(
            o,
            "<rect x=\"{label_w}\" y=\"{:.1}\" width=\"{bar_w}\" height=\"16\" fill=\"#eeeeee\"/>",
            y + 3.0
        );
        let text = match b.hidden_share {
            Some(s) => {
                let is_above = above(b);
                let w = (f(s) / scale).clamp(0.0, 1.0) * bar_w;
                let fill = if is_above { ABOVE } else { WITHIN };
                let _ = write!(
                    o,
                    "<rect x=\"{label_w}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"16\" fill=\"{fill}\"/>",
                    y + 3.0
                );
                if is_above {
                    let _ = write!(
                        o,
                        "<rect x=\"{label_w}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"16\" fill=\"url(#hatch)\"/>",
                        y + 3.0
                    );
                }
                format!(
                    "{} {}",
                    percent(s),
                    if is_above { "above" } else { "within" }
                )
            }
            None => "no share".to_string(),
        };
        if uniform.is_none() {
            let tx = label_w + (f(b.hidden_threshold) / scale).clamp(0.0, 1.0) * bar_w;
            let _ = write!(
                o,
                "<line x1=\"{tx:.1}\" x2=\"{tx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-width=\"2\"/>",
                y + 1.0,
                y + 21.0
            );
        }
        o.push_str(&label(
            label_w + bar_w + 6.0,
            y + 15.0,
            "start",
            "600",
            &text,
        ));
        o.push_str("</g>");
    }
    if let Some(t) = uniform {
        let tx = label_w + (f(t) / scale).clamp(0.0, 1.0) * bar_w;
        let _ = write!(
            o,
            "<line x1=\"{tx:.1}\" x2=\"{tx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>",
            top - 4.0,
            h - 20.0
        );
        o.push_str(&label(
            tx,
            top - 8.0,
            "middle",
            "600",
            &format!("threshold {}", percent(t)),
        ));
    } else {
        o.push_str(&label(
            label_w,
            top - 8.0,
            "start",
            "600",
            "thresholds differ: a black tick marks each bill's",
        ));
    }
    // Axis: 0 and the end of the scale.
    o.push_str(&label(label_w, h - 6.0, "start", "normal", "0%"));
    o.push_str(&label(
        label_w + bar_w,
        h - 6.0,
        "end",
        "normal",
        &format!("{:.1}%", scale * 100.0),
    ));
    o.push_str("</svg>\n");
}

/// `YYYY-MM` -> (hidden fees, subtotal).
type MonthSums = BTreeMap<String, (Decimal, Decimal)>;

/// Hidden fees and subtotal per month, summed over the bills of each
/// currency (sums across currencies would mean nothing).
fn overview_trend(o: &mut String, report: &Report) {
    let mut by_cur: BTreeMap<String, MonthSums> = BTreeMap::new();
    let mut undated = 0u64;
    let mut untracked = 0u64;
    for b in &report.bills {
        undated += b.monthly.undated_items;
        untracked += b.monthly.untracked_items;
        if b.monthly.months.is_empty() {
            continue;
        }
        let cur = b
            .currency
            .clone()
            .unwrap_or_else(|| "currency unknown".into());
        let series = by_cur.entry(cur).or_default();
        for m in &b.monthly.months {
            let slot = series.entry(m.month.clone()).or_default();
            slot.0 = slot.0.saturating_add(m.hidden);
            slot.1 = slot.1.saturating_add(m.subtotal);
        }
    }
    let _ = writeln!(
        o,
        "<figure><figcaption>Hidden share per month (line items' dates), per currency</figcaption>"
    );
    if by_cur.is_empty() {
        let _ = writeln!(
            o,
            "<p class=\"note\">No line item carries a date, so there is no trend per month.</p></figure>"
        );
        return;
    }
    // The currencies with the most months are drawn; ties by name.
    let mut order: Vec<(&String, &MonthSums)> = by_cur.iter().collect();
    order.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(b.0)));
    let shown = &order[..order.len().min(MAX_TREND_SERIES)];
    let threshold = report
        .bills
        .first()
        .map_or(Decimal::new(5, 2), |b| b.hidden_threshold);
    let series: Vec<Series> = shown
        .iter()
        .map(|(name, months)| Series {
            name: (*name).clone(),
            points: months
                .iter()
                .map(|(m, (h, s))| (m.clone(), share(*h, *s)))
                .collect(),
        })
        .collect();
    let mut months: Vec<&String> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|(m, _)| m))
        .collect();
    months.sort();
    months.dedup();
    match months.as_slice() {
        [only] => {
            let _ = writeln!(
                o,
                "<p class=\"note\">Every dated line item falls in {}: one month, so no trend to draw; the table has the figures.</p>",
                esc(only)
            );
        }
        _ => trend_svg(o, "ov-trend", &series, threshold),
    }
    let _ = writeln!(
        o,
        "<table id=\"trend-table\"><caption>Hidden share per month</caption><thead><tr><th>currency</th><th>month</th>\
         <th class=\"num\">hidden fees</th><th class=\"num\">subtotal</th><th class=\"num\">hidden share</th></tr></thead><tbody>"
    );
    for (name, months) in shown {
        for (m, (h, s)) in months.iter() {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                esc(name),
                esc(m),
                dec(*h),
                dec(*s),
                share(*h, *s).map_or_else(|| "n/a".to_string(), percent)
            );
        }
    }
    let _ = writeln!(o, "</tbody></table>");
    if order.len() > MAX_TREND_SERIES {
        let _ = writeln!(
            o,
            "<p class=\"note\">{} more currencies not shown in this trend.</p>",
            order.len() - MAX_TREND_SERIES
        );
    }
    dating_notes(o, undated, untracked);
    let _ = writeln!(o, "</figure>");
}

fn dating_notes(o: &mut String, undated: u64, untracked: u64) {
    if undated > 0 {
        let _ = writeln!(
            o,
            "<p class=\"note\">{undated} line items carry no readable date and are not in the trend.</p>"
        );
    }
    if untracked > 0 {
        let _ = writeln!(
            o,
            "<p class=\"note\">{untracked} line items fall in months beyond the first {MAX_MONTHS} tracked per bill and are not in the trend.</p>"
        );
    }
}

struct Series {
    name: String,
    /// (`YYYY-MM`, hidden share) in month order.
    points: Vec<(String, Option<Decimal>)>,
}

/// A line chart of hidden share per month with the threshold dashed. Each
/// series has its own colour, marker shape and a name at its last point.
fn trend_svg(o: &mut String, id: &str, series: &[Series], threshold: Decimal) {
    let months: Vec<&String> = {
        let mut all: Vec<&String> = series
            .iter()
            .flat_map(|s| s.points.iter().map(|(m, _)| m))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let (left, right, top, bottom) = (56.0, 84.0, 34.0, 30.0);
    // Points sit inside the frame, so the first and last month labels fit.
    let inset = 30.0;
    let h = 240.0;
    let pw = W - left - right;
    let ph = h - top - bottom;
    let scale = series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(|(_, v)| v.map(f)))
        .chain([f(threshold) * 1.5])
        .fold(0.1_f64, f64::max)
        * 1.1;
    let x_of = |m: &String| -> f64 {
        let i = months.iter().position(|x| *x == m).unwrap_or(0);
        if months.len() <= 1 {
            left + pw / 2.0
        } else {
            left + inset + (pw - 2.0 * inset) * i as f64 / (months.len() - 1) as f64
        }
    };
    let y_of = |v: f64| top + ph * (1.0 - (v / scale).clamp(0.0, 1.0));
    let _ = write!(
        o,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {h}\" role=\"img\" aria-labelledby=\"{id}-t\">\
         <title id=\"{id}-t\">Hidden share per month; the dashed line is the threshold. The table below has the figures.</title>\
         <rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"#fafafa\" stroke=\"#999\"/>"
    );
    // y axis: 0, threshold, top of the scale.
    for v in [0.0, scale / 2.0, scale] {
        let y = y_of(v);
        let _ = write!(
            o,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>",
            left + pw
        );
        o.push_str(&label(
            left - 4.0,
            y + 4.0,
            "end",
            "normal",
            &format!("{:.1}%", v * 100.0),
        ));
    }
    let ty = y_of(f(threshold));
    let _ = write!(
        o,
        "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{ty:.1}\" y2=\"{ty:.1}\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>",
        left + pw
    );
    o.push_str(&label(
        left + pw + 6.0,
        ty - 2.0,
        "start",
        "600",
        "threshold",
    ));
    o.push_str(&label(
        left + pw + 6.0,
        ty + 12.0,
        "start",
        "600",
        &percent(threshold),
    ));
    // The legend: marker and name, so colour is never the only key.
    let mut lx = left;
    for (k, s) in series.iter().enumerate() {
        let c = SERIES[k % SERIES.len()];
        let name = tail(&s.name, 20);
        o.push_str(&marker(k, lx + 6.0, 14.0, c));
        o.push_str(&label(lx + 16.0, 18.0, "start", "600", &name));
        lx += 34.0 + text_w(&name);
    }
    // x axis labels: at most 12.
    let step = months.len().div_ceil(12).max(1);
    for (i, m) in months.iter().enumerate() {
        if i % step == 0 || i + 1 == months.len() {
            o.push_str(&label(x_of(m), h - bottom + 18.0, "middle", "normal", m));
        }
    }
    let show_values = months.len() <= 12 && series.len() <= 2;
    for (k, s) in series.iter().enumerate() {
        let c = SERIES[k % SERIES.len()];
        let pts: Vec<(f64, f64, Decimal)> = s
            .points
            .iter()
            .filter_map(|(m, v)| v.map(|v| (x_of(m), y_of(f(v)), v)))
            .collect();
        if pts.len() > 1 {
            let path: Vec<String> = pts
                .iter()
                .map(|(x, y, _)| format!("{x:.1},{y:.1}"))
                .collect();
            let _ = write!(
                o,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2.5\"/>",
                path.join(" ")
            );
        }
        for (x, y, v) in &pts {
            o.push_str(&marker(k, *x, *y, c));
            if show_values {
                o.push_str(&label(*x, y - 9.0, "middle", "normal", &percent(*v)));
            }
        }
    }
    o.push_str("</svg>\n");
}

/// Marker shapes by series: circle, square, triangle, diamond, ...
fn marker(k: usize, x: f64, y: f64, c: &str) -> String {
    match k % 4 {
        0 => {
            format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"{c}\" stroke=\"#fff\"/>")
        }
        1 => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\" fill=\"{c}\" stroke=\"#fff\"/>",
            x - 4.5,
            y - 4.5
        ),
        2 => format!(
            "<polygon points=\"{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{c}\" stroke=\"#fff\"/>",
            y - 6.0,
            x + 5.5,
            y + 4.0,
            x - 5.5,
            y + 4.0
        ),
        _ => format!(
            "<polygon points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" fill=\"{c}\" stroke=\"#fff\"/>",
            y - 6.0,
            x + 6.0,
            y + 6.0,
            x - 6.0
        ),
    }
}

// ---------------------------------------------------------------- one bill

fn render_bill(o: &mut String, i: usize, b: &Bill) {
    let cur = b.currency.as_deref().unwrap_or("currency unknown");
    let _ = writeln!(
        o,
        "<section class=\"bill\" id=\"bill-{i}\"><h2>{} {}</h2>\
         <p class=\"muted\">{} · {} · {} · {}</p>",
        cut_text(&b.path, 160, false),
        result_tag(b.passed),
        esc(&b.format),
        esc(cur),
        plural(b.line_items as usize, "line item", "line items"),
        plural(b.skipped_rows() as usize, "row skipped", "rows skipped"),
    );
    categories(o, i, b);
    gauge(o, i, b);
    top_hidden(o, b);
    findings(o, b);
    if !b.monthly.months.is_empty() {
        bill_trend(o, i, b);
    }
    let _ = writeln!(o, "</section>");
}

fn categories(o: &mut String, i: usize, b: &Bill) {
    let positive: Decimal = BAR_ORDER
        .iter()
        .map(|c| b.totals.get(*c).max(Decimal::ZERO))
        .fold(Decimal::ZERO, |a, x| a.saturating_add(x));
    let _ = writeln!(
        o,
        "<figure><figcaption>Where the money went: categories of the subtotal (hidden fees hatched)</figcaption>"
    );
    let (bar_y, bar_h) = (26.0, 40.0);
    let legend_y = bar_y + bar_h + 26.0;
    let h = legend_y + 2.0 * 24.0 + 4.0;
    let _ = write!(
        o,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {h}\" role=\"img\" aria-labelledby=\"b{i}-cat-t\">\
         <title id=\"b{i}-cat-t\">Categories of the subtotal as a stacked bar; hidden categories are hatched. The table below has the figures.</title>"
    );
    if positive <= Decimal::ZERO {
        let _ = write!(
            o,
            "<rect x=\"0\" y=\"{bar_y}\" width=\"{W}\" height=\"{bar_h}\" fill=\"#eeeeee\"/>"
        );
        o.push_str(&label(
            W / 2.0,
            bar_y + 25.0,
            "middle",
            "600",
            "no positive amounts to draw",
        ));
    } else {
        let mut x = 0.0;
        let mut hidden_x: Option<(f64, f64)> = None;
        for c in BAR_ORDER {
            let v = b.totals.get(c);
            if v <= Decimal::ZERO {
                continue;
            }
            let w = frac(v, positive) * W;
            let pct = share(v, b.subtotal).map_or_else(String::new, percent);
            let _ = write!(
                o,
                "<g><title>{c}: {} ({pct})</title><rect x=\"{x:.1}\" y=\"{bar_y}\" width=\"{w:.1}\" height=\"{bar_h}\" fill=\"{}\"/>",
                dec(v),
                colour(c)
            );
            if c.is_hidden() {
                let _ = write!(
                    o,
                    "<rect x=\"{x:.1}\" y=\"{bar_y}\" width=\"{w:.1}\" height=\"{bar_h}\" fill=\"url(#hatch)\"/>"
                );
                hidden_x = Some(match hidden_x {
                    Some((a, _)) => (a, x + w),
                    None => (x, x + w),
                });
            }
            let text = format!("{c} {pct}");
            if text_w(&text) + 8.0 < w {
                o.push_str(&label(x + w / 2.0, bar_y + 25.0, "middle", "600", &text));
            } else if text_w(&pct) + 6.0 < w {
                o.push_str(&label(x + w / 2.0, bar_y + 25.0, "middle", "600", &pct));
            }
            o.push_str("</g>");
            // Separate adjacent segments.
            let _ = write!(
                o,
                "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{bar_y}\" y2=\"{}\" stroke=\"#fff\" stroke-width=\"1\"/>",
                x + w,
                x + w,
                bar_y + bar_h
            );
            x += w;
        }
        // A bracket over the hidden segments, labelled with the hidden share.
        if let Some((a, z)) = hidden_x {
            let hs = b.hidden_share.map_or_else(
                || "hidden fees".to_string(),
                |s| format!("hidden fees {}", percent(s)),
            );
            let _ = write!(
                o,
                "<path d=\"M{a:.1},{} V{} H{z:.1} V{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>",
                bar_y - 2.0,
                bar_y - 8.0,
                bar_y - 2.0
            );
            let mid = ((a + z) / 2.0).clamp(text_w(&hs) / 2.0, W - text_w(&hs) / 2.0);
            o.push_str(&label(mid, bar_y - 12.0, "middle", "600", &hs));
        }
    }
    // The legend: swatch, name, share; hidden ones hatched and marked.
    for (k, c) in BAR_ORDER.iter().enumerate() {
        let lx = (k % 3) as f64 * (W / 3.0);
        let ly = legend_y + (k / 3) as f64 * 24.0;
        let v = b.totals.get(*c);
        let pct = share(v, b.subtotal).map_or_else(|| "n/a".to_string(), percent);
        let _ = write!(
            o,
            "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"16\" height=\"16\" fill=\"{}\" stroke=\"#333\" stroke-width=\"0.5\"/>",
            ly - 12.0,
            colour(*c)
        );
        if c.is_hidden() {
            let _ = write!(
                o,
                "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"16\" height=\"16\" fill=\"url(#hatch)\"/>",
                ly - 12.0
            );
        }
        let text = format!("{c}{} {pct}", if c.is_hidden() { " (hidden)" } else { "" });
        o.push_str(&label(lx + 22.0, ly + 1.0, "start", "normal", &text));
    }
    o.push_str("</svg>\n");
    let negatives = BAR_ORDER.iter().any(|c| b.totals.get(*c) < Decimal::ZERO);
    if negatives {
        let _ = writeln!(
            o,
            "<p class=\"note\">Negative category totals (refunds, corrections) cannot be stacked and are not drawn; the table has them.</p>"
        );
    }
    let _ = writeln!(
        o,
        "<table><caption>Categories</caption><thead><tr><th>category</th><th class=\"num\">amount</th>\
         <th class=\"num\">share of subtotal</th><th>kind</th></tr></thead><tbody>"
    );
    for c in Category::ALL.into_iter().filter(|c| c.in_subtotal()) {
        let v = b.totals.get(c);
        let _ = writeln!(
            o,
            "<tr><td>{c}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            dec(v),
            share(v, b.subtotal).map_or_else(String::new, percent),
            if c.is_hidden() {
                "<span class=\"tag hidden\">hidden</span>"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(
        o,
        "<tr class=\"sum\"><td>subtotal</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td></td></tr>",
        dec(b.subtotal),
        share(b.subtotal, b.subtotal).map_or_else(String::new, percent)
    );
    for c in [Category::Tax, Category::Credit] {
        let _ = writeln!(
            o,
            "<tr><td>{c}</td><td class=\"num\">{}</td><td></td><td></td></tr>",
            dec(b.totals.get(c))
        );
    }
    let _ = writeln!(
        o,
        "<tr class=\"sum\"><td>total</td><td class=\"num\">{}</td><td></td><td></td></tr>",
        dec(b.total)
    );
    if let Some(st) = b.stated_total {
        let _ = writeln!(
            o,
            "<tr><td>stated total</td><td class=\"num\">{}</td><td></td><td></td></tr>",
            dec(st)
        );
    }
    let _ = writeln!(o, "</tbody></table></figure>");
}

fn gauge(o: &mut String, i: usize, b: &Bill) {
    let _ = writeln!(
        o,
        "<figure><figcaption>Hidden share against the threshold</figcaption>"
    );
    let t = f(b.hidden_threshold);
    let s = b.hidden_share.map_or(0.0, f);
    let scale = (t * 2.0).max(s * 1.15).max(0.1);
    let (left, bw, y, bh, h) = (0.0, W - 215.0, 30.0, 26.0, 82.0);
    let _ = write!(
        o,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {h}\" role=\"img\" aria-labelledby=\"b{i}-g-t\">\
         <title id=\"b{i}-g-t\">Hidden share as a bar against the dashed threshold line. The table below has the figures.</title>\
         <rect x=\"{left}\" y=\"{y}\" width=\"{bw}\" height=\"{bh}\" fill=\"#eeeeee\"/>"
    );
    let text = match b.hidden_share {
        Some(share_v) => {
            let is_above = above(b);
            let w = (s / scale).clamp(0.0, 1.0) * bw;
            let fill = if is_above { ABOVE } else { WITHIN };
            let _ = write!(
                o,
                "<rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"{bh}\" fill=\"{fill}\"/>"
            );
            if is_above {
                let _ = write!(
                    o,
                    "<rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"{bh}\" fill=\"url(#hatch)\"/>"
                );
            }
            format!(
                "{} hidden, {}",
                percent(share_v),
                if is_above { "above" } else { "within" }
            )
        }
        None => "no share: subtotal <= 0".to_string(),
    };
    o.push_str(&label(bw + 8.0, y + 18.0, "start", "600", &text));
    let tx = left + (t / scale).clamp(0.0, 1.0) * bw;
    let _ = write!(
        o,
        "<line x1=\"{tx:.1}\" x2=\"{tx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>",
        y - 8.0,
        y + bh + 6.0
    );
    let tl = format!("threshold {}", percent(b.hidden_threshold));
    let tlx = tx.clamp(text_w(&tl) / 2.0, W - text_w(&tl) / 2.0);
    o.push_str(&label(tlx, y - 12.0, "middle", "600", &tl));
    o.push_str(&label(left, y + bh + 20.0, "start", "normal", "0%"));
    o.push_str(&label(
        left + bw,
        y + bh + 20.0,
        "end",
        "normal",
        &format!("{:.1}%", scale * 100.0),
    ));
    o.push_str("</svg>\n");
    let _ = writeln!(
        o,
        "<table class=\"keep\"><caption>Hidden share</caption><thead><tr><th class=\"num\">hidden fees</th><th class=\"num\">subtotal</th>\
         <th class=\"num\">hidden share</th><th class=\"num\">threshold</th><th>hidden share is</th></tr></thead><tbody>\
         <tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr></tbody></table></figure>",
        dec(b.hidden),
        dec(b.subtotal),
        b.hidden_share.map_or_else(|| "n/a".to_string(), percent),
        percent(b.hidden_threshold),
        status(b)
    );
}

fn top_hidden(o: &mut String, b: &Bill) {
    let _ = writeln!(o, "<h3>Largest hidden-fee line items</h3>");
    if b.top_hidden.is_empty() {
        let _ = writeln!(o, "<p class=\"muted\">No hidden-fee line items.</p>");
        return;
    }
    let _ = writeln!(
        o,
        "<table><thead><tr><th class=\"num\">#</th><th class=\"num\">amount</th><th class=\"num\">share of subtotal</th>\
         <th>category</th><th>description</th><th>source</th></tr></thead><tbody>"
    );
    for (k, h) in b.top_hidden.iter().enumerate() {
        let _ = writeln!(
            o,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>\
             <td class=\"text\">{}</td><td class=\"mono code\">{}</td></tr>",
            k + 1,
            dec(h.amount),
            share(h.amount, b.subtotal).map_or_else(String::new, percent),
            h.category,
            cut_text(&h.description, DESCRIPTION_CHARS, h.description_cut),
            location(&h.path, Some(h.line))
        );
    }
    let _ = writeln!(o, "</tbody></table>");
    let shown = b.top_hidden.len() as u64;
    if b.hidden_items > shown {
        let _ = writeln!(
            o,
            "<p class=\"note\">{} more hidden-fee line items not shown (the {TOP_HIDDEN} largest of {} are).</p>",
            b.hidden_items - shown,
            b.hidden_items
        );
    }
}

fn findings(o: &mut String, b: &Bill) {
    let _ = writeln!(o, "<h3>Findings</h3>");
    if b.findings.is_empty() {
        let _ = writeln!(o, "<p class=\"muted\">No findings.</p>");
        return;
    }
    let _ = writeln!(
        o,
        "<table><thead><tr><th>severity</th><th>code</th><th>where</th><th>message</th></tr></thead><tbody>"
    );
    for fd in b.findings.iter().take(MAX_FINDINGS_SHOWN) {
        let _ = writeln!(
            o,
            "<tr><td><span class=\"tag {}\">{}</span></td><td class=\"mono code\">{}</td><td class=\"mono code\">{}</td><td class=\"text\">{}</td></tr>",
            fd.severity.as_str(),
            fd.severity.as_str(),
            esc(&fd.code),
            location(&fd.path, fd.line),
            match &fd.accepted {
                Some(r) => format!(
                    "{} <em>[accepted: {}]</em>",
                    cut_text(&fd.message, 600, false),
                    cut_text(r, 200, false)
                ),
                None => cut_text(&fd.message, 600, false),
            }
        );
    }
    let _ = writeln!(o, "</tbody></table>");
    if b.findings.len() > MAX_FINDINGS_SHOWN {
        let _ = writeln!(
            o,
            "<p class=\"note\">{} more findings not shown (the first {MAX_FINDINGS_SHOWN} of {} are; `--format json` has them all).</p>",
            b.findings.len() - MAX_FINDINGS_SHOWN,
            b.findings.len()
        );
    }
}

fn bill_trend(o: &mut String, i: usize, b: &Bill) {
    let m = &b.monthly;
    let _ = writeln!(
        o,
        "<figure><figcaption>Hidden share per month (line items' dates)</figcaption>"
    );
    if m.months.len() > 1 {
        let series = [Series {
            name: "hidden share".to_string(),
            points: m
                .months
                .iter()
                .map(|x| (x.month.clone(), x.hidden_share()))
                .collect(),
        }];
        trend_svg(o, &format!("b{i}-trend"), &series, b.hidden_threshold);
    }
    let _ = writeln!(
        o,
        "<table><caption>Per month</caption><thead><tr><th>month</th><th class=\"num\">hidden fees</th>\
         <th class=\"num\">subtotal</th><th class=\"num\">hidden share</th></tr></thead><tbody>"
    );
    for x in &m.months {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(&x.month),
            dec(x.hidden),
            dec(x.subtotal),
            x.hidden_share().map_or_else(|| "n/a".to_string(), percent)
        );
    }
    let _ = writeln!(o, "</tbody></table>");
    dating_notes(o, m.undated_items, m.untracked_items);
    let _ = writeln!(o, "</figure>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_the_five_characters_and_controls() {
        assert_eq!(
            esc("<script>alert('x') & \"y\"</script>\u{0}"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;\u{FFFD}"
        );
    }

    #[test]
    fn long_text_is_cut_visibly_with_the_full_text_in_title() {
        let s = "a".repeat(130);
        let c = cut_text(&s, 120, false);
        assert!(c.contains(&format!("title=\"{s}\"")));
        assert!(c.contains("… [+10 characters]"));
        assert_eq!(cut_text("short <b>", 120, false), "short &lt;b&gt;");
        assert_eq!(tail("abcdef", 4), "…def");
    }
}
