//! Text invoices (`fixtures/text/`): exact totals per category, stated versus
//! computed totals, finding codes and exit codes. Every expected figure is
//! worked out by hand from the fixture, in the comments next to it.

use billaudit::report::json::JsonBill;

use crate::common::*;

/// Totals in the order compute, storage, storage_replica, bandwidth,
/// scheduling, tax, credit, other.
fn assert_totals(b: &JsonBill, expected: [&str; 8]) {
    let got = b.totals.values();
    assert_eq!(got, expected, "{}", b.path);
}

fn text_bill(name: &str) -> JsonBill {
    let b = audit_one(&fixture(&format!("text/{name}")));
    assert_eq!(b.format, "text-invoice");
    b
}

fn exit_code(name: &str) -> Option<i32> {
    let path = format!("fixtures/text/{name}");
    let out = run(&["audit", &path]);
    out.status.code()
}

#[test]
fn english_columns_with_credit_and_tax() {
    let b = text_bill("en-columns-credit-tax.txt");
    assert_eq!(b.currency.as_deref(), Some("USD"));
    // compute 82.80 + 44.00; storage 35.00; snapshot 10.00; egress 6.00;
    // cluster management 9.00; sales tax 13.34; credit -20.00.
    assert_totals(
        &b,
        [
            "126.80", "35.00", "10.00", "6.00", "9.00", "13.34", "-20.00", "0",
        ],
    );
    assert_eq!(b.line_items, 8);
    // 126.80 + 35.00 + 10.00 + 6.00 + 9.00
    assert_eq!(b.subtotal, "186.80");
    assert_eq!(b.stated_subtotal.as_deref(), Some("186.80"));
    // 186.80 - 20.00 + 13.34
    assert_eq!(b.total, "180.14");
    assert_eq!(b.stated_total.as_deref(), Some("180.14"));
    // hidden 10.00 + 6.00 + 9.00 = 25.00 of 186.80
    assert_eq!(b.hidden, "25.00");
    assert_eq!(b.hidden_share.as_deref(), Some("0.133833"));
    assert_eq!(b.replica_share.as_deref(), Some("0.053533"));
    // Subtotal and total lines are counted as summary rows.
    assert_eq!((b.skipped.summary, b.skipped.unparsable), (2, 0));
    // (35 + 10) / 35 = 1.29 > 1.2; scheduling 9.00 / 126.80 = 7.1% < 8%.
    assert_eq!(codes(&b), ["hidden-fee-share", "replica-redundancy"]);
    assert_eq!(exit_code("en-columns-credit-tax.txt"), Some(1));
}

#[test]
fn english_leader_dots() {
    let b = text_bill("en-leader-dots.txt");
    // No currency header: `$` says USD.
    assert_eq!(b.currency.as_deref(), Some("USD"));
    // A100 300 x 1.29 = 387.00; filesystem 20.00; backup replica 20.00;
    // 2048 GB x 0.01 = 20.48 out; support plan 49.00 is other; tax 0.00.
    assert_totals(
        &b,
        [
            "387.00", "20.00", "20.00", "20.48", "0", "0.00", "0", "49.00",
        ],
    );
    assert_eq!(b.line_items, 6);
    // 387.00 + 20.00 + 20.00 + 20.48 + 49.00
    assert_eq!(b.subtotal, "496.48");
    assert_eq!(b.stated_subtotal.as_deref(), Some("496.48"));
    assert_eq!(b.total, "496.48");
    assert_eq!(b.stated_total.as_deref(), Some("496.48"));
    // hidden 20.00 + 20.48 = 40.48 of 496.48
    assert_eq!(b.hidden_share.as_deref(), Some("0.081534"));
    // The `@` rates agree with their amounts: no line-arithmetic finding.
    assert_eq!(codes(&b), ["hidden-fee-share", "replica-redundancy"]);
    assert_eq!(exit_code("en-leader-dots.txt"), Some(1));
}

