//! Row groups decoded straight into CSV records (issue 19): no CSV text is
//! written and parsed again. A [`Table`] is a Parquet file's flat columns;
//! a [`Group`] decodes one row group, [`BATCH_ROWS`] rows at a time, into
//! one buffer of cells per column, and [`Group::row`] is a row's cells
//! read where that buffer keeps them (a [`model::Cells`], no copy), for
//! the normaliser (still the one place values are parsed). Several groups can be decoded at once, one per
//! thread: a `Table` is shared, a `Group` is its thread's own.
//!
//! **Projection** (issue 27). Each column has a [`Mode`]: the columns a
//! profile reads ([`Mode::Text`], [`Mode::Figure`]) are held in the row's
//! record; the others are folded ([`super::hashed`]): no text and no cell,
//! only, per row, a hash of their values (when `duplicate-line` compares
//! rows, [`Mode::Hashed`]) and the facts the row tests that look at every
//! cell need (blank row, oversized cell). [`Group::row`] holds the
//! held columns only; [`Group::full_record`] gives every column, the
//! folded ones as stand-ins, for the rare row whose held cells cannot
//! decide those tests. So every column is read, but only the profile's
//! are made text or put in the record. See docs/decisions.md, "Parquet:
//! columns, money and the duplicate key" and "Parquet: a record of only
//! the read columns".

use std::sync::Arc;

use ::csv::ByteRecord;
use ::parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use ::parquet::data_type::DataType;
use ::parquet::file::reader::FileReader;
use xxhash_rust::xxh3::xxh3_64;

use super::cell::{self, Kind};
use super::figures::{self, Figure};
use super::hashed::{self, Hashes, StandIns};
use super::int_texts::IntTexts;
use super::pages::{self, BytesChunk, Slots};
use super::{Column, at_row, contained, each_row, open_row_group, read_values};
use crate::model;

mod fingerprint;

/// What is read of a column (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Its cells' texts.
    Text,
    /// A hash of its values, and a stand-in cell ([`super::hashed`]).
    Hashed,
    /// Only the stand-in cell.
    StandIn,
    /// Exact values ([`super::figures`]), hashed, and a stand-in cell.
    Figure,
}

/// The columns whose cells a row's record holds under `modes`: those read
/// as text or as figures, ascending.
pub fn held(modes: &[Mode]) -> Vec<usize> {
    (0..modes.len())
        .filter(|&c| matches!(modes[c], Mode::Text | Mode::Figure))
        .collect()
}

/// Rows decoded at a time.
pub const BATCH_ROWS: usize = 4096;

/// A Parquet file's flat columns, read row group by row group.
pub struct Table {
    file: Arc<dyn FileReader>,
    columns: Arc<Vec<Column>>,
    /// Rows before each row group.
    starts: Vec<u64>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("columns", &self.columns.len())
            .field("row_groups", &self.starts.len())
            .finish_non_exhaustive()
    }
}

impl Table {
    pub(super) fn new(file: Arc<dyn FileReader>, columns: Arc<Vec<Column>>) -> Self {
        let mut starts = Vec::new();
        let mut rows = 0u64;
        for g in file.metadata().row_groups() {
            starts.push(rows);
            // Negative counts were refused when the file was opened.
            rows += u64::try_from(g.num_rows()).unwrap_or(0);
        }
        Table {
            file,
            columns,
            starts,
        }
    }

