//! A tax column: the tax of each line in a column of its own (`Net Amount,
//! VAT, Gross Amount`, Linode's `amount, tax, total`, `金额, 税额`) is a
//! `tax` item beside the line's charge, and the charge's category holds the
//! charge before tax (docs/decisions.md, "A tax column"). Every expected
//! figure is hand arithmetic written beside it.

use billaudit::Category;

use crate::common::{audit_json, python_has};
use crate::csv_shapes::{audit, d, has};
use crate::parquet_columns::write;

/// Net, VAT and gross per line, and a total row that states all three.
/// Net 30.00 + 5.00 + 2.00 = 37.00; VAT 6.00 + 1.00 + 0.40 = 7.40; gross
/// 36.00 + 6.00 + 2.40 = 44.40 = 37.00 + 7.40.
const NET_VAT_GROSS: &str = "Item,Description,Qty,Unit Price,Net Amount,VAT,Gross Amount
1,H100 GPU hours,10,3.00,30.00,6.00,36.00
2,Object storage,1,5.00,5.00,1.00,6.00
3,Egress,1,2.00,2.00,0.40,2.40
,Total,,,37.00,7.40,44.40
";

fn assert_net_vat_gross(b: &billaudit::Bill) {
    assert_eq!(b.totals.get(Category::Compute), d("30.00"));
    assert_eq!(b.totals.get(Category::Storage), d("5.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("2.00"));
    assert_eq!(b.subtotal, d("37.00"));
    assert_eq!(b.totals.get(Category::Tax), d("7.40"), "6.00 + 1.00 + 0.40");
    assert_eq!(b.total, d("44.40"), "37.00 + 7.40");
    assert_eq!(b.stated_total, Some(d("44.40")));
    assert!(!has(b, "total-mismatch"), "{:?}", b.findings);
    // 10 x 3.00 = 30.00: the charge before tax agrees with its arithmetic.
    assert!(!has(b, "line-arithmetic"), "{:?}", b.findings);
    // Hidden 2.00 / 37.00 = 5.41%, above 5%: the share is of the charges
    // before tax, as without a tax column.
    assert_eq!(b.hidden, d("2.00"));
    assert!(has(b, "hidden-fee-share"), "{:?}", b.findings);
}

#[test]
fn net_vat_and_gross_columns_give_the_tax_its_own_category() {
    // Before: the gross column was not a known name, the net one was
    // inferred, and the VAT was lost: tax 0, total 37.00 (the net row of
    // the total taken for the stated total).
    let b = audit("invoice.csv", NET_VAT_GROSS);
    assert_net_vat_gross(&b);
    assert_eq!(b.line_items, 6, "3 charges and their 3 taxes");
}

#[test]
fn a_net_amount_and_a_vat_column_state_the_total_with_the_tax() {
    // No gross column: the total row's 37.00 is net, and with its VAT 7.40
    // it states 44.40.
    let csv = "Description,Qty,Unit Price,Net Amount,VAT\n\
H100 GPU hours,10,3.00,30.00,6.00\n\
Object storage,1,5.00,5.00,1.00\n\
Egress,1,2.00,2.00,0.40\n\
Total,,,37.00,7.40\n";
    assert_net_vat_gross(&audit("invoice.csv", csv));
}

#[test]
fn a_gross_amount_is_known_by_its_arithmetic() {
    // `Total` says nothing of tax, but 10 x 3.00 = 30.00 = 36.00 - 6.00:
    // the amount is gross, and its charge is 30.00. The disk's 5.00 is
    // 1 x 5.00: net already (its VAT 0 is no item).
    let csv = "Description,Qty,Unit Price,VAT,Total\n\
H100 GPU hours,10,3.00,6.00,36.00\n\
Block storage,1,5.00,0,5.00\n";
    let b = audit("gross.csv", csv);
    assert_eq!(b.totals.get(Category::Compute), d("30.00"));
    assert_eq!(b.totals.get(Category::Storage), d("5.00"));
    assert_eq!(b.totals.get(Category::Tax), d("6.00"));
    assert_eq!(b.total, d("41.00"), "30.00 + 5.00 + 6.00 = 36.00 + 5.00");
    assert_eq!(b.line_items, 3, "2 charges and 1 tax");
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
}

#[test]
fn a_chinese_invoice_with_amount_and_tax_columns() {
    // 金额 (before tax) 100.00 + 50.00 = 150.00; 税额 6.00 + 3.00 = 9.00;
    // 价税合计 159.00.
    let csv =
        "项目,金额,税额\nGPU云服务器 A100,100.00,6.00\n云硬盘,50.00,3.00\n价税合计,150.00,9.00\n";
    let b = audit("fapiao.csv", csv);
    assert_eq!(b.subtotal, d("150.00"));
    assert_eq!(b.totals.get(Category::Tax), d("9.00"));
    assert_eq!(b.total, d("159.00"));
    assert_eq!(b.stated_total, Some(d("159.00")), "150.00 + 9.00");
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
}

#[test]
fn a_repeated_row_is_one_duplicate_finding_and_taxes_are_told_apart_by_their_rows() {
    // Two GPU rows alike in every cell: a duplicate. Two egress rows that
    // differ only in the resource, with the same VAT: their taxes share
    // description and amount but not their row, so they are no duplicate.
    let csv = "Description,Resource,Net Amount,VAT\n\
GPU hours,gpu-1,30.00,6.00\n\
GPU hours,gpu-1,30.00,6.00\n\
Egress,lb-1,2.00,0.40\n\
Egress,lb-2,2.00,0.40\n";
    let b = audit("dups.csv", csv);
    // 30 + 30 + 2 + 2 = 64.00 before tax; 6 + 6 + 0.40 + 0.40 = 12.80.
    assert_eq!(b.subtotal, d("64.00"));
    assert_eq!(b.totals.get(Category::Tax), d("12.80"));
    let dup_lines: Vec<_> = b
        .findings
        .iter()
        .filter(|f| f.code == "duplicate-line")
        .map(|f| f.line)
        .collect();
    // One finding for the repeated row (its charge), none for its tax.
    assert_eq!(dup_lines, vec![Some(3)], "{:?}", b.findings);
}

#[test]
fn a_decimal_tax_column_in_parquet_reads_as_its_csv() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "vat",
        "SELECT * FROM (VALUES \
         ('H100 GPU hours', 30.00::DECIMAL(12,2), 6.00::DECIMAL(12,2), 'EUR'), \
         ('Object storage', 5.00::DECIMAL(12,2), 1.00::DECIMAL(12,2), 'EUR'), \
         ('Egress', 2.00::DECIMAL(12,2), 0.40::DECIMAL(12,2), 'EUR')) \
         AS t(\"Description\", \"Net Amount\", \"VAT\", \"Currency\")",
    );
    for ext in ["parquet", "csv"] {
        let p = dir.path().join(format!("vat.{ext}"));
        let (r, _) = audit_json(&[p.to_str().unwrap()]);
        let b = &r.bills[0];
        // 30.00 + 5.00 + 2.00 = 37.00 before tax; 6.00 + 1.00 + 0.40 = 7.40.
        assert_eq!(b.subtotal, "37.00", "{ext}");
        assert_eq!(b.total, "44.40", "{ext}");
        assert_eq!(b.totals.tax, "7.40", "{ext}");
    }
}

