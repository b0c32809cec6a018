use rust_decimal::Decimal;

use super::{CheckInfo, Figures, Sink, Thresholds};
use crate::model::{Category, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "replica-redundancy",
    default_severity: Severity::Warning,
    summary: "(storage + storage_replica) / storage above 1.2x",
    what: "Compares what all copies of the data cost with what the primary storage costs: (storage + storage_replica) / storage. Fires above the threshold, 1.2x by default, and when replicas are billed with no primary storage at all. Set it with `--redundancy-threshold 1.2`.",
    why: "Erasure coding keeps redundancy near 1.2x the raw size; the industry average is 2.0x. A bill far above 1.2x pays for full copies where cheaper redundancy would do.",
    example: "storage 100.00 and storage_replica 100.00: redundancy 2.00x, above 1.2x.",
};

pub fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    let storage = f.totals.get(Category::Storage);
    let replica = f.totals.get(Category::StorageReplica);
    if replica <= Decimal::ZERO {
        return;
    }
    if storage <= Decimal::ZERO {
        sink.emit(
            &INFO,
            None,
            format!("storage replicas cost {replica} with no primary storage billed"),
        );
        return;
    }
    // (storage + replicas) / storage, without overflow near the Decimal range.
    let above = match storage.checked_add(replica) {
        Some(all) => super::exceeds(all, t.redundancy, storage),
        None => replica
            .checked_div(storage)
            .and_then(|r| r.checked_add(Decimal::ONE))
            .is_none_or(|r| r > t.redundancy),
    };
    if above {
        let ratio = replica
            .checked_div(storage)
            .and_then(|r| r.checked_add(Decimal::ONE))
            .unwrap_or(Decimal::MAX)
            .round_dp(2);
        sink.emit(
            &INFO,
            None,
            format!(
                "storage redundancy is {ratio:.2}x (storage {storage} + replicas {replica}), above {}x",
                t.redundancy.normalize()
            ),
        );
    }
}
