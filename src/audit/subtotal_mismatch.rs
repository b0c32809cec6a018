use rust_decimal::Decimal;

use super::{Figures, Sink, money};
use crate::vocab::checks::Check;

pub(crate) fn check(
    stated_subtotal: Option<(u64, Decimal)>,
    f: &Figures<'_>,
    currency: Option<&str>,
    sink: &mut Sink<'_>,
) {
    let Some((line, stated)) = stated_subtotal else {
        return;
    };
    let items = f.subtotal;
    // Saturated only when the two are ~1e28 apart: a mismatch either way.
    let diff = stated.saturating_sub(items);
    let credits = f.totals.get(crate::model::Category::Credit);
    let after_credits = !credits.is_zero() && super::agrees(stated, items.saturating_add(credits));
    if !super::agrees(stated, items) && !after_credits {
        sink.emit(
            Check::SubtotalMismatch,
            Some(line),
            format!(
                "stated subtotal {} differs from the sum of the item lines {} by {}",
                money(stated, currency),
                items,
                diff
            ),
        );
    }
}
