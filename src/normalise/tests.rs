use super::*;

#[test]
fn credit_lists() {
    let py = "[{'name': 'FreeTrial:Credit-000000', 'amount': -5e-06, 'full_name': None, 'id': 'x', 'type': 'PROMOTION'}]";
    let c = parse_credit_list(py, DecimalMark::Dot).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].0, "FreeTrial:Credit-000000");
    assert_eq!(c[0].1.to_string(), "-0.000005");
    let js = r#"[{"name":"a","amount":-1.23},{"name":"b, c","amount":-0.5}]"#;
    let c = parse_credit_list(js, DecimalMark::Dot).unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(c[1].0, "b, c");
    assert!(
        parse_credit_list("[]", DecimalMark::Dot)
            .unwrap()
            .is_empty()
    );
    assert!(parse_credit_list("oops", DecimalMark::Dot).is_err());
    assert!(parse_credit_list("[{'name': 'x'}]", DecimalMark::Dot).is_err());
}

use crate::model::Category;
use chrono::NaiveDateTime;
use std::str::FromStr;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}
fn at(s: &str) -> Option<NaiveDateTime> {
    Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
}
fn strings(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}
/// The generic profile's mapping of a header row.
fn map(header: &[&str]) -> ColumnMap {
    let p = profile::generic();
    map_header(&p, &strings(header), &Vec::new(), CostBasis::Billed, false)
        .unwrap()
        .unwrap()
}
fn rec(cells: &[&str]) -> ::csv::ByteRecord {
    ::csv::ByteRecord::from(cells.to_vec())
}
/// One row through a normaliser of `map`, in a month-first file.
fn run(map: &ColumnMap, line: u64, cells: &[&str]) -> RowOutcome {
    let dates = date::DateScan::default();
    let n = RowNormaliser {
        map,
        mark: DecimalMark::Dot,
        path: "bill.csv",
        dates: &dates,
        delimiter: b',',
    };
    n.row(line, &rec(cells))
}
fn item(o: RowOutcome) -> Box<LineItem> {
    match o {
        RowOutcome::Item(i) => i,
        other => panic!("expected an item, got {other:?}"),
    }
}
fn skip(o: RowOutcome) -> (SkipReason, Option<Finding>) {
    match o {
        RowOutcome::Skip(r, f) => (r, f),
        other => panic!("expected a skip, got {other:?}"),
    }
}

const HEADER: &[&str] = &[
    "Description",
    "Type",
    "Service",
    "Quantity",
    "Unit",
    "Currency",
    "Amount",
];

#[test]
fn a_row_becomes_an_item_with_every_field() {
    let m = map(HEADER);
    let i = item(run(
        &m,
        7,
        &["VM", "usage", "VM", "20", "hours", "eur", "12.30"],
    ));
    assert_eq!(i.line, 7);
    assert_eq!(i.amount.to_string(), "12.30");
    assert_eq!(i.quantity, Some(d("20")));
    assert_eq!(i.unit.as_deref(), Some("hours"));
    // `eur` is not an ISO code as written: mapped to `EUR`.
    assert_eq!(i.currency.as_deref(), Some("EUR"));
    // Tier 0 (Description, Type), tier 1 (Service); the description has
    // each distinct text once, in tier order.
    assert_eq!(
        i.class_text,
        vec![strings(&["VM", "usage"]), strings(&["VM"])]
    );
    assert_eq!(i.description, "VM / usage");
    assert_eq!(i.forced, None);
}

#[test]
fn placeholders_are_not_texts_and_units_come_from_the_quantity() {
    let m = map(HEADER);
    // `-` and `N/A` are placeholders: no text, no unit, no currency cell
    // (the header gives none either).
    let i = item(run(
        &m,
        2,
        &["-", "N/A", "Compute", "20 hours", "", "¥", "1"],
    ));
    assert_eq!(
        i.class_text,
        vec![Vec::<String>::new(), strings(&["Compute"])]
    );
    assert_eq!(i.description, "Compute");
    // `20 hours`: the quantity with its unit glued on.
    assert_eq!(i.quantity, Some(d("20")));
    assert_eq!(i.unit.as_deref(), Some("hours"));
    // `¥` is a known name: CNY.
    assert_eq!(i.currency.as_deref(), Some("CNY"));
}

