//! Runs the stages in order for one input: ingest -> normalise -> classify
//! -> audit. Rows stream through one at a time; only per-bill totals and
//! findings are kept.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{Cursor, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ::csv::ByteRecord;
use rayon::prelude::*;

use crate::audit::{Bill, BillBuilder, Policy};
use crate::classify::user::{BoundRules, UserRules};
use crate::classify::{ClassCache, Classifier};
use crate::error::{Error, InputError, Result};
use crate::ingest::csv::Window;
use crate::ingest::text::{self, LineKind};
use crate::ingest::{self, Opened, Source, TextEncoding, archive};
use crate::model::{Check, Finding, LineItem};
use crate::normalise::date::{DateOrder, DateScan};
use crate::normalise::number::DecimalMark;
use crate::normalise::profile::{
    self, ColumnMap, ColumnOverrides, CostBasis, MissingColumns, Profile,
};
use crate::normalise::profiles;
use crate::normalise::{HEADER_SEARCH_ROWS, RowNormaliser, RowOutcome, SkipReason, detect_header};
use crate::vocab::summary::SummaryKind;

mod configured;
mod parallel;
pub use configured::UnknownProfile;
use parallel::{Blocks, Parallel, Ranges};

/// What the content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputKind {
    /// Decide from the content.
    #[default]
    Auto,
    Csv,
    Text,
}

/// Everything that shapes one audit run.
#[derive(Debug, Clone)]
pub struct Options {
    pub encoding: Option<TextEncoding>,
    pub columns: ColumnOverrides,
    pub input: InputKind,
    pub policy: Policy,
    /// Profiles tried in order on each header candidate.
    pub profiles: Vec<Profile>,
    /// `profiles` is the single profile the user named (`--profile`): its
    /// signature is not required.
    pub forced_profile: bool,
    /// Which cost column is the amount (`--cost`), where a profile has a choice.
    pub cost: CostBasis,
    /// Audit split parts (`bill_1.csv`, `bill_2.csv`) as one bill.
    pub merge: bool,
    pub classifier: Classifier,
    /// Stop at the first input error instead of auditing the rest.
    pub fail_fast: bool,
    /// Told how many bytes and rows have been read, for a progress bar.
    pub progress: Option<ProgressHook>,
    /// When and how a large file is read on several threads.
    pub parallel: Parallelism,
    /// The field delimiter, instead of sniffing it (a user profile's
    /// `delimiter`, applied with `--profile`).
    pub delimiter: Option<u8>,
    /// User rules (billaudit.toml `[[rule]]`), tried before `classifier`.
    pub user_rules: UserRules,
    /// Shown every classified line item as it streams by (`billaudit lines`).
    pub item_hook: Option<ItemHook>,
    /// Stop an input once this many bytes of content (decompressed) have
    /// been read (`--max-input-bytes`); `None` reads everything.
    pub max_input_bytes: Option<u64>,
}

/// A function shown `(path, item)` for every classified line item.
pub type ItemFn = dyn Fn(&str, &LineItem) + Send + Sync;

/// Receives `(path, item)` for every classified line item.
#[derive(Clone)]
pub struct ItemHook(pub Arc<ItemFn>);

impl fmt::Debug for ItemHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ItemHook")
    }
}

/// Receives `(bytes, rows)` increments while inputs are read.
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Fn(u64, u64) + Send + Sync>);

impl fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressHook")
    }
}

/// A stream is cut into blocks of at most this size: the blocks waiting
/// between the threads are held in memory (a file's ranges are not).
const STREAM_BLOCK_BYTES: u64 = 512 * 1024;

/// Counts bytes as they are read, for the progress hook.
struct Counting<R> {
    inner: R,
    hook: ProgressHook,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.hook.0)(n as u64, 0);
        Ok(n)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            encoding: None,
            columns: Vec::new(),
            input: InputKind::Auto,
            policy: Policy::default(),
            profiles: profiles::builtin(),
            forced_profile: false,
            cost: CostBasis::Billed,
            merge: true,
            classifier: Classifier::default(),
            fail_fast: false,
            progress: None,
            parallel: Parallelism::default(),
            delimiter: None,
            user_rules: UserRules::default(),
            item_hook: None,
            max_input_bytes: None,
        }
    }
}

/// The result of a run over many inputs.
#[derive(Debug, Default)]
pub struct Report {
    pub bills: Vec<Bill>,
    /// Inputs that could not be audited (exit code 2).
    pub errors: Vec<Error>,
    /// Inputs not audited because `--fail-fast` stopped the run.
    pub not_audited: usize,
    /// Expectation results, for `billaudit check`.
    pub expectations: Vec<crate::expect::Outcome>,
}

impl Report {
    /// No bill failed and every input could be read.
    pub fn passed(&self) -> bool {
        self.errors.is_empty() && self.bills.iter().all(|b| b.passed)
    }
}

/// What one input gave.
pub type SourceResult = Result<Vec<Bill>>;

/// One unit of work: an input, the split parts of one bill, or an input
/// that could not even be listed.
type Unit = Result<Vec<Source>>;

/// Audits every path (files, directories, globs, `-`) in parallel and
/// returns the bills sorted by path. With `opts.merge`, split parts
/// (`bill_1.csv`, `bill_2.csv`) are audited as one bill.
pub fn audit_paths(paths: &[String], opts: &Options) -> Report {
    audit_paths_streaming(paths, opts, &mut |_, _| {})
}

