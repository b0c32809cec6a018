//! A large file read on several threads gives exactly what one thread gives:
//! the same figures, the same findings on the same lines, even when a range
//! cut falls inside a quoted field that spans lines. The same holds for a
//! stream (here gzip), cut into blocks as it is read, and for a stream that
//! breaks off: the error is the one a single thread meets.
//!
//! Each range's rows are checked and tallied on the thread that read them
//! and the ranges' states merged in file order (`audit::BillState`); the
//! bills below have what every merged state holds: repeats, rows of two
//! currencies and of none, months, compute and storage of a few resources,
//! rounded-up hours, more findings than the cap, stated totals and skips.

use billaudit::report::json::to_json;
use billaudit::{Options, Parallelism, audit_paths};
use proptest::prelude::*;
use std::io::Write;

fn audit(path: &str, parallel: Parallelism) -> String {
    let opts = Options {
        parallel,
        ..Options::default()
    };
    audit_with(path, &opts)
}

fn audit_with(path: &str, opts: &Options) -> String {
    let report = audit_paths(&[path.to_string()], opts);
    serde_json::to_string_pretty(&to_json(&report)).unwrap()
}

/// At most `max` findings of a code are listed: the rest are counted.
fn capped(parallel: Parallelism, max: usize) -> Options {
    let mut opts = Options {
        parallel,
        ..Options::default()
    };
    opts.policy.max_findings_per_code = max;
    opts
}

/// A dated bill of GPU compute and storage of a few resources over four
/// months: rounded-up hours, idle storage days, repeated rows, inbound
/// traffic, unclassified lines, rows in USD, EUR and without a currency,
/// unreadable and missing amounts, blank rows, stated subtotals and totals.
fn dated_bill(seed: u64, rows: usize) -> String {
    let mut s = String::from(
        "Start,End,Description,Resource ID,Quantity,Unit,Unit Price,Amount,Currency\n",
    );
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut last = String::new();
    for _ in 0..rows {
        let r = next();
        if r % 11 == 0 && !last.is_empty() {
            // The row before, again: a duplicate line.
            s.push_str(&last);
            continue;
        }
        let day = 1 + r % 28;
        let month = 9 + (r >> 8) % 4;
        let cur = ["USD", "USD", "USD", "EUR", ""][((r >> 16) % 5) as usize];
        let hours = 1 + (r >> 20) % 5;
        let start = format!("2025-{month:02}-{day:02} 08:00:00");
        let row = match (r >> 24) % 9 {
            0..=2 => format!(
                "{start},2025-{month:02}-{day:02} {:02}:20:00,RTX 4090 GPU pod,pod-{},{hours},hours,0.70,{}.{:02},{cur}",
                7 + hours,
                r % 5,
                hours * 7 / 10,
                (hours * 70) % 100
            ),
            3 | 4 => format!(
                "{start},,Container disk,pod-{},50,GB-day,0.01,0.50,{cur}",
                (r >> 4) % 7
            ),
            5 => format!("{start},,Inbound data transfer,,3,GB,0.10,0.30,{cur}"),
            6 => format!("{start},,Mystery line {},,1,,,{}.25,{cur}", r % 3, r % 4),
            7 => match r % 6 {
                0 => ",,,,,,,,".to_string(),
                1 => format!("{start},,Network volume,vol-1,1,day,2.00,O.50,{cur}"),
                2 => format!("{start},,Network volume,vol-1,1,day,2.00,-,{cur}"),
                3 => format!("Subtotal,,,,,,,{}.00,{cur}", r % 50),
                _ => format!("Total,,,,,,,{}.00,{cur}", r % 90),
            },
            _ => format!("{start},,Internet egress,,10,GB,0.09,0.90,{cur}"),
        };
        last = format!("{row}\n");
        s.push_str(&last);
    }
    s
}

const SEQUENTIAL: Parallelism = Parallelism {
    threads: Some(1),
    min_bytes: u64::MAX,
    chunk_bytes: 1 << 20,
};

