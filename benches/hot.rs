//! Micro-benchmarks of the hot pieces of an audit, one row at a time:
//! number parsing, header matching, CSV record splitting, one row
//! normalised and classified, the row fingerprint, and the checks. `cargo bench` runs them; `cargo test
//! --all-targets` runs each once, so they keep compiling and working.
//! The whole-program benchmark against DuckDB is `scripts/bench.sh`
//! (docs/performance.md).

// A benchmark's fixtures are built in the benchmark: a panic there is a
// broken benchmark, reported as such.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use billaudit::audit::{BillState, Policy};
use billaudit::classify::{ClassCache, Classifier};
use billaudit::model::{Cells, LineItem, record_fingerprint};
use billaudit::normalise::date::{DateScan, parse_datetime};
use billaudit::normalise::number::{DecimalMark, parse_number};
use billaudit::normalise::profile::{ColumnMap, CostBasis, Profile};
use billaudit::normalise::{RowNormaliser, RowOutcome, detect_header, profiles};
use csv::ByteRecord;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// A generated FOCUS export: its header cells and its first records.
fn focus(rows: u64) -> (Vec<String>, Vec<ByteRecord>) {
    let mut out = Vec::new();
    billgen::focus(rows, 42, &mut out).unwrap();
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&out[..]);
    let mut records: Vec<ByteRecord> = rdr.byte_records().map(Result::unwrap).collect();
    let header = records.remove(0);
    let cells = header
        .iter()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    (cells, records)
}

fn focus_map(profiles: &[Profile], header: &[String]) -> ColumnMap {
    let (_, map) = detect_header(profiles, header, 1, &Vec::new(), CostBasis::Billed, false)
        .expect("FOCUS is recognised");
    map.expect("no column missing")
}

#[divan::bench(args = ["39.4078804920", "1,234.56", "¥12.30", "-5e-06", "(5.10)", "-"])]
fn number(s: &str) -> bool {
    parse_number(black_box(s), DecimalMark::Dot).is_ok()
}

/// One date cell: the space form, FOCUS's `T...Z` (a fast path since issue
/// 18), and `+0800`, which still takes the path `T...Z` took before (the
/// offset searched for `GMT`/`UTC` tags, then stripped, then read again).
#[divan::bench(args = ["2025-10-01 00:00:00", "2025-10-01T00:00:00Z", "2025-10-01T00:00:00+08:00", "2025-10-01T00:00:00+0800"])]
fn datetime(s: &str) -> bool {
    parse_datetime(black_box(s)).is_some()
}

/// Header matching: a FOCUS header (found among all profiles), and a
/// header no profile knows (every profile tried and refused).
#[divan::bench(args = ["focus", "unknown"])]
fn header(bencher: Bencher, which: &str) {
    let profiles = profiles::builtin();
    let header = match which {
        "focus" => focus(1).0,
        _ => ["Foo", "Bar", "Baz", "Qux"].map(String::from).into(),
    };
    bencher.bench_local(|| {
        detect_header(
            black_box(&profiles),
            black_box(&header),
            1,
            &Vec::new(),
            CostBasis::Billed,
            false,
        )
        .is_some()
    });
}

/// One FOCUS row: cells read, numbers, dates, currency, fingerprint, texts
/// for classification (the item reused, as the readers do).
#[divan::bench]
fn normalise_row(bencher: Bencher) {
    let profiles = profiles::builtin();
    let (header, records) = focus(1000);
    let map = focus_map(&profiles, &header);
    let norm = RowNormaliser {
        map: &map,
        mark: DecimalMark::Dot,
        path: "bench.csv",
        dates: &DateScan::default(),
        delimiter: b',',
    };
    let mut spare = Vec::new();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % records.len();
        let outcome = norm.row_reusing(i as u64 + 2, black_box(&records[i]), &mut spare);
        if let RowOutcome::Item(item) = outcome {
            spare.push(item);
        }
    });
}

