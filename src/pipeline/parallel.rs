//! One large input read on several threads.
//!
//! The input is cut into ranges of about `chunk_bytes`, just after a line
//! feed. Workers parse, normalise and classify the rows of a range, and run
//! the checks on them into the range's state ([`Bills::range`]); this thread
//! merges the states into the bills strictly in file order, so every bill
//! comes out exactly as one thread would make it (`audit::BillState`). When
//! the items themselves are needed (the item hook), the workers send the
//! rows instead and this thread adds them one by one. A cut is
//! *speculative*: the reader of the range before it proves it by ending its
//! last record exactly there.
//! When a cut was inside a record (a quoted field spanning lines), reading
//! goes on sequentially from the last proven record boundary.
//!
//! Two kinds of input are cut:
//! - a plain file on disk: cut ahead of time, each range read with its own
//!   file handle ([`ingest::chunks`]);
//! - a stream (gzip, a transcoded encoding, standard input, a ZIP entry):
//!   cut into blocks as this thread reads it; a block's reader reads on into
//!   the next block for the record that crosses the cut.
//!
//! At most `workers + 1` ranges wait between the workers and this thread.

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Cursor, Read};
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

use ::csv::ByteRecord;

use super::bills::Bills;
use super::diagnostics::{csv_error, ends_in_open_quote, io_error, shift_error, swallowed};
use super::rows::{Classify, read_rows, record_outcome, shift_lines};
use crate::audit::{Caches, Policy};
use crate::classify::ClassCache;
use crate::error::{Error, Result};
use crate::ingest;
use crate::ingest::csv::Window;
use crate::ingest::split::{Next, RangeRecords, Row};
use crate::model::LineItem;
use crate::normalise::{RowNormaliser, RowOutcome};

/// Where the ranges come from.
pub(super) enum Ranges<'s> {
    /// A plain file: the start offsets of its ranges, and its length.
    File {
        file: &'s Path,
        cuts: Vec<u64>,
        len: u64,
        next: usize,
    },
    /// A stream, cut into blocks as it is read.
    Stream(Blocks<'s>),
}

/// The rows of one range, each with its line counted from the range's start.
type Rows = Vec<(u64, RowOutcome)>;

/// What a worker keeps from range to range: its classification cache, the
/// items of rows already in the bills (to build new rows in), and the buffer
/// a file range is read into.
#[allow(clippy::vec_box)]
type Reuse<'w> = (
    &'w mut ClassCache,
    &'w mut Vec<Box<LineItem>>,
    &'w mut Vec<u8>,
    &'w mut Caches,
);

/// At most this many items of applied rows are kept per worker to build new
/// rows in: about the rows of the ranges in flight (`workers + 1` ranges of
/// at most about 2,048 rows), a few MB.
const SPARE_ITEMS: usize = 8 * 1024;

/// Bytes read past a file range's end with the range: where the next
/// record really starts (after a CRLF or blank lines) is checked in them.
const RANGE_TAIL: u64 = 4 * 1024;

/// At most this much of a range is read at once: a range of a few huge
/// records (a damaged file) is read on from the file as it is parsed.
const RANGE_BUFFER: u64 = 4 << 20;

/// What a worker reads.
enum Job {
    /// `[from, to)` of the file.
    Range { from: u64, to: u64, len: u64 },
    /// A block of the stream at offset `from`, and the block after it (none
    /// for the last block) for the record that crosses the cut.
    Block {
        from: u64,
        data: Arc<Vec<u8>>,
        next: Option<Arc<Vec<u8>>>,
    },
}

/// What one range gave.
struct Chunk<'a> {
    /// Where the range's first record starts.
    start: u64,
    /// The worker that read it (its rows go back there to be freed).
    worker: usize,
    rows: Rows,
    /// The range's rows already added up, checked and tallied (instead of
    /// `rows`), when nothing but the bills needs the items: the bills merge
    /// it in file order ([`Bills::merge`]).
    state: Option<Bills<'a>>,
    /// How many rows the range has.
    count: u64,
    /// Where the first record *not* read starts (the next range's proof),
    /// and its line counted from the range's start.
    end: u64,
    end_line: u64,
    /// The range's last record ran to the end of the bytes its reader had,
    /// before the end of the input: it may be cut short, so none of the
    /// range's rows are trusted.
    unproven: bool,
    error: Option<Error>,
}

impl Chunk<'_> {
    /// A range with nothing read yet, ending where it was cut.
    fn unread(start: u64, worker: usize, rows: Rows, end: u64) -> Self {
        Chunk {
            start,
            worker,
            rows,
            state: None,
            count: 0,
            end,
            end_line: 1,
            unproven: false,
            error: None,
        }
    }
}

