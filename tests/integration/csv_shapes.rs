//! CSV bills of shapes nobody here wrote a profile for (issue 26): summary
//! rows whose label is not in the first cell, headers inferred from the
//! content, headerless files, `--columns` by position, legacy encodings.
//! Every expected figure is hand arithmetic written beside it.

use std::str::FromStr;

use billaudit::{Bill, Category};
use rust_decimal::Decimal;

use crate::common::{run_with_stdin, stderr};

pub(crate) fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn audit_with(name: &str, bytes: &[u8], opts: &billaudit::Options) -> Bill {
    let mut bills = billaudit::audit_bytes(name, bytes, opts)
        .unwrap_or_else(|e| panic!("{name}: {e}\n{}", String::from_utf8_lossy(bytes)));
    assert_eq!(bills.len(), 1, "{name}: one bill");
    bills.remove(0)
}

pub(crate) fn audit(name: &str, csv: &str) -> Bill {
    audit_with(name, csv.as_bytes(), &billaudit::Options::default())
}

pub(crate) fn has(b: &Bill, code: &str) -> bool {
    b.findings.iter().any(|f| f.code == code)
}

// ---- Summary rows in any column -------------------------------------------

#[test]
fn summary_rows_after_a_currency_column_are_statements() {
    // On main the three summary rows were summed as items: 60.00 + 50.00 +
    // 110.00 + 11.00 + 121.00 = 352.00, near three times the bill.
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
    // 90.00 + 10.00 + 6.00 (tax) = 106.00; on main 小计 100.00 and 价税合计
    // 106.00 were summed too: 312.00.
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

// ---- Reading without a known header -----------------------------------------

/// A hosting invoice CSV as a German dedicated-server host exports it
/// (layout: the columns `hetzner-fix-report` gives its headerless export,
/// github.com/flxai/hetzner-fix-report): no header row, seven quoted
/// columns (type, a description over several lines, from, to, quantity,
/// unit price, net amount), the currency only as `€` in the text.
const HOSTING: &str = "\"Server CX21\",\"Cloud Server #4711 \"\"web-1\"\"\nUsage: 720 h\nperiod 01.11.2025 - 30.11.2025 max. € 5.83\",\"2025-11-01\",\"2025-11-30\",\"720\",\"0.0080\",\"5.76\"\n\
\"Backup\",\"Backups for #4711 \"\"web-1\"\"\",\"2025-11-01\",\"2025-11-30\",\"1\",\"1.15\",\"1.15\"\n\
\"Traffic\",\"Additional outgoing traffic\nover the included 20 TB\",\"2025-11-01\",\"2025-11-30\",\"3\",\"1.00\",\"3.00\"\n\
\"Snapshot\",\"Snapshot of #4711\n40 GB\",\"2025-11-01\",\"2025-11-30\",\"40\",\"0.0119\",\"0.476\"\n";

#[test]
fn a_headerless_hosting_invoice_csv_is_read_by_inference() {
    // On main: refused (no header row found, exit 2).
    let b = audit("hosting.csv", HOSTING);
    assert_eq!(b.format, "inferred-csv");
    // 720 x 0.0080 = 5.76; 1 x 1.15 = 1.15; 3 x 1.00 = 3.00; 40 x 0.0119 = 0.476.
    // Total 5.76 + 1.15 + 3.00 + 0.476 = 10.386.
    assert_eq!(b.total, d("10.386"));
    assert_eq!(b.line_items, 4);
    assert_eq!(b.currency.as_deref(), Some("EUR"));
    // Quantity x unit price was checked with the right columns: no finding.
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
    // Hidden: the backup 1.15 and the snapshot 0.476 (storage_replica) and
    // the traffic 3.00 (bandwidth): 1.15 + 0.476 + 3.00 = 4.626.
    assert_eq!(b.hidden, d("4.626"));
    let amount = b
        .inferred_columns
        .iter()
        .find(|c| c.role.as_str() == "amount")
        .expect("amount inferred");
    assert_eq!(amount.column, 6);
    assert_eq!(amount.header, None);
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("inferred amount = column 7")),
        "{:?}",
        b.notes
    );
}

