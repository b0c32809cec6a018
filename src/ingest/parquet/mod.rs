//! Parquet input (issue 19): a Parquet file read as the CSV text the rest
//! of billaudit already reads. [`CsvText`] yields a header line (the names
//! of the flat columns) and one RFC 4180 line per row, row group by row
//! group and a few thousand rows at a time, so memory stays bounded by a
//! batch of rows, not by the file. Cell texts follow [`cell`] (exact
//! decimals, shortest round-trip doubles, ISO dates); nested columns (MAP,
//! LIST, STRUCT) are left out. Row N of the file is line N+1 (the header is
//! line 1). See docs/formats.md, "Parquet".
//!
//! A file is recognised by its magic number (`PAR1` at both ends), and its
//! frame (magic, footer length) is checked before the footer is read, so a
//! truncated file or a footer claiming more bytes than the file has is an
//! error, not an allocation.

pub mod at_file;
pub mod cell;
pub mod figures;
pub mod hashed;
mod int_texts;
pub mod pages;
pub mod rows;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use ::parquet::column::reader::ColumnReader;
use ::parquet::data_type::DataType;
use ::parquet::file::reader::{ChunkReader, FileReader, RowGroupReader};
use ::parquet::file::serialized_reader::SerializedFileReader;
use ::parquet::schema::types::ColumnDescPtr;
use bytes::Bytes;

use crate::error::{Error, Result};
use cell::Kind;

/// The first and last four bytes of a Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";
/// The magic of a Parquet file whose footer is encrypted.
pub const ENCRYPTED_MAGIC: &[u8; 4] = b"PARE";
/// A Parquet input that is not a file (stdin, a ZIP member) is held in
/// memory to be read (its footer is at the end): at most this many bytes.
pub const MAX_STREAM_BYTES: u64 = 1 << 30;
/// Rows converted at a time.
const BATCH_ROWS: usize = 4096;

/// Whether content starting with `prefix` is Parquet: `PAR1` (or `PARE`)
/// followed by a binary byte (a Thrift header, never text), so a CSV whose
/// header starts `PARENT_ID` is not taken for one.
pub fn is_parquet(prefix: &[u8]) -> bool {
    let magic = prefix.starts_with(MAGIC) || prefix.starts_with(ENCRYPTED_MAGIC);
    magic
        && prefix
            .get(4)
            .is_none_or(|b| *b < 0x20 && !b"\t\r\n".contains(b))
}

/// Whether the file at `path` starts like Parquet.
pub fn is_parquet_file(path: &Path) -> bool {
    let mut head = Vec::with_capacity(5);
    File::open(path)
        .and_then(|f| f.take(5).read_to_end(&mut head))
        .is_ok()
        && is_parquet(&head)
}

/// Checks the frame of a Parquet file of `len` bytes from its first four
/// and last eight bytes, before anything is allocated from the footer.
fn check_frame(head: &[u8], tail: &[u8], len: u64) -> std::result::Result<(), String> {
    if head == ENCRYPTED_MAGIC || tail.ends_with(ENCRYPTED_MAGIC) {
        return Err("this Parquet file is encrypted (magic PARE); billaudit does not read encrypted Parquet: export it unencrypted".into());
    }
    if len < 12 || tail.len() < 8 {
        return Err(format!(
            "a Parquet file of {len} bytes is truncated: the smallest holds 12 (magic, footer length, magic)"
        ));
    }
    if !tail.ends_with(MAGIC) {
        return Err(
            "this Parquet file does not end in the magic PAR1: it is truncated or damaged".into(),
        );
    }
    let footer = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    if footer + 12 > len {
        return Err(format!(
            "the Parquet footer claims {footer} bytes but the file has {len}: it is truncated or damaged"
        ));
    }
    Ok(())
}

