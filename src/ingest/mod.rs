//! Stage 1: bytes in. Finds the input files, opens them, decides the
//! encoding and whether the content is a CSV export or a text invoice.

pub(crate) mod archive;
pub(crate) mod chunks;
pub mod csv;
pub mod decode;
pub mod parquet;
pub(crate) mod pdf;
pub mod split;

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use decode::Sniffed;
pub use decode::{EncodingChoice, TextEncoding};

/// How many bytes are read up front to decide encoding, delimiter and kind.
pub const PREFIX_LEN: usize = 64 * 1024;

/// Where an input comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    File(PathBuf),
    Stdin,
}

/// One input to audit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Source {
    /// The path as the user will see it in reports.
    pub display: String,
    pub origin: Origin,
}

impl Source {
    pub fn file(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        Source {
            display: path.display().to_string(),
            origin: Origin::File(path),
        }
    }

    pub fn stdin() -> Self {
        Source {
            display: "<stdin>".into(),
            origin: Origin::Stdin,
        }
    }
}

/// File endings that a directory walk picks up as bills.
pub const BILL_EXTENSIONS: &[&str] = &[
    "csv", "tsv", "txt", "pdf", "csv.gz", "tsv.gz", "zip", "parquet",
];

fn is_bill_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if name.starts_with('.') {
        return false;
    }
    BILL_EXTENSIONS
        .iter()
        .any(|ext| name.ends_with(&format!(".{ext}")))
}

/// Expands the command-line paths: files as given, directories walked
/// recursively for bill files (sorted), `-` for stdin. A missing path is an error.
pub fn expand_paths(paths: &[String]) -> Vec<Result<Source>> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Ok(Source::stdin()));
            continue;
        }
        let path = PathBuf::from(p);
        if !path.exists() && p.contains(['*', '?', '[']) {
            expand_glob(p, &mut out);
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                let mut found = Vec::new();
                let mut seen = HashSet::new();
                walk(&path, &mut found, &mut seen, &mut out);
                found.sort();
                out.extend(found.into_iter().map(|f| Ok(Source::file(f))));
            }
            Ok(_) => out.push(Ok(Source::file(path))),
            Err(e) => out.push(Err(Error::io(&path, e))),
        }
    }
    out
}

/// `exports/*.csv`, `exports/**/*.csv.gz`: for shells that pass globs through.
fn expand_glob(pattern: &str, out: &mut Vec<Result<Source>>) {
    let paths = match glob::glob(pattern) {
        Ok(p) => p,
        Err(e) => {
            out.push(Err(Error::input(pattern, format!("bad glob pattern: {e}"))));
            return;
        }
    };
    let mut found: Vec<PathBuf> = Vec::new();
    for entry in paths {
        match entry {
            Ok(p) if p.is_dir() => {
                let mut seen = HashSet::new();
                walk(&p, &mut found, &mut seen, out);
            }
            Ok(p) => found.push(p),
            Err(e) => out.push(Err(Error::io(e.path(), io::Error::other(e.to_string())))),
        }
    }
    if found.is_empty() {
        out.push(Err(Error::input(pattern, "no file matches this pattern")));
    }
    found.sort();
    found.dedup();
    out.extend(found.into_iter().map(|f| Ok(Source::file(f))));
}

fn walk(
    dir: &Path,
    found: &mut Vec<PathBuf>,
    seen: &mut HashSet<PathBuf>,
    errors: &mut Vec<Result<Source>>,
) {
    // Symlink loops end here: each real directory is entered once.
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !seen.insert(real) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(Err(Error::io(dir, e)));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        match std::fs::metadata(&p) {
            Ok(m) if m.is_dir() => walk(&p, found, seen, errors),
            Ok(m) if m.is_file() && is_bill_file(&p) => found.push(p),
            // A FIFO, socket or device named like a bill: reading it could
            // block forever, so a walk reports it instead of opening it.
            Ok(_) if is_bill_file(&p) => errors.push(Err(Error::input(
                &p.display().to_string(),
                "not a regular file (a FIFO, socket or device), so a directory walk does not read it; pass it by name to read from it",
            ))),
            Ok(_) => {}
            Err(e) if is_bill_file(&p) => errors.push(Err(Error::io(&p, e))),
            Err(_) => {}
        }
    }
}

