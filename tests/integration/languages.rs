//! Invoices exported as CSV in languages and number styles no fixture
//! here had: Dutch and Swedish comma-delimited files that quote decimal
//! commas, Korean, Polish, Russian, Turkish and Czech summary rows and
//! fee names, tax rates written `%20` and `21 %`, a currency named by a
//! header word, a semicolon file with decimal points. On main each of
//! these was wrong (the figures are in each test); every expected figure
//! here is hand arithmetic written beside it.

use billaudit::Category;

use crate::csv_shapes::{audit, d, has};

#[test]
fn a_comma_delimited_dutch_invoice_with_quoted_decimal_commas() {
    let csv = "Omschrijving,Aantal,Prijs,Bedrag\n\
GPU-server H100 (uur),10,\"3,00\",\"30,00\"\n\
Opslag,1,\"5,00\",\"5,00\"\n\
Momentopnamen (snapshots),1,\"2,00\",\"2,00\"\n\
Uitgaand dataverkeer,1,\"1,50\",\"1,50\"\n\
Subtotaal,,,\"38,50\"\n\
BTW 21%,,,\"8,09\"\n\
Totaal,,,\"46,59\"\n";
    // On main `"30,00"` was no number (a point file, because the cells are
    // parted by commas), so the quantity column was read as the amount:
    // total 13 (10 + 1 + 1 + 1).
    let b = audit("factuur.csv", csv);
    // 10 x 3,00 = 30,00; 5,00; 2,00; 1,50: 38,50 (the Subtotaal);
    // BTW 8,09 (21% of 38,50 = 8,085); Totaal 46,59.
    assert_eq!(b.subtotal, d("38.50"));
    assert_eq!(b.totals.get(Category::Tax), d("8.09"));
    assert_eq!(b.total, d("46.59"));
    // Hidden: snapshots 2,00 + traffic 1,50 = 3,50.
    assert_eq!(b.hidden, d("3.50"));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert!(
        b.notes.iter().any(|n| n
            == "numbers read with a decimal comma: cells such as `3,00` can be read no other way (the cells are parted by a comma)"),
        "{:?}",
        b.notes
    );
}

