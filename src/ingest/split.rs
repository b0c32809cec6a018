//! Fast CSV record splitting of bytes in memory (a worker's range), with the
//! csv crate as the reference and the fallback (issue 18).
//!
//! [`Splitter`] reads the records of a buffer into the same
//! [`csv::ByteRecord`] the csv crate fills, with the same
//! record starts and lines as the csv crate configured by
//! [`super::csv::reader`] (no headers, flexible, `"` quotes with doubled
//! quotes, CR, LF and CRLF line ends, blank lines skipped) after
//! [`super::csv::true_start`]. It finds the bytes that matter (the
//! delimiter, `"`, CR, LF) 64 bytes at a time as a bit mask, and only looks at
//! those. It models well-formed CSV only: where it meets anything else (a
//! closing quote followed by text, a quote that does not close in the
//! buffer, a record or a run of line ends running past the bytes at hand, a
//! byte-order mark at the start) it says [`Start::Unsure`] or fails the
//! record, and [`RangeRecords`] reads the rest with the csv crate, from the
//! line end before that record, so its output is always the reference's.
//!
//! A quote inside an unquoted cell (`5" screen`) is data for the csv crate,
//! and so it is here.

use std::io::{Chain, Read};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use ::csv::{ByteRecord, Position};

use crate::model::Cells;

mod cells;
mod masked;
pub use cells::{InPlace, Row};

const QUOTE: u8 = b'"';

/// Set (by tests) to read every range with the csv crate alone; the
/// environment variable `BILLAUDIT_CSV_REFERENCE=1` does the same (to time
/// one binary both ways). The output is the same either way.
#[doc(hidden)]
pub static REFERENCE_ONLY: AtomicBool = AtomicBool::new(false);

/// Whether ranges are read with the csv crate alone (see [`REFERENCE_ONLY`]).
pub fn reference_only() -> bool {
    static ENV: OnceLock<bool> = OnceLock::new();
    REFERENCE_ONLY.load(Ordering::Relaxed)
        || *ENV
            .get_or_init(|| std::env::var_os("BILLAUDIT_CSV_REFERENCE").is_some_and(|v| v == "1"))
}

/// Whether the splitter can read CSV with this delimiter.
pub fn supports(delimiter: u8) -> bool {
    !matches!(delimiter, QUOTE | b'\r' | b'\n')
}

/// Where the next record starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// At this byte and line (1-based) of the buffer.
    At(u64, u64),
    /// No record follows: the input ends.
    End,
    /// Not known from the bytes at hand: the csv crate must read on.
    Unsure,
}

/// The records of a buffer (see the module docs).
#[derive(Debug)]
pub struct Splitter<'a> {
    buf: &'a [u8],
    /// Bytes known to follow `buf` (only looked at for where a record starts).
    after: &'a [u8],
    /// The input ends after `after`.
    ends: bool,
    delim: u8,
    /// The csv reader's position of the next record: just past the last
    /// record's line-end byte, and the line there.
    pos: usize,
    line: u64,
    records: u64,
    /// Where the record found by `start` starts, and its line.
    at: usize,
    at_line: u64,
    scan: Scan,
    /// The cells of the record read last with doubled quotes, unescaped,
    /// one after another.
    scratch: Vec<u8>,
    /// The record read last: each cell's `[start, end)` in `buf`, or in
    /// `scratch` shifted by `buf.len()` ([`InPlace`]).
    bounds: Vec<(usize, usize)>,
    /// The bytes of `buf` the record read last spans, its line end aside.
    span: (usize, usize),
    /// The record read last is ASCII throughout (known when read by masks).
    ascii: bool,
}

impl<'a> Splitter<'a> {
    /// The records of `buf`, followed by `after` and then (unless `ends`)
    /// by more input.
    pub fn new(buf: &'a [u8], after: &'a [u8], ends: bool, delim: u8) -> Self {
        Splitter {
            buf,
            after,
            ends,
            delim,
            pos: 0,
            line: 1,
            records: 0,
            at: 0,
            at_line: 1,
            scan: Scan::default(),
            scratch: Vec::new(),
            bounds: Vec::new(),
            span: (0, 0),
            ascii: false,
        }
    }

    /// Steps over the line ends before the next record.
    pub fn start(&mut self) -> Start {
        // A range never starts at the start of the file (the header is read
        // first), so a byte-order mark here is a cell's text, kept as one
        // thread reading the whole file keeps it.
        let (mut i, mut line) = (self.pos, self.line);
        loop {
            let b = match self.buf.get(i) {
                Some(b) => Some(*b),
                None => self.after.get(i - self.buf.len()).copied(),
            };
            match b {
                Some(b'\n') => line += 1,
                Some(b'\r') => {}
                Some(_) => break,
                None if self.ends => {
                    (self.pos, self.line) = (i, line);
                    return Start::End;
                }
                None => return Start::Unsure,
            }
            i += 1;
        }
        (self.at, self.at_line) = (i, line);
        Start::At(i as u64, line)
    }

