//! Parquet columns no profile reads (issue 27, docs/decisions.md "Parquet:
//! columns, money and the duplicate key"): they are hashed for the
//! duplicate check and stand in for the row tests, not made text. The
//! files are written by DuckDB (Python); every expected figure is hand
//! arithmetic, written beside it, and the same rows as CSV (written by
//! DuckDB) must give the same report.

use std::path::Path;
use std::process::Command;

use crate::common::{audit_json, python_has};

/// Writes `select` (a DuckDB query) as `name`.parquet and `name`.csv.
pub(crate) fn write(dir: &Path, name: &str, select: &str) {
    let script = format!(
        "import duckdb\nq = \"\"\"{select}\"\"\"\nduckdb.sql(f\"COPY ({{q}}) TO '{dir}/{name}.parquet' (FORMAT parquet)\")\nduckdb.sql(f\"COPY ({{q}}) TO '{dir}/{name}.csv' (HEADER)\")\n",
        dir = dir.display()
    );
    let o = Command::new("python3")
        .args(["-c", &script])
        .output()
        .expect("python3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// (total, line items, skipped rows, sorted (code, line) of the findings).
type Summary = (String, u64, u64, Vec<(String, Option<u64>)>);

fn summary(path: &Path) -> Summary {
    let (report, _) = audit_json(&[path.to_str().expect("utf-8 path")]);
    assert_eq!(report.bills.len(), 1, "{}", path.display());
    let b = &report.bills[0];
    let mut findings: Vec<_> = b
        .findings
        .iter()
        .map(|f| (f.code.to_string(), f.line))
        .collect();
    findings.sort();
    (b.total.clone(), b.line_items, b.skipped_rows, findings)
}

fn codes(s: &Summary, code: &str) -> Vec<Option<u64>> {
    s.3.iter()
        .filter(|(c, _)| c == code)
        .map(|(_, l)| *l)
        .collect()
}

#[test]
fn unread_columns_tell_duplicates_apart_and_keep_rows_from_being_blank() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // `Zeta` (text) and `Omega` (BIGINT) are columns no profile reads.
    write(
        dir.path(),
        "dups",
        "SELECT * FROM (VALUES \
         ('GPU hours', 10.00::DECIMAL(12,2), 'USD', 'team=a', 1::BIGINT), \
         ('GPU hours', 10.00::DECIMAL(12,2), 'USD', 'team=a', 1::BIGINT), \
         ('GPU hours', 10.00::DECIMAL(12,2), 'USD', 'team=b', 1::BIGINT), \
         ('GPU hours', 10.00::DECIMAL(12,2), 'USD', 'team=a', 2::BIGINT), \
         ('Storage', 10.00::DECIMAL(12,2), 'USD', NULL, 1::BIGINT), \
         ('Storage', 10.00::DECIMAL(12,2), 'USD', '', 1::BIGINT), \
         (NULL, NULL, NULL, 'orphan', NULL), \
         (NULL, NULL, NULL, NULL, NULL)) v(Description, Amount, Currency, Zeta, Omega)",
    );
    let pq = summary(&dir.path().join("dups.parquet"));
    // Row N is line N+1. Line 3 repeats line 2 in every cell; lines 4 and
    // 5 differ from it only in Zeta and Omega; line 7 repeats line 6 (a
    // null and an empty text are the same cell, as in CSV).
    assert_eq!(codes(&pq, "duplicate-line"), [Some(3), Some(7)], "{pq:?}");
    // Line 8 has only Zeta: not blank, an item without its amount; line 9
    // is blank. Six items of 10.00: 60.00.
    assert_eq!(codes(&pq, "missing-amount"), [Some(8)], "{pq:?}");
    assert_eq!((pq.0.as_str(), pq.1, pq.2), ("60.00", 6, 2), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("dups.csv")));
}

#[test]
fn an_oversized_cell_in_an_unread_column_is_named_as_in_csv() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // 300,000 bytes, more than the 256 KiB a cell may hold.
    write(
        dir.path(),
        "long",
        "SELECT * FROM (VALUES \
         ('GPU hours', 4.00::DECIMAL(12,2), 'USD', 'short'), \
         ('Storage', 6.00::DECIMAL(12,2), 'USD', repeat('x', 300000))) v(Description, Amount, Currency, Zeta)",
    );
    let pq = summary(&dir.path().join("long.parquet"));
    // Line 3 is kept out: 4.00 from one item, one skip.
    assert_eq!(codes(&pq, "unparsable-value"), [Some(3)], "{pq:?}");
    assert_eq!((pq.0.as_str(), pq.1, pq.2), ("4.00", 1, 1), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("long.csv")));
}

/// Regression: a typed column left of the amount was read as its bytes in
/// hex, which hid the summary label beyond it: the `Total` row was summed
/// (10.00 on main, 5.00 for the same rows as CSV).
#[test]
fn a_summary_label_right_of_a_typed_column_is_found_as_in_csv() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "sum",
        "SELECT * FROM (VALUES \
         (DATE '2025-10-01', 'GPU', 5.00::DECIMAL(12,2), 'USD'), \
         (DATE '2025-10-01', 'Total', 5.00::DECIMAL(12,2), 'USD')) v(Booked, Kind, Amount, Currency)",
    );
    let pq = summary(&dir.path().join("sum.parquet"));
    // One item of 5.00; the `Total` row states it and is a summary skip.
    assert_eq!((pq.0.as_str(), pq.1, pq.2), ("5.00", 1, 1), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("sum.csv")));
}

