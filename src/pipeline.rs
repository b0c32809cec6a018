//! Runs the stages in order for one input: ingest -> normalise -> classify
//! -> audit. Rows stream through one at a time; only per-bill totals and
//! findings are kept.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ::csv::ByteRecord;
use rayon::prelude::*;

use crate::audit::{Bill, BillBuilder, Policy, mixed_currency};
use crate::classify::Classifier;
use crate::error::{Error, InputError, Result};
use crate::ingest::{self, Source, TextEncoding};
use crate::model::{Finding, LineItem};
use crate::normalise::number::DecimalMark;
use crate::normalise::profile::{self, ColumnOverrides, Profile};
use crate::normalise::{HEADER_SEARCH_ROWS, RowNormaliser, RowOutcome, SkipReason, detect_header};

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
    pub profiles: Vec<Profile>,
    pub classifier: Classifier,
    /// Stop at the first input error instead of auditing the rest.
    pub fail_fast: bool,
    /// Told how many bytes and rows have been read, for a progress bar.
    pub progress: Option<ProgressHook>,
}

/// Receives `(bytes, rows)` increments while inputs are read.
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Fn(u64, u64) + Send + Sync>);

impl fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressHook")
    }
}

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
            profiles: vec![profile::generic()],
            classifier: Classifier::default(),
            fail_fast: false,
            progress: None,
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

/// Audits every path (files, directories, globs, `-`) in parallel and
/// returns the bills sorted by path.
pub fn audit_paths(paths: &[String], opts: &Options) -> Report {
    audit_paths_streaming(paths, opts, &mut |_, _| {})
}

/// Like [`audit_paths`], and calls `each` with every input's result as soon
/// as it and all inputs sorted before it are done, so output can stream in
/// a deterministic order while the work runs in parallel.
pub fn audit_paths_streaming(
    paths: &[String],
    opts: &Options,
    each: &mut dyn FnMut(&str, &mut SourceResult),
) -> Report {
    let mut sources = ingest::expand_paths(paths);
    sources.sort_by(|a, b| sort_key(a).cmp(sort_key(b)));
    sources.dedup_by(|a, b| a.is_ok() && b.is_ok() && sort_key(a) == sort_key(b));
    let stop = AtomicBool::new(false);
    let mut report = Report::default();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Option<SourceResult>)>();
    std::thread::scope(|scope| {
        let sources = &sources;
        let stop = &stop;
        scope.spawn(move || {
            sources
                .par_iter()
                .enumerate()
                .for_each_with(tx, |tx, (i, source)| {
                    if stop.load(Ordering::Relaxed) {
                        let _ = tx.send((i, None));
                        return;
                    }
                    let result = match source {
                        Ok(s) => audit_source(s, opts),
                        Err(e) => Err(e.clone_shallow()),
                    };
                    if result.is_err() && opts.fail_fast {
                        stop.store(true, Ordering::Relaxed);
                    }
                    let _ = tx.send((i, Some(result)));
                });
        });
        let mut pending: BTreeMap<usize, Option<SourceResult>> = BTreeMap::new();
        let mut next = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&next) {
                next += 1;
                match r {
                    Some(mut r) => {
                        each(sort_key(&sources[next - 1]), &mut r);
                        match r {
                            Ok(bills) => report.bills.extend(bills),
                            Err(e) => report.errors.push(e),
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

/// Audits one input. A file with several currencies gives one bill each.
pub fn audit_source(source: &Source, opts: &Options) -> Result<Vec<Bill>> {
    let mut opened = ingest::open(source, opts.encoding)?;
    if let Some(hook) = &opts.progress {
        opened.reader = Box::new(Counting {
            inner: opened.reader,
            hook: hook.clone(),
        });
    }
    let path = source.display.as_str();
    if opts.input == InputKind::Text {
        return Err(text_not_supported(path));
    }
    let delimiter = ingest::csv::sniff_delimiter(&opened.prefix_text);
    let mut rdr = ingest::csv::reader(opened.reader, delimiter);
    let mut rec = ByteRecord::new();

    // The header is found, not assumed: title lines above it are skipped.
    let mut found = None;
    let mut searched = 0;
    loop {
        if searched >= HEADER_SEARCH_ROWS {
            break;
        }
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(path, &e)),
        }
        searched += 1;
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        if let Some((p, map)) = detect_header(&opts.profiles, &cells, &opts.columns) {
            let line = rec.position().map_or(1, |p| p.line());
            found = Some((p, map, line));
            break;
        }
    }
    let Some((profile, map, header_line)) = found else {
        if searched == 0 {
            return Err(Error::input(path, "the file has no rows"));
        }
        if opts.input == InputKind::Auto && !looks_like_csv(&opened.prefix_text, delimiter) {
            return Err(text_not_supported(path));
        }
        return Err(Error::input(
            path,
            format!(
                "no header row found in the first {searched} rows: looked for an amount column ({}) next to a description, quantity or price column; map columns by hand with --columns amount=NAME,description=NAME",
                amount_aliases(&opts.profiles)
            ),
        ));
    };

    let mark = profile.decimal_mark.unwrap_or(if delimiter == b';' {
        DecimalMark::Comma
    } else {
        DecimalMark::Dot
    });
    let norm = RowNormaliser {
        map: &map,
        mark,
        path,
    };
    let mut bills = Bills::new(
        path,
        &profile.name,
        map.header_currency.clone(),
        &opts.policy,
    );
    let mut rows = 0u64;
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(path, &e)),
        }
        rows += 1;
        if rows % 16_384 == 0 {
            if let Some(h) = &opts.progress {
                (h.0)(0, 16_384);
            }
        }
        let line = rec.position().map_or(header_line + rows, |p| p.line());
        match norm.row(line, &rec) {
            RowOutcome::Item(mut item) => {
                opts.classifier.classify(&mut item);
                bills.add_item(&item);
            }
            RowOutcome::Skip(reason, finding) => bills.add_skip(reason, finding),
            RowOutcome::StatedTotal(amount) => {
                bills.add_skip(SkipReason::Summary, None);
                bills.primary().stated_total = Some((line, amount));
            }
        }
    }
    if rows == 0 {
        return Err(Error::at_line(
            path,
            header_line,
            format!(
                "the file has a header but no data rows (columns: {})",
                map.describe()
            ),
        ));
    }
    bills.finish(path)
}

