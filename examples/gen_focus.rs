//! Writes a deterministic FOCUS 1.x export and its expected totals.
//!
//! ```sh
//! cargo run --release --example gen_focus -- --rows 1000000 --seed 42 --out /tmp/focus-1m.csv
//! cargo run --release --example gen_focus -- --rows 1000000 --shape legacy --out /tmp/old-1m.csv
//! ```
//!
//! `--shape spec` (the default) writes the FOCUS specification's shape
//! (`2025-10-01T00:00:00Z`, about 2,700 distinct descriptions); `--shape
//! legacy` the shape written before issue 18 (`billgen::Shape`).
//!
//! Beside the CSV it writes `<out>.expected.json`: the exact BilledCost per
//! category, the total, the row count and the number of arithmetic
//! mismatches, from the generator's own intent (see `crates/billgen`).

use std::fs::File;
use std::io::BufWriter;

fn main() -> std::io::Result<()> {
    let mut rows: u64 = 1000;
    let mut seed: u64 = 42;
    let mut out = String::from("focus.csv");
    let mut shape = billgen::Shape::Spec;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_default();
        match a.as_str() {
            "--rows" => rows = val().replace('_', "").parse().unwrap_or(rows),
            "--seed" => seed = val().parse().unwrap_or(seed),
            "--out" => out = val(),
            "--shape" => match billgen::Shape::parse(&val()) {
                Some(s) => shape = s,
                None => {
                    eprintln!("--shape is spec or legacy");
                    std::process::exit(2);
                }
            },
            _ => {
                eprintln!(
                    "usage: gen_focus [--rows N] [--seed S] [--shape spec|legacy] [--out PATH]"
                );
                std::process::exit(2);
            }
        }
    }
    let mut w = BufWriter::with_capacity(1 << 20, File::create(&out)?);
    let expected = billgen::focus_shaped(rows, seed, shape, &mut w)?;
    std::fs::write(format!("{out}.expected.json"), expected.to_json())
}