fn parallel(chunk_bytes: u64) -> Parallelism {
    Parallelism {
        threads: Some(3),
        min_bytes: 0,
        chunk_bytes,
    }
}

/// A bill whose rows vary: multi-line quoted descriptions, unreadable and
/// missing amounts, blank rows, two currencies, a stated total.
fn bill(seed: u64, rows: usize) -> String {
    let mut s = String::from("\u{feff}Description,Quantity,Unit Price,Amount,Currency\n");
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let kinds = [
        "GPU instance hours",
        "\"Volume snapshot\nsecond line, with a comma\"",
        "Internet egress",
        "\"Cluster management fee \"\"pro\"\"\"",
        "Mystery line",
        "\"数据盘快照\r\n(夜间)\"",
    ];
    for i in 0..rows {
        let r = next();
        let kind = kinds[(r % kinds.len() as u64) as usize];
        let q = r % 50 + 1;
        let amount = match r % 97 {
            0 => "O.50".to_string(),
            1 => "-".to_string(),
            // Unquoted thousands (a ragged row, mended) and a stray cell
            // (a ragged row read by position).
            2 | 3 => format!("{q},{:03}.{:02}", r % 1000, r % 100),
            4 => format!("{q}.00,5x"),
            _ => format!("{}.{:02}", q * 3 / 2, r % 100),
        };
        let cur = if r % 31 == 0 { "EUR" } else { "USD" };
        if r % 53 == 0 {
            s.push_str(",,,,\n");
        }
        // A tax summary row without a figure (a note, not a finding).
        if r % 59 == 0 {
            s.push_str("VAT,,,,USD\n");
        }
        s.push_str(&format!("{kind},{q},1.50,{amount},{cur}\n"));
        let _ = i;
    }
    s.push_str("Total,,,1.00,USD\n");
    s
}

#[test]
fn parallel_reading_equals_sequential_reading() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.csv");
    std::fs::write(&p, bill(7, 3000)).unwrap();
    let path = p.to_str().unwrap();
    let want = audit(path, SEQUENTIAL);
    assert!(want.contains("unparsable-value") && want.contains("missing-amount"));
    assert!(want.contains("read as one `Amount`") && want.contains("read by position"));
    assert!(
        want.contains("rows have this shape") && want.contains("summary rows without a figure")
    );
    for chunk in [64, 100, 333, 1000, 4096, 65536] {
        assert_eq!(audit(path, parallel(chunk)), want, "chunk size {chunk}");
    }
}

fn gzip(text: &str) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap()
}

#[test]
fn a_gzip_stream_read_in_blocks_equals_sequential_reading() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.csv.gz");
    std::fs::write(&p, gzip(&bill(11, 3000))).unwrap();
    let path = p.to_str().unwrap();
    let want = audit(path, SEQUENTIAL);
    assert!(want.contains("unparsable-value") && want.contains("EUR"));
    for chunk in [1, 64, 100, 333, 1000, 4096, 65536] {
        assert_eq!(audit(path, parallel(chunk)), want, "block size {chunk}");
    }
}

#[test]
fn a_stream_that_breaks_off_gives_the_sequential_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cut.csv.gz");
    let whole = gzip(&bill(5, 3000));
    // The gzip stream ends half way: the rows before are read, then an error.
    std::fs::write(&p, &whole[..whole.len() / 2]).unwrap();
    let path = p.to_str().unwrap();
    let want = audit(path, SEQUENTIAL);
    assert!(want.contains("error"), "{want}");
    for chunk in [64, 1000, 65536] {
        assert_eq!(audit(path, parallel(chunk)), want, "block size {chunk}");
    }
}

/// (code, line) of every finding, and the totals: what must not depend on
/// the line ends of the file.
fn lines_and_totals(json: &str) -> (Vec<(String, Option<u64>)>, Vec<String>) {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let mut lines = Vec::new();
    let mut totals = Vec::new();
    for b in v["bills"].as_array().unwrap() {
        totals.push(b["totals"].to_string());
        for f in b["findings"].as_array().unwrap() {
            lines.push((f["code"].as_str().unwrap().to_string(), f["line"].as_u64()));
        }
    }
    (lines, totals)
}

