use rust_decimal::Decimal;

use super::{Figures, Sink, Thresholds, percent};
use crate::model::Category;
use crate::vocab::checks::Check;

pub(crate) fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    let compute = f.totals.get(Category::Compute);
    let sched = f.totals.get(Category::Scheduling);
    if sched <= Decimal::ZERO {
        return;
    }
    if compute <= Decimal::ZERO {
        sink.emit(
            Check::SchedulingFeeShare,
            None,
            format!("scheduling fees of {sched} are billed with no compute"),
        );
        return;
    }
    if super::above_threshold(Check::SchedulingFeeShare, f.totals, t.scheduling_share) == Some(true)
    {
        sink.emit(
            Check::SchedulingFeeShare,
            None,
            format!(
                "scheduling fees are {} of compute ({sched} of {compute}), above the {} threshold",
                sched
                    .checked_div(compute)
                    .map_or_else(|| "beyond any percentage".to_string(), percent),
                percent(t.scheduling_share)
            ),
        );
    }
}