/// Its enriched variant (headers `description, quantity, unit_price, price,
/// price_monthly, ...`): `price` is the line's amount, `unit_price` the price
/// of one unit, `price_monthly` the monthly cap.
const ENRICHED: &str = "type,description,quantity,unit_price,price,price_monthly,date_from,date_to\n\
Server CX21,Cloud Server web-1,720,0.0080,5.76,5.83,2025-11-01,2025-11-30\n\
Server CX31,Cloud Server db-1,360,0.0160,5.76,10.59,2025-11-16,2025-11-30\n\
Backup,Backups for web-1,1,1.15,1.15,1.15,2025-11-01,2025-11-30\n\
Traffic,Additional outgoing traffic,3,1.00,3.00,3.00,2025-11-01,2025-11-30\n";

#[test]
fn the_enriched_hosting_csv_reads_price_as_the_amount_without_flags() {
    // On main: refused, no header row found.
    let b = audit("hosting-enriched.csv", ENRICHED);
    // 720 x 0.0080 = 5.76; 360 x 0.0160 = 5.76; 1 x 1.15; 3 x 1.00:
    // 5.76 + 5.76 + 1.15 + 3.00 = 15.67.
    assert_eq!(b.total, d("15.67"));
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
    let amount = b
        .inferred_columns
        .iter()
        .find(|c| c.role.as_str() == "amount")
        .unwrap();
    assert_eq!(amount.header.as_deref(), Some("price"));
}

#[test]
fn the_enriched_hosting_csv_with_columns_amount_price_multiplies_unit_price() {
    // On main `--columns amount=price` read it, but line-arithmetic took
    // `price` as the unit price too: 720 x 5.76 = 4147.20 != 5.76.
    let opts = billaudit::Options {
        columns: vec![(billaudit::normalise::profile::Role::Amount, "price".into())],
        ..billaudit::Options::default()
    };
    let b = audit_with("hosting-enriched.csv", ENRICHED.as_bytes(), &opts);
    assert_eq!(b.total, d("15.67"));
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
}

