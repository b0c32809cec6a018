use rust_decimal::Decimal;

use super::usage::{Memo, elapsed_seconds, round_money};
use super::{CheckInfo, Sink};
use crate::model::{Category, LineItem, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "billing-granularity",
    default_severity: Severity::Warning,
    summary: "the bill's compute quantities show hourly or daily round-up",
    what: "A bill-level pattern, found once per bill. Looks at the compute lines whose quantity is in hours or days (`hours`, `h`, `小时`, `GPU-hour`, `卡时`, `days`, `天`) and that state both a start and an end time. Fires when none of them has a fractional quantity and at least one bills more whole units than the time between its start and end, by less than one unit and more than a minute (e.g. 3 hours for 2 h 10 min; an end written inclusively as `23:59:59` is not round-up). The finding counts those lines and estimates what per-second billing would have cost: the elapsed time x what each rounded line paid per unit (amount / quantity, so discounts are kept), against what they were billed. Lines billing a whole unit or more above their elapsed time (several GPUs on one line, or a minimum charge) are not counted either way. Any line with a fractional quantity means the provider bills finer than the hour, and the check stays quiet. Not the same as the per-line `billing-rounding` of the config file: that one flags single lines whose billed hours exceed the elapsed time by more than the granularity implied; this one says that the whole bill rounds up, and what that costs in sum.",
    why: "Hourly or daily round-up is a hidden fee in the granularity: a job of 2 h 10 min pays 3 hours, and short, frequent runs (tuning, evaluation, notebooks) can pay a third more than the time used. Platforms bill per millisecond, per second, per minute, per hour or per day; knowing which one a bill uses is part of comparing prices.",
    example: "Three GPU lines billed 3, 5 and 1 hours for 2 h 10 min, 4 h 5 min and 20 min of elapsed time at 2.00/hour: billed 18.00, per-second billing about 13.17.",
};

/// Running figures of one bill.
#[derive(Debug, Default)]
pub struct Granularity {
    /// Compute lines with a time unit and start and end.
    timed: u64,
    fractional: u64,
    rounded: u64,
    days: bool,
    hours: bool,
    billed: Decimal,
    per_second: Decimal,
    scale: u32,
    memo: Memo,
}

impl Granularity {
    pub fn add(&mut self, item: &LineItem) {
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
        let Some(per) = self.memo.unit_hours(unit) else {
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
        let Some(elapsed) = Decimal::from(secs).checked_div(per * Decimal::from(3600)) else {
            return;
        };
        // Ends written inclusively (`23:59:59`) or a few seconds off are
        // not round-up: a minute of slack.
        let slack = Decimal::from(60) / (per * Decimal::from(3600));
        if !(q - elapsed > slack && q - elapsed < Decimal::ONE) {
            return;
        }
        // What was paid per unit (after any discount), times the time used.
        let Some(cost) = item
            .amount
            .checked_mul(elapsed)
            .and_then(|x| x.checked_div(q))
        else {
            return;
        };
        let (Some(b), Some(s)) = (
            self.billed.checked_add(item.amount),
            self.per_second.checked_add(cost),
        ) else {
            return;
        };
        self.billed = b;
        self.per_second = s;
        self.rounded += 1;
        self.scale = self.scale.max(item.amount.scale());
        if is_day {
            self.days = true;
        } else {
            self.hours = true;
        }
    }

    pub fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
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
            &INFO,
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