/// A stream being cut into blocks.
pub(super) struct Blocks<'s> {
    rest: Box<dyn Read + 's>,
    /// Bytes read after the last cut.
    carry: Vec<u8>,
    /// Offset of `carry[0]` from the start of the stream's data.
    at: u64,
    size: usize,
    /// Bytes and line feeds cut into blocks so far: blocks of short rows
    /// are made smaller (see [`ingest::chunks::range_bytes`]).
    bytes_seen: u64,
    lines_seen: u64,
    ended: bool,
    /// A read error of the stream, kept for the sequential reader to meet
    /// at its place (with its line), as it would have without the blocks.
    failed: Option<io::Error>,
    /// The block read last: it is handed out with the block after it.
    held: Option<(u64, Arc<Vec<u8>>)>,
    /// Blocks handed out whose rows are not in the bills yet, oldest first.
    out: VecDeque<(u64, Arc<Vec<u8>>)>,
}

impl<'s> Blocks<'s> {
    /// `rest` is the stream from the first data row on, its offsets counted
    /// from there.
    pub(super) fn new(rest: Box<dyn Read + 's>, size: u64) -> Self {
        Blocks {
            rest,
            carry: Vec::new(),
            at: 0,
            size: usize::try_from(size.max(1)).unwrap_or(usize::MAX),
            bytes_seen: 0,
            lines_seen: 0,
            ended: false,
            failed: None,
            held: None,
            out: VecDeque::new(),
        }
    }

    /// Reads until `carry` holds `want` bytes or the stream ends (or fails).
    fn fill(&mut self, want: usize) {
        self.carry.reserve(want.saturating_sub(self.carry.len()));
        while !self.ended && self.carry.len() < want {
            let need = (want - self.carry.len()) as u64;
            match (&mut self.rest).take(need).read_to_end(&mut self.carry) {
                Ok(0) => self.ended = true,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = Some(e);
                    self.ended = true;
                }
            }
        }
    }

    /// The next block: about `size` bytes ending just after a line feed
    /// (the rest of the stream at its end).
    fn read_block(&mut self) -> Option<(u64, Arc<Vec<u8>>)> {
        // Until a block has shown how long the rows are, a small one.
        let per_row = match self.lines_seen {
            0 => 1,
            n => self.bytes_seen / n,
        };
        let size = ingest::chunks::range_bytes(self.size as u64, per_row);
        let mut want = usize::try_from(size).unwrap_or(self.size).max(1);
        let cut = loop {
            self.fill(want);
            if self.ended {
                break self.carry.len();
            }
            match memchr::memrchr(b'\n', &self.carry) {
                Some(i) => break i + 1,
                // A line longer than a block: read on.
                None => want = want.saturating_mul(2),
            }
        };
        if cut == 0 {
            return None;
        }
        let tail = self.carry.split_off(cut);
        let block = std::mem::replace(&mut self.carry, tail);
        // The row length is estimated from the start of each block.
        let sample = &block[..block.len().min(64 * 1024)];
        self.bytes_seen += sample.len() as u64;
        self.lines_seen += memchr::memchr_iter(b'\n', sample).count() as u64;
        let from = self.at;
        self.at += cut as u64;
        Some((from, Arc::new(block)))
    }

    fn next_job(&mut self) -> Option<Job> {
        if self.held.is_none() {
            self.held = self.read_block();
        }
        let (from, data) = self.held.take()?;
        // A failed stream gives no further blocks: the sequential reader
        // takes over from the last proven boundary and meets the error.
        if self.failed.is_some() {
            self.held = Some((from, data));
            return None;
        }
        let following = self.read_block();
        self.out.push_back((from, Arc::clone(&data)));
        let next = following.as_ref().map(|(_, d)| Arc::clone(d));
        self.held = following;
        Some(Job::Block { from, data, next })
    }

    /// The stream from offset `at` on: what the blocks still hold, then the
    /// rest of the stream (or its error).
    fn resume(self, at: u64) -> Box<dyn Read + 's> {
        let mut r: Box<dyn Read + 's> = Box::new(io::empty());
        let held = self.held.into_iter();
        let carry = std::iter::once((self.at, Arc::new(self.carry)));
        for (from, data) in self.out.into_iter().chain(held).chain(carry) {
            let end = from + data.len() as u64;
            if end <= at {
                continue;
            }
            let mut c = Cursor::new(Shared(data));
            c.set_position(at.saturating_sub(from));
            r = Box::new(r.chain(c));
        }
        match self.failed {
            Some(e) => Box::new(r.chain(Failed(Some(e)))),
            None => Box::new(r.chain(self.rest)),
        }
    }
}

