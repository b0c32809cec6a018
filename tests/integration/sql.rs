//! `billaudit sql`: the queries run in DuckDB (from PyPI) on the real
//! exports and the SQL fixtures and must equal `billaudit audit` exactly;
//! every dialect's query parses in sqlglot; unsupported inputs are refused.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{real_data, root, run, stderr, stdout};

/// True when `python3` can import every module; under `CI=true` a missing
/// module fails the test (scripts/test installs them).
fn python_has(modules: &[&str]) -> bool {
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

fn sql_fixtures() -> Vec<String> {
    vec![
        format!(
            "{}:focus",
            root()
                .join("tests/sql/fixtures/focus-hidden-at-5pct.csv")
                .display()
        ),
        format!(
            "{}:focus",
            root()
                .join("tests/sql/fixtures/focus-x-columns-scheduling.csv")
                .display()
        ),
        format!(
            "{}:aws-cur2",
            root().join("fixtures/cloud/aws-cur2-2024-11.csv").display()
        ),
    ]
}

/// `FILE:PROFILE` for every real file listed in tests/sql/real_files.txt.
fn real_files() -> Vec<String> {
    let Some(dir) = real_data() else {
        return Vec::new();
    };
    let list = std::fs::read_to_string(root().join("tests/sql/real_files.txt")).unwrap();
    list.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| format!("{}/{}", dir.display(), l.trim()))
        .collect()
}

fn run_sql_py(engine: &str, files: &[String]) -> String {
    run_sql_py_with(engine, files, &[])
}

fn run_sql_py_with(engine: &str, files: &[String], extra: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(root().join("tests/sql/run_sql.py"))
        .args([
            "--engine",
            engine,
            "--billaudit",
            env!("CARGO_BIN_EXE_billaudit"),
        ])
        .args(extra)
        .args(files)
        .current_dir(root())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{engine} differs from the audit:\n{text}"
    );
    text
}

#[test]
fn duckdb_equals_audit_on_real_exports_and_fixtures() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let mut files = real_files();
    let real = files.len();
    files.extend(sql_fixtures());
    let text = run_sql_py("duckdb", &files);
    let ok = text.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(ok, files.len(), "{text}");
    if real > 0 {
        assert!(real >= 10, "every FOCUS and CUR file: {real}");
        assert!(text.contains("koku_test_cur.csv.gz"), "{text}");
    }
}

/// The 1M-row FOCUS file from `examples/gen_focus.rs`. Slow (release build
/// of the generator, 1M rows through both): `cargo test -- --ignored sql_1m`.
#[test]
#[ignore]
fn duckdb_equals_audit_sql_1m_rows() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("focus-1m.csv");
    let gen_out = Command::new(env!("CARGO"))
        .args([
            "run",
            "--release",
            "--quiet",
            "--example",
            "gen_focus",
            "--",
        ])
        .args(["--rows", "1000000", "--out"])
        .arg(&file)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(gen_out.status.success(), "{}", stderr(&gen_out));
    let text = run_sql_py("duckdb", &[format!("{}:focus", file.display())]);
    eprintln!("{text}");
}

fn generated(dialect: &str, profile: &str, dir: &std::path::Path) -> PathBuf {
    let out = run(&["sql", "--dialect", dialect, "--profile", profile]);
    assert!(
        out.status.success(),
        "{dialect} {profile}: {}",
        stderr(&out)
    );
    let f = dir.join(format!("{profile}.{dialect}.sql"));
    std::fs::write(&f, stdout(&out)).unwrap();
    f
}

