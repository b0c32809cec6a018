//! Random bills of shapes nobody wrote a profile for (issue 26, item 7):
//! columns in any order (so the summary label sits in any column), summary
//! rows that carry a date and a currency, the header row present or
//! missing, bytes in UTF-8, Windows-1252 or Shift_JIS. The expected figures
//! are the generator's own Decimal sums of the rows it wrote, never
//! billaudit's.

use proptest::prelude::*;
use rust_decimal::Decimal;

/// The columns a generated bill can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Description,
    Quantity,
    UnitPrice,
    Amount,
    Currency,
    Date,
}

const COLS: [Col; 6] = [
    Col::Description,
    Col::Quantity,
    Col::UnitPrice,
    Col::Amount,
    Col::Currency,
    Col::Date,
];

/// How the bytes are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bytes {
    Utf8,
    Windows1252,
    ShiftJis,
}

/// Header words per encoding (each a name of `src/vocab/headers.rs`), and
/// descriptions that are no summary label.
fn header(col: Col, bytes: Bytes) -> &'static str {
    match (bytes, col) {
        (Bytes::ShiftJis, Col::Description) => "項目",
        (Bytes::ShiftJis, Col::Quantity) => "数量",
        (Bytes::ShiftJis, Col::UnitPrice) => "単価",
        (Bytes::ShiftJis, Col::Amount) => "金額",
        (Bytes::ShiftJis, Col::Currency) => "通貨",
        (Bytes::ShiftJis, Col::Date) => "請求日",
        (Bytes::Windows1252, Col::Description) => "Libellé",
        (Bytes::Windows1252, Col::Quantity) => "Quantité",
        (Bytes::Windows1252, Col::UnitPrice) => "Prix unitaire",
        (Bytes::Windows1252, Col::Amount) => "Montant",
        (Bytes::Windows1252, Col::Currency) => "Devise",
        (Bytes::Windows1252, Col::Date) => "Date",
        (Bytes::Utf8, Col::Description) => "Description",
        (Bytes::Utf8, Col::Quantity) => "Quantity",
        (Bytes::Utf8, Col::UnitPrice) => "Unit Price",
        (Bytes::Utf8, Col::Amount) => "Amount",
        (Bytes::Utf8, Col::Currency) => "Currency",
        (Bytes::Utf8, Col::Date) => "Date",
    }
}

fn descriptions(bytes: Bytes) -> &'static [&'static str] {
    match bytes {
        Bytes::ShiftJis => &[
            "GPUインスタンス A100",
            "データ転送",
            "スナップショット",
            "ブロックストレージ",
        ],
        Bytes::Windows1252 => &[
            "Serveur dédié GPU",
            "Trafic sortant",
            "Sauvegarde du disque",
            "Stockage réseau",
        ],
        Bytes::Utf8 => &[
            "RTX 4090 GPU instance",
            "Internet egress",
            "数据盘快照",
            "Block volume 500 GB",
        ],
    }
}

/// One generated bill and what its rows add up to.
#[derive(Debug, Clone)]
struct Shape {
    order: Vec<Col>,
    with_header: bool,
    bytes: Bytes,
    /// (description index, quantity, unit price): amount = quantity x price.
    items: Vec<(usize, u32, Decimal)>,
    currency: &'static str,
}

impl Shape {
    fn total(&self) -> Decimal {
        self.items
            .iter()
            .map(|(_, q, p)| Decimal::from(*q) * *p)
            .sum()
    }

