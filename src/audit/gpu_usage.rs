//! The GPU compute of a bill, per GPU model: hours, what was paid, the days
//! used and the span of the run. Kept while the rows stream by, for
//! `billaudit reprice`. Not a check. Memory is bounded by the number of
//! recognised models (a fixed list) and [`MAX_DAYS`] days per model.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::accumulator::Start;
use super::usage::{Memo, item_days};
use crate::model::{Category, LineItem};

/// At most this many distinct days are kept per model (ten years).
pub(crate) const MAX_DAYS: usize = 3660;

/// The use of one GPU model in one bill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuUsage {
    /// Canonical model name (`RTX 4090`, `A100`).
    pub model: String,
    /// GPU-hours: quantities converted from their units.
    pub hours: Decimal,
    /// What the lines counted in `hours` were billed.
    pub paid: Decimal,
    /// Lines counted.
    pub lines: u64,
    /// Lines counted that state both a start and an end time.
    pub timed_lines: u64,
    /// Distinct calendar days with use, when the lines are dated.
    pub days: u64,
    /// First start and last end (or date) of the lines.
    pub first: Option<NaiveDateTime>,
    pub last: Option<NaiveDateTime>,
    /// Compute lines naming this model without a quantity in a time unit:
    /// not repriced, and their amounts are not in `paid`.
    pub unpriced_lines: u64,
    pub unpriced_amount: Decimal,
}

#[derive(Debug, Default)]
struct Tally {
    hours: Decimal,
    paid: Decimal,
    lines: u64,
    timed_lines: u64,
    days: BTreeSet<i32>,
    first: Option<NaiveDateTime>,
    last: Option<NaiveDateTime>,
    unpriced_lines: u64,
    unpriced_amount: Decimal,
}

/// Accumulates [`GpuUsage`] one item at a time, for a bill or a run of its
/// rows. The sums of hours have up to 28 digits and round, so they depend
/// on the order of the lines: a tally started [`Start::After`] finds each
/// line's model and hours and keeps them for its merge to add in file
/// order, as one thread would; the bill's own tally (`default`,
/// [`Start::First`]) sums as lines come.
#[derive(Debug, Default)]
pub(crate) struct GpuTally {
    models: BTreeMap<&'static str, Tally>,
    /// Set for a tally started [`Start::After`]: its lines, kept for the
    /// tally before to add.
    uses: Option<Vec<(&'static str, Use)>>,
}

/// What one GPU line adds to its model's tally.
#[derive(Debug, Clone)]
struct Use {
    /// GPU-hours; `None` when the line has no quantity in a time unit.
    hours: Option<Decimal>,
    amount: Decimal,
    timed: bool,
    days: Option<(i32, i32)>,
    start: Option<NaiveDateTime>,
    end: Option<NaiveDateTime>,
}

impl GpuTally {
    /// The tally of no rows yet (see the type's docs).
    pub(crate) fn start(start: Start) -> Self {
        GpuTally {
            uses: (start == Start::After).then(Vec::new),
            ..GpuTally::default()
        }
    }

    /// `memo`: the thread's cache of models and units.
    pub(crate) fn add(&mut self, item: &LineItem, memo: &mut Memo) {
        if item.category != Category::Compute {
            return;
        }
        let Some(model) = memo.gpu_model(&item.description) else {
            return;
        };
        // A unit column decides; without one (`GPU 时长 RTX 4090,120,...`,
        // `RTX 4090 GPU instance (hours) 210`) the line's own text may
        // name the hour its quantity counts.
        let per = match item.unit.as_deref().map(str::trim) {
            Some(u) if !u.is_empty() => memo.unit_hours(u),
            _ => crate::vocab::units::text_hours(&item.description),
        };
        let hours = match (item.quantity, per) {
            (Some(q), Some(per)) => q.checked_mul(per),
            _ => None,
        };
        let u = Use {
            hours,
            amount: item.amount,
            timed: item.start.is_some() && item.end.is_some(),
            days: hours.and_then(|_| item_days(item)),
            start: item.start,
            end: item.end,
        };
        self.record(model, u);
    }

    fn record(&mut self, model: &'static str, u: Use) {
        if let Some(uses) = &mut self.uses {
            uses.push((model, u));
            return;
        }
        let t = self.models.entry(model).or_default();
        let Some(hours) = u.hours else {
            t.unpriced_lines += 1;
            t.unpriced_amount = t.unpriced_amount.saturating_add(u.amount);
            return;
        };
        t.hours = t.hours.saturating_add(hours);
        t.paid = t.paid.saturating_add(u.amount);
        t.lines += 1;
        if u.timed {
            t.timed_lines += 1;
        }
        if let Some((a, b)) = u.days {
            for d in a..=b {
                if t.days.len() >= MAX_DAYS {
                    break;
                }
                t.days.insert(d);
            }
        }
        if let Some(s) = u.start {
            t.first = Some(t.first.map_or(s, |f| f.min(s)));
            let e = u.end.unwrap_or(s);
            t.last = Some(t.last.map_or(e, |l| l.max(e)));
        }
    }

    /// Adds the lines of a tally started [`Start::After`] of the rows right
    /// after these, one by one.
    pub(crate) fn merge(&mut self, later: Self) {
        debug_assert!(later.models.is_empty(), "only a later tally is merged");
        for (model, u) in later.uses.into_iter().flatten() {
            self.record(model, u);
        }
    }

    pub(crate) fn finish(self) -> Vec<GpuUsage> {
        self.models
            .into_iter()
            .map(|(model, t)| GpuUsage {
                model: model.to_string(),
                hours: t.hours,
                paid: t.paid,
                lines: t.lines,
                timed_lines: t.timed_lines,
                days: t.days.len() as u64,
                first: t.first,
                last: t.last,
                unpriced_lines: t.unpriced_lines,
                unpriced_amount: t.unpriced_amount,
            })
            .collect()
    }
}