/// Like [`audit_paths`], and calls `each` with every input's result as soon
/// as it and all inputs sorted before it are done, so output can stream in
/// a deterministic order while the work runs in parallel. An input that
/// gives bills and errors (a ZIP with a refused entry) calls `each` once per
/// result.
pub fn audit_paths_streaming(
    paths: &[String],
    opts: &Options,
    each: &mut dyn FnMut(&str, &mut SourceResult),
) -> Report {
    let mut sources = ingest::expand_paths(paths);
    sources.sort_by(|a, b| sort_key(a).cmp(sort_key(b)));
    sources.dedup_by(|a, b| a.is_ok() && b.is_ok() && sort_key(a) == sort_key(b));
    let units = units(sources, opts.merge);
    let stop = AtomicBool::new(false);
    let mut report = Report::default();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Option<Vec<SourceResult>>)>();
    std::thread::scope(|scope| {
        let units = &units;
        let stop = &stop;
        scope.spawn(move || {
            units
                .par_iter()
                .enumerate()
                .for_each_with(tx, |tx, (i, unit)| {
                    if stop.load(Ordering::Relaxed) {
                        let _ = tx.send((i, None));
                        return;
                    }
                    let results = match unit {
                        Ok(parts) => audit_unit(parts, opts),
                        Err(e) => vec![Err(e.clone_shallow())],
                    };
                    if opts.fail_fast && results.iter().any(|r| r.is_err()) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    let _ = tx.send((i, Some(results)));
                });
        });
        let mut pending: BTreeMap<usize, Option<Vec<SourceResult>>> = BTreeMap::new();
        let mut next = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&next) {
                next += 1;
                match r {
                    Some(results) => {
                        for mut r in results {
                            each(unit_key(&units[next - 1]), &mut r);
                            match r {
                                Ok(bills) => report.bills.extend(bills),
                                Err(e) => report.errors.push(e),
                            }
                        }
                    }
                    None => report.not_audited += 1,
                }
            }
        }
    });
    report
}

fn sort_key(r: &Result<Source>) -> &str {
    match r {
        Ok(s) => &s.display,
        Err(e) => e.path().unwrap_or(""),
    }
}

fn unit_key(u: &Unit) -> &str {
    match u {
        Ok(parts) => parts.first().map_or("", |s| s.display.as_str()),
        Err(e) => e.path().unwrap_or(""),
    }
}

/// Groups sorted sources into units of work: split parts together when
/// merging, every other input alone; errors stay where they sorted.
fn units(sources: Vec<Result<Source>>, merge: bool) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut run: Vec<Source> = Vec::new();
    let flush = |run: &mut Vec<Source>, out: &mut Vec<Unit>| {
        if merge {
            out.extend(ingest::group_parts(std::mem::take(run)).into_iter().map(Ok));
        } else {
            out.extend(run.drain(..).map(|s| Ok(vec![s])));
        }
    };
    for s in sources {
        match s {
            Ok(s) => run.push(s),
            Err(e) => {
                flush(&mut run, &mut out);
                out.push(Err(e));
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Audits one unit: a single input (a ZIP gives one result per entry) or
/// the split parts of one bill.
fn audit_unit(parts: &[Source], opts: &Options) -> Vec<SourceResult> {
    let (bills, errors) = match parts {
        [one] => audit_source_all(one, opts),
        parts => audit_parts(parts, opts),
    };
    let mut out = Vec::with_capacity(1 + errors.len());
    if !bills.is_empty() || errors.is_empty() {
        out.push(Ok(bills));
    }
    out.extend(errors.into_iter().map(Err));
    out
}

/// Audits one input. A file with several currencies gives one bill each; a
/// ZIP archive gives the bills of each of its CSV entries. The first error
/// (of any entry) is returned; [`audit_paths`] keeps the good entries too.
pub fn audit_source(source: &Source, opts: &Options) -> Result<Vec<Bill>> {
    let (bills, mut errors) = audit_source_all(source, opts);
    if errors.is_empty() {
        Ok(bills)
    } else {
        Err(errors.remove(0))
    }
}

/// Like [`audit_source`], keeping every bill and every error.
fn audit_source_all(source: &Source, opts: &Options) -> (Vec<Bill>, Vec<Error>) {
    if ingest::is_zip(source) {
        let mut bills = Vec::new();
        let errors = archive::for_each_entry(source, |display, entry| {
            bills.extend(audit_entry(display, Box::new(entry), opts)?);
            Ok(())
        });
        return (bills, errors);
    }
    let one = || -> Result<Vec<Bill>> {
        let opened = ingest::open_limited(source, opts.encoding, opts.max_input_bytes)?;
        audit_opened(&source.display, opened, opts)
    };
    match one() {
        Ok(b) => (b, Vec::new()),
        Err(e) => (Vec::new(), vec![e]),
    }
}

/// Audits one ZIP entry, with the same limits as a file.
fn audit_entry(display: &str, entry: Box<dyn Read + '_>, opts: &Options) -> Result<Vec<Bill>> {
    let opened = ingest::open_reader_limited(display, entry, opts.encoding, opts.max_input_bytes)?;
    audit_opened(display, opened, opts)
}

/// Audits an input held in memory, named `name` in findings and errors: the
/// same path as a file on disk, ZIP archives and gzip included. For
/// embedding, tests and the fuzz targets (`fuzz/`).
pub fn audit_bytes(name: &str, bytes: &[u8], opts: &Options) -> Result<Vec<Bill>> {
    if bytes.starts_with(b"PK\x03\x04") {
        let mut bills = Vec::new();
        let mut errors =
            archive::entries(name, std::io::Cursor::new(bytes), &mut |display, entry| {
                bills.extend(audit_entry(display, Box::new(entry), opts)?);
                Ok(())
            });
        return if errors.is_empty() {
            Ok(bills)
        } else {
            Err(errors.remove(0))
        };
    }
    let opened =
        ingest::open_reader_limited(name, Box::new(bytes), opts.encoding, opts.max_input_bytes)?;
    audit_opened(name, opened, opts)
}

/// Audits one opened input, as a CSV export or, when its first rows hold no
/// CSV header (or with `--input text`), as a text invoice.
fn audit_opened(display: &str, opened: Opened<'_>, opts: &Options) -> Result<Vec<Bill>> {
    let delimiter = ingest::csv::sniff_delimiter(&opened.prefix_text);
    let as_text = match opts.input {
        _ if opened.pdf => true,
        InputKind::Text => true,
        InputKind::Csv => false,
        InputKind::Auto => !csv_header_in(&opened.prefix_text, delimiter, opts),
    };
    if as_text {
        let prefix_looks_csv = looks_like_csv(&opened.prefix_text, delimiter);
        if let Some(line) = unclosed_quote(&opened.prefix_text, delimiter) {
            if opts.input == InputKind::Auto {
                let text = opened
                    .prefix_text
                    .lines()
                    .nth(usize::try_from(line.saturating_sub(1)).unwrap_or(0))
                    .unwrap_or_default();
                let col = text.chars().position(|c| c == '"').map_or(1, |i| i + 1);
                return Err(Error::at_line(
                    display,
                    line,
                    format!(
                        "a quoted field opens here and is never closed (it runs on for {UNCLOSED_QUOTE_LINES} lines or to the end of the file), so no header row can be read; close the quote (`\"`) or remove it"
                    ),
                )
                .with_column(col as u64)
                .with_snippet(crate::error::snippet(line, text, col, 1, "this quote is never closed")));
            }
        }
        let (content, bad_lines) = read_all(display, opened.reader)?;
        let invoice = text::parse(&content);
        if invoice.items().next().is_none() && opts.input == InputKind::Auto && prefix_looks_csv {
            return Err(no_header(display, HEADER_SEARCH_ROWS, opts));
        }
        let mut bills = audit_invoice(display, &invoice, &bad_lines, opts)?;
        if opened.pdf {
            for b in &mut bills {
                b.notes.push(ingest::pdf::NOTE.to_string());
            }
        }
        return Ok(bills);
    }
    let mut run = Run::new(display, opts);
    run.feed(display, opened)?;
    run.finish()
}

/// Audits the split parts of one bill in part order, one pass over the rows.
/// A part whose header differs from the first part's starts a bill of its own.
pub fn audit_parts(parts: &[Source], opts: &Options) -> (Vec<Bill>, Vec<Error>) {
    let mut bills = Vec::new();
    let mut errors = Vec::new();
    let names: Vec<&str> = parts.iter().map(|p| p.display.as_str()).collect();
    let display = merged_name(&names);
    let mut run = Run::new(&display, opts);
    for part in parts {
        let opened = match ingest::open_limited(part, opts.encoding, opts.max_input_bytes) {
            Ok(o) => o,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        match run.feed(&part.display, opened) {
            Ok(()) => {}
            Err(Fed::Differs(opened)) => {
                // Not the same bill after all: close the first, audit this alone.
                let done = std::mem::replace(&mut run, Run::new(&part.display, opts));
                match done.finish() {
                    Ok(b) => bills.extend(b),
                    Err(e) => errors.push(e),
                }
                if let Err(e) = run.feed(&part.display, *opened) {
                    errors.push(e.into());
                }
            }
            Err(Fed::Error(e)) => errors.push(e),
        }
    }
    match run.finish() {
        Ok(b) => bills.extend(b),
        Err(e) => errors.push(e),
    }
    (bills, errors)
}

/// `d/huawei_1.csv + huawei_2.csv`: how a merged bill is named in reports.
fn merged_name(names: &[&str]) -> String {
    let mut out = names.first().map(|s| s.to_string()).unwrap_or_default();
    for n in names.iter().skip(1) {
        let file = std::path::Path::new(n)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| n.to_string());
        out.push_str(" + ");
        out.push_str(&file);
    }
    out
}

/// Why a part could not be fed into a run.
enum Fed<'a> {
    /// Its header differs from the run's: the opened part comes back.
    Differs(Box<Opened<'a>>),
    Error(Error),
}

impl From<Error> for Fed<'_> {
    fn from(e: Error) -> Self {
        Fed::Error(e)
    }
}

impl From<Fed<'_>> for Error {
    fn from(f: Fed<'_>) -> Self {
        match f {
            Fed::Error(e) => e,
            Fed::Differs(_) => Error::Usage("a part's header differs".into()),
        }
    }
}

/// One bill being built from one or more inputs with the same header.
struct Run<'o> {
    display: String,
    opts: &'o Options,
    state: Option<RunState<'o>>,
    rows: u64,
    header_line: u64,
    last_path: String,
}

