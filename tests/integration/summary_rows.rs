//! Summary rows a bill states in shapes the label tables alone miss: the
//! label right of the amount (a notes column), Spanish and Portuguese
//! invoice totals, and a subtotal and a total under labels no vocabulary
//! knows that reconcile through the tax between them, and a total under
//! an unknown label after a known subtotal and its discount
//! (docs/decisions.md, "Summary rows in any column" and "An unlabelled
//! subtotal"). Every expected figure is hand arithmetic written beside it.

use billaudit::Category;

use crate::csv_shapes::{audit, d, has};

/// A Spanish GPU-rental invoice exported as CSV (`;`, decimal comma): the
/// subtotal's label stands right of its amount, in the `Notas` column, and
/// the total is `Total factura`. Items: 54,00 (120 h x 0,45) + 12,00 +
/// 6,00 + 3,50 + 5,40 = 80,90, the stated subtotal; IVA 16,99 (21% of
/// 80,90 = 16,989); total 80,90 + 16,99 = 97,89.
const FACTURA: &str = "Proveedor: GPUNube S.L.;;;;
Concepto;Horas;Precio/hora;Importe (EUR);Notas
Alquiler GPU RTX 4090;120;0,45;54,00;
Almacenamiento NVMe 1 TB;1;12,00;12,00;
Instantáneas (snapshots);1;6,00;6,00;
Tráfico saliente;1;3,50;3,50;
Tarifa de gestión de clúster;1;5,40;5,40;
;;;80,90;Subtotal
IVA 21%;;;16,99;
Total factura;;;97,89;
";

/// The figures of [`FACTURA`] by hand, whichever way its summary rows were
/// recognised.
fn assert_factura_figures(b: &billaudit::Bill) {
    assert_eq!(b.subtotal, d("80.90"), "54 + 12 + 6 + 3.50 + 5.40");
    assert_eq!(b.totals.get(Category::Tax), d("16.99"));
    assert_eq!(b.total, d("97.89"), "80.90 + 16.99");
    assert_eq!(b.totals.get(Category::Other), d("0"));
    assert_eq!(b.line_items, 6, "5 charges and the IVA");
    assert_eq!(b.skipped.summary, 2, "the subtotal and the total");
    assert_eq!(b.stated_subtotal, Some(d("80.90")));
    assert_eq!(b.stated_total, Some(d("97.89")));
    // Hidden: snapshots 6,00 + egress 3,50 + cluster fee 5,40 = 14,90,
    // 14,90 / 80,90 = 18.42% (above 5%).
    assert_eq!(b.hidden, d("14.90"));
    assert!(has(b, "hidden-fee-share"), "{:?}", b.findings);
    assert!(!has(b, "total-mismatch"), "{:?}", b.findings);
    assert!(!has(b, "subtotal-mismatch"), "{:?}", b.findings);
    assert!(!has(b, "unclassified-items"), "{:?}", b.findings);
}

#[test]
fn a_label_right_of_its_amount_and_total_factura_are_statements() {
    // Before: `;;;80,90;Subtotal` and `Total factura` were summed as
    // `other` (178,79): subtotal 259,69, total 276,68, hidden 5.74%.
    let b = audit("factura.csv", FACTURA);
    assert_factura_figures(&b);
    assert!(
        b.notes.iter().all(|n| !n.contains("not summed")),
        "{:?}",
        b.notes
    );
}

#[test]
fn a_subtotal_and_a_total_under_unknown_labels_reconcile_through_the_tax() {
    // No label at all on the subtotal row, and a total label no table
    // has (`Monto final`): 80,90 is the sum of the five charges above it,
    // and 97,89 = 80,90 + the IVA 16,99 is the total of every line above
    // without the 80,90 (with it: 178,79).
    let csv = FACTURA
        .replace(";;;80,90;Subtotal", ";;;80,90;")
        .replace("Total factura", "Monto final");
    let b = audit("factura.csv", &csv);
    assert_factura_figures(&b);
    let said = |start: &str| b.notes.iter().any(|n| n.starts_with(start));
    assert!(
        said(
            "line 8 `` (80.90) is the sum of the 5 items above it, and the stated total 97.89 agrees only without it"
        ),
        "{:?}",
        b.notes
    );
    assert!(
        said(
            "line 10 `Monto final` (97.89) is the sum of every line above it with tax and credits"
        ),
        "{:?}",
        b.notes
    );
}

