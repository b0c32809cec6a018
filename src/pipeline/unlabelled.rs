//! A row that states the sum of the items above it under a label no
//! vocabulary knows (`Suma neta`, `Zwischensumme netto exkl.`): read as an
//! item, it would count the bill twice. Such a row (an amount and words,
//! no quantity and no unit price, equal to the sum of at least two items
//! since the last summary row) is held back; the stated total decides it
//! (docs/decisions.md, "An unlabelled subtotal"):
//! - the total agrees without it: it is a subtotal, set aside as a
//!   `summary` skip, and the report says so;
//! - otherwise (or no total follows): it is an item, added as it would
//!   have been.

use rust_decimal::Decimal;

use crate::model::{Category, LineItem};

/// The items since the last summary row, and the row held back.
#[derive(Debug, Default)]
pub(super) struct Unlabelled {
    since_sum: Decimal,
    since_items: u64,
    held: Option<Held>,
}

#[derive(Debug)]
struct Held {
    item: LineItem,
    /// How many items it adds up.
    items: u64,
}

impl Unlabelled {
    /// True when `item` is held back (the caller does not add it now).
    pub(super) fn hold(&mut self, item: &LineItem) -> bool {
        let candidate = self.held.is_none()
            && self.since_items >= 2
            && item.quantity.is_none()
            && item.unit_price.is_none()
            && item.amount > Decimal::ZERO
            && item.amount == self.since_sum
            && !matches!(item.category, Category::Tax | Category::Credit);
        if candidate {
            self.held = Some(Held {
                item: item.clone(),
                items: self.since_items,
            });
        } else if !matches!(item.category, Category::Tax | Category::Credit) {
            self.since_sum = self.since_sum.saturating_add(item.amount);
            self.since_items += 1;
        }
        candidate
    }

    /// A summary row was read: the sums start again. With `total`, the
    /// stated total and the bill's total so far (without the held row)
    /// decide the held row: `Ok` sets it aside (its line, amount and the
    /// report's note), `Err` gives it back to be added.
    pub(super) fn stated(
        &mut self,
        total: Option<(Decimal, Decimal)>,
    ) -> Option<Result<(u64, Decimal, String), LineItem>> {
        self.since_sum = Decimal::ZERO;
        self.since_items = 0;
        let (stated, computed) = total?;
        let held = self.held.take()?;
        let with = computed.checked_add(held.item.amount);
        let agrees = crate::audit::agrees(stated, computed);
        if agrees && !with.is_some_and(|w| crate::audit::agrees(stated, w)) {
            let h = &held.item;
            let note = format!(
                "line {} `{}` ({}) is the sum of the {} items above it, and the stated total {stated} agrees only without it: read as a subtotal and not summed",
                h.line, h.description, h.amount, held.items
            );
            Some(Ok((h.line, h.amount, note)))
        } else {
            Some(Err(held.item))
        }
    }

    /// The held row, at the end of the rows: an item after all.
    pub(super) fn release(&mut self) -> Option<LineItem> {
        self.held.take().map(|h| h.item)
    }
}
