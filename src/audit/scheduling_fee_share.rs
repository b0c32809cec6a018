use rust_decimal::Decimal;

use super::{CheckInfo, Figures, Sink, Thresholds, percent};
use crate::model::{Category, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "scheduling-fee-share",
    default_severity: Severity::Warning,
    summary: "scheduling / cluster-management fees above 8% of compute",
    what: "Divides the scheduling total (cluster-management, control-plane, platform and orchestration fees) by the compute total. Fires above the threshold, 8% by default, and when scheduling is billed with no compute. Set it with `--scheduling-threshold 8%`.",
    why: "Cluster-management fees of 8-15% on top of compute are common and rarely on the price list. Above 8% they are worth negotiating or avoiding.",
    example: "compute 1000.00 and scheduling 120.00: 12.00% of compute, above 8.00%.",
};

pub fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    let compute = f.totals.get(Category::Compute);
    let sched = f.totals.get(Category::Scheduling);
    if sched <= Decimal::ZERO {
        return;
    }
    if compute <= Decimal::ZERO {
        sink.emit(
            &INFO,
            None,
            format!("scheduling fees of {sched} are billed with no compute"),
        );
        return;
    }
    if super::exceeds(sched, t.scheduling_share, compute) {
        sink.emit(
            &INFO,
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