/// A block shared between this thread and a worker, readable as bytes.
struct Shared(Arc<Vec<u8>>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A reader that gives one stored error.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

impl<'s> Ranges<'s> {
    /// The ranges of `[start, len)` of a plain file.
    pub(super) fn file(file: &'s Path, start: u64, len: u64, chunk: u64) -> io::Result<Self> {
        let cuts = ingest::chunks::cut_points(file, start, len, chunk.max(1))?;
        Ok(Ranges::File {
            file,
            cuts,
            len,
            next: 0,
        })
    }

    fn next_job(&mut self) -> Option<Job> {
        match self {
            Ranges::File {
                cuts, len, next, ..
            } => {
                let from = *cuts.get(*next)?;
                *next += 1;
                let to = cuts.get(*next).copied().unwrap_or(*len);
                Some(Job::Range {
                    from,
                    to,
                    len: *len,
                })
            }
            Ranges::Stream(b) => b.next_job(),
        }
    }

    /// The rows of the range that starts at `start` are in the bills: its
    /// bytes are no longer needed.
    fn applied(&mut self, start: u64) {
        if let Ranges::Stream(b) = self {
            while b.out.front().is_some_and(|(from, _)| *from <= start) {
                b.out.pop_front();
            }
        }
    }

    /// A reader of the input from offset `at` to its end.
    fn resume(self, path: &str, at: u64) -> Result<Box<dyn Read + 's>> {
        match self {
            Ranges::File { file, .. } => {
                let r = ingest::chunks::reader_at(file, at).map_err(|e| io_error(path, e))?;
                Ok(Box::new(r))
            }
            Ranges::Stream(b) => Ok(b.resume(at)),
        }
    }

    /// Whether ranges report their bytes to the progress hook (a stream's
    /// bytes are counted as they are read).
    fn counts_progress(&self) -> bool {
        matches!(self, Ranges::File { .. })
    }
}

/// Reads one large input on several threads (see the module docs).
pub(super) struct Parallel<'a, 'p> {
    pub(super) path: &'a str,
    /// The policy of the bills, for the ranges' checks.
    pub(super) policy: &'p Policy,
    pub(super) delimiter: u8,
    pub(super) workers: usize,
    pub(super) norm: &'a RowNormaliser<'a>,
    pub(super) class: &'a Classify<'a>,
    /// The file, for ranges of a file (read by the workers).
    pub(super) file: Option<&'a Path>,
}

