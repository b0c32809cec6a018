//! One test per CSV fixture: exact category totals, hidden share and finding
//! codes. The expected figures were computed by hand from the fixture rows
//! (see the comments), not copied from billaudit's output.

use crate::common::*;

struct Expect {
    file: &'static str,
    currency: Option<&'static str>,
    line_items: u64,
    skipped_rows: u64,
    /// compute, storage, storage_replica, bandwidth, scheduling, tax, credit, other
    totals: [&'static str; 8],
    total: &'static str,
    hidden_share: Option<&'static str>,
    /// (code, line) pairs, sorted as the report lists them.
    findings: &'static [(&'static str, Option<u64>)],
    passed: bool,
}

fn check(e: &Expect) {
    let bill = audit_one(&fixture(e.file));
    let got = bill.totals.values();
    assert_eq!(got, e.totals, "{}: category totals", e.file);
    assert_eq!(bill.total, e.total, "{}: total", e.file);
    assert_eq!(
        bill.hidden_share.as_deref(),
        e.hidden_share,
        "{}: hidden share",
        e.file
    );
    assert_eq!(bill.currency.as_deref(), e.currency, "{}: currency", e.file);
    assert_eq!(bill.line_items, e.line_items, "{}: line items", e.file);
    assert_eq!(
        bill.skipped_rows, e.skipped_rows,
        "{}: skipped rows",
        e.file
    );
    let findings: Vec<(&str, Option<u64>)> = bill
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.line))
        .collect();
    assert_eq!(findings, e.findings, "{}: findings", e.file);
    assert_eq!(bill.passed, e.passed, "{}: passed", e.file);
    // The category totals add up exactly to the total.
    let sum: rust_decimal::Decimal = got
        .iter()
        .map(|s| s.parse::<rust_decimal::Decimal>().unwrap())
        .sum();
    assert_eq!(
        sum,
        e.total.parse().unwrap(),
        "{}: categories add up",
        e.file
    );
}

// 200 x 1.88 + 40 x 5.98 = 615.20 compute; 数据盘 15.00; 数据盘快照 20.00;
// 公网流量 80.00; 集群管理费 30.00; 代金券抵扣 -50.00. Hidden 130.00 / 760.20.
const CN_GPU: [&str; 8] = [
    "615.20", "15.00", "20.00", "80.00", "30.00", "0", "-50.00", "0",
];
const CN_GPU_FINDINGS: &[(&str, Option<u64>)] =
    &[("hidden-fee-share", None), ("replica-redundancy", None)];

#[test]
fn chinese_gpu_platform_utf8_with_bom() {
    check(&Expect {
        file: "csv/gpu-platform-cn-utf8bom.csv",
        currency: Some("CNY"),
        line_items: 7,
        skipped_rows: 0,
        totals: CN_GPU,
        total: "710.20",
        hidden_share: Some("0.171008"),
        findings: CN_GPU_FINDINGS,
        passed: false,
    });
}

#[test]
fn chinese_gpu_platform_gbk_is_the_same_bill() {
    check(&Expect {
        file: "csv/gpu-platform-cn-gbk.csv",
        currency: Some("CNY"),
        line_items: 7,
        skipped_rows: 0,
        totals: CN_GPU,
        total: "710.20",
        hidden_share: Some("0.171008"),
        findings: CN_GPU_FINDINGS,
        passed: false,
    });
}

// Payable column 应付金额 only: 765.00 + 14.40 + 72.00 + 43.20 + 96.00 + 64.80.
// 原价, 现金支付 and 代金券抵扣 are never added (they would give 2110.80+).
#[test]
fn alibaba_overlapping_money_columns() {
    check(&Expect {
        file: "csv/alibaba-detail.csv",
        currency: None,
        line_items: 6,
        skipped_rows: 0,
        totals: ["765.00", "86.40", "43.20", "96.00", "64.80", "0", "0", "0"],
        total: "1055.40",
        hidden_share: Some("0.193292"),
        // 64.80 / 765.00 = 8.47% of compute; (86.40 + 43.20) / 86.40 = 1.5x.
        // The GPU ran 2025-10-01 to 10-05 04:00; the system disk, data disk
        // and snapshot bill 30 days each: 25 idle days (idle-storage).
        findings: &[
            ("hidden-fee-share", None),
            ("replica-redundancy", None),
            ("scheduling-fee-share", None),
            ("idle-storage", Some(3)),
            ("idle-storage", Some(4)),
            ("idle-storage", Some(5)),
        ],
        passed: false,
    });
}