    /// The names of the flat columns: the header row.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.columns.iter().map(|c| c.descr.name())
    }

    /// The number of flat columns.
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// Whether column `c` can be read as [`Mode::Figure`] (a DECIMAL or a
    /// signed integer).
    pub fn is_figure_column(&self, c: usize) -> bool {
        self.columns.get(c).is_some_and(figures::is_figure_column)
    }

    /// The number of row groups.
    pub fn row_groups(&self) -> usize {
        self.starts.len()
    }

    /// Opens row group `g`, reading each column `c` by `modes[c]` (a column
    /// without a mode is text). A text longer than `long` bytes stands in
    /// the record as itself ([`super::hashed`]).
    pub fn open_group(&self, g: usize, modes: &[Mode], long: usize) -> Result<Group<'_>, String> {
        let mode = |c: usize| modes.get(c).copied().unwrap_or(Mode::Text);
        let modes: Vec<Mode> = (0..self.columns.len()).map(mode).collect();
        let open = |r: &dyn ::parquet::file::reader::RowGroupReader, k: usize, col: &Column| {
            let chunk = r.metadata().column(col.index);
            let max_def = col.descr.max_def_level();
            if let Some(width) = paged(col, modes[k]) {
                if pages::takes(chunk.encodings(), max_def) {
                    let pages = r.get_column_page_reader(col.index)?;
                    return Ok(Reader::Paged(Box::new(BytesChunk::new(
                        pages, max_def, width,
                    ))));
                }
            }
            r.get_column_reader(col.index)
                .map(|r| Reader::Crate(Box::new(r)))
        };
        let (readers, rows) =
            contained(|| open_row_group(&*self.file, &self.columns, g, open)).and_then(|r| r)?;
        Ok(Group {
            table: self,
            g,
            readers,
            held: held(&modes),
            held_longest: 0,
            modes,
            long,
            hashes: Hashes::default(),
            rows_left: rows,
            next_row: self.starts.get(g).copied().unwrap_or(0) + 1,
            batch_first: 0,
            batch_rows: 0,
            cells: self.columns.iter().map(|_| Cells::default()).collect(),
            scratch: String::new(),
            fingerprint_skip: None,
            fingerprints: Vec::new(),
        })
    }
}

/// One column's cells of a batch: their bytes one after another, and
/// where each ends; or, for a text column (BYTE_ARRAY, not a DECIMAL), the
/// decoded values themselves and each row's value (`NULL_ROW` for a null),
/// pushed into the record without being copied first.
#[derive(Default)]
struct Cells {
    /// A column read page by page ([`pages`]): each row's slot.
    paged: Slots,
    /// Whether the cells are `paged`'s (a text column read as text).
    paged_text: bool,
    data: Vec<u8>,
    ends: Vec<usize>,
    values: Vec<::parquet::data_type::ByteArray>,
    value_of_row: Vec<u32>,
    defs: Vec<i16>,
    figures: Vec<Figure>,
    /// The texts of an integer column's values met so far.
    memo: IntTexts,
}

impl Cells {
    /// Row `i`'s cell (empty for a null).
    #[inline]
    fn cell(&self, i: usize) -> &[u8] {
        if self.paged_text {
            self.paged.cell(i)
        } else if self.value_of_row.is_empty() {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.data[start..self.ends[i]]
        } else {
            match self.value_of_row[i] {
                NULL_ROW => b"",
                v => self.values[v as usize].data(),
            }
        }
    }

    /// `xxh3_64` of row `i`'s cell: a dictionary entry's, found once
    /// ([`Slots::hash`]), or of its bytes.
    #[inline]
    fn cell_hash(&self, i: usize) -> u64 {
        if self.paged_text {
            self.paged.hash(self.paged.slot(i))
        } else {
            xxh3_64(self.cell(i))
        }
    }

    /// At least the length of the batch's longest cell.
    fn longest(&self) -> usize {
        if self.paged_text {
            self.paged.longest()
        } else if self.value_of_row.is_empty() {
            let mut start = 0;
            let mut longest = 0;
            for &end in &self.ends {
                longest = longest.max(end - start);
                start = end;
            }
            longest
        } else {
            self.values.iter().map(|v| v.len()).max().unwrap_or(0)
        }
    }

    /// Row `i`'s cell as text ([`model::Cells::text`]).
    #[inline]
    fn text(&self, i: usize) -> Result<&str, std::str::Utf8Error> {
        if self.paged_text {
            self.paged.text(i)
        } else {
            std::str::from_utf8(self.cell(i))
        }
    }