#[test]
fn columns_by_position_on_a_headerless_file() {
    // `amount=7` (1-based) names the net amount column.
    let o = run_with_stdin(
        &["audit", "--format", "json", "--columns", "amount=7", "-"],
        HOSTING.as_bytes(),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("\"total\": \"10.386\""),
        "{out}\n{}",
        stderr(&o)
    );
    assert!(out.contains("\"inferred_columns\""), "{out}");
    // A position past the last column is refused, naming the columns.
    let o = run_with_stdin(&["audit", "--columns", "amount=9", "-"], HOSTING.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`9` is not among the columns"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_table_without_any_column_of_numbers_is_refused() {
    let csv = "alpha,beta,gamma\none,two,three\nfour,five,six\n";
    let o = run_with_stdin(&["audit", "-"], csv.as_bytes());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn columns_naming_a_missing_header_says_so_and_lists_the_columns() {
    // Issue 30: on main this said "no header row found".
    let csv = "Item,Amount,Currency\nGPU instance,10.00,USD\n";
    let o = run_with_stdin(&["audit", "--columns", "amount=Cost", "-"], csv.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("`Cost` is not among the columns"), "{e}");
    assert!(e.contains("Item, Amount, Currency"), "{e}");
    assert!(!e.contains("no header row found"), "{e}");
}

#[test]
fn a_semicolon_csv_of_decimal_commas_under_unknown_headers_is_inferred() {
    // On main this was refused ("no header row found"): the sniff that
    // decides CSV or text invoice tried the columns with a decimal point,
    // found no column of numbers in `1.000,00`, and read the file as a
    // text invoice, which has no items either.
    let csv = "Beschreibung;Netto\n\
               GPU-Server A100;1.000,00\n\
               Speicher Snapshot;100,00\n\
               Netzwerk Traffic;50,00\n";
    let b = audit("netto.csv", csv);
    // 1.000,00 + 100,00 + 50,00 = 1.150,00.
    assert_eq!(b.total, d("1150.00"));
    assert_eq!(b.line_items, 3);
    assert_eq!(b.totals.get(Category::Compute), d("1000.00"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("100.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("50.00"));
    // Two columns, comma-delimited, the decimal commas quoted.
    let csv = "Bez,Netto\nGPU Server,\"1000,00\"\nSpeicher,\"100,50\"\n";
    let b = audit("quoted.csv", csv);
    // 1000,00 + 100,50 = 1100,50.
    assert_eq!(b.total, d("1100.50"));
}

#[test]
fn an_inferred_amount_is_not_the_column_the_header_calls_a_quantity() {
    // On main the amount was `Menge` (the rightmost column of numbers):
    // total 2 + 3 = 5 instead of the charges.
    let csv = "Beschreibung;Netto;Menge\n\
               GPU Server;1000,00;2\n\
               Speicher;100,00;3\n";
    let b = audit("menge.csv", csv);
    // 1000,00 + 100,00 = 1100,00.
    assert_eq!(b.total, d("1100.00"));
}

// ---- Encodings ---------------------------------------------------------------

/// A French bill re-saved by Excel in Windows-1252 (Latin-1): `é` is one
/// byte, 0xE9, invalid as UTF-8.
const FRENCH: &str = "Date;Libellé;Quantité;Prix unitaire;Montant;Devise\n\
01/11/2025;Serveur dédié GPU;720;0,50;360,00;EUR\n\
01/11/2025;Trafic sortant supplémentaire;2;1,00;2,00;EUR\n\
01/11/2025;Sauvegarde du disque;1;12,50;12,50;EUR\n\
30/11/2025;Total;;;374,50;EUR\n";

fn latin1(s: &str) -> Vec<u8> {
    encoding_rs::WINDOWS_1252.encode(s).0.into_owned()
}

#[test]
fn a_latin1_french_bill_is_detected_as_windows_1252() {
    // On main: `invalid UTF-8 ... use --encoding` on every row with an é.
    let bytes = latin1(FRENCH);
    assert!(std::str::from_utf8(&bytes).is_err());
    let b = audit_with("fr.csv", &bytes, &billaudit::Options::default());
    // 720 x 0,50 = 360,00; 2 x 1,00 = 2,00; 1 x 12,50 = 12,50: 374,50.
    assert_eq!(b.total, d("374.50"));
    assert_eq!(b.line_items, 3);
    assert_eq!(b.skipped.unparsable, 0);
    assert_eq!(b.stated_total, Some(d("374.50")));
    let e = b.encoding.as_ref().expect("encoding reported");
    assert_eq!(e.name, "windows-1252");
    assert!(e.reason.contains("Libellé"), "{}", e.reason);
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("read as windows-1252")),
        "{:?}",
        b.notes
    );
}

#[test]
fn every_whatwg_label_is_accepted_by_encoding() {
    let bytes = latin1(FRENCH);
    for label in [
        "latin1",
        "windows-1252",
        "iso-8859-1",
        "cp1252",
        "ISO-8859-15",
    ] {
        let o = run_with_stdin(
            &["audit", "--format", "json", "--encoding", label, "-"],
            &bytes,
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("\"total\": \"374.50\""),
            "{label}: {out}\n{}",
            stderr(&o)
        );
    }
    let o = run_with_stdin(&["audit", "--encoding", "klingon", "-"], &bytes);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("unknown encoding `klingon`"), "{e}");
    assert!(e.contains("windows-1252") && e.contains("shift_jis"), "{e}");
}

/// A usage error on standard input is reported whatever the input: 4 MiB
/// piped to a run that stops at `--encoding klingon` without reading it
/// (the write fails with a broken pipe, which the test helper takes as the
/// run's own business: before, it panicked, and `every_whatwg_label_...`,
/// piping a few hundred bytes, failed now and then on that race).
#[test]
fn a_usage_error_on_standard_input_is_reported_however_large_the_input() {
    let big = "Description,Amount\nGPU,1.00\n".repeat(4 << 20 >> 5);
    let o = run_with_stdin(&["audit", "--encoding", "klingon", "-"], big.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown encoding `klingon`"),
        "{}",
        stderr(&o)
    );
}

/// A Japanese GPU cloud bill saved as Shift_JIS, with a subtotal, the
/// consumption tax and a total.
const JAPANESE: &str = "請求日,サービス名,項目,数量,単価,金額\n\
2025-11-30,GPUクラウド,GPUインスタンス A100,10,300,3000\n\
2025-11-30,GPUクラウド,データ転送,50,10,500\n\
2025-11-30,,小計,,,3500\n\
2025-11-30,,消費税,,,350\n\
2025-11-30,,合計,,,3850\n";

#[test]
fn a_shift_jis_japanese_bill_is_detected() {
    // On main: "no header row found" (the bytes were taken for GBK).
    let bytes = encoding_rs::SHIFT_JIS.encode(JAPANESE).0.into_owned();
    assert!(std::str::from_utf8(&bytes).is_err());
    let b = audit_with("ja.csv", &bytes, &billaudit::Options::default());
    // Items 3000 + 500 + the tax 350 = 3850; 小計 3500 and 合計 3850 are stated.
    assert_eq!(b.total, d("3850"));
    assert_eq!(b.totals.get(Category::Tax), d("350"));
    assert_eq!(b.stated_subtotal, Some(d("3500")));
    assert_eq!(b.stated_total, Some(d("3850")));
    assert_eq!(b.line_items, 3);
    let e = b.encoding.as_ref().expect("encoding reported");
    assert_eq!(e.name, "Shift_JIS");
    // `--encoding shift_jis` and `euc-jp` (on the EUC-JP bytes) read it too.
    let o = run_with_stdin(
        &["audit", "--format", "json", "--encoding", "shift_jis", "-"],
        &bytes,
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"total\": \"3850\""));
    let euc = encoding_rs::EUC_JP.encode(JAPANESE).0.into_owned();
    let o = run_with_stdin(
        &["audit", "--format", "json", "--encoding", "euc-jp", "-"],
        &euc,
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("\"total\": \"3850\""),
        "{}",
        stderr(&o)
    );
}

// ---- A recognised header that names no description -------------------------

fn fixture(rel: &str) -> Bill {
    let path = crate::common::root().join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    audit_with(rel, &bytes, &billaudit::Options::default())
}

/// The hidden fees of the two German GPU-cloud invoices below: on main both
/// read every item as `other` (the amount, quantity and unit price were
/// recognised, the description was not), hidden 0, and the bill passed.
fn assert_hidden(b: &Bill, hidden: &str, share: &str) {
    assert_eq!(b.totals.get(Category::Other), d("0"), "{:?}", b.totals);
    assert_eq!(b.hidden, d(hidden));
    assert_eq!(
        b.hidden_share.map(|s| s.round_dp(6)),
        Some(d(share)),
        "{:?}",
        b.totals
    );
    assert!(has(b, "hidden-fee-share"), "{:?}", b.findings);
}

#[test]
fn a_bilingual_header_cell_names_its_column_by_either_name() {
    // `Leistung / Service`: `Leistung` is a German description header.
    let b = fixture("fixtures/csv/de-bilingual-header.csv");
    // Items: GPU 310 x 0,55 = 170,50; egress 12,00; snapshot 10,00;
    // cluster management 15,00; NVMe 30,00 = 237,50 (the Zwischensumme);
    // MwSt. 45,13 (19% of 237,50 = 45,125); Gesamtbetrag 282,63.
    assert_eq!(b.subtotal, d("237.50"));
    assert_eq!(b.total, d("282.63"));
    assert_eq!(b.totals.get(Category::Compute), d("170.50"));
    assert_eq!(b.totals.get(Category::Storage), d("30.00"));
    // Hidden 12,00 + 10,00 + 15,00 = 37,00; 37 / 237,50 = 0.155789...
    assert_hidden(&b, "37.00", "0.155789");
    // Named by the header: nothing inferred.
    assert!(b.inferred_columns.is_empty(), "{:?}", b.inferred_columns);
}

#[test]
fn a_header_without_a_description_takes_it_from_the_content() {
    // `Artikeltext` is in no vocabulary; the amount, quantity and unit
    // price are named, so the header is recognised, and the description is
    // the free text column with the most distinct values.
    let b = fixture("fixtures/csv/de-unknown-description-header.csv");
    // 100 x 1,90 = 190,00; 8,00; 10,00; 12,00: 220,00; MwSt. 41,80
    // (19% of 220,00); Gesamtbetrag 261,80.
    assert_eq!(b.total, d("261.80"));
    assert_eq!(b.totals.get(Category::Compute), d("190.00"));
    // Hidden 8,00 + 10,00 + 12,00 = 30,00; 30 / 220 = 0.136364 (0.13636...).
    assert_hidden(&b, "30.00", "0.136364");
    let c = b
        .inferred_columns
        .iter()
        .find(|c| c.role.as_str() == "description")
        .expect("the description is reported as inferred");
    assert_eq!((c.column, c.header.as_deref()), (1, Some("Artikeltext")));
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("inferred description = column 2 `Artikeltext`")),
        "{:?}",
        b.notes
    );
}

