//! Whether a CSV row is a summary row (moved out of `normalise/mod.rs`,
//! which holds the row normaliser).

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use super::number::{self, Cell, DecimalMark, parse_number};
use super::{RowOutcome, SkipReason, date, header, summary_label};
use crate::model::Cells;
use crate::vocab::summary::SummaryKind;

/// Distinct description texts whose summary kind a thread remembers. A
/// bill has few (the 1M-row FOCUS bench set: about 2,700); past this
/// many, a new text is asked about without being remembered, so memory
/// stays bounded on a bill whose every description differs.
pub const LABEL_CACHE_TEXTS: usize = 8192;

thread_local! {
    /// [`summary_label`] of each description text seen on this thread.
    static LABELS: RefCell<FxHashMap<Box<str>, Option<SummaryKind>>> =
        RefCell::new(FxHashMap::default());
}

/// [`summary_label`] of a row's first classification text, remembered per
/// distinct text ([`LABEL_CACHE_TEXTS`]): the label test lowercases and
/// looks up its text two or three times (whole, without a rate, without a
/// trailing currency), and a bill repeats its descriptions on every row
/// (issue 27 item 3). `summary_label` is a function of the text alone
/// (the label tables and the currency table are constants), so the
/// decision is the same as asking each time.
fn description_label(text: &str) -> Option<SummaryKind> {
    LABELS.with(|labels| {
        let mut labels = labels.borrow_mut();
        if let Some(kind) = labels.get(text) {
            return *kind;
        }
        let kind = summary_label(text);
        if labels.len() < LABEL_CACHE_TEXTS {
            labels.insert(text.into(), kind);
        }
        kind
    })
}

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
/// `2025-11-30,Total,,,,416.52` in a file whose label column is unmapped),
/// and when there is none, the first such cell right of it
/// (`;;;80,90;Subtotal`, the label in a notes column).
pub fn summary_of_row<C: Cells + ?Sized>(
    rec: &C,
    amount_col: usize,
    tiers: &[Vec<String>],
) -> Option<SummaryKind> {
    let mut texts = tiers.iter().flatten();
    let label = match texts.next() {
        Some(first) => description_label(first)?,
        None => {
            // Left of the amount first (`;;IVA 21%;12,81`), else right of
            // it (`;;;80,90;Subtotal`: a notes column after the amount).
            let left = 0..amount_col.min(rec.len());
            let right = (amount_col + 1).min(rec.len())..rec.len();
            first_label(rec, left).or_else(|| first_label(rec, right))?
        }
    };
    texts
        .all(|t| summary_label(t) == Some(label))
        .then_some(label)
}

/// The summary kind of the first cell among `cols` that is not empty, a
/// placeholder, a date, a currency or a number; `None` when that cell is
/// no label (or there is none).
fn first_label<C: Cells + ?Sized>(rec: &C, cols: std::ops::Range<usize>) -> Option<SummaryKind> {
    cols.filter_map(|i| rec.text(i)?.ok())
        .map(str::trim)
        .filter(|s| !s.is_empty() && !number::is_placeholder(s))
        .find(|s| !is_date_currency_or_number(s))
        .and_then(summary_label)
}

/// A cell that is a value, not a label: a date, a currency, a number.
fn is_date_currency_or_number(s: &str) -> bool {
    date::parse_datetime(s).is_some()
        || date::parse_range(s).is_some()
        || header::is_iso_code(s)
        || header::currency_code(s).is_some()
        || matches!(parse_number(s, DecimalMark::Dot), Ok(Cell::Value(_)))
}

/// The outcome of a summary row of kind `kind` without a figure: a
/// subtotal or total states nothing (a `summary` skip); a tax or discount
/// row, which with a figure would be an item of its category, is
/// [`RowOutcome::Unstated`], labelled with its first classification text:
/// the report names it in a note, and no `missing-amount` is made of it
/// (the bill names a tax and states none; no charge lost its amount).
pub(super) fn without_figure(kind: Option<SummaryKind>, tiers: &[Vec<String>]) -> RowOutcome {
    match kind {
        Some(kind @ (SummaryKind::Tax | SummaryKind::Credit)) => RowOutcome::Unstated {
            kind,
            label: tiers.iter().flatten().next().cloned().unwrap_or_default(),
        },
        _ => RowOutcome::Skip(SkipReason::Summary, None),
    }
}

/// The outcome of a row that puts money into the account, not a charge: a
/// row that is no summary row and one of whose classification texts is a
/// top-up label as a whole cell ([`TOP_UP`](crate::vocab::summary::TOP_UP):
/// `类型 = 充值`, `Top-up`), labelled with its first text. `None` for
/// every other row.
pub(super) fn top_up(summary: Option<SummaryKind>, tiers: &[Vec<String>]) -> Option<RowOutcome> {
    let mut texts = tiers.iter().flatten();
    (summary.is_none() && texts.clone().any(|t| crate::vocab::summary::is_top_up(t)))
        .then(|| RowOutcome::TopUp(texts.next().cloned().unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use SummaryKind::*;

    /// Each text asked twice (the second answer is the remembered one),
    /// then again once the cache is full: the kinds are the label tables'
    /// (`vocab::summary`), written out by hand.
    #[test]
    fn a_remembered_description_gets_the_same_kind() {
        let cases = [
            ("Total", Some(Total)),
            ("Tax (8%)", Some(Tax)),
            ("Total USD", Some(Total)),
            ("小计：", Some(Subtotal)),
            ("Promotional credits 代金券抵扣", Some(Credit)),
            ("Total Storage", None),
            ("Tax advisory service", None),
            ("Amazon EC2 p4d.24xlarge", None),
        ];
        for _ in 0..2 {
            for (text, kind) in cases {
                assert_eq!(description_label(text), kind, "{text}");
            }
        }
        // Fill the cache with other texts: new ones are still answered.
        for i in 0..LABEL_CACHE_TEXTS {
            assert_eq!(description_label(&format!("SKU {i}")), None);
        }
        assert!(LABELS.with(|l| l.borrow().len()) <= LABEL_CACHE_TEXTS);
        for (text, kind) in [
            ("Subtotal", Some(Subtotal)),
            ("GST", Some(Tax)),
            ("Total GPU", None),
        ] {
            assert_eq!(description_label(text), kind, "{text}");
        }
    }
}
