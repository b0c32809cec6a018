use rust_decimal::Decimal;

use super::{CheckInfo, Figures, Sink, money};
use crate::model::Severity;

pub const INFO: CheckInfo = CheckInfo {
    code: "subtotal-mismatch",
    default_severity: Severity::Error,
    summary: "the subtotal the bill states differs from the sum of its item lines",
    what: "When a bill states its own subtotal (a `Subtotal`/`小计` row of a CSV, the `Subtotal`/`小计` line of a text invoice), compares it with the sum of the item lines: every category except tax and credit. Many invoices print their discounts and credit notes as positions among the items (a Japanese `割引` position, a German `Gutschrift` position), and their subtotal is after those: a stated subtotal that equals the items plus the credits agrees too. Fires when it equals neither and differs by more than half a unit of the stated subtotal's last decimal (0.005 for `120.00`).",
    why: "A subtotal that its own lines do not add up to means an item is missing from the detail, or a charge was added to the subtotal only. It is the first figure to question, before tax and credits blur the picture.",
    example: "the items add up to 120.00 but the invoice states `Subtotal 125.00` (5.00 more than its lines).",
};

pub fn check(
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
            &INFO,
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
