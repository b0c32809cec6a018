//! The columns of a Parquet file that no profile reads, decoded without a
//! text and without a cell in the row's record (issue 27): each value is
//! hashed where it is decoded, column by column into one hash per row, for
//! the duplicate check, and folded into two facts per row for the row
//! tests that look at every cell.
//!
//! `duplicate-line` compares a row's fingerprint, which covers every cell
//! of a CSV row; a Parquet row's fingerprint is the hash of the cells the
//! record holds, mixed with this hash of the columns it does not
//! ([`Hashes::of`]). Two rows get the same hash exactly when each such
//! column holds the same value in both (up to a 64-bit collision, as for
//! every fingerprint): a value is hashed from its stored bytes (a text
//! from its bytes, a number from its bytes in memory), a null as no
//! bytes, so a null and an empty text are the same cell, as in CSV. A text
//! adds the hash of its bytes (`text`), so that a dictionary entry is
//! hashed once ([`super::pages`]) and a row adds its entry's hash, the
//! same as when the crate's reader gives the value.
//!
//! The facts, for the tests the normaliser runs on every cell
//! (docs/decisions.md, "Parquet: a record of only the read columns"):
//! whether any of these cells is not blank (a null or a text of ASCII
//! whitespace is blank), and the first of them whose text is longer than
//! `long` bytes (the oversized-cell test names it), with its length and
//! whether it is blank. [`Hashes::stand_in`] gives each such cell back as
//! a cell of the same blankness and length class, for the rare row whose
//! record alone cannot decide those tests.

use ::parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use ::parquet::data_type::{AsBytes, DataType};
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

use super::pages::{NULL, Slots};
use super::{Column, each_row, read_values};

/// The seed of a row's hash before its first hashed column.
const SEED: u64 = 0x243f_6a88_85a3_08d3;

/// One hash per row of a batch, over the hashed columns, and the facts of
/// the folded columns (see the module docs).
#[derive(Debug, Default)]
pub struct Hashes {
    rows: Vec<u64>,
    /// Whether row `i` has a folded cell that is not blank.
    filled: Vec<bool>,
    /// Row `i`'s first folded cell longer than `long` bytes.
    long: Vec<Option<Long>>,
}

/// A folded cell longer than the longest cell read as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Long {
    /// Its column.
    pub column: usize,
    /// Its length in bytes.
    pub len: usize,
    /// Whether it is all ASCII whitespace.
    pub blank: bool,
}

impl Hashes {
    /// Starts a batch of `n` rows.
    pub(super) fn start(&mut self, n: usize) {
        self.rows.clear();
        self.rows.resize(n, SEED);
        self.filled.clear();
        self.filled.resize(n, false);
        self.long.clear();
        self.long.resize(n, None);
    }

    /// Whether row `i` has a folded cell that is not blank.
    pub fn filled(&self, i: usize) -> bool {
        self.filled.get(i).copied().unwrap_or(false)
    }

    /// Row `i`'s first folded cell longer than `long` bytes.
    pub fn long(&self, i: usize) -> Option<Long> {
        self.long.get(i).copied().flatten()
    }

    /// A cell standing for row `i`'s folded cell of column `c` in a record
    /// of every column: as blank as the row's folded cells are (`x` when
    /// one is not blank, else nothing), or, for the row's first long cell,
    /// a cell of its length and blankness. The row's blank-row and
    /// oversized-cell decisions on such a record are those on its cells.
    pub fn stand_in(&self, i: usize, c: usize, out: &mut Vec<u8>) {
        out.clear();
        match self.long(i) {
            Some(l) if l.column == c => out.resize(l.len, if l.blank { b' ' } else { b'x' }),
            _ if self.filled(i) => out.push(b'x'),
            _ => {}
        }
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

/// Decodes `n` rows of column `c` into the rows' facts and, with `hash`,
/// into their hashes (see the module docs).
#[allow(clippy::too_many_arguments)]
pub(super) fn decode(
    col: &Column,
    c: usize,
    reader: &mut ColumnReader,
    n: usize,
    first_row: u64,
    long: usize,
    out: &mut Hashes,
    hash: bool,
) -> Result<(), String> {
    use ::parquet::data_type as t;
    let max_def = col.descr.max_def_level();
    // A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY that is not a DECIMAL is text.
    let text = !matches!(col.kind, super::cell::Kind::Decimal { .. });
    let args = (c, n, max_def, first_row, long, out, hash);
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

type Args<'h> = (usize, usize, i16, u64, usize, &'h mut Hashes, bool);

fn column<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    text: bool,
    (c, n, max_def, first_row, long, out, hash): Args<'_>,
) -> Result<(), String> {
    let (mut defs, mut values) = (Vec::new(), Vec::new());
    read_values(reader, n, max_def, first_row, &mut defs, &mut values)?;
    let Hashes {
        rows,
        filled,
        long: longs,
    } = out;
    each_row(n, max_def, first_row, &defs, &values, |i, v| {
        let bytes = v.map_or(&[][..], AsBytes::as_bytes);
        if hash {
            if let Some(h) = rows.get_mut(i) {
                *h = if text {
                    self::text(*h, xxh3_64(bytes))
                } else {
                    xxh3_64_with_seed(bytes, *h)
                };
            }
        }
        if v.is_some() {
            // A value that is not text (a number, a date) is never blank.
            let blank = text && bytes.iter().all(u8::is_ascii_whitespace);
            if !blank {
                if let Some(f) = filled.get_mut(i) {
                    *f = true;
                }
            }
            if text && bytes.len() > long {
                if let Some(l @ None) = longs.get_mut(i) {
                    *l = Some(Long {
                        column: c,
                        len: bytes.len(),
                        blank,
                    });
                }
            }
        }
        Ok(())
    })
}

/// A row's hash `h` after a text cell whose bytes hash to `value`
/// (`xxh3_64`; a null's bytes are none).
#[inline]
fn text(h: u64, value: u64) -> u64 {
    xxh3_64_with_seed(&value.to_le_bytes(), h)
}

/// [`decode`] for a column read as dictionary slots ([`super::pages`]):
/// the same hashes and facts (`text`: whether the column is text, else a
/// DECIMAL's bytes, never blank and never long), each dictionary entry's
/// hash and blankness found once.
pub(super) fn slots(
    c: usize,
    slots: &Slots,
    long: usize,
    out: &mut Hashes,
    hash: bool,
    text: bool,
) {
    let empty = xxh3_64(b"");
    let Hashes {
        rows,
        filled,
        long: longs,
    } = out;
    for (i, ((h, f), l)) in rows
        .iter_mut()
        .zip(filled.iter_mut())
        .zip(longs.iter_mut())
        .enumerate()
        .take(slots.rows())
    {
        let slot = slots.slot(i);
        if !text {
            if hash {
                *h = xxh3_64_with_seed(slots.bytes(slot), *h);
            }
            *f |= slot != NULL;
            continue;
        }
        if slot == NULL {
            if hash {
                *h = self::text(*h, empty);
            }
            continue;
        }
        if hash {
            *h = self::text(*h, slots.hash(slot));
        }
        let blank = slots.blank(slot);
        *f |= !blank;
        if l.is_none() {
            let len = slots.bytes(slot).len();
            if len > long {
                *l = Some(Long {
                    column: c,
                    len,
                    blank,
                });
            }
        }
    }
}
