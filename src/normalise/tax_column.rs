//! A tax column: the tax charged on each line in a column of its own
//! (`Net Amount, VAT, Gross Amount`; Linode's `amount, tax, total`;
//! `金额, 税额`), read as a `tax` item beside the line's charge, so the
//! charge's category holds the charge before tax and `tax` holds the tax,
//! as the audit's shares need (docs/decisions.md, "A tax column").
//!
//! Whether the amount includes the tax is read from its header
//! ([`GROSS_MARKERS`]: `Gross Amount`, `Montant TTC`, `含税金额`), else from
//! the row's arithmetic: an amount that is not quantity x unit price but is
//! that plus the tax is gross. A gross amount has the tax taken out.
//!
//! Without a tax column, a net amount beside a gross one (`Net, Total`)
//! gives the tax as their difference: the net is the charge and gross -
//! net its `tax` item ([`Role::Gross`], kept by `profile::settle_gross`).

use rust_decimal::Decimal;

use super::profile::Role;
use super::{Figures, RowNormaliser, number};
use crate::model::{Category, Cells, Finding, LineItem, TAX_COLUMN_RULE};
use crate::vocab::headers::GROSS_MARKERS;
use crate::vocab::summary::SummaryKind;

/// The tax of one row: its tax cell, or gross - net ([`Role::Gross`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct RowTax {
    pub(super) amount: Decimal,
    /// Gross - net: the amount is the net already.
    from_gross: bool,
}

impl RowNormaliser<'_> {
    /// The row's tax (`amount` is its amount): its tax cell, else its gross
    /// cell less the amount; `None` when zero, and on a tax summary row,
    /// which is the tax already.
    pub(super) fn row_tax<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        (line, rec, figures): (u64, &C, &F),
        summary: Option<SummaryKind>,
        amount: Decimal,
    ) -> Result<Option<RowTax>, Box<Finding>> {
        if summary == Some(SummaryKind::Tax) {
            return Ok(None);
        }
        let from_gross = self.map.get(Role::Tax).is_none();
        let tax = if from_gross {
            self.figure(line, rec, figures, Role::Gross, summary)?
                .and_then(|g| g.checked_sub(amount))
        } else {
            self.figure(line, rec, figures, Role::Tax, summary)?
        };
        Ok(tax
            .filter(|t| !t.is_zero())
            .map(|amount| RowTax { amount, from_gross }))
    }

    /// The figure of a summary row whose amount (net) cell is empty, from
    /// its gross cell ([`Role::Gross`], `Net, Total`): a tax or credit row
    /// (`VAT,,7.40`) is that tax or credit, a total row states what is
    /// due, its gross, and a subtotal row its gross, which the bill states
    /// less the tax of the lines above it (`RowOutcome::Stated::less_tax`).
    /// `None` for a charge row, whose empty net stays a `missing-amount`.
    pub(super) fn gross_only<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        (line, rec, figures): (u64, &C, &F),
        summary: Option<SummaryKind>,
    ) -> Result<Option<Decimal>, Box<Finding>> {
        match summary {
            Some(_) => self.figure(line, rec, figures, Role::Gross, summary),
            None => Ok(None),
        }
    }

    /// Takes the tax out of the charge `item` when its amount includes it
    /// ([`net_of`]), and gives the `tax` item beside it.
    pub(super) fn split_tax(&self, item: &mut LineItem, tax: RowTax) -> LineItem {
        let raw = |role| self.map.header_of(role).unwrap_or("?");
        let column = if tax.from_gross {
            format!("tax ({} - {})", raw(Role::Gross), raw(Role::Amount))
        } else {
            item.amount = net_of(
                item.amount,
                tax.amount,
                item.quantity,
                item.unit_price,
                self.amount_is_gross(),
            );
            raw(Role::Tax).to_string()
        };
        tax_item(item, &column, tax.amount)
    }

    /// Whether the amount includes the tax: the profile says so, or the
    /// amount column's header does.
    pub(super) fn amount_is_gross(&self) -> bool {
        self.map.amount_includes_tax
            || self
                .map
                .get(Role::Amount)
                .and_then(|i| self.map.names.get(i))
                // Header names are kept lowercased (`header::normalise_header`).
                .is_some_and(|name| GROSS_MARKERS.iter().any(|m| name.contains(m)))
    }
}

/// The row's charge before tax: `amount` less `tax` when the amount
/// includes it (by its header, `gross_header`, or by the row's arithmetic:
/// quantity x unit price is not the amount but is the amount less the tax).
pub(super) fn net_of(
    amount: Decimal,
    tax: Decimal,
    quantity: Option<Decimal>,
    unit_price: Option<Decimal>,
    gross_header: bool,
) -> Decimal {
    let by_arithmetic = || {
        let (Some(q), Some(p)) = (quantity, unit_price) else {
            return false;
        };
        let Some(qp) = q.checked_mul(p) else {
            return false;
        };
        !number::agrees(qp, amount)
            && qp
                .checked_add(tax)
                .is_some_and(|with| number::agrees(with, amount))
    };
    if gross_header || by_arithmetic() {
        amount.checked_sub(tax).unwrap_or(amount)
    } else {
        amount
    }
}

/// The `tax` item of a line whose tax cell is `tax`, named after the tax
/// column and the charge (`VAT: H100 GPU hours`).
pub(super) fn tax_item(charge: &LineItem, column: &str, tax: Decimal) -> LineItem {
    let description = format!("{column}: {}", charge.description);
    LineItem::beside(charge, description, tax, (Category::Tax, TAX_COLUMN_RULE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn a_gross_amount_has_its_tax_taken_out() {
        // By the header: 36.00 - 6.00 = 30.00.
        assert_eq!(net_of(d("36.00"), d("6.00"), None, None, true), d("30.00"));
        // By the arithmetic: 10 x 3.00 = 30.00 = 36.00 - 6.00.
        let (q, p) = (Some(d("10")), Some(d("3.00")));
        assert_eq!(net_of(d("36.00"), d("6.00"), q, p, false), d("30.00"));
        // Net already: 10 x 3.00 = 30.00 = the amount.
        assert_eq!(net_of(d("30.00"), d("6.00"), q, p, false), d("30.00"));
        // Neither: no quantity, a header that says nothing: as read.
        assert_eq!(net_of(d("36.00"), d("6.00"), None, None, false), d("36.00"));
        // Arithmetic that matches neither reading: as read.
        assert_eq!(net_of(d("40.00"), d("6.00"), q, p, false), d("40.00"));
    }
}
