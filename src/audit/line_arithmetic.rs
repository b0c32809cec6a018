use super::Emit;
use rust_decimal::Decimal;

use crate::model::LineItem;
use crate::normalise::block::{block_in_text, declared_block};
use crate::normalise::number::half_unit;
use crate::vocab::checks::Check;

/// `above_list`: the line is billed above its list amount
/// (`above_list_price::excess`).
pub(crate) fn check<'p>(item: &LineItem, above_list: bool, sink: &mut impl Emit<'p>) {
    // A payable amount above the list amount is `above-list-price`'s; the
    // product is not compared with a list the line is already above.
    if above_list {
        return;
    }
    if let Some(message) = product_mismatch(item) {
        sink.emit(Check::LineArithmetic, Some(item.line), message);
    }
}

/// What is wrong when quantity x unit price disagrees with the list amount
/// (or, without one, the amount) by more than their rounding and no
/// declared block explains it; `None` when they agree or a figure is
/// missing. `above-contracted-price` does not trust such a line either.
pub(crate) fn product_mismatch(item: &LineItem) -> Option<String> {
    let (Some(q), Some(p)) = (item.quantity, item.unit_price) else {
        return None;
    };
    let product = q.checked_mul(p)?;
    let (against, label) = match item.list_amount {
        Some(l) => (l, "list amount"),
        None => (item.amount, "amount"),
    };
    // The product as written (most lines): no slack can make that a
    // mismatch, so none is worked out.
    if product == against {
        return None;
    }
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
    let mut written = against;
    if written.scale() > MAX_COMPARED_PLACES {
        written.rescale(MAX_COMPARED_PLACES);
    }
    let slack = slack(q, p).saturating_add(slack(p, q));
    let off = |product: Decimal, slack: Decimal| {
        let diff = product
            .checked_sub(against)
            .map_or(Decimal::MAX, |d| d.abs());
        diff > half_unit(written).saturating_add(slack)
    };
    if !off(product, slack) || declared_block_fits(item, product, slack, off) {
        return None;
    }
    // A difference past the Decimal range is as large a mismatch as there is.
    let diff = product
        .checked_sub(against)
        .map_or(Decimal::MAX, |d| d.abs());
    Some(format!(
        "{q} x {p} = {} but the {label} is {against} (off by {}): {}",
        product, diff, item.description
    ))
}

/// Exports pad amounts with zeros past the places they compute at (AWS:
/// `0.00000000280` is 0.0000000028475 rounded at 10 places): compare at no
/// finer than 10 decimal places.
const MAX_COMPARED_PLACES: u32 = 10;

