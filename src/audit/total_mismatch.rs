use rust_decimal::Decimal;

use super::{CheckInfo, Figures, Sink, money};
use crate::model::{Category, Severity};
use crate::normalise::number::half_unit;

pub const INFO: CheckInfo = CheckInfo {
    code: "total-mismatch",
    default_severity: Severity::Error,
    summary: "the total (or subtotal) the bill states differs from the sum of its lines",
    what: "When a bill states its own total (a `Total`/`合计` row in a CSV, the `Total` line of a text invoice), compares it with the sum of all line items, taxes and credits. A stated subtotal is compared with the sum of the item lines. Fires when they differ by more than half a unit of the stated figure's last decimal.",
    why: "A stated total that the lines don't add up to means a charge is missing from the detail, or was added to the total only. Both deserve a question to the provider.",
    example: "lines add up to 1,180.00 but the bill states `Total 1,230.00` (50.00 more than its lines).",
};

pub fn check(
    stated_subtotal: Option<(u64, Decimal)>,
    stated_total: Option<(u64, Decimal)>,
    f: &Figures<'_>,
    total: Decimal,
    currency: Option<&str>,
    sink: &mut Sink<'_>,
) {
    if let Some((line, stated)) = stated_subtotal {
        let items = f.subtotal;
        let diff = stated - items;
        if diff.abs() > half_unit(stated) {
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
    if let Some((line, stated)) = stated_total {
        let diff = stated - total;
        if diff.abs() > half_unit(stated) {
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
}