/// Opens a Parquet file as CSV text.
pub fn open_file(display: &str, path: &Path) -> Result<CsvText<at_file::AtFile>> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let mut head = [0u8; 4];
    let mut tail = [0u8; 8];
    {
        use std::io::{Seek, SeekFrom};
        let mut read = || -> io::Result<()> {
            file.read_exact(&mut head)?;
            if len >= 8 {
                file.seek(SeekFrom::Start(len - 8))?;
                file.read_exact(&mut tail)?;
            }
            Ok(())
        };
        read().map_err(|e| Error::io(path, e))?;
    }
    check_frame(&head, &tail, len).map_err(|m| Error::input(display, m))?;
    CsvText::new(display, at_file::AtFile::new(file, len), len)
}

/// Opens Parquet content held in memory (stdin, a ZIP member) as CSV text.
pub fn open_bytes(display: &str, bytes: Vec<u8>) -> Result<CsvText<Bytes>> {
    let len = bytes.len();
    check_frame(
        &bytes[..len.min(4)],
        &bytes[len.saturating_sub(8)..],
        len as u64,
    )
    .map_err(|m| Error::input(display, m))?;
    CsvText::new(display, Bytes::from(bytes), len as u64)
}

/// Reads the rest of a stream that starts with `prefix` into memory, at
/// most `limit` (or [`MAX_STREAM_BYTES`]) bytes.
pub fn read_stream(
    display: &str,
    prefix: Vec<u8>,
    rest: impl Read,
    limit: Option<u64>,
) -> Result<Vec<u8>> {
    let max = limit.unwrap_or(MAX_STREAM_BYTES).min(MAX_STREAM_BYTES);
    let mut bytes = prefix;
    rest.take(max.saturating_sub(bytes.len() as u64) + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(Path::new(display), e))?;
    if bytes.len() as u64 > max {
        return Err(Error::input(
            display,
            format!(
                "this Parquet stream is larger than {max} bytes (--max-input-bytes, or the {} MiB a stream is held in memory for); pass it as a file",
                MAX_STREAM_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

thread_local! {
    static CONTAINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is inside the `parquet` crate's decoding, where a
/// panic is caught and becomes an input error (`contained`): a panic hook
/// stays quiet then.
pub fn panic_is_contained() -> bool {
    CONTAINED.with(std::cell::Cell::get)
}

/// The column readers of row group `g` for `columns` (each made by
/// `open`, from the column's place in `columns`), and its rows.
fn open_row_group<R>(
    file: &dyn FileReader,
    columns: &[Column],
    g: usize,
    open: impl Fn(&dyn RowGroupReader, usize, &Column) -> ::parquet::errors::Result<R>,
) -> std::result::Result<(Vec<R>, u64), String> {
    let group = file
        .get_row_group(g)
        .map_err(|e| format!("row group {g}: {e}"))?;
    let rows = u64::try_from(group.metadata().num_rows())
        .map_err(|_| format!("row group {g} claims a negative number of rows"))?;
    let readers = columns
        .iter()
        .enumerate()
        .map(|(k, c)| {
            open(&*group, k, c)
                .map_err(|e| format!("row group {g}, column `{}`: {e}", c.descr.name()))
        })
        .collect::<std::result::Result<_, _>>()?;
    Ok((readers, rows))
}

/// Runs the `parquet` crate on untrusted bytes. Some of its decoders index
/// past the end of a damaged page (the PLAIN byte-array decoder reads a
/// 4-byte length from fewer bytes); such a panic is caught here and is an
/// error about the file, not a crash. See docs/reliability.md.
fn contained<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    let was = CONTAINED.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(was));
    result.map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("the Parquet decoder stopped on damaged data ({what})")
    })
}

/// A flat column of the file.
struct Column {
    /// Its index among the file's leaf columns.
    index: usize,
    descr: ColumnDescPtr,
    kind: Kind,
}

/// Rows in the first batch of CSV text: the header search reads a prefix
/// of 64 KB ([`crate::ingest::PREFIX_LEN`]), a few hundred rows of an
/// export, and then the rows are read from the row groups
/// ([`rows::Table`]), so the text of a whole batch of 4,096 rows was
/// written and not read.
const FIRST_TEXT_ROWS: usize = 64;

/// A Parquet file read as CSV text (see the module docs).
pub struct CsvText<R: ChunkReader + 'static> {
    display: String,
    file: Arc<SerializedFileReader<R>>,
    columns: Arc<Vec<Column>>,
    /// The next row group to open.
    next_group: usize,
    /// The open row group's column readers and its rows not yet read.
    readers: Vec<ColumnReader>,
    rows_left: u64,
    /// Rows written so far.
    row: u64,
    out: Vec<u8>,
    pos: usize,
    header_done: bool,
    /// Per column, the texts of the current batch.
    cells: Vec<Vec<String>>,
    /// Rows in the next batch: [`FIRST_TEXT_ROWS`], doubled on each batch
    /// up to [`BATCH_ROWS`].
    batch: usize,
    /// The error that stopped the reading: every later read repeats it.
    failed: Option<String>,
}

impl<R: ChunkReader + 'static> CsvText<R> {
    fn new(display: &str, reader: R, len: u64) -> Result<Self> {
        let file = contained(|| SerializedFileReader::new(reader))
            .and_then(|r| r.map_err(|e| e.to_string()))
            .map_err(|e| Error::input(display, format!("not a readable Parquet file: {e}")))?;
        let schema = file.metadata().file_metadata().schema_descr_ptr();
        let columns: Vec<Column> = schema
            .columns()
            .iter()
            .enumerate()
            // Flat columns only: a leaf at the top level, not repeated.
            .filter(|(_, c)| c.path().parts().len() == 1 && c.max_rep_level() == 0)
            .map(|(index, c)| Column {
                index,
                descr: c.clone(),
                kind: Kind::of(c),
            })
            .collect::<Vec<_>>();
        if columns.is_empty() {
            return Err(Error::input(
                display,
                "this Parquet file has no flat columns (only nested MAP, LIST or STRUCT columns, which billaudit does not read)",
            ));
        }
        check_chunks(&file, &columns, len).map_err(|m| Error::input(display, m))?;
        let cells = columns.iter().map(|_| Vec::new()).collect();
        Ok(CsvText {
            display: display.to_string(),
            file: Arc::new(file),
            columns: Arc::new(columns),
            next_group: 0,
            readers: Vec::new(),
            rows_left: 0,
            batch: FIRST_TEXT_ROWS,
            row: 0,
            out: Vec::new(),
            pos: 0,
            header_done: false,
            cells,
            failed: None,
        })
    }

    /// The same file as a [`rows::Table`], whose row groups are decoded
    /// straight into records (several at once), not as text.
    pub fn table(&self) -> rows::Table {
        let file: Arc<dyn FileReader> = self.file.clone();
        rows::Table::new(file, Arc::clone(&self.columns))
    }

    /// Fills `out` with the next lines; leaves it empty at the end.
    fn fill(&mut self) -> std::result::Result<(), String> {
        if !self.header_done {
            self.header_done = true;
            let names: Vec<&str> = self.columns.iter().map(|c| c.descr.name()).collect();
            write_line(&mut self.out, names.iter().copied());
            return Ok(());
        }
        while self.rows_left == 0 {
            if self.next_group >= self.file.num_row_groups() {
                return Ok(());
            }
            let g = self.next_group;
            self.next_group += 1;
            (self.readers, self.rows_left) =
                open_row_group(&*self.file, &self.columns, g, |r, _, c| {
                    r.get_column_reader(c.index)
                })?;
        }
        let n = usize::try_from(self.rows_left)
            .unwrap_or(BATCH_ROWS)
            .min(self.batch);
        self.batch = (self.batch * 2).min(BATCH_ROWS);
        let first_row = self.row + 1;
        for ((col, reader), cells) in self
            .columns
            .iter()
            .zip(self.readers.iter_mut())
            .zip(self.cells.iter_mut())
        {
            cells.clear();
            read_cells(col, reader, n, first_row, cells).map_err(|e| {
                let g = self.next_group - 1;
                format!("row group {g}, column `{}`: {e}", col.descr.name())
            })?;
        }
        for i in 0..n {
            write_line(&mut self.out, self.cells.iter().map(|c| c[i].as_str()));
        }
        self.rows_left -= n as u64;
        self.row += n as u64;
        Ok(())
    }
}