    /// Pushes row `i`'s cell onto `rec`.
    fn push(&self, i: usize, rec: &mut ByteRecord) {
        rec.push_field(self.cell(i));
    }

    fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
        self.values.clear();
        self.value_of_row.clear();
    }
}

/// A null row of a text column.
const NULL_ROW: u32 = u32::MAX;

/// A column chunk's reader: the crate's, or, for a byte-array column
/// whose encodings [`pages`] takes, page by page into dictionary slots.
enum Reader {
    Crate(Box<ColumnReader>),
    Paged(Box<BytesChunk>),
}

/// Whether a column read by `mode` is read by [`pages`], and then the
/// length of its values when they are fixed: a text column as text or
/// folded, a byte-array DECIMAL as a figure or folded.
fn paged(col: &Column, mode: Mode) -> Option<Option<usize>> {
    use ::parquet::basic::Type as Physical;
    let width = match col.descr.physical_type() {
        Physical::BYTE_ARRAY => None,
        Physical::FIXED_LEN_BYTE_ARRAY => Some(usize::try_from(col.descr.type_length()).ok()?),
        _ => return None,
    };
    let decimal = matches!(col.kind, Kind::Decimal { .. });
    let ok = match mode {
        Mode::Text => is_text(col),
        Mode::Figure => decimal,
        Mode::Hashed | Mode::StandIn => is_text(col) || decimal,
    };
    ok.then_some(width)
}

/// Whether a column is text: a BYTE_ARRAY that is not a DECIMAL.
fn is_text(col: &Column) -> bool {
    col.descr.physical_type() == ::parquet::basic::Type::BYTE_ARRAY
        && !matches!(col.kind, Kind::Decimal { .. })
}

/// Checks that each of a batch's text values is UTF-8, naming the row of
/// the first that is not.
fn check_utf8(slots: &Slots, first_row: u64) -> Result<(), String> {
    for i in 0..slots.rows() {
        if let Some(at) = slots.utf8_error(slots.slot(i)) {
            return Err(at_row(first_row + i as u64, &not_utf8(at)));
        }
    }
    Ok(())
}

/// The message for a text value that is not UTF-8 from byte `at`.
fn not_utf8(at: usize) -> String {
    format!("a value that is not UTF-8 text (invalid byte at offset {at})")
}

/// A row group being decoded (see the module docs).
pub struct Group<'t> {
    table: &'t Table,
    g: usize,
    readers: Vec<Reader>,
    modes: Vec<Mode>,
    /// The columns a row's record holds ([`held`]).
    held: Vec<usize>,
    /// At least the length of the batch's longest held cell.
    held_longest: usize,
    long: usize,
    hashes: Hashes,
    rows_left: u64,
    /// The number (1-based, in the file) of the next row to decode.
    next_row: u64,
    /// The number of the batch's first row, and its rows.
    batch_first: u64,
    batch_rows: usize,
    cells: Vec<Cells>,
    scratch: String,
    /// The record indices left out of the fingerprints ([`Group::fingerprint_skipping`]).
    fingerprint_skip: Option<Vec<usize>>,
    /// The batch's rows' held fingerprints, when `fingerprint_skip` is set.
    fingerprints: Vec<u64>,
}