#[test]
fn decimal_and_integer_money_is_exact_without_text() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // The first cost has 10 + 1 + 18 characters as text: more than the 28
    // read as a figure, so it is read from its text; the others are figures.
    write(
        dir.path(),
        "wide",
        "SELECT * FROM (VALUES \
         ('GPU hours', 1234567890.123456789012345678::DECIMAL(38,18), 'USD'), \
         ('Storage', 0.5::DECIMAL(38,18), 'USD'), \
         ('Network', -2.25::DECIMAL(38,18), 'USD')) v(Description, Amount, Currency)",
    );
    let pq = summary(&dir.path().join("wide.parquet"));
    // 1234567890.123456789012345678 + 0.5 - 2.25 = 1234567888.373456789012345678.
    assert_eq!(pq.0, "1234567888.373456789012345678", "{pq:?}");
    assert_eq!((pq.1, pq.2), (3, 0), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("wide.csv")));
    write(
        dir.path(),
        "ints",
        "SELECT * FROM (VALUES ('GPU hours', 7::BIGINT, 'USD'), ('Credit', -2::INTEGER, 'USD')) v(Description, Amount, Currency)",
    );
    let pq = summary(&dir.path().join("ints.parquet"));
    // 7 - 2 = 5.
    assert_eq!((pq.0.as_str(), pq.1), ("5", 2), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("ints.csv")));
}

/// A Parquet row's record holds only the columns read (docs/decisions.md,
/// "Parquet: a record of only the read columns"); the folded ones still
/// decide the blank-row and oversized-cell tests, and the first oversized
/// cell in the file's column order is the one named, as for the same rows
/// as CSV. `Zeta` and `Eta` are columns no profile reads.
#[test]
fn folded_columns_decide_blank_rows_and_name_the_first_oversized_cell() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "folded",
        "SELECT * FROM (VALUES \
         ('GPU hours', 4.00::DECIMAL(12,2), 'USD', 'a', 'b'), \
         (NULL, NULL, NULL, repeat(' ', 300000), NULL), \
         ('Storage', 6.00::DECIMAL(12,2), 'USD', repeat('y', 300000), repeat('z', 300001)), \
         (repeat('d', 300002), 1.00::DECIMAL(12,2), 'USD', repeat('y', 300000), NULL), \
         ('Network', 2.00::DECIMAL(12,2), 'USD', NULL, ' ')) v(Description, Amount, Currency, Zeta, Eta)",
    );
    let path = dir.path().join("folded.parquet");
    let pq = summary(&path);
    // Line 3 is blank (300,000 spaces and nulls); lines 4 and 5 hold a
    // cell over 256 KiB. Items: lines 2 and 6, 4.00 + 2.00 = 6.00; three
    // skips.
    assert_eq!(codes(&pq, "unparsable-value"), [Some(4), Some(5)], "{pq:?}");
    assert_eq!((pq.0.as_str(), pq.1, pq.2), ("6.00", 2, 3), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("folded.csv")));
    // Line 4 names Zeta (the first of its two long cells), line 5 the
    // description (left of Zeta's).
    let (report, _) = audit_json(&[path.to_str().expect("utf-8 path")]);
    let message = |line: u64| {
        report.bills[0]
            .findings
            .iter()
            .find(|f| f.line == Some(line))
            .map(|f| f.message.clone())
            .unwrap_or_default()
    };
    assert!(
        message(4).starts_with("column `Zeta`: a cell of 300000 bytes"),
        "{}",
        message(4)
    );
    assert!(
        message(5).starts_with("column `Description`: a cell of 300002 bytes"),
        "{}",
        message(5)
    );
}

/// FOCUS money terms (`ContractedCost`, `ContractedUnitPrice`,
/// `EffectiveCost`) as DECIMAL are read as exact values, as the amount is,
/// with the same findings as the same rows as CSV.
#[test]
fn decimal_money_terms_give_the_findings_of_their_text() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "terms",
        "SELECT * FROM (VALUES \
         ('GPU hours', 150.00::DECIMAL(12,2), 'USD', 10::DECIMAL(12,0), NULL::DECIMAL(12,2), 120.00::DECIMAL(12,2), 150.00::DECIMAL(12,2), 'Usage'), \
         ('Storage', 10.00::DECIMAL(12,2), 'USD', 20::DECIMAL(12,0), 0.40::DECIMAL(12,2), NULL::DECIMAL(12,2), 10.00::DECIMAL(12,2), 'Usage'), \
         ('Network', 5.00::DECIMAL(12,2), 'USD', 1::DECIMAL(12,0), 5.00::DECIMAL(12,2), 5.00::DECIMAL(12,2), 5.00::DECIMAL(12,2), 'Usage')) \
         v(ChargeDescription, BilledCost, BillingCurrency, PricingQuantity, ContractedUnitPrice, ContractedCost, EffectiveCost, ChargeCategory)",
    );
    let pq = summary(&dir.path().join("terms.parquet"));
    // Line 2: 150.00 billed, 120.00 contracted (30.00 above). Line 3: no
    // ContractedCost, 0.40 x 20 = 8.00 contracted, 10.00 billed (2.00
    // above, more than 0.005 + 20 x 0.005 = 0.105 of rounding). Line 4:
    // 5.00 billed, 5.00 contracted. Total 150.00 + 10.00 + 5.00 = 165.00.
    // The bill's own finding (no line) sums the two.
    assert_eq!(
        codes(&pq, "above-contracted-price"),
        [None, Some(2), Some(3)],
        "{pq:?}"
    );
    assert_eq!((pq.0.as_str(), pq.1, pq.2), ("165.00", 3, 0), "{pq:?}");
    assert_eq!(pq, summary(&dir.path().join("terms.csv")));
}
