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
        // No currency column or header: the rows' one symbol, 元.
        currency: Some("CNY"),
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
        // 开始时间/结束时间 date the rows: the GPU ran 10-01..10-05 04:00, the
        // 云硬盘 (line 3) and 云备份 (line 4) are billed 10-01..10-31, so 26
        // days of storage with no compute (350.00 x 26/31 = 293.55 and
        // 40.00 x 26/31 = 33.55). On main these were missed (oracle_fixtures.py).
        findings: &[
            ("hidden-fee-share", None),
            ("idle-storage", Some(3)),
            ("idle-storage", Some(4)),
        ],
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
        // Line 6 (8.50 billed, list 100 x 0.08 = 8.00) is above-list-price's
        // since issue 31.
        findings: &[("line-arithmetic", Some(3)), ("above-list-price", Some(6))],
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

// Summary rows are statements, not items (docs/formats.md, "Summary rows").
// Items: 12 x 3.00 = 36.00 compute; 100 x 0.04 = 4.00 storage; 20 x 0.10 =
// 2.00 bandwidth; 36.00 + 4.00 + 2.00 = 42.00 = the stated `Subtotal`.
// `Tax` 3.36 (8% of 42.00) is a charge of category tax; total 42.00 + 3.36 =
// 45.36 = the stated `Balance due`. Hidden 2.00 / 42.00 = 0.047619.
// Summed as items (the old reading) the bill was 42.00 + 42.00 + 3.36 + 45.36
// = 132.72, three times its real total.
#[test]
fn english_subtotal_tax_and_balance_due_rows() {
    check(&Expect {
        file: "csv/summary-rows-en.csv",
        currency: Some("USD"),
        line_items: 4,
        skipped_rows: 2,
        totals: ["36.00", "4.00", "0", "2.00", "0", "3.36", "0", "0"],
        total: "45.36",
        hidden_share: Some("0.047619"),
        findings: &[],
        passed: true,
    });
}

// 100 x 2.50 = 250.00 compute; 500 x 0.10 = 50.00 storage; 50 x 0.20 = 10.00
// bandwidth; 250.00 + 50.00 + 10.00 = 310.00 = 小计. 税额（6%）18.60 (6% of
// 310.00) is tax; 310.00 + 18.60 = 328.60 = 价税合计. Hidden 10.00 / 310.00 =
// 0.032258. The labels sit in the 产品 column, the 账单月份 cell empty.
#[test]
fn chinese_xiaoji_shuie_jiashuiheji_rows() {
    check(&Expect {
        file: "csv/summary-rows-zh.csv",
        currency: Some("CNY"),
        line_items: 4,
        skipped_rows: 2,
        totals: ["250.00", "50.00", "0", "10.00", "0", "18.60", "0", "0"],
        total: "328.60",
        hidden_share: Some("0.032258"),
        findings: &[],
        passed: true,
    });
}

// Items 36.00 + 4.00 + 2.00 = 42.00, but `Subtotal:` (in the Unit Price
// column) states 45.00: 3.00 more (subtotal-mismatch, line 5). `Discount`
// 5.00 is a credit, taken off: -5.00. `VAT (8%)` 2.96 is tax. Lines' total
// 42.00 - 5.00 + 2.96 = 39.96; `Total USD` states 44.00: 4.04 more
// (total-mismatch, line 8). Hidden 2.00 / 42.00 = 0.047619.
#[test]
fn csv_summary_rows_that_disagree_with_the_lines() {
    check(&Expect {
        file: "csv/summary-rows-mismatch.csv",
        currency: Some("USD"),
        line_items: 5,
        skipped_rows: 2,
        totals: ["36.00", "4.00", "0", "2.00", "0", "2.96", "-5.00", "0"],
        total: "39.96",
        hidden_share: Some("0.047619"),
        findings: &[("subtotal-mismatch", Some(5)), ("total-mismatch", Some(8))],
        passed: false,
    });
}

