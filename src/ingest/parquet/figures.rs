//! The money and quantity columns of a Parquet file read as exact values
//! (issue 27): a DECIMAL (stored as INT32, INT64, FIXED_LEN_BYTE_ARRAY or
//! BYTE_ARRAY, with the column's scale) or a signed integer becomes a
//! `Decimal` straight from its unscaled integer, with no text in between.
//!
//! The value is the one the normaliser reads from the cell's text
//! (docs/formats.md, "Parquet"): that text is the unscaled integer with
//! exactly `scale` decimals, and a plain number of at most 28 characters
//! is read exactly, scale kept ([`exact`]). A value whose text is longer
//! (a DECIMAL(38,18) from 10^9 on) gets its text in the record instead and
//! is read from it as before. A DOUBLE or FLOAT is not a figure column: it
//! is read from its shortest round-trip text, as before.
//!
//! Each value is also hashed into the row's hash ([`super::hashed`]) and
//! has a stand-in cell (nothing for a null, the one byte `x` for a value
//! read here), as the record does not hold its text.

use ::parquet::basic::Type as Physical;
use ::parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use ::parquet::data_type::{AsBytes, DataType};
use rust_decimal::Decimal;
use xxhash_rust::xxh3::xxh3_64_with_seed;

use super::cell::{self, Kind};
use super::hashed::{Hashes, StandIns};
use super::pages::{NULL, Slots};
use super::{Column, at_row, each_row, read_values};

/// A row's value of a figure column: `None` when its text is in the
/// record, `Some(None)` for a null.
pub type Figure = Option<Option<Decimal>>;

/// The longest plain number the normaliser reads exactly from its text
/// (its fast path: at most 28 characters after a minus sign).
const EXACT_CHARS: usize = 28;

/// Whether a column can be read as figures: a DECIMAL of a physical type
/// that holds one, or a signed integer.
pub(super) fn is_figure_column(col: &Column) -> bool {
    let physical = col.descr.physical_type();
    match col.kind {
        Kind::Decimal { .. } => matches!(
            physical,
            Physical::INT32
                | Physical::INT64
                | Physical::FIXED_LEN_BYTE_ARRAY
                | Physical::BYTE_ARRAY
        ),
        Kind::Signed => matches!(physical, Physical::INT32 | Physical::INT64),
        _ => false,
    }
}

/// `unscaled / 10^scale` as the `Decimal` that its text (`cell::decimal`)
/// reads as, when that text has at most `EXACT_CHARS` characters after
/// its sign; else `None`.
pub fn exact(unscaled: i128, scale: u32) -> Option<Decimal> {
    let abs = unscaled.unsigned_abs();
    // u64's logarithm when it fits (i128's is several times slower).
    let log = match u64::try_from(abs) {
        Ok(small) => small.checked_ilog10(),
        Err(_) => abs.checked_ilog10(),
    };
    let digits = log.map_or(1, |l| l + 1);
    let chars = if scale == 0 {
        digits
    } else {
        // At least one digit before the point, then the point.
        digits.max(scale + 1) + 1
    };
    if chars as usize > EXACT_CHARS {
        return None;
    }
    let mut d = Decimal::try_from_i128_with_scale(unscaled, scale).ok()?;
    if d.is_zero() {
        d.set_sign_positive(true);
    }
    Some(d)
}

/// A figure column's scale: a DECIMAL's, 0 for an integer.
fn scale(col: &Column) -> u32 {
    match col.kind {
        Kind::Decimal { scale } => scale,
        _ => 0,
    }
}

/// Decodes `n` rows of a figure column ([`is_figure_column`]) into
/// `figures`, their stand-in cells and `hashes` (see the module docs).
pub(super) fn decode(
    col: &Column,
    reader: &mut ColumnReader,
    n: usize,
    first_row: u64,
    out: StandIns<'_>,
    hashes: &mut Hashes,
    figures: &mut Vec<Figure>,
) -> Result<(), String> {
    use ::parquet::data_type as t;
    let scale = scale(col);
    let max_def = col.descr.max_def_level();
    let args = (n, max_def, first_row, scale, out, hashes, figures);
    match reader {
        ColumnReader::Int32ColumnReader(r) => {
            column::<t::Int32Type>(r, args, |v| Ok(i128::from(*v)))
        }
        ColumnReader::Int64ColumnReader(r) => {
            column::<t::Int64Type>(r, args, |v| Ok(i128::from(*v)))
        }
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            column::<t::FixedLenByteArrayType>(r, args, |v| cell::decimal_bytes(v.data()))
        }
        ColumnReader::ByteArrayColumnReader(r) => {
            column::<t::ByteArrayType>(r, args, |v| cell::decimal_bytes(v.data()))
        }
        _ => Err("not a DECIMAL or integer column".into()),
    }
}