impl<R: ChunkReader + 'static> Read for CsvText<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.out.len() {
            self.out.clear();
            self.pos = 0;
            if let Some(e) = &self.failed {
                return Err(io::Error::other(e.clone()));
            }
            contained(|| self.fill())
                .and_then(|r| r)
                .map_err(|e| format!("reading the Parquet content: {e}"))
                .inspect_err(|e| self.failed = Some(e.clone()))
                .map_err(io::Error::other)?;
            if self.out.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl<R: ChunkReader + 'static> std::fmt::Debug for CsvText<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CsvText")
            .field("display", &self.display)
            .field("row", &self.row)
            .finish_non_exhaustive()
    }
}

/// Checks, before any column chunk is read, that each row group has a chunk
/// for every flat column, at a place inside the file (the `parquet` crate
/// asserts this, and a damaged footer must be an error, not a panic).
fn check_chunks<R: ChunkReader + 'static>(
    file: &SerializedFileReader<R>,
    columns: &[Column],
    len: u64,
) -> std::result::Result<(), String> {
    for (g, group) in file.metadata().row_groups().iter().enumerate() {
        if group.num_rows() < 0 {
            return Err(format!(
                "row group {g} claims {} rows: the footer is damaged",
                group.num_rows()
            ));
        }
        for c in columns {
            let name = c.descr.name();
            let Some(chunk) = group.columns().get(c.index) else {
                return Err(format!(
                    "row group {g} has no data for column `{name}`: the footer is damaged"
                ));
            };
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            let size = chunk.compressed_size();
            let inside = u64::try_from(start)
                .ok()
                .zip(u64::try_from(size).ok())
                .is_some_and(|(s, n)| s.saturating_add(n) <= len);
            if !inside {
                return Err(format!(
                    "row group {g}, column `{name}`: the footer places its data at byte {start}, {size} bytes long, outside the file's {len} bytes: the footer is damaged"
                ));
            }
        }
    }
    Ok(())
}

