//! Batch and CI use: many inputs, every output format parsed back or
//! snapshot-tested, fixture expectations, baselines, order and pipes.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::*;

const PAIR: [&str; 3] = [
    "fixtures/csv/arithmetic-error.csv",
    "fixtures/csv/clean-bill.csv",
    "fixtures/csv/placeholders-and-totals.csv",
];

#[test]
fn sarif_is_valid_and_locates_findings() {
    let mut args = vec!["audit", "--format", "sarif"];
    args.extend(PAIR);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    for check in billaudit::audit::CHECKS {
        let rule = rules.iter().find(|r| r["id"] == check.code).unwrap();
        assert_eq!(rule["shortDescription"]["text"], check.summary);
        assert_eq!(
            rule["defaultConfiguration"]["level"],
            check.default_severity.as_str()
        );
    }
    let results = run["results"].as_array().unwrap();
    // 2 line-arithmetic + missing-amount + unparsable-value + unclassified-items.
    assert_eq!(results.len(), 5, "{results:#?}");
    let first = &results[0];
    assert_eq!(first["ruleId"], "line-arithmetic");
    let loc = &first["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "fixtures/csv/arithmetic-error.csv"
    );
    assert_eq!(loc["region"]["startLine"], 3);
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        assert!(
            rules.iter().any(|x| x["id"] == id),
            "rule {id} not declared"
        );
    }
}

#[test]
fn junit_has_a_suite_per_bill_and_a_case_per_check() {
    let mut args = vec!["audit", "--format", "junit"];
    args.extend(PAIR);
    args.push("fixtures/csv/nope.csv");
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2));
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 4, "three bills and one unreadable input");
    let n_checks = billaudit::audit::CHECKS.len();
    let s0 = suites[0];
    assert_eq!(
        s0.attribute("name"),
        Some("fixtures/csv/arithmetic-error.csv [USD]")
    );
    let cases: Vec<_> = s0
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), n_checks);
    let failing: Vec<_> = cases
        .iter()
        .filter(|c| c.children().any(|f| f.has_tag_name("failure")))
        .collect();
    // Line 3's arithmetic; line 6, billed above its list (issue 31's code).
    let names: Vec<_> = failing.iter().map(|c| c.attribute("name")).collect();
    assert_eq!(names, [Some("line-arithmetic"), Some("above-list-price")]);
    let failure = failing[0]
        .children()
        .find(|f| f.has_tag_name("failure"))
        .unwrap();
    assert!(
        failure
            .text()
            .unwrap()
            .contains("fixtures/csv/arithmetic-error.csv:3:")
    );
    // The clean bill fails nothing; the missing file is an error case.
    let clean_failures = suites[1]
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(clean_failures, 0);
    assert!(suites[3].descendants().any(|n| n.has_tag_name("error")));
    // Warnings do not fail under --fail-on error, they do under warning.
    let out = run(&[
        "audit",
        "--format",
        "junit",
        "--fail-on",
        "warning",
        "fixtures/csv/eu-semicolon-decimal-comma.csv",
    ]);
    let doc_text = stdout(&out);
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    let f: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].attribute("type"), Some("replica-redundancy"));
}

#[test]
fn jsonl_is_one_object_per_bill() {
    let mut args = vec!["audit", "--format", "jsonl"];
    args.extend(PAIR);
    let out = run(&args);
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l["type"] == "bill"));
    assert_eq!(lines[1]["path"], "fixtures/csv/clean-bill.csv");
    assert_eq!(lines[1]["total"], "576.00");
}

#[test]
fn markdown_snapshot() {
    let mut args = vec!["audit", "--format", "markdown"];
    args.extend(PAIR);
    insta::assert_snapshot!("markdown", stdout(&run(&args)));
}

#[test]
fn csv_snapshot() {
    let mut args = vec!["audit", "--format", "csv"];
    args.extend(PAIR);
    let out = stdout(&run(&args));
    insta::assert_snapshot!("csv", out);
    let mut rdr = csv::Reader::from_reader(out.as_bytes());
    assert_eq!(rdr.records().count(), 3);
}

#[test]
fn github_annotations_snapshot() {
    let mut args = vec!["audit", "--format", "github"];
    args.extend(PAIR);
    insta::assert_snapshot!("github", stdout(&run(&args)));
}

