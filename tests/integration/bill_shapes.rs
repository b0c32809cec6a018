//! Bills in shapes modelled on real exports that no fixture had
//! (tests/data/bill-shapes): a GPU cloud's account ledger with top-ups
//! among the charges, German and Korean invoice CSVs that were misread,
//! and Hetzner (no header row), Japanese and RunPod shapes that read
//! right and are kept so they stay right. Every expected figure is hand
//! arithmetic written beside it, never billaudit's output.

use billaudit::{Bill, Category};

use crate::csv_shapes::{d, has};

/// Audits `tests/data/bill-shapes/NAME` (one bill).
fn audit_shape(name: &str) -> Bill {
    let path = format!("tests/data/bill-shapes/{name}");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut bills = billaudit::audit_bytes(name, &bytes, &billaudit::Options::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(bills.len(), 1, "{path}: one bill");
    bills.remove(0)
}

/// A Chinese GPU cloud's account ledger (收支明细: 流水号, 时间, 类型,
/// 产品, 说明, 金额, 余额): the two top-ups (类型 `充值`, 100.00 and
/// 50.00) are money put into the account, not charges, and the running
/// balance (余额) is no amount.
#[test]
fn top_ups_in_a_gpu_cloud_ledger_are_not_charges() {
    // Before: the top-ups were summed as `other` (150.00): total 177.40
    // for 27.40, and an unclassified-items warning.
    let b = audit_shape("gpu-cloud-cn-ledger.csv");
    assert_eq!(b.totals.get(Category::Compute), d("16.66"), "10.78 + 5.88");
    assert_eq!(b.totals.get(Category::Storage), d("2.34"), "0.34 + 2.00");
    assert_eq!(b.totals.get(Category::Bandwidth), d("9.60"));
    assert_eq!(b.totals.get(Category::Credit), d("-1.20"), "the refund");
    assert_eq!(b.totals.get(Category::Other), d("0"), "no top-up summed");
    assert_eq!(b.subtotal, d("28.60"), "16.66 + 2.34 + 9.60");
    assert_eq!(b.total, d("27.40"), "28.60 - 1.20");
    // Hidden: the egress 9.60; 9.60 / 28.60 = 33.57%.
    assert_eq!(b.hidden, d("9.60"));
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
    assert!(!has(&b, "unclassified-items"), "{:?}", b.findings);
    assert_eq!(b.line_items, 6, "5 charges and the refund");
    assert_eq!(b.skipped.summary, 2, "the two top-ups");
    assert_eq!(
        b.notes,
        [
            "2 top-ups (money put into the account), not charges: line 2 `充值`, line 9 `充值`; counted as summary skips, not summed"
        ]
    );
}

#[test]
fn a_status_or_payment_word_is_no_top_up() {
    // `Paid` in a status column and a charge named `Payment gateway` stay
    // charges: 40.00 + 2.50 = 42.50, nothing set aside.
    let csv = "Description,Status,Amount\nGPU hours,Paid,40.00\nPayment gateway,Paid,2.50\n";
    let b = crate::csv_shapes::audit("status.csv", csv);
    assert_eq!((b.total, b.skipped.summary), (d("42.50"), 0));
    // `Top-up` inside a longer description is a charge too (a whole cell
    // is the label): `Top-up bonus GPU hours` 12.00 stays compute.
    let csv = "Description,Amount\nTop-up bonus GPU hours,12.00\nDisk,3.00\n";
    let b = crate::csv_shapes::audit("topup-words.csv", csv);
    assert_eq!((b.total, b.skipped.summary), (d("15.00"), 0));
}

/// A German invoice exported as CSV (`;`, decimal comma, thousands dots):
/// five positions, `MwSt. 19 %`, then `Zahlbetrag` (the amount payable).
/// Net 1.512,00 + 80,00 + 12,50 + 3,00 + 25,00 = 1.632,50; MwSt 19% of
/// 1.632,50 = 310,175, written 310,18; total 1.632,50 + 310,18 = 1.942,68.
#[test]
fn a_german_zahlbetrag_is_the_stated_total() {
    // Before: `Zahlbetrag` was summed as `other`: total 3.885,36 (twice
    // the bill) and an unclassified-items warning.
    let b = audit_shape("de-rechnung-zahlbetrag.csv");
    assert_eq!(b.totals.get(Category::Compute), d("1512.00"), "720 x 2,10");
    assert_eq!(b.totals.get(Category::Storage), d("80.00"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("12.50"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("3.00"), "3 TB x 1,00");
    assert_eq!(b.totals.get(Category::Scheduling), d("25.00"));
    assert_eq!(b.totals.get(Category::Tax), d("310.18"));
    assert_eq!(b.totals.get(Category::Other), d("0"));
    assert_eq!(b.subtotal, d("1632.50"));
    assert_eq!(b.total, d("1942.68"), "1.632,50 + 310,18");
    assert_eq!(b.stated_total, Some(d("1942.68")));
    assert_eq!(b.skipped.summary, 1, "the Zahlbetrag row");
    // Hidden: 12,50 + 3,00 + 25,00 = 40,50; 40,50 / 1.632,50 = 2.48%,
    // under 5%. Scheduling 25 / 1.512 = 1.65% of compute, under 8%;
    // (80 + 12,50) / 80 = 1.156, under 1.2: no finding at all.
    assert_eq!(b.hidden, d("40.50"));
    assert!(b.findings.is_empty(), "{:?}", b.findings);
}

/// A Korean tax invoice (세금계산서) exported as CSV: 품목, 규격, 수량,
/// 단가, 공급가액 (supply value, before tax), 세액 (the line's VAT), 비고,
/// and a 합계 row stating both sums. Supply 700,000 (200 x 3,500) +
/// 50,000 + 10,000 + 30,000 (300 x 100) = 790,000; VAT 70,000 + 5,000 +
/// 1,000 + 3,000 = 79,000 (10% of each line); total 869,000.
#[test]
fn a_korean_tax_invoice_reads_its_supply_value_and_vat_columns() {
    // Before: no Korean header was known, so the columns were inferred
    // and 세액 was not read: tax 0, total 790,000, and the 합계 row
    // stated 790,000 (its supply value alone).
    let b = audit_shape("kr-tax-invoice.csv");
    assert_eq!(b.totals.get(Category::Compute), d("700000"));
    assert_eq!(b.totals.get(Category::Storage), d("50000"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("10000"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("30000"));
    assert_eq!(b.totals.get(Category::Tax), d("79000"));
    assert_eq!(b.subtotal, d("790000"));
    assert_eq!(b.total, d("869000"), "790,000 + 79,000");
    // The 합계 row: 790,000 and its 세액 79,000 state 869,000.
    assert_eq!(b.stated_total, Some(d("869000")));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert_eq!(b.skipped.summary, 1);
    assert_eq!(b.line_items, 8, "4 charges and their 4 taxes");
    // Hidden: 10,000 + 30,000 = 40,000; 40,000 / 790,000 = 5.06%, over 5%.
    // (50,000 + 10,000) / 50,000 = 1.2: not above 1.2, no redundancy.
    assert_eq!(b.hidden, d("40000"));
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
    assert!(!has(&b, "replica-redundancy"), "{:?}", b.findings);
}

/// A Hetzner invoice CSV: no header row, the columns product,
/// description, start, end, quantity, unit price, net price, server id
/// (as public importers of these files name them). Server 62.4900;
/// backup 12.4980 and snapshot 120 x 0.0119 = 1.4280 (replicas, 13.9260);
/// volume 24.0000; traffic 2.45 x 1.00 = 2.4500 and the IPv4 0.5000
/// (bandwidth, 2.9500). Total 62.49 + 12.498 + 24 + 1.428 + 2.45 + 0.5 =
/// 103.3660.
#[test]
fn a_headerless_hetzner_invoice_is_read_from_its_content() {
    let b = audit_shape("hetzner-invoice-headerless.csv");
    assert_eq!(b.totals.get(Category::Compute), d("62.4900"));
    assert_eq!(b.totals.get(Category::Storage), d("24.0000"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("13.9260"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("2.9500"));
    assert_eq!(b.totals.get(Category::Other), d("0"));
    assert_eq!(b.total, d("103.3660"));
    assert_eq!(b.line_items, 6, "every row is a charge: no header row");
    // Hidden 13.926 + 2.95 = 16.876; 16.876 / 103.366 = 16.33%.
    assert_eq!(b.hidden, d("16.8760"));
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
    // (24 + 13.926) / 24 = 1.58, above 1.2.
    assert!(has(&b, "replica-redundancy"), "{:?}", b.findings);
    // 120 x 0.0119 = 1.428: every row's arithmetic holds.
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
}

/// A Japanese invoice (請求書) exported as CSV, yen without decimals:
/// 300 h x 450 = 135,000 + 12,000 + 3,000 + 500 GB x 10 = 5,000 =
/// 155,000 (小計); 消費税 10% = 15,500; 合計 170,500.
#[test]
fn a_japanese_invoice_with_subtotal_tax_and_total_rows() {
    let b = audit_shape("ja-seikyu.csv");
    assert_eq!(b.totals.get(Category::Compute), d("135000"));
    assert_eq!(b.totals.get(Category::Storage), d("12000"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("3000"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("5000"));
    assert_eq!(b.totals.get(Category::Tax), d("15500"));
    assert_eq!(b.subtotal, d("155000"));
    assert_eq!(b.total, d("170500"));
    assert_eq!(b.stated_subtotal, Some(d("155000")));
    assert_eq!(b.stated_total, Some(d("170500")));
    assert_eq!(b.skipped.summary, 2, "小計 and 合計");
    // Hidden 3,000 + 5,000 = 8,000; 8,000 / 155,000 = 5.16%, over 5%;
    // (12,000 + 3,000) / 12,000 = 1.25, above 1.2.
    assert_eq!(b.hidden, d("8000"));
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
    assert!(has(&b, "replica-redundancy"), "{:?}", b.findings);
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
}

/// RunPod's pod billing history (`GET /v1/billing/pods`, as CSV: time,
/// podId, gpuTypeId, timeBilledMs, diskSpaceBilledGb, amount): per-ms
/// GPU time, one amount per pod and day. 16.56 + 8.28 + 5.98 = 30.82,
/// all GPU pods.
#[test]
fn runpod_pod_billing_rows_are_compute() {
    let b = audit_shape("runpod-pod-billing.csv");
    assert_eq!(b.totals.get(Category::Compute), d("30.82"));
    assert_eq!(b.total, d("30.82"));
    assert_eq!(b.line_items, 3);
    assert!(b.findings.is_empty(), "{:?}", b.findings);
}

/// A GPU cloud's usage export (`Hours, Price per Hour, Total`, as Lambda-
/// style instance listings give it): 10.50 h x 2.49 = 26.145, written
/// 26.15; 6.00 h x 14.32 = 85.92; 744 h x 0.000242 = 0.180048, written
/// 0.18. Total 26.15 + 85.92 + 0.18 = 112.25.
#[test]
fn a_price_per_hour_column_is_the_unit_price() {
    let b = audit_shape("gpu-usage-price-per-hour.csv");
    assert_eq!(
        b.totals.get(Category::Compute),
        d("112.07"),
        "26.15 + 85.92"
    );
    assert_eq!(b.totals.get(Category::Storage), d("0.18"));
    assert_eq!(b.total, d("112.25"));
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
    // The H100 line billed 31.15 for 10.50 h x 2.49 = 26.145: before, the
    // `Price per Hour` column was no unit price, so nothing compared it.
    let path = "tests/data/bill-shapes/gpu-usage-price-per-hour.csv";
    let csv = std::fs::read_to_string(path).unwrap();
    let over = csv.replace(",10.50,2.49,26.15", ",10.50,2.49,31.15");
    let b = crate::csv_shapes::audit("over.csv", &over);
    assert_eq!(b.total, d("117.25"), "112.25 + 5.00");
    let lines: Vec<Option<u64>> = b
        .findings
        .iter()
        .filter(|f| f.code == "line-arithmetic")
        .map(|f| f.line)
        .collect();
    assert_eq!(lines, [Some(2)], "{:?}", b.findings);
}