#[test]
fn every_dialect_parses_and_transpiles_in_sqlglot() {
    if !python_has(&["sqlglot"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (dialect, profiles) in [
        (
            "athena",
            &["focus", "aws-cur", "aws-cur2", "azure", "oci"][..],
        ),
        (
            "bigquery",
            &["focus", "aws-cur", "aws-cur2", "azure", "oci", "gcp"][..],
        ),
        (
            "spark",
            &["focus", "aws-cur", "aws-cur2", "azure", "oci"][..],
        ),
        (
            "duckdb",
            &["focus", "aws-cur", "aws-cur2", "azure", "oci"][..],
        ),
    ] {
        let files: Vec<PathBuf> = profiles
            .iter()
            .map(|p| generated(dialect, p, dir.path()))
            .collect();
        let out = Command::new("python3")
            .arg(root().join("tests/sql/parse_sqlglot.py"))
            .arg(dialect)
            .args(&files)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{dialect}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn unsupported_profiles_and_config_are_refused_not_approximated() {
    for (args, needle) in [
        (
            &["sql", "--dialect", "duckdb", "--profile", "generic-csv"][..],
            "not supported in SQL",
        ),
        (
            &["sql", "--dialect", "spark", "--profile", "alibaba"][..],
            "not supported in SQL",
        ),
        (
            &["sql", "--dialect", "duckdb", "--profile", "gcp"][..],
            "--dialect bigquery",
        ),
        (
            &["sql", "--dialect", "duckdb", "--profile", "nope"][..],
            "unknown profile",
        ),
        (
            &[
                "sql",
                "--dialect",
                "duckdb",
                "--profile",
                "aws-cur",
                "--cost",
                "effective",
            ][..],
            "one cost column",
        ),
        (
            &[
                "sql",
                "--dialect",
                "duckdb",
                "--profile",
                "focus",
                "--config",
                "tests/sql/no-such-billaudit.toml",
            ][..],
            "no-such-billaudit.toml",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}: no query on stdout");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn header_from_drops_absent_columns_and_reads_x_columns() {
    let f = root().join("tests/sql/fixtures/focus-x-columns-scheduling.csv");
    let out = run(&[
        "sql",
        "--dialect",
        "duckdb",
        "--profile",
        "focus",
        "--header-from",
        f.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let q = stdout(&out);
    assert!(q.contains("\"x_UsageType\""), "x_ columns are read");
    assert!(!q.contains("\"SkuMeter\""), "absent columns are left out");
    let out = run(&["sql", "--dialect", "duckdb", "--profile", "focus"]);
    assert!(stdout(&out).contains("\"SkuMeter\""));
    // Thresholds travel into the query as exact decimals.
    let out = run(&[
        "sql",
        "--dialect",
        "spark",
        "--profile",
        "focus",
        "--hidden-threshold",
        "12.5%",
    ]);
    assert!(stdout(&out).contains("CAST('0.125' AS DECIMAL(4, 3))"));
    assert!(stdout(&out).contains("`hidden-fee-share`"));
}

/// The BigQuery query for the GCP export, run on the real GCP files loaded
/// in the native export's shape (structs, a credits array) and transpiled
/// to DuckDB by sqlglot: totals, item counts (each credit an item) and checks.
#[test]
fn bigquery_gcp_query_equals_audit_via_sqlglot_and_duckdb() {
    if !python_has(&["duckdb", "sqlglot"]) {
        return;
    }
    let Some(dir) = real_data() else {
        return;
    };
    let files: Vec<PathBuf> = [
        "2022-08-01_5.csv",
        "2024-03-01_5.csv",
        "evidence-2020-11-16.csv",
    ]
    .iter()
    .map(|f| dir.join("gcp").join(f))
    .collect();
    let out = Command::new("python3")
        .arg(root().join("tests/sql/gcp_bigquery_check.py"))
        .args(["--billaudit", env!("CARGO_BIN_EXE_billaudit")])
        .args(&files)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("ok ")).count(), 3);
    assert!(
        text.contains("items 38"),
        "each GCP credit is its own item: {text}"
    );
}

/// User rules and thresholds from billaudit.toml go into the query: the
/// DuckDB result still equals the audit made with the same config.
#[test]
fn duckdb_equals_audit_with_user_rules_and_thresholds() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("billaudit.toml");
    std::fs::write(
        &cfg,
        "[thresholds]\nhidden-fee-share = \"3%\"\n\n\
         [[rule]]\nlabel = \"queues-are-platform\"\ncolumn = \"ChargeDescription\"\n\
         contains = \"requests\"\ncategory = \"scheduling\"\n\n\
         [[rule]]\nlabel = \"gpu-words\"\ncolumn = \"ChargeDescription\"\n\
         any = [\"gpu\", \"H800\"]\ncategory = \"compute\"\n",
    )
    .unwrap();
    let q = stdout(&run(&[
        "sql",
        "--dialect",
        "duckdb",
        "--profile",
        "focus",
        "--config",
        cfg.to_str().unwrap(),
    ]));
    assert!(q.contains("requests"), "the user rule is in the query");
    let mut files = sql_fixtures();
    files.truncate(2);
    if let Some(dir) = real_data() {
        files.push(format!("{}/focus/focus_sample.csv:focus", dir.display()));
    }
    let text = run_sql_py_with("duckdb", &files, &["--config", cfg.to_str().unwrap()]);
    let ok = text.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(ok, files.len(), "{text}");

    // A rule on the classification texts (no column) has no SQL form.
    std::fs::write(
        &cfg,
        "[[rule]]\ncontains = \"gpu\"\ncategory = \"compute\"\n",
    )
    .unwrap();
    let out = run(&[
        "sql",
        "--dialect",
        "duckdb",
        "--profile",
        "focus",
        "--config",
        cfg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("not one column"), "{}", stderr(&out));
}
