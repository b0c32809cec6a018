//! Stage 5: rendering. One file per output format, chosen by a plain match.
//! Reports go to stdout; progress and errors never do.

pub mod html;
pub mod human;
pub mod json;

use rust_decimal::Decimal;

use crate::pipeline::Report;

/// Output formats of `billaudit audit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Human,
    Json,
    /// A self-contained HTML page with charts (`report/html.rs`).
    Html,
}

/// Renders a report in the chosen format.
pub fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Human => human::render(report),
        Format::Json => json::render(report),
        Format::Html => html::render(report),
    }
}

/// An exact decimal as the report writes it: scale kept, never `-0`.
pub fn dec(d: Decimal) -> String {
    let mut d = d;
    if d.is_zero() {
        d.set_sign_positive(true);
    }
    d.to_string()
}
