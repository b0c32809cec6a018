use rust_decimal::Decimal;

use super::{CheckInfo, Figures, Sink, money};
use crate::model::{Category, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "total-mismatch",
    default_severity: Severity::Error,
    summary: "the total the bill states differs from subtotal + tax + credits",
    what: "When a bill states its own total (a `Total`/`Balance due`/`合计`/`价税合计` row of a CSV, the `Total`/`Amount due`/`应付金额` line of a text invoice), compares it with the sum of all line items: the subtotal plus taxes plus credits (a CSV's `Tax`/`税额` and `Discount` summary rows are such items). When a bill states several totals, the last one is compared. Fires when they differ by more than half a unit of the stated total's last decimal (0.005 for `1230.00`). A stated subtotal is checked by `subtotal-mismatch`.",
    why: "A stated total that the lines don't add up to means a charge is missing from the detail, or was added to the total only. Both deserve a question to the provider.",
    example: "lines add up to 1,180.00 but the bill states `Total 1,230.00` (50.00 more than its lines).",
};

pub fn check(
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
            &INFO,
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