// The skipped summary rows are counted as such and their figures reported.
#[test]
fn csv_summary_rows_are_reported_as_stated_figures() {
    for (file, subtotal, total) in [
        ("csv/summary-rows-en.csv", "42.00", "45.36"),
        ("csv/summary-rows-zh.csv", "310.00", "328.60"),
        ("csv/summary-rows-mismatch.csv", "45.00", "44.00"),
    ] {
        let bill = audit_one(&fixture(file));
        assert_eq!(bill.skipped.summary, 2, "{file}: subtotal and total rows");
        assert_eq!(bill.stated_subtotal.as_deref(), Some(subtotal), "{file}");
        assert_eq!(bill.stated_total.as_deref(), Some(total), "{file}");
    }
    let out = run(&["audit", "fixtures/csv/summary-rows-en.csv"]);
    assert!(
        stdout(&out).contains("4 line items, 2 rows skipped (2 summary)"),
        "{}",
        stdout(&out)
    );
}

/// Audits CSV text written to a temporary file; returns its one bill.
fn audit_csv_text(text: &str) -> billaudit::report::json::JsonBill {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bill.csv");
    std::fs::write(&path, text).unwrap();
    audit_one(&path)
}

// A row with a summary word AND other text is an item: `Total` is the
// service, `GPU hours` the description. `Tax` with a description (as an AWS
// CUR tax line has) is an item too. Nothing is stated: 10.00 + 5.00 + 1.20
// = 16.20 is the total, no row skipped.
#[test]
fn summary_words_beside_other_text_are_items() {
    let bill = audit_csv_text(
        "Service,Description,Quantity,Unit Price,Amount,Currency\n\
         Compute,GPU pod,10,1.00,10.00,USD\n\
         Total,GPU hours,5,1.00,5.00,USD\n\
         Tax,Sales tax for October,,,1.20,USD\n",
    );
    assert_eq!(bill.line_items, 3);
    assert_eq!(bill.skipped_rows, 0);
    assert_eq!(bill.total, "16.20");
    assert_eq!(bill.stated_total, None);
    assert_eq!(bill.stated_subtotal, None);
}

// German labels (under English headers: header names are another table);
// two labels of one kind in two columns.
// Items 80.00 + 20.00 = 100.00 = `Zwischensumme`/`Nettobetrag`; `MwSt.`
// 19.00 (19%) is tax; `Gesamtbetrag:` 119.00 = 100.00 + 19.00.
#[test]
fn german_summary_rows() {
    let bill = audit_csv_text(
        "Service,Description,Amount,Currency\n\
         GPU Server,A100 Stunden,80.00,EUR\n\
         Speicher,Block storage volume,20.00,EUR\n\
         Zwischensumme,Nettobetrag,100.00,EUR\n\
         MwSt. (19%),,19.00,EUR\n\
         Gesamtbetrag:,,119.00,EUR\n",
    );
    assert_eq!(bill.line_items, 3, "2 items and the MwSt.");
    assert_eq!(bill.skipped.summary, 2);
    assert_eq!(bill.totals.tax, "19.00");
    assert_eq!(bill.total, "119.00");
    assert_eq!(bill.stated_subtotal.as_deref(), Some("100.00"));
    assert_eq!(bill.stated_total.as_deref(), Some("119.00"));
    assert!(
        bill.findings
            .iter()
            .all(|f| !f.code.code().ends_with("mismatch"))
    );
}

