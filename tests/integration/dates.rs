//! Slashed dates (`03/04/2024`) are read day-first or month-first per file,
//! from the file's own evidence or its profile's `date-order`; when nothing
//! decides, the report says which order was assumed.

use billaudit::report::json::to_json;
use billaudit::{Options, Parallelism, audit_bytes, audit_paths};

use crate::common::{fixture, run};

fn months(bytes: &[u8], opts: &Options) -> (Vec<(String, String)>, Vec<String>) {
    let bills = audit_bytes("bill.csv", bytes, opts).unwrap();
    assert_eq!(bills.len(), 1);
    let b = &bills[0];
    let m = b
        .monthly
        .months
        .iter()
        .map(|m| (m.month.clone(), m.subtotal.to_string()))
        .collect();
    (m, b.notes.clone())
}

// `13/05/2024` proves the file day-first (there is no month 13), so the
// second row `02/05/2024` is 2 May, not 5 February: both rows fall in
// 2024-05, subtotal 20.00 + 10.00 = 30.00, hidden 0, share 0.00%. Before,
// the first row had no date and the second was February (2024-02, 10.00).
#[test]
fn a_day_first_file_reads_its_ambiguous_dates_day_first() {
    let out = run(&[
        "audit",
        "--format",
        "html",
        "fixtures/csv/day-first-dates.csv",
    ]);
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        page.contains(
            "<tr><td>2024-05</td><td class=\"num\">0</td><td class=\"num\">30.00</td><td class=\"num\">0.00%</td></tr>"
        ),
        "{page}"
    );
    assert!(!page.contains("2024-02"), "not February");
    // The same through the library, and decided by evidence: nothing to note.
    let bytes = std::fs::read(fixture("csv/day-first-dates.csv")).unwrap();
    let (months, notes) = months(&bytes, &Options::default());
    assert_eq!(months, [("2024-05".to_string(), "30.00".to_string())]);
    assert!(notes.is_empty(), "{notes:?}");
}

// Only `02/05/2024` and `03/05/2024`: either order reads them. Month-first
// is assumed (2024-02 and 2024-03, 10.00 each) and the report says so.
#[test]
fn an_undecided_file_says_which_order_was_assumed() {
    let csv =
        "Date,Item,Cost,Currency\n02/05/2024,GPU hours,10.00,USD\n03/05/2024,GPU hours,10.00,USD\n";
    let (months, notes) = months(csv.as_bytes(), &Options::default());
    assert_eq!(
        months,
        [
            ("2024-02".to_string(), "10.00".to_string()),
            ("2024-03".to_string(), "10.00".to_string())
        ]
    );
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("month-first (mdy"), "{}", notes[0]);
    assert!(notes[0].contains("date-order"), "{}", notes[0]);
}

// A profile stating `date-order = "dmy"` decides: 02/05 and 03/05 are 2 and
// 3 May (10.00 + 10.00 = 20.00), with nothing assumed to note.
#[test]
fn a_profile_states_the_order() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("billaudit.toml");
    std::fs::write(
        &cfg,
        "[[profile]]\nname = \"eu-gpu\"\ncost = \"Cost\"\ncolumns = { date = \"Date\", description = \"Item\" }\ndate-order = \"dmy\"\n",
    )
    .unwrap();
    let bill = dir.path().join("bill.csv");
    std::fs::write(
        &bill,
        "Date,Item,Cost\n02/05/2024,GPU hours,10.00\n03/05/2024,GPU hours,10.00\n",
    )
    .unwrap();
    let out = run(&[
        "audit",
        "--config",
        cfg.to_str().unwrap(),
        "--format",
        "html",
        bill.to_str().unwrap(),
    ]);
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains("eu-gpu"), "read with the profile: {out:?}");
    assert!(page.contains("2024-05"), "May");
    assert!(!page.contains("2024-02"), "not February");
    // A bad value is a config error naming the key's place.
    std::fs::write(
        &cfg,
        "[[profile]]\nname = \"eu-gpu\"\ncost = \"Cost\"\ndate-order = \"ymd\"\n",
    )
    .unwrap();
    let out = run(&[
        "audit",
        "--config",
        cfg.to_str().unwrap(),
        bill.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a date order"), "{err}");
}

// The order is decided from the first 64 KiB before any row is dated, so a
// file read on several threads is dated exactly as on one. Here the first
// 64 KiB hold only dates either order reads (month-first is assumed), and a
// row far past them (`25/06/2024`) proves day-first: the report names its
// line, whichever way the file was read.
#[test]
fn a_late_contradiction_is_noted_the_same_on_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.csv");
    let mut s = String::from("Date,Item,Cost,Currency\n");
    let rows = 4000; // ~40 bytes a row: 160 KB, past the 64 KiB prefix
    for _ in 0..rows {
        s.push_str("02/05/2024,GPU hours with a long name,1.00,USD\n");
    }
    s.push_str("25/06/2024,GPU hours with a long name,1.00,USD\n");
    std::fs::write(&path, &s).unwrap();
    let contradiction_line = rows + 2; // header is line 1
    let run_with = |parallel: Parallelism| {
        let opts = Options {
            parallel,
            ..Options::default()
        };
        let report = audit_paths(&[path.to_str().unwrap().to_string()], &opts);
        to_json(&report).bills[0].notes.clone()
    };
    let one = run_with(Parallelism {
        threads: Some(1),
        min_bytes: u64::MAX,
        chunk_bytes: 1 << 20,
    });
    let many = run_with(Parallelism {
        threads: Some(3),
        min_bytes: 0,
        chunk_bytes: 8 * 1024,
    });
    assert_eq!(one, many);
    assert_eq!(one.len(), 1, "{one:?}");
    assert!(
        one[0].contains(&format!("line {contradiction_line} ")),
        "{}",
        one[0]
    );
    assert!(one[0].contains("only dmy reads"), "{}", one[0]);
}