/// A CRLF file reports the same lines as its LF twin (the csv crate puts a
/// record after a CRLF, or after blank lines, a line early; billaudit
/// corrects it), on one thread or several.
#[test]
fn crlf_and_blank_lines_do_not_shift_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    // Blank lines in between, and no line end inside a cell.
    let lf = bill(3, 2000)
        .replace(
            "\"Volume snapshot\nsecond line, with a comma\"",
            "Volume snapshot",
        )
        .replace("\"数据盘快照\r\n(夜间)\"", "数据盘快照")
        .replace("Internet egress", "\n\nInternet egress");
    assert!(lf.contains("\n\n\nInternet egress"));
    let crlf = lf.replace('\n', "\r\n");
    let p_lf = dir.path().join("lf.csv");
    let p_crlf = dir.path().join("crlf.csv");
    std::fs::write(&p_lf, &lf).unwrap();
    std::fs::write(&p_crlf, &crlf).unwrap();
    let want = lines_and_totals(&audit(p_lf.to_str().unwrap(), SEQUENTIAL));
    assert!(
        want.0
            .iter()
            .any(|(c, l)| c == "unparsable-value" && l.is_some())
    );
    for chunk in [None, Some(100), Some(4096)] {
        for p in [&p_lf, &p_crlf] {
            let par = chunk.map_or(SEQUENTIAL, parallel);
            let got = lines_and_totals(&audit(p.to_str().unwrap(), par));
            assert_eq!(got, want, "{} {chunk:?}", p.display());
        }
    }
}

#[test]
fn a_dated_bill_with_capped_findings_read_in_small_ranges_equals_sequential_reading() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("dated.csv");
    std::fs::write(&p, dated_bill(13, 4000)).unwrap();
    let path = p.to_str().unwrap();
    let want = audit_with(path, &capped(SEQUENTIAL, 3));
    // What the merged states must get right is in the bill.
    for code in [
        "duplicate-line",
        "idle-storage",
        "billing-rounding",
        "ingress-charged",
        "unclassified-items",
        "mixed-currency",
        "unparsable-value",
        "more `duplicate-line` findings not listed",
    ] {
        assert!(want.contains(code), "{code}");
    }
    for chunk in [64, 300, 2048, 65536] {
        let got = audit_with(path, &capped(parallel(chunk), 3));
        assert_eq!(got, want, "chunk size {chunk}");
    }
}

