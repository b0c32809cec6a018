//! The rows of a Parquet input (issue 19), read straight from its row
//! groups on the workers (no CSV text), once the CSV run has found its
//! header and profile.
//!
//! Each worker takes the next row group, decodes it [`BATCH_ROWS`] rows at
//! a time into records (only the columns the profile reads get their texts;
//! see [`crate::ingest::parquet::rows`]), normalises and classifies them,
//! runs the checks on them into the batch's state ([`Bills::range`], as a
//! CSV range's worker does; the rows themselves only when the item hook of
//! `billaudit lines` or `convert` needs them), and hands each batch to this
//! thread through the row group's own bounded channel. This thread merges
//! the batches into the bills strictly in file order: the first row
//! group's batches, then the second's. At most
//! `workers` row groups are handed out at once (one open per worker: an
//! open row group holds a decoded page of every column), and each holds at
//! most [`AHEAD_STATES`] states (or [`AHEAD_ROWS`] batches of rows)
//! waiting, a state of at most [`MAX_FOLDED_ROWS`] rows, so memory is
//! bounded by the rows in flight, not by the file or by the size of a row
//! group.

use std::collections::VecDeque;
use std::sync::{Mutex, mpsc};

use ::csv::ByteRecord;

use super::bills::Bills;
use super::rows::{Classify, classified};
use crate::audit::Caches;
use crate::classify::ClassCache;
use crate::error::{Error, Result};
use crate::ingest::parquet::hashed::Hashes;
use crate::ingest::parquet::rows::{BATCH_ROWS, Group, Mode, Table, held};
use crate::model::Check;
use crate::model::{Cells, LineItem};
use crate::normalise::number::DecimalMark;
use crate::normalise::profile::{ColumnMap, Role};
use crate::normalise::{Figures, MAX_CELL_BYTES, RowNormaliser, RowOutcome};

/// Batches of rows (each [`BATCH_ROWS`] items) of one row group decoded
/// ahead of this thread, when the item hook needs the rows.
const AHEAD_ROWS: usize = 2;

/// States of one row group's rows that wait for this thread, when the
/// workers run the checks. A worker sends its state only when one of these
/// places is free and otherwise adds the next batches into it (see
/// [`FOLD_BATCHES`]), so few are needed.
const AHEAD_STATES: usize = 2;

/// Batches whose rows a worker adds into one state before it offers it to
/// this thread: a state has a fixed part (the checks' tables, their merge
/// on this thread), so fewer, larger states cost less CPU.
///
/// The worker of a row group behind the head one cannot hand its rows to
/// this thread until the head row group is merged. It used to wait once
/// [`AHEAD_STATES`] states of 8K rows waited, so the two row groups in
/// hand were read half the time one at a time (a 1M-row file took 1.6
/// cores of 2); now, while no place is free, it adds the next batches into
/// the state it holds, up to [`MAX_FOLDED_ROWS`] rows, and reads on.
/// Measured on the 1M-row bench file (docs/performance.md, "Parquet row
/// groups read side by side" and "A state held while the head row group is
/// merged").
const FOLD_BATCHES: usize = 2;

/// At most this many rows go into one state before a worker waits for a
/// free place ([`AHEAD_STATES`]): DuckDB's row group of 122,880 rows fits
/// in one, and the states' memory stays bounded for any row group size.
const MAX_FOLDED_ROWS: u64 = 1 << 17;

/// The rows of one batch, each with its line.
type Rows = Vec<(u64, RowOutcome)>;

/// What a worker made of one batch: its rows, or the checks' state of its
/// rows and how many there were.
enum Done<'p> {
    Rows(Rows),
    State(Box<Bills<'p>>, u64),
}

/// A batch, and the worker that made it.
type Batch<'p> = (usize, std::result::Result<Done<'p>, String>);

/// The columns whose texts the rows need: the profile's (every role, the
/// classification texts, the markers, the commitment terms, the credit
/// list, the record type), every column left of the amount (where a
/// summary label may stand on a row without a description), or every
/// column when user rules classify the rows (they may read any column).
pub(super) fn text_columns(map: &ColumnMap, width: usize, user_rules: bool) -> Vec<bool> {
    let mut text = vec![user_rules; width];
    let mut set = |c: usize| {
        if let Some(t) = text.get_mut(c) {
            *t = true;
        }
    };
    for (_, &c) in map.roles.iter() {
        set(c);
    }
    map.class_tiers.iter().flatten().for_each(|&c| set(c));
    map.markers.iter().for_each(|(c, _)| set(*c));
    map.terms.iter().for_each(|(_, c)| set(*c));
    map.credit_list.into_iter().for_each(&mut set);
    map.header_currency_column.into_iter().for_each(&mut set);
    map.record_type.iter().for_each(|(c, _)| set(*c));
    (0..map.get(Role::Amount).unwrap_or(0)).for_each(&mut set);
    text
}