#[test]
fn chinese_invoice() {
    let b = text_bill("zh-gpu.txt");
    assert_eq!(b.currency.as_deref(), Some("CNY"));
    // 实例 36.00 + 65.00; 数据盘 30.00; 快照 6.00; 公网流量 24.00;
    // 集群管理费 10.00; 税额 9.06; 代金券 20.00 written positive, stored -20.00.
    assert_totals(
        &b,
        [
            "101.00", "30.00", "6.00", "24.00", "10.00", "9.06", "-20.00", "0",
        ],
    );
    assert_eq!(b.line_items, 8);
    assert_eq!(b.subtotal, "171.00");
    assert_eq!(b.stated_subtotal.as_deref(), Some("171.00"));
    // 171.00 - 20.00 + 9.06
    assert_eq!(b.total, "160.06");
    assert_eq!(b.stated_total.as_deref(), Some("160.06"));
    // hidden 6 + 24 + 10 = 40 of 171
    assert_eq!(b.hidden_share.as_deref(), Some("0.233918"));
    assert_eq!(b.replica_share.as_deref(), Some("0.035088"));
    // (30 + 6) / 30 = 1.2 is not above 1.2; 10 / 101 = 9.9% > 8%.
    assert_eq!(codes(&b), ["hidden-fee-share", "scheduling-fee-share"]);
    assert_eq!(exit_code("zh-gpu.txt"), Some(1));
}

#[test]
fn mixed_chinese_and_english() {
    let b = text_bill("mixed-zh-en.txt");
    assert_eq!(b.currency.as_deref(), Some("CNY"));
    // H800 8 x 12.50 = 100.00; object storage 24.00; cross-region
    // replication 10.00; egress 30.00; platform fee 8.00; VAT 9.60; discount -12.00.
    assert_totals(
        &b,
        [
            "100.00", "24.00", "10.00", "30.00", "8.00", "9.60", "-12.00", "0",
        ],
    );
    assert_eq!(b.subtotal, "172.00");
    assert_eq!(b.stated_subtotal.as_deref(), Some("172.00"));
    // 172.00 - 12.00 + 9.60
    assert_eq!(b.total, "169.60");
    assert_eq!(b.stated_total.as_deref(), Some("169.60"));
    // hidden 10 + 30 + 8 = 48 of 172
    assert_eq!(b.hidden_share.as_deref(), Some("0.279070"));
    // (24 + 10) / 24 = 1.42 > 1.2; scheduling 8 / 100 is exactly 8%, not above.
    assert_eq!(codes(&b), ["hidden-fee-share", "replica-redundancy"]);
}

#[test]
fn stated_total_that_does_not_match() {
    let b = text_bill("total-mismatch.txt");
    // L40S 50 x 0.95 = 47.50; block storage 200 x 0.10 = 20.00; tax 6.75.
    assert_totals(&b, ["47.50", "20.00", "0", "0", "0", "6.75", "0", "0"]);
    assert_eq!(b.subtotal, "67.50");
    assert_eq!(b.stated_subtotal.as_deref(), Some("67.50"));
    // 67.50 + 6.75 = 74.25, but the invoice states 84.25.
    assert_eq!(b.total, "74.25");
    assert_eq!(b.stated_total.as_deref(), Some("84.25"));
    assert_eq!(codes(&b), ["total-mismatch"]);
    let f = &b.findings[0];
    assert_eq!(f.line, Some(11));
    assert!(f.message.contains("by 10.00"), "{}", f.message);
    assert_eq!(exit_code("total-mismatch.txt"), Some(1));
}

#[test]
fn stated_subtotal_that_does_not_match() {
    let b = text_bill("subtotal-mismatch.txt");
    // Pod 5.50 (but 10 x 0.50 = 5.00); network volume 7.00.
    assert_totals(&b, ["5.50", "7.00", "0", "0", "0", "0", "0", "0"]);
    // 5.50 + 7.00 = 12.50, but the invoice states a subtotal of 13.00 and
    // a total of 12.50, which matches the lines.
    assert_eq!(b.subtotal, "12.50");
    assert_eq!(b.stated_subtotal.as_deref(), Some("13.00"));
    assert_eq!(b.stated_total.as_deref(), Some("12.50"));
    assert_eq!(codes(&b), ["line-arithmetic", "subtotal-mismatch"]);
    let lines: Vec<_> = b
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.line))
        .collect();
    assert_eq!(
        lines,
        [("line-arithmetic", Some(2)), ("subtotal-mismatch", Some(4))]
    );
}

