use rust_decimal::Decimal;

use super::{Figures, Sink, Thresholds};
use crate::model::Category;
use crate::vocab::checks::Check;

pub(crate) fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    let storage = f.totals.get(Category::Storage);
    let replica = f.totals.get(Category::StorageReplica);
    if replica <= Decimal::ZERO {
        return;
    }
    if storage <= Decimal::ZERO {
        sink.emit(
            Check::ReplicaRedundancy,
            None,
            format!("storage replicas cost {replica} with no primary storage billed"),
        );
        return;
    }
    // (storage + replicas) / storage, without overflow near the Decimal range.
    if super::above_threshold(Check::ReplicaRedundancy, f.totals, t.redundancy) == Some(true) {
        let ratio = replica
            .checked_div(storage)
            .and_then(|r| r.checked_add(Decimal::ONE))
            .unwrap_or(Decimal::MAX)
            .round_dp(2);
        sink.emit(
            Check::ReplicaRedundancy,
            None,
            format!(
                "storage redundancy is {ratio:.2}x (storage {storage} + replicas {replica}), above {}x",
                t.redundancy.normalize()
            ),
        );
    }
}