/// How each column is read ([`Mode`]): its text where `text` says so;
/// else a stand-in cell, and a hash of its values for the row's
/// fingerprint when `duplicate-line` is on (a row-id column stays out
/// of the fingerprint, as in CSV: [`ColumnMap::row_ids`]). A DECIMAL or
/// integer column that is only read as a figure ([`figure_columns`]) is
/// read as exact values instead of text.
fn modes(text: &[bool], norm: &RowNormaliser<'_>, table: &Table, duplicates: bool) -> Vec<Mode> {
    let map = norm.map;
    let figures = figure_columns(text, norm);
    let mode = |(c, text): (usize, &bool)| {
        if figures.contains(&c) && table.is_figure_column(c) {
            return Mode::Figure;
        }
        match (text, duplicates && !map.row_ids.contains(&c)) {
            (true, _) => Mode::Text,
            (false, true) => Mode::Hashed,
            (false, false) => Mode::StandIn,
        }
    };
    text.iter().enumerate().map(mode).collect()
}

/// The columns whose cells are read only as numbers (the amount, quantity,
/// unit price and list cost, and the money terms), so that a figure can
/// stand for their text: none of the amount's left (where a summary label
/// is looked for), of the classification texts, markers, text terms,
/// credit list, record type or
/// another role; none when every column is text (user rules read any
/// cell's text) or the file's decimal mark is not a point (the text would
/// be read another way).
fn figure_columns(text: &[bool], norm: &RowNormaliser<'_>) -> Vec<usize> {
    let map = norm.map;
    if text.iter().all(|t| *t) || norm.mark != DecimalMark::Dot {
        return Vec::new();
    }
    let amount = map.get(Role::Amount).unwrap_or(0);
    let other = |c: usize| {
        map.roles
            .iter()
            .any(|(r, &i)| i == c && !Role::FIGURES.contains(r))
            || map.class_tiers.iter().flatten().any(|&i| i == c)
            || map.markers.iter().any(|(i, _)| *i == c)
            || map.terms.iter().any(|(t, i)| *i == c && !t.is_figure())
            || map.credit_list == Some(c)
            || map.header_currency_column == Some(c)
            || map.record_type.as_ref().is_some_and(|(i, _)| *i == c)
    };
    // The money terms too (`EffectiveCost`, `ContractedCost`: read only
    // as numbers, through the same `Figures`).
    let terms = map.terms.iter().filter(|(t, _)| t.is_figure());
    let mut cols: Vec<usize> = Role::FIGURES
        .iter()
        .filter_map(|r| map.get(*r))
        .chain(terms.map(|(_, c)| *c))
        .filter(|&c| c >= amount && !other(c))
        .collect();
    cols.sort_unstable();
    cols.dedup();
    cols
}

/// Row `i` of a batch's figures, for the normaliser; with `held`, for a
/// record holding only those columns (`c` is the place in it).
struct RowFigures<'g, 't> {
    group: &'g Group<'t>,
    i: usize,
    held: Option<&'g [usize]>,
}

impl Figures for RowFigures<'_, '_> {
    fn figure(&self, c: usize) -> Option<Option<rust_decimal::Decimal>> {
        let c = match self.held {
            Some(held) => *held.get(c)?,
            None => c,
        };
        self.group.figure(c, self.i)
    }
}

/// The columns a record holds, and the column map renumbered onto them
/// ([`ColumnMap::projected`]), when some columns are folded (not held);
/// `None` when every column is held. A map that reads a column the modes
/// fold (never, as [`text_columns`] gives every column the map reads a
/// text) gets every column held, as text.
fn projection(modes: &mut [Mode], map: &ColumnMap) -> Option<(Vec<usize>, ColumnMap)> {
    let held = held(modes);
    if held.len() == modes.len() {
        return None;
    }
    match map.projected(&held) {
        Some(projected) => Some((held, projected)),
        None => {
            for m in modes.iter_mut().filter(|m| **m != Mode::Figure) {
                *m = Mode::Text;
            }
            None
        }
    }
}