/// A French invoice saved from a spreadsheet: the title line padded to the
/// table's width with `;`, a header no vocabulary knows whole (`Montant
/// HT`, `Prix unitaire HT`), `Total HT` / `TVA 20 %` / `Total TTC` rows.
const FR_PADDED_TITLE: &str = "Facture N° F-2025-0931;;;\n\
Désignation;Quantité;Prix unitaire HT;Montant HT\n\
Location GPU H100 (heures);200;2,40;480,00\n\
Stockage bloc 500 Go;1;25,00;25,00\n\
Sauvegarde / snapshots;1;15,00;15,00\n\
Trafic sortant (Go);900;0,02;18,00\n\
Frais de gestion du cluster;1;40,00;40,00\n\
Total HT;;;578,00\n\
TVA 20 %;;;115,60\n\
Total TTC;;;693,60\n";

#[test]
fn a_title_line_padded_to_the_table_width_is_not_its_header() {
    // On main before the title-line rule: refused, `no header row found`
    // (the title line was taken as the header, so `Montant HT` was a text
    // cell of the amount column). Since `Montant HT` is a named amount
    // header (vocab/headers.rs) the header row is known whole.
    let b = audit("facture.csv", FR_PADDED_TITLE);
    assert_eq!(b.format, "generic-csv");
    assert_french_invoice_figures(&b);
}