// 优惠后总价 is the amount; 组件原价 the list amount (72 x 10.00 = 720.00 at a
// 0.8 discount is not an arithmetic error); `-` placeholders and 标签键 columns.
#[test]
fn tencent_placeholders_tags_and_discount_rate() {
    check(&Expect {
        file: "csv/tencent-detail.csv",
        currency: Some("CNY"),
        line_items: 5,
        skipped_rows: 0,
        totals: ["576.00", "35.00", "24.00", "40.00", "20.00", "0", "0", "0"],
        total: "695.00",
        hidden_share: Some("0.120863"),
        // The GPU ran 2025-10-01 to 10-03; disk and snapshot bill all of
        // October: 28 idle days each (idle-storage).
        findings: &[
            ("hidden-fee-share", None),
            ("replica-redundancy", None),
            ("idle-storage", Some(3)),
            ("idle-storage", Some(4)),
        ],
        passed: false,
    });
}

// 应付金额(¥): the (¥) suffix is stripped and gives the currency.
#[test]
fn huawei_currency_suffix_headers() {
    check(&Expect {
        file: "csv/huawei-usage.csv",
        currency: Some("CNY"),
        line_items: 5,
        skipped_rows: 0,
        totals: [
            "1125.00", "350.00", "40.00", "240.00", "60.00", "0", "0", "0",
        ],
        total: "1815.00",
        hidden_share: Some("0.187328"),
        findings: &[("hidden-fee-share", None)],
        passed: false,
    });
}

// `;` delimiter, decimal comma: 1.512,00 is 1512.00 and 2.000 GB is 2000.
// (45.00 + 12.50) / 45.00 = 1.28x redundancy; hidden 32.50 / 1589.50 = 2.04%.
#[test]
fn semicolon_and_decimal_comma() {
    check(&Expect {
        file: "csv/eu-semicolon-decimal-comma.csv",
        currency: Some("EUR"),
        line_items: 5,
        skipped_rows: 0,
        totals: [
            "1512.00", "45.00", "12.50", "20.00", "0", "302.01", "0", "0",
        ],
        total: "1891.51",
        hidden_share: Some("0.020447"),
        findings: &[("replica-redundancy", None)],
        passed: true,
    });
}

// Title lines above the header; `(10.00)` is a negative credit; `Amount (USD)`.
#[test]
fn english_gpu_pod_export() {
    check(&Expect {
        file: "csv/gpu-pod-en.csv",
        currency: Some("USD"),
        line_items: 9,
        skipped_rows: 0,
        totals: [
            "173.52", "40.00", "10.00", "6.00", "4.00", "18.23", "-10.00", "0",
        ],
        total: "241.75",
        hidden_share: Some("0.085646"),
        findings: &[("hidden-fee-share", None), ("replica-redundancy", None)],
        passed: false,
    });
}

// Hidden 10.00 / 576.00 = 1.74%; redundancy 55 / 50 = 1.1x: nothing to flag.
#[test]
fn clean_bill_has_no_findings() {
    check(&Expect {
        file: "csv/clean-bill.csv",
        currency: Some("USD"),
        line_items: 4,
        skipped_rows: 0,
        totals: ["516.00", "50.00", "5.00", "5.00", "0", "0", "0", "0"],
        total: "576.00",
        hidden_share: Some("0.017361"),
        findings: &[],
        passed: true,
    });
}

#[test]
fn hidden_share_just_under_five_percent_passes() {
    check(&Expect {
        file: "csv/hidden-share-under-5pct.csv",
        currency: Some("USD"),
        line_items: 3,
        skipped_rows: 0,
        totals: ["900.01", "50.00", "0", "49.99", "0", "0", "0", "0"],
        total: "1000.00",
        hidden_share: Some("0.049990"),
        findings: &[],
        passed: true,
    });
}