/// An opened input: its encoding, a decoded prefix for sniffing, and a
/// reader that yields the whole content as UTF-8 (UTF-8 is passed through).
pub struct Opened<'a> {
    pub encoding: TextEncoding,
    /// Why the content was read in an encoding other than UTF-8 (detected
    /// from its bytes, or given): for the report. `None` for UTF-8.
    pub encoding_note: Option<String>,
    /// The first bytes of the content, decoded (lossily), for sniffing.
    pub prefix_text: String,
    pub reader: Box<dyn Read + 'a>,
    /// A plain UTF-8 file on disk (not compressed, not transcoded), which
    /// can be read again at any offset: `(path, bytes of BOM before the
    /// content)`. Large ones are read on several threads.
    pub seekable: Option<(std::path::PathBuf, u64)>,
    /// The content was gzip-compressed.
    pub gzipped: bool,
    /// The content is the text extracted from a PDF (`pdf`): it is read
    /// as a text invoice.
    pub pdf: bool,
    /// The content is a Parquet file: its rows can be read straight from
    /// its row groups (the `reader` gives them as CSV text too, for the
    /// header search and sniffing). `None` under `--max-input-bytes`,
    /// which counts the CSV text.
    pub parquet: Option<Box<parquet::rows::Table>>,
    /// The prefix is the whole content (shorter than [`PREFIX_LEN`]): a
    /// small input, read on one thread.
    pub complete: bool,
}

const GZIP_MAGIC: &[u8] = b"\x1f\x8b";
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// Opens a source, decides its encoding (or uses `forced`) and refuses
/// binary content with a message that says what it looks like. Gzip
/// (`.csv.gz`, multi-member too) is decompressed on the fly. ZIP archives
/// are read by `archive`, not here.
pub fn open(source: &Source, forced: Option<TextEncoding>) -> Result<Opened<'static>> {
    open_limited(source, forced, None)
}

/// Like [`open`], and stops with an error once more than `limit` bytes of
/// content (after gzip decompression) have been read (`--max-input-bytes`).
pub fn open_limited(
    source: &Source,
    forced: Option<TextEncoding>,
    limit: Option<u64>,
) -> Result<Opened<'static>> {
    if let Origin::File(p) = &source.origin {
        if pdf::is_pdf_file(p) {
            // The extractor reads the file by its path.
            let text = pdf::extract(&source.display, pdf::Input::File(p))?;
            return from_pdf_text(&source.display, text, limit);
        }
        if parquet::is_parquet_file(p) {
            let rows = parquet::open_file(&source.display, p)?;
            let table = limit.is_none().then(|| Box::new(rows.table()));
            let mut opened = open_reader_limited(
                &source.display,
                Box::new(rows),
                Some(TextEncoding::Utf8),
                limit,
            )?;
            opened.parquet = table;
            return Ok(opened);
        }
    }
    let mut raw: Box<dyn Read + Send> = match &source.origin {
        Origin::File(p) => Box::new(File::open(p).map_err(|e| Error::io(p, e))?),
        Origin::Stdin => Box::new(io::stdin()),
    };
    // Gzip is decompressed on a thread of its own, so that reading the rows
    // and inflating the next megabytes overlap.
    let mut magic = Vec::with_capacity(2);
    (&mut raw)
        .take(2)
        .read_to_end(&mut magic)
        .map_err(|e| Error::io(Path::new(&source.display), e))?;
    let whole: Box<dyn Read + Send> = Box::new(Cursor::new(magic.clone()).chain(raw));
    let raw: Box<dyn Read> = if magic == GZIP_MAGIC {
        Box::new(inflate_on_thread(whole))
    } else {
        whole
    };
    let mut opened = open_reader_limited(&source.display, raw, forced, limit)?;
    if magic == GZIP_MAGIC {
        opened.gzipped = true;
    }
    // Re-reading the file at offsets (several threads) would bypass the
    // content limit: a limited input is read once, in order.
    if let (Origin::File(p), TextEncoding::Utf8, false, None) =
        (&source.origin, opened.encoding, opened.gzipped, limit)
    {
        let mut head = [0u8; 3];
        let bom = File::open(p)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
            && head == [0xEF, 0xBB, 0xBF];
        opened.seekable = Some((p.clone(), if bom { 3 } else { 0 }));
    }
    Ok(opened)
}

/// Decompressed blocks handed over from the inflating thread.
struct ThreadReader {
    rx: std::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    pos: usize,
}