#[test]
fn a_comma_delimited_swedish_invoice_with_quoted_decimal_commas() {
    let csv = "Beskrivning,Antal,Pris,Belopp\n\
GPU-server A100 (timmar),40,\"25,00\",\"1000,00\"\n\
Lagring,1,\"80,00\",\"80,00\"\n\
Säkerhetskopior,1,\"40,00\",\"40,00\"\n\
Datatrafik ut,1,\"30,00\",\"30,00\"\n\
Delsumma,,,\"1150,00\"\n\
Moms 25%,,,\"287,50\"\n\
Att betala,,,\"1437,50\"\n";
    // On main: total 43 (the quantities), nothing hidden.
    let b = audit("faktura.csv", csv);
    // 40 x 25,00 = 1000,00; 80,00; 40,00; 30,00: 1150,00 (Delsumma);
    // moms 287,50 (25%); att betala 1437,50.
    assert_eq!(b.subtotal, d("1150.00"));
    assert_eq!(b.totals.get(Category::Storage), d("80.00"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("40.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("30.00"));
    assert_eq!(b.total, d("1437.50"));
    // 70,00 / 1150,00 = 6.09%: above 5%.
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
}

#[test]
fn a_korean_invoice_with_supply_value_vat_and_total_rows() {
    let csv = "품목,수량,단가,금액\n\
GPU 서버 A100 사용료,100,2500,250000\n\
스토리지 사용료,1,30000,30000\n\
스냅샷 백업,1,15000,15000\n\
네트워크 아웃바운드 트래픽,1,20000,20000\n\
관리 수수료,1,25000,25000\n\
공급가액,,,340000\n\
부가세(10%),,,34000\n\
합계,,,374000\n";
    // On main the three summary rows were items and every fee `other`:
    // total 1088000, nothing hidden, the bill passed.
    let b = audit("청구서.csv", csv);
    // 250000 + 30000 + 15000 + 20000 + 25000 = 340000 (공급가액);
    // 부가세 34000 (10%); 합계 374000.
    assert_eq!(b.subtotal, d("340000"));
    assert_eq!(b.totals.get(Category::Tax), d("34000"));
    assert_eq!(b.total, d("374000"));
    assert_eq!(b.totals.get(Category::Compute), d("250000"));
    assert_eq!(b.totals.get(Category::Storage), d("30000"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("15000"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("20000"));
    assert_eq!(b.totals.get(Category::Scheduling), d("25000"));
    // Hidden 15000 + 20000 + 25000 = 60000 = 17.65% of 340000.
    assert_eq!(b.hidden, d("60000"));
    assert!(has(&b, "hidden-fee-share"), "{:?}", b.findings);
    assert_eq!(b.skipped.summary, 2, "공급가액 and 합계");
}

#[test]
fn a_polish_invoice_with_net_and_gross_totals() {
    let csv = "Nazwa usługi;Ilość;Cena netto;Wartość netto\n\
Wynajem GPU A100 (godz.);50;10,00;500,00\n\
Przestrzeń dyskowa;1;40,00;40,00\n\
Kopie zapasowe;1;20,00;20,00\n\
Transfer wychodzący;1;15,00;15,00\n\
Opłata za zarządzanie klastrem;1;60,00;60,00\n\
Razem netto;;;635,00\n\
VAT 23%;;;146,05\n\
Razem brutto;;;781,05\n";
    // On main `Razem netto` and `Razem brutto` were items (total 2197,10)
    // and every fee `other`.
    let b = audit("faktura.csv", csv);
    // 500 + 40 + 20 + 15 + 60 = 635,00 (netto); VAT 146,05 (23%); 781,05.
    assert_eq!(b.subtotal, d("635.00"));
    assert_eq!(b.total, d("781.05"));
    assert_eq!(b.totals.get(Category::Storage), d("40.00"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("20.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("15.00"));
    assert_eq!(b.totals.get(Category::Scheduling), d("60.00"));
    // 20 + 15 + 60 = 95,00 hidden.
    assert_eq!(b.hidden, d("95.00"));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
}

#[test]
fn a_russian_invoice_in_capitals_with_space_grouped_thousands() {
    let csv = "Наименование;Кол-во;Цена;Сумма\n\
Аренда GPU A100, час;100;250,00;25 000,00\n\
Хранилище SSD;1;1 200,00;1 200,00\n\
Резервное копирование;1;800,00;800,00\n\
Исходящий трафик;1;500,00;500,00\n\
Итого;;;27 500,00\n\
НДС 20%;;;5 500,00\n\
Всего к оплате;;;33 000,00\n";
    // On main `Итого` was no label (only ASCII was lowercased before the
    // lookup) and no Russian fee word was known: total 93 500,00.
    let b = audit("счет.csv", csv);
    // 25 000 + 1 200 + 800 + 500 = 27 500; НДС 5 500 (20%); 33 000.
    assert_eq!(b.subtotal, d("27500.00"));
    assert_eq!(b.totals.get(Category::Tax), d("5500.00"));
    assert_eq!(b.total, d("33000.00"));
    // Backups 800 + outbound traffic 500 = 1 300 hidden.
    assert_eq!(b.totals.get(Category::StorageReplica), d("800.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("500.00"));
    assert_eq!(b.hidden, d("1300.00"));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
}

#[test]
fn turkish_and_czech_tax_rates_written_before_or_apart_from_the_percent_sign() {
    let tr = "Açıklama;Miktar;Birim Fiyat;Tutar\n\
GPU sunucu kiralama (saat);200;12,50;2.500,00\n\
Depolama (SSD);1;150,00;150,00\n\
Yedekleme;1;90,00;90,00\n\
Veri transferi (çıkış);1;60,00;60,00\n\
Küme yönetimi ücreti;1;250,00;250,00\n\
Ara Toplam;;;3.050,00\n\
KDV %20;;;610,00\n\
Genel Toplam;;;3.660,00\n";
    // On main `KDV %20` was an `other` item and the rest unknown.
    let b = audit("fatura.csv", tr);
    // 200 x 12,50 = 2.500; 150; 90; 60; 250: 3.050 (Ara Toplam); KDV 610
    // (20%); Genel Toplam 3.660.
    assert_eq!(b.subtotal, d("3050.00"));
    assert_eq!(b.totals.get(Category::Tax), d("610.00"));
    assert_eq!(b.total, d("3660.00"));
    // 90 + 60 + 250 = 400 hidden: 13.11%.
    assert_eq!(b.hidden, d("400.00"));
    assert_eq!(b.totals.get(Category::Scheduling), d("250.00"));
    assert!(!has(&b, "subtotal-mismatch"), "{:?}", b.findings);

    let cs = "Položka;Množství;Cena za jednotku;Cena celkem\n\
Pronájem GPU serveru (hod.);100;30,00;3 000,00\n\
Úložiště;1;200,00;200,00\n\
Zálohování;1;100,00;100,00\n\
Přenos dat;1;50,00;50,00\n\
Mezisoučet;;;3 350,00\n\
DPH 21 %;;;703,50\n\
Celkem k úhradě;;;4 053,50\n";
    // On main `DPH 21 %` was an item: subtotal 4 053,50 against 3 350,00.
    let b = audit("faktura.csv", cs);
    // 3 000 + 200 + 100 + 50 = 3 350; DPH 703,50 (21%); 4 053,50.
    assert_eq!(b.subtotal, d("3350.00"));
    assert_eq!(b.totals.get(Category::Tax), d("703.50"));
    assert_eq!(b.total, d("4053.50"));
    assert_eq!(b.totals.get(Category::Storage), d("200.00"));
    assert_eq!(b.hidden, d("150.00"));
    assert!(!has(&b, "subtotal-mismatch"), "{:?}", b.findings);
}

#[test]
fn a_currency_named_by_a_header_word_when_the_columns_are_inferred() {
    let csv = "Position,Menge,Preis CHF,Betrag CHF\n\
GPU Instanz A100 Stunden,1000,2.50,2'500.00\n\
Objektspeicher,1,120.00,120.00\n\
Total,,,2'620.00\n";
    // On main: `currency unknown` (only a bracketed `(CHF)` was read when
    // the columns were inferred).
    let b = audit("rechnung.csv", csv);
    assert_eq!(b.currency.as_deref(), Some("CHF"));
    // 1000 x 2.50 = 2'500.00 + 120.00 = 2'620.00.
    assert_eq!(b.total, d("2620.00"));
    assert_eq!(
        b.currency_note.as_deref(),
        Some("no currency column; assumed CHF from the header `Betrag CHF`")
    );
}

#[test]
fn a_semicolon_file_with_decimal_points_is_read_with_points() {
    // `5.00` can only be a decimal point, so `0.125` and `1.250` are not
    // thousands groups. On main the semicolon made every `.` a group:
    // 1.250 read as 1250, total 1255.00.
    let csv = "Omschrijving;Aantal;Prijs;Bedrag\nGPU H100 uur;10;0.125;1.250\nOpslag;1;5.00;5.00\n";
    let b = audit("bill.csv", csv);
    // 10 x 0.125 = 1.250; + 5.00 = 6.250.
    assert_eq!(b.total, d("6.250"));
    assert_eq!(b.totals.get(Category::Compute), d("1.250"));
    assert!(!has(&b, "line-arithmetic"), "{:?}", b.findings);
}

#[test]
fn a_russian_text_invoice_with_space_grouped_thousands() {
    let txt = "                         СЧЁТ № 2025-118
ООО «ГПУ Облако»                               Дата: 30.11.2025

Наименование                          Кол-во     Цена        Сумма
Аренда GPU RTX 4090 (час)               300     45,00    13 500,00
Хранилище NVMe 1 ТБ                       1  1 500,00     1 500,00
Снимки дисков                             1    600,00       600,00
Исходящий трафик, ГБ                    500      1,20       600,00
Плата за управление кластером             1  1 800,00     1 800,00

Итого без НДС:                                          18 000,00
НДС 20%:                                                 3 600,00
Всего к оплате:                                         21 600,00
";
    // On main: 3 items, the stated subtotal read as 0.00 (`000,00`) and
    // the total as 600.00, the four lines with a grouped amount unparsed.
    let b = audit("счет.txt", txt);
    assert_eq!(b.format, "text-invoice");
    // 300 x 45,00 = 13 500; 1 500; 600; 500 x 1,20 = 600; 1 800: 18 000.
    assert_eq!(b.subtotal, d("18000.00"));
    assert_eq!(b.stated_subtotal, Some(d("18000.00")));
    assert_eq!(b.totals.get(Category::Tax), d("3600.00"));
    assert_eq!(b.total, d("21600.00"));
    // Snapshots 600 + traffic 600 + management 1 800 = 3 000 hidden.
    assert_eq!(b.hidden, d("3000.00"));
    assert_eq!(b.totals.get(Category::Scheduling), d("1800.00"));
    // The date line is a header, not an unparsed amount.
    assert!(!has(&b, "unparsed-line"), "{:?}", b.findings);
    assert_eq!(b.line_items, 6, "five items and the НДС");
}

#[test]
fn an_indian_invoice_in_lakh_grouping_with_igst() {
    let csv = "Description,Qty,Rate,Amount\n\
GPU A100 rental (hours),500,\"₹250.00\",\"₹1,25,000.00\"\n\
Block storage,1,\"₹8,000.00\",\"₹8,000.00\"\n\
Snapshot backup,1,\"₹4,000.00\",\"₹4,000.00\"\n\
Data transfer out,1,\"₹3,000.00\",\"₹3,000.00\"\n\
Sub Total,,,\"₹1,40,000.00\"\n\
IGST 18%,,,\"₹25,200.00\"\n\
Total,,,\"₹1,65,200.00\"\n";
    // On main the three lakh-grouped amounts were refused as ambiguous
    // (the GPU rental kept out of the totals), `IGST 18%` was an `other`
    // item and the currency unknown: total 40 200,00.
    let b = audit("invoice.csv", csv);
    assert_eq!(b.currency.as_deref(), Some("INR"));
    assert_eq!(
        b.currency_note.as_deref(),
        Some("no currency column; assumed INR from `₹1,25,000.00` in the amount column")
    );
    // 500 x 250 = 1,25,000; + 8,000 + 4,000 + 3,000 = 1,40,000 (Sub Total);
    // IGST 25,200 (18%); Total 1,65,200.
    assert_eq!(b.subtotal, d("140000.00"));
    assert_eq!(b.totals.get(Category::Tax), d("25200.00"));
    assert_eq!(b.total, d("165200.00"));
    // Hidden 4,000 + 3,000 = 7,000 = 5.00% of 1,40,000: at the threshold,
    // not above it.
    assert_eq!(b.hidden, d("7000.00"));
    assert!(!has(&b, "hidden-fee-share"), "{:?}", b.findings);
    assert!(!has(&b, "unparsable-value"), "{:?}", b.findings);
}

#[test]
fn a_russian_text_invoice_with_one_decimal_comma_per_line_and_vat_included() {
    let txt = "ООО \"ГПУ Облако\"                       Счёт № 118 от 30.11.2025

Наименование                                   Кол-во      Сумма
Аренда GPU A100, часы                           100     10 000,00
Хранилище, ГБ-мес                               200      1 500,00
Резервные копии (снапшоты)                      200        500,00

Итого:                                                  12 000,00
В том числе НДС (20%):                                   2 000,00
Всего к оплате:                                         12 000,00
";
    // On main: read as a CSV of two columns split at the decimal commas,
    // every amount the `00` after the comma: total 0.00, nothing flagged.
    let b = audit("счет-118.txt", txt);
    assert_eq!(b.format, "text-invoice");
    // 10 000 + 1 500 + 500 = 12 000 = Итого = Всего к оплате.
    assert_eq!(b.subtotal, d("12000.00"));
    assert_eq!(b.total, d("12000.00"));
    assert_eq!(b.stated_total, Some(d("12000.00")));
    // The НДС is inside the 12 000 (в том числе: "of which"): not added.
    assert_eq!(b.totals.get(Category::Tax), d("0"));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    assert_eq!(b.totals.get(Category::StorageReplica), d("500.00"));
    assert_eq!(b.line_items, 3);
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("line 9 states the tax already included")),
        "{:?}",
        b.notes
    );
}

#[test]
fn an_english_text_invoice_whose_vat_line_is_included_in_the_total() {
    let txt = "GPU Cloud GmbH                         Invoice 2025-118

Description                                   Qty      Amount
GPU rental A100, hours                        100    1,000.00
Object storage, GB-month                      200      150.00
Snapshots                                     200       50.00

Total                                                1,200.00
Including VAT 20%                                      200.00
";
    // On main `Including VAT 20%` was an item classified as tax: total
    // 1 400.00 and a total-mismatch error against the stated 1 200.00.
    let b = audit("invoice.txt", txt);
    // 1 000 + 150 + 50 = 1 200 = Total; the 200 VAT is inside it.
    assert_eq!(b.total, d("1200.00"));
    assert_eq!(b.totals.get(Category::Tax), d("0"));
    assert!(!has(&b, "total-mismatch"), "{:?}", b.findings);
    // Replicas 50 / 1 200 = 4.17%: within 5%.
    assert_eq!(b.hidden, d("50.00"));
    assert!(!has(&b, "hidden-fee-share"), "{:?}", b.findings);
}
