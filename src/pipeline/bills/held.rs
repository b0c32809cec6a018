//! The rows a bill holds back or states under labels no table has
//! ([`Unlabelled`]), and the subtotal read from a gross column: the
//! statements [`Bills::add_outcome`] reads beside the items.

use rust_decimal::Decimal;

use super::{Bills, Route};
use crate::audit::parse_double_counted::Stated;
use crate::model::{Category, LineItem};
use crate::normalise::SkipReason;
use crate::vocab::summary::SummaryKind;

#[cfg(doc)]
use super::Unlabelled;

impl Bills<'_> {
    /// A stated figure as the bill compares it: a subtotal read from the
    /// gross column (`less_tax`) less the tax of the lines above it (the
    /// bill's tax so far: `Net, Total` lines with their own tax), so that
    /// it states the charges before tax, as every subtotal does. `None`
    /// (nothing stated) in a range (Parquet, a CSV read on several
    /// threads), which does not know the tax of the rows before it
    /// (docs/decisions.md, "A summary row's figure in the gross column").
    pub(super) fn net_of_line_tax(
        &mut self,
        amount: Decimal,
        less_tax: bool,
        currency: &Option<String>,
    ) -> Option<Decimal> {
        if !less_tax {
            return Some(amount);
        }
        if !matches!(self.route, Route::File(_)) {
            return None;
        }
        let tax = self.for_currency(currency).totals.get(Category::Tax);
        amount.checked_sub(tax)
    }

    pub(super) fn holds_unlabelled(&self) -> bool {
        self.hold_unlabelled && matches!(self.route, Route::File(_))
    }

    /// True when `item` (of line `line`) is the stated total under an
    /// unknown label that the held row's subtotal reconciles with
    /// ([`Unlabelled::closes`]): it is taken as the bill's stated total,
    /// the held row as its subtotal, and the report says so.
    pub(super) fn closes_unlabelled(&mut self, item: &LineItem, line: u64) -> bool {
        let currency = &item.currency;
        let Some(computed) = self.for_currency(currency).totals.checked_sum(|_| true) else {
            return false;
        };
        if !self.unlabelled.closes(item, computed) {
            return false;
        }
        self.primary().add_skip(SkipReason::Summary, None);
        self.decide_unlabelled(SummaryKind::Total, item.amount, currency);
        let keep = self.keep_stated_figures;
        let bill = self.for_currency(currency);
        if keep {
            bill.stated_figures.push(Stated {
                line,
                amount: item.amount,
                total: true,
            });
        }
        bill.stated_total = Some((line, item.amount));
        self.notes.push(format!(
            "line {line} `{}` ({}) is the sum of every line above it with tax and credits, once the subtotal above is set aside: read as the stated total and not summed",
            item.description, item.amount
        ));
        true
    }

    /// True when `item` is held as the stated total after a known subtotal
    /// and its tax or credit rows ([`Unlabelled::total_after_subtotal`]).
    pub(super) fn total_after_subtotal(&mut self, item: &LineItem) -> bool {
        let bill = self.for_currency(&item.currency);
        let Some(computed) = bill.totals.checked_sum(|_| true) else {
            return false;
        };
        self.unlabelled.total_after_subtotal(item, computed)
    }

    /// A row follows the one held as the stated total: it was a charge.
    pub(super) fn release_total(&mut self) {
        if let Some(item) = self.unlabelled.release_total() {
            self.add_item(&item);
        }
    }

    /// The rows ended after the row held as the stated total: it is the
    /// bill's stated total (a `summary` skip), and the report says so.
    pub(super) fn close_total(&mut self) {
        let Some(item) = self.unlabelled.closing_total() else {
            return;
        };
        self.primary().add_skip(SkipReason::Summary, None);
        let keep = self.keep_stated_figures;
        let bill = self.for_currency(&item.currency);
        if keep {
            bill.stated_figures.push(Stated {
                line: item.line,
                amount: item.amount,
                total: true,
            });
        }
        bill.stated_total = Some((item.line, item.amount));
        self.notes.push(format!(
            "line {} `{}` ({}) is the last row, after the stated subtotal and its tax or credit rows, and the sum of every line above it: read as the stated total and not summed",
            item.line, item.description, item.amount
        ));
    }

    /// A stated figure: a held row (see [`Unlabelled`]) is set aside when
    /// the stated total agrees only without it, else added.
    pub(super) fn decide_unlabelled(
        &mut self,
        kind: SummaryKind,
        amount: Decimal,
        currency: &Option<String>,
    ) {
        let total = match kind {
            SummaryKind::Total => self
                .for_currency(currency)
                .totals
                .checked_sum(|_| true)
                .map(|computed| (amount, computed)),
            _ => None,
        };
        match self.unlabelled.stated(total) {
            Some(Ok((line, amount, note))) => {
                let keep = self.keep_stated_figures;
                let bill = self.for_currency(currency);
                bill.add_skip(SkipReason::Summary, None);
                bill.stated_subtotal.get_or_insert((line, amount));
                if keep {
                    bill.stated_figures.push(Stated {
                        line,
                        amount,
                        total: false,
                    });
                }
                self.notes.push(note);
            }
            Some(Err(item)) => self.add_item(&item),
            None => {}
        }
    }
}
