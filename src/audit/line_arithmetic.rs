use super::{CheckInfo, Sink};
use crate::model::{LineItem, Severity};
use crate::normalise::number::half_unit;

pub const INFO: CheckInfo = CheckInfo {
    code: "line-arithmetic",
    default_severity: Severity::Error,
    summary: "quantity x unit price differs from the amount",
    what: "For every line that states both a quantity and a unit price, multiplies them and compares the product with the amount. When the bill also has a list (pre-discount) amount, the product is compared with that instead, so discounts are not errors; a payable amount above the list amount is a finding too. Fires when they differ by more than half a unit of the compared amount's last written decimal (0.005 for `12.30`).",
    why: "A line whose arithmetic does not add up is either a billing error or a fee folded into the price. Either way somebody should look at it.",
    example: "`GPU hours, 20, 1.80, 37.00`: 20 x 1.80 = 36.00, but the line charges 37.00 (off by 1.00).",
};

pub fn check(item: &LineItem, sink: &mut Sink<'_>) {
    // A payable amount above the list amount is a surcharge, not a discount.
    if let Some(list) = item.list_amount {
        if item.amount > list && item.amount - list > half_unit(item.amount) {
            sink.emit(
                &INFO,
                Some(item.line),
                format!(
                    "the amount {} is above the list amount {list} (by {}): {}",
                    item.amount,
                    item.amount - list,
                    item.description
                ),
            );
            return;
        }
    }
    let (Some(q), Some(p)) = (item.quantity, item.unit_price) else {
        return;
    };
    let Some(product) = q.checked_mul(p) else {
        return;
    };
    let (against, label) = match item.list_amount {
        Some(l) => (l, "list amount"),
        None => (item.amount, "amount"),
    };
    let diff = (product - against).abs();
    if diff > half_unit(against) {
        sink.emit(
            &INFO,
            Some(item.line),
            format!(
                "{q} x {p} = {} but the {label} is {against} (off by {}): {}",
                product, diff, item.description
            ),
        );
    }
}
