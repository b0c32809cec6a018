//! The share-check columns of the generated query, one per check of the
//! check table that compares figures (`vocab::checks::Ratio`), judged as
//! `billaudit audit` judges them.

use super::{Dialect, SCALE};
use crate::audit::{Check, Figure, Thresholds};

/// `,\n    (condition) AS "code"` for every share check, in table order: the
/// condition around the comparison, the parts, the whole and the threshold
/// come from the check table.
pub(super) fn check_columns(d: Dialect, t: &Thresholds) -> String {
    let mut s = String::new();
    for check in Check::ALL {
        let (Some(r), Some(threshold)) = (check.compares(), t.get(check)) else {
            continue;
        };
        let whole = r.whole.name();
        let (before, after) = match r.needs {
            None => (format!("{whole} > 0 AND "), ""),
            Some(f) => (format!("{} > 0 AND ({whole} <= 0 OR ", f.name()), ")"),
        };
        let parts: Vec<&str> = r.parts.iter().map(|p| Figure::name(*p)).collect();
        s.push_str(&format!(
            ",\n    ({before}{}{after}) AS {}",
            over(d, &parts, whole, threshold),
            d.ident(check.code())
        ));
    }
    s
}

/// A threshold as a decimal literal, and its precision.
pub(super) fn threshold_lit(d: Dialect, t: rust_decimal::Decimal) -> (String, u32) {
    let t = t.normalize();
    let scale = t.scale();
    let digits = t.mantissa().unsigned_abs().to_string().len() as u32;
    let precision = digits.max(scale + 1);
    (
        format!(
            "CAST({} AS {})",
            d.lit(&t.to_string()),
            d.decimal(precision, scale)
        ),
        precision,
    )
}

/// `part > threshold * whole`, exact: both sides are cast so that the
/// product fits 38 digits without losing a place (Spark would otherwise
/// round it).
fn over(d: Dialect, parts: &[&str], whole: &str, t: rust_decimal::Decimal) -> String {
    let (lit, precision) = threshold_lit(d, t);
    // One digit less again for the sum of two parts.
    let narrow = d.decimal(36_u32.saturating_sub(precision).max(SCALE + 1), SCALE);
    let left = parts
        .iter()
        .map(|p| format!("CAST({p} AS {narrow})"))
        .collect::<Vec<_>>()
        .join(" + ");
    format!("{left} > {lit} * CAST({whole} AS {narrow})")
}