impl<'t> Group<'t> {
    /// Decodes the next batch of rows (at most [`BATCH_ROWS`]) and returns
    /// how many it holds: 0 at the end of the row group. An error names the
    /// row group, the column and (for a value with no text) its row and line.
    pub fn next_batch(&mut self) -> Result<usize, String> {
        let n = usize::try_from(self.rows_left)
            .unwrap_or(BATCH_ROWS)
            .min(BATCH_ROWS);
        self.batch_first = self.next_row;
        self.batch_rows = 0;
        if n == 0 {
            return Ok(0);
        }
        let g = self.g;
        let first = self.next_row;
        let columns = &self.table.columns;
        let (readers, cells, modes, scratch, hashes) = (
            &mut self.readers,
            &mut self.cells,
            &self.modes,
            &mut self.scratch,
            &mut self.hashes,
        );
        let long = self.long;
        hashes.start(n);
        contained(|| -> Result<(), String> {
            for (c, col) in columns.iter().enumerate() {
                let cells = &mut cells[c];
                let reader = match &mut readers[c] {
                    Reader::Crate(r) => &mut **r,
                    Reader::Paged(chunk) => {
                        cells.clear();
                        cells.paged_text = modes[c] == Mode::Text;
                        chunk
                            .read(n, first - 1, &mut cells.paged)
                            .and_then(|()| {
                                let slots = &cells.paged;
                                match modes[c] {
                                    Mode::Text => check_utf8(slots, first),
                                    Mode::Figure => {
                                        let out = StandIns {
                                            data: &mut cells.data,
                                            ends: &mut cells.ends,
                                        };
                                        let figures = &mut cells.figures;
                                        figures::slots(col, slots, first, out, hashes, figures)
                                    }
                                    mode => {
                                        let hash = mode == Mode::Hashed;
                                        let text = is_text(col);
                                        hashed::slots(c, slots, long, hashes, hash, text);
                                        Ok(())
                                    }
                                }
                            })
                            .map_err(|e| {
                                format!("row group {g}, column `{}`: {e}", col.descr.name())
                            })?;
                        continue;
                    }
                };
                match modes[c] {
                    Mode::Text => decode(col, reader, n, first, cells, scratch),
                    Mode::Figure => {
                        cells.clear();
                        let out = StandIns {
                            data: &mut cells.data,
                            ends: &mut cells.ends,
                        };
                        figures::decode(col, reader, n, first, out, hashes, &mut cells.figures)
                    }
                    mode => {
                        cells.clear();
                        let hash = mode == Mode::Hashed;
                        hashed::decode(col, c, reader, n, first, long, hashes, hash)
                    }
                }
                .map_err(|e| format!("row group {g}, column `{}`: {e}", col.descr.name()))?;
            }
            Ok(())
        })
        .and_then(|r| r)?;
        self.rows_left -= n as u64;
        self.next_row += n as u64;
        self.batch_rows = n;
        self.held_longest = self
            .held
            .iter()
            .map(|&c| self.cells[c].longest())
            .max()
            .unwrap_or(0);
        if let Some(skip) = &self.fingerprint_skip {
            fingerprint::batch(&self.held, skip, &self.cells, n, &mut self.fingerprints);
        }
        Ok(n)
    }

    /// Fingerprints each batch's rows column by column as it is decoded,
    /// leaving out the record's cells at `skip` (the row-id columns).
    pub fn fingerprint_skipping(&mut self, skip: &[usize]) {
        self.fingerprint_skip = Some(skip.to_vec());
    }

    /// The number (1-based, in the file) of the batch's first row: row N
    /// is line N+1 (the header is line 1).
    pub fn first_row(&self) -> u64 {
        self.batch_first
    }

    /// The hash of row `i`'s hashed columns ([`Hashes::row`]): what its
    /// fingerprint must cover beside its record's cells.
    pub fn hashed(&self, i: usize) -> Option<u64> {
        self.modes
            .iter()
            .any(|m| matches!(m, Mode::Hashed | Mode::Figure))
            .then(|| self.hashes.row(i))
    }

    /// Row `i`'s exact value of column `c` when it is read as
    /// [`Mode::Figure`] ([`Figure`]); `None` for any other column.
    pub fn figure(&self, c: usize, i: usize) -> Figure {
        match self.modes.get(c) {
            Some(Mode::Figure) => self.cells.get(c)?.figures.get(i).copied().flatten(),
            _ => None,
        }
    }

    fn holds(&self, c: usize) -> bool {
        matches!(self.modes[c], Mode::Text | Mode::Figure)
    }

    /// Whether row `i` has a cell that is not blank among the columns its
    /// record does not hold.
    pub fn folded_filled(&self, i: usize) -> bool {
        self.hashes.filled(i)
    }

