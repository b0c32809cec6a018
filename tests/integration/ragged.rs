//! CSV rows with more cells than their header (`ragged-row`): a delimiter
//! inside a cell the export did not quote. Before, `A100 rental,1,234.50`
//! under `Description,Amount` was read as a charge of 1, its `234.50`
//! dropped, without a word. Every expected figure is hand arithmetic,
//! written beside it.

use billaudit::Category;

use crate::csv_shapes::{audit, d, has};

fn ragged_lines(b: &billaudit::Bill) -> Vec<u64> {
    b.findings
        .iter()
        .filter(|f| f.code == "ragged-row")
        .filter_map(|f| f.line)
        .collect()
}

#[test]
fn a_spreadsheet_export_with_unquoted_thousands_reads_every_amount_whole() {
    // A sheet of formatted amounts saved as CSV: every amount of 1,000 or
    // more is split at its comma, the stated total too.
    let csv = "Date,Description,Amount\n\
               2024-05-01,A100 80GB GPU hours,1,234.50\n\
               2024-05-01,Public egress,56.20\n\
               2024-05-01,Snapshot storage,2,003.10\n\
               2024-05-31,Total,3,293.80\n";
    let b = audit("sheet.csv", csv);
    // 1,234.50 + 56.20 + 2,003.10 = 3,293.80, the stated total.
    assert_eq!(b.totals.get(Category::Compute), d("1234.50"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("56.20"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("2003.10"));
    assert_eq!(b.total, d("3293.80"));
    assert_eq!(b.stated_total, Some(d("3293.80")));
    assert!(!has(&b, "total-mismatch"));
    assert_eq!(b.line_items, 3);
    assert_eq!(b.skipped.summary, 1);
    // Lines 2, 4 and 5 are one shape (4 cells under 3 columns, `Amount`
    // from 2): one finding, on line 2, naming the three.
    assert_eq!(ragged_lines(&b), [2]);
    let f = b.findings.iter().find(|f| f.code == "ragged-row").unwrap();
    assert!(
        f.message
            .ends_with("3 rows have this shape, read the same way: lines 2, 4 and 5"),
        "{}",
        f.message
    );
    // Hidden: 56.20 + 2,003.10 = 2,059.30 of 3,293.80 = 62.52%.
    assert!(has(&b, "hidden-fee-share"));
    let f = b
        .findings
        .iter()
        .find(|f| f.code == "hidden-fee-share")
        .unwrap();
    assert!(f.message.contains("62.52%"), "{}", f.message);
}

#[test]
fn a_dollar_amount_with_a_currency_column_after_it_is_joined() {
    // Before: 5 cells under 4 columns put `234.50` in `Currency`: the row
    // was an unparsable currency and 1,234.50 was lost from the bill.
    let csv = "Date,Description,Amount,Currency\n\
               2024-05-01,A100 rental,$1,234.50,USD\n\
               2024-05-01,Block storage,$12.00,USD\n";
    let b = audit("dollars.csv", csv);
    // 1,234.50 + 12.00 = 1,246.50.
    assert_eq!(b.total, d("1246.50"));
    assert_eq!(b.skipped.unparsable, 0);
    assert!(!has(&b, "unparsable-value"));
    assert_eq!(ragged_lines(&b), [2]);
}

#[test]
fn a_comma_inside_a_description_is_joined_back() {
    let csv = "Service,Description,Cost\n\
               Compute,GPU rental, 8x A100,100.00\n\
               Network,Egress to internet,4.00\n";
    let b = audit("desc.csv", csv);
    // 100.00 + 4.00 = 104.00; the compute line keeps its whole description.
    assert_eq!(b.total, d("104.00"));
    assert_eq!(b.totals.get(Category::Compute), d("100.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("4.00"));
    let f = b.findings.iter().find(|f| f.code == "ragged-row").unwrap();
    assert!(f.message.contains("`GPU rental, 8x A100`"), "{}", f.message);
}

#[test]
fn an_extra_cell_nothing_explains_is_a_warning_naming_the_line() {
    let csv = "Description,Amount\n\
               A100 rental,100.00\n\
               Storage,12,5x\n";
    let b = audit("extra.csv", csv);
    // Read by position: 100.00 + 12 = 112.00, and the row is named.
    assert_eq!(b.total, d("112.00"));
    assert_eq!(ragged_lines(&b), [3]);
    let f = b.findings.iter().find(|f| f.code == "ragged-row").unwrap();
    assert_eq!(f.severity.as_str(), "warning");
    assert!(f.message.contains("`5x`") && f.message.contains("check its amount"));
}

#[test]
fn a_trailing_delimiter_on_every_row_is_no_finding() {
    let csv = "Description,Amount\n\
               A100 rental,100.00,\n\
               Storage,12.00,\n";
    let b = audit("trailing.csv", csv);
    assert_eq!(b.total, d("112.00"));
    assert!(ragged_lines(&b).is_empty());
}

#[test]
fn a_french_invoice_export_with_a_title_line_summary_rows_and_split_thousands() {
    // On main: refused ("no header row found"): `Montant HT` was no
    // amount header, and the split rows broke the column inference.
    let csv = "Facture GPUCloud SAS - Novembre 2025,,,\n\
               Désignation,Quantité,Prix unitaire,Montant HT\n\
               Location GPU H100 (heures),720,2.00,1,440.00\n\
               Stockage bloc 500 Go,1,25.00,25.00\n\
               Snapshots quotidiens,1,60.00,60.00\n\
               Trafic sortant internet,1,35.00,35.00\n\
               Frais de gestion du cluster,1,150.00,150.00\n\
               Total HT,,,1,710.00\n\
               TVA 20%,,,342.00\n\
               Total TTC,,,2,052.00\n";
    let b = audit("facture.csv", csv);
    // 720 x 2.00 = 1,440.00; + 25 + 60 + 35 + 150 = 1,710.00 (Total HT);
    // TVA 20% of 1,710.00 = 342.00; Total TTC 2,052.00.
    assert_eq!(b.totals.get(Category::Compute), d("1440.00"));
    assert_eq!(b.subtotal, d("1710.00"));
    assert_eq!(b.totals.get(Category::Tax), d("342.00"));
    assert_eq!(b.total, d("2052.00"));
    assert_eq!(b.stated_total, Some(d("2052.00")));
    assert!(!has(&b, "total-mismatch") && !has(&b, "subtotal-mismatch"));
    // Lines 3, 8 and 10: 5 cells under 4 columns, `Montant HT` from 2.
    assert_eq!(ragged_lines(&b), [3]);
    // Hidden 60 + 35 + 150 = 245.00 of 1,710.00 = 14.33%.
    let f = b
        .findings
        .iter()
        .find(|f| f.code == "hidden-fee-share")
        .unwrap();
    assert!(f.message.contains("14.33%"), "{}", f.message);
}

/// A bill whose every amount of 1,000 or more is split at an unquoted
/// thousands separator, and a few rows with a stray cell: one `ragged-row`
/// finding per shape, with the exact number of rows and the first ten
/// lines, instead of one finding per row (28 before).
#[test]
fn many_ragged_rows_are_one_finding_per_shape_with_the_exact_count() {
    let mut csv = String::from("Description,Amount\n");
    for i in 0..25 {
        csv.push_str(&format!("A100 rental node-{i},1,234.50\n"));
    }
    csv.push_str("Block storage,12.00\n");
    for i in 0..3 {
        csv.push_str(&format!("Snapshot {i},12,5x\n"));
    }
    let b = audit("many.csv", &csv);
    // 25 x 1,234.50 = 30,862.50; + 12.00; the stray-cell rows read by
    // position: 3 x 12 = 36; 30,862.50 + 12.00 + 36 = 30,910.50.
    assert_eq!(b.total, d("30910.50"));
    assert_eq!(b.line_items, 29);
    // Lines 2-26 (the A100 rows) and 28-30 (the snapshots).
    assert_eq!(ragged_lines(&b), [2, 28]);
    let messages: Vec<&str> = b
        .findings
        .iter()
        .filter(|f| f.code == "ragged-row")
        .map(|f| f.message.as_str())
        .collect();
    // 25 rows, 10 listed: 25 - 10 = 15 more.
    assert!(
        messages[0].starts_with("3 cells under a header of 2 columns: `1` and `234.50`")
            && messages[0].ends_with(
                "25 rows have this shape, read the same way: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 15 more"
            ),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("(`5x`)")
            && messages[1]
                .ends_with("3 rows have this shape, read the same way: lines 28, 29 and 30"),
        "{}",
        messages[1]
    );
}