// French `Total HT` is a subtotal, `Total TTC` the total; Japanese 小計 /
// 消費税 / ご請求金額. 50.00 + 10.00 (TVA 20%) = 60.00; 1000 + 100 (10%) = 1100.
#[test]
fn french_and_japanese_summary_rows() {
    let fr = audit_csv_text(
        "Description,Amount,Currency\nServeur GPU,50.00,EUR\n\
         Total HT,50.00,EUR\nTVA 20%,10.00,EUR\nTotal TTC,60.00,EUR\n",
    );
    assert_eq!(
        (fr.total.as_str(), fr.totals.tax.as_str()),
        ("60.00", "10.00")
    );
    assert_eq!(fr.stated_subtotal.as_deref(), Some("50.00"));
    assert_eq!(fr.stated_total.as_deref(), Some("60.00"));
    let ja = audit_csv_text(
        "Description,Amount,Currency\nGPUサーバー,1000,JPY\n小計,1000,JPY\n消費税,100,JPY\nご請求金額,1100,JPY\n",
    );
    assert_eq!((ja.total.as_str(), ja.totals.tax.as_str()), ("1100", "100"));
    assert_eq!(ja.stated_total.as_deref(), Some("1100"));
    assert!(
        ja.findings
            .iter()
            .all(|f| !f.code.code().ends_with("mismatch"))
    );
}

// A tax row without a figure states no tax (a `summary` skip named in a
// note, line 3; it was a `missing-amount` before, as if a charge had lost
// its amount); a total row without one states nothing (a `summary` skip,
// no finding). The one item: 10.00.
#[test]
fn summary_rows_without_an_amount() {
    let bill =
        audit_csv_text("Description,Amount,Currency\nGPU pod,10.00,USD\nTax,,USD\nTotal,,USD\n");
    assert_eq!(bill.line_items, 1);
    assert_eq!(bill.total, "10.00");
    assert_eq!(bill.skipped.missing_amount, 0);
    assert_eq!(bill.skipped.summary, 2);
    assert_eq!(bill.stated_total, None);
    assert!(bill.findings.is_empty(), "{:?}", bill.findings);
    assert!(
        bill.notes
            .iter()
            .any(|n| n.starts_with("line 3 `Tax` is a tax summary row without a figure")),
        "{:?}",
        bill.notes
    );
}

// A French bill from a European GPU host, as its console exports it
// (semicolons, decimal commas, `Libellé`). Every line is named in French
// only. By hand: 25,00 + 4,00 + 1,00 + 1,00 = 31,00 excl. VAT; TVA 20% of
// 31,00 = 6,20; Total TTC 37,20. Hidden: Sauvegarde 1,00 (storage_replica)
// + Transfert de données 1,00 (bandwidth) = 2,00 / 31,00 = 6.45% > 5%.
// Regression: `Stockage`, `Sauvegarde` and `Transfert de données` were
// unclassified (`other`), so the hidden share read 0%.
#[test]
fn a_french_bill_is_classified_in_french() {
    let bill = audit_csv_text(
        "Date;Libellé;Quantité;Prix unitaire;Montant;Devise\n\
         2025-11-01;Instance GPU A100 (heures);10;2,50;25,00;EUR\n\
         2025-11-01;Stockage disque 100 Go;1;4,00;4,00;EUR\n\
         2025-11-01;Sauvegarde quotidienne (instantané);1;1,00;1,00;EUR\n\
         2025-11-01;Transfert de données sortant;10;0,10;1,00;EUR\n\
         ;Sous-total;;;31,00;EUR\n\
         ;TVA 20%;;;6,20;EUR\n\
         ;Total TTC;;;37,20;EUR\n",
    );
    let t = &bill.totals;
    assert_eq!(
        [
            t.compute.as_str(),
            t.storage.as_str(),
            t.storage_replica.as_str(),
            t.bandwidth.as_str(),
            t.other.as_str(),
            t.tax.as_str(),
        ],
        ["25.00", "4.00", "1.00", "1.00", "0", "6.20"]
    );
    assert_eq!(bill.total, "37.20");
    let codes: Vec<&str> = bill.findings.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.contains(&"hidden-fee-share"), "{codes:?}");
    assert!(!codes.contains(&"unclassified-items"), "{codes:?}");
    assert!(codes.iter().all(|c| !c.ends_with("mismatch")), "{codes:?}");
}

