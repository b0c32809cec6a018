//! Columns people actually name: the generic header names of every language
//! (`src/vocab/headers.rs`), known profiles' headers in any case, and what
//! the report says about a file without a currency column.

use std::str::FromStr;

use billaudit::{Bill, Category};
use rust_decimal::Decimal;

use crate::common::{fixture, run, stdout};

pub(crate) fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

pub(crate) fn audit(name: &str, csv: &str) -> Bill {
    let mut bills = billaudit::audit_bytes(name, csv.as_bytes(), &billaudit::Options::default())
        .unwrap_or_else(|e| panic!("{name}: {e}\n{csv}"));
    assert_eq!(bills.len(), 1, "{name}: one bill");
    bills.remove(0)
}

/// The line numbers of a bill's findings of `code`.
pub(crate) fn lines_of(b: &Bill, code: &str) -> Vec<Option<u64>> {
    b.findings
        .iter()
        .filter(|f| f.code == code)
        .map(|f| f.line)
        .collect()
}

#[test]
fn a_plain_chinese_csv_is_classified_by_its_item_column() {
    // `项目` is the item (description) column: on main it was not, and all
    // three rows fell into `other`.
    let csv = "日期,项目,金额,币种\n\
               2024-11-01,GPU实例 RTX 4090,36.00,CNY\n\
               2024-11-01,公网流量,4.00,CNY\n\
               2024-11-01,云盘快照,2.00,CNY\n";
    let b = audit("cn.csv", csv);
    assert_eq!(b.format, "generic-csv");
    assert_eq!(b.currency.as_deref(), Some("CNY"));
    assert_eq!(b.totals.get(Category::Compute), d("36.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("4.00"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("2.00"));
    assert_eq!(b.totals.get(Category::Other), d("0"));
    // 36.00 + 4.00 + 2.00 = 42.00; hidden 4.00 + 2.00 = 6.00
    assert_eq!(b.total, d("42.00"));
    assert_eq!(b.hidden, d("6.00"));
    assert!(lines_of(&b, "unclassified-items").is_empty());
    // The currency column is there: nothing to note.
    assert_eq!(b.currency_note, None);
}

/// One bill per language: a GPU line whose arithmetic adds up and a
/// transfer line whose does not, so `line-arithmetic` on line 3 (and only
/// there) shows that quantity and unit price were both mapped.
#[test]
fn german_french_spanish_and_japanese_headers_map_every_role() {
    let bills = [
        (
            "de.csv",
            // `;` file: decimal comma. 10 x 1,50 = 15,00; 100 x 0,01 = 1,00 != 2,00
            "Datum;Beschreibung;Menge;Einheit;Einzelpreis;Betrag;Währung\n\
             2024-11-01;GPU instance A100;10;h;1,50;15,00;EUR\n\
             2024-11-01;Data transfer out;100;GB;0,01;2,00;EUR\n",
            "EUR",
        ),
        (
            "fr.csv",
            // 10 x 1.50 = 15.00; 100 x 0.01 = 1.00 != 2.00
            "Date,Libellé,Quantité,Unité,Prix unitaire,Montant,Devise\n\
             2024-11-01,GPU instance A100,10,h,1.50,15.00,EUR\n\
             2024-11-01,Data transfer out,100,GB,0.01,2.00,EUR\n",
            "EUR",
        ),
        (
            "es.csv",
            "Fecha,Concepto,Cantidad,Unidad,Precio unitario,Importe,Moneda\n\
             2024-11-01,GPU instance A100,10,h,1.50,15.00,EUR\n\
             2024-11-01,Data transfer out,100,GB,0.01,2.00,EUR\n",
            "EUR",
        ),
        (
            "ja.csv",
            "日付,項目,数量,単位,単価,金額,通貨\n\
             2024-11-01,GPU instance A100,10,h,150,1500,JPY\n\
             2024-11-01,Data transfer out,100,GB,1,200,JPY\n",
            "JPY",
        ),
    ];
    for (name, csv, currency) in bills {
        let b = audit(name, csv);
        assert_eq!(b.format, "generic-csv", "{name}");
        assert_eq!(b.currency.as_deref(), Some(currency), "{name}");
        assert_eq!(b.currency_note, None, "{name}");
        let (compute, bandwidth) = if currency == "JPY" {
            // 10 x 150 = 1500; the transfer line states 200 (100 x 1 = 100)
            (d("1500"), d("200"))
        } else {
            (d("15.00"), d("2.00"))
        };
        assert_eq!(b.totals.get(Category::Compute), compute, "{name}");
        assert_eq!(b.totals.get(Category::Bandwidth), bandwidth, "{name}");
        assert_eq!(b.total, compute + bandwidth, "{name}");
        assert_eq!(lines_of(&b, "line-arithmetic"), vec![Some(3)], "{name}");
        assert!(lines_of(&b, "unclassified-items").is_empty(), "{name}");
    }
}

#[test]
fn generic_headers_match_in_any_case_with_spaces_trimmed() {
    // 2 x 4.00 = 8.00 compute; 1 x 1.00 = 1.00 bandwidth; total 9.00
    let csv = "  DATUM , beschreibung ,MENGE,  einzelpreis,BETRAG ,währung\n\
               2024-11-01,GPU instance A100,2,4.00,8.00,EUR\n\
               2024-11-01,Data transfer out,1,1.00,1.00,EUR\n";
    let b = audit("de-case.csv", csv);
    assert_eq!(b.format, "generic-csv");
    assert_eq!(b.currency.as_deref(), Some("EUR"));
    assert_eq!(b.totals.get(Category::Compute), d("8.00"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("1.00"));
    assert_eq!(b.total, d("9.00"));
    assert!(b.findings.iter().all(|f| f.code != "line-arithmetic"));
}

#[test]
fn lowercase_azure_cost_details_without_a_currency_column() {
    // fixtures/cloud/azure-lowercase-no-currency-2024-11.csv: the real EA
    // header set, lowercased, without `billingcurrencycode`.
    let path = fixture("cloud/azure-lowercase-no-currency-2024-11.csv");
    let bytes = std::fs::read(&path).unwrap();
    let b = audit("azure-lc.csv", std::str::from_utf8(&bytes).unwrap());
    assert_eq!(b.format, "azure");
    // 30.60 + 19.71 + 4.58 + 4.35 = 59.24 (see the expect file)
    assert_eq!(b.totals.get(Category::Compute), d("30.60"));
    assert_eq!(b.totals.get(Category::Storage), d("19.71"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("4.58"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("4.35"));
    assert_eq!(b.total, d("59.24"));
    assert_eq!(b.currency, None);
    let note = b.currency_note.as_deref().unwrap_or_default();
    assert!(note.starts_with("no currency column"), "{note}");

    // The same header in mixed case with stray spaces around the names.
    let header = "  Date ,METERCATEGORY, metersubcategory ,MeterName,quantity,UNITOFMEASURE,costInBillingCurrency ";
    // 10 x 3.06 = 30.60 compute; 50 x 0.087 = 4.35 bandwidth; total 34.95
    let csv = format!(
        "{header}\n\
         11/01/2024,Virtual Machines,NCv3 Series,NC6s v3,10,1 Hour,30.60\n\
         11/01/2024,Bandwidth,Rtn Preference: MGN,Standard Data Transfer Out,50,1 GB,4.35\n"
    );
    let b = audit("azure-mixed.csv", &csv);
    assert_eq!(b.format, "azure");
    assert_eq!(b.totals.get(Category::Compute), d("30.60"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("4.35"));
    assert_eq!(b.total, d("34.95"));
}

#[test]
fn azure_cost_details_with_only_a_cost_and_a_meter_column() {
    // The shape from the issue: lower-case `costinbillingcurrency` beside one
    // meter column and nothing else. One meter column alone is not enough
    // for the signature, but the Azure cost column names are Azure's own.
    // 30.60 compute + 4.35 bandwidth = 34.95
    let csv = "costinbillingcurrency,metercategory\n30.60,Virtual Machines\n4.35,Bandwidth\n";
    let b = audit("azure-two-columns.csv", csv);
    assert_eq!(b.format, "azure");
    assert_eq!(b.totals.get(Category::Compute), d("30.60"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("4.35"));
    assert_eq!(b.total, d("34.95"));
    // The pay-as-you-go spelling of the cost column is Azure's too.
    // 12.00 compute + 1.00 bandwidth = 13.00
    let csv = "PreTaxCost,MeterCategory\n12.00,Virtual Machines\n1.00,Bandwidth\n";
    let b = audit("azure-payg-two-columns.csv", csv);
    assert_eq!(b.format, "azure");
    assert_eq!(b.total, d("13.00"));
}

#[test]
fn a_file_without_a_currency_column_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // No currency anywhere: the currency is unknown, and the report says why.
    let none = dir.path().join("none.csv");
    std::fs::write(
        &none,
        "Date,Description,Amount\n2024-11-01,GPU instance A100,15.00\n",
    )
    .unwrap();
    // A header suffix names it: CNY, and the report says from where.
    let suffix = dir.path().join("suffix.csv");
    std::fs::write(
        &suffix,
        "日期,项目,应付金额(¥)\n2024-11-01,GPU实例 RTX 4090,36.00\n",
    )
    .unwrap();

    let out = run(&["audit", "--format", "json", none.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bill = &json["bills"][0];
    assert_eq!(bill["currency"], serde_json::Value::Null);
    assert_eq!(
        bill["currency_note"],
        "no currency column and no currency in the headers; the currency is unknown: give it with --currency CODE, or `currency` in billaudit.toml or its [[profile]]"
    );

    let out = run(&["audit", "--format", "json", suffix.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bill = &json["bills"][0];
    assert_eq!(bill["currency"], "CNY");
    assert_eq!(
        bill["currency_note"],
        "no currency column; assumed CNY from the header `应付金额(¥)`"
    );

    let out = run(&["audit", suffix.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        text.contains("  note: no currency column; assumed CNY from the header `应付金额(¥)`\n"),
        "{text}"
    );

    // With a currency column there is no note (`null` in JSON).
    let out = run(&["audit", "--format", "json", "fixtures/csv/clean-bill.csv"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["bills"][0]["currency"], "USD");
    assert_eq!(json["bills"][0]["currency_note"], serde_json::Value::Null);
    assert!(!stdout(&run(&["audit", "fixtures/csv/clean-bill.csv"])).contains("note:"));
}

/// A Korean GPU cloud's export, a shape nobody here wrote a profile for:
/// two preamble lines, Korean headers with the currency in brackets
/// (`금액(원)`: the won), thousands separators, and subtotal, VAT and total
/// rows with their label in the item column. Before, the currency was
/// unknown (`원` was no spelling of KRW).
#[test]
fn a_korean_bill_names_its_currency_in_its_headers() {
    let csv = "청구서 번호,INV-2025-11-0042\n\
               청구 기간,2025-11-01 ~ 2025-11-30\n\
               \n\
               서비스명,항목,사용량,단위,단가(원),금액(원)\n\
               GPU 서버,A100 80GB 인스턴스 사용,\"120\",시간,\"4,500\",\"540,000\"\n\
               GPU 서버,H100 인스턴스 사용,\"40\",시간,\"9,800\",\"392,000\"\n\
               스토리지,블록 스토리지 (SSD),\"500\",GB-월,\"120\",\"60,000\"\n\
               스토리지,스냅샷 백업,\"300\",GB-월,\"80\",\"24,000\"\n\
               네트워크,인터넷 아웃바운드 트래픽,\"1,200\",GB,\"110\",\"132,000\"\n\
               관리,클러스터 관리 수수료,\"1\",월,\"50,000\",\"50,000\"\n\
               ,소계,,,,\"1,198,000\"\n\
               ,부가세 (10%),,,,\"119,800\"\n\
               ,합계,,,,\"1,317,800\"\n";
    let b = audit("kr-gpu.csv", csv);
    assert_eq!(b.currency.as_deref(), Some("KRW"), "{:?}", b.notes);
    // compute 120 x 4,500 + 40 x 9,800 = 540,000 + 392,000 = 932,000;
    // storage 500 x 120 = 60,000; snapshots 300 x 80 = 24,000; egress
    // 1,200 x 110 = 132,000; cluster management 50,000.
    assert_eq!(b.totals.get(Category::Compute), d("932000"));
    assert_eq!(b.totals.get(Category::Storage), d("60000"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("24000"));
    assert_eq!(b.totals.get(Category::Bandwidth), d("132000"));
    assert_eq!(b.totals.get(Category::Scheduling), d("50000"));
    // Subtotal 1,198,000; VAT 10% = 119,800; total 1,317,800, both
    // stated figures agreeing.
    assert_eq!(b.subtotal, d("1198000"));
    assert_eq!(b.totals.get(Category::Tax), d("119800"));
    assert_eq!(b.total, d("1317800"));
    assert_eq!(b.stated_total, Some(d("1317800")));
    // Hidden 24,000 + 132,000 + 50,000 = 206,000 = 17.20% of 1,198,000.
    assert!(lines_of(&b, "hidden-fee-share").len() == 1);
    assert!(lines_of(&b, "total-mismatch").is_empty());
}

/// A Brazilian GPU cloud's invoice CSV: a title line, headers with a line
/// break inside their quotes (`Valor\n(R$)`), decimal commas, and its
/// summary labels in a notes column right of the amount. `Total geral`
/// (the grand total) was no total label: the row was summed as an item,
/// the bill counted twice (14,250.00 for 7,125.00).
#[test]
fn a_grand_total_in_a_notes_column_is_stated_not_summed() {
    let csv = "\"Fatura GPU Nuvem BR - Novembro/2025\"\n\n\
               \"Serviço\",\"Descrição do item\",\"Qtd.\",\"Preço unit.\n(R$)\",\"Valor\n(R$)\",\"Obs.\"\n\
               \"Computação\",\"Instância GPU L40S (horas)\",\"300\",\"12,50\",\"3.750,00\",\"\"\n\
               \"Computação\",\"Instância GPU RTX 4090 (horas)\",\"500\",\"4,20\",\"2.100,00\",\"\"\n\
               \"Armazenamento\",\"Disco SSD (GB-mês)\",\"1.000\",\"0,35\",\"350,00\",\"\"\n\
               \"Armazenamento\",\"Réplica de backup (GB-mês)\",\"1.000\",\"0,30\",\"300,00\",\"\"\n\
               \"Rede\",\"Tráfego de saída (GB)\",\"2.500\",\"0,40\",\"1.000,00\",\"\"\n\
               \"\",\"\",\"\",\"\",\"7.500,00\",\"Subtotal\"\n\
               \"\",\"\",\"\",\"\",\"-375,00\",\"Desconto 5%\"\n\
               \"\",\"\",\"\",\"\",\"7.125,00\",\"Total geral\"\n";
    let b = audit("br-fatura.csv", csv);
    assert_eq!(b.currency.as_deref(), Some("BRL"));
    // compute 300 x 12.50 + 500 x 4.20 = 3,750.00 + 2,100.00 = 5,850.00;
    // storage 1,000 x 0.35 = 350.00; backup replica 1,000 x 0.30 = 300.00;
    // egress 2,500 x 0.40 = 1,000.00; subtotal 7,500.00, as stated.
    assert_eq!(b.totals.get(Category::Compute), d("5850.00"));
    assert_eq!(b.totals.get(Category::StorageReplica), d("300.00"));
    assert_eq!(b.subtotal, d("7500.00"));
    // Discount 5% of 7,500.00 = -375.00; total 7,500.00 - 375.00 = 7,125.00,
    // which the Total geral row states.
    assert_eq!(b.totals.get(Category::Credit), d("-375.00"));
    assert_eq!(b.total, d("7125.00"));
    assert_eq!(b.stated_total, Some(d("7125.00")));
    assert_eq!(b.totals.get(Category::Other), d("0"));
    assert!(lines_of(&b, "subtotal-mismatch").is_empty());
    assert!(lines_of(&b, "total-mismatch").is_empty());
}
