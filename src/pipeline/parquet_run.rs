//! The rows of a Parquet input (issue 19), read straight from its row
//! groups on the workers (no CSV text), once the CSV run has found its
//! header and profile.
//!
//! Each worker takes the next row group, decodes it [`BATCH_ROWS`] rows at
//! a time into records (only the columns the profile reads get their texts;
//! see [`crate::ingest::parquet::rows`]), normalises and classifies them,
//! and hands each batch to this thread through the row group's own bounded
//! channel. This thread adds the batches to the bills strictly in file
//! order: the first row group's batches, then the second's. At most
//! `workers` row groups are handed out at once (one open per worker: an
//! open row group holds a decoded page of every column), and each holds at most
//! [`AHEAD`] decoded batches waiting, so memory is bounded by batches in
//! flight, not by the file or by the size of a row group.

use std::collections::VecDeque;
use std::sync::{Mutex, mpsc};

use ::csv::ByteRecord;

use super::bills::Bills;
use super::csv_run::{Classify, apply_outcome};
use crate::classify::ClassCache;
use crate::error::{Error, Result};
use crate::ingest::parquet::rows::{BATCH_ROWS, Table};
use crate::model::LineItem;
use crate::normalise::profile::ColumnMap;
use crate::normalise::{RowNormaliser, RowOutcome};

/// Batches of one row group decoded ahead of this thread.
const AHEAD: usize = 2;

/// The rows of one batch, each with its line, and the worker that made them.
type Rows = Vec<(u64, RowOutcome)>;
type Batch = (usize, std::result::Result<Rows, String>);

/// The columns whose texts the rows need: the profile's (every role, the
/// classification texts, the markers, the credit list), or every column
/// when user rules classify the rows (they may read any column).
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
    map.credit_list.into_iter().for_each(&mut set);
    map.header_currency_column.into_iter().for_each(&mut set);
    text
}

/// Reads every row of `table` into the bills on `workers` threads (see the
/// module docs); returns the number of rows read.
pub(super) fn read(
    table: &Table,
    text: &[bool],
    norm: &RowNormaliser<'_>,
    class: &Classify<'_>,
    bills: &mut Bills<'_>,
    path: &str,
    workers: usize,
) -> Result<u64> {
    let workers = workers.max(1);
    let opts = class.opts;
    let (job_tx, job_rx) = mpsc::channel::<(usize, mpsc::SyncSender<Batch>)>();
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
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => break,
                    };
                    let Ok((g, tx)) = job else { break };
                    let mut group = match table.open_group(g, text) {
                        Ok(group) => group,
                        Err(e) => {
                            let _ = tx.send((worker, Err(e)));
                            continue;
                        }
                    };
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
                                let _ = tx.send((worker, Err(e)));
                                break;
                            }
                        };
                        let first = group.first_row();
                        for i in 0..n {
                            group.record(i, &mut rec);
                            // Row N is line N+1: the header is line 1.
                            let line = first + i as u64 + 1;
                            let mut outcome = norm.row_reusing(line, &rec, &mut spare);
                            class.outcome(&rec, &mut outcome, &mut cache);
                            batch.push((line, outcome));
                        }
                        if tx.send((worker, Ok(batch))).is_err() {
                            break;
                        }
                    }
                }
            });
        }
        let mut queue: VecDeque<mpsc::Receiver<Batch>> = VecDeque::new();
        let mut next = 0;
        'groups: loop {
            while next < table.row_groups() && queue.len() < workers {
                let (tx, rx) = mpsc::sync_channel(AHEAD);
                if job_tx.send((next, tx)).is_err() {
                    break 'groups;
                }
                queue.push_back(rx);
                next += 1;
            }
            let Some(rx) = queue.pop_front() else { break };
            // The row group's batches, in order, until its worker is done.
            for (worker, batch) in rx.iter() {
                let mut batch = match batch {
                    Ok(b) => b,
                    Err(e) => {
                        failed = Some(e);
                        break 'groups;
                    }
                };
                for (line, outcome) in &mut batch {
                    apply_outcome(bills, outcome, *line, opts, path);
                }
                rows += batch.len() as u64;
                if let Some(h) = &opts.progress {
                    (h.0)(0, batch.len() as u64);
                }
                // Freed (or built again) on the worker that made them.
                let _ = returns[worker].send(batch);
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