#[test]
fn hidden_share_at_exactly_five_percent_passes() {
    check(&Expect {
        file: "csv/hidden-share-at-5pct.csv",
        currency: Some("USD"),
        line_items: 3,
        skipped_rows: 0,
        totals: ["900.00", "50.00", "0", "50.00", "0", "0", "0", "0"],
        total: "1000.00",
        hidden_share: Some("0.050000"),
        findings: &[],
        passed: true,
    });
}

#[test]
fn hidden_share_just_over_five_percent_fails() {
    check(&Expect {
        file: "csv/hidden-share-over-5pct.csv",
        currency: Some("USD"),
        line_items: 3,
        skipped_rows: 0,
        totals: ["899.99", "50.00", "0", "50.01", "0", "0", "0", "0"],
        total: "1000.00",
        hidden_share: Some("0.050010"),
        findings: &[("hidden-fee-share", None)],
        passed: false,
    });
}

// Line 3: 20 x 1.80 = 36.00, charged 37.00. Line 4 is compared with its list
// cost (20.00), so the discount to 18.00 is fine. Line 5: 3 x 0.333 = 0.999,
// within half a cent of 1.00. Line 6 charges 8.50 against a list of 8.00.
#[test]
fn arithmetic_errors_are_found_and_discounts_are_not() {
    check(&Expect {
        file: "csv/arithmetic-error.csv",
        currency: Some("USD"),
        line_items: 5,
        skipped_rows: 0,
        totals: ["92.00", "8.50", "0", "0", "0", "0", "0", "0"],
        total: "100.50",
        hidden_share: Some("0.000000"),
        findings: &[("line-arithmetic", Some(3)), ("line-arithmetic", Some(6))],
        passed: false,
    });
}

// A tenfold and a hundredfold overcharge on plain hourly units are errors:
// line 2: 20 x 1.80 = 36.00, billed 360.00; line 3: 5 x 2.00 = 10.00, billed
// 1000.00. Declared blocks are not: line 4: 1,500,000 x 0.40 = 600,000.00 =
// 0.60 x 1,000,000 (`per 1M requests`); line 5: 30,000 x 0.05 = 1,500.00 =
// 0.15 x 10,000 (unit `10K`). compute 360.00 + 1000.00 = 1360.00; storage
// 0.60 + 0.15 = 0.75; total 1360.75.
#[test]
fn power_of_ten_overcharges_fire_unless_a_block_is_declared() {
    check(&Expect {
        file: "csv/tenfold-overcharge.csv",
        currency: Some("USD"),
        line_items: 4,
        skipped_rows: 0,
        totals: ["1360.00", "0.75", "0", "0", "0", "0", "0", "0"],
        total: "1360.75",
        hidden_share: Some("0.000000"),
        findings: &[("line-arithmetic", Some(2)), ("line-arithmetic", Some(3))],
        passed: false,
    });
}

// `-`, `N/A`, `NULL` are missing (never zero); `O.50` is unparsable; a blank
// row; a `Total` row is the stated total (8.50), checked against the lines.
#[test]
fn placeholders_garbage_and_a_stated_total() {
    check(&Expect {
        file: "csv/placeholders-and-totals.csv",
        currency: Some("USD"),
        line_items: 4,
        skipped_rows: 4,
        totals: ["5.00", "1.20", "0", "0.30", "0", "0", "0", "2.00"],
        total: "8.50",
        hidden_share: Some("0.035294"),
        findings: &[
            ("missing-amount", Some(5)),
            ("unparsable-value", Some(6)),
            ("unclassified-items", Some(8)),
        ],
        passed: false,
    });
    let bill = audit_one(&fixture("csv/placeholders-and-totals.csv"));
    assert_eq!(bill.stated_total.as_deref(), Some("8.50"));
    assert_eq!(
        (
            bill.skipped.unparsable,
            bill.skipped.missing_amount,
            bill.skipped.blank,
            bill.skipped.summary
        ),
        (1, 1, 1, 1)
    );
    let unparsable = bill
        .findings
        .iter()
        .find(|f| f.code == "unparsable-value")
        .unwrap();
    assert!(
        unparsable.message.contains("column `Amount`"),
        "{}",
        unparsable.message
    );
    assert!(
        unparsable.message.contains("O.50"),
        "{}",
        unparsable.message
    );
}