/// Appends one CSV line, quoting a field that holds a comma, a quote or a
/// line break.
fn write_line<'s>(out: &mut Vec<u8>, fields: impl Iterator<Item = &'s str>) {
    for (i, f) in fields.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if f.contains([',', '"', '\n', '\r']) {
            out.push(b'"');
            out.extend_from_slice(f.replace('"', "\"\"").as_bytes());
            out.push(b'"');
        } else {
            out.extend_from_slice(f.as_bytes());
        }
    }
    out.push(b'\n');
}

/// Reads `n` rows of one flat column into texts (an empty text for a null).
/// `first_row` (1-based) names the row of a value that has no text.
fn read_cells(
    col: &Column,
    reader: &mut ColumnReader,
    n: usize,
    first_row: u64,
    cells: &mut Vec<String>,
) -> std::result::Result<(), String> {
    use ::parquet::data_type as t;
    let kind = col.kind;
    let max_def = col.descr.max_def_level();
    match reader {
        ColumnReader::BoolColumnReader(r) => {
            typed::<t::BoolType>(r, n, max_def, first_row, cells, |v, out| {
                out.push_str(if *v { "true" } else { "false" });
                Ok(())
            })
        }
        ColumnReader::Int32ColumnReader(r) => {
            typed::<t::Int32Type>(r, n, max_def, first_row, cells, |v, out| {
                cell::integer(kind, i64::from(*v), 32, out)
            })
        }
        ColumnReader::Int64ColumnReader(r) => {
            typed::<t::Int64Type>(r, n, max_def, first_row, cells, |v, out| {
                cell::integer(kind, *v, 64, out)
            })
        }
        ColumnReader::Int96ColumnReader(r) => {
            typed::<t::Int96Type>(r, n, max_def, first_row, cells, |v, out| {
                cell::int96(v.data(), out)
            })
        }
        ColumnReader::FloatColumnReader(r) => {
            typed::<t::FloatType>(r, n, max_def, first_row, cells, |v, out| {
                cell::float(f64::from(*v), Some(*v), out)
            })
        }
        ColumnReader::DoubleColumnReader(r) => {
            typed::<t::DoubleType>(r, n, max_def, first_row, cells, |v, out| {
                cell::float(*v, None, out)
            })
        }
        ColumnReader::ByteArrayColumnReader(r) => {
            typed::<t::ByteArrayType>(r, n, max_def, first_row, cells, |v, out| {
                cell::bytes(kind, v.data(), out)
            })
        }
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            typed::<t::FixedLenByteArrayType>(r, n, max_def, first_row, cells, |v, out| {
                cell::bytes(kind, v.data(), out)
            })
        }
    }
}

