//! Text from a bill on the page: escaped by maud, cut visibly when long,
//! and the small phrases built around it.

use maud::{Markup, Render, html};

use crate::audit::hidden_items::cut;
use crate::audit::{Bill, above_threshold};
use crate::model::Check;

/// Characters of a `file:line` shown in a table cell.
const LOCATION_CHARS: usize = 48;

/// Text that came from a bill (a description, path, currency, message), for
/// element content or a quoted attribute value. maud escapes it (`& < > "`);
/// control characters other than tab and newline, which HTML does not
/// allow, become U+FFFD first.
pub(super) struct Text<'a>(pub &'a str);

fn banned(c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n'
}

impl Render for Text<'_> {
    fn render_to(&self, buffer: &mut String) {
        if self.0.chars().any(banned) {
            let clean: String = self
                .0
                .chars()
                .map(|c| if banned(c) { '\u{FFFD}' } else { c })
                .collect();
            clean.as_str().render_to(buffer);
        } else {
            self.0.render_to(buffer);
        }
    }
}

/// A drawing coordinate with one decimal, as SVG attributes carry them.
pub(super) struct D1(pub f64);

impl Render for D1 {
    fn render_to(&self, buffer: &mut String) {
        use std::fmt::Write;
        let _ = write!(buffer, "{:.1}", self.0);
    }
}

/// A text cut to `max` characters, visibly: the cut text ends in an ellipsis
/// and a note of how much is missing, and the full text is the `title`.
/// `already_cut` says the text was cut before (a kept description).
pub(super) fn cut_text(s: &str, max: usize, already_cut: bool) -> Markup {
    let (short, cut_here) = cut(s, max);
    if !cut_here && !already_cut {
        return html! { (Text(s)) };
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
    html! {
        span title=(Text(&title)) { (Text(&short)) span.cut { "… [" (note) "]" } }
    }
}

/// The end of a long name, for chart labels: `…/csv/bill.csv`.
pub(super) fn tail(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let skip = n - max.saturating_sub(1);
    format!("…{}", s.chars().skip(skip).collect::<String>())
}

/// A `file:line` location for a table cell: kept on one line, and when long
/// only its end is shown (the line number matters most), the whole in `title`.
pub(super) fn location(path: &str, line: Option<u64>) -> Markup {
    let full = match line {
        Some(l) => format!("{path}:{l}"),
        None => path.to_string(),
    };
    if full.chars().count() <= LOCATION_CHARS {
        return html! { (Text(&full)) };
    }
    html! { span title=(Text(&full)) { (Text(&tail(&full, LOCATION_CHARS))) } }
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A bill's path with its currency: `bill.csv (USD)`.
pub(super) fn bill_name(b: &Bill) -> String {
    match &b.currency {
        Some(c) => format!("{} ({c})", b.path),
        None => b.path.clone(),
    }
}

/// The directory every bill's path starts with (`fixtures/csv/`), or "".
pub(super) fn common_dir(bills: &[Bill]) -> &str {
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

/// Whether the bill's hidden share is above its threshold: from the
/// figures, not the findings (the check may be off).
pub(super) fn above(b: &Bill) -> bool {
    above_threshold(Check::HiddenFeeShare, &b.totals, b.hidden_threshold) == Some(true)
}

pub(super) fn status(b: &Bill) -> &'static str {
    match b.hidden_share {
        None => "no share",
        Some(_) if above(b) => "above threshold",
        Some(_) => "within threshold",
    }
}

pub(super) fn result_tag(passed: bool) -> Markup {
    html! {
        @if passed { span.tag.passed { "PASSED" } } @else { span.tag.failed { "FAILED" } }
    }
}