struct RunState<'o> {
    profile: &'o Profile,
    /// The user rules that apply to this file.
    user: BoundRules<'o>,
    map: ColumnMap,
    header: Vec<String>,
    delimiter: u8,
    bills: Bills<'o>,
}

impl<'o> Run<'o> {
    fn new(display: &str, opts: &'o Options) -> Self {
        Run {
            display: display.to_string(),
            opts,
            state: None,
            rows: 0,
            header_line: 1,
            last_path: display.to_string(),
        }
    }

    /// Reads one input's header and streams its rows into the bill.
    fn feed<'r>(&mut self, path: &str, opened: Opened<'r>) -> std::result::Result<(), Fed<'r>> {
        let opts = self.opts;
        let delimiter = opts
            .delimiter
            .unwrap_or_else(|| ingest::csv::sniff_delimiter(&opened.prefix_text));
        let seekable = opened.seekable.clone();
        let later_part = self.state.is_some();
        if let Some(st) = &self.state {
            // A later part: its header must be the first part's.
            let mut probe = ingest::csv::reader(opened.prefix_text.as_bytes(), delimiter);
            let same = probe
                .byte_records()
                .take(HEADER_SEARCH_ROWS)
                .map_while(|r| r.ok())
                .any(|rec| {
                    rec.iter()
                        .map(|c| String::from_utf8_lossy(c).into_owned())
                        .eq(st.header.iter().cloned())
                });
            if !same {
                return Err(Fed::Differs(Box::new(opened)));
            }
        }
        let reader: Box<dyn Read + 'r> = match &opts.progress {
            Some(hook) => Box::new(Counting {
                inner: opened.reader,
                hook: hook.clone(),
            }),
            None => opened.reader,
        };
        // What the header search reads is kept: a stream cannot be read
        // again, and its rows may go to several threads from the header on.
        let window = Window::new(reader);
        let mut rdr = ingest::csv::reader(window, delimiter);
        let mut rec = ByteRecord::new();

        // The header is found, not assumed: title lines above it are skipped.
        let mut found = None;
        let mut searched = 0;
        while searched < HEADER_SEARCH_ROWS {
            match rdr.read_byte_record(&mut rec) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Err(csv_error(path, &e).into()),
            }
            searched += 1;
            let cells: Vec<String> = rec
                .iter()
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect();
            if let Some(state) = &self.state {
                if cells == state.header {
                    found = Some(record_start(&rdr, &rec).1);
                    break;
                }
                continue;
            }
            if let Some((p, map)) = detect_header(
                &opts.profiles,
                &cells,
                searched,
                &opts.columns,
                opts.cost,
                opts.forced_profile,
            ) {
                let line = record_start(&rdr, &rec).1;
                let map = match map {
                    Ok(m) => m,
                    Err(missing) => {
                        let label = "the header row that was recognised";
                        let (col, snip) = header_snippet(line, &cells, delimiter, None, label);
                        let e = missing_columns(path, line, &missing)
                            .with_column(col)
                            .with_snippet(snip);
                        return Err(e.into());
                    }
                };
                let mut bills = Bills::new(
                    &self.display,
                    &p.name,
                    map.header_currency.clone(),
                    &opts.policy,
                );
                bills.currency_note = map.currency_note();
                self.state = Some(RunState {
                    user: opts.user_rules.bind(path, &p.name, &map.names),
                    profile: p,
                    map,
                    header: cells,
                    delimiter,
                    bills,
                });
                found = Some(line);
                break;
            }
        }
        let Some(header_line) = found else {
            if searched == 0 {
                return Err(Error::input(path, "the file has no rows").into());
            }
            return Err(no_header(path, searched, opts).into());
        };
        self.header_line = header_line;
        self.last_path = path.to_string();
        let Some(state) = &mut self.state else {
            return Err(Error::input(path, "no header").into());
        };
        if later_part {
            // A later part: user rules scoped to paths see this part's path,
            // as they do when the part is read alone (`lines`, --no-merge).
            state.user = opts
                .user_rules
                .bind(path, &state.profile.name, &state.map.names);
        }
        // Findings on this part's lines name this part, not the merged bill.
        state.bills.begin_part(path);
        let mark = state.profile.decimal_mark.unwrap_or(if delimiter == b';' {
            DecimalMark::Comma
        } else {
            DecimalMark::Dot
        });
        // The order of slashed dates is decided before any row is dated,
        // from the rows in the prefix, so every thread reads them alike.
        let dates = scan_dates(&opened.prefix_text, delimiter, &state.header, &state.map);
        let norm = RowNormaliser {
            map: &state.map,
            mark,
            path,
            dates: &dates,
        };
        let class = Classify {
            opts,
            user: &state.user,
        };
        let p = opts.parallel;
        let workers = p.threads.unwrap_or_else(rayon::current_num_threads);
        // Where the first data row starts (after the header's line end).
        let (data_start, first_line) = {
            let at = rdr.position();
            ingest::csv::true_start((at.byte(), at.line()), |b| rdr.get_ref().byte(b))
        };
        // A stream's rows on several threads start from what was read so far
        // (`into_rest`); on this thread, only the last bytes are needed.
        let par = |file| Parallel {
            path,
            delimiter,
            workers,
            norm: &norm,
            class: &class,
            file,
        };
        // A stream's length is known only when the header search read all
        // of it (small inputs stay on this thread).
        let stream_is_large = {
            let window = rdr.get_ref();
            let left = window.bytes_read().saturating_sub(data_start);
            window.keeps_all() && (!window.eof() || left >= p.min_bytes)
        };
        let read = (|| -> std::result::Result<u64, Fed<'r>> {
            if workers >= 2 {
                if let Some((file, bom)) = &seekable {
                    // A plain file: its ranges are read at their offsets.
                    let start = bom + data_start;
                    let len = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
                    if len.saturating_sub(start) >= p.min_bytes {
                        drop(rdr);
                        let ranges = Ranges::file(file, start, len, p.chunk_bytes)
                            .map_err(|e| io_error(path, e))?;
                        return Ok(par(Some(file.as_path())).read(
                            ranges,
                            start,
                            first_line,
                            &mut state.bills,
                        )?);
                    }
                } else if stream_is_large {
                    // Cut into blocks from the first data row on.
                    let (seen, inner) = rdr.into_inner().into_rest(data_start);
                    let rest: Box<dyn Read + 'r> = Box::new(Cursor::new(seen).chain(inner));
                    let ranges =
                        Ranges::Stream(Blocks::new(rest, p.chunk_bytes.min(STREAM_BLOCK_BYTES)));
                    return Ok(par(None).read(ranges, 0, first_line, &mut state.bills)?);
                }
            }
            rdr.get_mut().forget();
            Ok(read_rows(
                &mut rdr,
                0,
                &norm,
                &class,
                &mut state.bills,
                path,
            )?)
        })()?;
        self.rows += read;
        let proved = std::mem::take(&mut state.bills.proved);
        if let Some(note) = dates.note(|o| proved[usize::from(o == DateOrder::MonthFirst)]) {
            state.bills.notes.push(note);
        }
        Ok(())
    }

    fn finish(self) -> Result<Vec<Bill>> {
        let Some(state) = self.state else {
            return Err(Error::input(&self.display, "no header row found"));
        };
        if self.rows == 0 {
            let (col, snip) = header_snippet(
                self.header_line,
                &state.header,
                state.delimiter,
                state.map.get(profile::Role::Amount),
                "the amount column; no data row follows",
            );
            return Err(Error::at_line(
                &self.last_path,
                self.header_line,
                format!(
                    "the file has a header but no data rows: nothing to audit (profile {}, columns: {})",
                    state.profile.name,
                    state.map.describe()
                ),
            )
            .with_column(col)
            .with_snippet(snip));
        }
        state.bills.finish(&self.display)
    }
}

