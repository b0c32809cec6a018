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
//!
//! A row of the same shape right after the held row's tax or credit rows,
//! whose amount is the bill's total so far without the held row (its items
//! with tax and credits), is the stated total under an unknown label
//! ([`Unlabelled::closes`]): the pair reconciles through the tax, so both
//! are statements.
//!
//! A row of the same shape after a *known* subtotal that agrees with the
//! items (`Subtotal`) and its tax or credit rows (`Discount`), whose amount
//! is the bill's total so far (`Amount payable` in a language no table
//! has, or no label), is the stated total under an unknown label
//! ([`Unlabelled::total_after_subtotal`]); it is held until the rows end
//! or a statement follows, and any charge after it makes it a charge.

use rust_decimal::Decimal;

use crate::model::{Category, LineItem};

/// The items since the last summary row, and the row held back.
#[derive(Debug, Default)]
pub(super) struct Unlabelled {
    since_sum: Decimal,
    since_items: u64,
    held: Option<Held>,
    /// A known subtotal that agrees with the items was stated, and no
    /// charge came after it: whether tax or credit rows did.
    after_subtotal: Option<bool>,
    /// A row taken for the stated total after a known subtotal
    /// ([`Unlabelled::total_after_subtotal`]), until the rows end.
    total: Option<LineItem>,
}

#[derive(Debug)]
struct Held {
    item: LineItem,
    /// How many items it adds up.
    items: u64,
    /// A tax or credit row came after it.
    adjusted: bool,
    /// Items (not tax or credit) came after it.
    items_after: u64,
}

impl Unlabelled {
    /// True when `item` is held back (the caller does not add it now).
    pub(super) fn hold(&mut self, item: &LineItem) -> bool {
        let candidate = self.held.is_none()
            && self.since_items >= 2
            && summary_shaped(item)
            && item.amount == self.since_sum;
        if candidate {
            self.held = Some(Held {
                item: item.clone(),
                items: self.since_items,
                adjusted: false,
                items_after: 0,
            });
        } else if !matches!(item.category, Category::Tax | Category::Credit) {
            self.since_sum = self.since_sum.saturating_add(item.amount);
            self.since_items += 1;
            self.after_subtotal = None;
            if let Some(h) = &mut self.held {
                h.items_after += 1;
            }
        } else {
            if let Some(adjusted) = &mut self.after_subtotal {
                *adjusted = true;
            }
            if let Some(h) = &mut self.held {
                h.adjusted = true;
            }
        }
        candidate
    }

    /// A known subtotal was stated; `agrees`: it is the sum of the items.
    pub(super) fn subtotal_stated(&mut self, agrees: bool) {
        self.after_subtotal = agrees.then_some(false);
    }

    /// Whether `item` is the stated total after a known subtotal, and is
    /// held as such: a row of a statement's shape (an amount above zero,
    /// no quantity, no unit price, not tax or credit) right after the
    /// subtotal's tax or credit rows (at least one, no charge between),
    /// whose amount is exactly the bill's total so far (`computed`: the
    /// items with tax and credits, which the subtotal agrees with).
    /// `Subtotal 100.00`, `Discount -5.00`, then
    /// `Zu zahlen 95.00` (or a blank label): three figures that add up.
    /// A charge after it gives it back ([`Unlabelled::release_total`]).
    pub(super) fn total_after_subtotal(&mut self, item: &LineItem, computed: Decimal) -> bool {
        let taken = self.after_subtotal == Some(true)
            && self.held.is_none()
            && self.total.is_none()
            && summary_shaped(item)
            && item.amount == computed;
        if taken {
            self.total = Some(item.clone());
        }
        taken
    }

    /// The row held as the stated total ([`Unlabelled::total_after_subtotal`])
    /// when another row follows it (a charge, a tax, a statement): the
    /// list goes on, so it is a charge after all, given back to be added.
    pub(super) fn release_total(&mut self) -> Option<LineItem> {
        let item = self.total.take();
        if item.is_some() {
            self.after_subtotal = None;
        }
        item
    }

    /// The row held as the stated total, at the end of the rows: the last
    /// row, so the bill's total under an unknown label.
    pub(super) fn closing_total(&mut self) -> Option<LineItem> {
        self.total.take()
    }

    /// Whether `item` closes the held row: a row of the same shape (an
    /// amount, no quantity, no unit price, not tax or credit), right after
    /// the held row's tax or credit rows (at least one, and no other item
    /// between), whose amount is the bill's total so far (`computed`: the
    /// items with tax and credits, without the held row) and not that
    /// total with the held row. Then the two rows state the subtotal and
    /// the total under labels no vocabulary knows (`;;;80,90;`, `IVA 21%`,
    /// then `Monto final;;;97,89`): sums that reconcile through the tax,
    /// which a pair of charges does only by chance. Two equal rows without
    /// a tax between them (`Support fee 10.00`, `Consulting 10.00` after
    /// items of 4.00 and 6.00) are not taken: charges can repeat.
    pub(super) fn closes(&self, item: &LineItem, computed: Decimal) -> bool {
        let Some(held) = &self.held else {
            return false;
        };
        let agrees = crate::audit::agrees(item.amount, computed);
        let with = computed.checked_add(held.item.amount);
        held.adjusted
            && held.items_after == 0
            && summary_shaped(item)
            && agrees
            && !with.is_some_and(|w| crate::audit::agrees(item.amount, w))
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
        self.after_subtotal = None;
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

/// A row shaped like a statement: an amount above zero with neither a
/// quantity nor a unit price, and not tax or credit.
fn summary_shaped(item: &LineItem) -> bool {
    item.quantity.is_none()
        && item.unit_price.is_none()
        && item.amount > Decimal::ZERO
        && !matches!(item.category, Category::Tax | Category::Credit)
}