impl Read for ThreadReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.block.len() {
            match self.rx.recv() {
                Ok(Ok(block)) => {
                    self.block = block;
                    self.pos = 0;
                }
                Ok(Err(e)) => return Err(e),
                // The inflating thread is done: end of the stream.
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.block.len() - self.pos);
        buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Inflates a (multi-member) gzip stream on its own thread. At most four
/// 256 KiB blocks wait in between, so memory stays flat however large the
/// stream; the thread ends when the reader is dropped.
fn inflate_on_thread(compressed: Box<dyn Read + Send>) -> ThreadReader {
    let (tx, rx) = std::sync::mpsc::sync_channel::<io::Result<Vec<u8>>>(4);
    std::thread::spawn(move || {
        let mut gz = flate2::read::MultiGzDecoder::new(compressed);
        loop {
            let mut block = vec![0u8; 256 * 1024];
            let mut filled = 0;
            // Fill the block: fewer, larger hand-overs.
            while filled < block.len() {
                match gz.read(&mut block[filled..]) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            if filled == 0 {
                return;
            }
            block.truncate(filled);
            if tx.send(Ok(block)).is_err() {
                return;
            }
        }
    });
    ThreadReader {
        rx,
        block: Vec::new(),
        pos: 0,
    }
}

/// Raised (inside an `io::Error`) when content goes past `--max-input-bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "stopped after {limit} bytes of content: the input is larger than --max-input-bytes allows (a compressed file counts its decompressed size)"
)]
pub struct InputTooLarge {
    pub limit: u64,
}

/// Counts content bytes and fails the read that goes past the limit.
struct Limited<R> {
    inner: R,
    read: u64,
    limit: u64,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read = self.read.saturating_add(n as u64);
        if self.read > self.limit {
            return Err(io::Error::other(InputTooLarge { limit: self.limit }));
        }
        Ok(n)
    }
}

fn read_prefix<'a>(
    display: &str,
    mut raw: Box<dyn Read + 'a>,
) -> Result<(Vec<u8>, Box<dyn Read + 'a>)> {
    let mut prefix = Vec::with_capacity(PREFIX_LEN);
    (&mut raw)
        .take(PREFIX_LEN as u64)
        .read_to_end(&mut prefix)
        .map_err(|e| Error::Io {
            path: display.to_string(),
            source: e,
        })?;
    Ok((prefix, raw))
}

/// Like [`open`], over any reader (a ZIP entry, a test buffer).
pub fn open_reader<'a>(
    display: &str,
    raw: Box<dyn Read + 'a>,
    forced: Option<TextEncoding>,
) -> Result<Opened<'a>> {
    open_reader_limited(display, raw, forced, None)
}

/// Like [`open_reader`], with the content limit of [`open_limited`].
pub fn open_reader_limited<'a>(
    display: &str,
    raw: Box<dyn Read + 'a>,
    forced: Option<TextEncoding>,
    limit: Option<u64>,
) -> Result<Opened<'a>> {
    let (mut prefix, mut raw) = read_prefix(display, raw)?;
    let gzipped = prefix.starts_with(GZIP_MAGIC);
    if gzipped {
        // AWS CUR ships `.csv.gz`; concatenated members are one stream.
        let whole: Box<dyn Read + 'a> = Box::new(Cursor::new(prefix).chain(raw));
        let gz: Box<dyn Read + 'a> = Box::new(flate2::read::MultiGzDecoder::new(whole));
        (prefix, raw) = read_prefix(display, gz)?;
    }
    if parquet::is_parquet(&prefix) {
        let bytes = parquet::read_stream(display, prefix, raw, limit)?;
        let rows = parquet::open_bytes(display, bytes)?;
        let table = limit.is_none().then(|| Box::new(rows.table()));
        let mut opened =
            open_reader_limited(display, Box::new(rows), Some(TextEncoding::Utf8), limit)?;
        opened.parquet = table;
        return Ok(opened);
    }
    if pdf::is_pdf(&prefix) {
        // No file to name: the PDF's bytes are piped to the extractor.
        let mut bytes = prefix;
        raw.take(pdf::MAX_PDF_BYTES.saturating_sub(bytes.len() as u64) + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(Path::new(display), e))?;
        if bytes.len() as u64 > pdf::MAX_PDF_BYTES {
            return Err(Error::input(
                display,
                format!(
                    "this PDF is larger than {} MiB: too large to be an invoice read from a stream; pass it as a file",
                    pdf::MAX_PDF_BYTES / (1024 * 1024)
                ),
            ));
        }
        let text = pdf::extract(display, pdf::Input::Bytes(bytes))?;
        return from_pdf_text(display, text, limit);
    }
    if let Some(limit) = limit {
        if prefix.len() as u64 > limit {
            return Err(Error::input(display, InputTooLarge { limit }.to_string()));
        }
        raw = Box::new(Limited {
            inner: raw,
            read: prefix.len() as u64,
            limit,
        });
    }
    if prefix.is_empty() {
        return Err(Error::input(display, "the file is empty"));
    }
    let (encoding, encoding_note) = match forced {
        Some(TextEncoding::Utf8) => (TextEncoding::Utf8, None),
        Some(e) => (
            e,
            Some("given with --encoding (or the profile's `encoding`)".to_string()),
        ),
        None => match decode::sniff_reason(&prefix) {
            (Sniffed::Text(e), why) => (e, why),
            (Sniffed::Binary(what), _) => {
                if let Some(e) = stray_nul(display, &prefix) {
                    return Err(e);
                }
                return Err(Error::input(
                    display,
                    format!("this is {what}, not a bill (CSV export or text invoice)"),
                ));
            }
        },
    };
    let prefix_text = decode::decode_prefix(&prefix, encoding);
    let complete = prefix.len() < PREFIX_LEN;
    let reader: Box<dyn Read + 'a> = match encoding {
        // UTF-8 goes through as it is, without a BOM: no decoder layer
        // copying every byte through a small buffer.
        TextEncoding::Utf8 => {
            let bom = if prefix.starts_with(b"\xEF\xBB\xBF") {
                3
            } else {
                0
            };
            let mut whole = Cursor::new(prefix);
            whole.set_position(bom);
            Box::new(whole.chain(raw))
        }
        _ => decode::utf8_reader(Cursor::new(prefix).chain(raw), encoding),
    };
    Ok(Opened {
        encoding,
        encoding_note,
        prefix_text,
        reader,
        seekable: None,
        gzipped,
        pdf: false,
        parquet: None,
        complete,
    })
}

