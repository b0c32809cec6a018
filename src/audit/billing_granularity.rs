use rust_decimal::Decimal;

use super::Sink;
use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
use super::usage::{Memo, elapsed_seconds, round_money};
use crate::model::{Category, LineItem};
use crate::vocab::checks::Check;

/// Running figures of one bill, or of a run of its rows.
///
/// The sum of the per-second costs has up to 28 digits and rounds, so it
/// depends on the order of the lines: a state started [`Start::After`]
/// keeps each rounded line's amount and per-second cost for its merge to
/// add in file order, as one thread would.
#[derive(Debug, Default)]
pub(crate) struct Granularity {
    /// Compute lines with a time unit and start and end.
    timed: u64,
    fractional: u64,
    rounded: u64,
    days: bool,
    hours: bool,
    billed: Decimal,
    per_second: Decimal,
    scale: u32,
    /// Set in a state started [`Start::After`]: its rounded lines (amount,
    /// per-second cost, in days), kept for the state before to add.
    deferred: Option<Vec<(Decimal, Decimal, bool)>>,
}

register!(Granularity);

impl Accumulator for Granularity {
    const RANK: u32 = 30;

    fn start(start: Start) -> Self {
        Granularity {
            deferred: (start == Start::After).then(Vec::new),
            ..Granularity::default()
        }
    }

    fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        self.add(item, row.memo);
    }

    /// Adds the figures of the rows right after these. After a fractional
    /// quantity nothing is counted any more, as in [`Granularity::add`].
    fn merge(&mut self, later: Self, _: usize) {
        debug_assert!(
            later.rounded == 0,
            "only a later state's figures are merged"
        );
        if self.fractional > 0 {
            return;
        }
        self.timed += later.timed;
        self.fractional += later.fractional;
        for (amount, cost, is_day) in later.deferred.into_iter().flatten() {
            self.count_rounded(amount, cost, is_day);
        }
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        self.report(bill.currency, sink);
    }
}

impl Granularity {
    pub(crate) fn add(&mut self, item: &LineItem, memo: &mut Memo) {
        // One fractional quantity and the bill is not rounded: nothing
        // below can change the (empty) report any more.
        if item.category != Category::Compute || self.fractional > 0 {
            return;
        }
        let (Some(q), Some(unit), Some(_), Some(_)) =
            (item.quantity, item.unit.as_deref(), item.start, item.end)
        else {
            return;
        };
        let Some(per) = memo.unit_hours(unit) else {
            return;
        };
        // Only hour and day units round up visibly in whole numbers.
        let is_day = per == Decimal::from(24);
        if !(per == Decimal::ONE || is_day) || q <= Decimal::ZERO {
            return;
        }
        let Some(secs) = elapsed_seconds(item.start, item.end) else {
            return;
        };
        self.timed += 1;
        if !q.fract().is_zero() {
            self.fractional += 1;
            return;
        }
        // Ends written inclusively (`23:59:59`) or a few seconds off are
        // not round-up: a minute of slack. Decided in whole seconds (the
        // quantity is whole, the unit an hour or a day), not on the elapsed
        // units, whose 28-digit rounding let a line exactly a minute short
        // of 10 hours or more count.
        let unit_secs = per * Decimal::from(3600);
        let Some(short) = q
            .checked_mul(unit_secs)
            .and_then(|x| x.checked_sub(Decimal::from(secs)))
        else {
            return;
        };
        if !(short > Decimal::from(60) && short < unit_secs) {
            return;
        }
        let Some(elapsed) = Decimal::from(secs).checked_div(unit_secs) else {
            return;
        };
        // What was paid per unit (after any discount), times the time used.
        let Some(cost) = item
            .amount
            .checked_mul(elapsed)
            .and_then(|x| x.checked_div(q))
        else {
            return;
        };
        self.count_rounded(item.amount, cost, is_day);
    }

    /// Counts a compute line billed more whole units than it ran: `amount`
    /// billed, `cost` per second, in days or hours.
    fn count_rounded(&mut self, amount: Decimal, cost: Decimal, is_day: bool) {
        if let Some(lines) = &mut self.deferred {
            lines.push((amount, cost, is_day));
            return;
        }
        let (Some(b), Some(s)) = (
            self.billed.checked_add(amount),
            self.per_second.checked_add(cost),
        ) else {
            return;
        };
        self.billed = b;
        self.per_second = s;
        self.rounded += 1;
        self.scale = self.scale.max(amount.scale());
        if is_day {
            self.days = true;
        } else {
            self.hours = true;
        }
    }