#[test]
fn two_equal_fees_without_a_tax_between_them_stay_items() {
    // 4.00 + 6.00 = 10.00 = the support fee, and the consulting fee is
    // 10.00 too: no tax between them, so nothing reconciles through one.
    // Every row is a charge: 4 + 6 + 10 + 10 = 30.00.
    let csv =
        "Description,Amount\nGPU hours,4.00\nDisk,6.00\nSupport fee,10.00\nConsulting,10.00\n";
    let b = audit("fees.csv", csv);
    assert_eq!((b.total, b.line_items), (d("30.00"), 4));
    assert_eq!(b.skipped.summary, 0);
}

#[test]
fn a_later_fee_that_counts_the_held_row_leaves_both_items() {
    // Support fee 10.00 = 4.00 + 6.00 is held; VAT 2.00; consulting 22.00
    // = 4 + 6 + 10 + 2 counts the support fee, so it is no total that sets
    // the fee aside: every row is summed, 4 + 6 + 10 + 2 + 22 = 44.00.
    let csv = "Description,Amount\nGPU hours,4.00\nDisk,6.00\nSupport fee,10.00\nVAT,2.00\nConsulting,22.00\n";
    let b = audit("fees.csv", csv);
    assert_eq!(b.total, d("44.00"));
    assert_eq!(b.totals.get(Category::Tax), d("2.00"));
    assert_eq!(b.skipped.summary, 0);
}

#[test]
fn spanish_and_portuguese_invoice_totals_are_totals() {
    // 70.00 + 30.00 = 100.00, the stated total under each label.
    for label in [
        "Total factura",
        "Total de la factura",
        "Importe total de la factura",
        "Total con IVA",
        "Total da fatura",
    ] {
        let csv =
            format!("Descripción,Importe\nGPU A100,70.00\nAlmacenamiento,30.00\n{label},100.00\n");
        let b = audit("f.csv", &csv);
        assert_eq!(
            (b.total, b.stated_total),
            (d("100.00"), Some(d("100.00"))),
            "{label}"
        );
        assert_eq!(b.skipped.summary, 1, "{label}");
    }
}

/// A tax and a discount summary row whose amount cell is empty: the bill
/// names them and states no figure. Not a charge that lost its amount: no
/// `missing-amount` warning, but `summary` skips the report names in a
/// note. A charge row with an empty amount is still `missing-amount`.
#[test]
fn a_tax_row_without_a_figure_is_a_summary_skip_named_in_a_note() {
    let csv = "Description,Amount\n\
GPU hours,30.00\n\
Object storage,5.00\n\
Egress,\n\
VAT,\n\
Discount,-\n\
Total,35.00\n";
    let b = audit("no-tax-figure.csv", csv);
    // 30.00 + 5.00 = 35.00, the stated total; no tax, no credit.
    assert_eq!(b.total, d("35.00"));
    assert_eq!(b.stated_total, Some(d("35.00")));
    assert_eq!(b.totals.get(Category::Tax), d("0"));
    assert_eq!(b.line_items, 2);
    // VAT, Discount and Total: 3 summary skips; Egress: 1 missing amount.
    assert_eq!(b.skipped.summary, 3);
    assert_eq!(b.skipped.missing_amount, 1);
    let missing: Vec<Option<u64>> = b
        .findings
        .iter()
        .filter(|f| f.code == "missing-amount")
        .map(|f| f.line)
        .collect();
    assert_eq!(missing, [Some(4)], "{:?}", b.findings);
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert_eq!(
        b.notes,
        [
            "2 tax or discount summary rows without a figure (their amount cells are empty): line 5 `VAT`, line 6 `Discount`; counted as summary skips, nothing summed"
        ]
    );
}

