//! Provider-realistic FOCUS 1.2 data from focus-data-toolkit (PyPI): the
//! money billaudit cannot classify stays at most 1% of the subtotal for
//! AWS, Azure and GCP. The data is generated into a temporary folder; the
//! tool is installed when missing, and under `CI=true` a missing tool fails.
//! `scripts/focus_toolkit_validation.py` is the same measure, in Python.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rust_decimal::Decimal;

use crate::common::*;

const TOOLKIT: &str = "focus-data-toolkit==0.14.1";

/// `focus-toolkit` on PATH, installing it when missing; `None` (skip) only
/// outside CI.
pub(crate) fn toolkit() -> Option<PathBuf> {
    let found = || {
        Command::new("focus-toolkit")
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !found() {
        let _ = Command::new("python3")
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(TOOLKIT)
            .status();
    }
    if found() {
        return Some(PathBuf::from("focus-toolkit"));
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "focus-toolkit ({TOOLKIT}) could not be installed; required when CI=true"
    );
    eprintln!("SKIPPED: focus-toolkit ({TOOLKIT}) is missing and could not be installed");
    None
}

/// The rows of a CSV by line number (the header is line 1), as the raw text.
fn rows_by_line(path: &Path) -> (csv::StringRecord, HashMap<u64, csv::StringRecord>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    let mut rows = HashMap::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        rows.insert(rec.position().unwrap().line(), rec);
    }
    (header, rows)
}

#[test]
fn focus_toolkit_unclassified_money_is_at_most_one_percent() {
    let Some(tool) = toolkit() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for provider in ["aws", "azure", "gcp"] {
        let out = tmp.path().join(provider);
        let made = Command::new(&tool)
            .args(["generate", "--provider", provider, "--focus-version", "1.2"])
            .args(["--rows", "400", "--seed", "7", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(made.status.success(), "{provider}: {}", stderr(&made));
        let file = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "csv"))
            .unwrap_or_else(|| panic!("{provider}: no CSV in {}", out.display()));

        // Subtotal from the raw file: every row but Tax and Credit charges.
        let (header, rows) = rows_by_line(&file);
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        let (cost, charge) = (col("BilledCost"), col("ChargeCategory"));
        let amount = |r: &csv::StringRecord| r[cost].parse::<Decimal>().unwrap();
        let subtotal: Decimal = rows
            .values()
            .filter(|r| !matches!(r[charge].to_ascii_lowercase().as_str(), "tax" | "credit"))
            .map(amount)
            .sum();
        assert!(subtotal > Decimal::ZERO, "{provider}");

        // Which rows billaudit could not classify; their money from the raw file.
        let path = file.display().to_string();
        let listed = run(&["lines", "--format", "csv", "--unclassified", &path]);
        assert!(listed.status.success(), "{}", stderr(&listed));
        let mut r = csv::Reader::from_reader(listed.stdout.as_slice());
        let line_col = r
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "line")
            .unwrap();
        let unclassified: Decimal = r
            .records()
            .map(|rec| {
                let line: u64 = rec.unwrap()[line_col].parse().unwrap();
                amount(&rows[&line])
            })
            .sum();

        let (report, _) = audit_json(&[&path]);
        assert_eq!(report.bills.len(), 1, "{provider}");
        assert_eq!(
            report.bills[0].subtotal.parse::<Decimal>().unwrap(),
            subtotal,
            "{provider}: subtotal"
        );
        // At most 1%: unclassified * 100 <= subtotal.
        assert!(
            unclassified * Decimal::from(100) <= subtotal,
            "{provider}: {unclassified} of {subtotal} unclassified"
        );
    }
}
