//! Diagnostics worth reading (issue 8): each input error names the file,
//! line and column, quotes the offending line with a caret under the field,
//! and says which profile and column mapping were used. Pinned as snapshots.

use std::io::Write;

use billaudit::{InputKind, Options};

fn error_of(name: &str, bytes: &[u8], opts: &Options) -> String {
    match billaudit::audit_bytes(name, bytes, opts) {
        Ok(b) => panic!("{name}: expected an error, got {} bills", b.len()),
        Err(e) => e.to_string(),
    }
}

fn err(name: &str, bytes: &[u8]) -> String {
    error_of(name, bytes, &Options::default())
}

#[test]
fn empty_file() {
    insta::assert_snapshot!("diag_empty", err("empty.csv", b""));
}

#[test]
fn header_only_points_at_the_amount_column_and_shows_the_mapping() {
    insta::assert_snapshot!(
        "diag_header_only",
        err("header.csv", "账期,产品,计费项,应付金额\n".as_bytes())
    );
}

#[test]
fn png_renamed_csv() {
    insta::assert_snapshot!(
        "diag_png",
        err("bill.csv", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01")
    );
}

#[test]
fn binary_junk() {
    let junk: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
    insta::assert_snapshot!("diag_junk", err("junk.csv", &junk));
}

#[test]
fn nul_byte_in_a_csv() {
    insta::assert_snapshot!(
        "diag_nul",
        err("nul.csv", b"Description,Amount\nGPU,1.00\nDisk,2\x00.00\n")
    );
}

#[test]
fn nul_byte_after_wide_characters_keeps_the_caret_aligned() {
    insta::assert_snapshot!(
        "diag_nul_cjk",
        err("cn.csv", "产品,应付金额\n数据盘快照,1\x00.00\n".as_bytes())
    );
}

#[test]
fn unclosed_quote_in_a_small_file() {
    insta::assert_snapshot!(
        "diag_unclosed_small",
        err("q.csv", b"\"Description,Amount\nGPU,1.00\nDisk,2.00\n")
    );
}

#[test]
fn unclosed_quote_at_the_start_of_a_large_file() {
    let mut b = b"\"Description,Amount\n".to_vec();
    for i in 0..1000 {
        writeln!(b, "GPU instance {i},1.00").unwrap();
    }
    insta::assert_snapshot!("diag_unclosed_large", err("big.csv", &b));
}

#[test]
fn a_profile_recognised_without_a_required_column() {
    insta::assert_snapshot!(
        "diag_focus_missing",
        err(
            "focus.csv",
            b"BillingPeriodStart,BilledCost,EffectiveCost,ChargeDescription\n2025-01-01,1,1,x\n"
        )
    );
}

#[test]
fn no_header_row() {
    // No column of numbers: nothing to infer an amount from (issue 26; a
    // table of numbers under `a,b,c` is read with inferred columns now).
    insta::assert_snapshot!("diag_no_header", err("nohdr.csv", b"a,b,c\nx,y,z\nu,v,w\n"));
}

#[test]
fn max_input_bytes() {
    let opts = Options {
        max_input_bytes: Some(16),
        ..Options::default()
    };
    insta::assert_snapshot!(
        "diag_max_input_bytes",
        error_of(
            "big.csv",
            b"Description,Amount\nGPU,1.00\nDisk,2.00\n",
            &opts
        )
    );
}

#[test]
fn text_invoice_without_items() {
    let opts = Options {
        input: InputKind::Text,
        ..Options::default()
    };
    insta::assert_snapshot!(
        "diag_text_no_items",
        error_of(
            "invoice.txt",
            b"INVOICE\nAcme GPU Cloud\nThank you for your business\n",
            &opts
        )
    );
}

#[test]
fn text_too_large_to_be_an_invoice() {
    let line = b"lorem ipsum dolor sit amet\n";
    let big = line.repeat((5 << 20) / line.len());
    insta::assert_snapshot!("diag_text_too_large", err("huge.txt", &big));
}

#[test]
fn zip_entry_escaping_the_archive() {
    use zip::write::SimpleFileOptions;
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    z.start_file("../../etc/bill.csv", SimpleFileOptions::default())
        .unwrap();
    z.write_all(b"Description,Amount\nGPU,1\n").unwrap();
    let bytes = z.finish().unwrap().into_inner();
    insta::assert_snapshot!("diag_zip_traversal", err("bills.zip", &bytes));
}

#[test]
fn category_totals_beyond_an_exact_decimal() {
    insta::assert_snapshot!(
        "diag_overflow",
        err(
            "huge.csv",
            "Description,Amount\n{g}{g}{g}{g}{d}{d}{d}{d}"
                .replace("{g}", "GPU instance,9999999999999999999999999999\n")
                .replace("{d}", "Disk volume,9999999999999999999999999999\n")
                .as_bytes()
        )
    );
}
