//! Sniffing: what the first bytes of an input (its decoded prefix) say it
//! is, a CSV export with a header, a text invoice, or a CSV broken by a
//! quote that never closes.

use ::csv::ByteRecord;

use super::Options;
use crate::ingest;
use crate::normalise::number::DecimalMark;
use crate::normalise::{HEADER_SEARCH_ROWS, detect_header, infer};

/// True when one of the first rows of `prefix` maps as a CSV header, or
/// (no profile forced) its rows are a table whose columns can be inferred
/// ([`infer`]: a column of numbers in rows of one width).
pub(super) fn csv_header_in(prefix: &str, delimiter: u8, opts: &Options) -> bool {
    let mut rdr = ingest::csv::reader(prefix.as_bytes(), delimiter);
    let mut rec = ByteRecord::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let inferable = |rows: &[Vec<String>]| {
        !opts.forced_profile
            && looks_like_csv(prefix, delimiter)
            && infer::infer(rows, &Vec::new(), file_mark(delimiter, rows).0).is_ok()
    };
    for row in 1..=HEADER_SEARCH_ROWS {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            // The prefix may end inside a quoted field: what was read counts.
            Ok(false) => return inferable(&rows),
            Err(_) => return false,
        }
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        if rdr.position().byte() < prefix.len() as u64 || prefix.ends_with('\n') {
            rows.push(cells.clone());
        }
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
    inferable(&rows)
}

/// The decimal mark of a file whose profile names none: what the cells of
/// its first rows show ([`DecimalMark::of_cells`]: a comma-delimited export
/// may quote `"30,00"`), else the delimiter's custom: a decimal comma after
/// `;`, a point otherwise. With the note the report gives when the cells
/// overrule the custom.
pub(super) fn file_mark(delimiter: u8, rows: &[Vec<String>]) -> (DecimalMark, Option<String>) {
    let custom = if delimiter == b';' {
        DecimalMark::Comma
    } else {
        DecimalMark::Dot
    };
    match DecimalMark::of_cells(rows.iter().flatten().map(String::as_str)) {
        Some((mark, cell)) if mark != custom => {
            let name = match mark {
                DecimalMark::Comma => "a decimal comma",
                DecimalMark::Dot => "a decimal point",
            };
            let note = format!(
                "numbers read with {name}: cells such as `{}` can be read no other way (the cells are parted by {})",
                cell.trim(),
                delimiter_name(delimiter)
            );
            (mark, Some(note))
        }
        Some((mark, _)) => (mark, None),
        None => (custom, None),
    }
}

/// How a note names a delimiter.
pub(super) fn delimiter_name(delimiter: u8) -> &'static str {
    match delimiter {
        b',' => "a comma",
        b';' => "a semicolon",
        b'\t' => "a tab",
        b'|' => "a bar",
        _ => "another character",
    }
}

/// A quoted field that runs this many lines is an unclosed quote, not a
/// multi-line cell.
pub(super) const UNCLOSED_QUOTE_LINES: u64 = 200;

/// The line where a quoted field opens and never closes within the prefix
/// (the reader would swallow the rest of the file into one cell).
pub(super) fn unclosed_quote(prefix: &str, delimiter: u8) -> Option<u64> {
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
pub(super) fn looks_like_csv(prefix: &str, delimiter: u8) -> bool {
    let lines: Vec<&str> = prefix
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let counts: Vec<usize> = lines.iter().map(|l| delimiters_in(l, delimiter)).collect();
    let with = counts.iter().filter(|c| **c >= 1).count();
    with * 2 > lines.len()
}

/// The delimiters of one line, less the commas inside the numbers of a
/// laid-out text: in a line whose cells are parted by runs of spaces,
/// - a comma between a digit and exactly two digits that end the line or a
///   cell is a decimal mark (`Итого:      12 000,00`). Without this a
///   Russian or German text invoice with one such amount per line was read
///   as a CSV of two columns, its amounts the `00` after the comma;
/// - a comma between a digit and exactly three digits not followed by
///   another digit is a thousands separator (`Subtotal      696,000`,
///   `540,000원`, `1,234.50`). Without this an invoice whose amounts are
///   all in the thousands was read as a CSV of two columns, `540` and
///   `000`, its subtotal and total summed as items.
fn delimiters_in(line: &str, delimiter: u8) -> usize {
    let b = line.as_bytes();
    let laid_out = line.trim().contains("   ");
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    (0..b.len())
        .filter(|&i| b[i] == delimiter)
        .filter(|&i| {
            let in_number = delimiter == b',' && laid_out && i > 0 && digit(i - 1);
            let decimal = in_number
                && digit(i + 1)
                && digit(i + 2)
                && b.get(i + 3).is_none_or(|c| c.is_ascii_whitespace());
            let thousands =
                in_number && digit(i + 1) && digit(i + 2) && digit(i + 3) && !digit(i + 4);
            !(decimal || thousands)
        })
        .count()
}

/// The rows of `prefix` below its `header` row (all of them when `header`
/// is empty), at most `limit`, the last one left out when the prefix may
/// end inside it: the sample a recognised header's missing description is
/// inferred from ([`infer::description_from_content`]), and the dates the
/// order of slashed dates is decided from.
pub(super) fn rows_after_header(
    prefix: &str,
    delimiter: u8,
    header: &[String],
    limit: usize,
) -> Vec<Vec<String>> {
    let mut rdr = ingest::csv::reader(prefix.as_bytes(), delimiter);
    let mut rec = ByteRecord::new();
    // A file without a header row (inferred columns) is data from the top.
    let mut past_header = header.is_empty();
    let mut rows: Vec<Vec<String>> = Vec::new();
    while rows.len() <= limit {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            _ => break,
        }
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        if past_header {
            rows.push(cells);
        } else {
            past_header = cells == header;
        }
    }
    if rows.len() > limit || !prefix.ends_with('\n') {
        rows.pop();
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::delimiters_in;

    #[test]
    fn commas_inside_the_numbers_of_a_laid_out_line_are_not_delimiters() {
        assert_eq!(delimiters_in("Итого:                12 000,00", b','), 0);
        assert_eq!(delimiters_in("Storage      1,50      3,00   ", b','), 0);
        // A prose comma in a laid-out line still counts.
        assert_eq!(
            delimiters_in("GPU A100, hours     100     10 000,00", b','),
            1
        );
        // Not laid out: a CSV row's `5,10` is two cells.
        assert_eq!(delimiters_in("GPU,5,10", b','), 2);
        // Three digits after the comma, and no fourth: a thousands group.
        assert_eq!(delimiters_in("Total      1,200", b','), 0);
        assert_eq!(
            delimiters_in("A100 GPU instance usage        540,000", b','),
            0
        );
        assert_eq!(delimiters_in("스냅샷 백업        24,000원", b','), 0);
        assert_eq!(delimiters_in("Total due      1,234,567.89 USD", b','), 0);
        // Four digits after it: a cell.
        assert_eq!(delimiters_in("Item      1,2345", b','), 1);
        // Not laid out: `1,200` in a CSV row is two cells.
        assert_eq!(delimiters_in("GPU,1,200", b','), 2);
        // Only a comma can be a decimal mark.
        assert_eq!(delimiters_in("Total   ;   12;00", b';'), 2);
    }
}
