//! `billaudit convert --to focus` (docs/focus-export.md): one bill of every
//! input kind is converted, and the output is judged by tools nobody here
//! wrote (focus-data-toolkit's `detect` and `validate`, the FinOps
//! Foundation's focus-validator, DuckDB) and by sums the test makes itself
//! from the CSV: BilledCost per currency and per x_BillauditCategory equal
//! the audit's totals, and auditing the output again gives the same
//! categories and total. Tools missing are installed (as scripts/test
//! does); under `CI=true` a tool that cannot be had fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rust_decimal::Decimal;

use billaudit::Category;

use crate::common::*;

/// With its `parquet` extra (PyArrow), so that it reads the Parquet output.
const TOOLKIT: &str = "focus-data-toolkit[parquet]==0.14.1";

/// The messages of `focus-toolkit validate` (which checks FOCUS 1.4) that
/// a correct FOCUS 1.2 file gets: the toolkit's own 1.2 samples get them
/// too. Each is explained in docs/focus-export.md.
const VALIDATE_EXPLAINED: &[(&str, &str)] = &[
    ("unknown_column", "ProviderName"),
    ("unknown_column", "PublisherName"),
    ("missing_mandatory_column", "HostProviderName"),
    ("missing_mandatory_column", "ServiceProviderName"),
];

/// focus-validator 1.0.0's rules (FOCUS 1.0) that fail, each explained in
/// docs/focus-export.md; every other rule of its 1.0 set must pass.
const VALIDATOR_EXPLAINED: &[&str] = &[
    "BillingCurrency_IsCurrencyCode :: DataTypeCheck",
    "InvoiceIssuer_Required :: ColumnRequired",
    "Provider_Required :: ColumnRequired",
    "Publisher_Required :: ColumnRequired",
    "ResourceID_Required :: ColumnRequired",
    "SkuPriceId_Nullable :: SQLQueryCheck",
];

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn works(cmd: &Path, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether python3 can `import pyarrow` (the toolkit's Parquet reader).
fn pyarrow_imports() -> bool {
    Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `focus-toolkit` with its Parquet reader, installed when missing; `None` (skip) only outside CI.
fn toolkit() -> Option<PathBuf> {
    let tool = PathBuf::from("focus-toolkit");
    if !works(&tool, "version") || !pyarrow_imports() {
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
    if works(&tool, "version") && pyarrow_imports() {
        return Some(tool);
    }
    assert!(
        !in_ci(),
        "focus-toolkit ({TOOLKIT}) could not be installed; required when CI=true"
    );
    eprintln!("SKIPPED: focus-toolkit ({TOOLKIT}) is missing and could not be installed");
    None
}

/// The FinOps Foundation's focus-validator, in its own virtualenv (its pins
/// clash with the project's sqlglot and numpy), made by scripts/test or here.
fn validator() -> Option<PathBuf> {
    let venv = std::env::var_os("BILLAUDIT_FOCUS_VALIDATOR_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home =
                std::env::var_os("HOME").map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
            home.join(".cache/billaudit/focus-validator")
        });
    let bin = venv.join("bin/focus-validator");
    if !works(&bin, "--supported-versions") {
        let _ = Command::new("bash")
            .arg(root().join("scripts/install-focus-validator.sh"))
            .arg(&venv)
            .status();
    }
    if works(&bin, "--supported-versions") {
        return Some(bin);
    }
    assert!(
        !in_ci(),
        "focus-validator could not be installed in {}; required when CI=true",
        venv.display()
    );
    eprintln!("SKIPPED: focus-validator is missing and could not be installed");
    None
}

fn dec(s: &str) -> Decimal {
    s.parse()
        .unwrap_or_else(|e| panic!("`{s}` is not a decimal: {e}"))
}

/// The output's rows as maps from column to cell.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(a, b)| (a.into(), b.into()))
                .collect()
        })
        .collect()
}

