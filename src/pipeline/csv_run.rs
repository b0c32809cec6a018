//! The CSV run: one bill built from a CSV export, or from the split parts
//! of one bill with the same header. The header is found, the rows stream
//! through normalise and classify into the bills, on this thread or (large
//! inputs) on several (`parallel`).

use std::io::{Cursor, Read};

use ::csv::ByteRecord;

use super::bills::Bills;
use super::diagnostics::{
    csv_error, header_snippet, io_error, missing_columns, no_header, override_not_found,
};
use super::parallel::{Blocks, Parallel, Ranges};
use super::rows::{Classify, read_rows, record_outcome, record_start};
use super::sniff::file_mark;
use super::{Options, ProgressHook};
use crate::audit::Bill;
use crate::classify::user::BoundRules;
use crate::error::{Error, Result};
use crate::ingest::csv::Window;
use crate::ingest::{self, Opened};
use crate::normalise::date::{DateOrder, DateScan};
use crate::normalise::number::DecimalMark;
use crate::normalise::profile::{self, ColumnMap, Profile, Role};
use crate::normalise::{HEADER_SEARCH_ROWS, RowNormaliser, detect_header, infer};

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

/// Why a part could not be fed into a run.
pub(super) enum Fed<'a> {
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
pub(super) struct Run<'o> {
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
    /// The decimal mark, once the first part decided it ([`file_mark`]).
    mark: Option<DecimalMark>,
    bills: Bills<'o>,
}