fn text_not_supported(path: &str) -> Error {
    Error::input(
        path,
        "this looks like a text invoice, not a CSV export; text invoices are not supported yet",
    )
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
        .flat_map(|p| p.columns.iter())
        .filter(|(r, _)| *r == profile::Role::Amount)
        .flat_map(|(_, a)| a.iter().take(6).cloned())
        .collect::<Vec<_>>()
        .join(", ")
}

fn csv_error(path: &str, e: &::csv::Error) -> Error {
    let line = e.position().map(|p| p.line());
    let message = match e.kind() {
        ::csv::ErrorKind::Io(io) => format!("read error: {io}"),
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
    format: String,
    default_currency: Option<String>,
    policy: &'p Policy,
    list: Vec<BillBuilder<'p>>,
}

impl<'p> Bills<'p> {
    fn new(path: &str, format: &str, default_currency: Option<String>, policy: &'p Policy) -> Self {
        Bills {
            path: path.to_string(),
            format: format.to_string(),
            default_currency,
            policy,
            list: Vec::new(),
        }
    }

    /// The bill that takes rows without a currency: the header's currency, or
    /// the first currency seen.
    fn primary(&mut self) -> &mut BillBuilder<'p> {
        let cur = self.default_currency.clone();
        let i = match self.list.iter().position(|b| b.currency == cur) {
            Some(i) => i,
            None if !self.list.is_empty() && cur.is_none() => 0,
            None => {
                self.list
                    .push(BillBuilder::new(&self.path, &self.format, cur, self.policy));
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
        self.list.push(BillBuilder::new(
            &self.path,
            &self.format,
            currency.clone(),
            self.policy,
        ));
        let n = self.list.len() - 1;
        &mut self.list[n]
    }

    fn add_item(&mut self, item: &LineItem) {
        let cur = item.currency.clone();
        self.for_currency(&cur).add_item(item);
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
                field: None,
                message: "amounts add up beyond the range of an exact decimal (28 digits)".into(),
                snippet: None,
            })));
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
                b.emit(&mixed_currency::INFO, None, msg.clone());
            }
        }
        Ok(self.list.into_iter().map(BillBuilder::finish).collect())
    }
}
