//! The row step every reader of a table shares: classify what one row gave
//! ([`Classify`]) before it is added to the bills in file order
//! ([`Bills::add_outcome`]), and the CSV row loop ([`read_rows`]). Below `csv_run`, `parallel` and
//! `parquet_run`, which all call it, so none of them calls back into another.

use std::io::Read;

use ::csv::ByteRecord;

use super::bills::Bills;
use super::diagnostics::{csv_error, ends_in_open_quote, shift_error, swallowed};
use super::{Options, seen};
use crate::classify::ClassCache;
use crate::classify::user::BoundRules;
use crate::error::Result;
use crate::ingest;
use crate::ingest::csv::Window;
use crate::model::{Cells, LineItem};
use crate::normalise::{Figures, RowNormaliser, RowOutcome};

/// What classifies a file's rows: the user's rules (bound to its columns)
/// before the built-in classifier, with the reader's cache.
pub(super) struct Classify<'a> {
    pub(super) opts: &'a Options,
    pub(super) user: &'a BoundRules<'a>,
}

impl Classify<'_> {
    fn one<C: Cells + ?Sized>(&self, rec: &C, item: &mut LineItem, cache: &mut ClassCache) {
        if self.user.is_empty() || !self.user.classify(rec, item) {
            self.opts.classifier.classify_cached(item, cache);
        }
    }

    /// Classifies what one row gave.
    pub(super) fn outcome<C: Cells + ?Sized>(
        &self,
        rec: &C,
        outcome: &mut RowOutcome,
        cache: &mut ClassCache,
    ) {
        match outcome {
            RowOutcome::Item(item) => self.one(rec, item, cache),
            RowOutcome::WithCredits(item, credits) => {
                self.one(rec, item, cache);
                for c in credits {
                    self.opts.classifier.classify(c);
                }
            }
            RowOutcome::Skip(..)
            | RowOutcome::Stated { .. }
            | RowOutcome::Remark(..)
            | RowOutcome::Unstated { .. }
            | RowOutcome::TopUp(_) => {}
        }
    }
}

/// The row step of a CSV record, on every path that reads one: a record
/// wider than its header mended first ([`RowNormaliser::mend`]), then
/// normalised (building the item in one of `spare`) and classified. The
/// first outcome is the `ragged-row` finding, for a mended record, to be
/// added before the row's own.
#[allow(clippy::vec_box)]
pub(super) fn record_outcome<C: Cells + ?Sized>(
    norm: &RowNormaliser<'_>,
    class: &Classify<'_>,
    line: u64,
    rec: &C,
    spare: &mut Vec<Box<LineItem>>,
    cache: &mut ClassCache,
) -> (Option<RowOutcome>, RowOutcome) {
    if rec.len() > norm.map.raw.len() {
        if let Some(m) = norm.mend(line, rec) {
            let outcome = match &m.record {
                Some(mended) => classified(norm, class, (line, mended, &()), spare, cache),
                None => classified(norm, class, (line, rec, &()), spare, cache),
            };
            return (Some(RowOutcome::Remark(m.finding, m.shape)), outcome);
        }
    }
    (
        None,
        classified(norm, class, (line, rec, &()), spare, cache),
    )
}

/// One record normalised (building the item in one of `spare`, with the
/// exact values of `figures` where a reader has them: Parquet's), then
/// classified.
#[allow(clippy::vec_box)]
pub(super) fn classified<C: Cells + ?Sized, F: Figures + ?Sized>(
    norm: &RowNormaliser<'_>,
    class: &Classify<'_>,
    (line, rec, figures): (u64, &C, &F),
    spare: &mut Vec<Box<LineItem>>,
    cache: &mut ClassCache,
) -> RowOutcome {
    let mut outcome = norm.row_with(line, rec, figures, spare);
    class.outcome(rec, &mut outcome, cache);
    outcome
}

/// Moves every line number of a row's outcome by `by` (a range read on its
/// own thread counts lines from its start).
pub(super) fn shift_lines(outcome: &mut RowOutcome, by: u64) {
    match outcome {
        RowOutcome::Item(item) => item.line += by,
        RowOutcome::WithCredits(item, credits) => {
            item.line += by;
            for c in credits {
                c.line += by;
            }
        }
        RowOutcome::Skip(_, Some(f)) => f.line = f.line.map(|l| l + by),
        RowOutcome::Remark(f, _) => f.line = f.line.map(|l| l + by),
        RowOutcome::Skip(_, None)
        | RowOutcome::Stated { .. }
        | RowOutcome::Unstated { .. }
        | RowOutcome::TopUp(_) => {}
    }
}

/// Streams the rows of `rdr` into the bills; lines are the reader's plus
/// `line_offset`. Returns the number of rows read.
pub(super) fn read_rows<R: Read>(
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
    let mut last_byte = 0u64;
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => {
                if rows > 0 {
                    let (end_line, end) = (rdr.position().line(), rdr.position().byte());
                    let window = rdr.get_ref();
                    let open =
                        ends_in_open_quote(last_byte, end, norm.delimiter, |b| window.byte(b));
                    swallowed(path, last_start, end_line, line_offset, open)?;
                }
                break;
            }
            Err(e) => return Err(shift_error(csv_error(path, &e), line_offset)),
        }
        let (at, start) = record_start(rdr, &rec);
        (last_byte, last_start) = (at, start);
        rows += 1;
        if rows % 16_384 == 0 {
            if let Some(h) = &opts.progress {
                (h.0)(0, 16_384);
            }
        }
        let line = start + line_offset;
        let (remark, mut outcome) = record_outcome(norm, class, line, &rec, &mut spare, &mut cache);
        if let Some(mut remark) = remark {
            bills.add_outcome(&mut remark, line, |_| {});
        }
        bills.add_outcome(&mut outcome, line, |i| seen(opts, path, i));
        if let RowOutcome::Item(item) = outcome {
            spare.push(item);
        }
    }
    Ok(rows)
}

/// Where the record just read starts, as (byte, line) of its reader.
pub(super) fn record_start<R: Read>(
    rdr: &::csv::Reader<Window<R>>,
    rec: &ByteRecord,
) -> (u64, u64) {
    let at = rec.position().map_or((0, 1), |p| (p.byte(), p.line()));
    ingest::csv::true_start(at, |b| rdr.get_ref().byte(b))
}
