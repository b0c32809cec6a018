//! `--format csv`: one row per bill. Every cell that a spreadsheet could
//! take for a formula is neutralised; numbers stay numbers.

use super::{dec, worst_finding};
use crate::expect::Report;
use crate::model::{Category, Severity};

/// Makes a text cell safe for spreadsheets: a cell starting with `=`, `+`,
/// `-`, `@`, tab or CR is prefixed with `'` so it shows as text. A plain
/// number such as `-10.00` is left alone.
pub(crate) fn safe_cell(s: &str) -> String {
    let risky = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && !is_plain_number(s) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

fn is_plain_number(s: &str) -> bool {
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    !t.is_empty()
        && t.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && t.bytes().filter(|b| *b == b'.').count() <= 1
        && t.bytes().any(|b| b.is_ascii_digit())
}

/// Writes records with the csv crate (quoting), every cell passed through
/// [`safe_cell`].
pub(crate) fn write_rows(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(header);
    for r in rows {
        let _ = w.write_record(r.iter().map(|c| safe_cell(c)));
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

pub(crate) fn render(report: &Report) -> String {
    let mut header = vec!["path", "format", "currency", "line_items", "skipped_rows"];
    header.extend(Category::ALL.iter().map(|c| c.as_str()));
    header.extend([
        "subtotal",
        "total",
        "hidden",
        "hidden_share",
        "replica_share",
        "errors",
        "warnings",
        "passed",
        "worst_finding",
    ]);
    let mut rows = Vec::new();
    for b in &report.bills {
        let mut r = vec![
            b.path.clone(),
            b.format.clone(),
            b.currency.clone().unwrap_or_default(),
            b.line_items.to_string(),
            b.skipped_rows().to_string(),
        ];
        r.extend(Category::ALL.iter().map(|c| dec(b.totals.get(*c))));
        let count = |s: Severity| {
            b.findings
                .iter()
                .filter(|f| f.severity == s)
                .count()
                .to_string()
        };
        r.extend([
            dec(b.subtotal),
            dec(b.total),
            dec(b.hidden),
            b.hidden_share.map(dec).unwrap_or_default(),
            b.replica_share.map(dec).unwrap_or_default(),
            count(Severity::Error),
            count(Severity::Warning),
            b.passed.to_string(),
            worst_finding(b)
                .map(|f| format!("{}: {}", f.code, f.message))
                .unwrap_or_default(),
        ]);
        rows.push(r);
    }
    write_rows(&header, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_numbers_are_not() {
        assert_eq!(
            safe_cell("=HYPERLINK(\"http://x\")"),
            "'=HYPERLINK(\"http://x\")"
        );
        assert_eq!(safe_cell("+1+2"), "'+1+2");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("-2+3"), "'-2+3");
        assert_eq!(safe_cell("\tx"), "'\tx");
        assert_eq!(safe_cell("-10.00"), "-10.00");
        assert_eq!(safe_cell("12.5"), "12.5");
        assert_eq!(safe_cell("GPU hours"), "GPU hours");
    }
}
