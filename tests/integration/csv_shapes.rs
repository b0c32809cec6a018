//! CSV bills of shapes nobody here wrote a profile for (issue 26): summary
//! rows whose label is not in the first cell, headers inferred from the
//! content, headerless files, `--columns` by position, legacy encodings.
//! Every expected figure is hand arithmetic written beside it.

use std::str::FromStr;

use billaudit::{Bill, Category};
use rust_decimal::Decimal;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn audit_with(name: &str, bytes: &[u8], opts: &billaudit::Options) -> Bill {
    let mut bills = billaudit::audit_bytes(name, bytes, opts)
        .unwrap_or_else(|e| panic!("{name}: {e}\n{}", String::from_utf8_lossy(bytes)));
    assert_eq!(bills.len(), 1, "{name}: one bill");
    bills.remove(0)
}

fn audit(name: &str, csv: &str) -> Bill {
    audit_with(name, csv.as_bytes(), &billaudit::Options::default())
}

fn has(b: &Bill, code: &str) -> bool {
    b.findings.iter().any(|f| f.code == code)
}

// ---- Summary rows in any column -------------------------------------------

#[test]
fn summary_rows_after_a_currency_column_are_statements() {
    // On main the three summary rows were summed as items: 110 + 60 + 40 +
    // 11 + 121 = 342.00, near three times the bill.
    let csv = "Currency,Description,Amount\n\
               USD,GPU instance A100,60.00\n\
               USD,Block storage volume,50.00\n\
               USD,Subtotal,110.00\n\
               USD,Tax,11.00\n\
               USD,Total,121.00\n";
    let b = audit("cur-first.csv", csv);
    // Items: 60.00 + 50.00 = 110.00, the Tax row is a tax item: 121.00.
    assert_eq!(b.total, d("121.00"));
    assert_eq!(b.totals.get(Category::Tax), d("11.00"));
    assert_eq!(b.line_items, 3);
    assert_eq!(b.skipped.summary, 2);
    assert_eq!(b.stated_subtotal, Some(d("110.00")));
    assert_eq!(b.stated_total, Some(d("121.00")));
    assert!(!has(&b, "total-mismatch") && !has(&b, "subtotal-mismatch"));
}

#[test]
fn chinese_summary_rows_after_an_account_column_are_statements() {
    // 账号 is not a classified column: the label 小计 / 价税合计 is in 项目.
    let csv = "账号,项目,金额\n\
               acc-01,GPU实例 RTX 4090,90.00\n\
               acc-01,公网流量,10.00\n\
               acc-01,小计,100.00\n\
               acc-01,税额,6.00\n\
               acc-01,价税合计,106.00\n";
    let b = audit("cn-acc.csv", csv);
    // 90.00 + 10.00 + 6.00 (tax) = 106.00; on main 100 + 106 more were summed.
    assert_eq!(b.total, d("106.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("10.00"));
    assert_eq!(b.skipped.summary, 2);
    assert_eq!(b.stated_total, Some(d("106.00")));
    assert!(!has(&b, "total-mismatch"));
}

#[test]
fn a_dated_total_row_of_a_gpu_cloud_is_a_statement() {
    let csv = "Date,Description,GPU,Hours,Rate,Amount\n\
               2025-11-30,GPU instance RTX 4090,RTX 4090,100,3.1747,317.47\n\
               2025-11-30,Egress traffic,,512,0.12,61.44\n\
               2025-11-30,Snapshot storage,,376.1,0.1,37.61\n\
               2025-11-30,Total,,,,416.52\n";
    let b = audit("gpu-dated-total.csv", csv);
    // 100 x 3.1747 = 317.47; 512 x 0.12 = 61.44; 376.1 x 0.1 = 37.61.
    // Total 317.47 + 61.44 + 37.61 = 416.52 (main: 833.04 with `Total` an item).
    assert_eq!(b.total, d("416.52"));
    assert_eq!(b.line_items, 3);
    assert_eq!(b.stated_total, Some(d("416.52")));
    // Hidden: 61.44 + 37.61 = 99.05; 99.05 / 416.52 = 0.2378037... = 23.78%.
    assert_eq!(b.hidden, d("99.05"));
    assert_eq!(b.hidden_share.map(|s| s.round_dp(4)), Some(d("0.2378")));
    assert!(!has(&b, "unclassified-items"));
}

#[test]
fn descriptions_that_only_contain_a_summary_word_stay_items() {
    let csv = "Date,Description,Amount\n\
               2025-11-01,Tax advisory service,40.00\n\
               2025-11-01,Total Storage,25.00\n\
               2025-11-01,Subtotal of nothing,5.00\n\
               2025-11-01,Totalizer licence,3.00\n\
               2025-11-30,Total:,73.00\n";
    let b = audit("contains-words.csv", csv);
    // Four items: 40.00 + 25.00 + 5.00 + 3.00 = 73.00; `Total:` (a whole-cell
    // label after trimming the colon) is the statement.
    assert_eq!(b.line_items, 4);
    assert_eq!(b.total, d("73.00"));
    // (Which category `Tax advisory service` falls in is the classifier's
    // business; here it only has to stay an item.)
    assert_eq!(b.stated_total, Some(d("73.00")));
}

#[test]
fn summary_rows_on_several_threads_read_alike() {
    // The same rule on the ranges path: a file large enough to be cut.
    let mut csv = String::from("Currency,Description,Amount\n");
    for _ in 0..2000 {
        csv.push_str("USD,GPU instance A100,1.25\n");
    }
    // 2000 x 1.25 = 2500.00
    csv.push_str("USD,Total,2500.00\n");
    let dir = std::env::temp_dir().join(format!("ba-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.csv");
    std::fs::write(&path, &csv).unwrap();
    let mut opts = billaudit::Options::default();
    opts.parallel.min_bytes = 1024;
    opts.parallel.chunk_bytes = 4096;
    opts.parallel.threads = Some(2);
    let report = billaudit::audit_paths(&[path.display().to_string()], &opts);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let b = &report.bills[0];
    assert_eq!(b.total, d("2500.00"));
    assert_eq!(b.skipped.summary, 1);
    assert!(!has(b, "total-mismatch"));
    std::fs::remove_dir_all(&dir).ok();
}