#[test]
fn unreadable_cells_are_findings_naming_the_column() {
    let m = map(HEADER);
    let (reason, f) = skip(run(&m, 9, &["VM", "", "", "", "", "", "abc"]));
    assert_eq!(reason, SkipReason::Unparsable);
    let f = f.unwrap();
    assert_eq!(f.code, Check::UnparsableValue);
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.path, "bill.csv");
    assert_eq!(f.line, Some(9));
    assert_eq!(
        f.message,
        "column `Amount`: `abc` is not a number; the row is kept out of the totals"
    );
    // A unit glued to the amount is not read (only quantities have units).
    let (reason, _) = skip(run(&m, 9, &["VM", "", "", "", "", "", "5 apples"]));
    assert_eq!(reason, SkipReason::Unparsable);
    // A missing amount is its own finding.
    let (reason, f) = skip(run(&m, 3, &["VM", "", "", "", "", "", "-"]));
    assert_eq!(reason, SkipReason::MissingAmount);
    let f = f.unwrap();
    assert_eq!(f.code, Check::MissingAmount);
    assert_eq!(
        f.message,
        "column `Amount` is empty or a placeholder; the row is kept out of the totals"
    );
    // A blank row.
    assert_eq!(
        skip(run(&m, 4, &["", " ", "", "", "", "", ""])).0,
        SkipReason::Blank
    );
}

#[test]
fn summary_rows_are_stated_figures_or_forced_items() {
    let m = map(HEADER);
    match run(&m, 5, &["Subtotal", "", "", "", "", "USD", "100.00"]) {
        RowOutcome::Stated {
            kind,
            amount,
            currency,
            less_tax,
        } => {
            assert_eq!(kind, SummaryKind::Subtotal);
            // Its figure is in the amount column: no tax to take out.
            assert!(!less_tax);
            assert_eq!(amount, d("100.00"));
            assert_eq!(currency.as_deref(), Some("USD"));
        }
        other => panic!("{other:?}"),
    }
    // A subtotal without a figure states nothing.
    assert_eq!(
        skip(run(&m, 5, &["Subtotal", "", "", "", "", "", ""])),
        (SkipReason::Summary, None)
    );
    // `Subtotal` beside another text is an item.
    let i = item(run(&m, 5, &["Subtotal", "VM", "", "", "", "", "1"]));
    assert_eq!(i.forced, None);
    // Tax and discount rows are items of their category; a discount
    // written positive is taken off: 5 -> -5; zero stays a plain 0.
    let i = item(run(&m, 6, &["Tax", "", "", "", "", "", "8"]));
    assert_eq!(i.forced, Some((Category::Tax, "summary-tax")));
    assert_eq!(i.amount, d("8"));
    let i = item(run(&m, 6, &["Discount", "", "", "", "", "", "5"]));
    assert_eq!(i.forced, Some((Category::Credit, "summary-credit")));
    assert_eq!(i.amount, d("-5"));
    let i = item(run(&m, 6, &["Discount", "", "", "", "", "", "0"]));
    assert!(!i.amount.is_sign_negative());
    assert_eq!(summary_label("Total USD"), Some(SummaryKind::Total));
    assert_eq!(summary_label("Compute"), None);
}

#[test]
fn a_header_currency_is_the_row_currency() {
    let m = map(&["Description", "Amount (USD)"]);
    match run(&m, 5, &["Total", "100.00"]) {
        RowOutcome::Stated { currency, .. } => assert_eq!(currency.as_deref(), Some("USD")),
        other => panic!("{other:?}"),
    }
    let i = item(run(&m, 6, &["VM", "1"]));
    assert_eq!(i.currency.as_deref(), Some("USD"));
}

#[test]
fn dates_from_start_end_and_ranges() {
    let m = map(&["Description", "Start", "End", "Amount"]);
    // A whole range in the start and in the end cell (Huawei): the start
    // takes its first date, the end its second.
    let range = "2025-10-01 - 2025-10-31";
    let i = item(run(&m, 2, &["VM", range, range, "1"]));
    assert_eq!(i.start, at("2025-10-01 00:00:00"));
    assert_eq!(i.end, at("2025-10-31 00:00:00"));
    // A slashed date that proves day-first is read and remembered.
    let i = item(run(&m, 3, &["VM", "13/05/2024", "", "1"]));
    assert_eq!(i.start, at("2024-05-13 00:00:00"));
    assert_eq!(i.date_proves, Some(date::DateOrder::DayFirst));
}

#[test]
fn fingerprints_tell_rows_apart_except_by_their_ids() {
    let m = map(&["Record ID", "Description", "Amount"]);
    let f = |cells: &[&str]| item(run(&m, 2, cells)).fingerprint;
    assert_eq!(f(&["1", "VM", "5"]), f(&["2", "VM", "5"]));
    assert_ne!(f(&["1", "VM", "5"]), f(&["1", "Disk", "5"]));
}