/// [`decode`] for a DECIMAL column stored as byte arrays and read as
/// dictionary slots ([`super::pages`]): the same figures, stand-ins and
/// hashes. `first_row` (1-based) names the row of a value that is no
/// DECIMAL.
pub(super) fn slots(
    col: &Column,
    slots: &Slots,
    first_row: u64,
    out: StandIns<'_>,
    hashes: &mut Hashes,
    figures: &mut Vec<Figure>,
) -> Result<(), String> {
    let scale = scale(col);
    let StandIns { data, ends } = out;
    figures.clear();
    let mut text = String::new();
    for i in 0..slots.rows() {
        let slot = slots.slot(i);
        let bytes = slots.bytes(slot);
        if let Some(h) = hashes.rows_mut().get_mut(i) {
            *h = xxh3_64_with_seed(bytes, *h);
        }
        let figure = if slot == NULL {
            Some(None)
        } else {
            let u = cell::decimal_bytes(bytes).map_err(|e| at_row(first_row + i as u64, &e))?;
            put(u, scale, data, &mut text)
        };
        figures.push(figure);
        ends.push(data.len());
    }
    Ok(())
}

/// A value's figure, and its stand-in (or, when too long to be read
/// exactly, its text) onto `data`.
fn put(u: i128, scale: u32, data: &mut Vec<u8>, text: &mut String) -> Figure {
    match exact(u, scale) {
        Some(d) => {
            data.push(b'x');
            Some(Some(d))
        }
        None => {
            text.clear();
            cell::decimal(u, scale, text);
            data.extend_from_slice(text.as_bytes());
            None
        }
    }
}

type Args<'o, 'h, 'f> = (
    usize,
    i16,
    u64,
    u32,
    StandIns<'o>,
    &'h mut Hashes,
    &'f mut Vec<Figure>,
);

fn column<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    (n, max_def, first_row, scale, out, hashes, figures): Args<'_, '_, '_>,
    unscaled: impl Fn(&T::T) -> Result<i128, String>,
) -> Result<(), String> {
    let (mut defs, mut values) = (Vec::new(), Vec::new());
    read_values(reader, n, max_def, first_row, &mut defs, &mut values)?;
    let StandIns { data, ends } = out;
    figures.clear();
    let mut text = String::new();
    each_row(n, max_def, first_row, &defs, &values, |i, v| {
        let bytes = v.map_or(&[][..], AsBytes::as_bytes);
        if let Some(h) = hashes.rows_mut().get_mut(i) {
            *h = xxh3_64_with_seed(bytes, *h);
        }
        let figure = match v {
            None => Some(None),
            Some(v) => put(unscaled(v)?, scale, data, &mut text),
        };
        figures.push(figure);
        ends.push(data.len());
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_reads_as_the_text_around_the_u64_boundary() {
        let big = i128::from(u64::MAX);
        for unscaled in [
            0,
            1,
            -1,
            9,
            10,
            big - 1,
            big,
            big + 1,
            -big,
            -big - 1,
            10i128.pow(27),
            10i128.pow(27) - 1,
            10i128.pow(28),
        ] {
            for scale in [0, 2, 10, 18] {
                let mut text = String::new();
                crate::ingest::parquet::cell::decimal(unscaled, scale, &mut text);
                let chars = text.trim_start_matches('-').len();
                let want = (chars <= EXACT_CHARS).then(|| Decimal::from_str_exact(&text).unwrap());
                let got = exact(unscaled, scale);
                assert_eq!(got, want, "{unscaled} scale {scale} ({text})");
                if let (Some(g), Some(w)) = (got, want) {
                    assert_eq!(g.scale(), w.scale(), "{text}");
                }
            }
        }
    }
}
