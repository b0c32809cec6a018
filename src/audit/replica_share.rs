use super::{CheckInfo, Figures, Sink, Thresholds, percent};
use crate::model::{Category, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "replica-share",
    default_severity: Severity::Error,
    summary: "storage replicas (snapshots, backups, redundant copies) above 30% of the subtotal",
    what: "Divides the storage_replica total by the subtotal. Fires when the share is above the threshold, 30% by default. Set it with `--replica-threshold 30%`.",
    why: "Replicas are about 60% of hidden fees on average. Snapshots and backups that nobody prunes, and geo-redundant copies chosen by default, grow silently until they rival the compute they protect.",
    example: "storage_replica 350.00 of a subtotal of 1000.00 is 35.00%, above 30.00%.",
};

pub fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    if f.subtotal <= rust_decimal::Decimal::ZERO {
        return;
    }
    let replica = f.totals.get(Category::StorageReplica);
    if super::exceeds(replica, t.replica_share, f.subtotal) {
        sink.emit(
            &INFO,
            None,
            format!(
                "storage replicas are {} of the subtotal ({replica} of {}), above the {} threshold",
                replica
                    .checked_div(f.subtotal)
                    .map_or_else(|| "beyond any percentage".to_string(), percent),
                f.subtotal,
                percent(t.replica_share)
            ),
        );
    }
}
