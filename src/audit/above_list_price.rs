//! `above-list-price`: a line billed above its own list (pre-discount)
//! amount (FOCUS `ListCost`, a `List`/`原价`/`官网价` column). Once part of
//! `line-arithmetic`, which still leaves such a line to this check. One
//! finding per line ([`check`], per item); the bill's
//! [`super::contract_price::Excess`] sums the excess.

use rust_decimal::Decimal;

use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
use super::excess::Excess;
use super::{Emit, Sink};
use crate::model::LineItem;
use crate::normalise::number::half_unit;
use crate::vocab::checks::Check;

/// The state of `above-list-price`: the bill's lines billed above their
/// list amount.
#[derive(Debug)]
pub(crate) struct Listed(Excess);

register!(Listed);

impl Accumulator for Listed {
    const RANK: u32 = 60;

    fn start(_: Start) -> Self {
        Listed(Excess::new(Check::AboveListPrice, "their list amount"))
    }

    fn update(&mut self, _: &LineItem, row: &mut Row<'_>) {
        self.0.add(row.above_list);
    }

    fn merge(&mut self, later: Self, _: usize) {
        self.0.merge(later.0);
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        self.0.report(bill.currency, sink);
    }
}

/// How far the amount is above the list amount, when it is by more than
/// half a unit of the amount's last decimal. Refunds are negative on both
/// sides: `-7.20` payable against `-8.00` list is a discounted refund, not
/// a surcharge; `-9.00` is a credit larger than listed.
pub(crate) fn excess(item: &LineItem) -> Option<Decimal> {
    let list = item.list_amount?;
    let above = if list < Decimal::ZERO {
        item.amount < list
    } else {
        item.amount > list
    };
    if !above {
        return None;
    }
    let over = item
        .amount
        .checked_sub(list)
        .map_or(Decimal::MAX, |d| d.abs());
    (over > half_unit(item.amount)).then_some(over)
}

/// `over`: the line's [`excess`], worked out once a row ([`Row::above_list`]).
pub(crate) fn check<'p>(item: &LineItem, over: Option<Decimal>, sink: &mut impl Emit<'p>) {
    if let (Some(over), Some(list)) = (over, item.list_amount) {
        sink.emit(
            Check::AboveListPrice,
            Some(item.line),
            format!(
                "the amount {} is above the list amount {list} (by {}): {}",
                item.amount, over, item.description
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn over(amount: &str, list: &str) -> Option<Decimal> {
        let mut i = LineItem::new(2, "GPU hours", d(amount));
        i.list_amount = Some(d(list));
        excess(&i)
    }

    #[test]
    fn above_the_list_by_more_than_rounding() {
        // 37.00 - 36.00 = 1.00 above.
        assert_eq!(over("37.00", "36.00"), Some(d("1.00")));
        // A discount is not above.
        assert_eq!(over("30.00", "36.00"), None);
        // Refunds: -7.20 against -8.00 is a discounted refund; -9.00 is a
        // credit larger than listed by |-9.00 - -8.00| = 1.00.
        assert_eq!(over("-7.20", "-8.00"), None);
        assert_eq!(over("-9.00", "-8.00"), Some(d("1.00")));
        // A list of zero: 0.50 payable is above it.
        assert_eq!(over("0.50", "0.00"), Some(d("0.50")));
        // Above by exactly the amount's half unit (36.5: 0.05): tolerated.
        assert_eq!(over("36.5", "36.45"), None);
        assert_eq!(over("36.6", "36.45"), Some(d("0.15")));
    }
}
