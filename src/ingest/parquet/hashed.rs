//! The columns of a Parquet file that no profile reads, decoded without a
//! text (issue 27): each value is hashed where it is decoded, column by
//! column into one hash per row, for the duplicate check, and the row's
//! record gets a stand-in cell for the row tests.
//!
//! `duplicate-line` compares a row's fingerprint, which covers every cell
//! of a CSV row; a Parquet row's fingerprint is the hash of the cells the
//! record holds, mixed with this hash of the columns it does not
//! ([`Hashes::of`]). Two rows get the same hash exactly when each such
//! column holds the same value in both (up to a 64-bit collision, as for
//! every fingerprint): a value is hashed from its stored bytes (a text
//! from its bytes, a number from its bytes in memory), a null as no
//! bytes, so a null and an empty text are the same cell, as in CSV.
//!
//! The stand-in cell, for the tests the normaliser runs on every cell:
//! nothing for a null or a text of ASCII whitespace (a blank cell), the
//! text itself when it is longer than `long` bytes (the oversized-cell
//! test names it), else the one byte `x`.

use ::parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use ::parquet::data_type::{AsBytes, DataType};
use xxhash_rust::xxh3::xxh3_64_with_seed;

use super::{Column, each_row, read_values};

/// The seed of a row's hash before its first hashed column.
const SEED: u64 = 0x243f_6a88_85a3_08d3;

/// One hash per row of a batch, over the hashed columns.
#[derive(Debug, Default)]
pub struct Hashes {
    rows: Vec<u64>,
}

impl Hashes {
    /// Starts a batch of `n` rows.
    pub(super) fn start(&mut self, n: usize) {
        self.rows.clear();
        self.rows.resize(n, SEED);
    }

    pub(super) fn rows_mut(&mut self) -> &mut [u64] {
        &mut self.rows
    }

    /// The hash of row `i`'s hashed columns.
    pub fn row(&self, i: usize) -> u64 {
        self.rows.get(i).copied().unwrap_or(SEED)
    }

    /// A row's fingerprint from the fingerprint of the cells its record
    /// holds (`record`) and [`Hashes::row`] (`hashed`): never 0, which
    /// means "no fingerprint" to `duplicate-line`.
    pub fn of(record: u64, hashed: u64) -> u64 {
        xxh3_64_with_seed(&hashed.to_le_bytes(), record).max(1)
    }
}

/// Where a batch's stand-in cells go: their bytes one after another, and
/// where each ends.
pub(super) struct StandIns<'c> {
    pub data: &'c mut Vec<u8>,
    pub ends: &'c mut Vec<usize>,
}

/// Decodes `n` rows of a column into its stand-in cells and, when there
/// are `hashes`, into them (see the module docs).
pub(super) fn decode(
    col: &Column,
    reader: &mut ColumnReader,
    n: usize,
    first_row: u64,
    long: usize,
    out: StandIns<'_>,
    hashes: Option<&mut Hashes>,
) -> Result<(), String> {
    use ::parquet::data_type as t;
    let max_def = col.descr.max_def_level();
    // A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY that is not a DECIMAL is text.
    let text = !matches!(col.kind, super::cell::Kind::Decimal { .. });
    let args = (n, max_def, first_row, long, out, hashes);
    match reader {
        ColumnReader::BoolColumnReader(r) => column::<t::BoolType>(r, false, args),
        ColumnReader::Int32ColumnReader(r) => column::<t::Int32Type>(r, false, args),
        ColumnReader::Int64ColumnReader(r) => column::<t::Int64Type>(r, false, args),
        ColumnReader::Int96ColumnReader(r) => column::<t::Int96Type>(r, false, args),
        ColumnReader::FloatColumnReader(r) => column::<t::FloatType>(r, false, args),
        ColumnReader::DoubleColumnReader(r) => column::<t::DoubleType>(r, false, args),
        ColumnReader::ByteArrayColumnReader(r) => column::<t::ByteArrayType>(r, text, args),
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            column::<t::FixedLenByteArrayType>(r, text, args)
        }
    }
}

type Args<'o, 'h> = (usize, i16, u64, usize, StandIns<'o>, Option<&'h mut Hashes>);

fn column<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    text: bool,
    (n, max_def, first_row, long, out, mut hashes): Args<'_, '_>,
) -> Result<(), String> {
    let (mut defs, mut values) = (Vec::new(), Vec::new());
    read_values(reader, n, max_def, first_row, &mut defs, &mut values)?;
    let StandIns { data, ends } = out;
    each_row(n, max_def, first_row, &defs, &values, |i, v| {
        let bytes = v.map_or(&[][..], AsBytes::as_bytes);
        if let Some(h) = hashes.as_mut().and_then(|h| h.rows.get_mut(i)) {
            *h = xxh3_64_with_seed(bytes, *h);
        }
        if v.is_some() {
            if text && bytes.len() > long {
                data.extend_from_slice(bytes);
            } else if !text || !bytes.iter().all(u8::is_ascii_whitespace) {
                data.push(b'x');
            }
        }
        ends.push(data.len());
        Ok(())
    })
}