#[test]
fn csv_output_neutralises_formula_injection() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("=HYPERLINK(1).csv"),
        "Description,Amount,Currency\n@SUM(A1:A9),-3.00,USD\nGPU instance,10.00,USD\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["audit", "--format", "csv", "=HYPERLINK(1).csv"],
    );
    let text = stdout(&out);
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let row = rdr.records().next().unwrap().unwrap();
    assert_eq!(&row[0], "'=HYPERLINK(1).csv", "{text}");
    // Numbers stay numbers, even negative ones.
    assert_eq!(&row[13], "7.00");
    assert_eq!(&row[11], "0");
    for cell in row.iter() {
        assert!(!cell.starts_with(['=', '+', '@']), "unsafe cell {cell:?}");
        if let Some(rest) = cell.strip_prefix('-') {
            assert!(rest.parse::<f64>().is_ok(), "unsafe cell {cell:?}");
        }
    }
}

#[test]
fn check_matches_mismatches_misses_and_blesses() {
    let dir = tempfile::tempdir().unwrap();
    let bill = dir.path().join("bill.csv");
    std::fs::copy(fixture("csv/gpu-pod-en.csv"), &bill).unwrap();
    let before = std::fs::read(&bill).unwrap();
    let exp = dir.path().join("bill.csv.expect.toml");

    // Missing: reported, fails only with --require-expectations.
    let out = run_in(dir.path(), &["check", "bill.csv"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("check bill.csv: no expectation"));
    let out = run_in(dir.path(), &["check", "--require-expectations", "bill.csv"]);
    assert_eq!(out.status.code(), Some(1));

    // Blessed: written atomically, the bill untouched, no temporary left.
    let out = run_in(dir.path(), &["check", "--bless", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(exp.exists());
    assert_eq!(std::fs::read(&bill).unwrap(), before);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    // Matching.
    let out = run_in(dir.path(), &["check", "--require-expectations", "bill.csv"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("check bill.csv: ok"));

    // Mismatching: a readable diff per field.
    let text = std::fs::read_to_string(&exp).unwrap();
    std::fs::write(
        &exp,
        text.replace("compute = \"173.52\"", "compute = \"170.00\""),
    )
    .unwrap();
    let out = run_in(dir.path(), &["check", "bill.csv"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("bill USD: totals.compute: expected 170.00, got 173.52"),
        "{}",
        stdout(&out)
    );
    let out = run_in(dir.path(), &["check", "--format", "junit", "bill.csv"]);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert_eq!(failure.attribute("type"), Some("expectation-mismatch"));
    assert!(failure.text().unwrap().contains("totals.compute"));

    // A broken expectation file is an error, not a pass.
    std::fs::write(&exp, "total = ").unwrap();
    let out = run_in(dir.path(), &["check", "bill.csv"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("BROKEN"));
}

#[test]
fn check_on_the_project_fixtures_passes() {
    let out = run(&["check", "--require-expectations", "fixtures"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains(" 0 mismatched, 0 missing"));
}

#[test]
fn baseline_flags_hidden_share_growth_and_finding_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (mut r, _) = audit_json(&["fixtures/csv/gpu-pod-en.csv", "fixtures/csv/clean-bill.csv"]);
    // Bills come sorted by path: clean-bill, then gpu-pod-en.
    r.bills.swap(0, 1);
    assert_eq!(r.bills[0].path, "fixtures/csv/gpu-pod-en.csv");
    // Last month: the pod bill had 7.00% hidden fees and one more finding;
    // the clean bill had 1.50%.
    r.bills[0].hidden_share = Some("0.070000".into());
    let pod_path = r.bills[0].path.clone();
    r.bills[0].findings.push(billaudit::Finding {
        code: billaudit::model::Check::LineArithmetic,
        severity: billaudit::Severity::Error,
        message: "old".into(),
        path: pod_path,
        line: Some(4),
        accepted: None,
    });
    r.bills[1].hidden_share = Some("0.015000".into());
    let base = dir.path().join("base.json");
    std::fs::write(&base, serde_json::to_string(&r).unwrap()).unwrap();
    let (now, out) = audit_json(&[
        "--baseline",
        base.to_str().unwrap(),
        "fixtures/csv/gpu-pod-en.csv",
        "fixtures/csv/clean-bill.csv",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let pod = &now.bills[1];
    let inc = pod
        .findings
        .iter()
        .find(|f| f.code == "hidden-share-increase")
        .unwrap();
    assert!(
        inc.message.contains("from 7.00% to 8.56% (+1.56 points)"),
        "{}",
        inc.message
    );
    let b = pod.baseline.as_ref().unwrap();
    assert_eq!(b.previous_hidden_share.as_deref(), Some("0.070000"));
    assert_eq!(b.vanished_findings, vec!["line-arithmetic:4".to_string()]);
    assert!(b.new_findings.is_empty());
    // +0.24 points is within the default 1-point limit.
    let clean = &now.bills[0];
    assert!(clean.findings.is_empty());
    assert!(clean.passed);
    // A wider limit lets the pod bill's growth pass.
    let (now, _) = audit_json(&[
        "--baseline",
        base.to_str().unwrap(),
        "--max-increase",
        "2",
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    assert!(
        !now.bills[0]
            .findings
            .iter()
            .any(|f| f.code == "hidden-share-increase")
    );
    // A bad baseline is a usage error.
    std::fs::write(&base, "{not json").unwrap();
    let out = run(&[
        "audit",
        "--baseline",
        base.to_str().unwrap(),
        "fixtures/csv/clean-bill.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a billaudit JSON report"));
}

/// 200 small bills with varied figures.
fn many_bills(dir: &Path, n: usize) {
    for i in 0..n {
        let sub = dir.join(format!("m{:02}", i % 7));
        std::fs::create_dir_all(&sub).unwrap();
        let body = format!(
            "Description,Quantity,Unit Price,Amount,Currency\n\
             GPU instance hours,{q},1.50,{c},USD\n\
             Volume snapshot,,,{s}.{r:02},USD\n\
             Internet egress,,,{e}.5,{cur}\n",
            q = i + 1,
            c = rust_decimal::Decimal::new(150 * (i as i64 + 1), 2),
            s = i % 13,
            r = i % 100,
            e = i % 5,
            cur = if i % 17 == 0 { "EUR" } else { "USD" },
        );
        std::fs::write(sub.join(format!("bill-{i:03}.csv")), body).unwrap();
    }
}

#[test]
fn parallel_output_equals_sequential_output() {
    let dir = tempfile::tempdir().unwrap();
    many_bills(dir.path(), 200);
    let go = |threads: &str, format: &str| {
        Command::new(env!("CARGO_BIN_EXE_billaudit"))
            .args(["audit", "--format", format, "."])
            .current_dir(dir.path())
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap()
    };
    for format in ["json", "jsonl", "human"] {
        let seq = go("1", format);
        let par = go("4", format);
        assert_eq!(seq.status.code(), par.status.code());
        assert_eq!(stdout(&seq), stdout(&par), "{format}");
    }
    let (r, _) = {
        let out = go("2", "json");
        (
            serde_json::from_slice::<billaudit::report::json::JsonReport>(&out.stdout).unwrap(),
            out,
        )
    };
    assert_eq!(r.bills.len(), 200 + 12, "12 files have a second currency");
    let paths: Vec<&str> = r.bills.iter().map(|b| b.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert_eq!(r.summary.len(), 2);
    assert_eq!(r.summary[0].currency.as_deref(), Some("USD"));
    assert_eq!(r.summary[0].worst.len(), 3);
}

#[test]
fn globs_are_expanded_when_the_shell_does_not() {
    let (r, _) = audit_json(&["fixtures/csv/hidden-share-*.csv"]);
    assert_eq!(r.bills.len(), 3);
    let out = run(&["audit", "fixtures/csv/zzz-*.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no file matches"));
}

#[test]
fn fail_fast_stops_and_keep_going_does_not() {
    let dir = tempfile::tempdir().unwrap();
    many_bills(dir.path(), 40);
    std::fs::write(dir.path().join("a-broken.csv"), "").unwrap();
    let out = run_in(dir.path(), &["audit", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(2));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["errors"].as_array().unwrap().len(), 1);
    assert_eq!(r["not_audited"], 0);
    let out = run_in(
        dir.path(),
        &["audit", "--format", "json", "--fail-fast", "."],
    );
    assert_eq!(out.status.code(), Some(2));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let audited = r["bills"].as_array().unwrap().len();
    assert!(r["not_audited"].as_u64().unwrap() > 0, "audited {audited}");
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_results_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    many_bills(dir.path(), 200);
    // The exit code of the run read to the end; a closed pipe must not change it.
    let full = run_in(dir.path(), &["audit", "--format", "json", "."]);
    assert_eq!(full.status.code(), Some(1), "some of the bills fail");
    for format in ["json", "jsonl"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_billaudit"))
            .args(["audit", "--format", format, "."])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            full.status.code(),
            "{format}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    }
}

#[test]
fn explain_prints_a_checks_documentation() {
    let out = run(&["explain", "hidden-fee-share"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("What it does."));
    assert!(text.contains("Why it matters."));
    assert!(text.contains("Example."));
    let out = run(&["explain", "no-such-check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("hidden-fee-share"));
}