/// Where the items themselves are needed (`billaudit lines`, `convert`),
/// the rows still reach the ordering thread: the hook sees every item in
/// file order, and the bills are the same.
#[test]
fn the_item_hook_sees_every_item_in_order_on_several_threads() {
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("dated.csv");
    std::fs::write(&p, dated_bill(17, 3000)).unwrap();
    let path = p.to_str().unwrap();
    let run = |parallel: Parallelism| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let mut opts = capped(parallel, 3);
        opts.item_hook = Some(billaudit::pipeline::ItemHook(Arc::new(move |_, item| {
            sink.lock().unwrap().push((item.line, item.amount));
        })));
        let json = audit_with(path, &opts);
        let lines = seen.lock().unwrap().clone();
        (json, lines)
    };
    let (want_json, want_lines) = run(SEQUENTIAL);
    assert!(want_lines.len() > 2000, "{}", want_lines.len());
    assert!(want_lines.windows(2).all(|w| w[0].0 <= w[1].0));
    let (json, lines) = run(parallel(200));
    assert_eq!(lines, want_lines);
    assert_eq!(json, want_json);
    assert_eq!(want_json, audit_with(path, &capped(parallel(200), 3)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn any_cut_of_a_dated_bill_gives_the_same_result(
        seed in any::<u64>(),
        rows in 1usize..400,
        chunk in 16u64..2000,
        max in 1usize..4,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.csv");
        std::fs::write(&p, dated_bill(seed, rows)).unwrap();
        let path = p.to_str().unwrap();
        let want = audit_with(path, &capped(SEQUENTIAL, max));
        prop_assert_eq!(audit_with(path, &capped(parallel(chunk), max)), want);
    }

    #[test]
    fn any_block_size_of_a_dated_stream_gives_the_same_result(
        seed in any::<u64>(),
        rows in 1usize..400,
        chunk in 1u64..2000,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.csv.gz");
        std::fs::write(&p, gzip(&dated_bill(seed, rows))).unwrap();
        let path = p.to_str().unwrap();
        let want = audit_with(path, &capped(SEQUENTIAL, 2));
        prop_assert_eq!(audit_with(path, &capped(parallel(chunk), 2)), want);
    }

    #[test]
    fn any_cut_gives_the_same_result(seed in any::<u64>(), rows in 1usize..400, chunk in 16u64..2000) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.csv");
        std::fs::write(&p, bill(seed, rows)).unwrap();
        let path = p.to_str().unwrap();
        prop_assert_eq!(audit(path, parallel(chunk)), audit(path, SEQUENTIAL));
    }

    #[test]
    fn any_block_size_gives_the_same_result_on_a_stream(seed in any::<u64>(), rows in 1usize..400, chunk in 1u64..2000) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.csv.gz");
        std::fs::write(&p, gzip(&bill(seed, rows))).unwrap();
        let path = p.to_str().unwrap();
        prop_assert_eq!(audit(path, parallel(chunk)), audit(path, SEQUENTIAL));
    }

    #[test]
    fn any_cut_of_a_crlf_file_gives_the_same_result(seed in any::<u64>(), rows in 1usize..300, chunk in 16u64..2000) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.csv");
        std::fs::write(&p, bill(seed, rows).replace('\n', "\r\n")).unwrap();
        let path = p.to_str().unwrap();
        prop_assert_eq!(audit(path, parallel(chunk)), audit(path, SEQUENTIAL));
    }

    /// Quoting the fast splitter does not model (text after a closing
    /// quote, a quote opening mid-file that closes lines later) is read by
    /// the csv crate from there on: the result is still the sequential one.
    #[test]
    fn malformed_quoting_gives_the_same_result(seed in any::<u64>(), rows in 1usize..300, chunk in 16u64..2000, at in any::<usize>()) {
        let text = bill(seed, rows);
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let damage = ["\"GPU\" hours,1,1.50,2.00,USD\n", "\"Egress,1,1.50,\n2.00,USD\n"];
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            out.push_str(l);
            if i > 0 && (i + at) % 37 == 0 {
                out.push_str(damage[(i + at) % damage.len()]);
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.csv");
        std::fs::write(&p, out).unwrap();
        let path = p.to_str().unwrap();
        prop_assert_eq!(audit(path, parallel(chunk)), audit(path, SEQUENTIAL));
    }
}

/// A row whose first cell starts with U+FEFF keeps it wherever a range or
/// block starts, as one thread reading the whole file keeps it: only the
/// byte-order mark at the very start of the file is dropped. (Before, the
/// csv crate dropped it at the start of every range: the items of the
/// rows a range began with lost the character.) With `quoted`, every row
/// has a note with a line break in quotes, so cuts fall inside records and
/// reading resumes on one thread from a row's start: the mark is kept there
/// too.
#[test]
fn a_byte_order_mark_at_the_start_of_a_range_is_the_rows_text() {
    bom_rows_read_in_ranges(false);
}

#[test]
fn a_byte_order_mark_where_reading_resumes_is_the_rows_text() {
    bom_rows_read_in_ranges(true);
}