    /// The csv reader's position after the last record (its `position()`).
    pub fn position(&self) -> (u64, u64) {
        (self.pos as u64, self.line)
    }

    /// Reads the record found by [`start`](Self::start) into `rec`, with
    /// the csv reader's position of it; false when it is not well-formed
    /// CSV within the buffer (`rec` is then undefined). A copy of
    /// [`split`](Self::split)'s cells, for tests and benchmarks.
    pub fn record(&mut self, rec: &mut ByteRecord) -> bool {
        let mut p = Position::new();
        p.set_byte(self.pos as u64)
            .set_line(self.line)
            .set_record(self.records);
        rec.clear();
        if !self.split() {
            return false;
        }
        for cell in self.cells().iter() {
            rec.push_field(cell);
        }
        rec.set_position(Some(p));
        true
    }

    /// The record read last by [`split`](Self::split), in place. Its UTF-8
    /// is checked here once, for every cell (issue 27 item 3).
    pub fn cells(&self) -> InPlace<'_> {
        let (lo, hi) = self.span;
        let utf8 = |b: &'a [u8]| {
            if self.ascii {
                // SAFETY: the masked reader saw no byte of the record with
                // its high bit set (`masked::Read::ascii`): ASCII is UTF-8.
                // The scratch cells are copied from the record's bytes.
                Some(unsafe { std::str::from_utf8_unchecked(b) })
            } else {
                std::str::from_utf8(b).ok()
            }
        };
        InPlace {
            buf: self.buf,
            scratch: &self.scratch,
            bounds: &self.bounds,
            text: self.buf.get(lo..hi).and_then(utf8),
            lo,
            scratch_text: if self.ascii {
                // SAFETY: as above.
                Some(unsafe { std::str::from_utf8_unchecked(&self.scratch) })
            } else {
                std::str::from_utf8(&self.scratch).ok()
            },
        }
    }

    /// Reads the record found by [`start`](Self::start), its cells left
    /// where they are in the buffer ([`cells`](Self::cells)); false when it
    /// is not well-formed CSV within the buffer (the cells are then
    /// undefined).
    pub fn split(&mut self) -> bool {
        let buf = self.buf;
        // Most records: read 64 bytes at a time (`masked`); the rest byte
        // by byte, below.
        if let Some(r) = masked::record(
            buf,
            self.delim,
            self.at,
            &mut self.bounds,
            &mut self.scratch,
        ) {
            self.span = (self.at, r.term);
            self.ascii = r.ascii;
            self.pos = r.term + 1;
            self.line = self.at_line + r.lines + u64::from(buf[r.term] == b'\n');
            self.records += 1;
            return true;
        }
        self.ascii = false;
        let n = buf.len();
        let d = self.delim;
        // A record may end at the buffer's end only at the input's end.
        let eof = self.ends && self.after.is_empty();
        self.bounds.clear();
        self.scratch.clear();
        let mut line = self.at_line;
        let mut i = self.at;
        if i >= n {
            return false;
        }
        // Kept in registers while the record is read.
        let mut scan = std::mem::take(&mut self.scan);
        let (bounds, scratch) = (&mut self.bounds, &mut self.scratch);
        // The record's line-end byte; none at the end of the input.
        let term = loop {
            if buf.get(i) == Some(&QUOTE) {
                let kept = scratch.len();
                let (mut from, mut p) = (i + 1, i + 1);
                let close = loop {
                    let Some(q) = scan.next_from(buf, d, p) else {
                        return false;
                    };
                    p = q + 1;
                    match buf[q] {
                        b'\n' => line += 1,
                        QUOTE => match buf.get(q + 1) {
                            Some(&QUOTE) => {
                                scratch.extend_from_slice(&buf[from..=q]);
                                (from, p) = (q + 2, q + 2);
                            }
                            Some(_) => break q,
                            None if eof => break q,
                            None => return false,
                        },
                        _ => {}
                    }
                };
                if scratch.len() == kept {
                    bounds.push((from, close));
                } else {
                    scratch.extend_from_slice(&buf[from..close]);
                    bounds.push((n + kept, n + scratch.len()));
                }
                match buf.get(close + 1) {
                    Some(&b) if b == d => i = close + 2,
                    Some(b'\r' | b'\n') => break Some(close + 1),
                    None if eof => break None,
                    // Text after a closing quote, or bytes not at hand.
                    _ => return false,
                }
            } else {
                // An unquoted cell: up to the next delimiter or line end.
                let mut p = i;
                let end = loop {
                    match scan.next_from(buf, d, p) {
                        Some(q) if buf[q] == QUOTE => p = q + 1,
                        other => break other,
                    }
                };
                match end {
                    Some(q) => {
                        bounds.push((i, q));
                        if buf[q] != d {
                            break Some(q);
                        }
                        i = q + 1;
                    }
                    None if eof => {
                        bounds.push((i.min(n), n));
                        break None;
                    }
                    None => return false,
                }
            }
        };
        self.scan = scan;
        self.span = (self.at, term.unwrap_or(n));
        self.pos = match term {
            Some(t) => {
                line += u64::from(buf[t] == b'\n');
                t + 1
            }
            None => n,
        };
        self.line = line;
        self.records += 1;
        true
    }

    /// Where the csv crate must take over: its input from byte `base` (the
    /// last record's line-end byte, or the start), and the line there less
    /// one (the csv reader counts lines from 1).
    fn resume_point(&self) -> (usize, u64) {
        if self.records == 0 || self.pos == 0 {
            return (0, 0);
        }
        let base = self.pos - 1;
        let lf = u64::from(self.buf.get(base) == Some(&b'\n'));
        (base, self.line - 1 - lf)
    }
}