#[test]
fn unparseable_line_in_the_middle() {
    let b = text_bill("unparsed-line.txt");
    // GPU 100 x 0.70 = 70.00; volume 200 x 0.10 = 20.00; line 7 is not read.
    assert_totals(&b, ["70.00", "20.00", "0", "0", "0", "0", "0", "0"]);
    assert_eq!(b.subtotal, "90.00");
    assert_eq!(b.stated_total.as_deref(), Some("90.00"));
    assert_eq!(b.line_items, 2);
    assert_eq!((b.skipped.unparsable, b.skipped.summary), (1, 2));
    assert_eq!(codes(&b), ["unparsed-line"]);
    let f = &b.findings[0];
    assert_eq!(f.line, Some(7));
    assert_eq!(f.severity, billaudit::Severity::Warning);
    assert!(
        f.message.contains("column 1")
            && f.message
                .contains("Egress to internet (see attached usage report)"),
        "{}",
        f.message
    );
    // A warning does not fail the run by default, but does with --fail-on warning.
    assert_eq!(exit_code("unparsed-line.txt"), Some(0));
    let out = run(&[
        "audit",
        "--fail-on",
        "warning",
        "fixtures/text/unparsed-line.txt",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn one_line_receipt() {
    let b = text_bill("one-line-receipt.txt");
    assert_eq!(b.currency.as_deref(), Some("USD"));
    // 12 hrs x 0.69 = 8.28, the amount: no line-arithmetic finding.
    assert_totals(&b, ["8.28", "0", "0", "0", "0", "0", "0", "0"]);
    assert_eq!((b.subtotal.as_str(), b.total.as_str()), ("8.28", "8.28"));
    assert_eq!(
        (b.stated_subtotal.as_deref(), b.stated_total.as_deref()),
        (None, None)
    );
    assert_eq!(b.hidden_share.as_deref(), Some("0.000000"));
    assert!(b.findings.is_empty(), "{:?}", b.findings);
    assert_eq!(exit_code("one-line-receipt.txt"), Some(0));
}

#[test]
fn windows_line_endings() {
    let raw = std::fs::read(fixture("text/windows-crlf.txt")).unwrap();
    assert!(
        raw.windows(2).any(|w| w == b"\r\n"),
        "git must keep the CRLF line endings (.gitattributes)"
    );
    let b = text_bill("windows-crlf.txt");
    assert_eq!(b.currency.as_deref(), Some("EUR"));
    // CPU 720 x 0.05 = 36.00; SSD 100 x 0.08 = 8.00; NAT 720 x 0.01 = 7.20;
    // VAT 20% of 51.20 = 10.24.
    assert_totals(&b, ["36.00", "8.00", "0", "7.20", "0", "10.24", "0", "0"]);
    assert_eq!(b.subtotal, "51.20");
    assert_eq!(b.stated_subtotal.as_deref(), Some("51.20"));
    assert_eq!(b.total, "61.44");
    assert_eq!(b.stated_total.as_deref(), Some("61.44"));
    // 7.20 / 51.20
    assert_eq!(b.hidden_share.as_deref(), Some("0.140625"));
    assert_eq!(codes(&b), ["hidden-fee-share"]);
}

#[test]
fn json_and_human_output_agree() {
    let (r, out) = audit_json(&["fixtures/text/en-columns-credit-tax.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let b = &r.bills[0];
    assert_eq!(b.format, "text-invoice");
    assert_eq!(b.total, "180.14");
    let human = stdout(&run(&["audit", "fixtures/text/en-columns-credit-tax.txt"]));
    assert!(human.contains("[text-invoice, USD]"), "{human}");
    assert!(human.contains("stated subtotal   186.80"), "{human}");
    assert!(human.contains("stated total      180.14"), "{human}");
}

#[test]
fn a_directory_of_text_invoices() {
    let (r, out) = audit_json(&["fixtures/text"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(r.bills.len(), 9);
    assert!(r.bills.iter().all(|b| b.format == "text-invoice"));
    assert!(r.errors.is_empty());
}

#[test]
fn detected_by_content_not_by_name() {
    let text = std::fs::read(fixture("text/one-line-receipt.txt")).unwrap();
    let out = run_with_stdin(&["audit", "--format", "json", "-"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"format\": \"text-invoice\""));
    // And a CSV export is still a CSV export.
    let (r, _) = audit_json(&["fixtures/csv/gpu-pod-en.csv"]);
    assert_ne!(r.bills[0].format, "text-invoice");
}

#[test]
fn a_file_without_any_item_is_an_input_error() {
    let out = run_with_stdin(
        &["audit", "-"],
        b"Hello,\nPlease find your invoice attached.\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("<stdin>"), "{err}");
    assert!(err.contains("no invoice item"), "{err}");
}

#[test]
fn input_text_forces_the_text_reader() {
    // A CSV read as text has no item lines (no column gaps, no leaders).
    let out = run(&["audit", "--input", "text", "fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("gpu-pod-en.csv"), "{err}");
    assert!(err.contains("no invoice item"), "{err}");
}

mod never_panics {
    use proptest::prelude::*;

    const LINES: &[&str] = &[
        "INVOICE",
        "Currency: USD",
        "Description   Qty   Unit   Rate   Amount",
        "RTX 4090 GPU instance (on-demand)    20    hours    1.80    36.00",
        "Filesystem storage 1 TB ........ $20.00",
        "RTX 4090 GPU 实例   20 小时   1.80 元/小时   36.00 元",
        "Subtotal    $100.00",
        "Promotional credit   (5.00)",
        "Tax (8%)    8.00",
        "Total due   $98.00",
        "Egress  999999999999999999999999999.99",
        "Egress  -999999999999999999999999999.99",
        "Egress  1e999",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Whole files through the library: any mixture audits or is refused,
        /// never a panic.
        #[test]
        fn any_mixture_audits_or_is_refused(
            parts in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(LINES).prop_map(str::to_string),
                    "[ .:$¥元,0-9a-zA-Z()-]{0,50}",
                ],
                1..30,
            ),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("invoice.txt");
            std::fs::write(&path, parts.join("\n")).unwrap();
            let opts = billaudit::Options {
                input: billaudit::InputKind::Text,
                ..billaudit::Options::default()
            };
            let report = billaudit::audit_paths(&[path.display().to_string()], &opts);
            prop_assert_eq!(report.bills.len() + report.errors.len() >= 1, true);
        }
    }
}

#[test]
fn amounts_in_two_currency_codes_make_two_bills() {
    let out = run_with_stdin(
        &["audit", "--format", "json", "-"],
        b"Storage ..... USD 5.00\nEgress ..... EUR 3.00\n",
    );
    let r: billaudit::report::json::JsonReport = serde_json::from_slice(&out.stdout).unwrap();
    let got: Vec<_> = r
        .bills
        .iter()
        .map(|b| (b.currency.as_deref(), b.total.as_str()))
        .collect();
    assert_eq!(got, [(Some("USD"), "5.00"), (Some("EUR"), "3.00")]);
    assert!(
        r.bills
            .iter()
            .all(|b| codes(b).contains(&"mixed-currency".to_string()))
    );
}

// Text invoices read the summary labels of the shared table (src/vocab/summary.rs),
// the same words as CSV summary rows: German and Japanese here.
// de: 80.00 + 20.00 = 100.00 = Zwischensumme; MwSt. (19%) 19.00 is tax;
// 100.00 + 19.00 = 119.00 = Gesamtbetrag. ja: 1000 = 小計; 消費税 100;
// 1000 + 100 = 1100 = 合計. Both agree: no mismatch, two summary skips.
#[test]
fn text_invoices_read_the_shared_summary_labels() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, tax, total) in [
        (
            "de.txt",
            "RECHNUNG\n\nGPU Server A100 Stunden        80.00 EUR\nBlock storage volume           20.00 EUR\nZwischensumme:                100.00 EUR\nMwSt. (19%)                    19.00 EUR\nGesamtbetrag:                 119.00 EUR\n",
            "19.00",
            "119.00",
        ),
        (
            "ja.txt",
            "GPU server A100      1000 JPY\n小計                 1000 JPY\n消費税 (10%)          100 JPY\n合計                 1100 JPY\n",
            "100",
            "1100",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let bill = audit_one(&path);
        assert_eq!(bill.totals.tax, tax, "{name}");
        assert_eq!(bill.total, total, "{name}");
        assert_eq!(bill.stated_total.as_deref(), Some(total), "{name}");
        assert_eq!(bill.skipped.summary, 2, "{name}");
        assert!(bill.findings.is_empty(), "{name}: {:?}", bill.findings);
    }
}
