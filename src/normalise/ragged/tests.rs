use super::*;
use crate::normalise::date::DateScan;
use crate::normalise::profile::{ColumnOverrides, CostBasis};
use crate::normalise::{detect_header, profiles};

fn rec(cells: &[&str]) -> ByteRecord {
    ByteRecord::from(cells.to_vec())
}

/// The mend of `cells` under `header`, read with the built-in profiles.
fn mend(header: &[&str], cells: &[&str], mark: DecimalMark) -> Option<Mended> {
    let profiles = profiles::builtin();
    let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
    let (_, map) = detect_header(
        &profiles,
        &header,
        1,
        &ColumnOverrides::default(),
        CostBasis::default(),
        false,
    )
    .expect("a header the generic profile knows");
    let map = map.expect("its columns");
    let dates = DateScan::default();
    let n = RowNormaliser {
        map: &map,
        mark,
        path: "bill.csv",
        dates: &dates,
        delimiter: b',',
    };
    n.mend(7, &rec(cells))
}

fn joined(m: &Mended) -> Vec<String> {
    let r = m.record.as_ref().expect("a mended record");
    r.iter()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}

#[test]
fn an_amount_split_at_its_thousands_separator_is_joined() {
    let m = mend(
        &["Description", "Amount"],
        &["A100 rental", "1", "234.50"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert_eq!(joined(&m), ["A100 rental", "1,234.50"]);
    assert_eq!(m.finding.code, Check::RaggedRow);
    assert_eq!(m.finding.line, Some(7));
    assert!(
        m.finding
            .message
            .contains("`1` and `234.50` read as one `Amount`, `1,234.50`"),
        "{}",
        m.finding.message
    );
}

#[test]
fn two_thousands_groups_and_a_currency_sign_are_joined() {
    let m = mend(
        &["Date", "Description", "Amount", "Currency"],
        &["2024-05-01", "H100 reserved", "$1", "234", "567.00", "USD"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert_eq!(
        joined(&m),
        ["2024-05-01", "H100 reserved", "$1,234,567.00", "USD"]
    );
}

#[test]
fn a_comma_in_the_description_is_joined_when_the_amount_then_reads() {
    let m = mend(
        &["Description", "Amount"],
        &["GPU rental", " 8x A100", "100.00"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert_eq!(joined(&m), ["GPU rental, 8x A100", "100.00"]);
    assert!(
        m.finding.message.contains("inside the text"),
        "{}",
        m.finding.message
    );
}

#[test]
fn a_decimal_comma_split_off_is_joined_in_a_decimal_comma_file() {
    let m = mend(
        &["Beschreibung", "Betrag"],
        &["Speicher", "12", "50"],
        DecimalMark::Comma,
    )
    .unwrap();
    assert_eq!(joined(&m), ["Speicher", "12,50"]);
}

#[test]
fn an_extra_cell_nothing_explains_is_reported_and_the_row_read_by_position() {
    let m = mend(
        &["Description", "Amount"],
        &["Storage", "12", "5x"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert!(m.record.is_none());
    assert!(
        m.finding.message.contains("read by position") && m.finding.message.contains("`5x`"),
        "{}",
        m.finding.message
    );
}

#[test]
fn the_one_reading_that_reads_is_taken() {
    // `12` + `50` is no grouped number (`50` is not three digits): the one
    // reading is the description's, `Storage,12`, with amount 50.
    let m = mend(
        &["Description", "Amount"],
        &["Storage", "12", "50"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert_eq!(joined(&m), ["Storage,12", "50"]);
    // Two text columns that could each take the extra cell, giving the
    // same amount: the description's reading is taken.
    let m = mend(
        &["Service", "Description", "Amount"],
        &["Compute", "GPU", " A100", "100.00"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert_eq!(joined(&m), ["Compute", "GPU, A100", "100.00"]);
}

#[test]
fn readings_that_disagree_on_the_amount_are_not_guessed_between() {
    // `GPU,100.00` as the description puts 200.00 in `Amount`; `200.00,x`
    // as the note leaves 100.00 there. Nothing says which: by position.
    let m = mend(
        &["Description", "Amount", "Notes"],
        &["GPU", "100.00", "200.00", "x"],
        DecimalMark::Dot,
    )
    .unwrap();
    assert!(m.record.is_none());
    assert!(
        m.finding.message.contains("give different amounts"),
        "{}",
        m.finding.message
    );
}

#[test]
fn trailing_empty_cells_are_not_a_ragged_row() {
    assert!(
        mend(
            &["Description", "Amount"],
            &["Storage", "12.00", "", " "],
            DecimalMark::Dot
        )
        .is_none()
    );
    assert!(
        mend(
            &["Description", "Amount"],
            &["Storage", "12.00"],
            DecimalMark::Dot
        )
        .is_none()
    );
}

#[test]
fn grouped_numbers_are_recognised_exactly() {
    let g = |p: &[&str]| {
        let p: Vec<&[u8]> = p.iter().map(|s| s.as_bytes()).collect();
        grouped(&p, DecimalMark::Dot, b',')
    };
    assert!(g(&["1", "234.50"]));
    assert!(g(&["-$12", "345"]));
    assert!(g(&["(1", "234.50)"]));
    assert!(g(&["999", "000", "000.1"]));
    assert!(!g(&["1234", "567.00"]), "a first group of four digits");
    assert!(!g(&["1", "23.50"]), "a group of two digits");
    assert!(!g(&["1", "2345"]), "a group of four digits");
    assert!(!g(&["A100 rental", "1"]));
    assert!(!g(&["12"]), "one piece is no join");
    let p: Vec<&[u8]> = vec![b"1", b"234.50"];
    assert!(
        !grouped(&p, DecimalMark::Dot, b';'),
        "only a comma delimiter splits thousands"
    );
}