fn typed<T: DataType>(
    reader: &mut ::parquet::column::reader::ColumnReaderImpl<T>,
    n: usize,
    max_def: i16,
    first_row: u64,
    cells: &mut Vec<String>,
    text: impl Fn(&T::T, &mut String) -> std::result::Result<(), String>,
) -> std::result::Result<(), String> {
    let (mut defs, mut values) = (Vec::new(), Vec::new());
    read_values(reader, n, max_def, first_row, &mut defs, &mut values)?;
    each_row(n, max_def, first_row, &defs, &values, |_, v| {
        let mut out = String::new();
        if let Some(v) = v {
            text(v, &mut out)?;
        }
        cells.push(out);
        Ok(())
    })
}

/// Reads `n` rows of a column: their definition levels into `defs` (none
/// for a required column) and their values (none for a null) into
/// `values`. `first_row` (1-based) names the rows in an error.
fn read_values<T: DataType>(
    reader: &mut ::parquet::column::reader::ColumnReaderImpl<T>,
    n: usize,
    max_def: i16,
    first_row: u64,
    defs: &mut Vec<i16>,
    values: &mut Vec<T::T>,
) -> std::result::Result<(), String> {
    let mut records = 0;
    while records < n {
        let (read, _, _) = reader
            .read_records(
                n - records,
                (max_def > 0).then_some(&mut *defs),
                None,
                values,
            )
            .map_err(|e| e.to_string())?;
        if read == 0 {
            return Err(format!(
                "the column ends after {} rows of a row group that claims more",
                first_row - 1 + records as u64
            ));
        }
        records += read;
    }
    Ok(())
}

/// Calls `row` for each of the `n` rows read by [`read_values`], with its
/// index and its value (`None` for a null); an error of `row` is told with
/// the row and its line.
fn each_row<V>(
    n: usize,
    max_def: i16,
    first_row: u64,
    defs: &[i16],
    values: &[V],
    mut row: impl FnMut(usize, Option<&V>) -> std::result::Result<(), String>,
) -> std::result::Result<(), String> {
    let mut next = values.iter();
    for i in 0..n {
        let value =
            if max_def == 0 || defs.get(i) == Some(&max_def) {
                Some(next.next().ok_or_else(|| {
                    format!("fewer values than rows at row {}", first_row + i as u64)
                })?)
            } else {
                None
            };
        row(i, value).map_err(|e| at_row(first_row + i as u64, &e))?;
    }
    Ok(())
}

/// An error `e` about row `row` (1-based) of the file, with its line.
fn at_row(row: u64, e: &str) -> String {
    format!("row {row} (line {}): {e}", row + 1)
}