fn bom_rows_read_in_ranges(quoted: bool) {
    use std::sync::{Arc, Mutex};
    let mut text = String::from("\u{feff}Description,Note,Quantity,Unit Price,Amount,Currency\n");
    for i in 0..2000 {
        let note = if quoted {
            "\"first line\nsecond line\""
        } else {
            "-"
        };
        text.push_str(&format!(
            "\u{feff}GPU instance hours {i},{note},2,1.50,3.00,USD\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bom-rows.csv");
    std::fs::write(&p, &text).unwrap();
    let gz = dir.path().join("bom-rows.csv.gz");
    std::fs::write(&gz, gzip(&text)).unwrap();
    let run = |path: &std::path::Path, parallel: Parallelism| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let mut opts = Options {
            parallel,
            ..Options::default()
        };
        opts.item_hook = Some(billaudit::pipeline::ItemHook(Arc::new(move |_, item| {
            sink.lock()
                .unwrap()
                .push((item.line, item.description.clone()));
        })));
        let json = audit_with(path.to_str().unwrap(), &opts);
        let descriptions = seen.lock().unwrap().clone();
        (json, descriptions)
    };
    let (want_json, want) = run(&p, SEQUENTIAL);
    // Hand-made: 2,000 rows, each description as written, mark and all,
    // row i on line 2 + i (or 2 + 2i when each row takes two lines).
    assert_eq!(want.len(), 2000);
    let lines_per_row = if quoted { 2 } else { 1 };
    assert!(want.iter().enumerate().all(|(i, (line, d))| {
        *line == 2 + lines_per_row * i as u64 && *d == format!("\u{feff}GPU instance hours {i}")
    }));
    for chunk in [64, 100, 333, 4096] {
        for path in [&p, &gz] {
            let (json, got) = run(path, parallel(chunk));
            let first_difference =
                (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i));
            assert_eq!(
                first_difference,
                None,
                "{} in ranges of {chunk}: {:?}",
                path.display(),
                first_difference.map(|i| (want.get(i), got.get(i)))
            );
            if path == &p {
                assert_eq!(json, want_json, "ranges of {chunk}");
            }
        }
    }
}

/// A last line that opens a quote and never closes it, with no line break
/// after it (`"Egress,5.00` at the very end of the file): the csv reader
/// makes it one cell, `Egress,5.00`, a row without an amount, and the
/// 5.00 would be lost behind a `missing-amount` warning. As with the line
/// break after it (hostile.rs,
/// `an_unclosed_quote_swallowing_a_few_rows_is_an_error_naming_its_row`),
/// it is an input error naming the file and the row's line, on one thread,
/// in byte ranges and in a gzip stream's blocks alike.
#[test]
fn an_unclosed_quote_on_the_last_line_without_a_line_break_is_an_error_on_every_reader() {
    let mut text = String::from("Description,Amount\n");
    for i in 0..2000 {
        text.push_str(&format!("GPU hours {i},1.00\n"));
    }
    // The header is line 1, the 2,000 rows lines 2-2001: the last is 2002.
    text.push_str("\"Egress,5.00");
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("open.csv");
    std::fs::write(&plain, &text).unwrap();
    let gz = dir.path().join("open.csv.gz");
    std::fs::write(&gz, gzip(&text)).unwrap();
    for path in [&plain, &gz] {
        for (how, parallel) in [
            ("one thread", SEQUENTIAL),
            ("ranges of 1 KB", parallel(1000)),
            ("ranges of 64 KB", parallel(65536)),
        ] {
            let report = audit_paths(
                &[path.display().to_string()],
                &Options {
                    parallel,
                    ..Options::default()
                },
            );
            assert!(report.bills.is_empty(), "{how}: {:?}", report.bills);
            let [billaudit::Error::Input(e)] = report.errors.as_slice() else {
                panic!("{how}: one input error, got {:?}", report.errors);
            };
            assert_eq!(e.path, path.display().to_string(), "{how}");
            assert_eq!(e.line, Some(2002), "{how}");
            assert!(
                e.message
                    .contains("is the file's last line: a quoted field is never closed"),
                "{how}: {}",
                e.message
            );
        }
    }
}
