use std::str::FromStr;

use super::*;
use super::{line::*, settle::*};

mod decisions;
mod invoices;
mod lines;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn one(line: &str) -> (LineKind, Invoice) {
    let mut inv = Invoice::default();
    let folded: String = line.chars().map(fold_char).collect();
    let k = read_line(1, &folded, &mut inv);
    (k, inv)
}

fn item(line: &str) -> TextItem {
    match one(line).0 {
        LineKind::Item(i) => i,
        other => panic!("{line:?}: {other:?}"),
    }
}

fn summary_of(line: &str) -> Summary {
    match one(line).0 {
        LineKind::Summary(s) => s,
        other => panic!("{line:?}: {other:?}"),
    }
}

/// The items, the last stated total and the tax lines of a whole invoice.
fn figures(text: &str) -> (Decimal, Option<Decimal>, Decimal, Option<String>) {
    let inv = parse(text);
    let items = inv.items().map(|i| i.amount.value).sum();
    let total = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Total)
        .last()
        .map(|s| s.amount.value);
    let tax = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Tax)
        .map(|s| s.amount.value)
        .sum();
    (items, total, tax, inv.currency())
}

/// The stated subtotal that is checked: the last one left a summary.
fn stated_subtotal(text: &str) -> Option<Decimal> {
    parse(text)
        .summaries()
        .filter(|s| s.kind == SummaryKind::Subtotal)
        .last()
        .map(|s| s.amount.value)
}

fn dt(y: i32, m: u32, d: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_time(NaiveTime::MIN)
}