#[test]
fn cells_up_to_256_kib_are_read() {
    let m = map(&["Description", "Amount"]);
    let max = "x".repeat(MAX_CELL_BYTES);
    assert_eq!(MAX_CELL_BYTES, 262_144);
    // Exactly 256 KiB, with another cell: read (the row is longer than
    // the limit, no cell is).
    let i = item(run(&m, 2, &[&max, "1"]));
    assert_eq!(i.description.len(), 262_144);
    // 2000 bytes: far from the limit.
    assert!(matches!(
        run(&m, 2, &[&"y".repeat(2000), "1"]),
        RowOutcome::Item(_)
    ));
    // One byte more: a finding on that cell.
    let over = format!("{max}x");
    let (reason, f) = skip(run(&m, 2, &[&over, "1"]));
    assert_eq!(reason, SkipReason::Unparsable);
    assert!(
        f.unwrap().message.starts_with(
            "column `Description`: a cell of 262145 bytes, longer than any bill cell can be (at most 256 KiB)"
        )
    );
}

#[test]
fn credit_list_columns_split_a_row() {
    let mut m = map(&["Description", "Amount", "Credits"]);
    m.credit_list = Some(2);
    assert!(matches!(
        run(&m, 2, &["VM", "5", "[]"]),
        RowOutcome::Item(_)
    ));
    match run(&m, 2, &["VM", "5", "[{'name': 'promo', 'amount': -1.5}]"]) {
        RowOutcome::WithCredits(i, c) => {
            assert_eq!(i.amount, d("5"));
            assert_eq!(c.len(), 1);
            assert_eq!(c[0].description, "credit: promo");
            assert_eq!(c[0].amount, d("-1.5"));
            assert_eq!(c[0].forced, Some((Category::Credit, "credit-list")));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn detect_header_respects_skip_rows() {
    let header = strings(&["Description", "Amount"]);
    let g = [profile::generic()];
    let found = detect_header(&g, &header, 1, &Vec::new(), CostBasis::Billed, false);
    assert_eq!(
        found.map(|(p, m)| (p.name.clone(), m.unwrap().get(Role::Amount))),
        Some(("generic-csv".into(), Some(1)))
    );
    let mut skipping = profile::generic();
    skipping.skip_rows = 2;
    let s = [skipping];
    assert!(detect_header(&s, &header, 2, &Vec::new(), CostBasis::Billed, false).is_none());
    assert!(detect_header(&s, &header, 3, &Vec::new(), CostBasis::Billed, false).is_some());
}

#[test]
fn credit_list_edges() {
    let dot = DecimalMark::Dot;
    // Empty or placeholder cells: no credits.
    assert_eq!(parse_credit_list("", dot), Ok(Vec::new()));
    assert_eq!(parse_credit_list("-", dot), Ok(Vec::new()));
    // A list needs both brackets.
    assert!(parse_credit_list("[oops", dot).is_err());
    assert!(parse_credit_list("oops]", dot).is_err());
    // `amount` inside another key is not the amount: -2, not -3.
    let c = parse_credit_list("[{'name': 'x', 'my_amount': -3, 'amount': -2}]", dot).unwrap();
    assert_eq!(c, vec![("x".to_string(), d("-2"))]);
    let c = parse_credit_list("[{'name': 'xamount :1', 'amount': -2}]", dot).unwrap();
    assert_eq!(c, vec![("xamount :1".to_string(), d("-2"))]);
    // Quoted names keep their commas.
    let c = parse_credit_list(r#"[{"name": "a, b", "amount": -0.5}]"#, dot).unwrap();
    assert_eq!(c, vec![("a, b".to_string(), d("-0.5"))]);
}

#[test]
fn quantities_with_units() {
    let dot = DecimalMark::Dot;
    assert_eq!(
        split_quantity_unit("500GB", dot),
        Some((d("500"), "GB".into()))
    );
    assert_eq!(
        split_quantity_unit(" 1,000.5 hours ", dot),
        Some((d("1000.5"), "hours".into()))
    );
    assert_eq!(split_quantity_unit("20 h2", dot), None);
    assert_eq!(split_quantity_unit("GB 20", dot), None);
    assert_eq!(split_quantity_unit("20", dot), None);
    assert_eq!(split_quantity_unit("1-2 x", dot), None);
}

proptest::proptest! {
    #[test]
    fn credit_lists_never_panic(s in "\\PC{0,80}", t in "[\\[\\]{}'\":, a-z0-9.eE-]{0,60}") {
        let _ = parse_credit_list(&s, DecimalMark::Dot);
        let _ = parse_credit_list(&format!("[{{{t}}}]"), DecimalMark::Dot);
        let _ = parse_credit_list(&format!("[{{'amount': {t}"), DecimalMark::Dot);
    }
}
