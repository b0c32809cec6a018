use super::{CheckInfo, Sink};
use rust_decimal::Decimal;

use crate::model::{LineItem, Severity};
use crate::normalise::number::half_unit;

pub const INFO: CheckInfo = CheckInfo {
    code: "line-arithmetic",
    default_severity: Severity::Error,
    summary: "quantity x unit price differs from the amount",
    what: "For every line that states both a quantity and a unit price, multiplies them and compares the product with the amount. When the bill also has a list (pre-discount) amount, the product is compared with that instead, so discounts are not errors; a payable amount above the list amount is a finding too (for refunds, a credit larger than the listed one). Fires when they differ by more than the rounding the bill itself shows: half a unit of the compared amount's last written decimal (0.005 for `12.30`), plus what rounding a quantity or price written with decimals can move the product (cloud exports round quantities like `0.0000142949` and prices like `0.011199923`; whole quantities are taken as exact).",
    why: "A line whose arithmetic does not add up is either a billing error or a fee folded into the price. Either way somebody should look at it.",
    example: "`GPU hours, 20, 1.80, 37.00`: 20 x 1.80 = 36.00, but the line charges 37.00 (off by 1.00).",
};

pub fn check(item: &LineItem, sink: &mut Sink<'_>) {
    // A payable amount above the list amount is a surcharge, not a discount.
    if let Some(list) = item.list_amount {
        // Refunds are negative on both sides: `-7.20` payable against `-8.00`
        // list is a discounted refund, not a surcharge.
        let above = if list < Decimal::ZERO {
            item.amount < list
        } else {
            item.amount > list
        };
        let over = item
            .amount
            .checked_sub(list)
            .map_or(Decimal::MAX, |d| d.abs());
        if above && over > half_unit(item.amount) {
            sink.emit(
                &INFO,
                Some(item.line),
                format!(
                    "the amount {} is above the list amount {list} (by {}): {}",
                    item.amount, over, item.description
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
    // A difference past the Decimal range is as large a mismatch as there is.
    let diff = product
        .checked_sub(against)
        .map_or(Decimal::MAX, |d| d.abs());
    // Rounding of a factor moves the product by up to |other factor| x its half unit.
    let slack = |x: Decimal, other: Decimal| {
        if x.scale() == 0 {
            Decimal::ZERO
        } else {
            other
                .abs()
                .checked_mul(half_unit(x))
                .unwrap_or(Decimal::MAX)
        }
    };
    let tolerance = half_unit(against)
        .saturating_add(slack(q, p))
        .saturating_add(slack(p, q));
    if diff > tolerance {
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
