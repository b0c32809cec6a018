//! Rows with more cells than the header (`ragged-row`): a delimiter inside a
//! cell that the export did not quote. `A100 rental,1,234.50` under
//! `Description,Amount` is three cells; read by position, the charge costs
//! 1 and `234.50` is dropped. [`RowNormaliser::mend`] looks for the one
//! reading that joins neighbouring cells back into a column's value, and
//! says which it took (docs/decisions.md, "Rows wider than their header").

use ::csv::ByteRecord;
use rust_decimal::Decimal;

use super::number::DecimalMark;
use super::profile::Role;
use super::{RowNormaliser, RowOutcome, SkipReason};
use crate::model::{Cells, Check, Finding};

/// The most cells past the header that are looked at: a row wider than
/// that is not a cell or two split by a stray delimiter.
const MAX_EXTRA: usize = 4;

/// The most readings tried for one row.
const MAX_READINGS: usize = 32;

/// What [`RowNormaliser::mend`] made of a row wider than its header.
#[derive(Debug)]
pub struct Mended {
    /// The record to read instead, its split cells joined; `None`: the row
    /// is read by position, as it is.
    pub record: Option<ByteRecord>,
    /// The `ragged-row` finding on the row's line.
    pub finding: Box<Finding>,
    /// How the row was read, for one finding per shape: its cells and the
    /// cells each column took, or why it was read by position.
    pub shape: Box<str>,
}

/// Which cells a column may take more than one of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Join {
    /// A money or quantity column: only cells that make a grouped number.
    Figure,
    /// A text column, or one no role reads: any cells.
    Text,
    /// Any other column (dates, currency, units, ids): one cell.
    Never,
}

/// One way of reading the row: how many cells each column takes.
type Reading = Vec<usize>;