/// Whether every cell of a record is blank (the normaliser's blank-row
/// test).
fn all_blank<C: Cells + ?Sized>(rec: &C) -> bool {
    rec.iter()
        .all(|f| f.iter().all(|b| b.is_ascii_whitespace()))
}

/// Reads every row of `table` into the bills on `workers` threads (see the
/// module docs); returns the number of rows read.
pub(super) fn read<'p>(
    table: &Table,
    text: &[bool],
    norm: &RowNormaliser<'_>,
    class: &Classify<'_>,
    bills: &mut Bills<'p>,
    path: &str,
    workers: usize,
) -> Result<u64> {
    let workers = workers.max(1);
    let opts = class.opts;
    // The checks run on the workers unless something needs the items.
    let policy = opts.item_hook.is_none().then(|| bills.policy());
    let duplicates = bills.policy().severity(Check::DuplicateLine).is_some();
    let mut modes = modes(text, norm, table, duplicates);
    // A row's record holds only the columns read (docs/decisions.md,
    // "Parquet: a record of only the read columns").
    let projection = projection(&mut modes, norm.map);
    let held_norm = projection.as_ref().map(|(_, map)| RowNormaliser {
        map,
        mark: norm.mark,
        path: norm.path,
        dates: norm.dates,
        delimiter: norm.delimiter,
    });
    let (held_norm, held) = match (&held_norm, &projection) {
        (Some(n), Some((held, _))) => (n, Some(held.as_slice())),
        _ => (norm, None),
    };
    let modes = &modes;
    let ahead = if policy.is_some() {
        AHEAD_STATES
    } else {
        AHEAD_ROWS
    };
    let (job_tx, job_rx) = mpsc::channel::<(usize, mpsc::SyncSender<Batch<'p>>)>();
    let job_rx = Mutex::new(job_rx);
    let (returns, returned): (Vec<_>, Vec<_>) =
        (0..workers).map(|_| mpsc::channel::<Rows>()).unzip();
    let mut rows = 0u64;
    let mut failed: Option<String> = None;
    std::thread::scope(|scope| {
        for (worker, returned) in returned.into_iter().enumerate() {
            let job_rx = &job_rx;
            scope.spawn(move || {
                let mut cache = ClassCache::default();
                #[allow(clippy::vec_box)]
                let mut spare: Vec<Box<LineItem>> = Vec::new();
                let mut rec = ByteRecord::new();
                let mut caches = Caches::default();
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => break,
                    };
                    let Ok((g, tx)) = job else { break };
                    let mut group = match table.open_group(g, modes, MAX_CELL_BYTES) {
                        Ok(group) => group,
                        Err(e) => {
                            let _ = tx.send((worker, Err(e)));
                            continue;
                        }
                    };
                    group.fingerprint_skipping(&held_norm.map.row_ids);
                    // The checks' state of the row group's batches not yet
                    // sent, their rows and their number.
                    let mut open: Option<Bills<'p>> = None;
                    let (mut open_rows, mut open_batches) = (0u64, 0usize);
                    loop {
                        // The items of applied batches are built again.
                        let mut batch = Rows::new();
                        for mut back in returned.try_iter() {
                            for (_, outcome) in back.drain(..) {
                                if let RowOutcome::Item(item) | RowOutcome::WithCredits(item, _) =
                                    outcome
                                {
                                    if spare.len() < 2 * BATCH_ROWS {
                                        spare.push(item);
                                    }
                                }
                            }
                            if back.capacity() > batch.capacity() {
                                batch = back;
                            }
                        }
                        let n = match group.next_batch() {
                            Ok(0) => break,
                            Ok(n) => n,
                            Err(e) => {
                                open = None;
                                let _ = tx.send((worker, Err(e)));
                                break;
                            }
                        };
                        let first = group.first_row();
                        let mut state = policy.map(|p| {
                            open.take()
                                .unwrap_or_else(|| Bills::range(p, std::mem::take(&mut caches)))
                        });
                        for i in 0..n {
                            // Row N is line N+1: the header is line 1.
                            let line = first + i as u64 + 1;
                            let row = group.row(i);
                            // The held cells decide the blank-row and
                            // oversized-cell tests unless a folded cell is
                            // long, or is filled where every held one is
                            // blank: then the row is read with every column.
                            let whole = held.is_some()
                                && (group.folded_long(i)
                                    || (group.folded_filled(i) && all_blank(&row)));
                            let outcome = if whole {
                                group.full_record(i, &mut rec);
                                let figures = RowFigures {
                                    group: &group,
                                    i,
                                    held: None,
                                };
                                classified(
                                    norm,
                                    class,
                                    (line, &rec, &figures),
                                    &mut spare,
                                    &mut cache,
                                )
                            } else {
                                let figures = RowFigures {
                                    group: &group,
                                    i,
                                    held,
                                };
                                let row = (line, &row, &figures);
                                classified(held_norm, class, row, &mut spare, &mut cache)
                            };
                            let mut outcome = outcome;
                            if let (
                                Some(h),
                                RowOutcome::Item(item) | RowOutcome::WithCredits(item, _),
                            ) = (group.hashed(i), &mut outcome)
                            {
                                // The columns that are not in the record.
                                item.fingerprint = Hashes::of(item.fingerprint, h);
                            }
                            match &mut state {
                                Some(state) => {
                                    state.add_outcome(&mut outcome, line, |_| {});
                                    // The item is built again for the next row.
                                    if let RowOutcome::Item(item) = outcome {
                                        if spare.len() < 2 * BATCH_ROWS {
                                            spare.push(item);
                                        }
                                    }
                                }
                                None => batch.push((line, outcome)),
                            }
                        }
                        let done = match state {
                            Some(mut state) => {
                                open_rows += n as u64;
                                open_batches += 1;
                                if open_batches < FOLD_BATCHES {
                                    open = Some(state);
                                    continue;
                                }
                                caches = state.take_caches();
                                let done = Done::State(Box::new(state), open_rows);
                                if open_rows < MAX_FOLDED_ROWS {
                                    // Sent if a place is free; else read on.
                                    match tx.try_send((worker, Ok(done))) {
                                        Ok(()) => {}
                                        Err(mpsc::TrySendError::Full((
                                            _,
                                            Ok(Done::State(mut state, _)),
                                        ))) => {
                                            state.give_caches(std::mem::take(&mut caches));
                                            open = Some(*state);
                                            continue;
                                        }
                                        Err(_) => break,
                                    }
                                    open_rows = 0;
                                    open_batches = 0;
                                    continue;
                                }
                                open_rows = 0;
                                open_batches = 0;
                                done
                            }
                            None => Done::Rows(batch),
                        };
                        if tx.send((worker, Ok(done))).is_err() {
                            break;
                        }
                    }
                    if let Some(mut state) = open.take() {
                        caches = state.take_caches();
                        let _ = tx.send((worker, Ok(Done::State(Box::new(state), open_rows))));
                    }
                }
            });
        }
        let mut queue: VecDeque<mpsc::Receiver<Batch<'p>>> = VecDeque::new();
        let mut next = 0;
        'groups: loop {
            while next < table.row_groups() && queue.len() < workers {
                let (tx, rx) = mpsc::sync_channel(ahead);
                if job_tx.send((next, tx)).is_err() {
                    break 'groups;
                }
                queue.push_back(rx);
                next += 1;
            }
            let Some(rx) = queue.pop_front() else { break };
            // The row group's batches, in order, until its worker is done.
            for (worker, batch) in rx.iter() {
                let n = match batch {
                    Ok(Done::State(state, n)) => {
                        bills.merge(*state);
                        n
                    }
                    Ok(Done::Rows(mut batch)) => {
                        for (line, outcome) in &mut batch {
                            bills.add_outcome(outcome, *line, |i| super::seen(opts, path, i));
                        }
                        let n = batch.len() as u64;
                        // Freed (or built again) on the worker that made them.
                        let _ = returns[worker].send(batch);
                        n
                    }
                    Err(e) => {
                        failed = Some(e);
                        break 'groups;
                    }
                };
                rows += n;
                if let Some(h) = &opts.progress {
                    (h.0)(0, n);
                }
            }
        }
        // Unblock the workers: no more row groups, and nobody listens.
        drop(job_tx);
        drop(queue);
    });
    match failed {
        Some(e) => Err(Error::input(
            path,
            format!("read error: reading the Parquet content: {e}"),
        )),
        None => Ok(rows),
    }
}