/// The file's order of slashed dates (`03/04/2024`), decided from the date
/// cells of the data rows in its prefix (the first 64 KiB, decoded), or
/// stated by the profile. Every row is then dated in that order, on
/// whichever thread reads it; rows past the prefix that prove the other
/// order are noted by the [`DateScan`] as they are read.
fn scan_dates(prefix: &str, delimiter: u8, header: &[String], map: &ColumnMap) -> DateScan {
    use profile::Role;
    let cols: Vec<usize> = [Role::Date, Role::Start, Role::End, Role::Period]
        .into_iter()
        .filter_map(|r| map.get(r))
        .collect();
    let mut cells = Vec::new();
    if !cols.is_empty() {
        let mut rdr = ingest::csv::reader(prefix.as_bytes(), delimiter);
        let mut rec = ByteRecord::new();
        let mut past_header = false;
        // The prefix may end inside the last record: it is not read.
        let mut last = Vec::new();
        while let Ok(true) = rdr.read_byte_record(&mut rec) {
            if !past_header {
                past_header = rec.iter().map(String::from_utf8_lossy).eq(header
                    .iter()
                    .map(|h| std::borrow::Cow::Borrowed(h.as_str())));
                continue;
            }
            cells.append(&mut last);
            for &c in &cols {
                if let Some(t) = rec.get(c).and_then(|b| std::str::from_utf8(b).ok()) {
                    last.push(t.to_string());
                }
            }
        }
        if prefix.ends_with('\n') {
            cells.append(&mut last);
        }
    }
    DateScan::decide(map.date_order, cells.iter().map(String::as_str))
}