impl RowNormaliser<'_> {
    /// For a record with more non-empty cells than the header has columns:
    /// the record to read instead, if one reading of it joins split cells
    /// back into values, and the finding that says what was done. `None`
    /// for a record no wider than the header (cells past it all empty: a
    /// trailing delimiter).
    /// Reads the record where it is (no copy): a file whose every row ends
    /// in a delimiter costs one look at each row's last cells.
    pub fn mend<C: Cells + ?Sized>(&self, line: u64, rec: &C) -> Option<Mended> {
        let width = self.map.raw.len();
        let used = rec
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.iter().all(u8::is_ascii_whitespace))
            .last()
            .map_or(0, |(i, _)| i + 1);
        if width == 0 || used <= width {
            return None;
        }
        let cells: Vec<&[u8]> = rec.iter().take(used).collect();
        let extra = used - width;
        let readings = if extra <= MAX_EXTRA {
            let mut found = Vec::new();
            self.readings(&cells, 0, 0, &mut Vec::with_capacity(width), &mut found);
            found
        } else {
            Vec::new()
        };
        let mut figures = Vec::new();
        let mut texts = Vec::new();
        for reading in readings {
            let record = self.joined(&cells, &reading);
            let Some(value) = self.reads(line, &record) else {
                continue;
            };
            let all_figures = reading
                .iter()
                .enumerate()
                .all(|(j, &n)| n == 1 || self.join_kind(j) == Join::Figure);
            if all_figures {
                figures.push((reading, record, value));
            } else {
                texts.push((reading, record, value));
            }
        }
        let head = format!("{used} cells under a header of {width} columns");
        // A grouped number first; else the text readings, when they agree.
        let pick = if !figures.is_empty() && agree(&figures) {
            Some(figures.swap_remove(0))
        } else if figures.is_empty() && !texts.is_empty() && agree(&texts) {
            let description = self.map.get(Role::Description);
            let at = texts
                .iter()
                .position(|(r, ..)| description.is_some_and(|d| r.get(d).is_some_and(|&n| n > 1)));
            Some(texts.swap_remove(at.unwrap_or(0)))
        } else {
            None
        };
        let (record, message, shape) = match pick {
            Some((reading, record, _)) => {
                let what = self.describe(&cells, &reading);
                let shape = format!("{used}/{width}: {reading:?}");
                (Some(record), format!("{head}: {what}"), shape)
            }
            None => {
                let past: Vec<String> = cells[width..].iter().map(|c| quoted(c)).collect();
                let why = if figures.len() + texts.len() > 1 {
                    "the cells can be joined in ways that give different amounts"
                } else {
                    "no joining of neighbouring cells reads as the header's columns"
                };
                (
                    None,
                    format!(
                        "{head}, and {why}: the row is read by position and the cells past the header ({}) are not read; check its amount",
                        past.join(", ")
                    ),
                    format!("{used}/{width}: by position, {why}"),
                )
            }
        };
        Some(Mended {
            record,
            finding: Box::new(Finding {
                code: Check::RaggedRow,
                severity: Check::RaggedRow.default_severity(),
                message,
                path: self.path.to_string(),
                line: Some(line),
                accepted: None,
            }),
            shape: shape.into(),
        })
    }

    /// Every reading of `cells` from column `col` and cell `at` on, each
    /// column taking one cell or, where it may, several (at most
    /// [`MAX_READINGS`] readings).
    fn readings(
        &self,
        cells: &[&[u8]],
        col: usize,
        at: usize,
        taken: &mut Reading,
        found: &mut Vec<Reading>,
    ) {
        let width = self.map.raw.len();
        if found.len() >= MAX_READINGS {
            return;
        }
        if col == width {
            if at == cells.len() {
                found.push(taken.clone());
            }
            return;
        }
        let left = cells.len() - at;
        let spare = left - (width - col);
        for n in 1..=1 + spare {
            if n > 1 && !self.may_join(col, &cells[at..at + n]) {
                continue;
            }
            taken.push(n);
            self.readings(cells, col + 1, at + n, taken, found);
            taken.pop();
        }
    }

    fn may_join(&self, col: usize, pieces: &[&[u8]]) -> bool {
        match self.join_kind(col) {
            Join::Figure => grouped(pieces, self.mark, self.delimiter),
            Join::Text => true,
            Join::Never => false,
        }
    }

    fn join_kind(&self, col: usize) -> Join {
        let m = self.map;
        let role = Role::ALL.into_iter().find(|r| m.get(*r) == Some(col));
        match role {
            Some(r) if Role::FIGURES.contains(&r) => return Join::Figure,
            Some(Role::Description) => return Join::Text,
            Some(_) => return Join::Never,
            None => {}
        }
        if let Some(&(term, _)) = m.terms.iter().find(|(_, c)| *c == col) {
            return if term.is_figure() {
                Join::Figure
            } else {
                Join::Never
            };
        }
        let special = m.markers.iter().any(|(c, _)| *c == col)
            || m.record_type.as_ref().is_some_and(|(c, _)| *c == col)
            || m.row_ids.contains(&col)
            || m.credit_list == Some(col);
        if special { Join::Never } else { Join::Text }
    }

    /// The record of `cells` read as `reading`: each column's cells joined
    /// with the file's delimiter.
    fn joined(&self, cells: &[&[u8]], reading: &Reading) -> ByteRecord {
        let mut rec = ByteRecord::new();
        let mut at = 0;
        for &n in reading {
            rec.push_field(&cells[at..at + n].join(&self.delimiter));
            at += n;
        }
        rec
    }

    /// The row's amount (or a figure-less outcome) when `record` reads
    /// without an unparsable value or a missing amount.
    fn reads(&self, line: u64, record: &ByteRecord) -> Option<Option<Decimal>> {
        match self.row_inner(line, record, &(), &mut Vec::new()) {
            Ok(RowOutcome::Item(item) | RowOutcome::WithCredits(item, _)) => {
                Some(Some(item.amount))
            }
            Ok(RowOutcome::Stated { amount, .. }) => Some(Some(amount)),
            Ok(
                RowOutcome::Skip(SkipReason::Summary | SkipReason::Blank, _)
                | RowOutcome::Unstated { .. }
                | RowOutcome::TopUp(_),
            ) => Some(None),
            Ok(
                RowOutcome::Skip(SkipReason::Unparsable | SkipReason::MissingAmount, _)
                | RowOutcome::Remark(..),
            )
            | Err(_) => None,
        }
    }

    /// What `reading` joined: "`1` and `234.50` read as one `Amount`,
    /// `1,234.50` (...)", for each column that took several cells.
    fn describe(&self, cells: &[&[u8]], reading: &Reading) -> String {
        let mut parts = Vec::new();
        let mut at = 0;
        for (col, &n) in reading.iter().enumerate() {
            if n > 1 {
                let pieces: Vec<String> = cells[at..at + n].iter().map(|c| quoted(c)).collect();
                let joined = cells[at..at + n].join(&self.delimiter);
                let name = self.map.raw.get(col).map_or("?", |s| s.trim());
                let why = if self.join_kind(col) != Join::Figure {
                    "a delimiter inside the text the export did not quote"
                } else if self.mark == DecimalMark::Comma {
                    "a decimal comma the export did not quote"
                } else {
                    "a thousands separator the export did not quote"
                };
                parts.push(format!(
                    "{} read as one `{name}`, {} ({why})",
                    and_list(&pieces),
                    quoted(&joined)
                ));
            }
            at += n;
        }
        parts.join("; ")
    }
}