    fn text(&self) -> String {
        let cell = |col: Col, row: Option<&(usize, u32, Decimal)>, label: &str| -> String {
            match (col, row) {
                (Col::Description, Some((d, _, _))) => {
                    format!("\"{}\"", descriptions(self.bytes)[*d])
                }
                (Col::Description, None) => label.to_string(),
                (Col::Quantity, Some((_, q, _))) => q.to_string(),
                (Col::UnitPrice, Some((_, _, p))) => p.to_string(),
                (Col::Amount, Some((_, q, p))) => (Decimal::from(*q) * *p).to_string(),
                (Col::Amount, None) => self.total().to_string(),
                (Col::Currency, _) => self.currency.to_string(),
                (Col::Date, _) => "2025-11-30".to_string(),
                (Col::Quantity | Col::UnitPrice, None) => String::new(),
            }
        };
        let mut s = String::new();
        if self.with_header {
            let h: Vec<&str> = self.order.iter().map(|c| header(*c, self.bytes)).collect();
            s.push_str(&h.join(","));
            s.push('\n');
        }
        for row in &self.items {
            let cells: Vec<String> = self.order.iter().map(|c| cell(*c, Some(row), "")).collect();
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        // Summary rows with a date and a currency, the label wherever the
        // description column is.
        for label in ["Subtotal", "Total"] {
            let cells: Vec<String> = self.order.iter().map(|c| cell(*c, None, label)).collect();
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        s
    }

    fn bytes(&self) -> Vec<u8> {
        let t = self.text();
        match self.bytes {
            Bytes::Utf8 => t.into_bytes(),
            Bytes::Windows1252 => encoding_rs::WINDOWS_1252.encode(&t).0.into_owned(),
            Bytes::ShiftJis => encoding_rs::SHIFT_JIS.encode(&t).0.into_owned(),
        }
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    let item = (0usize..4, 1u32..2000, (1i64..500_000, 2u32..=4))
        .prop_map(|(d, q, (m, s))| (d, q, Decimal::new(m, s)));
    (
        Just(COLS.to_vec()).prop_shuffle(),
        any::<bool>(),
        prop_oneof![
            Just(Bytes::Utf8),
            Just(Bytes::Windows1252),
            Just(Bytes::ShiftJis)
        ],
        prop::collection::vec(item, 3..12),
        prop_oneof![Just("USD"), Just("EUR"), Just("JPY")],
    )
        .prop_map(|(order, with_header, bytes, items, currency)| Shape {
            order,
            // A legacy encoding is detected from its header words: a file
            // without a header in one is given `--encoding` (not tested here).
            with_header: with_header || bytes != Bytes::Utf8,
            bytes,
            items,
            currency,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_shape_adds_up_to_the_generators_sum(s in shape()) {
        let bytes = s.bytes();
        let bills = billaudit::audit_bytes("shape.csv", &bytes, &billaudit::Options::default())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", s.text())))?;
        prop_assert_eq!(bills.len(), 1);
        let b = &bills[0];
        let total = s.total();
        prop_assert_eq!(b.total, total, "{}", s.text());
        prop_assert_eq!(b.line_items as usize, s.items.len());
        prop_assert_eq!(b.skipped.summary, 2);
        prop_assert_eq!(b.stated_total, Some(total));
        prop_assert_eq!(b.stated_subtotal, Some(total));
        prop_assert_eq!(b.currency.as_deref(), Some(s.currency));
        // Quantity x unit price = amount on every row: never a finding.
        prop_assert!(!b.findings.iter().any(|f| f.code == "line-arithmetic"), "{:?}", b.findings);
        match s.bytes {
            Bytes::Utf8 => prop_assert!(b.encoding.is_none()),
            Bytes::Windows1252 => prop_assert_eq!(b.encoding.as_ref().map(|e| e.name.as_str()), Some("windows-1252")),
            Bytes::ShiftJis => prop_assert_eq!(b.encoding.as_ref().map(|e| e.name.as_str()), Some("Shift_JIS")),
        }
        // Without a header the columns were inferred, the amount among them.
        if !s.with_header {
            let amount_col = s.order.iter().position(|c| *c == Col::Amount).unwrap();
            let inferred = b.inferred_columns.iter().find(|c| c.role.as_str() == "amount");
            prop_assert_eq!(inferred.map(|c| c.column), Some(amount_col));
        }
    }
}
