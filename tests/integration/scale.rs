//! Correctness at scale: a generated FOCUS export audits to exactly the
//! totals its generator intended, read on one thread or several, plain or
//! gzipped (a stream cut into blocks).

use billaudit::report::json::to_json;
use billaudit::{Options, Parallelism, audit_paths};

fn check(rows: u64, parallel: Parallelism) {
    check_file(rows, parallel, false);
}

fn check_file(rows: u64, parallel: Parallelism, gz: bool) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir
        .path()
        .join(if gz { "focus.csv.gz" } else { "focus.csv" });
    let file = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    let expected = if gz {
        let mut w = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
        let e = billgen::focus(rows, 42, &mut w).unwrap();
        w.finish().unwrap();
        e
    } else {
        let mut w = file;
        billgen::focus(rows, 42, &mut w).unwrap()
    };
    let opts = Options {
        parallel,
        ..Options::default()
    };
    let report = audit_paths(&[p.display().to_string()], &opts);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let json = to_json(&report);
    assert_eq!(json.bills.len(), 1);
    let b = &json.bills[0];
    assert_eq!(b.format, "focus");
    assert_eq!(b.line_items, rows);
    assert_eq!(b.skipped_rows, 0);
    assert_eq!(
        b.total.parse::<rust_decimal::Decimal>().unwrap(),
        expected.total
    );
    for (cat, got) in b.totals.pairs() {
        let want = expected.totals.get(cat).copied().unwrap_or_default();
        assert_eq!(got.parse::<rust_decimal::Decimal>().unwrap(), want, "{cat}");
    }
    // Every row the generator stated off-list, and no other, is a
    // line-arithmetic finding (listed up to the cap, then counted).
    let listed = b
        .findings
        .iter()
        .filter(|f| f.code == "line-arithmetic" && f.line.is_some())
        .count() as u64;
    let more: u64 = b
        .findings
        .iter()
        .filter(|f| f.code == "line-arithmetic" && f.line.is_none())
        .filter_map(|f| f.message.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    assert_eq!(listed + more, expected.arithmetic_mismatches);
}

#[test]
fn a_generated_20k_row_export_matches_its_generator_on_threads() {
    check(
        20_000,
        Parallelism {
            threads: Some(2),
            min_bytes: 0,
            chunk_bytes: 1 << 20,
        },
    );
}

#[test]
fn a_generated_20k_row_gzip_export_matches_its_generator_on_threads() {
    check_file(
        20_000,
        Parallelism {
            threads: Some(2),
            min_bytes: 0,
            chunk_bytes: 256 * 1024,
        },
        true,
    );
}

/// 100k rows (about 55 MB): `cargo test --release -- --ignored scale`.
#[test]
#[ignore = "large: about 55 MB of CSV"]
fn a_generated_100k_row_export_matches_its_generator() {
    check(100_000, Parallelism::default());
    check_file(100_000, Parallelism::default(), true);
}
