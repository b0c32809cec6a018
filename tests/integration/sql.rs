//! `billaudit sql`: the queries run in DuckDB (from PyPI) on the real
//! exports and the SQL fixtures and must equal `billaudit audit` exactly;
//! every dialect's query parses in sqlglot; unsupported inputs are refused.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{python_has, real_data, root, run, stderr, stdout};

/// True when `python3` can import every module; under `CI=true` a missing
/// module fails the test (scripts/test installs them).
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
        // The FinOps sample is FOCUS 1.0: no `SkuMeter`, which the query
        // names; run_sql.py ran the DuckDB queries without --header-from.
        let sample = real_data().unwrap().join("focus/focus_sample.csv");
        let header = header_of(&sample);
        assert!(header.iter().any(|c| c == "BilledCost"), "{header:?}");
        assert!(!header.iter().any(|c| c == "SkuMeter"), "{header:?}");
    }
}

/// A CSV's header row.
fn header_of(path: &std::path::Path) -> Vec<String> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.headers().unwrap().iter().map(String::from).collect()
}

/// `src` without the columns `drop`, written to `dst`; panics when one of
/// them is not in `src` (the derived file would not be what it claims).
fn without_columns(src: &std::path::Path, dst: &std::path::Path, drop: &[&str]) {
    let mut r = csv::Reader::from_path(src).unwrap();
    let header = r.headers().unwrap().clone();
    for d in drop {
        assert!(header.iter().any(|c| c == *d), "{}: no {d}", src.display());
    }
    let keep: Vec<usize> = (0..header.len())
        .filter(|i| !drop.contains(&&header[*i]))
        .collect();
    let mut w = csv::Writer::from_path(dst).unwrap();
    w.write_record(keep.iter().map(|i| &header[*i])).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        w.write_record(keep.iter().map(|i| rec.get(*i).unwrap_or("")))
            .unwrap();
    }
    w.flush().unwrap();
}

/// Columns FOCUS 1.1 added to 1.0, and 1.2 to 1.1 (the FOCUS changelog;
/// each is in a 1.2 file of focus-data-toolkit and none of the first set in
/// the FinOps 1.0 sample).
const FOCUS_1_1_ADDED: &[&str] = &[
    "CapacityReservationId",
    "CapacityReservationStatus",
    "CommitmentDiscountQuantity",
    "CommitmentDiscountUnit",
    "ServiceSubcategory",
    "SkuMeter",
    "SkuPriceDetails",
];
const FOCUS_1_2_ADDED: &[&str] = &[
    "BillingAccountType",
    "InvoiceId",
    "PricingCurrency",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
    "SubAccountType",
];

/// Every FOCUS version without `--header-from`: focus-data-toolkit's 1.2
/// and 1.3 cost-and-usage files for AWS, Azure and GCP, the same 1.2 files
/// cut to 1.1's and 1.0's columns, and a CUR 2.0 export without its
/// optional product and description columns. The DuckDB query finds the
/// columns each file has and equals `billaudit audit` on it exactly
/// (run_sql.py; the real 1.0 sample and spec examples are in
/// `duckdb_equals_audit_on_real_exports_and_fixtures`).
#[test]
fn duckdb_reads_every_focus_version_and_cur_without_header_from() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let Some(tool) = crate::focus_toolkit::toolkit() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (provider, version) in [
        ("aws", "1.2"),
        ("azure", "1.2"),
        ("gcp", "1.2"),
        ("aws", "1.3"),
    ] {
        let out = tmp.path().join(format!("{provider}-{version}"));
        let made = Command::new(&tool)
            .args([
                "generate",
                "--provider",
                provider,
                "--focus-version",
                version,
            ])
            .args(["--rows", "300", "--seed", "7", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            made.status.success(),
            "{provider} {version}: {}",
            stderr(&made)
        );
        let file = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().contains("cost_and_usage"))
            .unwrap_or_else(|| panic!("no cost-and-usage CSV in {}", out.display()));
        files.push(format!("{}:focus", file.display()));
        if version == "1.2" {
            let v11 = tmp.path().join(format!("{provider}-1.1.csv"));
            without_columns(&file, &v11, FOCUS_1_2_ADDED);
            let v10 = tmp.path().join(format!("{provider}-1.0.csv"));
            let both: Vec<&str> = FOCUS_1_1_ADDED
                .iter()
                .chain(FOCUS_1_2_ADDED)
                .copied()
                .collect();
            without_columns(&file, &v10, &both);
            files.push(format!("{}:focus", v11.display()));
            files.push(format!("{}:focus", v10.display()));
        }
    }
    let cur2 = tmp.path().join("cur2-fewer-columns.csv");
    without_columns(
        &root().join("fixtures/cloud/aws-cur2-2024-11.csv"),
        &cur2,
        &[
            "line_item_line_item_description",
            "product_product_family",
            "bill_payer_account_id",
        ],
    );
    files.push(format!("{}:aws-cur2", cur2.display()));
    let text = run_sql_py("duckdb", &files);
    let ok = text.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(ok, files.len(), "{text}");
    eprintln!("{text}");
}

