//! A credit column inside the amount: the credit applied to each line in a
//! column of its own, already netted into the line's amount (the AWS
//! monthly report's `Credits`, inside `TotalCost` = `CostBeforeTax` +
//! `Credits` + `TaxAmount`). The credit is read as a `credit` item beside
//! the line's charge and taken out of the charge, so the charge's category
//! holds what the line cost before its credit, `credit` holds the credit,
//! and the row's total is unchanged (docs/decisions.md, "AWS legacy
//! reports").

use super::profile::Role;
use super::{Figures, RowNormaliser};
use crate::model::{CREDIT_COLUMN_RULE, Category, Cells, Finding, LineItem};
use crate::vocab::summary::SummaryKind;

impl RowNormaliser<'_> {
    /// The `credit` item of a charge row whose credit cell
    /// ([`Role::Credit`]) is not zero, its credit taken out of `item`'s
    /// amount. `None` without a credit column, for a zero or empty cell,
    /// and on a summary row (a credit or tax row is its figure already).
    pub(super) fn credit_part<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        (line, rec, figures): (u64, &C, &F),
        summary: Option<SummaryKind>,
        item: &mut LineItem,
    ) -> Result<Option<LineItem>, Box<Finding>> {
        if summary.is_some() || self.map.get(Role::Credit).is_none() {
            return Ok(None);
        }
        let Some(credit) = self
            .figure(line, rec, figures, Role::Credit, summary)?
            .filter(|c| !c.is_zero())
        else {
            return Ok(None);
        };
        // The charge before its credit; a sum past Decimal's range keeps
        // the row whole (its credit stays inside, as before).
        let Some(charge) = item.amount.checked_sub(credit) else {
            return Ok(None);
        };
        item.amount = charge;
        let column = self.map.header_of(Role::Credit).unwrap_or("credit");
        let description = format!("{column}: {}", item.description);
        let rule = (Category::Credit, CREDIT_COLUMN_RULE);
        Ok(Some(LineItem::beside(item, description, credit, rule)))
    }
}