    /// Whether row `i` has a cell longer than `long` bytes among the
    /// columns its record does not hold.
    pub fn folded_long(&self, i: usize) -> bool {
        self.hashes.long(i).is_some()
    }

    /// Row `i` of the batch in the columns a record holds ([`held`]), its
    /// cells read where the batch keeps them: no `ByteRecord` is filled.
    pub fn row(&self, i: usize) -> HeldRow<'_, 't> {
        HeldRow { group: self, i }
    }

    /// Fills `rec` with a cell of row `i` for every column: the held
    /// columns' cells, and for each folded column a stand-in of the same
    /// blankness and length class ([`Hashes::stand_in`]), for the row tests
    /// when the held cells alone cannot decide them.
    pub fn full_record(&self, i: usize, rec: &mut ByteRecord) {
        rec.clear();
        let mut stand_in = Vec::new();
        for (c, cells) in self.cells.iter().enumerate() {
            if self.holds(c) {
                cells.push(i, rec);
            } else {
                self.hashes.stand_in(i, c, &mut stand_in);
                rec.push_field(&stand_in);
            }
        }
    }
}

/// Row `i` of a batch, its held cells read in place ([`Group::row`]).
pub struct HeldRow<'g, 't> {
    group: &'g Group<'t>,
    i: usize,
}

impl model::Cells for HeldRow<'_, '_> {
    #[inline]
    fn len(&self) -> usize {
        self.group.held.len()
    }

    #[inline]
    fn get(&self, k: usize) -> Option<&[u8]> {
        let c = *self.group.held.get(k)?;
        Some(self.group.cells[c].cell(self.i))
    }

    #[inline]
    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let cells = &self.group.cells;
        self.group.held.iter().map(move |&c| cells[c].cell(self.i))
    }

    #[inline]
    fn text(&self, k: usize) -> Option<Result<&str, std::str::Utf8Error>> {
        let c = *self.group.held.get(k)?;
        Some(self.group.cells[c].text(self.i))
    }

    /// None when no held cell of the batch is that long; else as a record
    /// finds it.
    fn cell_over(&self, max: usize) -> Option<usize> {
        if self.group.held_longest <= max {
            return None;
        }
        self.iter().position(|f| f.len() > max)
    }

    /// The held cells' fingerprint ([`fingerprint`]): the batch's, made
    /// column by column when it was decoded, for the file's row-id columns.
    fn fingerprint(&self, skip: &[usize]) -> Option<u64> {
        let g = self.group;
        // Compared element by element: the slices are a few indices long,
        // and `==` on slices calls `memcmp`, 4% of a Parquet audit's time
        // when asked on every row (perf, 1M rows).
        let same =
            |kept: &[usize]| kept.len() == skip.len() && kept.iter().zip(skip).all(|(a, b)| a == b);
        if g.fingerprint_skip.as_deref().is_some_and(same) && g.fingerprints.len() == g.batch_rows {
            return g.fingerprints.get(self.i).copied();
        }
        Some(fingerprint::row(&g.held, skip, &g.cells, self.i))
    }
}

