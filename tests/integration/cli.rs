//! Process-level tests: every exit code, both output formats, stdin,
//! directories, flags and input errors.

use crate::common::*;

fn tmp_file(name: &str, content: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    let p = path.display().to_string();
    (dir, p)
}

#[test]
fn json_report_of_a_failing_fixture_exits_1() {
    let (r, out) = audit_json(&["fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(r.schema_version, 1);
    assert!(!r.passed);
    let b = &r.bills[0];
    assert_eq!(b.total, "241.75");
    assert_eq!(b.hidden_share.as_deref(), Some("0.085646"));
    assert!(r.errors.is_empty());
}

#[test]
fn clean_bill_exits_0_in_both_formats() {
    let out = run(&["audit", "fixtures/csv/clean-bill.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("fixtures/csv/clean-bill.csv  [generic-csv, USD]"),
        "{text}"
    );
    assert!(text.contains("no findings"), "{text}");
    assert!(text.contains("result: PASSED"), "{text}");
    let (r, out) = audit_json(&["fixtures/csv/clean-bill.csv"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(r.passed && r.bills[0].passed);
}

#[test]
fn human_report_lists_categories_shares_and_findings_with_lines() {
    let out = run(&["audit", "fixtures/csv/arithmetic-error.csv"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for want in [
        "compute",
        "92.00",
        "91.54%",
        "storage_replica",
        "subtotal",
        "total",
        "hidden fees 0 = 0.00% of subtotal, threshold 5.00%",
        "line-arithmetic       fixtures/csv/arithmetic-error.csv:3:",
        "result: FAILED",
    ] {
        assert!(text.contains(want), "missing `{want}` in:\n{text}");
    }
}

#[test]
fn json_is_exact_and_follows_the_schema() {
    let out = run(&[
        "audit",
        "--format",
        "json",
        "fixtures/csv/eu-semicolon-decimal-comma.csv",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    let b = &v["bills"][0];
    for key in [
        "path",
        "format",
        "currency",
        "line_items",
        "skipped_rows",
        "totals",
        "subtotal",
        "total",
        "hidden",
        "hidden_share",
        "replica_share",
        "findings",
        "passed",
    ] {
        assert!(b.get(key).is_some(), "bill lacks `{key}`");
    }
    // Decimals are strings, never floats.
    assert_eq!(b["totals"]["compute"], "1512.00");
    assert_eq!(b["total"], "1891.51");
    assert_eq!(b["replica_share"], "0.007864");
    let f = &b["findings"][0];
    assert_eq!(f["code"], "replica-redundancy");
    assert_eq!(f["severity"], "warning");
    assert!(f["line"].is_null());
}

#[test]
fn fail_on_warning_fails_a_warnings_only_bill() {
    let out = run(&["audit", "fixtures/csv/eu-semicolon-decimal-comma.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = run(&[
        "audit",
        "--fail-on",
        "warning",
        "fixtures/csv/eu-semicolon-decimal-comma.csv",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn thresholds_accept_percent_and_fraction() {
    for t in ["10%", "0.10"] {
        let (r, out) = audit_json(&["--hidden-threshold", t, "fixtures/csv/gpu-pod-en.csv"]);
        assert!(
            !r.bills[0]
                .findings
                .iter()
                .any(|f| f.code == "hidden-fee-share"),
            "threshold {t}"
        );
        // replica-redundancy is only a warning: the run passes.
        assert_eq!(out.status.code(), Some(0));
    }
    let out = run(&[
        "audit",
        "--hidden-threshold",
        "lots",
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a share"), "{}", stderr(&out));
}

#[test]
fn usage_errors_exit_2() {
    let out = run(&["audit"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["audit", "--no-such-flag", "x.csv"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("Exit codes"));
}

#[test]
fn missing_file_exits_2_and_names_it() {
    let out = run(&["audit", "fixtures/csv/nope.csv"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("fixtures/csv/nope.csv"), "{err}");
    assert!(err.contains("No such file"), "{err}");
}

#[test]
fn empty_file_exits_2() {
    let (_d, p) = tmp_file("empty.csv", b"");
    let out = run(&["audit", &p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("empty"), "{}", stderr(&out));
}

#[test]
fn header_only_file_exits_2() {
    let (_d, p) = tmp_file("header.csv", b"Description,Amount\n");
    let out = run(&["audit", &p]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("header but no data rows"), "{err}");
    assert!(err.contains(":1:"), "{err}");
}

#[test]
fn not_a_bill_exits_2() {
    let (_d, p) = tmp_file("image.csv", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0");
    let out = run(&["audit", &p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("PNG image"), "{}", stderr(&out));

    // No column of numbers (a table of numbers is read with inferred
    // columns since issue 26).
    let (_d, p) = tmp_file("cols.csv", b"Foo,Bar,Baz\none,two,three\nfour,five,six\n");
    let out = run(&["audit", &p]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("no header row found"), "{err}");
    assert!(err.contains("--columns"), "{err}");
}

#[test]
fn columns_flag_maps_unknown_headers() {
    let (_d, p) = tmp_file(
        "cols.csv",
        b"Thing,Money\nGPU instance,10.00\nEgress,1.00\n",
    );
    let (r, out) = audit_json(&["--columns", "description=Thing,amount=Money", &p]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(r.bills[0].totals.compute, "10.00");
    assert_eq!(r.bills[0].totals.bandwidth, "1.00");
    let out = run(&["audit", "--columns", "wat=Thing", &p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown role"));
}

#[test]
fn stdin_is_read_with_a_dash() {
    let csv = std::fs::read("fixtures/csv/clean-bill.csv").unwrap();
    let out = run_with_stdin(&["audit", "--format", "json", "-"], &csv);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["bills"][0]["path"], "<stdin>");
    assert_eq!(r["bills"][0]["total"], "576.00");
}

#[test]
fn directories_are_walked_in_sorted_order() {
    let (r, out) = audit_json(&["fixtures/csv"]);
    assert_eq!(out.status.code(), Some(1));
    let paths: Vec<&str> = r.bills.iter().map(|b| b.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert!(paths.len() >= 13, "{paths:?}");
}

#[test]
fn forced_encoding() {
    let out = run(&[
        "audit",
        "--format",
        "json",
        "--encoding",
        "gbk",
        "fixtures/csv/gpu-platform-cn-gbk.csv",
    ]);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["bills"][0]["totals"]["compute"], "615.20");
    let out = run(&[
        "audit",
        "--encoding",
        "klingon",
        "fixtures/csv/clean-bill.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn several_currencies_give_one_bill_each() {
    let (_d, p) = tmp_file(
        "mixed.csv",
        b"Description,Amount,Currency\nGPU instance,10.00,USD\nGPU instance,70.00,CNY\nEgress,1.00,USD\n",
    );
    let (r, out) = audit_json(&[&p]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(r.bills.len(), 2);
    assert_eq!(r.bills[0].currency.as_deref(), Some("USD"));
    assert_eq!(r.bills[0].total, "11.00");
    assert_eq!(r.bills[1].currency.as_deref(), Some("CNY"));
    assert_eq!(r.bills[1].total, "70.00");
    for b in &r.bills {
        assert!(b.findings.iter().any(|f| f.code == "mixed-currency"));
    }
}

#[test]
fn one_bad_input_does_not_hide_the_others() {
    let out = run(&[
        "audit",
        "--format",
        "json",
        "fixtures/csv/clean-bill.csv",
        "fixtures/csv/nope.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["bills"].as_array().unwrap().len(), 1);
    assert_eq!(r["errors"].as_array().unwrap().len(), 1);
    assert_eq!(r["passed"], false);
}

#[test]
fn utf16_with_bom_and_tabs_is_read() {
    // Excel's "Unicode text": UTF-16LE with a BOM, tab-separated.
    let text =
        "Description\tAmount\tCurrency\r\nGPU instance\t10.00\tUSD\r\nSnapshot\t1.00\tUSD\r\n";
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
    let (_d, p) = tmp_file("unicode.txt", &bytes);
    let (r, out) = audit_json(&[&p]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(r.bills[0].totals.compute, "10.00");
    assert_eq!(r.bills[0].totals.storage_replica, "1.00");
    let mut be = vec![0xFE, 0xFF];
    be.extend(text.encode_utf16().flat_map(|u| u.to_be_bytes()));
    let (_d, p) = tmp_file("unicode-be.csv", &be);
    let (r, _) = audit_json(&[&p]);
    assert_eq!(r.bills[0].total, "11.00");
}