/// The text extracted from a PDF, opened as UTF-8 content.
fn from_pdf_text<'a>(display: &str, text: String, limit: Option<u64>) -> Result<Opened<'a>> {
    let mut opened = open_reader_limited(
        display,
        Box::new(Cursor::new(text.into_bytes())),
        Some(TextEncoding::Utf8),
        limit,
    )?;
    opened.pdf = true;
    Ok(opened)
}

/// Text with a few NUL bytes in it (a damaged or hand-edited export) is
/// named by the line of the first NUL, not called binary.
fn stray_nul(display: &str, prefix: &[u8]) -> Option<Error> {
    let nuls = prefix.iter().filter(|b| **b == 0).count();
    let at = prefix.iter().position(|b| *b == 0)?;
    // Text apart from its NULs: no other control bytes, valid UTF-8 (a
    // character cut by the end of the prefix is fine).
    let rest: Vec<u8> = prefix.iter().copied().filter(|b| *b != 0).collect();
    let clean = rest
        .iter()
        .all(|b| *b >= 0x20 || matches!(*b, b'\t' | b'\n' | b'\r'));
    let utf8 = match std::str::from_utf8(&rest) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    if nuls * 20 > prefix.len() || !clean || !utf8 {
        return None;
    }
    let line = 1 + prefix[..at].iter().filter(|b| **b == b'\n').count() as u64;
    let line_start = prefix[..at]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line_end = prefix[at..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(prefix.len(), |i| at + i);
    let text = String::from_utf8_lossy(&prefix[line_start..line_end]);
    // Characters, not bytes, before the NUL: the caret lines up under CJK text.
    let char_col = String::from_utf8_lossy(&prefix[line_start..at])
        .chars()
        .count()
        + 1;
    Some(
        Error::at_line(
            display,
            line,
            format!(
                "a NUL byte (byte {} of the file): this text is damaged or not a CSV export; remove the NUL bytes, or pass --encoding if it is UTF-16",
                at + 1
            ),
        )
        .with_column(char_col as u64)
        .with_snippet(crate::error::snippet(line, &text, char_col, 1, "NUL byte")),
    )
}

/// Whether a source is a ZIP archive (by its first bytes).
pub fn is_zip(source: &Source) -> bool {
    match &source.origin {
        Origin::File(p) => {
            let mut magic = [0u8; 4];
            File::open(p)
                .and_then(|mut f| f.read_exact(&mut magic))
                .is_ok()
                && magic == ZIP_MAGIC
        }
        Origin::Stdin => false,
    }
}

/// Split parts: `bill_1.csv`, `bill_2.csv` -> (`bill`, `.csv`, n). Parts
/// with the same stem, extension and folder belong to one bill.
///
/// The part number is the end of the name before the extension, after a
/// separator ([`part_number`]): `_` or `-part-` and 1-3 digits or 4-5
/// digits with a leading zero (`bill_2`, `cur_00001`, `bill-part-0002`),
/// `-` and 5 digits with a leading zero (`cur-00001`), or `.` and 2-5
/// digits with a leading zero (`bill.001`). A year (`cost_2024`) or the end
/// of a date (`cost-2024-11`, `koku_2023-06-01`) is never a part number.
/// See docs/formats.md, "Split parts".
pub fn part_key(path: &Path) -> Option<(PathBuf, String, u32)> {
    let name = path.file_name()?.to_str()?;
    let lower = name.to_ascii_lowercase();
    let ext_at = [
        "csv.gz",
        "tsv.gz",
        "csv",
        "tsv",
        "txt",
        "snappy.parquet",
        "zstd.parquet",
        "gz.parquet",
        "parquet",
    ]
    .iter()
    .find_map(|e| lower.strip_suffix(&format!(".{e}")).map(|s| s.len()))?;
    let (base, n) = part_number(&name[..ext_at])?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Some((dir.join(base), name[ext_at..].to_ascii_lowercase(), n))
}

/// A file stem (the name without its extension) as (base, part number),
/// when it ends in a part number (see [`part_key`]).
pub fn part_number(stem: &str) -> Option<(&str, u32)> {
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (rest, n) = stem.split_at(stem.len() - digits);
    let sep = rest.chars().last()?;
    let base = &rest[..rest.len() - sep.len_utf8()];
    let padded = n.starts_with('0');
    let short_or_padded = (1..=3).contains(&digits) || ((4..=5).contains(&digits) && padded);
    let fits = match sep {
        '_' => short_or_padded,
        // `-part-0002`; a bare `-` only before 5 zero-padded digits (AWS
        // exports, `-00001`): `invoice-001`, `invoice-002` are two invoices.
        '-' if base.to_ascii_lowercase().ends_with("-part") => short_or_padded,
        '-' => digits == 5 && padded,
        '.' => (2..=5).contains(&digits) && padded,
        _ => false,
    };
    if !fits || base.is_empty() || ends_in_date(stem) {
        return None;
    }
    Some((base, n.parse().ok()?))
}

/// Whether `stem` ends in a year and month (`2024-11`, `2024_11`), or a
/// year, month and day (`2024-11-05`), with one separator (`-`, `_` or `.`),
/// a year 1900-2099 and a month and day of two digits.
fn ends_in_date(stem: &str) -> bool {
    let b = stem.as_bytes();
    let two = |at: usize, lo: u32, hi: u32| {
        b.get(at..at + 2)
            .filter(|d| d.iter().all(u8::is_ascii_digit))
            .map(|d| u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
            .is_some_and(|v| (lo..=hi).contains(&v))
    };
    let year = |at: usize| {
        b.get(at..at + 4).is_some_and(|y| {
            y.iter().all(u8::is_ascii_digit) && (y.starts_with(b"19") || y.starts_with(b"20"))
        })
    };
    // Not part of a longer number: `12024-11` is no date.
    let starts_clean = |at: usize| at == 0 || !b[at - 1].is_ascii_digit();
    let seps = |a: usize, c: usize| {
        matches!(b[a], b'-' | b'_' | b'.') && (c == usize::MAX || b[c] == b[a])
    };
    let len = b.len();
    // YYYY S MM
    if len >= 7 {
        let y = len - 7;
        if year(y) && starts_clean(y) && seps(y + 4, usize::MAX) && two(y + 5, 1, 12) {
            return true;
        }
    }
    // YYYY S MM S DD
    if len >= 10 {
        let y = len - 10;
        if year(y)
            && starts_clean(y)
            && seps(y + 4, y + 7)
            && two(y + 5, 1, 12)
            && two(y + 8, 1, 31)
        {
            return true;
        }
    }
    false
}

/// Groups the sources into bills: split parts of one bill together (in part
/// order), everything else alone, in the order first seen.
pub fn group_parts(sources: Vec<Source>) -> Vec<Vec<Source>> {
    type Key = Option<(PathBuf, String)>;
    let mut groups: Vec<(Key, Vec<(u32, Source)>)> = Vec::new();
    for s in sources {
        let key = match &s.origin {
            Origin::File(p) => part_key(p),
            Origin::Stdin => None,
        };
        match key {
            Some((stem, ext, n)) => {
                let k = Some((stem, ext));
                match groups.iter_mut().find(|(g, _)| *g == k) {
                    Some((_, parts)) => parts.push((n, s)),
                    None => groups.push((k, vec![(n, s)])),
                }
            }
            None => groups.push((None, vec![(0, s)])),
        }
    }
    groups
        .into_iter()
        .map(|(_, mut parts)| {
            parts.sort_by_key(|(n, _)| *n);
            parts.into_iter().map(|(_, s)| s).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