/// The bytes of a buffer that matter (the delimiter, `"`, CR, LF), 64 at a
/// time.
#[derive(Debug, Default, Clone, Copy)]
struct Scan {
    /// The block `mask` is of (its first byte), plus one; 0 for none.
    block: usize,
    mask: u64,
}

impl Scan {
    /// The first byte at or after `from` that matters.
    #[inline(always)]
    fn next_from(&mut self, buf: &[u8], delim: u8, from: usize) -> Option<usize> {
        if from >= buf.len() {
            return None;
        }
        let mut block = from & !63;
        if self.block != block + 1 {
            self.block = block + 1;
            self.mask = structural(buf, block, delim);
        }
        let mut m = self.mask & (!0u64 << (from - block));
        loop {
            if m != 0 {
                self.mask = m;
                return Some(block + m.trailing_zeros() as usize);
            }
            block += 64;
            if block >= buf.len() {
                return None;
            }
            self.block = block + 1;
            m = structural(buf, block, delim);
            self.mask = m;
        }
    }
}

/// Bit `i` set when byte `block + i` of `buf` is the delimiter, `"`, CR or
/// LF (bits past the end of `buf` clear): the masked reader's masks of the
/// block ([`masked::masks`]), together.
#[inline(always)]
fn structural(buf: &[u8], block: usize, delim: u8) -> u64 {
    let [q, d, lf, cr, _] = masked::masks(buf, block, delim);
    let m = q | d | lf | cr;
    match buf.len().saturating_sub(block) {
        0 => 0,
        n if n < 64 => m & (!0u64 >> (64 - n)),
        _ => m,
    }
}

/// What [`RangeRecords::next`] read.
#[derive(Debug)]
pub enum Next {
    /// A record starting before the limit, at this byte and line.
    Record { at: u64, line: u64 },
    /// A record starting at or past the limit (not read by the splitter).
    Beyond { at: u64, line: u64 },
    /// No record follows; where the reader stopped (its `position()`).
    End { at: u64, line: u64 },
    /// A read error of the input past the bytes at hand.
    Failed(::csv::Error),
}

type Input<'a, R> = Chain<Chain<Chain<&'static [u8], &'a [u8]>, &'a [u8]>, R>;

/// What the csv crate reads before a range: one line end. The crate drops
/// a byte-order mark at the start of its input, and a range is never the
/// start of the file (the header is read first): after this blank line,
/// which the crate skips, a mark at the range's start is a cell's text, as
/// for one thread reading the whole file. Positions are one byte and one
/// line less than the crate says.
pub const BEFORE: &[u8] = b"\n";

/// The csv crate reading from byte `base` of the input, its lines `lo`
/// less than the input's (both less [`BEFORE`]).
struct Reference<'a, R> {
    rdr: ::csv::Reader<Input<'a, R>>,
    base: u64,
    lo: u64,
}

/// The records of a range in memory: the [`Splitter`] while the CSV is
/// well-formed, the csv crate from there on (or throughout, with
/// [`reference_only`]). Byte offsets and lines count from the range's
/// start; a record's start is where [`super::csv::true_start`] puts it.
pub struct RangeRecords<'a, R> {
    /// The bytes at hand: `raw[0]`, then `raw[1]`, then `rest`.
    raw: [&'a [u8]; 2],
    rest: Option<R>,
    limit: u64,
    delim: u8,
    fast: Option<Splitter<'a>>,
    reference: Option<Reference<'a, R>>,
}