#[test]
fn a_padded_title_line_over_a_header_no_vocabulary_knows_is_inferred() {
    // The same invoice with an amount header no vocabulary names
    // (`Valeur HT`): the columns are inferred from the content.
    let b = audit(
        "facture.csv",
        &FR_PADDED_TITLE.replace("Montant HT", "Valeur HT"),
    );
    assert_eq!(b.format, "inferred-csv");
    assert_french_invoice_figures(&b);
    // The unit price's reason names the other factor, the quantity (column 2).
    assert!(
        b.notes.iter().any(|n| n
            == "inferred unit_price = column 3 `Prix unitaire HT`: times column 2 equals the amount on 5 of 8 rows"),
        "{:?}",
        b.notes
    );
}

fn assert_french_invoice_figures(b: &Bill) {
    // 200 x 2,40 = 480,00; 25,00; 15,00; 900 x 0,02 = 18,00; 40,00:
    // 578,00 (the Total HT); TVA 115,60 (20%); Total TTC 693,60.
    assert_eq!(b.subtotal, d("578.00"));
    assert_eq!(b.totals.get(Category::Tax), d("115.60"));
    assert_eq!(b.total, d("693.60"));
    // Hidden 15,00 + 18,00 + 40,00 = 73,00.
    assert_eq!(b.hidden, d("73.00"));
    assert_eq!(
        b.skipped.total(),
        2,
        "Total HT and Total TTC state the lines"
    );
}

#[test]
fn a_spanish_taxable_base_row_is_a_subtotal_and_plural_backups_are_replicas() {
    let csv = "Concepto,Cantidad,Precio,Importe\n\
Servidor GPU RTX 4090 (horas),300,0.50,150.00\n\
Almacenamiento SSD,1,20.00,20.00\n\
Copias de seguridad,1,8.00,8.00\n\
Tráfico de salida,1,6.00,6.00\n\
Base imponible,,,184.00\n\
IVA 21%,,,38.64\n\
Total,,,222.64\n";
    // On main: `Base imponible` was summed as an item (total 406.64 against
    // the stated 222.64) and `Copias de seguridad` was `other`.
    let b = audit("factura.csv", csv);
    // 150,00 + 20,00 + 8,00 + 6,00 = 184,00; IVA 38,64 (21% of 184);
    // total 222,64.
    assert_eq!(b.subtotal, d("184.00"));
    assert_eq!(b.total, d("222.64"));
    assert_eq!(b.stated_subtotal, Some(d("184.00")));
    assert_eq!(b.totals.get(Category::StorageReplica), d("8.00"));
    // Hidden 8,00 + 6,00 = 14,00.
    assert_eq!(b.hidden, d("14.00"));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
}

// ---- A subtotal under a label no vocabulary knows ---------------------------

