//! `rate-above-reference`: a line's unit price above the price book.

use rust_decimal::Decimal;

use super::{Emit, money};
use crate::classify::fold;
use crate::model::LineItem;
use crate::vocab::checks::Check;

/// One `[[price]]` entry.
#[derive(Debug, Clone)]
pub struct PriceEntry {
    /// Folded (lowercase) substring the line's texts must contain.
    pub pattern: String,
    /// Folded substring the line's unit must contain, when set.
    pub unit: Option<String>,
    pub currency: Option<String>,
    pub max: Decimal,
    /// Where the figure comes from, for the message.
    pub source: Option<String>,
}

/// Expected unit prices, tried in order.
#[derive(Debug, Clone, Default)]
pub struct PriceBook {
    pub entries: Vec<PriceEntry>,
}

impl PriceBook {
    /// The first entry that applies to the item.
    pub fn lookup(&self, item: &LineItem) -> Option<&PriceEntry> {
        if self.entries.is_empty() {
            return None;
        }
        // The description joins every classification text (one fold per row).
        let text = fold(&item.description);
        let unit = item.unit.as_deref().map(fold);
        self.entries.iter().find(|e| {
            if let (Some(c), Some(ic)) = (&e.currency, &item.currency) {
                if !c.eq_ignore_ascii_case(ic) {
                    return false;
                }
            }
            if let Some(u) = &e.unit {
                if !unit.as_deref().is_some_and(|x| x.contains(u.as_str())) {
                    return false;
                }
            }
            text.contains(e.pattern.as_str())
        })
    }
}

/// The unit price a line states, or amount / quantity.
fn unit_price(item: &LineItem) -> Option<Decimal> {
    if let Some(p) = item.unit_price {
        return Some(p);
    }
    let q = item.quantity?;
    if q <= Decimal::ZERO {
        return None;
    }
    item.amount
        .checked_div(q)
        .map(|p| p.round_dp(6).normalize())
}

pub(crate) fn check<'p>(item: &LineItem, sink: &mut impl Emit<'p>) {
    let book = &sink.policy().price_book;
    let Some(entry) = book.lookup(item) else {
        return;
    };
    let Some(price) = unit_price(item) else {
        return;
    };
    if price <= entry.max || item.amount <= Decimal::ZERO {
        return;
    }
    let currency = item.currency.as_deref().or(entry.currency.as_deref());
    let over = price - entry.max;
    let total = match item.quantity {
        Some(q) => match over.checked_mul(q) {
            Some(t) => format!(
                ", an overcharge of {} on {q}{}",
                money(t.round_dp(item.amount.scale().max(2)), currency),
                item.unit
                    .as_deref()
                    .map(|u| format!(" {u}"))
                    .unwrap_or_default()
            ),
            None => String::new(),
        },
        None => String::new(),
    };
    let source = entry
        .source
        .as_deref()
        .map(|s| format!(" ({s})"))
        .unwrap_or_default();
    let message = format!(
        "unit price {} is above the price book's {} for `{}`{source}: {} over per unit{total}: {}",
        money(price, currency),
        money(entry.max, currency),
        entry.pattern,
        money(over, currency),
        item.description
    );
    sink.emit(Check::RateAboveReference, Some(item.line), message);
}
