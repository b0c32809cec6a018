//! The floor of the benchmark job on this machine: the bare loop the
//! performance issue names as the practical limit ("SIMD split + Decimal
//! sums + classification"), with nothing of the audit around it.
//! `scripts/bench.sh` times it beside billaudit, DuckDB and Polars.
//!
//! ```sh
//! cargo run --release --example floor -- target/bench/focus-1000000.csv 2
//! cargo run --release --example floor -- target/bench/focus-1000000.csv 2 csv
//! ```
//!
//! Per row: the record split by billaudit's own splitter (64 bytes at a
//! time by bit masks, cells left in place in a block of about 1 MiB:
//! `ingest::split`), or with `csv` as the third argument by the csv crate
//! into one reused `csv::ByteRecord` (the floor before session 15, about a
//! quarter slower); `rust_decimal` for `BilledCost`, `PricingQuantity`,
//! `ListUnitPrice` and `ListCost`; the DuckDB query's ten case-insensitive
//! substring rules on `ChargeDescription` (one Aho-Corasick pass) and a sum
//! per category. The file is cut into one byte range per thread at line
//! feeds, and a range into blocks at line feeds (the generated files have
//! no line feed inside a field). A row with an empty factor is not counted
//! as a mismatch, as in SQL. Prints the same JSON as
//! `scripts/bench_duckdb.py`.

use std::collections::BTreeMap;
use std::error::Error;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::str::FromStr;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use billaudit::ingest::split::{Splitter, Start};
use billaudit::model::Cells;
use rust_decimal::Decimal;

/// The DuckDB query's rules, in its order: (category, patterns).
const RULES: &[(&str, &[&str])] = &[
    ("storage_replica", &["snapshot", "replica", "backup"]),
    ("bandwidth", &["transfer", "egress"]),
    ("scheduling", &["cluster management", "control plane"]),
    ("storage", &["storage", "volume"]),
    ("compute", &["gpu", "instance"]),
];
const CATEGORIES: [&str; 8] = [
    "storage_replica",
    "bandwidth",
    "scheduling",
    "storage",
    "compute",
    "tax",
    "credit",
    "other",
];

#[derive(Default)]
struct Sums {
    totals: [Decimal; 8],
    counts: [u64; 8],
    mismatches: u64,
}

struct Columns {
    cost: usize,
    list: usize,
    quantity: usize,
    price: usize,
    charge: usize,
    description: usize,
}

type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

fn column(header: &csv::ByteRecord, name: &str) -> Res<usize> {
    header
        .iter()
        .position(|c| c == name.as_bytes())
        .ok_or_else(|| format!("no column {name}").into())
}

/// A number cell; `None` when empty (a tax row's quantity), as SQL's NULL.
fn number(rec: &impl Cells, i: usize) -> Option<Decimal> {
    let cell = std::str::from_utf8(rec.get(i).unwrap_or_default()).ok()?;
    Decimal::from_str(cell).ok()
}

/// One row's share of the job: its category, its cost, its arithmetic.
fn add_row(rec: &impl Cells, cols: &Columns, ac: &AhoCorasick, rule_of: &[usize], s: &mut Sums) {
    let charge = rec.get(cols.charge).unwrap_or_default();
    let category = match charge {
        b"Tax" => 5,
        b"Credit" => 6,
        _ => ac
            .find_iter(rec.get(cols.description).unwrap_or_default())
            .map(|m| rule_of[m.pattern().as_usize()])
            .min()
            .unwrap_or(7),
    };
    s.totals[category] += number(rec, cols.cost).unwrap_or_default();
    s.counts[category] += 1;
    if let (Some(q), Some(p)) = (number(rec, cols.quantity), number(rec, cols.price)) {
        if Some(q * p) != number(rec, cols.list) {
            s.mismatches += 1;
        }
    }
}

