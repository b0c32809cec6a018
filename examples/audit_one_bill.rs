//! Audit one bill with the library and print its figures and findings: the
//! smallest program a user of the Rust API would write.
//!
//! ```sh
//! cargo run --example audit_one_bill -- fixtures/csv/gpu-pod-en.csv
//! ```

use std::process::ExitCode;

use billaudit::{Category, Options, audit_paths};

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: audit_one_bill BILL...");
        return ExitCode::from(2);
    }
    let report = audit_paths(&paths, &Options::default());
    for bill in &report.bills {
        let currency = bill.currency.as_deref().unwrap_or("currency unknown");
        println!("{} ({}, {currency})", bill.path, bill.format);
        for c in Category::ALL {
            println!("  {:<16} {:>12}", c.as_str(), bill.totals.get(c));
        }
        println!("  {:<16} {:>12}", "total", bill.total);
        for f in &bill.findings {
            println!("  {} {}: {}", f.severity, f.code.code(), f.message);
        }
    }
    // Inputs that could not be read: file, line and field, never a panic.
    for e in &report.errors {
        eprintln!("error: {e}");
    }
    if !report.errors.is_empty() {
        ExitCode::from(2)
    } else if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
