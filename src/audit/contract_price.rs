//! `above-contracted-price`: a line billed above the cost its contract
//! states (FOCUS `ContractedCost`, or `ContractedUnitPrice` x quantity).
//! One finding per line ([`check`], per item); the bill's [`Excess`] sums
//! what those lines were billed above their contract.

use rust_decimal::Decimal;

use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
use super::excess::Excess;
use super::{Emit, Sink, line_arithmetic, money};
use crate::model::LineItem;
use crate::normalise::number::half_unit;
use crate::vocab::checks::Check;

/// What a line was billed above its contract: (contracted cost, excess,
/// where the contracted cost comes from). `None` when it is not above, or
/// is not compared (see the check's documentation in `vocab::checks`).
pub(crate) fn excess(item: &LineItem) -> Option<(Decimal, Decimal, &'static str)> {
    let t = item.terms.as_deref()?;
    if item.amount <= Decimal::ZERO {
        return None;
    }
    let (contracted, slack, source) = match t.contracted {
        Some(c) if c > Decimal::ZERO => (c, Decimal::ZERO, "ContractedCost"),
        _ => {
            let (p, q) = (t.contracted_unit_price?, item.quantity?);
            if p <= Decimal::ZERO || q <= Decimal::ZERO {
                return None;
            }
            // A rounded unit price moves the product by up to q x its half unit.
            let slack = if p.scale() == 0 {
                Decimal::ZERO
            } else {
                q.checked_mul(half_unit(p))?
            };
            (p.checked_mul(q)?, slack, "ContractedUnitPrice x quantity")
        }
    };
    // The negotiated price given in the amortised view (a discount row);
    // at or under the contracted cost itself (most rows) whatever the
    // tolerance, which is never negative.
    if t.effective.is_some_and(|e| e <= contracted) {
        return None;
    }
    let tolerance = half_unit(item.amount).saturating_add(slack);
    if t.effective
        .is_some_and(|e| e <= contracted.saturating_add(tolerance))
    {
        return None;
    }
    let over = item.amount.checked_sub(contracted)?;
    if over <= tolerance || line_arithmetic::product_mismatch(item).is_some() {
        return None;
    }
    Some((contracted, over, source))
}

/// `above`: the line's [`excess`], worked out once a row
/// ([`Row::above_contract`]).
pub(crate) fn check<'p>(
    item: &LineItem,
    above: Option<(Decimal, Decimal, &'static str)>,
    sink: &mut impl Emit<'p>,
) {
    let Some((contracted, over, source)) = above else {
        return;
    };
    let currency = item.currency.as_deref();
    sink.emit(
        Check::AboveContractedPrice,
        Some(item.line),
        format!(
            "billed {} where the contract says {} ({source}): {} above: {}",
            money(item.amount, currency),
            money(contracted, currency),
            money(over, currency),
            item.description
        ),
    );
}

/// The bill's lines billed above their contract, none yet.
fn total() -> Excess {
    Excess::new(Check::AboveContractedPrice, "their contracted cost")
}

/// The state of `above-contracted-price`: the bill's lines billed above
/// their contract.
#[derive(Debug)]
pub(crate) struct Contracted(Excess);

register!(Contracted);

impl Accumulator for Contracted {
    const RANK: u32 = 50;

    fn start(_: Start) -> Self {
        Contracted(total())
    }

    fn update(&mut self, _: &LineItem, row: &mut Row<'_>) {
        self.0.add(row.above_contract.map(|e| e.1));
    }

    fn merge(&mut self, later: Self, _: usize) {
        self.0.merge(later.0);
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        self.0.report(bill.currency, sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;
    use crate::model::Terms;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn line(amount: &str, contracted: Option<&str>, effective: Option<&str>) -> LineItem {
        let mut i = LineItem::new(4, "GPU on-demand hours", d(amount));
        i.currency = Some("USD".into());
        i.terms = Some(Box::new(Terms {
            contracted: contracted.map(d),
            effective: effective.map(d),
            ..Terms::default()
        }));
        i
    }

    fn messages(items: &[LineItem]) -> Vec<String> {
        let policy = Policy::default();
        let mut sink = Sink::new("bill.csv", &policy);
        let mut total = total();
        for i in items {
            check(i, excess(i), &mut sink);
            total.add(excess(i).map(|e| e.1));
        }
        total.report(Some("USD"), &mut sink);
        sink.findings.into_iter().map(|f| f.message).collect()
    }

    #[test]
    fn the_issue_case_and_its_tolerance() {
        // 300.00 - 270.00 = 30.00 above.
        assert_eq!(
            messages(&[line("300.00", Some("270.00"), Some("300.00"))]),
            [
                "billed 300.00 USD where the contract says 270.00 USD (ContractedCost): 30.00 USD above: GPU on-demand hours"
            ]
        );
        // At the contract, or within half a cent (0.005) of it: silent.
        assert!(messages(&[line("270.00", Some("270.00"), None)]).is_empty());
        assert!(messages(&[line("270.00", Some("269.995"), None)]).is_empty());
        assert_eq!(messages(&[line("270.01", Some("270.00"), None)]).len(), 1);
        // No contract price (0 or empty), a credit, or the discount given
        // in the effective cost: not compared.
        assert!(messages(&[line("300.00", Some("0"), None)]).is_empty());
        assert!(messages(&[line("300.00", None, None)]).is_empty());
        assert!(messages(&[line("-300.00", Some("270.00"), None)]).is_empty());
        assert!(messages(&[line("300.00", Some("270.00"), Some("270.00"))]).is_empty());
    }

    #[test]
    fn the_unit_price_stands_in_and_the_bill_gets_the_sum() {
        // 100 h x 2.70 = 270.00 contracted; billed 300.00: 30.00 above.
        let mut a = line("300.00", None, None);
        a.quantity = Some(d("100"));
        a.terms.as_mut().unwrap().contracted_unit_price = Some(d("2.70"));
        // 50.00 - 45.00 = 5.00 above; 30.00 + 5.00 = 35.00 in all.
        let b = line("50.00", Some("45.00"), None);
        let m = messages(&[a, b]);
        assert_eq!(m.len(), 3, "{m:?}");
        assert!(m[0].contains("270.00 USD (ContractedUnitPrice x quantity): 30.00 USD above"));
        assert_eq!(
            m[2],
            "2 lines billed above their contracted cost, by 35.00 USD in all"
        );
    }

    #[test]
    fn a_line_whose_list_arithmetic_is_off_is_left_to_line_arithmetic() {
        // Azure in focus_converters' output: 0.00000003 x 0.05 = 1.5e-9 is
        // the ContractedCost, but ListCost and BilledCost are 1.5e-5.
        let mut i = line(
            "0.00001500000",
            Some("0.00000000150"),
            Some("0.00001500000"),
        );
        i.quantity = Some(d("0.00000003000"));
        i.unit_price = Some(d("0.05"));
        i.list_amount = Some(d("0.00001500000"));
        assert!(messages(&[i]).is_empty());
    }
}