#[test]
fn an_unlabelled_subtotal_the_stated_total_proves_is_set_aside() {
    let csv = "Concepto,Cantidad,Precio,Importe\n\
Servidor GPU RTX 4090 (horas),300,0.50,150.00\n\
Almacenamiento SSD,1,20.00,20.00\n\
Tráfico de salida,1,6.00,6.00\n\
Suma neta,,,176.00\n\
IVA 21%,,,36.96\n\
Total,,,212.96\n";
    // On main `Suma neta` was summed as an `other` item: total 388.96
    // against the stated 212.96, a total-mismatch error and a 1.70%
    // hidden share. 150,00 + 20,00 + 6,00 = 176,00 = `Suma neta`; with the
    // IVA 36,96 (21% of 176) the lines make 212,96 = the Total only
    // without it.
    let b = audit("factura.csv", csv);
    assert_eq!(b.total, d("212.96"));
    assert_eq!(b.subtotal, d("176.00"));
    assert_eq!(b.totals.get(Category::Other), d("0"));
    assert_eq!(b.line_items, 4, "3 items and the IVA");
    assert_eq!(b.skipped.summary, 2, "Suma neta and Total");
    assert_eq!(b.stated_subtotal, Some(d("176.00")));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    // Hidden 6,00 / 176,00 = 3.41%.
    assert_eq!(b.hidden, d("6.00"));
    assert!(
        b.notes.iter().any(|n| n.starts_with(
            "line 5 `Suma neta` (176.00) is the sum of the 3 items above it, and the stated total 212.96 agrees only without it"
        )),
        "{:?}",
        b.notes
    );
}

#[test]
fn a_fee_equal_to_the_items_above_stays_an_item_when_the_total_counts_it() {
    // 4.00 + 6.00 = 10.00, and the support fee is 10.00 too; the stated
    // total 20.00 = 4.00 + 6.00 + 10.00 counts it: an item.
    let with_total =
        "Description,Amount\nGPU hours,4.00\nDisk,6.00\nSupport fee,10.00\nTotal,20.00\n";
    let b = audit("fee.csv", with_total);
    assert_eq!((b.total, b.line_items), (d("20.00"), 3));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert!(
        !b.notes.iter().any(|n| n.contains("not summed")),
        "{:?}",
        b.notes
    );
    // No total to decide: an item as read (4.00 + 6.00 + 10.00 = 20.00).
    let no_total = "Description,Amount\nGPU hours,4.00\nDisk,6.00\nSupport fee,10.00\n";
    let b = audit("fee.csv", no_total);
    assert_eq!((b.total, b.line_items), (d("20.00"), 3));
}

#[test]
fn a_numbered_item_column_is_not_the_description() {
    // `Item` (a word for the description) over 1, 2, 3, beside the
    // `Description` column, with net, VAT and gross amounts. On main every
    // line was classified by its number: `other`, the first `1`, and the
    // 5.41% hidden share passed.
    let csv = "Item,Description,Qty,Unit Price,Net Amount,VAT,Gross Amount\n\
1,H100 GPU hours,10,3.00,30.00,6.00,36.00\n\
2,Object storage,1,5.00,5.00,1.00,6.00\n\
3,Egress,1,2.00,2.00,0.40,2.40\n\
,Total,,,37.00,7.40,44.40\n";
    let b = audit("invoice.csv", csv);
    // 10 x 3.00 = 30.00 compute; 5.00 storage; 2.00 egress: 37.00.
    assert_eq!(b.totals.get(Category::Compute), d("30.00"));
    assert_eq!(b.totals.get(Category::Storage), d("5.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("2.00"));
    assert_eq!(b.subtotal, d("37.00"));
    // 2.00 / 37.00 = 5.41%: above 5%.
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
    assert!(!has(&b, "unclassified-items"), "{:?}", b.findings);
}

#[test]
fn the_currency_an_amount_cell_names_is_the_bills() {
    // On main: currency unknown (only symbols were looked for, in every
    // cell), though the amounts say USD.
    let csv = "Description,Amount\nGPU hours,120.00 USD\nEgress,5.00 USD\n";
    let b = audit("codes.csv", csv);
    assert_eq!(b.currency.as_deref(), Some("USD"));
    // 120.00 + 5.00 = 125.00.
    assert_eq!(b.total, d("125.00"));
    // A `$` in a description does not outvote the euro amounts.
    let csv = "Description,Amount\nGPU hours ($2.50/h list),€120.00\nEgress,€5.00\n";
    let b = audit("euro.csv", csv);
    assert_eq!(b.currency.as_deref(), Some("EUR"));
    assert_eq!(
        b.currency_note.as_deref(),
        Some("no currency column; assumed EUR from `€120.00` in the amount column")
    );
}