/// The range read in blocks of about 1 MiB cut at line feeds, each split
/// by billaudit's own record splitter (64 bytes at a time by bit masks,
/// the cells left in place: `ingest::split`), instead of the csv crate.
fn sum_range_masked(
    path: &str,
    from: u64,
    to: u64,
    cols: &Columns,
    ac: &AhoCorasick,
    rule_of: &[usize],
) -> Res<Sums> {
    const BLOCK: usize = 1 << 20;
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::Start(from))?;
    let mut f = f.take(to - from);
    let mut buf: Vec<u8> = Vec::with_capacity(2 * BLOCK);
    let mut s = Sums::default();
    loop {
        let kept = buf.len();
        buf.resize(kept + BLOCK, 0);
        let got = f.read(&mut buf[kept..])?;
        buf.truncate(kept + got);
        let last = got == 0;
        // The block ends after its last line feed; the rest waits.
        let cut = if last {
            buf.len()
        } else {
            match memchr::memrchr(b'\n', &buf) {
                Some(i) => i + 1,
                None => continue,
            }
        };
        let mut sp = Splitter::new(&buf[..cut], b"", true, b',');
        loop {
            match sp.start() {
                Start::At(..) => {
                    if !sp.split() {
                        return Err("a record the splitter cannot read".into());
                    }
                    add_row(&sp.cells(), cols, ac, rule_of, &mut s);
                }
                Start::End => break,
                Start::Unsure => return Err("a record the splitter cannot place".into()),
            }
        }
        buf.drain(..cut);
        if last {
            return Ok(s);
        }
    }
}

fn sum_range(
    path: &str,
    from: u64,
    to: u64,
    cols: &Columns,
    ac: &AhoCorasick,
    rule_of: &[usize],
) -> Res<Sums> {
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::Start(from))?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .buffer_capacity(256 * 1024)
        .from_reader(f.take(to - from));
    let mut rec = csv::ByteRecord::new();
    let mut s = Sums::default();
    while rdr.read_byte_record(&mut rec)? {
        add_row(&rec, cols, ac, rule_of, &mut s);
    }
    Ok(s)
}

fn main() -> Res<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: floor FILE [THREADS]")?;
    let threads: u64 = args.next().and_then(|t| t.parse().ok()).unwrap_or(2);
    let masked = args.next().as_deref() != Some("csv");
    let t0 = std::time::Instant::now();

    let mut head = BufReader::new(std::fs::File::open(&path)?);
    let mut line = Vec::new();
    head.read_until(b'\n', &mut line)?;
    let header = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&line[..])
        .byte_records()
        .next()
        .ok_or("no header")??;
    let cols = Columns {
        cost: column(&header, "BilledCost")?,
        list: column(&header, "ListCost")?,
        quantity: column(&header, "PricingQuantity")?,
        price: column(&header, "ListUnitPrice")?,
        charge: column(&header, "ChargeCategory")?,
        description: column(&header, "ChargeDescription")?,
    };
    let patterns: Vec<&str> = RULES.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    let rule_of: Vec<usize> = RULES
        .iter()
        .enumerate()
        .flat_map(|(i, (_, p))| std::iter::repeat_n(i, p.len()))
        .collect();
    let ac = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .build(&patterns)?;

    // One range per thread, each cut just after a line feed.
    let len = std::fs::metadata(&path)?.len();
    let start = line.len() as u64;
    let mut cuts = vec![start];
    let mut f = std::fs::File::open(&path)?;
    for k in 1..threads {
        let nominal = start + (len - start) * k / threads;
        f.seek(SeekFrom::Start(nominal))?;
        let mut rest = Vec::new();
        BufReader::new(&mut f).read_until(b'\n', &mut rest)?;
        cuts.push(nominal + rest.len() as u64);
    }
    cuts.push(len);
    let parts: Vec<Sums> = std::thread::scope(|scope| -> Res<Vec<Sums>> {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (from, to, cols, ac, rule_of, path) = (w[0], w[1], &cols, &ac, &rule_of, &path);
                scope.spawn(move || {
                    if masked {
                        sum_range_masked(path, from, to, cols, ac, rule_of)
                    } else {
                        sum_range(path, from, to, cols, ac, rule_of)
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| "a thread panicked")?)
            .collect()
    })?;
    let mut totals = BTreeMap::new();
    let (mut rows, mut mismatches) = (0u64, 0u64);
    for (i, name) in CATEGORIES.iter().enumerate() {
        let t: Decimal = parts.iter().map(|p| p.totals[i]).sum();
        let n: u64 = parts.iter().map(|p| p.counts[i]).sum();
        rows += n;
        if n > 0 {
            totals.insert(*name, t.to_string());
        }
    }
    for p in &parts {
        mismatches += p.mismatches;
    }
    let totals: Vec<String> = totals
        .iter()
        .map(|(k, v)| format!("\"{k}\": \"{v}\""))
        .collect();
    println!(
        "{{\"seconds\": {:.4}, \"rows\": {rows}, \"mismatches\": {mismatches}, \"totals\": {{{}}}}}",
        t0.elapsed().as_secs_f64(),
        totals.join(", ")
    );
    Ok(())
}