/// What an audit says, per currency (an unknown one is `XXX`, as in the
/// output): the total and each category's total.
type Sums = BTreeMap<String, (Decimal, BTreeMap<&'static str, Decimal>)>;

fn audit_sums(inputs: &[&str]) -> (Sums, u64) {
    let (report, out) = audit_json(inputs);
    assert!(report.errors.is_empty(), "{inputs:?}: {}", stderr(&out));
    let mut sums = Sums::new();
    let mut summary = 0;
    for b in &report.bills {
        let cur = b.currency.clone().unwrap_or_else(|| "XXX".into());
        let e = sums.entry(cur).or_default();
        e.0 += dec(&b.total);
        for c in Category::ALL {
            *e.1.entry(c.as_str()).or_default() += dec(b.totals.get(c));
        }
        summary += b.skipped.summary;
    }
    (sums, summary)
}

/// The same sums, made by this test from the output's own cells.
fn output_sums(rows: &[BTreeMap<String, String>]) -> Sums {
    let mut sums = Sums::new();
    for r in rows {
        let e = sums.entry(r["BillingCurrency"].clone()).or_default();
        let cost = dec(&r["BilledCost"]);
        e.0 += cost;
        let cat = r["x_BillauditCategory"].parse::<Category>().unwrap();
        for c in Category::ALL {
            *e.1.entry(c.as_str()).or_default() += if c == cat { cost } else { Decimal::ZERO };
        }
    }
    sums
}

/// Converts `inputs`, checks everything, returns the output file.
fn convert_and_check(name: &str, inputs: &[&str], dir: &Path, tool: Option<&Path>) -> PathBuf {
    let out_file = dir.join(format!("{name}.focus.csv"));
    let mut args = vec![
        "convert",
        "--to",
        "focus",
        "--output",
        out_file.to_str().unwrap(),
    ];
    args.extend_from_slice(inputs);
    let out = run(&args);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    let rows = rows(&out_file);
    assert!(!rows.is_empty(), "{name}: no rows");

    // Nothing lost: the output's own sums equal the audit's, to the digit.
    let (want, summary) = audit_sums(inputs);
    let got = output_sums(&rows);
    assert_eq!(got, want, "{name}: BilledCost sums differ from the audit");
    for r in &rows {
        assert!(r["ChargePeriodStart"].ends_with('Z') && r["BillingPeriodEnd"].ends_with('Z'));
        assert!(
            r["ChargePeriodStart"] < r["ChargePeriodEnd"],
            "{name}: {r:?}"
        );
        assert!(
            r["BillingPeriodStart"] <= r["ChargePeriodStart"],
            "{name}: {r:?}"
        );
        assert!(
            r["ChargePeriodEnd"] <= r["BillingPeriodEnd"],
            "{name}: {r:?}"
        );
        assert_eq!(r["BillingCurrency"].len(), 3);
    }
    let meta: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join(format!("{name}.focus.csv.meta.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["rows"], rows.len() as u64, "{name}");
    assert_eq!(meta["summary_rows"], summary, "{name}");

    // Read back: the same categories and totals.
    let (again, _) = audit_sums(&[out_file.to_str().unwrap()]);
    assert_eq!(again, want, "{name}: auditing the output gives other sums");

    if let Some(tool) = tool {
        let d = Command::new(tool)
            .args(["detect", "--format", "json"])
            .arg(&out_file)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&d.stdout)
            .unwrap_or_else(|e| panic!("{name}: detect: {e}: {}", stderr(&d)));
        assert_eq!(v["dataset"], "Cost and Usage", "{name}: {v}");
        assert_eq!(v["detected_version"], "1.2", "{name}: {v}");
        assert_eq!(v["confidence"], "HIGH", "{name}: {v}");
        assert_eq!(v["missing_columns"], serde_json::json!([]), "{name}: {v}");
        let val = Command::new(tool)
            .arg("validate")
            .arg(&out_file)
            .output()
            .unwrap();
        for line in stdout(&val).lines().skip(1) {
            let explained = VALIDATE_EXPLAINED
                .iter()
                .any(|(code, col)| line.contains(&format!(":{code}] {col}")));
            assert!(explained, "{name}: focus-toolkit validate: {line}");
        }
    }
    out_file
}

#[test]
fn every_input_kind_converts_to_focus_that_outside_tools_accept() {
    let tool = toolkit();
    let tmp = tempfile::tempdir().unwrap();
    let f = |p: &str| fixture(p).display().to_string();
    let mut cases: Vec<(&str, Vec<String>)> = vec![
        ("alibaba", vec![f("cloud/alibaba-legacy-2024-11.csv")]),
        ("tencent-zip", vec![f("cloud/tencent-2024-11.zip")]),
        (
            "huawei-parts",
            vec![
                f("cloud/huawei-2024-11_1.csv"),
                f("cloud/huawei-2024-11_2.csv"),
            ],
        ),
        ("gpu-platform", vec![f("gpu/ingress-charged-cn.csv")]),
        ("text-en", vec![f("text/en-columns-credit-tax.txt")]),
        ("text-zh", vec![f("text/zh-gpu.txt")]),
    ];
    // A PDF invoice (its text layer, through poppler's pdftotext).
    if works(Path::new("pdftotext"), "-v") {
        let pdf = root().join("tests/data/invoices/tensorforge_gpu_en.pdf");
        cases.push(("pdf", vec![pdf.display().to_string()]));
    } else {
        assert!(
            !in_ci(),
            "pdftotext is required when CI=true (scripts/test installs it)"
        );
        eprintln!("SKIPPED (pdf case): pdftotext is missing");
    }
    if let Some(real) = real_data() {
        let r = |p: &str| real.join(p).display().to_string();
        cases.extend([
            ("focus", vec![r("focus/focus_sample.csv")]),
            ("cur-gzip", vec![r("aws-cur/koku_test_cur.csv.gz")]),
            (
                "azure",
                vec![r("azure/sample-anonymous-ea-export-dataset.csv")],
            ),
            ("gcp", vec![r("gcp/2024-03-01_5.csv")]),
            ("oci", vec![r("oci/reports_cost-csv_0000000030000269.csv")]),
        ]);
    }
    for (name, inputs) in &cases {
        let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        convert_and_check(name, &inputs, tmp.path(), tool.as_deref());
    }
}

#[test]
fn a_chinese_text_invoice_is_cny_with_its_findings_and_periods() {
    let tmp = tempfile::tempdir().unwrap();
    let inv = fixture("text/zh-gpu.txt").display().to_string();
    let out = convert_and_check("zh", &[&inv], tmp.path(), None);
    let rows = rows(&out);
    // zh-gpu.txt: `¥` amounts on a Chinese invoice; 2025-10-01 至 2025-10-31.
    assert!(rows.iter().all(|r| r["BillingCurrency"] == "CNY"));
    let first = &rows[0];
    assert_eq!(first["ChargeDescription"], "RTX 4090 GPU 实例");
    assert_eq!(first["BilledCost"], "36.00");
    assert_eq!(first["PricingQuantity"], "20");
    assert_eq!(first["ListUnitPrice"], "1.80");
    assert_eq!(first["x_SourceLine"], "7");
    // The invoice's period, last day included: October, end exclusive.
    assert_eq!(first["ChargePeriodStart"], "2025-10-01T00:00:00Z");
    assert_eq!(first["ChargePeriodEnd"], "2025-11-01T00:00:00Z");
    assert_eq!(first["BillingPeriodEnd"], "2025-11-01T00:00:00Z");
    // The tax and credit lines (no dates of their own) take the bill's period.
    let tax = rows.iter().find(|r| r["ChargeCategory"] == "Tax").unwrap();
    assert_eq!(tax["x_ChargePeriodSource"], "bill");
    assert_eq!(tax["ChargePeriodStart"], "2025-10-01T00:00:00Z");
    assert!(rows.iter().any(|r| r["ChargeCategory"] == "Credit"));
}

#[test]
fn findings_on_a_line_are_named_in_its_row() {
    let tmp = tempfile::tempdir().unwrap();
    let bill = fixture("gpu/duplicate-line.csv").display().to_string();
    let out = convert_and_check("dup", &[&bill], tmp.path(), None);
    let (report, _) = audit_json(&[&bill]);
    let lines: Vec<u64> = report.bills[0]
        .findings
        .iter()
        .filter(|f| f.code.code() == "duplicate-line")
        .filter_map(|f| f.line)
        .collect();
    assert!(!lines.is_empty(), "the fixture has a duplicate line");
    for r in rows(&out) {
        let line: u64 = r["x_SourceLine"].parse().unwrap();
        let named = r["x_Findings"].split(';').any(|c| c == "duplicate-line");
        assert_eq!(named, lines.contains(&line), "line {line}: {r:?}");
    }
}

/// Whether python3 can `import duckdb`; missing is a failure under CI.
fn has_duckdb() -> bool {
    if Command::new("python3")
        .args(["-c", "import duckdb"])
        .status()
        .map_or(true, |s| !s.success())
    {
        assert!(
            !in_ci(),
            "duckdb (PyPI) is required when CI=true (scripts/test installs it)"
        );
        eprintln!("SKIPPED: python3 -m duckdb is missing");
        return false;
    }
    true
}

#[test]
fn duckdb_reads_the_output_with_the_audits_category_sums() {
    if !has_duckdb() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let inputs = [
        fixture("cloud/alibaba-legacy-2024-11.csv")
            .display()
            .to_string(),
        fixture("text/zh-gpu.txt").display().to_string(),
    ];
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out = convert_and_check("duck", &inputs, tmp.path(), None);
    let sql = format!(
        "select x_BillauditCategory, BillingCurrency, sum(cast(BilledCost as decimal(38,10))) \
         from read_csv('{}', all_varchar=true) group by all order by all",
        out.display()
    );
    let py = format!(
        "import duckdb\nduckdb.execute('SET enable_progress_bar = false')\nfor c, cur, s in duckdb.sql({sql:?}).fetchall(): print(c, cur, s)"
    );
    let o = Command::new("python3").args(["-c", &py]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let (want, _) = audit_sums(&inputs);
    let mut seen = 0;
    for line in stdout(&o).lines() {
        let mut p = line.split(' ');
        let (c, cur, s) = (p.next().unwrap(), p.next().unwrap(), dec(p.next().unwrap()));
        assert_eq!(s, want[cur].1[c], "{line}");
        seen += 1;
    }
    // Every category with money in it came back.
    let nonzero = want
        .values()
        .flat_map(|v| v.1.values())
        .filter(|d| !d.is_zero())
        .count();
    assert!(seen >= nonzero, "{seen} < {nonzero}");
}

#[test]
fn focus_validator_passes_its_focus_1_0_rules_but_the_explained_ones() {
    let Some(bin) = validator() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let inv = fixture("cloud/tencent-2024-11.zip").display().to_string();
    let out = convert_and_check("fv", &[&inv], tmp.path(), None);
    let xml = tmp.path().join("fv.xml");
    let o = Command::new(&bin)
        .arg("--data-file")
        .arg(&out)
        .args([
            "--validate-version",
            "1.0",
            "--output-type",
            "unittest",
            "--output-destination",
        ])
        .arg(&xml)
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(
        xml.exists(),
        "focus-validator wrote no report: {}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(&xml).unwrap();
    // <testcase name="RULE :: KIND" ...> followed by <failure ...> when it fails.
    let mut cases = 0;
    let mut failed = Vec::new();
    for chunk in text.split("<testcase ").skip(1) {
        cases += 1;
        let name = chunk.split('"').nth(1).unwrap().to_string();
        if chunk.contains("<failure") || chunk.contains("<error") {
            failed.push(name);
        }
    }
    assert!(cases > 100, "{cases} rules");
    for f in &failed {
        assert!(
            VALIDATOR_EXPLAINED.contains(&f.as_str()),
            "focus-validator: {f} failed"
        );
    }
}

#[test]
fn csv_goes_to_stdout_counts_to_stderr() {
    let inv = fixture("text/zh-gpu.txt").display().to_string();
    let out = run(&["convert", "--to", "focus", &inv]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("ProviderName,PublisherName,"), "{text}");
    // zh-gpu.txt: 6 item lines, 税额 and 代金券 (tax, credit) = 8 rows, and
    // 小计 and 应付金额 (subtotal, total) = 2 summary rows, not written.
    assert_eq!(text.lines().count(), 1 + 8);
    assert!(
        stderr(&out).contains("8 FOCUS rows written; not written: 2 summary rows, 0 skipped rows"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn parquet_goes_to_a_pipe_but_not_to_a_terminal() {
    let inv = fixture("text/zh-gpu.txt").display().to_string();
    // Standard output is a pipe here: the file is written to it.
    let pq = run(&["convert", "--to", "focus", "--format", "parquet", &inv]);
    assert!(pq.status.success(), "{}", stderr(&pq));
    assert!(pq.stdout.starts_with(b"PAR1") && pq.stdout.ends_with(b"PAR1"));
    assert!(
        stderr(&pq).contains("8 FOCUS rows written"),
        "{}",
        stderr(&pq)
    );
    // On a terminal (a pseudo-terminal made by Python's pty) it is refused.
    let script =
        "import os, pty, sys\nsys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))";
    let tty = Command::new("python3")
        .args(["-c", script, env!("CARGO_BIN_EXE_billaudit")])
        .args(["convert", "--to", "focus", "--format", "parquet", &inv])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(tty.status.code(), Some(2), "{}", stdout(&tty));
    assert!(
        stdout(&tty).contains("give --output FILE"),
        "{}",
        stdout(&tty)
    );
    assert!(!stdout(&tty).contains("PAR1"));
}

/// Column types, row count and sums of a Parquet file, as DuckDB reads them.
const DUCK_PARQUET: &str = "import duckdb, json, sys
duckdb.execute('SET enable_progress_bar = false')
p = sys.argv[1]
r = f\"read_parquet('{p}')\"
types = dict(duckdb.sql(f'select column_name, column_type from (describe select * from {r})').fetchall())
rows = duckdb.sql(f'select count(*) from {r}').fetchall()[0][0]
sums = [[c, cur, str(s)] for c, cur, s in duckdb.sql(f'select x_BillauditCategory, BillingCurrency, sum(BilledCost) from {r} group by all').fetchall()]
groups = duckdb.sql(f\"select count(distinct row_group_id) from parquet_metadata('{p}')\").fetchall()[0][0]
print(json.dumps({'types': types, 'rows': rows, 'groups': groups, 'sums': sums}))";

fn duck_parquet(pq: &Path) -> serde_json::Value {
    let o = Command::new("python3")
        .args(["-c", DUCK_PARQUET])
        .arg(pq)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn parquet_is_written_in_row_groups_of_64ki_rows() {
    if !has_duckdb() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("gen.focus.csv");
    // 70,000 rows = one full row group of 65,536 and one of 4,464.
    let mut w = std::io::BufWriter::new(std::fs::File::create(&src).unwrap());
    let expected = billgen::focus(70_000, 7, &mut w).unwrap();
    drop(w);
    let pq = tmp.path().join("gen.parquet");
    let out = run(&[
        "convert",
        "--to",
        "focus",
        "--format",
        "parquet",
        "--output",
        pq.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = duck_parquet(&pq);
    assert_eq!(v["rows"], 70_000);
    assert_eq!(v["groups"], 2);
    // billgen's own totals per category, summed by DuckDB from the DECIMALs.
    let mut got: BTreeMap<String, Decimal> = BTreeMap::new();
    for s in v["sums"].as_array().unwrap() {
        *got.entry(s[0].as_str().unwrap().to_string()).or_default() += dec(s[2].as_str().unwrap());
    }
    for (cat, want) in &expected.totals {
        let g = got.get(*cat).copied().unwrap_or_default();
        assert_eq!(g, *want, "{cat}");
    }
    assert_eq!(got.values().copied().sum::<Decimal>(), expected.total);
}

#[test]
fn parquet_output_reads_back_typed_with_the_audits_sums() {
    if !has_duckdb() {
        return;
    }
    let tool = toolkit();
    let tmp = tempfile::tempdir().unwrap();
    let f = |p: &str| fixture(p).display().to_string();
    let mut cases: Vec<(&str, String)> = vec![
        ("alibaba", f("cloud/alibaba-legacy-2024-11.csv")),
        ("text-en", f("text/en-columns-credit-tax.txt")),
        ("text-zh", f("text/zh-gpu.txt")),
    ];
    if let Some(real) = real_data() {
        let r = |p: &str| real.join(p).display().to_string();
        cases.push(("focus", r("focus/focus_sample.csv")));
        cases.push(("cur-gzip", r("aws-cur/koku_test_cur.csv.gz")));
    }
    for (name, input) in &cases {
        // The CSV of the same input, checked by convert_and_check, gives the row count.
        let csv_rows = rows(&convert_and_check(name, &[input], tmp.path(), None)).len();
        let pq = tmp.path().join(format!("{name}.focus.parquet"));
        let out = run(&[
            "convert",
            "--to",
            "focus",
            "--format",
            "parquet",
            "--output",
            pq.to_str().unwrap(),
            input,
        ]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let meta: serde_json::Value = serde_json::from_slice(
            &std::fs::read(tmp.path().join(format!("{name}.focus.parquet.meta.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(meta["rows"], csv_rows as u64, "{name}");

        let v = duck_parquet(&pq);
        let ty = |c: &str| v["types"][c].as_str().unwrap_or_default().to_string();
        assert!(
            ty("BilledCost").starts_with("DECIMAL(38,"),
            "{name}: {}",
            v["types"]
        );
        assert!(ty("PricingQuantity").starts_with("DECIMAL(38,"), "{name}");
        assert!(
            ty("ChargePeriodStart").starts_with("TIMESTAMP"),
            "{name}: {}",
            v["types"]
        );
        assert_eq!(ty("ChargeDescription"), "VARCHAR", "{name}");
        assert_eq!(v["rows"], csv_rows as u64, "{name}");
        // One row per line item the audit counts.
        let items: u64 = audit_json(&[input])
            .0
            .bills
            .iter()
            .map(|b| b.line_items)
            .sum();
        assert_eq!(v["rows"], items, "{name}");
        // DuckDB's exact DECIMAL sums per category and currency are the audit's.
        let (want, _) = audit_sums(&[input]);
        let mut got = Sums::new();
        for s in v["sums"].as_array().unwrap() {
            let (c, cur) = (s[0].as_str().unwrap(), s[1].as_str().unwrap());
            let cat = c.parse::<Category>().unwrap();
            let e = got.entry(cur.to_string()).or_default();
            e.0 += dec(s[2].as_str().unwrap());
            for k in Category::ALL {
                let add = if k == cat {
                    dec(s[2].as_str().unwrap())
                } else {
                    Decimal::ZERO
                };
                *e.1.entry(k.as_str()).or_default() += add;
            }
        }
        assert_eq!(
            got, want,
            "{name}: DuckDB's sums of the Parquet differ from the audit"
        );

        // billaudit reads its own Parquet back to the same categories and totals.
        let (again, _) = audit_sums(&[pq.to_str().unwrap()]);
        assert_eq!(again, want, "{name}: auditing the Parquet gives other sums");

        if let Some(tool) = &tool {
            let d = Command::new(tool)
                .args(["detect", "--format", "json"])
                .arg(&pq)
                .output()
                .unwrap();
            let v: serde_json::Value = serde_json::from_slice(&d.stdout)
                .unwrap_or_else(|e| panic!("{name}: detect: {e}: {}", stderr(&d)));
            assert_eq!(v["dataset"], "Cost and Usage", "{name}: {v}");
            assert_eq!(v["detected_version"], "1.2", "{name}: {v}");
            assert_eq!(v["confidence"], "HIGH", "{name}: {v}");
            assert_eq!(v["missing_columns"], serde_json::json!([]), "{name}: {v}");
        }
    }
}
