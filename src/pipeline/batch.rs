//! The batch: every input of a run, audited in parallel and reported in
//! path order; split parts (`bill_1.csv`, `bill_2.csv`) grouped into one
//! unit; each opened input routed to the CSV run or the text run.

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::csv_run::{Fed, Run};
use super::sniff::csv_header_in;
use super::text_run::audit_text;
use super::{InputKind, Options, Report, SourceResult};
use crate::audit::Bill;
use crate::error::{Error, Result};
use crate::ingest::{self, Opened, Source, archive};

/// One unit of work: an input, the split parts of one bill, or an input
/// that could not even be listed.
pub(super) type Unit = Result<Vec<Source>>;

/// Audits every path (files, directories, globs, `-`) in parallel and
/// returns the bills sorted by path. With `opts.merge`, split parts
/// (`bill_1.csv`, `bill_2.csv`) are audited as one bill.
///
/// ```
/// use billaudit::{Options, audit_paths};
///
/// let root = env!("CARGO_MANIFEST_DIR");
/// let report = audit_paths(&[format!("{root}/fixtures/csv/gpu-pod-en.csv")], &Options::default());
/// assert!(report.errors.is_empty());
/// let bill = &report.bills[0];
/// // compute 82.80 + 90.72 = 173.52; storage 5.00 + 35.00; replica 10.00;
/// // bandwidth 6.00; scheduling 4.00: subtotal 233.52, + tax 18.23 - credit 10.00.
/// assert_eq!(bill.subtotal.to_string(), "233.52");
/// assert_eq!(bill.total.to_string(), "241.75");
/// // Hidden 10.00 + 6.00 + 4.00 = 20.00 = 8.56% of 233.52, above 5%.
/// assert_eq!(bill.hidden.to_string(), "20.00");
/// assert!(!report.passed());
/// ```
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

pub(super) fn sort_key(r: &Result<Source>) -> &str {
    match r {
        Ok(s) => &s.display,
        Err(e) => e.path().unwrap_or(""),
    }
}

pub(super) fn unit_key(u: &Unit) -> &str {
    match u {
        Ok(parts) => parts.first().map_or("", |s| s.display.as_str()),
        Err(e) => e.path().unwrap_or(""),
    }
}

/// Groups sorted sources into units of work: split parts together when
/// merging, every other input alone; errors stay where they sorted.
pub(super) fn units(sources: Vec<Result<Source>>, merge: bool) -> Vec<Unit> {
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
pub(super) fn audit_unit(parts: &[Source], opts: &Options) -> Vec<SourceResult> {
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
pub(super) fn audit_source_all(source: &Source, opts: &Options) -> (Vec<Bill>, Vec<Error>) {
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
pub(super) fn audit_entry(
    display: &str,
    entry: Box<dyn Read + '_>,
    opts: &Options,
) -> Result<Vec<Bill>> {
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
pub(super) fn audit_opened(display: &str, opened: Opened<'_>, opts: &Options) -> Result<Vec<Bill>> {
    let delimiter = ingest::csv::sniff_delimiter(&opened.prefix_text);
    let as_text = match opts.input {
        _ if opened.pdf => true,
        InputKind::Text => true,
        InputKind::Csv => false,
        InputKind::Auto => !csv_header_in(&opened.prefix_text, delimiter, opts),
    };
    let mut bills = if as_text {
        audit_text(display, opened, delimiter, opts)?
    } else {
        let mut run = Run::new(display, opts);
        run.feed(display, opened)?;
        run.finish()?
    };
    super::currency::assume(&mut bills, &opts.currency);
    Ok(bills)
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
    super::currency::assume(&mut bills, &opts.currency);
    (bills, errors)
}

/// `d/huawei_1.csv + huawei_2.csv`: how a merged bill is named in reports.
pub(super) fn merged_name(names: &[&str]) -> String {
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
