//! `billing-rounding`: hours billed beyond the elapsed time, rounded up.

use rust_decimal::Decimal;

use super::{Emit, money};
use crate::classify::fold;
use crate::model::LineItem;
use crate::normalise::number::half_unit;
use crate::vocab::checks::Check;
use crate::vocab::units::unit_hours;

/// A unit that means hours ([`crate::vocab::units`]).
fn is_hours(unit: &str) -> bool {
    unit_hours(&fold(unit)) == Some(Decimal::ONE)
}

pub(crate) fn check<'p>(item: &LineItem, sink: &mut impl Emit<'p>) {
    let (Some(start), Some(end), Some(q), Some(unit)) =
        (item.start, item.end, item.quantity, item.unit.as_deref())
    else {
        return;
    };
    // Only a whole number of hours or days can be a rounded-up time.
    if q <= Decimal::ZERO || !q.fract().is_zero() {
        return;
    }
    let secs = (end - start).num_seconds();
    if secs <= 0 {
        return;
    }
    // `q - secs / 3600 > half_unit(q)`, in seconds: no division for the
    // lines (nearly all) that are not rounded up.
    let hour = Decimal::from(3600);
    let (Some(q_secs), Some(tolerance)) = (q.checked_mul(hour), half_unit(q).checked_mul(hour))
    else {
        return;
    };
    if q_secs - Decimal::from(secs) <= tolerance {
        return;
    }
    let Some(elapsed) = Decimal::from(secs).checked_div(hour) else {
        return;
    };
    let excess = q - elapsed;
    // Rounding, not a multi-GPU line: the quantity is the elapsed time
    // rounded up to a whole hour or a whole day.
    let day = Decimal::from(24);
    let up_hour = elapsed.ceil();
    let up_day = (elapsed / day).ceil() * day;
    // The unit is looked at last: it costs an allocation, and the
    // arithmetic above already rules out almost every line.
    if (q != up_hour && q != up_day) || !is_hours(unit) {
        return;
    }
    let granule = if q == up_hour { "hour" } else { "day" };
    let overcharge = item
        .amount
        .checked_mul(excess)
        .and_then(|x| x.checked_div(q))
        .map(|x| x.round_dp(item.amount.scale()));
    let overcharge = match overcharge {
        Some(o) => format!(", an overcharge of {}", money(o, item.currency.as_deref())),
        None => String::new(),
    };
    let message = format!(
        "{q} h billed for {} h elapsed ({} to {}): rounded up to a whole {granule}, {} h more{overcharge}: {}",
        elapsed.round_dp(4).normalize(),
        start.format("%Y-%m-%d %H:%M:%S"),
        end.format("%Y-%m-%d %H:%M:%S"),
        excess.round_dp(4).normalize(),
        item.description
    );
    sink.emit(Check::BillingRounding, Some(item.line), message);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hour_units() {
        for u in ["h", "Hours", "GPU-hour", "hr", "小时", "卡时"] {
            assert!(is_hours(u), "{u}");
        }
        for u in ["GB", "GB-month", "次"] {
            assert!(!is_hours(u), "{u}");
        }
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;
    use crate::audit::Policy;
    use chrono::NaiveDateTime;

    fn t(s: &str) -> Option<NaiveDateTime> {
        Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
    }

    fn line(q: &str, unit: &str, amount: &str, end: &str) -> LineItem {
        let mut i = LineItem::new(7, "A100 pod", amount.parse().unwrap());
        i.quantity = Some(q.parse().unwrap());
        i.unit = Some(unit.into());
        i.start = t("2025-10-01 00:00:00");
        i.end = t(end);
        i
    }

    fn run(item: &LineItem) -> Vec<(Option<u64>, String)> {
        let p = Policy::default();
        let mut sink = crate::audit::Sink::new("b.csv", &p);
        check(item, &mut sink);
        sink.finish()
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect()
    }

    #[test]
    fn the_documented_example() {
        // 20 h 05 min = 72300 s = 20.0833 h; 21 - 20.0833 = 0.9167 h;
        // 39.69 * (11/12) / 21 = 1.7325 -> 1.73.
        assert_eq!(
            run(&line("21", "hours", "39.69", "2025-10-01 20:05:00")),
            [(
                Some(7),
                "21 h billed for 20.0833 h elapsed (2025-10-01 00:00:00 to 2025-10-01 20:05:00): \
                 rounded up to a whole hour, 0.9167 h more, an overcharge of 1.73: A100 pod"
                    .to_string()
            )]
        );
        let mut usd = line("21", "hours", "39.69", "2025-10-01 20:05:00");
        usd.currency = Some("USD".into());
        assert!(
            run(&usd)[0]
                .1
                .contains("an overcharge of 1.73 USD: A100 pod")
        );
    }

    #[test]
    fn a_whole_day() {
        // 5 h billed 24 h: rounded to the day; 24.00 * 19 / 24 = 19.00.
        assert_eq!(
            run(&line("24", "h", "24.00", "2025-10-01 05:00:00")),
            [(
                Some(7),
                "24 h billed for 5 h elapsed (2025-10-01 00:00:00 to 2025-10-01 05:00:00): \
                 rounded up to a whole day, 19 h more, an overcharge of 19.00: A100 pod"
                    .to_string()
            )]
        );
    }

    #[test]
    fn what_is_not_rounding() {
        // 8 GPUs x 2 h = 16 h for 2 h elapsed: neither ceil(2) = 2 nor 24.
        assert!(run(&line("16", "hours", "32.00", "2025-10-01 02:00:00")).is_empty());
        // 20 h 30 min billed 21 h: 0.5 h above, exactly the half unit of
        // `21`: tolerated. 20 h 29 min: 0.5167 h above: fires.
        assert!(run(&line("21", "hours", "21.00", "2025-10-01 20:30:00")).is_empty());
        assert_eq!(
            run(&line("21", "hours", "21.00", "2025-10-01 20:29:00")).len(),
            1
        );
        // Not hours, a fraction, zero, no elapsed time, an end before the start.
        assert!(run(&line("21", "GB", "21.00", "2025-10-01 20:05:00")).is_empty());
        assert!(run(&line("20.5", "hours", "21.00", "2025-10-01 20:05:00")).is_empty());
        assert!(run(&line("0", "hours", "21.00", "2025-10-01 20:05:00")).is_empty());
        assert!(run(&line("21", "hours", "21.00", "2025-10-01 00:00:00")).is_empty());
        assert!(run(&line("21", "hours", "21.00", "2025-09-30 00:00:00")).is_empty());
        // No unit, no quantity.
        let mut i = line("21", "hours", "21.00", "2025-10-01 20:05:00");
        i.unit = None;
        assert!(run(&i).is_empty());
    }

    #[test]
    fn more_hour_units() {
        for u in ["hrs", "GPU-h", " H "] {
            assert!(is_hours(u), "{u}");
        }
        for u in ["month", "hs", "ch"] {
            assert!(!is_hours(u), "{u}");
        }
    }
}