// A Brazilian GPU bill as a vendor exports it: title lines, `;` and
// decimal commas, Portuguese headers with the currency in the amount's
// header `(R$)`, and Subtotal / Impostos / Total rows. By hand:
// compute 100 x 2.50 = 250.00, storage 500 x 0.10 = 50.00, snapshot
// 400 x 0.05 = 20.00, egress 300 x 0.09 = 27.00, cluster management fee
// 30.00; subtotal 377.00, tax 18.85, total 395.85. Hidden fees
// 20 + 27 + 30 = 77.00 = 20.42% of 377.00; scheduling 30 / 250 = 12% of
// compute. Before, no header was found (exit 2).
#[test]
fn a_portuguese_bill_is_read_and_classified() {
    let bill = audit_csv_text(
        "Fatura de serviços de GPU - Novembro 2026\n\
         Cliente: Laboratório Exemplo Ltda.\n\
         \n\
         Descrição;Qtd.;Unidade;Preço unitário (R$);Valor (R$)\n\
         GPU A100 80GB sob demanda;100;hora;2,50;250,00\n\
         Armazenamento SSD;500;GB-mês;0,10;50,00\n\
         Instantâneo de disco (snapshot);400;GB-mês;0,05;20,00\n\
         Transferência de dados de saída;300;GB;0,09;27,00\n\
         Taxa de gerenciamento do cluster;1;mês;30,00;30,00\n\
         Subtotal;;;;377,00\n\
         Impostos (ISS 5%);;;;18,85\n\
         Total;;;;395,85\n",
    );
    let t = &bill.totals;
    assert_eq!(
        [
            t.compute.as_str(),
            t.storage.as_str(),
            t.storage_replica.as_str(),
            t.bandwidth.as_str(),
            t.scheduling.as_str(),
            t.other.as_str(),
            t.tax.as_str(),
        ],
        ["250.00", "50.00", "20.00", "27.00", "30.00", "0", "18.85"]
    );
    assert_eq!(
        (bill.subtotal.as_str(), bill.total.as_str()),
        ("377.00", "395.85")
    );
    assert_eq!(bill.currency.as_deref(), Some("BRL"));
    // 77 / 377 = 0.20424403..., six decimals in the JSON.
    assert_eq!(bill.hidden_share.as_deref(), Some("0.204244"));
    let codes: Vec<&str> = bill.findings.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.contains(&"hidden-fee-share"), "{codes:?}");
    assert!(codes.contains(&"scheduling-fee-share"), "{codes:?}");
    assert!(!codes.contains(&"unclassified-items"), "{codes:?}");
    assert!(codes.iter().all(|c| !c.ends_with("mismatch")), "{codes:?}");
}

// The storage, replica, bandwidth, scheduling and tax words of German,
// Spanish, Dutch and Japanese bills, one line each, with the category a
// reader of that language gives it.
#[test]
fn european_and_japanese_words_are_classified() {
    let bill = audit_csv_text(
        "Description,Amount,Currency\n\
         GPU-Instanz A100,10.00,EUR\n\
         Speicher SSD 500 GB,2.00,EUR\n\
         Sicherungskopie,0.50,EUR\n\
         Datenverkehr ausgehend,0.25,EUR\n\
         Clusterverwaltung,0.25,EUR\n\
         Almacenamiento de objetos,1.00,EUR\n\
         Copia de seguridad,0.50,EUR\n\
         Transferencia de datos,0.50,EUR\n\
         Opslag blokvolume,1.00,EUR\n\
         ストレージ 100GB,1.00,EUR\n\
         データ転送量,1.00,EUR\n\
         バックアップ,1.00,EUR\n\
         MwSt. 19%,3.00,EUR\n",
    );
    let t = &bill.totals;
    // compute 10.00; storage 2.00 + 1.00 + 1.00 + 1.00 = 5.00;
    // storage_replica 0.50 + 0.50 + 1.00 = 2.00; bandwidth 0.25 + 0.50 + 1.00 = 1.75;
    // scheduling 0.25; tax 3.00; other 0.
    assert_eq!(
        [
            t.compute.as_str(),
            t.storage.as_str(),
            t.storage_replica.as_str(),
            t.bandwidth.as_str(),
            t.scheduling.as_str(),
            t.tax.as_str(),
            t.other.as_str(),
        ],
        ["10.00", "5.00", "2.00", "1.75", "0.25", "3.00", "0"]
    );
}

