use rust_decimal::Decimal;

use super::{Figures, Sink, money};
use crate::model::Category;
use crate::vocab::checks::Check;

pub(crate) fn check(
    stated_total: Option<(u64, Decimal)>,
    f: &Figures<'_>,
    total: Decimal,
    currency: Option<&str>,
    sink: &mut Sink<'_>,
) {
    let Some((line, stated)) = stated_total else {
        return;
    };
    // Saturated only when the two are ~1e28 apart: a mismatch either way.
    let diff = stated.saturating_sub(total);
    if !super::agrees(stated, total) {
        let tax = f.totals.get(Category::Tax);
        let credit = f.totals.get(Category::Credit);
        sink.emit(
            Check::TotalMismatch,
            Some(line),
            format!(
                "stated total {} differs from the lines' total {} (subtotal {} + tax {tax} + credits {credit}) by {}",
                money(stated, currency),
                total,
                f.subtotal,
                diff
            ),
        );
    }
}