/// When a large plain file is read on several threads (ranges of
/// `chunk_bytes`, from `min_bytes` of data on). The result never depends on
/// these: rows are added to the bills in file order either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallelism {
    /// Worker threads; `None` means rayon's (`RAYON_NUM_THREADS`, else the cores).
    pub threads: Option<usize>,
    pub min_bytes: u64,
    pub chunk_bytes: u64,
}

impl Default for Parallelism {
    fn default() -> Self {
        Parallelism {
            threads: None,
            min_bytes: 16 * 1024 * 1024,
            chunk_bytes: ingest::chunks::CHUNK_BYTES,
        }
    }
}

/// What classifies a file's rows: the user's rules (bound to its columns)
/// before the built-in classifier, with the reader's cache.
struct Classify<'a> {
    opts: &'a Options,
    user: &'a BoundRules<'a>,
}

impl Classify<'_> {
    fn one(&self, rec: &ByteRecord, item: &mut LineItem, cache: &mut ClassCache) {
        if self.user.is_empty() || !self.user.classify(rec, item) {
            self.opts.classifier.classify_cached(item, cache);
        }
    }

    /// Classifies what one row gave.
    fn outcome(&self, rec: &ByteRecord, outcome: &mut RowOutcome, cache: &mut ClassCache) {
        match outcome {
            RowOutcome::Item(item) => self.one(rec, item, cache),
            RowOutcome::WithCredits(item, credits) => {
                self.one(rec, item, cache);
                for c in credits {
                    self.opts.classifier.classify(c);
                }
            }
            RowOutcome::Skip(..) | RowOutcome::Stated { .. } => {}
        }
    }
}

/// Moves every line number of a row's outcome by `by` (a range read on its
/// own thread counts lines from its start).
fn shift_lines(outcome: &mut RowOutcome, by: u64) {
    match outcome {
        RowOutcome::Item(item) => item.line += by,
        RowOutcome::WithCredits(item, credits) => {
            item.line += by;
            for c in credits {
                c.line += by;
            }
        }
        RowOutcome::Skip(_, Some(f)) => f.line = f.line.map(|l| l + by),
        RowOutcome::Skip(_, None) | RowOutcome::Stated { .. } => {}
    }
}

/// Adds one classified row's outcome to the bills, in file order, showing
/// each item to the item hook (`billaudit lines`). The outcome is borrowed
/// (only a skip's finding is taken out of it), so that the thread that made
/// it also frees it.
fn apply_outcome(
    bills: &mut Bills<'_>,
    outcome: &mut RowOutcome,
    line: u64,
    opts: &Options,
    path: &str,
) {
    match outcome {
        RowOutcome::Item(item) => {
            seen(opts, path, item);
            bills.add_item(item);
        }
        RowOutcome::WithCredits(item, credits) => {
            seen(opts, path, item);
            bills.add_item(item);
            for c in credits.iter() {
                seen(opts, path, c);
                bills.add_item(c);
            }
        }
        RowOutcome::Skip(reason, finding) => bills.add_skip(*reason, finding.take()),
        RowOutcome::Stated {
            kind,
            amount,
            currency,
        } => {
            bills.add_skip(SkipReason::Summary, None);
            let stated = Some((line, *amount));
            let bill = bills.for_currency(currency);
            // As on a text invoice, the last subtotal and total stated are checked.
            if *kind == SummaryKind::Subtotal {
                bill.stated_subtotal = stated;
            } else {
                bill.stated_total = stated;
            }
        }
    }
}

/// Streams the rows of `rdr` into the bills; lines are the reader's plus
/// `line_offset`. Returns the number of rows read.
fn read_rows<R: Read>(
    rdr: &mut ::csv::Reader<Window<R>>,
    line_offset: u64,
    norm: &RowNormaliser<'_>,
    class: &Classify<'_>,
    bills: &mut Bills<'_>,
    path: &str,
) -> Result<u64> {
    let opts = class.opts;
    let mut rec = ByteRecord::new();
    let mut cache = ClassCache::default();
    // The item of the row just added, to build the next row in.
    let mut spare = Vec::with_capacity(1);
    let mut rows = 0u64;
    // Where the last record started: an unclosed quote swallows the rest of
    // the file into it, and only the end of the file shows that.
    let mut last_start = 0u64;
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => {
                if rows > 0 {
                    swallowed(path, last_start, rdr.position().line(), line_offset)?;
                }
                break;
            }
            Err(e) => return Err(shift_error(csv_error(path, &e), line_offset)),
        }
        let (_, start) = record_start(rdr, &rec);
        last_start = start;
        rows += 1;
        if rows % 16_384 == 0 {
            if let Some(h) = &opts.progress {
                (h.0)(0, 16_384);
            }
        }
        let line = start + line_offset;
        let mut outcome = norm.row_reusing(line, &rec, &mut spare);
        class.outcome(&rec, &mut outcome, &mut cache);
        apply_outcome(bills, &mut outcome, line, opts, path);
        if let RowOutcome::Item(item) = outcome {
            spare.push(item);
        }
    }
    Ok(rows)
}