impl<'a, R: Read> RangeRecords<'a, R> {
    /// The records of the input `raw[0]`, `raw[1]`, `rest` (`ends`: `rest`
    /// is empty and the input ends with `raw[1]`) that start before `limit`,
    /// then the start of the next one. The splitter reads records within
    /// `raw[0]` only.
    pub fn new(raw: [&'a [u8]; 2], rest: R, ends: bool, limit: u64, delim: u8) -> Self {
        let fast = (supports(delim) && !reference_only())
            .then(|| Splitter::new(raw[0], raw[1], ends, delim));
        let mut r = RangeRecords {
            raw,
            rest: Some(rest),
            limit,
            delim,
            fast,
            reference: None,
        };
        if r.fast.is_none() {
            r.reference = r.open(0, 0);
        }
        r
    }

    /// The csv crate reading the input from byte `base` (within `raw[0]`).
    fn open(&mut self, base: usize, lo: u64) -> Option<Reference<'a, R>> {
        let rest = self.rest.take()?;
        let first = self.raw[0].get(base..).unwrap_or_default();
        let input = BEFORE.chain(first).chain(self.raw[1]).chain(rest);
        let mut rdr = super::csv::reader(input, self.delim);
        // The csv crate keeps two copies of a reader's first record (as its
        // headers, even without headers), and a reader opened here may well
        // start with a huge one (an unclosed quote): it is given empty
        // headers instead, which its first call hands back, reading nothing.
        rdr.set_byte_headers(ByteRecord::new());
        let _ = rdr.read_byte_record(&mut ByteRecord::new());
        Some(Reference {
            rdr,
            base: base as u64,
            lo,
        })
    }

    /// The record the last [`next`](Self::next) read (given its `rec`),
    /// when it said [`Next::Record`].
    pub fn cells<'s>(&'s self, rec: &'s ByteRecord) -> Row<'s> {
        match &self.fast {
            Some(sp) => Row::InPlace(sp.cells()),
            None => Row::Record(rec),
        }
    }

    /// The byte at `at` of the input, when it is at hand.
    pub fn byte(&self, at: u64) -> Option<u8> {
        byte_of(self.raw, at)
    }

    /// The next record: read in place by the splitter, or by the csv
    /// crate into `rec`; [`cells`](Self::cells) gives it either way.
    pub fn next(&mut self, rec: &mut ByteRecord) -> Next {
        if let Some(sp) = &mut self.fast {
            match sp.start() {
                Start::At(at, line) if at >= self.limit => return Next::Beyond { at, line },
                Start::At(at, line) => {
                    if sp.split() {
                        return Next::Record { at, line };
                    }
                }
                Start::End => {
                    let (at, line) = sp.position();
                    return Next::End { at, line };
                }
                Start::Unsure => {}
            }
            // Not well-formed, or not within the bytes: the csv crate reads
            // on from the line end before this record.
            let (base, lo) = sp.resume_point();
            self.fast = None;
            self.reference = self.open(base, lo);
        }
        let raw = self.raw;
        let Some(r) = &mut self.reference else {
            return Next::End { at: 0, line: 1 };
        };
        match r.rdr.read_byte_record(rec) {
            Ok(true) => {
                let p = rec.position().cloned().unwrap_or_else(Position::new);
                let (byte, line) = r.unshift(p.byte(), p.line());
                let mut q = Position::new();
                q.set_byte(byte).set_line(line).set_record(p.record());
                rec.set_position(Some(q));
                let (at, line) = super::csv::true_start((byte, line), |b| byte_of(raw, b));
                if at >= self.limit {
                    Next::Beyond { at, line }
                } else {
                    Next::Record { at, line }
                }
            }
            Ok(false) => {
                let p = r.rdr.position();
                let (at, line) = r.unshift(p.byte(), p.line());
                Next::End { at, line }
            }
            // Only a read error of `rest` (flexible byte records have no
            // other): it carries no position.
            Err(e) => Next::Failed(e),
        }
    }
}

impl<R> Reference<'_, R> {
    /// The input's byte and line of the crate's `byte` and `line`.
    fn unshift(&self, byte: u64, line: u64) -> (u64, u64) {
        let (byte, line) = unshift(byte, line);
        (byte + self.base, line + self.lo)
    }
}

/// The byte and line of the crate's `byte` and `line` when it reads
/// [`BEFORE`] first: one byte and one line less. The crate reports a
/// record where its read began, so the first record after `BEFORE` is
/// reported at the start of `BEFORE`: that is the start of the input, as
/// it was without it (the line ends before a record are skipped by
/// [`super::csv::true_start`] either way).
pub(super) fn unshift(byte: u64, line: u64) -> (u64, u64) {
    let before = BEFORE.len() as u64;
    (byte.saturating_sub(before), line.saturating_sub(1).max(1))
}

fn byte_of(raw: [&[u8]; 2], at: u64) -> Option<u8> {
    let at = usize::try_from(at).ok()?;
    match raw[0].get(at) {
        Some(b) => Some(*b),
        None => raw[1].get(at - raw[0].len()).copied(),
    }
}

#[cfg(test)]
mod tests;
