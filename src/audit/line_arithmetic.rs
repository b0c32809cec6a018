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
    // Exports pad amounts with zeros past the places they compute at (AWS:
    // `0.00000000280` is 0.0000000028475 rounded at 10 places): compare at no
    // finer than 10 decimal places.
    let mut written = against;
    if written.scale() > MAX_COMPARED_PLACES {
        written.rescale(MAX_COMPARED_PLACES);
    }
    let tolerance = half_unit(written)
        .saturating_add(slack(q, p))
        .saturating_add(slack(p, q));
    if diff > tolerance && !block_unit(product, against) {
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

/// `true` when `product` and `against` differ by exactly a power of ten
/// (10 to 10^9): a price per block of units (`10K`, `1M`) multiplied by a
/// quantity in single units, as some FOCUS exports write them. A unit
/// convention, not a billing error.
const MAX_COMPARED_PLACES: u32 = 10;

fn block_unit(product: Decimal, against: Decimal) -> bool {
    if product.is_zero() || against.is_zero() {
        return false;
    }
    let (big, small) = if product.abs() > against.abs() {
        (product, against)
    } else {
        (against, product)
    };
    let mut scaled = small;
    for _ in 0..9 {
        scaled = match scaled.checked_mul(Decimal::TEN) {
            Some(s) => s,
            None => return false,
        };
        if scaled == big {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn block_prices_are_a_unit_convention() {
        assert!(block_unit(d("0.0000015"), d("0.015")));
        assert!(block_unit(d("150"), d("0.15")));
        assert!(!block_unit(d("0.0000015"), d("0.0000016")));
        assert!(!block_unit(d("0"), d("0")));
        assert!(!block_unit(d("2"), d("0.3")));
    }
}
