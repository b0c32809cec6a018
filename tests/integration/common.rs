//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use billaudit::report::json::{JsonBill, JsonReport};

/// The project root (where `fixtures/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

/// The real public exports: `$BILLAUDIT_REAL_DATA` or `../shared/data/real`.
/// Returns `None` when they are absent, which fails under `CI=true`.
pub fn real_data() -> Option<PathBuf> {
    let dir = std::env::var_os("BILLAUDIT_REAL_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data/real"));
    if dir.join("SOURCES.md").exists() {
        Some(dir)
    } else {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "real data not found at {} (set BILLAUDIT_REAL_DATA); required when CI=true",
            dir.display()
        );
        None
    }
}

/// Runs the binary with `args` from the project root.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_billaudit"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run billaudit")
}

/// Runs the binary with `args` from `dir` (where billaudit.toml is looked up).
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_billaudit"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run billaudit")
}

pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_billaudit"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn billaudit");
    // A run that stops before reading its input (a usage error: `--encoding
    // klingon`) closes the pipe: the write then fails with a broken pipe,
    // and the run's output and exit code are still what the test asks
    // about. Any other write error is one.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// `billaudit audit --format json ARGS...`, parsed.
pub fn audit_json(args: &[&str]) -> (JsonReport, Output) {
    let mut full = vec!["audit", "--format", "json"];
    full.extend_from_slice(args);
    let out = run(&full);
    let report: JsonReport = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON from {args:?}: {e}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (report, out)
}

/// Audits one file through the library and returns its single bill as JSON.
pub fn audit_one(path: &Path) -> JsonBill {
    let report = billaudit::audit_paths(
        &[path.display().to_string()],
        &billaudit::Options::default(),
    );
    assert!(
        report.errors.is_empty(),
        "{}: {:?}",
        path.display(),
        report.errors
    );
    let json = billaudit::report::json::to_json(&report);
    assert_eq!(json.bills.len(), 1, "{}: one bill expected", path.display());
    json.bills.into_iter().next().unwrap()
}

/// The finding codes of a bill, sorted and deduplicated.
pub fn codes(bill: &JsonBill) -> Vec<String> {
    let mut c: Vec<String> = bill.findings.iter().map(|f| f.code.to_string()).collect();
    c.sort();
    c.dedup();
    c
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Whether python3 imports every module; a skip (with a line on stderr)
/// outside CI, a failure under CI=true (scripts/test installs them).
pub fn python_has(modules: &[&str]) -> bool {
    let code = modules
        .iter()
        .map(|m| format!("import {m}"))
        .collect::<Vec<_>>()
        .join("; ");
    let ok = Command::new("python3")
        .args(["-c", &code])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "python3 with {modules:?} is required when CI=true (scripts/test installs them)"
        );
        eprintln!("SKIPPED: python3 cannot import {modules:?}");
    }
    ok
}

/// The real invoices: `$BILLAUDIT_REAL_INVOICES` or `../shared/data/invoices`
/// (a sibling of [`real_data`]'s default). `None` when absent, which fails
/// under `CI=true`.
pub fn real_invoices() -> Option<PathBuf> {
    let dir = std::env::var_os("BILLAUDIT_REAL_INVOICES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data/invoices"));
    if dir.join("expected.toml").exists() {
        Some(dir)
    } else {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "real invoices not found at {} (set BILLAUDIT_REAL_INVOICES); required when CI=true",
            dir.display()
        );
        None
    }
}