/// Whether the readings all give the same amount (true for none).
fn agree(readings: &[(Reading, ByteRecord, Option<Decimal>)]) -> bool {
    readings.windows(2).all(|w| w[0].2 == w[1].2)
}

/// Whether `pieces`, joined with the delimiter, are one grouped number:
/// with a decimal point, `1`, `234.50` (`1,234.50`: a group of one to
/// three digits, then groups of three, the last with its decimals); with a
/// decimal comma, `12`, `50` (`12,50`). Signs, currency signs and codes
/// may stand before the number and after it.
fn grouped(pieces: &[&[u8]], mark: DecimalMark, delimiter: u8) -> bool {
    let [first, middle @ .., last] = pieces else {
        return false;
    };
    if delimiter != b',' {
        return false;
    }
    // The first piece: a prefix without digits (`$`, `-`, `USD `), then digits.
    let first = first.trim_ascii_start();
    let Some(start) = first.iter().position(u8::is_ascii_digit) else {
        return false;
    };
    let number = &first[start..];
    // The last piece: digits, then its decimals or a suffix without digits.
    let last = last.trim_ascii_end();
    let lead = last.iter().take_while(|b| b.is_ascii_digit()).count();
    let tail = &last[lead..];
    let no_digits = |b: &[u8]| !b.iter().any(u8::is_ascii_digit);
    match mark {
        DecimalMark::Dot => {
            let decimals = match tail.strip_prefix(b".") {
                Some(rest) => {
                    let d = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                    d > 0 && no_digits(&rest[d..])
                }
                None => no_digits(tail),
            };
            (1..=3).contains(&number.len())
                && number.iter().all(u8::is_ascii_digit)
                && middle
                    .iter()
                    .all(|p| p.len() == 3 && p.iter().all(u8::is_ascii_digit))
                && lead == 3
                && decimals
        }
        // `1.234` then `50`: the comma is the decimal mark, once.
        DecimalMark::Comma => {
            middle.is_empty()
                && number.iter().all(|b| b.is_ascii_digit() || *b == b'.')
                && number.last().is_some_and(u8::is_ascii_digit)
                && lead > 0
                && no_digits(tail)
        }
    }
}

/// A cell's text in backticks, lossy and cut at 40 characters.
fn quoted(cell: &[u8]) -> String {
    let text = String::from_utf8_lossy(cell);
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        format!("`{cut}...`")
    } else {
        format!("`{cut}`")
    }
}

/// `a`, `a and b`, `a, b and c` (also `ragged-row`'s list of lines).
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests;