/// Writes `csv` to a file, the DuckDB query for it without --header-from,
/// and runs it: the engine's error, or None when it ran.
fn duckdb_error(profile: &str, csv: &str) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bill.csv");
    std::fs::write(&f, csv).unwrap();
    let table = format!(
        "read_csv('{}', all_varchar = true, header = true)",
        f.display()
    );
    let q = run(&[
        "sql",
        "--dialect",
        "duckdb",
        "--profile",
        profile,
        "--table",
        &table,
    ]);
    assert!(q.status.success(), "{}", stderr(&q));
    let out = Command::new("python3")
        .args([
            "-c",
            "import duckdb, sys; duckdb.connect().execute('SET enable_progress_bar = false').execute(sys.stdin.read()).fetchall()",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(stdout(&q).as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

/// What the DuckDB query cannot read the way billaudit does stops it, with
/// a message: a table without the cost column, and a column name that
/// billaudit reads by its header rules (a currency in brackets).
#[test]
fn duckdb_without_header_from_stops_on_what_it_cannot_read() {
    if !python_has(&["duckdb"]) {
        return;
    }
    assert_eq!(
        duckdb_error("focus", "BilledCost,ChargeCategory\n1.5,Usage\n"),
        None
    );
    let e = duckdb_error("focus", "Cost,ChargeCategory\n1.5,Usage\n").unwrap();
    assert!(e.contains("no `BilledCost` column"), "{e}");
    let e = duckdb_error(
        "focus",
        "BilledCost,ChargeCategory,SkuMeter (USD)\n1.5,Usage,x\n",
    )
    .unwrap();
    assert!(e.contains("--header-from"), "{e}");
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

/// A header line for each profile, for the dialects that need one.
fn header_line(profile: &str) -> &'static str {
    match profile {
        "focus" => {
            "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodStart,ChargeCategory,ChargeDescription,SkuMeter,ServiceSubcategory,ServiceName,ServiceCategory,x_UsageType"
        }
        "aws-cur" => {
            "bill/PayerAccountId,bill/BillingPeriodStartDate,lineItem/LineItemType,lineItem/UnblendedCost,lineItem/CurrencyCode,lineItem/UsageType,lineItem/LineItemDescription,lineItem/ProductCode,product/ProductName,product/productFamily"
        }
        "aws-cur2" => {
            "bill_payer_account_id,bill_billing_period_start_date,line_item_line_item_type,line_item_unblended_cost,line_item_currency_code,line_item_usage_type,line_item_line_item_description,line_item_product_code,product_product_family"
        }
        "azure" => {
            "BillingAccountId,BillingPeriodStartDate,CostInBillingCurrency,BillingCurrencyCode,ChargeType,MeterName,MeterSubCategory,ProductName,MeterCategory"
        }
        "oci" => {
            "lineItem/tenantId,lineItem/intervalUsageStart,cost/myCost,cost/currencyCode,product/Description,product/service"
        }
        _ => "",
    }
}

fn generated(dialect: &str, profile: &str, dir: &std::path::Path) -> PathBuf {
    let header = dir.join(format!("{profile}.header.csv"));
    std::fs::write(&header, header_line(profile)).unwrap();
    let mut args = vec!["sql", "--dialect", dialect, "--profile", profile];
    // DuckDB finds the columns as the query runs; GCP's export has one schema.
    if dialect != "duckdb" && profile != "gcp" {
        args.extend(["--header-from", header.to_str().unwrap()]);
    }
    let out = run(&args);
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
        // Only DuckDB reads a column only when the table has it.
        (
            &["sql", "--dialect", "spark", "--profile", "focus"][..],
            "--header-from FILE",
        ),
        (
            &["sql", "--dialect", "athena", "--profile", "aws-cur2"][..],
            "--header-from FILE",
        ),
        (
            &["sql", "--dialect", "bigquery", "--profile", "aws-cur"][..],
            "--header-from FILE",
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
    // Without it, DuckDB looks `SkuMeter` up as the query runs.
    let out = run(&["sql", "--dialect", "duckdb", "--profile", "focus"]);
    assert!(stdout(&out).contains("lower(trim(c)) = 'skumeter'"));
    // Thresholds travel into the query as exact decimals.
    let out = run(&[
        "sql",
        "--dialect",
        "spark",
        "--profile",
        "focus",
        "--header-from",
        f.to_str().unwrap(),
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

/// `sql --findings` in DuckDB: per code, the same (code, line) findings as
/// `billaudit audit` on every real export and on 4 seeded FOCUS bills with
/// duplicates, idle and monthly storage, block prices, overcharges,
/// surcharges, inbound traffic and unclassified rows planted
/// (tests/sql/findings_check.py; the expected findings come from the
/// native audit, an independent implementation of the same checks).
#[test]
fn duckdb_findings_equal_audit_on_real_exports_and_generated_bills() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let files = real_files();
    // The commitment fixtures (issue 31): FOCUS, CUR and Azure bills with
    // unused reservations and a line above its contract.
    let commitments = [
        "focus-1.2-unused-reservation.csv:focus",
        "focus-1.2-commitment-clean.csv:focus",
        "aws-cur-unused-reservation.csv:aws-cur",
        "aws-cur-commitment-clean.csv:aws-cur",
        "azure-amortized-unused-reservation.csv:azure",
        "azure-amortized-commitment-clean.csv:azure",
    ]
    .map(|f| format!("fixtures/commitments/{f}"))
    .into_iter()
    // plan-costlier-than-on-demand: the FOCUS twins of
    // fixtures/commitments/gpu-monthly-plan{,-busy}-cny.csv and a mixed
    // bill, at the built-in on-demand price (hand figures:
    // duckdb_findings_plan_costlier_equal_audit_with_and_without_a_book).
    .chain(PLAN_BILLS.map(|f| format!("tests/sql/fixtures/{f}:focus")))
    .collect::<Vec<_>>();
    let out = Command::new("python3")
        .arg(root().join("tests/sql/findings_check.py"))
        .args(["--engine", "duckdb", "--generated", "4"])
        .args(["--billaudit", env!("CARGO_BIN_EXE_billaudit")])
        .args(&files)
        .args(&commitments)
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "findings differ:\n{text}");
    let ok = text.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(ok, files.len() + commitments.len() + 4, "{text}");
    // The issue's case: on-demand hours billed 300.00 where the contract
    // says 270.00 (30.00 above), one finding.
    let focus = text
        .lines()
        .find(|l| l.contains("focus-1.2-unused-reservation.csv"))
        .unwrap();
    assert!(focus.contains("'above-contracted-price': 1"), "{focus}");
    // unused-commitment in the query (issue 28/31), with the audit's
    // severity and message (findings_check.py MSG_CODES): 230.00 of
    // 500.00 + 230.00 = 730.00 unused, 31.51% > 25%: one error on line 3.
    assert!(focus.contains("'unused-commitment': 1"), "{focus}");
    // AWS: RI 168.00 / 504.00 = 33.33%, SP 12.00 / 100.00 = 12.00%, and
    // the bill's 180.00 / 604.00: three findings.
    let aws = text
        .lines()
        .find(|l| l.contains("aws-cur-unused-reservation.csv"))
        .unwrap();
    assert!(aws.contains("'unused-commitment': 3"), "{aws}");
    if !files.is_empty() {
        // The FinOps FOCUS sample: the native audit's 31 line-arithmetic
        // and 47 idle-storage findings, which the totals query lacks, and
        // above-list-price at lines 949 and 950 (BilledCost 0.192 and 0.08
        // against ListCost 0: 0.192 and 0.08 above, checked with Python
        // decimal) plus the bill's sum (2 lines, 0.272 in all): 3.
        let sample = text
            .lines()
            .find(|l| l.contains("focus/focus_sample.csv"))
            .unwrap();
        assert!(sample.contains("'idle-storage': 47"), "{sample}");
        assert!(sample.contains("'line-arithmetic': 31"), "{sample}");
        assert!(sample.contains("'above-list-price': 3"), "{sample}");
        // The FOCUS spec's usage scenario 3: Used 0.75 and Unused 0.25 of
        // one commitment: 0.25 / 1.00 = 25%, above 10%, not above 25%.
        let spec = text
            .lines()
            .find(|l| l.contains("commitment_discount_usage_scenario_3"))
            .unwrap();
        assert!(spec.contains("'unused-commitment': 1"), "{spec}");
    }
    // The generated bills plant every per-line check the query carries.
    for code in [
        "duplicate-line",
        "idle-storage",
        "line-arithmetic",
        "ingress-charged",
        "above-list-price",
        "above-contracted-price",
        "unused-commitment",
        "billing-rounding",
        "billing-granularity",
    ] {
        assert!(
            text.lines()
                .filter(|l| l.contains("focus-generated"))
                .any(|l| l.contains(code)),
            "{code}: {text}"
        );
    }
}

/// The bills of `plan-costlier-than-on-demand` in `sql --findings`.
const PLAN_BILLS: [&str; 3] = [
    "focus-gpu-monthly-plan.csv",
    "focus-gpu-monthly-plan-busy.csv",
    "focus-gpu-plans-mixed.csv",
];

/// The findings query's `plan-costlier-than-on-demand` rows (line,
/// expected, actual, difference) in DuckDB, with `args` (a config).
fn plan_rows(file: &str, args: &[&str]) -> Vec<String> {
    let f = root().join("tests/sql/fixtures").join(file);
    let table = format!(
        "read_csv('{}', all_varchar = true, header = true, null_padding = true)",
        f.display()
    );
    let mut a = vec![
        "sql",
        "--findings",
        "--dialect",
        "duckdb",
        "--profile",
        "focus",
        "--table",
        &table,
    ];
    a.extend(args);
    let q = run(&a);
    assert!(q.status.success(), "{}", stderr(&q));
    duckdb_rows(&q.stdout, "plan-costlier-than-on-demand")
        .lines()
        .map(String::from)
        .collect()
}

/// The rows of `code` (line, expected, actual, difference, one a line)
/// of the findings query `sql`, run in DuckDB.
fn duckdb_rows(sql: &[u8], code: &str) -> String {
    let py = format!(
        "import duckdb, sys\ncon = duckdb.connect()\ncon.execute('SET enable_progress_bar = false')\nfor r in con.execute(sys.stdin.read()).fetchall():\n    if r[0] == '{code}': print(r[2], r[8], r[9], r[10])\n"
    );
    let mut child = Command::new("python3")
        .args(["-c", &py])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(sql).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

/// `plan-costlier-than-on-demand` in `sql --findings` (issue 31 item 4):
/// with the price book tests/sql/fixtures/focus-gpu-monthly-plan.toml the
/// query finds what `billaudit audit` finds, with the same on-demand cost
/// and difference (findings_check.py FIG_CODES), and its rows are the hand
/// figures of that toml; without a book, the built-in on-demand price.
#[test]
fn duckdb_findings_plan_costlier_equal_audit_with_and_without_a_book() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let book = "tests/sql/fixtures/focus-gpu-monthly-plan.toml";
    let out = Command::new("python3")
        .arg(root().join("tests/sql/findings_check.py"))
        .args(["--engine", "duckdb", "--config", book])
        .args(["--billaudit", env!("CARGO_BIN_EXE_billaudit")])
        .args(PLAN_BILLS.map(|f| format!("tests/sql/fixtures/{f}:focus")))
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "findings differ:\n{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("ok ")).count(), 3);
    let cfg = ["--config", book];
    // 200 h x 1.80 = 360.00 on demand; 1260.00 - 360.00 = 900.00 more.
    let issue = "2 360.00 1260.00 900.00";
    assert_eq!(plan_rows(PLAN_BILLS[0], &cfg), [issue]);
    // 700 h x 1.80 = 1260.00: not more than the plan.
    assert!(plan_rows(PLAN_BILLS[1], &cfg).is_empty());
    // A100: (3 x 100 + 1200 / 60) h = 320 h x 7.00 = 2240.00 against
    // 3000.00 + 12.50 = 3012.50: 772.50 more. L40S: 90 h x 3.333 =
    // 299.970 against 500.000: 200.030 more (the plan's 3 places).
    assert_eq!(
        plan_rows(PLAN_BILLS[2], &cfg),
        [
            issue,
            "4 2240.00 3012.50 772.50",
            "9 299.970 500.000 200.030"
        ]
    );
    // The built-in book: RTX 4090 in CNY at 1.70, 2.00 and 9 (the median
    // 2.00): 200 x 2.00 = 400.00; 1260.00 - 400.00 = 860.00 more; the
    // built-in book has no CNY entry for the other models (prices.toml,
    // read with Python tomllib: only RTX 4090 has CNY hourly offers).
    let builtin = "2 400.00 1260.00 860.00";
    assert_eq!(plan_rows(PLAN_BILLS[0], &[]), [builtin]);
    assert!(plan_rows(PLAN_BILLS[1], &[]).is_empty());
    assert_eq!(plan_rows(PLAN_BILLS[2], &[]), [builtin]);
}

/// `sql --findings` with a price book (`[[price]]`): the entries become the
/// query's literal `prices` list and `rate-above-reference` finds, in
/// DuckDB, the lines the audit finds, with the same excess per unit. The
/// bill and its book are tests/sql/fixtures/focus-price-book.{csv,toml},
/// with the hand arithmetic of every line in the toml: lines 2, 4, 6, 8,
/// 10 and 11 are above their entry (0.50, 0.003333, 0.000002, 5.00, 0.20
/// and 0.25 over per unit).
#[test]
fn duckdb_findings_with_a_price_book_equal_audit() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let out = Command::new("python3")
        .arg(root().join("tests/sql/findings_check.py"))
        .args(["--engine", "duckdb"])
        .args(["--billaudit", env!("CARGO_BIN_EXE_billaudit")])
        .args(["--config", "tests/sql/fixtures/focus-price-book.toml"])
        .arg("tests/sql/fixtures/focus-price-book.csv:focus")
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "findings differ:\n{text}");
    assert!(text.contains("'rate-above-reference': 6"), "{text}");
    // The query's own rows, against the hand figures of the toml.
    let f = root().join("tests/sql/fixtures/focus-price-book.csv");
    let table = format!(
        "read_csv('{}', all_varchar = true, header = true, null_padding = true)",
        f.display()
    );
    let book = root().join("tests/sql/fixtures/focus-price-book.toml");
    let q = run(&[
        "sql",
        "--findings",
        "--dialect",
        "duckdb",
        "--profile",
        "focus",
        "--config",
        book.to_str().unwrap(),
        "--table",
        &table,
    ]);
    assert!(q.status.success(), "{}", stderr(&q));
    let rows = duckdb_rows(&q.stdout, "rate-above-reference");
    // line, the book's max, the unit price, the excess per unit.
    assert_eq!(
        rows.lines().collect::<Vec<_>>(),
        [
            "2 2.00 2.50 0.50",
            "4 2.00 2.003333 0.003333",
            "6 2.00 2.000002 0.000002",
            "8 40.00 45.00 5.00",
            "10 2.00 2.20 0.20",
            "11 7.00 7.25 0.25",
        ],
        "{rows}"
    );
}

/// The findings query of every dialect parses in sqlglot, and `--output`
/// writes both queries.
#[test]
fn findings_queries_parse_in_every_dialect_and_output_writes_both() {
    if !python_has(&["sqlglot"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for dialect in ["duckdb", "spark", "athena", "bigquery"] {
        let mut files = Vec::new();
        for profile in ["focus", "aws-cur", "aws-cur2", "azure", "oci"] {
            let header = dir.path().join(format!("{profile}.header.csv"));
            std::fs::write(&header, header_line(profile)).unwrap();
            let out_dir = dir.path().join(format!("{dialect}-{profile}"));
            let mut args = vec![
                "sql",
                "--findings",
                "--dialect",
                dialect,
                "--profile",
                profile,
                "--output",
                out_dir.to_str().unwrap(),
            ];
            if dialect != "duckdb" {
                args.extend(["--header-from", header.to_str().unwrap()]);
            }
            // The FOCUS queries carry a price book: its literal list and
            // the rate-above-reference branch parse too.
            let book = root().join("tests/sql/fixtures/focus-price-book.toml");
            if profile == "focus" {
                args.extend(["--config", book.to_str().unwrap()]);
            }
            let out = run(&args);
            assert!(
                out.status.success(),
                "{dialect} {profile}: {}",
                stderr(&out)
            );
            assert!(out_dir.join("totals.sql").exists());
            let f = out_dir.join("findings.sql");
            let sql = std::fs::read_to_string(&f).unwrap();
            assert!(sql.contains("'duplicate-line' AS code"), "{sql}");
            assert_eq!(
                sql.contains("'rate-above-reference' AS code"),
                profile == "focus",
                "{sql}"
            );
            files.push(f);
        }
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

/// `billing-rounding` and `billing-granularity` in `sql --findings` read
/// hour units as the audit does (tests/sql/fixtures/focus-hour-units.csv:
/// 19 compute lines of 2 h 10 min, 7800 s, each billed 3.00).
/// By hand: q = 3 hours is 10800 - 7800 = 3000 s above (more than the
/// half unit of `3`, 1800 s, and 3 = ceil(7800 / 3600)): rounding on the
/// 13 lines whose unit is one hour: `h` (twice, once `3.00`: 18 s of
/// tolerance), `HR`, `Hrs`, `小时`, `卡时`, `GPU Hours`, full-width `Ｈｏｕｒｓ`
/// (folded), `01 Hour`, `hour(s)`, `Instance-Hour`, ` hours`, `GPU·小时`; not
/// `GB-Hours` (storage), `10 Hours` (a block), `minutes`, `Days`, `24
/// Hours` (a day), `卡 时`. Granularity (units not folded: `Ｈｏｕｒｓ` is no
/// unit there): timed are the 12 hour lines without it plus `Days` and `24
/// Hours` = 14; rounded the 12 (3000 s: more than 60, less than 3600) and
/// `24 Hours` (86400 - 7800 = 78600 s, less than a day) = 13; billed 13 x
/// 3.00 = 39.00; per second 12 x 3.00 x 7800 / 10800 = 26.00 plus 3.00 x
/// 7800 / 86400 = 0.2708333: 26.27, and 39.00 - 26.2708333 = 12.73.
#[test]
fn duckdb_findings_read_hour_units_as_the_audit() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let file = root().join("tests/sql/fixtures/focus-hour-units.csv");
    let out = Command::new("python3")
        .arg(root().join("tests/sql/findings_check.py"))
        .args(["--engine", "duckdb"])
        .args(["--billaudit", env!("CARGO_BIN_EXE_billaudit")])
        .arg(format!("{}:focus", file.display()))
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "findings differ:\n{text}");
    assert!(
        text.contains("{'billing-granularity': 1, 'billing-rounding': 13}"),
        "{text}"
    );
    let audit = run(&["audit", "--profile", "focus", file.to_str().unwrap()]);
    let s = stdout(&audit);
    assert!(s.contains("13 of 14 timed compute lines"), "{s}");
    assert!(
        s.contains(
            "billed 39.00 USD, per-second billing would have cost about 26.27 USD (12.73 USD more"
        ),
        "{s}"
    );
}