impl<'o> Run<'o> {
    pub(super) fn new(display: &str, opts: &'o Options) -> Self {
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
    pub(super) fn feed<'r>(
        &mut self,
        path: &str,
        opened: Opened<'r>,
    ) -> std::result::Result<(), Fed<'r>> {
        let opts = self.opts;
        let delimiter = opts
            .delimiter
            .unwrap_or_else(|| ingest::csv::sniff_delimiter(&opened.prefix_text));
        let seekable = opened.seekable.clone();
        let later_part = self.state.is_some();
        let encoding = opened
            .encoding_note
            .clone()
            .map(|reason| crate::ingest::EncodingChoice {
                name: opened.encoding.as_str().to_string(),
                reason,
            });
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
        let parquet = opened.parquet;
        // A small CSV (whole in its first 64 KiB, below the size read on
        // several threads) is read on one thread and holds back a row that
        // may be a subtotal under an unknown label (pipeline::unlabelled).
        let small = opened.complete
            && parquet.is_none()
            && (opened.prefix_text.len() as u64) < opts.parallel.min_bytes;
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
        // The rows searched, for inferring the columns when no header is
        // recognised (first part only), and the first row that a profile
        // recognises without the `--columns` the user gave.
        let mut kept: Vec<(ByteRecord, u64)> = Vec::new();
        let mut plain: Option<(u64, Vec<String>)> = None;
        // Rows read by the header search that are data rows (inferred columns).
        let mut pending: Vec<(ByteRecord, u64)> = Vec::new();
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
            if parquet.is_none() && !opts.forced_profile {
                kept.push((rec.clone(), record_start(&rdr, &rec).1));
                if plain.is_none()
                    && !opts.columns.is_empty()
                    && detect_header(
                        &opts.profiles,
                        &cells,
                        searched,
                        &Vec::new(),
                        opts.cost,
                        false,
                    )
                    .is_some()
                {
                    plain = Some((record_start(&rdr, &rec).1, cells.clone()));
                }
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
                    mark: None,
                    bills,
                });
                found = Some(line);
                break;
            }
        }
        if found.is_none() && self.state.is_none() && searched > 0 {
            if let Some((line, cells)) = &plain {
                return Err(override_not_found(path, *line, cells, opts).into());
            }
            if !kept.is_empty() {
                let rows: Vec<Vec<String>> = kept
                    .iter()
                    .map(|(r, _)| {
                        r.iter()
                            .map(|c| String::from_utf8_lossy(c).into_owned())
                            .collect()
                    })
                    .collect();
                let (mark, mark_note) = file_mark(delimiter, &rows);
                match infer::infer(&rows, &opts.columns, mark) {
                    Ok(inf) => {
                        let p = infer::profile();
                        let header = inf.header.map(|h| rows[h].clone()).unwrap_or_default();
                        let line = match inf.header {
                            Some(h) => kept[h].1,
                            None => kept[inf.first_data].1.saturating_sub(1),
                        };
                        let mut bills = Bills::new(
                            &self.display,
                            &p.name,
                            inf.map.header_currency.clone(),
                            &opts.policy,
                        );
                        bills.currency_note = inf.currency_note.clone();
                        bills.notes.extend(mark_note);
                        for c in &inf.columns {
                            bills.notes.push(c.note());
                        }
                        bills.inferred_columns = inf.columns.clone();
                        pending = kept.split_off(inf.first_data);
                        self.state = Some(RunState {
                            user: opts.user_rules.bind(path, &p.name, &inf.map.names),
                            profile: p,
                            map: inf.map,
                            header,
                            delimiter,
                            mark: Some(mark),
                            bills,
                        });
                        found = Some(line);
                    }
                    Err(infer::InferError::NoSuchColumn { value, columns }) => {
                        return Err(Error::input(
                            path,
                            format!(
                                "--columns: `{value}` is not among the columns of the file ({}); name a column or give its 1-based position",
                                columns.join(", ")
                            ),
                        )
                        .into());
                    }
                    Err(_) => {}
                }
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
        if !later_part {
            if let Some(e) = encoding {
                state.bills.notes.push(e.note());
                state.bills.encoding = Some(e);
            }
        }
        if later_part {
            // A later part: user rules scoped to paths see this part's path,
            // as they do when the part is read alone (`lines`, --no-merge).
            state.user = opts
                .user_rules
                .bind(path, &state.profile.name, &state.map.names);
        }
        // Findings on this part's lines name this part, not the merged bill.
        state.bills.begin_part(path);
        state.bills.hold_unlabelled = small && !later_part;
        // The first part decides the decimal mark for every later one.
        let rows = (!later_part).then(|| {
            super::sniff::rows_after_header(
                &opened.prefix_text,
                delimiter,
                &state.header,
                HEADER_SEARCH_ROWS,
            )
        });
        if state.mark.is_none() {
            let (mark, note) = match state.profile.decimal_mark {
                Some(mark) => (mark, None),
                None => file_mark(delimiter, rows.as_deref().unwrap_or_default()),
            };
            state.mark = Some(mark);
            state.bills.notes.extend(note);
        }
        let mark = state.mark.unwrap_or_default();
        if let Some(rows) = rows {
            // A recognised header that names nothing to classify by: the
            // description is inferred from the rows below it (a Parquet
            // file's prefix is its first rows as CSV text).
            if let Some(c) =
                infer::description_from_content(&mut state.map, &state.header, &rows, mark)
            {
                state.bills.notes.push(c.note());
                state.bills.inferred_columns.push(c);
            }
            // No currency column and none in the headers: the one symbol
            // the rows' texts use (`₹1,25,000.00`), as for inferred columns.
            if state.map.get(Role::Currency).is_none() && state.map.header_currency.is_none() {
                let note = infer::currency_from_symbols(&mut state.map, rows.iter());
                if let Some(code) = &state.map.header_currency {
                    state.bills.set_default_currency(code.clone());
                    state.bills.currency_note = Some(note);
                }
            }
        }
        // The order of slashed dates is decided before any row is dated,
        // from the rows in the prefix, so every thread reads them alike.
        let dates = scan_dates(&opened.prefix_text, delimiter, &state.header, &state.map);
        let norm = RowNormaliser {
            map: &state.map,
            mark,
            path,
            dates: &dates,
            delimiter,
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
            policy: &opts.policy,
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
            window.keeps_all() && !small && (!window.eof() || left >= p.min_bytes)
        };
        let read = (|| -> std::result::Result<u64, Fed<'r>> {
            if !pending.is_empty() {
                // Inferred columns: the rows the search read first, then
                // the rest of the input, on this thread.
                let mut cache = crate::classify::ClassCache::default();
                for (rec, line) in &pending {
                    let (remark, mut outcome) =
                        record_outcome(&norm, &class, *line, rec, &mut Vec::new(), &mut cache);
                    if let Some(mut remark) = remark {
                        state.bills.add_outcome(&mut remark, *line, |_| {});
                    }
                    state
                        .bills
                        .add_outcome(&mut outcome, *line, |i| super::seen(opts, path, i));
                }
                rdr.get_mut().forget();
                let rest = read_rows(&mut rdr, 0, &norm, &class, &mut state.bills, path)?;
                return Ok(pending.len() as u64 + rest);
            }
            if let Some(table) = &parquet {
                // Parquet: the rows come from the row groups, not the text
                // (the text reader of the header search, with the decoded
                // pages of the first row group, is let go first).
                drop(rdr);
                let text = super::parquet_run::text_columns(
                    &state.map,
                    table.width(),
                    !state.user.is_empty(),
                );
                let bills = &mut state.bills;
                return Ok(super::parquet_run::read(
                    table, &text, &norm, &class, bills, path, workers,
                )?);
            }
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

    pub(super) fn finish(self) -> Result<Vec<Bill>> {
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
    let rows = if cols.is_empty() {
        Vec::new()
    } else {
        super::sniff::rows_after_header(prefix, delimiter, header, usize::MAX)
    };
    let cells = rows
        .iter()
        .flat_map(|r| cols.iter().filter_map(|&c| r.get(c)));
    DateScan::decide(map.date_order, cells.map(String::as_str))
}
