//! `lines_arrow()`: the line items as one Arrow record batch (a struct
//! array), handed to pyarrow through the Arrow C data interface: two
//! PyCapsules named `arrow_schema` and `arrow_array` (the Arrow PyCapsule
//! interface). pyarrow takes the buffers over without copying them.

use std::sync::Arc;

use arrow_array::ffi::to_ffi;
use arrow_array::{Array, ArrayRef, Decimal128Array, StringArray, StructArray, UInt64Array};
use arrow_schema::{DataType, Field};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use billaudit::LineItem;
use rust_decimal::Decimal;

/// Widest decimal Arrow's Decimal128 holds.
const PRECISION: u8 = 38;

/// The columns of `billaudit lines --format json`, in its order. `amount` is
/// a Decimal128 at the largest scale any item has (exact); should an amount
/// not fit in 38 digits at that scale, the column is the amounts' text.
pub fn batch(items: &[(String, LineItem)]) -> StructArray {
    let text = |f: &dyn Fn(&(String, LineItem)) -> Option<&str>| -> ArrayRef {
        Arc::new(items.iter().map(f).collect::<StringArray>())
    };
    let amounts = amount_column(items.iter().map(|(_, i)| i.amount));
    let columns: Vec<(&str, ArrayRef, bool)> = vec![
        ("path", text(&|(p, _)| Some(p)), false),
        (
            "line",
            Arc::new(items.iter().map(|(_, i)| i.line).collect::<UInt64Array>()),
            false,
        ),
        ("category", text(&|(_, i)| Some(i.category.as_str())), false),
        ("amount", amounts, false),
        ("currency", text(&|(_, i)| i.currency.as_deref()), true),
        ("rule", text(&|(_, i)| Some(&i.rule)), false),
        ("description", text(&|(_, i)| Some(&i.description)), false),
    ];
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns
        .into_iter()
        .map(|(name, a, nullable)| (Field::new(name, a.data_type().clone(), nullable), a))
        .unzip();
    StructArray::new(fields.into(), arrays, None)
}

fn amount_column(amounts: impl Iterator<Item = Decimal> + Clone) -> ArrayRef {
    let scale = amounts.clone().map(|d| d.scale()).max().unwrap_or(0);
    let limit = 10i128.pow(u32::from(PRECISION));
    let scaled: Option<Vec<i128>> = amounts
        .clone()
        .map(|d| {
            10i128
                .checked_pow(scale - d.scale())
                .and_then(|k| d.mantissa().checked_mul(k))
                .filter(|m| m.abs() < limit)
        })
        .collect();
    // `scale` is at most 28 (rust_decimal's largest), so it fits an i8.
    match scaled.map(|v| Decimal128Array::from(v).with_precision_and_scale(PRECISION, scale as i8))
    {
        Some(Ok(a)) => Arc::new(a),
        _ => Arc::new(
            amounts
                .map(|d| Some(d.to_string()))
                .collect::<StringArray>(),
        ),
    }
}

/// `(arrow_schema capsule, arrow_array capsule)` of `batch`. Each capsule
/// owns its C struct; when pyarrow has moved the data out, dropping the
/// capsule releases nothing, otherwise it calls the struct's release.
pub fn capsules(
    py: Python<'_>,
    batch: StructArray,
) -> PyResult<(Bound<'_, PyAny>, Bound<'_, PyAny>)> {
    debug_assert!(matches!(batch.data_type(), DataType::Struct(_)));
    let (array, schema) =
        to_ffi(&batch.to_data()).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
    let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
    Ok((schema.into_any(), array.into_any()))
}