/// Record splitting of 2,000 generated FOCUS rows in memory (about 1.1 MB),
/// as a worker reads its range: the fast splitter, and the csv crate alone
/// (its reference and fallback).
#[divan::bench(args = ["fast", "csv-crate"])]
fn split_focus(bencher: Bencher, which: &str) {
    use billaudit::ingest::split::{Next, REFERENCE_ONLY, RangeRecords};
    use std::sync::atomic::Ordering;
    let mut data = Vec::new();
    billgen::focus(2000, 42, &mut data).unwrap();
    let limit = data.len() as u64;
    let mut rec = ByteRecord::new();
    bencher.bench_local(|| {
        REFERENCE_ONLY.store(which != "fast", Ordering::Relaxed);
        let raw = [black_box(&data[..]), &[][..]];
        let mut records = RangeRecords::new(raw, std::io::empty(), true, limit, b',');
        let mut cells = 0usize;
        while let Next::Record { .. } = records.next(&mut rec) {
            cells += records.cells(&rec).len();
        }
        REFERENCE_ONLY.store(false, Ordering::Relaxed);
        cells
    });
}

#[divan::bench]
fn fingerprint_row(bencher: Bencher) {
    let (_, records) = focus(1);
    bencher.bench_local(|| record_fingerprint(black_box(&records[0]), &[]));
}

/// Classification of one row, with the per-reader cache warm (the usual
/// case) and without it (a text seen for the first time).
#[divan::bench(args = [true, false])]
fn classify_row(bencher: Bencher, cached: bool) {
    let classifier = Classifier::default();
    let mut item = LineItem::with_class_text(
        2,
        "Cross-region replication of object storage / Object Storage / Storage".into(),
        "6.1554830715".parse().unwrap(),
        vec![
            vec!["Cross-region replication of object storage".into()],
            vec!["Object Storage".into(), "Storage".into()],
        ],
    );
    let mut cache = ClassCache::default();
    bencher.bench_local(|| {
        if cached {
            classifier.classify_cached(black_box(&mut item), &mut cache);
        } else {
            classifier.classify(black_box(&mut item));
        }
    });
}

/// Every check on one row (per-line checks and the running state of the
/// stateful ones), in the steady state of a long export: the rows of a
/// generated export, each time with a fresh fingerprint and line (a new
/// row, as nearly all are), after 200,000 rows have warmed the state up.
#[divan::bench(sample_size = 1000)]
fn checks_per_row(bencher: Bencher) {
    let mut items = classified_items(2000);
    let policy = Policy::default();
    let mut bill = BillState::new("bench.csv", "focus", Some("USD".into()), &policy);
    let mut n = 0u64;
    let mut next = |items: &mut [LineItem]| {
        n += 1;
        let k = (n % items.len() as u64) as usize;
        items[k].fingerprint = xxhash_rust::xxh3::xxh3_64(&n.to_le_bytes());
        items[k].line = n + 1;
        k
    };
    for _ in 0..200_000 {
        let k = next(&mut items);
        bill.add_item(&items[k]);
    }
    bencher.bench_local(|| {
        let k = next(&mut items);
        bill.add_item(black_box(&items[k]));
    });
}

/// The bill-level checks and figures at the end of a 2,000-row bill.
#[divan::bench]
fn checks_finish(bencher: Bencher) {
    let items = classified_items(2000);
    let policy = Policy::default();
    bencher
        .with_inputs(|| {
            let mut bill = BillState::new("bench.csv", "focus", Some("USD".into()), &policy);
            for item in &items {
                bill.add_item(item);
            }
            bill
        })
        .bench_local_values(|bill| bill.finish().findings.len());
}

fn classified_items(rows: u64) -> Vec<LineItem> {
    let profiles = profiles::builtin();
    let (header, records) = focus(rows);
    let map = focus_map(&profiles, &header);
    let norm = RowNormaliser {
        map: &map,
        mark: DecimalMark::Dot,
        path: "bench.csv",
        dates: &DateScan::default(),
        delimiter: b',',
    };
    let classifier = Classifier::default();
    let mut cache = ClassCache::default();
    records
        .iter()
        .enumerate()
        .filter_map(|(i, rec)| match norm.row(i as u64 + 2, rec) {
            RowOutcome::Item(mut item) => {
                classifier.classify_cached(&mut item, &mut cache);
                Some(*item)
            }
            _ => None,
        })
        .collect()
}
