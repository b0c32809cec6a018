//! Whether a CSV row is a summary row (moved out of `normalise/mod.rs`,
//! which holds the row normaliser).

use super::number::{self, Cell, DecimalMark, parse_number};
use super::{date, header, summary_label};
use crate::vocab::summary::SummaryKind;

/// Whether a row is a summary row, and of which kind: the one rule of every
/// CSV reader (one thread, ranges, Parquet; docs/decisions.md, "Summary rows
/// in any column").
///
/// The label is the row's description (its first classification text),
/// matched as a whole cell ([`summary_label`]: `Total`, `Tax (8%)`, `小计：`,
/// never `Total Storage` or `Tax advisory service`), and every other
/// classification text is empty or a label of the same kind (`Subtotal`,
/// `小计`). Whatever else the row carries (a date, a currency, an account
/// in columns that are not classified) does not matter. A row without any
/// classification text takes the first cell left of the amount that is a
/// label and not a date, a currency or a number (`;;IVA 21%;12,81`,
/// `2025-11-30,Total,,,,416.52` in a file whose label column is unmapped).
pub fn summary_of_row(
    rec: &::csv::ByteRecord,
    amount_col: usize,
    tiers: &[Vec<String>],
) -> Option<SummaryKind> {
    let mut texts = tiers.iter().flatten();
    let label = match texts.next() {
        Some(first) => summary_label(first)?,
        None => rec
            .iter()
            .take(amount_col)
            .filter_map(|f| std::str::from_utf8(f).ok())
            .map(str::trim)
            .filter(|s| !s.is_empty() && !number::is_placeholder(s))
            .find(|s| !is_date_currency_or_number(s))
            .and_then(summary_label)?,
    };
    texts
        .all(|t| summary_label(t) == Some(label))
        .then_some(label)
}

/// A cell that is a value, not a label: a date, a currency, a number.
fn is_date_currency_or_number(s: &str) -> bool {
    date::parse_datetime(s).is_some()
        || date::parse_range(s).is_some()
        || header::is_iso_code(s)
        || header::currency_code(s).is_some()
        || matches!(parse_number(s, DecimalMark::Dot), Ok(Cell::Value(_)))
}