/// An error when the last record (starting at reader line `start`) ran on
/// for [`UNCLOSED_QUOTE_LINES`] lines or more to the end (reader line `end`):
/// a quote that never closes, not a multi-line cell.
fn swallowed(path: &str, start: u64, end: u64, line_offset: u64) -> Result<()> {
    let lines = end.saturating_sub(start);
    if lines >= UNCLOSED_QUOTE_LINES {
        return Err(Error::at_line(
            path,
            start + line_offset,
            format!(
                "the last row starts here and runs on for {lines} lines to the end of the file: a quoted field is never closed, so those lines would be one cell; close the quote (`\"`) or remove it"
            ),
        ));
    }
    Ok(())
}

fn shift_error(e: Error, by: u64) -> Error {
    match e {
        Error::Input(mut i) => {
            i.line = i.line.map(|l| l + by);
            Error::Input(i)
        }
        other => other,
    }
}

/// Where the record just read starts, as (byte, line) of its reader.
fn record_start<R: Read>(rdr: &::csv::Reader<Window<R>>, rec: &ByteRecord) -> (u64, u64) {
    let at = rec.position().map_or((0, 1), |p| (p.byte(), p.line()));
    ingest::csv::true_start(at, |b| rdr.get_ref().byte(b))
}

#[inline]
fn seen(opts: &Options, path: &str, item: &LineItem) {
    if let Some(h) = &opts.item_hook {
        (h.0)(path, item);
    }
}

/// The header row as a snippet, with a caret under cell `at` (or the whole
/// row), and the 1-based character column of that cell.
fn header_snippet(
    line: u64,
    cells: &[String],
    delimiter: u8,
    at: Option<usize>,
    label: &str,
) -> (u64, String) {
    let sep = char::from(delimiter).to_string();
    let text = cells.join(&sep);
    let (col, width) = match at {
        Some(i) => (
            cells
                .iter()
                .take(i)
                .map(|c| c.chars().count() + 1)
                .sum::<usize>()
                + 1,
            cells.get(i).map_or(1, |c| c.chars().count()),
        ),
        None => (1, text.chars().count()),
    };
    (
        col as u64,
        crate::error::snippet(line, &text, col, width, label),
    )
}

/// A header recognised as a profile's, without a column it cannot do without.
fn missing_columns(path: &str, line: u64, m: &MissingColumns) -> Error {
    let list = m
        .columns
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let what = if m.columns.len() == 1 {
        "column"
    } else {
        "columns"
    };
    Error::at_line(
        path,
        line,
        format!(
            "read as a `{}` export (see `billaudit profiles`), but the required {what} {list} is missing from the header; the bill cannot be audited without it (choose another profile with --profile, or map columns with --columns)",
            m.profile
        ),
    )
}

fn no_header(path: &str, searched: usize, opts: &Options) -> Error {
    if opts.forced_profile {
        let cost = opts
            .profiles
            .first()
            .map(|p| format!("`{}` ({})", p.cost_column, p.name))
            .unwrap_or_default();
        return Error::input(
            path,
            format!(
                "no header row of the forced profile found in the first {searched} rows: its cost column {cost} is missing"
            ),
        );
    }
    Error::input(
        path,
        format!(
            "no header row found in the first {searched} rows: looked for a known export (see `billaudit profiles`) or an amount column ({}) next to a description, quantity or price column; map columns by hand with --columns amount=NAME,description=NAME, or read the file as a text invoice with --input text",
            amount_aliases(&opts.profiles)
        ),
    )
}

/// True when one of the first rows of `prefix` maps as a CSV header.
fn csv_header_in(prefix: &str, delimiter: u8, opts: &Options) -> bool {
    let mut rdr = ingest::csv::reader(prefix.as_bytes(), delimiter);
    let mut rec = ByteRecord::new();
    for row in 1..=HEADER_SEARCH_ROWS {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            // The prefix may end inside a quoted field: what was read counts.
            Ok(false) | Err(_) => return false,
        }
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        if detect_header(
            &opts.profiles,
            &cells,
            row,
            &opts.columns,
            opts.cost,
            opts.forced_profile,
        )
        .is_some()
        {
            return true;
        }
    }
    false
}

/// The largest text invoice read into memory. A text invoice is pages, not
/// gigabytes: anything larger is a CSV export whose header was not found (or
/// a decompression bomb), and is refused instead of filling memory.
pub const MAX_TEXT_INVOICE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a text invoice whole. Invalid UTF-8 is replaced for parsing, and
/// the lines that held it are returned (with the byte in the line) so that
/// an amount on them is reported, never guessed.
fn read_all(path: &str, reader: Box<dyn Read + '_>) -> Result<(String, BTreeMap<u64, usize>)> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_TEXT_INVOICE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(path, e))?;
    if bytes.len() as u64 > MAX_TEXT_INVOICE_BYTES {
        return Err(Error::input(
            path,
            format!(
                "no CSV header was found, and the content is too large ({} MiB or more) to be a text invoice; if it is a CSV export, map its columns with --columns or name its profile with --profile",
                MAX_TEXT_INVOICE_BYTES / (1024 * 1024)
            ),
        ));
    }
    let mut bad = BTreeMap::new();
    let mut rest: &[u8] = &bytes;
    let mut offset = 0usize;
    while let Err(e) = std::str::from_utf8(rest) {
        let at = offset.saturating_add(e.valid_up_to());
        let before = bytes.get(..at).unwrap_or_default();
        let line = 1 + before.iter().filter(|b| **b == b'\n').count() as u64;
        let col = at
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1);
        bad.entry(line).or_insert(col + 1);
        let skip = e.valid_up_to().saturating_add(e.error_len().unwrap_or(1));
        offset = offset.saturating_add(skip);
        rest = rest.get(skip..).unwrap_or_default();
    }
    Ok((String::from_utf8_lossy(&bytes).into_owned(), bad))
}