// An Italian bill: `Subtotale`, `IVA 22%`, `Totale fattura`. By hand:
// 80,00 + 20,00 = 100,00; IVA 22% = 22,00; total 122,00.
#[test]
fn italian_summary_rows() {
    let bill = audit_csv_text(
        "Descrizione;Importo;Valuta\nIstanza GPU A100;80,00;EUR\nArchiviazione disco;20,00;EUR\n\
         Subtotale;100,00;EUR\nIVA 22%;22,00;EUR\nTotale fattura;122,00;EUR\n",
    );
    assert_eq!(bill.total, "122.00");
    assert_eq!(bill.totals.tax, "22.00");
    assert_eq!(
        (bill.totals.compute.as_str(), bill.totals.storage.as_str()),
        ("80.00", "20.00")
    );
    assert_eq!(bill.stated_subtotal.as_deref(), Some("100.00"));
    assert_eq!(bill.stated_total.as_deref(), Some("122.00"));
    assert_eq!(bill.skipped.summary, 2);
    let codes: Vec<&str> = bill.findings.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.iter().all(|c| !c.ends_with("mismatch")), "{codes:?}");
}

// A Spanish GPU host's invoice export: a title block, semicolons, decimal
// commas, the currency in the amount header, and the summary labels in the
// unit-price column (`;;IVA 21%;12,81`). By hand: 45,00 + 10,00 + 3,00 +
// 1,00 + 2,00 = 61,00; IVA 21% of 61,00 = 12,81; total 73,81. Hidden:
// 3,00 + 1,00 + 2,00 = 6,00 / 61,00 = 9.84%.
// Regression: the `IVA 21%` label in the price column was read as an
// unparsable price, so the tax row was left out and the total mismatched.
#[test]
fn summary_labels_in_the_price_column() {
    let bill = audit_csv_text(
        "Nube Iberia S.L. - Factura FAC-2025-0117\nPeriodo: noviembre 2025\n\n\
         Concepto;Cantidad;Precio unitario;Importe (EUR)\n\
         Servidor GPU RTX 4090 (horas);100;0,45;45,00\n\
         Almacenamiento SSD 200 GB;200;0,05;10,00\n\
         Copia de seguridad diaria;1;3,00;3,00\n\
         Tráfico de salida a Internet;50;0,02;1,00\n\
         Tarifa de gestión del clúster;1;2,00;2,00\n\
         ;;Subtotal;61,00\n;;IVA 21%;12,81\n;;Importe total;73,81\n",
    );
    let t = &bill.totals;
    assert_eq!(
        [
            t.compute.as_str(),
            t.storage.as_str(),
            t.storage_replica.as_str(),
            t.bandwidth.as_str(),
            t.scheduling.as_str(),
            t.tax.as_str(),
        ],
        ["45.00", "10.00", "3.00", "1.00", "2.00", "12.81"]
    );
    assert_eq!(bill.total, "73.81");
    assert_eq!(bill.skipped_rows, 2, "the subtotal and total rows");
    let codes: Vec<&str> = bill.findings.iter().map(|f| f.code.as_str()).collect();
    assert!(!codes.contains(&"unparsable-value"), "{codes:?}");
    assert!(codes.iter().all(|c| !c.ends_with("mismatch")), "{codes:?}");
    assert!(codes.contains(&"hidden-fee-share"), "{codes:?}");
}
