use super::{Figures, Sink, Thresholds, percent};
use crate::model::Category;
use crate::vocab::checks::Check;

pub(crate) fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    if f.subtotal <= rust_decimal::Decimal::ZERO {
        return;
    }
    let replica = f.totals.get(Category::StorageReplica);
    if super::above_threshold(Check::ReplicaShare, f.totals, t.replica_share) == Some(true) {
        sink.emit(
            Check::ReplicaShare,
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