/// Audits a text invoice through the same bill builder as a CSV export.
fn audit_invoice(
    path: &str,
    invoice: &text::Invoice,
    bad_utf8: &BTreeMap<u64, usize>,
    opts: &Options,
) -> Result<Vec<Bill>> {
    let item_count = invoice.items().count();
    if item_count == 0 {
        return Err(Error::input(
            path,
            format!(
                "no invoice item found in {} non-blank lines: an item is a description followed by its amount, in columns two or more spaces apart or after a leader (`Storage 1 TB ..... $20.00`); see docs/text-invoices.md",
                invoice.lines.len()
            ),
        ));
    }
    let header_currency = invoice.currency.is_some();
    let mut bills = Bills::new(path, text::FORMAT, invoice.currency(), &opts.policy);
    // As for a CSV row: the user's rules first (bound as for a file read with
    // the profile `text-invoice` whose one column is the description), then
    // the built-in classifier.
    let names = [text_description_column()];
    let user = opts.user_rules.bind(path, text::FORMAT, &names);
    let classify = |item: &mut LineItem| {
        let rec = ByteRecord::from(vec![item.description.as_str()]);
        if user.is_empty() || !user.classify(&rec, item) {
            opts.classifier.classify(item);
        }
    };
    for line in &invoice.lines {
        if let (Some(byte), LineKind::Item(_) | LineKind::Summary(_)) =
            (bad_utf8.get(&line.line), &line.kind)
        {
            // As in a CSV cell: a line with invalid UTF-8 is reported, not guessed.
            let finding = Finding {
                code: Check::UnparsableValue,
                severity: crate::model::Severity::Error,
                message: format!(
                    "invalid UTF-8 at byte {byte} of the line; the file was read as UTF-8 (use --encoding to choose another); the line is kept out of the totals"
                ),
                path: path.to_string(),
                line: Some(line.line),
                accepted: None,
            };
            bills.add_skip(SkipReason::Unparsable, Some(finding));
            continue;
        }
        match &line.kind {
            LineKind::Item(t) => {
                let mut item = t.to_line_item(header_currency, invoice);
                classify(&mut item);
                seen(opts, path, &item);
                bills.add_item(&item);
            }
            LineKind::Summary(s) => match s.to_line_item(header_currency) {
                Some(mut item) => {
                    classify(&mut item);
                    seen(opts, path, &item);
                    bills.add_item(&item);
                }
                None => {
                    bills.add_skip(SkipReason::Summary, None);
                    let stated = Some((s.line, s.amount.value));
                    let bill = bills.for_currency(&s.currency(header_currency));
                    bill.stated_figures
                        .push(crate::audit::parse_double_counted::Stated {
                            line: s.line,
                            amount: s.amount.value,
                            total: s.kind == SummaryKind::Total,
                        });
                    // The last subtotal and total stated are the ones checked.
                    if s.kind == SummaryKind::Subtotal {
                        bill.stated_subtotal = stated;
                    } else {
                        bill.stated_total = stated;
                    }
                }
            },
            LineKind::Unparsed(u) => {
                let finding = Finding {
                    code: Check::UnparsedLine,
                    severity: Check::UnparsedLine.default_severity(),
                    message: format!("column {}: {}: `{}`", u.column, u.reason, shorten(&u.text)),
                    path: path.to_string(),
                    line: Some(u.line),
                    accepted: None,
                };
                bills.add_skip(SkipReason::Unparsable, Some(finding));
            }
            LineKind::Header(_) | LineKind::ColumnHeading | LineKind::Rule => {}
        }
    }
    bills.finish(path)
}

/// The one column a text invoice line offers to a user rule's `column`:
/// its description (`column = "Description"`).
fn text_description_column() -> String {
    crate::classify::user::UserRule::column_key("Description")
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 120 {
        format!("{}...", s.chars().take(120).collect::<String>())
    } else {
        s.to_string()
    }
}

/// A quoted field that runs this many lines is an unclosed quote, not a
/// multi-line cell.
const UNCLOSED_QUOTE_LINES: u64 = 200;

/// The line where a quoted field opens and never closes within the prefix
/// (the reader would swallow the rest of the file into one cell).
fn unclosed_quote(prefix: &str, delimiter: u8) -> Option<u64> {
    let mut rdr = ingest::csv::reader(prefix.as_bytes(), delimiter);
    let mut rec = ByteRecord::new();
    let total_lines = prefix.lines().count() as u64;
    let mut start = 1;
    for _ in 0..HEADER_SEARCH_ROWS {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => start = rec.position().map_or(start, |p| p.line()),
            Ok(false) | Err(_) => return None,
        }
        let end = rdr.position().line();
        let spans = end.saturating_sub(start);
        if !rec.iter().any(|f| f.contains(&b'\n')) {
            continue;
        }
        // Long, or (in a small file read whole) running to the end with an
        // odd number of quotes: a multi-line cell always closes.
        let at_end = rdr.is_done() || end >= total_lines;
        let small_whole = prefix.len() < ingest::PREFIX_LEN / 2;
        let odd = prefix.bytes().filter(|b| *b == b'"').count() % 2 == 1;
        if spans >= UNCLOSED_QUOTE_LINES || (small_whole && at_end && odd && spans >= 2) {
            return Some(start);
        }
    }
    None
}

/// True when most of the first lines split into the same number (>= 2) of fields.
fn looks_like_csv(prefix: &str, delimiter: u8) -> bool {
    let lines: Vec<&str> = prefix
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let counts: Vec<usize> = lines
        .iter()
        .map(|l| l.bytes().filter(|b| *b == delimiter).count())
        .collect();
    let with = counts.iter().filter(|c| **c >= 1).count();
    with * 2 > lines.len()
}