    pub(crate) fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
        if self.rounded == 0 || self.fractional > 0 {
            return;
        }
        let unit = match (self.hours, self.days) {
            (true, true) => "hour or day",
            (false, true) => "day",
            _ => "hour",
        };
        let per_second = round_money(self.per_second, self.scale);
        let billed = self.billed;
        sink.emit(
            Check::BillingGranularity,
            None,
            format!(
                "the bill rounds compute up to the whole {unit}: {} of {} timed compute lines bill more whole {unit}s than their start and end times span, and none has a fractional quantity; those lines were billed {}, per-second billing would have cost about {} ({} more than per-second billing)",
                self.rounded,
                self.timed,
                super::money(billed, currency),
                super::money(per_second, currency),
                super::money(round_money(billed - per_second, self.scale), currency),
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;
    use chrono::NaiveDateTime;

    fn t(s: &str) -> Option<NaiveDateTime> {
        Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
    }

    /// A line billing `q` `unit` for the time from `start` to `end` (on 2025-10-01).
    fn line(cat: Category, q: &str, unit: &str, amount: &str, start: &str, end: &str) -> LineItem {
        let mut i = LineItem::new(1, "gpu", amount.parse().unwrap());
        i.category = cat;
        i.quantity = Some(q.parse().unwrap());
        i.unit = Some(unit.into());
        i.start = t(&format!("2025-10-01 {start}"));
        i.end = t(end);
        i
    }

    fn report(items: &[LineItem]) -> Vec<String> {
        let mut g = Granularity::start(Start::First);
        let memo = &mut Memo::default();
        for i in items {
            g.add(i, memo);
        }
        let p = Policy::default();
        let mut sink = Sink::new("b.csv", &p);
        g.report(Some("USD"), &mut sink);
        sink.finish().into_iter().map(|f| f.message).collect()
    }

    use Category::*;

    fn rounded_three() -> Vec<LineItem> {
        vec![
            // 2 h 10 min billed 3 h: 6.00 * (7800/3600) / 3 = 4.3333...
            line(
                Compute,
                "3",
                "hours",
                "6.00",
                "00:00:00",
                "2025-10-01 02:10:00",
            ),
            // 4 h 5 min billed 5 h: 10.00 * (14700/3600) / 5 = 8.1666...
            line(
                Compute,
                "5",
                "h",
                "10.00",
                "00:00:00",
                "2025-10-01 04:05:00",
            ),
            // 20 min billed 1 h: 2.00 * (1200/3600) / 1 = 0.6666...
            line(
                Compute,
                "1",
                "GPU-hour",
                "2.00",
                "00:00:00",
                "2025-10-01 00:20:00",
            ),
        ]
    }

    #[test]
    fn hourly_round_up_is_found_and_costed() {
        let mut items = rounded_three();
        // Timed but not rounded: exactly 1 h above (2 h billed 3 h: a
        // minimum or several GPUs), and 30 s above (within the minute).
        items.push(line(
            Compute,
            "3",
            "hours",
            "6.00",
            "00:00:00",
            "2025-10-01 02:00:00",
        ));
        items.push(line(
            Compute,
            "3",
            "hours",
            "6.00",
            "00:00:00",
            "2025-10-01 02:59:30",
        ));
        // A day ending inclusively at 23:59:59: 1 s short, not round-up.
        items.push(line(
            Compute,
            "1",
            "days",
            "48.00",
            "00:00:00",
            "2025-10-01 23:59:59",
        ));
        // Not timed: storage, a unit that is no time, minutes, no quantity,
        // an end before the start, a zero quantity.
        items.push(line(
            Storage,
            "3",
            "hours",
            "6.00",
            "00:00:00",
            "2025-10-01 02:10:00",
        ));
        items.push(line(
            Compute,
            "3",
            "GB",
            "6.00",
            "00:00:00",
            "2025-10-01 02:10:00",
        ));
        items.push(line(
            Compute,
            "3",
            "min",
            "6.00",
            "00:00:00",
            "2025-10-01 00:02:10",
        ));
        items.push(line(
            Compute,
            "3",
            "hours",
            "6.00",
            "05:00:00",
            "2025-10-01 02:10:00",
        ));
        items.push(line(
            Compute,
            "0",
            "hours",
            "6.00",
            "00:00:00",
            "2025-10-01 00:10:00",
        ));
        let mut no_q = line(
            Compute,
            "3",
            "hours",
            "6.00",
            "00:00:00",
            "2025-10-01 02:10:00",
        );
        no_q.quantity = None;
        items.push(no_q);
        // Billed 6.00 + 10.00 + 2.00 = 18.00; per second 4.3333 + 8.1667 +
        // 0.6667 = 13.1667 -> 13.17; 18.00 - 13.1667 = 4.8333 -> 4.83.
        // Timed: the 3 rounded + 3 not rounded = 6.
        assert_eq!(
            report(&items),
            [
                "the bill rounds compute up to the whole hour: 3 of 6 timed compute lines bill \
              more whole hours than their start and end times span, and none has a fractional \
              quantity; those lines were billed 18.00 USD, per-second billing would have cost \
              about 13.17 USD (4.83 USD more than per-second billing)"
            ]
        );
    }

    #[test]
    fn daily_and_mixed_round_up() {
        // 25 h billed 2 days: 20.00 * (90000/86400) / 2 = 10.41666 -> 10.42;
        // 20.00 - 10.41666 = 9.58.
        let day = line(
            Compute,
            "2",
            "天",
            "20.00",
            "00:00:00",
            "2025-10-02 01:00:00",
        );
        assert_eq!(
            report(std::slice::from_ref(&day)),
            [
                "the bill rounds compute up to the whole day: 1 of 1 timed compute lines bill \
              more whole days than their start and end times span, and none has a fractional \
              quantity; those lines were billed 20.00 USD, per-second billing would have cost \
              about 10.42 USD (9.58 USD more than per-second billing)"
            ]
        );
        // 23 h 50 min billed 1 day: 10 min short is more than the minute of
        // slack (60 / 86400 day). 48.00 * (85800/86400) / 1 = 47.6667 ->
        // 47.67; 48.00 - 47.6667 = 0.33.
        let short = line(
            Compute,
            "1",
            "days",
            "48.00",
            "00:00:00",
            "2025-10-01 23:50:00",
        );
        assert_eq!(
            report(&[short]),
            [
                "the bill rounds compute up to the whole day: 1 of 1 timed compute lines bill \
              more whole days than their start and end times span, and none has a fractional \
              quantity; those lines were billed 48.00 USD, per-second billing would have cost \
              about 47.67 USD (0.33 USD more than per-second billing)"
            ]
        );
        let mut items = rounded_three();
        items.push(day);
        // 18.00 + 20.00 = 38.00; 13.1667 + 10.4167 = 23.5833 -> 23.58;
        // 38.00 - 23.5833 = 14.4167 -> 14.42.
        assert_eq!(
            report(&items),
            [
                "the bill rounds compute up to the whole hour or day: 4 of 4 timed compute lines \
              bill more whole hour or days than their start and end times span, and none has a \
              fractional quantity; those lines were billed 38.00 USD, per-second billing would \
              have cost about 23.58 USD (14.42 USD more than per-second billing)"
            ]
        );
    }

    #[test]
    fn one_fractional_quantity_silences_the_bill() {
        let frac = line(
            Compute,
            "2.5",
            "hours",
            "5.00",
            "00:00:00",
            "2025-10-01 02:10:00",
        );
        let mut after = rounded_three();
        after.push(frac.clone());
        assert!(report(&after).is_empty());
        let mut before = vec![frac];
        before.extend(rounded_three());
        assert!(report(&before).is_empty());
        // Nothing rounded at all: silent.
        assert!(
            report(&[line(
                Compute,
                "2",
                "hours",
                "4.00",
                "00:00:00",
                "2025-10-01 02:00:00"
            )])
            .is_empty()
        );
    }
}

#[cfg(test)]
mod slack_tests {
    use super::*;
    use crate::audit::Policy;
    use chrono::NaiveDateTime;

    fn rounded(q: &str, unit: &str, end: &str) -> bool {
        let mut i = LineItem::new(1, "gpu", "11.00".parse().unwrap());
        i.category = Category::Compute;
        i.quantity = Some(q.parse().unwrap());
        i.unit = Some(unit.into());
        i.start = NaiveDateTime::parse_from_str("2025-10-01 00:00:00", "%Y-%m-%d %H:%M:%S").ok();
        i.end = NaiveDateTime::parse_from_str(end, "%Y-%m-%d %H:%M:%S").ok();
        let mut g = Granularity::start(Start::First);
        g.add(&i, &mut Memo::default());
        let p = Policy::default();
        let mut sink = Sink::new("b.csv", &p);
        g.report(None, &mut sink);
        !sink.finish().is_empty()
    }

    #[test]
    fn exactly_a_minute_short_is_within_the_slack_at_any_length() {
        // 11 h billed for 10 h 59 min: 11 * 3600 - 39540 = 60 s short,
        // exactly the minute of slack, not more: not round-up.
        assert!(!rounded("11", "hours", "2025-10-01 10:59:00"));
        assert!(!rounded("1", "hours", "2025-10-01 00:59:00"));
        assert!(!rounded("101", "hours", "2025-10-05 04:59:00"));
        // 61 s short: round-up.
        assert!(rounded("11", "hours", "2025-10-01 10:58:59"));
        assert!(rounded("101", "hours", "2025-10-05 04:58:59"));
        // A day: 2 days billed for 47 h 59 min (60 s short), and 61 s.
        assert!(!rounded("2", "days", "2025-10-02 23:59:00"));
        assert!(rounded("2", "days", "2025-10-02 23:58:59"));
    }
}