/// A GPU-rental invoice exported as CSV: a known `Subtotal`, a discount
/// and the VAT, then the total under a label no table has (Hungarian
/// `Fizetendő összeg`, "amount payable"). Items 200 x 1.10 = 220.00 +
/// 25.00 + 5.00 + 10.00 = 260.00, the stated subtotal; discount 10% of
/// 260.00 = -26.00; VAT 27% of 234.00 = 63.18; total 260.00 - 26.00 +
/// 63.18 = 297.18.
const PAYABLE: &str = "Description,Qty,Unit price,Amount
A100 80GB GPU hours,200,1.10,220.00
NVMe volume 500 GB,1,25.00,25.00
Volume snapshots,1,5.00,5.00
Egress traffic,1,10.00,10.00
Subtotal,,,260.00
Discount 10%,,,-26.00
VAT 27%,,,63.18
Fizetendő összeg,,,297.18
";

#[test]
fn an_unknown_total_after_a_known_subtotal_and_a_discount_is_stated_not_summed() {
    // Before: the last row was summed as `other`: total 297.18 x 2 =
    // 594.36, subtotal 557.18, a subtotal-mismatch and no stated total.
    for (label, csv) in [
        ("Fizetendő összeg", PAYABLE.to_string()),
        ("", PAYABLE.replace("Fizetendő összeg,", ",")),
    ] {
        let b = audit("payable.csv", &csv);
        assert_eq!(b.subtotal, d("260.00"), "220 + 25 + 5 + 10 ({label})");
        assert_eq!(b.totals.get(Category::Credit), d("-26.00"));
        assert_eq!(b.totals.get(Category::Tax), d("63.18"));
        assert_eq!(b.totals.get(Category::Other), d("0"), "{label}");
        assert_eq!(b.total, d("297.18"), "260 - 26 + 63.18 ({label})");
        assert_eq!(b.stated_subtotal, Some(d("260.00")));
        assert_eq!(b.stated_total, Some(d("297.18")), "{label}");
        assert_eq!(b.skipped.summary, 2, "the subtotal and the total");
        assert_eq!(b.line_items, 6, "4 charges, the discount, the VAT");
        // Hidden: snapshots 5.00 + egress 10.00 = 15.00; 15 / 260 = 5.77%.
        assert_eq!(b.hidden, d("15.00"));
        assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
        assert!(!has(&b, "subtotal-mismatch"), "{:?}", b.findings);
        assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
        let note = format!(
            "line 9 `{label}` (297.18) is the last row, after the stated subtotal and its tax or credit rows"
        );
        assert!(
            b.notes.iter().any(|n| n.starts_with(&note)),
            "{:?}",
            b.notes
        );
    }
}

#[test]
fn a_charge_equal_to_the_total_after_a_known_subtotal_stays_a_charge() {
    // Each shape sums every row: 260.00 - 26.00 + 63.18 + 297.18 =
    // 594.36, and nothing is read as the stated total.
    // A quantity and a unit price: a charge (1 x 297.18).
    let priced = PAYABLE.replace("Fizetendő összeg,,,297.18", "Consulting,1,297.18,297.18");
    // A charge after it: the list goes on, so it was a charge (+ 10.00).
    let followed = format!("{PAYABLE}Support plan,,,10.00\n");
    // No tax or credit row between the subtotal and it.
    let unadjusted = PAYABLE
        .replace("Discount 10%,,,-26.00\n", "")
        .replace("VAT 27%,,,63.18\n", "")
        .replace(",,,297.18", ",,,260.00");
    // A subtotal the items do not add up to (250.00 for 260.00).
    let wrong = PAYABLE.replace("Subtotal,,,260.00", "Subtotal,,,250.00");
    for (name, csv, total) in [
        ("priced", priced, "594.36"),
        ("followed", followed, "604.36"),
        // 260.00 + 260.00.
        ("unadjusted", unadjusted, "520.00"),
        ("wrong", wrong, "594.36"),
    ] {
        let b = audit("payable.csv", &csv);
        assert_eq!(b.total, d(total), "{name}");
        assert_eq!(b.stated_total, None, "{name}");
        assert_eq!(b.skipped.summary, 1, "the subtotal ({name})");
    }
}
