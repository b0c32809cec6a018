//! Diagnostics: the input errors of a run, each naming the file, the line
//! and (where it helps) the column, with a snippet of the line.

use super::Options;
use super::sniff::UNCLOSED_QUOTE_LINES;
use crate::error::{Error, Result};
use crate::ingest;
use crate::normalise::profile::{self, MissingColumns, Profile};

/// A quoted field that opens on `line` of the prefix and never closes: no
/// header row can be read after it.
pub(super) fn unclosed_quote_error(display: &str, prefix: &str, line: u64) -> Error {
    let text = prefix
        .lines()
        .nth(usize::try_from(line.saturating_sub(1)).unwrap_or(0))
        .unwrap_or_default();
    let col = text.chars().position(|c| c == '"').map_or(1, |i| i + 1);
    Error::at_line(
        display,
        line,
        format!(
            "a quoted field opens here and is never closed (it runs on for {UNCLOSED_QUOTE_LINES} lines or to the end of the file), so no header row can be read; close the quote (`\"`) or remove it"
        ),
    )
    .with_column(col as u64)
    .with_snippet(crate::error::snippet(line, text, col, 1, "this quote is never closed"))
}

/// An error when the last record (starting at reader line `start`) ran on
/// for [`UNCLOSED_QUOTE_LINES`] lines or more to the end (reader line `end`):
/// a quote that never closes, not a multi-line cell.
///
/// `open_quote`: the record ends inside a quoted field that holds the
/// delimiter ([`ends_in_open_quote`]): cells or rows read as one cell,
/// however few lines.
pub(super) fn swallowed(
    path: &str,
    start: u64,
    end: u64,
    line_offset: u64,
    open_quote: bool,
) -> Result<()> {
    let lines = end.saturating_sub(start);
    if lines >= UNCLOSED_QUOTE_LINES || open_quote {
        let runs = if lines >= 2 {
            format!("runs on for {lines} lines to the end of the file")
        } else {
            "is the file's last line".to_string()
        };
        return Err(Error::at_line(
            path,
            start + line_offset,
            format!(
                "the last row starts here and {runs}: a quoted field is never closed, so those lines would be one cell; close the quote (`\"`) or remove it"
            ),
        ));
    }
    Ok(())
}

pub(super) fn shift_error(e: Error, by: u64) -> Error {
    match e {
        Error::Input(mut i) => {
            i.line = i.line.map(|l| l + by);
            Error::Input(i)
        }
        other => other,
    }
}

/// The header row as a snippet, with a caret under cell `at` (or the whole
/// row), and the 1-based character column of that cell.
pub(super) fn header_snippet(
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
pub(super) fn missing_columns(path: &str, line: u64, m: &MissingColumns) -> Error {
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

pub(super) fn no_header(path: &str, searched: usize, opts: &Options) -> Error {
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

/// A header was recognised, but a `--columns` name is not among its
/// columns: say which, and list them (instead of "no header row found").
pub(super) fn override_not_found(path: &str, line: u64, cells: &[String], opts: &Options) -> Error {
    let names: Vec<String> = cells
        .iter()
        .map(|c| crate::normalise::header::normalise_header(c).name)
        .collect();
    let missing: Vec<&str> = opts
        .columns
        .iter()
        .filter(|(_, v)| crate::normalise::header::override_column(&names, v).is_none())
        .map(|(_, v)| v.as_str())
        .collect();
    let listed: Vec<&str> = cells.iter().map(|c| c.trim()).collect();
    Error::at_line(
        path,
        line,
        format!(
            "--columns: {} not among the columns of the header on line {line} ({}); name one of them or give its 1-based position",
            missing
                .iter()
                .map(|m| format!("`{m}` is"))
                .collect::<Vec<_>>()
                .join(", "),
            listed.join(", ")
        ),
    )
}

pub(super) fn amount_aliases(profiles: &[Profile]) -> String {
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
pub(super) fn io_error(path: &str, e: std::io::Error) -> Error {
    if let Some(t) = too_large(&e) {
        return Error::input(path, t.to_string());
    }
    Error::Io {
        path: path.to_string(),
        source: e,
    }
}

pub(super) fn too_large(e: &std::io::Error) -> Option<ingest::InputTooLarge> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<ingest::InputTooLarge>())
        .copied()
}

pub(super) fn csv_error(path: &str, e: &::csv::Error) -> Error {
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

/// Whether the input's last record, bytes `start..end` as `byte` gives
/// them, ends inside a quoted field that holds the delimiter: a quote
/// opened at a field's start and never closed, which swallowed cells or
/// rows (`"Storage,20.00` then `Egress,5.00` to the end; `"Egress,5.00` as
/// the last line). The bytes are read as the csv reader reads them: a
/// quote opens a field only at its start, `""` inside is a quote, and a
/// quote mid-field (`5" disk`) is text. `false` when a byte is no longer
/// at hand, or past [`OPEN_QUOTE_SCAN`] bytes (the 200-line rule decides).
pub(super) fn ends_in_open_quote(
    start: u64,
    end: u64,
    delimiter: u8,
    byte: impl Fn(u64) -> Option<u8>,
) -> bool {
    if end.saturating_sub(start) > OPEN_QUOTE_SCAN {
        return false;
    }
    let (mut field_start, mut quoted, mut holds) = (true, false, false);
    let mut at = start;
    while at < end {
        let Some(b) = byte(at) else {
            return false;
        };
        at += 1;
        if quoted {
            if b == b'"' {
                if at < end && byte(at) == Some(b'"') {
                    at += 1;
                } else {
                    quoted = false;
                }
            } else if b == delimiter {
                holds = true;
            }
        } else if field_start && b == b'"' {
            (quoted, holds, field_start) = (true, false, false);
        } else {
            field_start = b == delimiter || b == b'\n';
        }
    }
    quoted && holds
}

/// The most bytes of a last record [`ends_in_open_quote`] reads.
const OPEN_QUOTE_SCAN: u64 = 1 << 20;
