use super::{Figures, Sink, Thresholds, percent};
use crate::model::Category;
use crate::vocab::checks::Check;

/// Fires when hidden / subtotal > threshold (compared exactly, not rounded).
pub(crate) fn check(f: &Figures<'_>, t: &Thresholds, sink: &mut Sink<'_>) {
    if f.subtotal <= rust_decimal::Decimal::ZERO {
        return;
    }
    if super::above_threshold(Check::HiddenFeeShare, f.totals, t.hidden_share) == Some(true) {
        let share = f
            .hidden
            .checked_div(f.subtotal)
            .unwrap_or(rust_decimal::Decimal::MAX);
        let parts = Category::ALL
            .iter()
            .filter(|c| c.is_hidden() && !f.totals.get(**c).is_zero())
            .map(|c| format!("{c} {}", f.totals.get(*c)))
            .collect::<Vec<_>>()
            .join(", ");
        sink.emit(
            Check::HiddenFeeShare,
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