/// Decodes `n` rows of one column into `cells` (see the module docs).
fn decode(
    col: &Column,
    reader: &mut ColumnReader,
    n: usize,
    first_row: u64,
    cells: &mut Cells,
    s: &mut String,
) -> Result<(), String> {
    use ::parquet::data_type as t;
    let kind = col.kind;
    let max_def = col.descr.max_def_level();
    cells.clear();
    if let (ColumnReader::ByteArrayColumnReader(r), false) =
        (&mut *reader, matches!(kind, Kind::Decimal { .. }))
    {
        return texts(r, n, max_def, first_row, cells);
    }
    let mut cells_memo = std::mem::take(&mut cells.memo);
    let out = &mut *cells;
    // A cell's text through the String-based rules of `cell`.
    macro_rules! via {
        ($s:ident, $data:ident, $e:expr) => {{
            $s.clear();
            let r = $e;
            $data.extend_from_slice($s.as_bytes());
            r
        }};
    }
    let read = match reader {
        ColumnReader::BoolColumnReader(r) => {
            typed::<t::BoolType>(r, n, max_def, first_row, out, |v, d| {
                d.extend_from_slice(if *v { b"true" } else { b"false" });
                Ok(())
            })
        }
        // An integer column holds few distinct values (a month's hours as
        // timestamps): each one's text is made once ([`IntTexts`]).
        ColumnReader::Int32ColumnReader(r) => {
            let memo = &mut cells_memo;
            typed::<t::Int32Type>(r, n, max_def, first_row, out, |v, d| {
                memo.put(i64::from(*v), d, s, |v, s| cell::integer(kind, v, 32, s))
            })
        }
        ColumnReader::Int64ColumnReader(r) => {
            let memo = &mut cells_memo;
            typed::<t::Int64Type>(r, n, max_def, first_row, out, |v, d| {
                memo.put(*v, d, s, |v, s| cell::integer(kind, v, 64, s))
            })
        }
        ColumnReader::Int96ColumnReader(r) => {
            typed::<t::Int96Type>(r, n, max_def, first_row, out, |v, d| {
                via!(s, d, cell::int96(v.data(), s))
            })
        }
        ColumnReader::FloatColumnReader(r) => {
            typed::<t::FloatType>(r, n, max_def, first_row, out, |v, d| {
                via!(s, d, cell::float(f64::from(*v), Some(*v), s))
            })
        }
        ColumnReader::DoubleColumnReader(r) => {
            typed::<t::DoubleType>(r, n, max_def, first_row, out, |v, d| {
                via!(s, d, cell::float(*v, None, s))
            })
        }
        ColumnReader::ByteArrayColumnReader(r) => {
            typed::<t::ByteArrayType>(r, n, max_def, first_row, out, |v, d| {
                via!(s, d, cell::bytes(kind, v.data(), s))
            })
        }
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            typed::<t::FixedLenByteArrayType>(r, n, max_def, first_row, out, |v, d| {
                via!(s, d, cell::bytes(kind, v.data(), s))
            })
        }
    };
    cells.memo = cells_memo;
    read
}

/// Reads `n` rows of a text column into `out.values`, each row's value in
/// `out.value_of_row`; checks that they are UTF-8.
fn texts(
    reader: &mut ColumnReaderImpl<::parquet::data_type::ByteArrayType>,
    n: usize,
    max_def: i16,
    first_row: u64,
    out: &mut Cells,
) -> Result<(), String> {
    out.defs.clear();
    read_values(
        reader,
        n,
        max_def,
        first_row,
        &mut out.defs,
        &mut out.values,
    )?;
    let Cells {
        defs,
        values,
        value_of_row,
        ..
    } = out;
    let mut next = 0u32;
    each_row(n, max_def, first_row, defs, values, |_, v| {
        match v {
            Some(v) => {
                std::str::from_utf8(v.data()).map_err(|e| not_utf8(e.valid_up_to()))?;
                value_of_row.push(next);
                next += 1;
            }
            None => value_of_row.push(NULL_ROW),
        }
        Ok(())
    })
}

/// Reads `n` rows of a column and appends each row's cell (nothing for a
/// null) to `out`. `first_row` (1-based) names the row of a value that has
/// no text.
fn typed<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    n: usize,
    max_def: i16,
    first_row: u64,
    out: &mut Cells,
    mut put: impl FnMut(&T::T, &mut Vec<u8>) -> Result<(), String>,
) -> Result<(), String> {
    let (mut defs, mut values) = (Vec::new(), Vec::new());
    read_values(reader, n, max_def, first_row, &mut defs, &mut values)?;
    each_row(n, max_def, first_row, &defs, &values, |_, v| {
        if let Some(v) = v {
            put(v, &mut out.data)?;
        }
        out.ends.push(out.data.len());
        Ok(())
    })
}