fn amount_aliases(profiles: &[Profile]) -> String {
    profiles
        .iter()
        .filter(|p| p.signature.is_empty())
        .flat_map(|p| p.columns.iter())
        .filter(|(r, _)| *r == profile::Role::Amount)
        .flat_map(|(_, a)| a.iter().take(6).cloned())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A read error; going past `--max-input-bytes` is an input error, not I/O.
fn io_error(path: &str, e: std::io::Error) -> Error {
    if let Some(t) = too_large(&e) {
        return Error::input(path, t.to_string());
    }
    Error::Io {
        path: path.to_string(),
        source: e,
    }
}

fn too_large(e: &std::io::Error) -> Option<ingest::InputTooLarge> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<ingest::InputTooLarge>())
        .copied()
}

fn csv_error(path: &str, e: &::csv::Error) -> Error {
    let line = e.position().map(|p| p.line());
    let message = match e.kind() {
        ::csv::ErrorKind::Io(io) => match too_large(io) {
            Some(t) => t.to_string(),
            None => format!("read error: {io}"),
        },
        ::csv::ErrorKind::Utf8 { err, .. } => format!("invalid UTF-8 in field {}", err.field() + 1),
        _ => format!("malformed CSV: {e}"),
    };
    match line {
        Some(l) => Error::at_line(path, l, message),
        None => Error::input(path, message),
    }
}

/// One bill per currency in a file, in order of first appearance.
struct Bills<'p> {
    path: String,
    /// The file now read, for a bill merged from parts ([`Bills::begin_part`]).
    part: Option<String>,
    format: String,
    default_currency: Option<String>,
    /// Set on every bill of the file (a CSV without a currency column).
    currency_note: Option<String>,
    policy: &'p Policy,
    list: Vec<BillBuilder<'p>>,
    /// What the report says about how the file was read (the order of its
    /// slashed dates), on every bill of the file.
    notes: Vec<String>,
    /// The first line of the input being read whose dates prove day-first
    /// / month-first (see `LineItem::date_proves`).
    proved: [Option<u64>; 2],
}

impl<'p> Bills<'p> {
    fn new(path: &str, format: &str, default_currency: Option<String>, policy: &'p Policy) -> Self {
        Bills {
            path: path.to_string(),
            part: None,
            format: format.to_string(),
            default_currency,
            currency_note: None,
            policy,
            list: Vec::new(),
            notes: Vec::new(),
            proved: [None; 2],
        }
    }

    /// The rows added from now on come from the file `path`: findings on
    /// them name it (a part of a merged bill, or the one file).
    fn begin_part(&mut self, path: &str) {
        for b in &mut self.list {
            b.begin_part(path);
        }
        self.part = Some(path.to_string());
    }

    /// A new bill (another currency), told which part is being read.
    fn open(&self, currency: Option<String>) -> BillBuilder<'p> {
        let mut b = BillBuilder::new(&self.path, &self.format, currency, self.policy);
        if let Some(p) = &self.part {
            b.begin_part(p);
        }
        b
    }

    /// The bill that takes rows without a currency: the header's currency, or
    /// the first currency seen.
    fn primary(&mut self) -> &mut BillBuilder<'p> {
        let cur = self.default_currency.clone();
        let i = match self.list.iter().position(|b| b.currency == cur) {
            Some(i) => i,
            None if !self.list.is_empty() && cur.is_none() => 0,
            None => {
                let b = self.open(cur);
                self.list.push(b);
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }

    fn for_currency(&mut self, currency: &Option<String>) -> &mut BillBuilder<'p> {
        if currency.is_none() {
            return self.primary();
        }
        if let Some(i) = self.list.iter().position(|b| &b.currency == currency) {
            return &mut self.list[i];
        }
        // A bill opened for currency-less rows takes the first stated currency.
        if let Some(i) = self.list.iter().position(|b| b.currency.is_none()) {
            self.list[i].currency = currency.clone();
            if self.default_currency.is_none() {
                self.default_currency = currency.clone();
            }
            return &mut self.list[i];
        }
        if self.default_currency.is_none() {
            self.default_currency = currency.clone();
        }
        let b = self.open(currency.clone());
        self.list.push(b);
        let n = self.list.len() - 1;
        &mut self.list[n]
    }

    fn add_item(&mut self, item: &LineItem) {
        if let Some(o) = item.date_proves {
            // Items arrive in file order: the first is the earliest.
            self.proved[usize::from(o == DateOrder::MonthFirst)].get_or_insert(item.line);
        }
        // Borrowed, not cloned: this runs once per row on the ordering thread.
        self.for_currency(&item.currency).add_item(item);
    }

    fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.primary().add_skip(reason, finding);
    }

    fn finish(mut self, path: &str) -> Result<Vec<Bill>> {
        if self.list.is_empty() {
            self.primary();
        }
        if let Some(line) = self.list.iter().find_map(|b| b.overflow_at) {
            return Err(Error::Input(Box::new(InputError {
                path: path.to_string(),
                line: Some(line),
                column: None,
                field: None,
                message: "amounts add up beyond the range of an exact decimal (28 digits)".into(),
                snippet: None,
            })));
        }
        if self.list.iter().any(|b| !b.totals.sums_fit()) {
            // Each category fits, but together they do not: never a saturated total.
            return Err(Error::input(
                path,
                "the category totals add up beyond the range of an exact decimal (28 digits)",
            ));
        }
        if self.list.len() > 1 {
            let names: Vec<String> = self
                .list
                .iter()
                .map(|b| b.currency.clone().unwrap_or_else(|| "unknown".into()))
                .collect();
            let msg = format!(
                "the file holds {} currencies ({}); it is audited as one bill per currency",
                names.len(),
                names.join(", ")
            );
            for b in &mut self.list {
                b.emit(Check::MixedCurrency, None, msg.clone());
            }
        }
        let notes = self.notes;
        let currency_note = self.currency_note;
        Ok(self
            .list
            .into_iter()
            .map(|b| {
                let mut bill = b.finish();
                bill.notes.clone_from(&notes);
                bill.currency_note.clone_from(&currency_note);
                bill
            })
            .collect())
    }
}