/// Net and gross per line and no tax column: the tax is their difference.
/// Total column 36.00 + 6.00 + 2.40 + 1.00 - 12.00 = 33.40; net 30.00 +
/// 5.00 + 2.00 + 1.00 - 10.00 = 28.00; tax 6.00 + 1.00 + 0.40 + 0 - 2.00 =
/// 5.40 = 33.40 - 28.00.
const NET_TOTAL: &str = "Description,Qty,Unit Price,Net,Total
H100 GPU hours,10,3.00,30.00,36.00
Object storage,1,5.00,5.00,6.00
Egress,1,2.00,2.00,2.40
Support,1,1.00,1.00,1.00
Credit,,,-10.00,-12.00
Total,,,28.00,33.40
";

fn assert_net_total(b: &billaudit::Bill) {
    assert_eq!(b.totals.get(Category::Compute), d("30.00"));
    assert_eq!(b.totals.get(Category::Storage), d("5.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("2.00"));
    assert_eq!(b.totals.get(Category::Credit), d("-10.00"));
    // 30.00 + 5.00 + 2.00 + 1.00 (support: other) = 38.00 before tax.
    assert_eq!(b.subtotal, d("38.00"));
    assert_eq!(b.totals.get(Category::Tax), d("5.40"), "6 + 1 + 0.40 - 2");
    // The bill is what the Total column adds up to.
    assert_eq!(b.total, d("33.40"), "36 + 6 + 2.40 + 1 - 12");
    // The total row: its net 28.00 and its gross 33.40: it states 33.40.
    assert_eq!(b.stated_total, Some(d("33.40")));
    assert!(!has(b, "total-mismatch"), "{:?}", b.findings);
    // 10 x 3.00 = 30.00: the net agrees with its arithmetic.
    assert!(!has(b, "line-arithmetic"), "{:?}", b.findings);
}

#[test]
fn a_net_and_a_total_column_without_a_tax_column_give_the_difference_as_tax() {
    // Before: the net read as the amount and the Total column unread: tax
    // 0, total 28.00, and a total-mismatch against the total row's 28.00
    // read as the whole bill.
    let b = audit("net-total.csv", NET_TOTAL);
    assert_net_total(&b);
    // 5 charges and 4 taxes (the support line's gross is its net: no tax).
    assert_eq!(b.line_items, 9);
    assert_eq!(b.skipped.summary, 1);
}

/// A `Net, Total` invoice whose VAT is stated once, at the bottom: the
/// tax row and the total row have their figure only in the Total column.
const NET_TOTAL_VAT_ROW: &str = "Description,Qty,Unit Price,Net,Total
H100 GPU hours,10,3.00,30.00,30.00
Object storage,1,5.00,5.00,5.00
Egress,1,1.00,1.00,1.00
Subtotal,,,,36.00
VAT,,,,7.40
Total,,,,43.40
";

/// The same bottom VAT row beside a line that carries its own tax (Net
/// 30.00, Total 36.00) and a discount with its figure only in the Total
/// column.
const NET_TOTAL_MIXED: &str = "Description,Qty,Unit Price,Net,Total
H100 GPU hours,10,3.00,30.00,36.00
Object storage,1,5.00,5.00,5.00
Egress,1,1.00,1.00,1.00
Discount,,,,-1.00
VAT,,,,1.00
Total,,,,42.00
";

#[test]
fn a_tax_row_with_its_figure_only_in_the_total_column_is_a_tax_item() {
    // Before: `VAT,,,,7.40` was a tax summary row "without a figure" (its
    // Net cell empty) and `Total,,,,43.40` a total row stating nothing:
    // tax 0, total 36.00, no stated total.
    let b = audit("net-total-vat-row.csv", NET_TOTAL_VAT_ROW);
    assert_eq!(b.totals.get(Category::Compute), d("30.00"));
    assert_eq!(b.totals.get(Category::Storage), d("5.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("1.00"));
    // 30.00 + 5.00 + 1.00 = 36.00 before tax.
    assert_eq!(b.subtotal, d("36.00"));
    // The VAT row's 7.40, read from the Total column.
    assert_eq!(b.totals.get(Category::Tax), d("7.40"));
    // The Total column's items: 30.00 + 5.00 + 1.00 + 7.40 = 43.40; the
    // total row is not summed (it would make 86.80).
    assert_eq!(b.total, d("43.40"), "36.00 + 7.40");
    // The total row states its Total cell, 43.40, and it agrees.
    assert_eq!(b.stated_total, Some(d("43.40")));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert!(!has(&b, "parse-double-counted"), "{:?}", b.findings);
    // 3 charges (their gross is their net: no tax items) and the VAT row;
    // the subtotal and total rows set aside.
    assert_eq!(b.line_items, 4);
    assert_eq!(b.skipped.summary, 2);
    // `Subtotal,,,,36.00`, from the Total column, less the tax of the
    // lines above it (none): it states 36.00 (and is not summed).
    assert_eq!(b.stated_subtotal, Some(d("36.00")));
    assert!(!has(&b, "subtotal-mismatch"), "{:?}", b.findings);

    let b = audit("net-total-mixed.csv", NET_TOTAL_MIXED);
    // The H100 line reads as before: its Net 30.00 is compute and 36.00 -
    // 30.00 = 6.00 its tax item.
    assert_eq!(b.totals.get(Category::Compute), d("30.00"));
    assert_eq!(b.totals.get(Category::Storage), d("5.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("1.00"));
    assert_eq!(b.subtotal, d("36.00"), "30.00 + 5.00 + 1.00");
    // The discount row's -1.00 from the Total column.
    assert_eq!(b.totals.get(Category::Credit), d("-1.00"));
    // 6.00 (the H100 line's) + 1.00 (the VAT row's) = 7.00.
    assert_eq!(b.totals.get(Category::Tax), d("7.00"));
    // 36.00 - 1.00 + 7.00 = 42.00 = 36.00 + 5.00 + 1.00 - 1.00 + 1.00, the
    // Total column's items; the total row states 42.00 and is not summed.
    assert_eq!(b.total, d("42.00"));
    assert_eq!(b.stated_total, Some(d("42.00")));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    // 10 x 3.00 = 30.00: the net agrees with its arithmetic.
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
    // 3 charges, the H100 line's tax, the discount and the VAT row.
    assert_eq!(b.line_items, 6);
    assert_eq!(b.skipped.summary, 1);
}

/// `Net, Total` lines that carry their own tax (Net 30.00, Total 36.00),
/// and a subtotal and a total with their figure only in the Total column.
/// Net 30.00 + 5.00 + 1.00 = 36.00; their tax 6.00 + 1.00 + 0.20 = 7.20;
/// gross 36.00 + 6.00 + 1.20 = 43.20 = 36.00 + 7.20.
const NET_TOTAL_GROSS_SUBTOTAL: &str = "Description,Qty,Unit Price,Net,Total
H100 GPU hours,10,3.00,30.00,36.00
Object storage,1,5.00,5.00,6.00
Egress,1,1.00,1.00,1.20
Subtotal,,,,43.20
Total,,,,43.20
";

#[test]
fn a_subtotal_with_its_figure_only_in_the_total_column_states_it_net_of_the_line_taxes() {
    // Before: `Subtotal,,,,43.20` stated nothing (its Net cell empty).
    // Now it states its gross less the tax of the lines above it: 43.20 -
    // 7.20 = 36.00, the charges before tax, which agrees.
    let b = audit("net-total-gross-subtotal.csv", NET_TOTAL_GROSS_SUBTOTAL);
    assert_eq!(b.subtotal, d("36.00"), "30.00 + 5.00 + 1.00");
    assert_eq!(b.totals.get(Category::Tax), d("7.20"), "6.00 + 1.00 + 0.20");
    assert_eq!(b.total, d("43.20"));
    assert_eq!(b.stated_subtotal, Some(d("36.00")), "43.20 - 7.20");
    assert_eq!(b.stated_total, Some(d("43.20")));
    assert!(!has(&b, "subtotal-mismatch"), "{:?}", b.findings);
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert_eq!(b.skipped.summary, 2, "the subtotal and the total");
    // 3 charges and their 3 taxes; neither summary row is summed.
    assert_eq!(b.line_items, 6);

    // A subtotal that the lines do not add up to is now checked: 40.00
    // on lines without tax (Net = Total: 30.00 + 5.00 + 1.00 = 36.00)
    // states 40.00 - 0 and disagrees by 4.00.
    let wrong = NET_TOTAL_VAT_ROW.replace("Subtotal,,,,36.00", "Subtotal,,,,40.00");
    let b = audit("net-total-wrong-subtotal.csv", &wrong);
    assert_eq!(b.stated_subtotal, Some(d("40.00")));
    assert!(has(&b, "subtotal-mismatch"), "{:?}", b.findings);
    assert_eq!(b.total, d("43.40"), "36.00 + 7.40: the subtotal not summed");
}

#[test]
fn a_net_and_a_gross_amount_column_read_the_net_and_the_difference() {
    // `Gross Amount` comes before `Net Amount` among the amount names:
    // without a tax column the net is still the charge. 30.00 + 5.00 =
    // 35.00 before tax; 36.00 - 30.00 + 6.00 - 5.00 = 7.00 tax; 42.00.
    let csv = "Description,Net Amount,Gross Amount\n\
H100 GPU hours,30.00,36.00\n\
Object storage,5.00,6.00\n";
    let b = audit("net-gross.csv", csv);
    assert_eq!(b.subtotal, d("35.00"));
    assert_eq!(b.totals.get(Category::Tax), d("7.00"));
    assert_eq!(b.total, d("42.00"), "36.00 + 6.00");
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
}

#[test]
fn an_amount_beside_a_total_column_is_no_net_and_gross() {
    // `Amount` is no net name: the amount is read as before and `Total`
    // gives no tax. 30.00 + 5.00 = 35.00.
    let csv = "Description,Amount,Total\nH100 GPU hours,30.00,36.00\nObject storage,5.00,6.00\n";
    let b = audit("amount-total.csv", csv);
    assert_eq!(b.total, d("35.00"));
    assert_eq!(b.totals.get(Category::Tax), d("0"));
}

#[test]
fn a_net_and_a_total_column_in_parquet_read_as_their_csv() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "net-total",
        "SELECT * FROM (VALUES \
         ('H100 GPU hours', 30.00::DECIMAL(12,2), 36.00::DECIMAL(12,2), 'EUR'), \
         ('Object storage', 5.00::DECIMAL(12,2), 6.00::DECIMAL(12,2), 'EUR'), \
         ('Egress', 2.00::DECIMAL(12,2), 2.40::DECIMAL(12,2), 'EUR')) \
         AS t(\"Description\", \"Net\", \"Total\", \"Currency\")",
    );
    for ext in ["parquet", "csv"] {
        let p = dir.path().join(format!("net-total.{ext}"));
        let (r, _) = audit_json(&[p.to_str().unwrap()]);
        let b = &r.bills[0];
        // 30.00 + 5.00 + 2.00 = 37.00 net; 36.00 + 6.00 + 2.40 = 44.40
        // gross; 44.40 - 37.00 = 7.40 tax.
        assert_eq!(b.subtotal, "37.00", "{ext}");
        assert_eq!(b.total, "44.40", "{ext}");
        assert_eq!(b.totals.tax, "7.40", "{ext}");
    }
}

/// The gross-only summary rows of `Net, Total` bills
/// (`a_tax_row_with_its_figure_only_in_the_total_column_is_a_tax_item`)
/// read the same from Parquet, where the empty Net cell is a null
/// DECIMAL read as a figure, as from CSV.
#[test]
fn a_gross_only_tax_row_in_parquet_reads_as_in_csv() {
    if !python_has(&["duckdb"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "gross-only",
        "SELECT * FROM (VALUES \
         ('H100 GPU hours', 30.00::DECIMAL(12,2), 30.00::DECIMAL(12,2), 'EUR'), \
         ('Object storage', 5.00::DECIMAL(12,2), 5.00::DECIMAL(12,2), 'EUR'), \
         ('Egress', 1.00::DECIMAL(12,2), 1.00::DECIMAL(12,2), 'EUR'), \
         ('VAT', NULL, 7.40::DECIMAL(12,2), 'EUR'), \
         ('Total', NULL, 43.40::DECIMAL(12,2), 'EUR')) \
         AS t(\"Description\", \"Net\", \"Total\", \"Currency\")",
    );
    for ext in ["parquet", "csv"] {
        let p = dir.path().join(format!("gross-only.{ext}"));
        let (r, _) = audit_json(&[p.to_str().unwrap()]);
        let b = &r.bills[0];
        // Items 30.00 + 5.00 + 1.00 = 36.00; the VAT row is a tax item of
        // 7.40; total 36.00 + 7.40 = 43.40, which the Total row states
        // (not summed: 86.80 if it were).
        assert_eq!(b.subtotal, "36.00", "{ext}");
        assert_eq!(b.totals.tax, "7.40", "{ext}");
        assert_eq!(b.total, "43.40", "{ext}");
        assert_eq!(b.stated_total.as_deref(), Some("43.40"), "{ext}");
    }
}