impl<'p> Parallel<'_, 'p> {
    /// Reads the input from offset `start` (line `first_line`) to its end
    /// into the bills; returns the number of rows read.
    pub(super) fn read<'b>(
        &self,
        mut ranges: Ranges<'_>,
        start: u64,
        first_line: u64,
        bills: &mut Bills<'b>,
    ) -> Result<u64>
    where
        'p: 'b,
    {
        let workers = self.workers.max(1);
        let cap = workers + 1;
        let (tx, rx) = mpsc::channel::<(usize, Chunk<'_>)>();
        let (job_tx, job_rx) = mpsc::channel::<(usize, Job)>();
        let job_rx = Mutex::new(job_rx);
        let (returns, returned): (Vec<_>, Vec<_>) =
            (0..workers).map(|_| mpsc::channel::<Rows>()).unzip();
        let counts_progress = ranges.counts_progress();
        let mut rows = 0u64;
        // Where sequential reading must take over: the last proven record
        // boundary and its line, when a cut was not a record boundary.
        let mut resume: Option<(u64, u64)> = None;
        let mut failed: Option<Error> = None;
        std::thread::scope(|scope| {
            for (worker, returned) in returned.into_iter().enumerate() {
                let tx = tx.clone();
                let job_rx = &job_rx;
                scope.spawn(move || {
                    // One classification cache per worker, across its ranges,
                    // and the items of its applied rows, to be built again.
                    let mut cache = ClassCache::default();
                    let mut spare: Vec<Box<LineItem>> = Vec::new();
                    let mut buf: Vec<u8> = Vec::new();
                    let mut caches = Caches::default();
                    loop {
                        let job = match job_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => break,
                        };
                        let Ok((k, job)) = job else { break };
                        // The rows of every applied range that came back:
                        // their items are built again (up to SPARE_ITEMS of
                        // them), the rest dropped here, on the thread that
                        // allocated them. (Taking only the last range back
                        // dropped the others' items, and a worker whose
                        // previous range was still waiting allocated every
                        // item anew: 6% of the CPU in malloc.)
                        let mut recycled = Rows::new();
                        for mut back in returned.try_iter() {
                            for (_, outcome) in back.drain(..) {
                                if let RowOutcome::Item(item) | RowOutcome::WithCredits(item, _) =
                                    outcome
                                {
                                    if spare.len() < SPARE_ITEMS {
                                        spare.push(item);
                                    }
                                }
                            }
                            if back.capacity() > recycled.capacity() {
                                recycled = back;
                            }
                        }
                        let reuse = (&mut cache, &mut spare, &mut buf, &mut caches);
                        let chunk = self.chunk(job, worker, recycled, reuse);
                        if tx.send((k, chunk)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut pending: BTreeMap<usize, Chunk<'_>> = BTreeMap::new();
            let mut expected = (start, first_line);
            let (mut dispatched, mut k_next, mut exhausted) = (0usize, 0usize, false);
            'outer: loop {
                while !exhausted && dispatched - k_next < cap {
                    match ranges.next_job() {
                        Some(job) => {
                            if job_tx.send((dispatched, job)).is_err() {
                                break 'outer;
                            }
                            dispatched += 1;
                        }
                        None => exhausted = true,
                    }
                }
                if k_next == dispatched {
                    // Everything handed out is in the bills.
                    if let Ranges::Stream(b) = &ranges {
                        if b.held.is_some() {
                            // The stream failed: read on sequentially to its error.
                            resume = Some(expected);
                        }
                    }
                    break;
                }
                let Ok((k, chunk)) = rx.recv() else { break };
                pending.insert(k, chunk);
                while let Some(mut chunk) = pending.remove(&k_next) {
                    k_next += 1;
                    if chunk.start != expected.0 || chunk.unproven {
                        // The cut was inside a record: read on from the proof.
                        resume = Some(expected);
                        break 'outer;
                    }
                    let by = expected.1 - 1;
                    if let Some(mut state) = chunk.state.take() {
                        state.shift_lines(by);
                        bills.merge(state);
                        rows += chunk.count;
                    }
                    for (line, outcome) in &mut chunk.rows {
                        shift_lines(outcome, by);
                        let (opts, path) = (self.class.opts, self.path);
                        bills.add_outcome(outcome, *line + by, |i| super::seen(opts, path, i));
                        rows += 1;
                    }
                    // The rows go back to the worker that made them, to be
                    // freed there (freeing on this thread costs far more).
                    let _ = returns[chunk.worker].send(std::mem::take(&mut chunk.rows));
                    ranges.applied(chunk.start);
                    if let Some(e) = chunk.error {
                        failed = Some(shift_error(e, by));
                        break 'outer;
                    }
                    if counts_progress {
                        if let Some(h) = &self.class.opts.progress {
                            (h.0)(chunk.end - chunk.start, 0);
                        }
                    }
                    expected = (chunk.end, expected.1 + chunk.end_line - 1);
                }
            }
            // Unblock the workers: no more jobs, and nobody listens.
            drop(job_tx);
            drop(rx);
        });
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some((offset, line)) = resume {
            let reader = ranges.resume(self.path, offset)?;
            // A line end first, as for a range ([`ingest::split::BEFORE`]): a
            // byte-order mark where reading resumes is the row's text. Its
            // line is the reader's first, so the rows' are one more.
            let mut window = Window::new(ingest::split::BEFORE.chain(reader));
            window.forget();
            let mut rdr = ingest::csv::reader(window, self.delimiter);
            let offset = line.saturating_sub(2);
            rows += read_rows(&mut rdr, offset, self.norm, self.class, bills, self.path)?;
        }
        Ok(rows)
    }

    /// Reads the records that start in the job's range.
    fn chunk(&self, job: Job, worker: usize, rows: Rows, reuse: Reuse<'_>) -> Chunk<'p> {
        let (cache, spare, buf, caches) = reuse;
        match job {
            Job::Range { from, to, len } => {
                // The range and a little more are read at once; a last
                // record running on past them is read on from the file.
                let read = |buf: &mut Vec<u8>| -> io::Result<(usize, ingest::chunks::RangeReader)> {
                    let file = self.file.ok_or_else(|| io::Error::other("no file"))?;
                    let end = (to + RANGE_TAIL)
                        .min(len)
                        .min(from + RANGE_BUFFER)
                        .max(from);
                    let n = usize::try_from(end - from).unwrap_or(0);
                    // The buffer only grows (and is zeroed) to the largest range.
                    if buf.len() < n {
                        buf.resize(n, 0);
                    }
                    // One reader: the buffer first, then on past it.
                    let mut r = ingest::chunks::range_reader(file, from, to)?;
                    r.read_exact(&mut buf[..n])?;
                    Ok((n, r))
                };
                match read(buf) {
                    Ok((n, tail)) => {
                        let raw = [&buf[..n], &[]];
                        // The file's end is met by reading on (the csv
                        // crate), as the file may have grown since `len`.
                        self.parse(
                            (raw, tail, false),
                            (from, to),
                            None,
                            (worker, rows),
                            (cache, spare, caches),
                        )
                    }
                    Err(e) => Chunk {
                        error: Some(io_error(self.path, e)),
                        ..Chunk::unread(from, worker, rows, to)
                    },
                }
            }
            Job::Block { from, data, next } => {
                let to = from + data.len() as u64;
                // Bytes the reader has; `None` when they run to the input's end.
                let available = next.as_ref().map(|n| data.len() + n.len());
                let next: &[u8] = next.as_deref().map_or(&[], Vec::as_slice);
                let raw = [data.as_slice(), next];
                self.parse(
                    (raw, io::empty(), available.is_none()),
                    (from, to),
                    available,
                    (worker, rows),
                    (cache, spare, caches),
                )
            }
        }
    }

    /// Parses the records of the input `raw[0]`, `raw[1]`, `rest` (`ends`:
    /// the input ends with `raw[1]`), positioned at `from`, that start before
    /// `to`, for `worker` into its recycled `rows`. `available` is how many
    /// bytes the reader has when that is not the end of the input.
    #[allow(clippy::too_many_arguments, clippy::vec_box)]
    fn parse<R: Read>(
        &self,
        (raw, rest, ends): ([&[u8]; 2], R, bool),
        (from, to): (u64, u64),
        available: Option<usize>,
        (worker, rows): (usize, Rows),
        (cache, spare, caches): (&mut ClassCache, &mut Vec<Box<LineItem>>, &mut Caches),
    ) -> Chunk<'p> {
        let mut chunk = Chunk::unread(from, worker, rows, to);
        // The checks run here unless something needs the items themselves
        // (the item hook of `billaudit lines` and `convert`).
        let opts = self.class.opts;
        if opts.item_hook.is_none() {
            chunk.state = Some(Bills::range(self.policy, std::mem::take(caches)));
        }
        // The fast splitter while the CSV is well-formed, the csv crate
        // (the reference) from where it is not.
        let mut records = RangeRecords::new(raw, rest, ends, to - from, self.delimiter);
        let mut rec = ByteRecord::new();
        let (mut last_at, mut last_start) = (0u64, 0u64);
        loop {
            let (at, line) = match records.next(&mut rec) {
                Next::Record { at, line } => (at, line),
                Next::Beyond { at, line } => {
                    chunk.end = from + at;
                    chunk.end_line = line;
                    break;
                }
                Next::End { at, line } => {
                    chunk.end = from + at;
                    chunk.end_line = line;
                    if available.is_some() {
                        // The bytes ran out inside the range's last record,
                        // not at the input's end.
                        chunk.unproven = true;
                    } else if chunk.count > 0 {
                        let delimiter = self.delimiter;
                        let open = ends_in_open_quote(last_at, at, delimiter, |b| records.byte(b));
                        if let Err(e) = swallowed(self.path, last_start, chunk.end_line, 0, open) {
                            chunk.error = Some(e);
                        }
                    }
                    break;
                }
                Next::Failed(e) => {
                    chunk.error = Some(csv_error(self.path, &e));
                    break;
                }
            };
            debug_assert!(from + at < to);
            (last_at, last_start) = (at, line);
            // Each kind of record with its own code (no dynamic call per cell).
            let (remark, mut outcome) = match records.cells(&rec) {
                Row::InPlace(c) => record_outcome(self.norm, self.class, line, &c, spare, cache),
                Row::Record(r) => record_outcome(self.norm, self.class, line, r, spare, cache),
            };
            chunk.count += 1;
            if let Some(mut remark) = remark {
                match &mut chunk.state {
                    Some(state) => state.add_outcome(&mut remark, line, |_| {}),
                    None => chunk.rows.push((line, remark)),
                }
            }
            match &mut chunk.state {
                Some(state) => {
                    state.add_outcome(&mut outcome, line, |_| {});
                    // The item is built again for the next row.
                    if let RowOutcome::Item(item) = outcome {
                        if spare.len() < SPARE_ITEMS {
                            spare.push(item);
                        }
                    }
                }
                None => chunk.rows.push((line, outcome)),
            }
        }
        if let Some(state) = &mut chunk.state {
            *caches = state.take_caches();
        }
        chunk
    }
}
