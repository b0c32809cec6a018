use super::{CheckInfo, Figures, Sink, Thresholds, percent};
use crate::model::{Category, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "hidden-fee-share",
    default_severity: Severity::Error,
    summary: "hidden fees (storage_replica + bandwidth + scheduling) above 5% of the subtotal",
    what: "Adds the three hidden-fee categories (storage_replica, bandwidth and scheduling) and divides them by the subtotal (every category except tax and credit). Fires when that share is above the threshold, 5% by default; exactly 5.00% passes. Set the threshold with `--hidden-threshold 5%` (or `0.05`).",
    why: "Hidden fees are what the price list does not show. About a quarter of GPU and cloud platforms add them, and in some bills they are more than 20% of the total. A good bill keeps them at or under 5% of what you pay for.",
    example: "compute 900.00, storage 20.00, bandwidth 60.00, scheduling 20.00: hidden 80.00 of a subtotal of 1000.00 is 8.00%, above 5.00%.",
};

/// Fires when hidden / subtotal > threshold (compared exactly, not rounded).
pub fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    if f.subtotal <= rust_decimal::Decimal::ZERO {
        return;
    }
    if super::exceeds(f.hidden, t.hidden_share, f.subtotal) {
        let share = f
            .hidden
            .checked_div(f.subtotal)
            .unwrap_or(rust_decimal::Decimal::MAX);
        let parts = [
            Category::StorageReplica,
            Category::Bandwidth,
            Category::Scheduling,
        ]
        .iter()
        .filter(|c| !f.totals.get(**c).is_zero())
        .map(|c| format!("{c} {}", f.totals.get(*c)))
        .collect::<Vec<_>>()
        .join(", ");
        sink.emit(
            &INFO,
            None,
            format!(
                "hidden fees are {} of the subtotal ({} of {}: {parts}), above the {} threshold",
                percent(share),
                f.hidden,
                f.subtotal,
                percent(t.hidden_share)
            ),
        );
    }
}