/// `true` when the line declares a block price (its unit, price unit or
/// description: `1K requests`, `元/万次`, `per 1M requests`, see
/// [`crate::normalise::block`]) and the product is off by exactly that
/// block, either way: a quantity in single units times a price per block,
/// or a quantity in blocks times a price per unit. A block of 1000 excuses
/// 1000x, not 10x; a plain unit (`hour`) excuses nothing.
fn declared_block_fits(
    item: &LineItem,
    product: Decimal,
    slack: Decimal,
    off: impl Fn(Decimal, Decimal) -> bool,
) -> bool {
    let block = item
        .unit
        .as_deref()
        .and_then(declared_block)
        .or_else(|| item.price_unit.as_deref().and_then(declared_block))
        .or_else(|| block_in_text(&item.description));
    let Some(n) = block else {
        return false;
    };
    let per_block = product
        .checked_div(n)
        .zip(slack.checked_div(n))
        .is_some_and(|(p, s)| !off(p, s));
    let in_blocks = product
        .checked_mul(n)
        .zip(slack.checked_mul(n))
        .is_some_and(|(p, s)| !off(p, s));
    per_block || in_blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;
    use crate::audit::Sink;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    /// Whether `q x p` against `amount` fires, with the unit, price unit and
    /// description given.
    fn fires(q: &str, p: &str, amount: &str, unit: &str, price_unit: &str, desc: &str) -> bool {
        let policy = Policy::default();
        let mut sink = Sink::new("bill.csv", &policy);
        let mut item = LineItem::new(2, desc, d(amount));
        item.quantity = Some(d(q));
        item.unit_price = Some(d(p));
        item.unit = (!unit.is_empty()).then(|| unit.to_string());
        item.price_unit = (!price_unit.is_empty()).then(|| price_unit.to_string());
        check(
            &item,
            crate::audit::above_list_price::excess(&item).is_some(),
            &mut sink,
        );
        !sink.findings.is_empty()
    }

    #[test]
    fn a_power_of_ten_on_a_plain_unit_is_an_error() {
        // 20 x 1.80 = 36.00, billed 360.00: ten times the product.
        assert!(fires("20", "1.80", "360.00", "h", "", "GPU hours"));
        // 5 x 2.00 = 10.00, billed 1000.00: a hundred times.
        assert!(fires("5", "2.00", "1000.00", "hour", "", "GPU hours"));
        // No unit at all declares nothing either.
        assert!(fires("5", "2.00", "1000.00", "", "", "GPU hours"));
    }

    #[test]
    fn a_declared_block_excuses_exactly_its_size_either_way() {
        // 1,500,000 x 0.40 = 600000.00 = 0.60 x 1,000,000 (per 1M requests).
        assert!(!fires(
            "1500000",
            "0.40",
            "0.60",
            "requests",
            "",
            "API, per 1M requests"
        ));
        assert!(!fires("1500000", "0.40", "0.60", "1M requests", "", "API"));
        // Alibaba: 30000 calls x 0.80 元/万次 = 24000.00 = 2.40 x 10,000.
        assert!(!fires("30000", "0.80", "2.40", "次", "元/万次", "API 调用"));
        // Quantity in blocks, price per unit (FOCUS-style): 0.00000003 x 0.05
        // = 0.0000000015, billed 0.000015 = 0.0000000015 x 10,000 (10K).
        assert!(!fires(
            "0.00000003",
            "0.05",
            "0.000015",
            "10K",
            "",
            "Operations"
        ));
        // A 1K block excuses 1000x, not 10x: 20 x 1.80 = 36.00 vs 360.00.
        assert!(fires("20", "1.80", "360.00", "1K requests", "", "API"));
        // ... and not a block plus an error: 1,500,000 x 0.40 / 1,000,000 =
        // 0.60, but the line bills 0.70.
        assert!(fires(
            "1500000",
            "0.40",
            "0.70",
            "requests",
            "",
            "per 1M requests"
        ));
    }

    /// The messages `check` gives for one line.
    fn run(q: Option<&str>, p: Option<&str>, amount: &str, list: Option<&str>) -> Vec<String> {
        let policy = Policy::default();
        let mut sink = Sink::new("bill.csv", &policy);
        let mut item = LineItem::new(2, "GPU hours", d(amount));
        item.quantity = q.map(d);
        item.unit_price = p.map(d);
        item.list_amount = list.map(d);
        check(
            &item,
            crate::audit::above_list_price::excess(&item).is_some(),
            &mut sink,
        );
        sink.findings.into_iter().map(|f| f.message).collect()
    }

    #[test]
    fn the_documented_example_and_its_tolerance() {
        // 20 x 1.80 = 36.00 against 37.00: off by 1.00.
        assert_eq!(
            run(Some("20"), Some("1.80"), "37.00", None),
            ["20 x 1.80 = 36.00 but the amount is 37.00 (off by 1.00): GPU hours"]
        );
        // Tolerance: half a unit of 36.10 (0.005) + 20 x half a unit of
        // 1.80 (20 x 0.005 = 0.1; `20` is whole: exact) = 0.105.
        assert!(run(Some("20"), Some("1.80"), "36.10", None).is_empty());
        // 36.50: 0.50 off > 0.105 (were `20` taken as rounded, it would
        // add 1.80 x 0.5 = 0.9 and excuse it).
        assert_eq!(run(Some("20"), Some("1.80"), "36.50", None).len(), 1);
        // Exactly at the tolerance: 1 x 40.0 = 40.0 against 40.1: off by
        // 0.1 = 0.05 (half unit of 40.1) + 1 x 0.05 (half unit of 40.0).
        assert!(run(Some("1"), Some("40.0"), "40.1", None).is_empty());
        assert_eq!(run(Some("1"), Some("40.0"), "40.11", None).len(), 1);
        // Without a quantity or a price there is nothing to multiply.
        assert!(run(None, Some("1.80"), "37.00", None).is_empty());
        assert!(run(Some("20"), None, "37.00", None).is_empty());
    }

    #[test]
    fn padded_amounts_are_compared_at_ten_places() {
        // 1 x 0.0000000028475 = 0.0000000028475 against 0.00000000280
        // (11 places, AWS padding): 4.75e-11 off. At 10 places the half
        // unit is 5e-11 (+ 1 x 5e-14 for the price): within. At 11 places
        // it would be 5e-12: a finding.
        assert!(run(Some("1"), Some("0.0000000028475"), "0.00000000280", None).is_empty());
        // 4.75e-11 is not within a 10-place amount's half unit when off by
        // more: 0.0000000027 (10 places) is 1.475e-10 off.
        assert_eq!(
            run(Some("1"), Some("0.0000000028475"), "0.0000000027", None).len(),
            1
        );
    }

    #[test]
    fn list_amounts() {
        // Payable above list (37.00 against 36.00) is `above-list-price`'s
        // (see its tests); line-arithmetic does not also compare the product.
        assert!(run(Some("20"), Some("1.80"), "37.00", Some("36.00")).is_empty());
        assert!(run(Some("20"), Some("1.90"), "37.00", Some("36.00")).is_empty());
        // A discount: the product is compared with the list amount.
        assert!(run(Some("20"), Some("1.80"), "30.00", Some("36.00")).is_empty());
        assert_eq!(
            run(Some("20"), Some("1.80"), "30.00", Some("38.00")),
            ["20 x 1.80 = 36.00 but the list amount is 38.00 (off by 2.00): GPU hours"]
        );
        // A discounted refund is no surcharge either way.
        assert!(run(None, None, "-7.20", Some("-8.00")).is_empty());
    }
}
