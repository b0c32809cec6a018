use std::str::FromStr;

use super::*;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn one(line: &str) -> (LineKind, Invoice) {
    let mut inv = Invoice::default();
    let folded: String = line.chars().map(fold_char).collect();
    let k = read_line(1, &folded, &mut inv);
    (k, inv)
}

fn item(line: &str) -> TextItem {
    match one(line).0 {
        LineKind::Item(i) => i,
        other => panic!("{line:?}: {other:?}"),
    }
}

fn summary_of(line: &str) -> Summary {
    match one(line).0 {
        LineKind::Summary(s) => s,
        other => panic!("{line:?}: {other:?}"),
    }
}

#[test]
fn column_layout_items() {
    let i = item("RTX 4090 GPU instance (on-demand)    20    hours    1.80    36.00");
    assert_eq!(i.description, "RTX 4090 GPU instance (on-demand)");
    assert_eq!(i.quantity, Some(d("20")));
    assert_eq!(i.unit.as_deref(), Some("hours"));
    assert_eq!(i.unit_price, Some(d("1.80")));
    assert_eq!(i.amount.value, d("36.00"));
    assert_eq!((i.column, i.amount_column), (1, 61));

    let i = item("  Persistent volume 500 GB      500 GB-month   0.04   $20.00");
    assert_eq!(i.description, "Persistent volume 500 GB");
    assert_eq!(i.quantity, Some(d("500")));
    assert_eq!(i.unit.as_deref(), Some("GB-month"));
    assert_eq!(i.unit_price, Some(d("0.04")));
    assert_eq!(i.amount.currency, Some("USD"));
    assert_eq!(i.column, 3);

    let i = item("Support plan                 $49.00");
    assert_eq!((i.quantity, i.unit_price), (None, None));

    let i = item("Egress traffic    120    0.05    6.00");
    assert_eq!(
        (i.quantity, i.unit_price),
        (Some(d("120")), Some(d("0.05")))
    );

    let i = item("Public IPv4    720 hrs    5.00");
    assert_eq!(
        (i.quantity, i.unit.as_deref(), i.unit_price),
        (Some(d("720")), Some("hrs"), None)
    );
}

#[test]
fn chinese_items_with_full_width_forms() {
    let i = item("RTX 4090 GPU 实例   20 小时   1.80 元/小时   36.00 元");
    assert_eq!(i.description, "RTX 4090 GPU 实例");
    assert_eq!(i.quantity, Some(d("20")));
    assert_eq!(i.unit.as_deref(), Some("小时"));
    assert_eq!(i.unit_price, Some(d("1.80")));
    assert_eq!(i.amount.value, d("36.00"));
    assert_eq!(i.amount.currency, Some("CNY"));

    let i = item("数据盘（高效云盘）　　１００　GB　　０．３０　　￥３０．００");
    assert_eq!(i.description, "数据盘(高效云盘)");
    assert_eq!(i.quantity, Some(d("100")));
    assert_eq!(i.amount.value, d("30.00"));
}

#[test]
fn leader_items() {
    let i = item("Filesystem storage 1 TB ........ $20.00");
    assert_eq!(i.description, "Filesystem storage 1 TB");
    assert_eq!(i.amount.value, d("20.00"));
    assert_eq!(i.quantity, None);

    let i = item("1x A100 (80 GB) on-demand, 300 hrs @ $1.29/hr ..... $387.00");
    assert_eq!(i.quantity, Some(d("300")));
    assert_eq!(i.unit.as_deref(), Some("hrs"));
    assert_eq!(i.unit_price, Some(d("1.29")));
    assert_eq!(i.amount.value, d("387.00"));
    assert_eq!(i.amount_column, 53);
}

#[test]
fn dated_one_line_receipt() {
    let i = item("2025-10-14  RTX 4090 on-demand, 12 hrs @ $0.69/hr    $8.28");
    assert_eq!(i.description, "RTX 4090 on-demand, 12 hrs @ $0.69/hr");
    assert_eq!(
        i.start.map(|s| s.to_string()).as_deref(),
        Some("2025-10-14 00:00:00")
    );
    assert_eq!((i.quantity, i.unit_price), (Some(d("12")), Some(d("0.69"))));
}

#[test]
fn summary_lines() {
    let s = summary_of("Subtotal                                  $1,230.00");
    assert_eq!(
        (s.kind, s.amount.value),
        (SummaryKind::Subtotal, d("1230.00"))
    );
    let s = summary_of("Tax (8%)                                     $8.00");
    assert_eq!((s.kind, s.rate), (SummaryKind::Tax, Some(d("8"))));
    let s = summary_of("VAT 20%:  4.00");
    assert_eq!((s.kind, s.rate), (SummaryKind::Tax, Some(d("20"))));
    let s = summary_of("Discount                                     10.00");
    assert_eq!((s.kind, s.amount.value), (SummaryKind::Credit, d("-10.00")));
    let s = summary_of("Promotional credit (LAUNCH50)    -$50.00");
    assert_eq!((s.kind, s.amount.value), (SummaryKind::Credit, d("-50.00")));
    let s = summary_of("Total due (USD) ........ $451.50");
    assert_eq!(s.kind, SummaryKind::Total);
    for (line, kind) in [
        ("小计：120.00 元", SummaryKind::Subtotal),
        ("税额（6%）：7.20", SummaryKind::Tax),
        ("增值税    7.20", SummaryKind::Tax),
        ("优惠   -5.00", SummaryKind::Credit),
        ("代金券    5.00", SummaryKind::Credit),
        ("合计：￥122.20", SummaryKind::Total),
        ("总计  122.20", SummaryKind::Total),
        ("应付金额：122.20元", SummaryKind::Total),
        ("Amount due: $10.00", SummaryKind::Total),
        ("Sales tax   1.00", SummaryKind::Tax),
        ("Credit   (2.00)", SummaryKind::Credit),
    ] {
        assert_eq!(summary_of(line).kind, kind, "{line}");
    }
    assert_eq!(summary_of("代金券    5.00").amount.value, d("-5.00"));
    assert_eq!(summary_of("税额（6%）：7.20").rate, Some(d("6")));
}

#[test]
fn header_fields() {
    let (k, inv) = one("Invoice #: INV-2025-1042");
    assert_eq!(k, LineKind::Header(HeaderField::Number));
    assert_eq!(inv.number.as_deref(), Some("INV-2025-1042"));
    let (k, inv) = one("币种：人民币（CNY）");
    assert_eq!(k, LineKind::Header(HeaderField::Currency));
    assert_eq!(inv.currency.as_deref(), Some("CNY"));
    let (_, inv) = one("Currency: USD");
    assert_eq!(inv.currency.as_deref(), Some("USD"));
    let (k, inv) = one("Billing period: 2025-10-01 - 2025-10-31");
    assert_eq!(k, LineKind::Header(HeaderField::Period));
    let (a, b) = inv.period.unwrap();
    assert_eq!(
        (a.date().to_string(), b.date().to_string()),
        ("2025-10-01".into(), "2025-10-31".into())
    );
    let (_, inv) = one("Period: Oct 2025");
    assert_eq!(inv.period.unwrap().1.date().to_string(), "2025-10-31");
    let (_, inv) = one("账期：2025年10月");
    assert_eq!(inv.period.unwrap().1.date().to_string(), "2025-10-31");
    let (_, inv) = one("Period: Dec 2025");
    assert_eq!(inv.period.unwrap().1.date().to_string(), "2025-12-31");
    let (k, inv) = one("Invoice date   2025-11-01");
    assert_eq!(k, LineKind::Header(HeaderField::Date));
    assert_eq!(inv.date.unwrap().date().to_string(), "2025-11-01");
    assert_eq!(
        one("Account: team-ml@example.com").0,
        LineKind::Header(HeaderField::Other)
    );
    assert_eq!(one("INVOICE").0, LineKind::Header(HeaderField::Other));
    assert_eq!(one("Page 1 of 2").0, LineKind::Header(HeaderField::Other));
    assert_eq!(one("第 1 页").0, LineKind::Header(HeaderField::Other));
}

#[test]
fn headings_and_rules() {
    assert_eq!(
        one("Description        Qty   Unit   Rate   Amount").0,
        LineKind::ColumnHeading
    );
    assert_eq!(
        one("Item   Quantity   Unit price   Amount (USD)").0,
        LineKind::ColumnHeading
    );
    assert_eq!(
        one("项目      数量    单价    金额（元）").0,
        LineKind::ColumnHeading
    );
    assert_eq!(one("-------------------------------").0, LineKind::Rule);
    assert_eq!(one("=====  =====").0, LineKind::Rule);
}

#[test]
fn lines_not_understood_are_reported_with_a_column() {
    for line in [
        "GPU Cloud Inc.",
        "Thank you for your business!",
        "Mystery charge $12.00",
        "Account balance: $0.00",
    ] {
        match one(line).0 {
            LineKind::Unparsed(u) => {
                assert_eq!(u.text, line);
                assert_eq!(u.column, 1);
            }
            other => panic!("{line}: {other:?}"),
        }
    }
    match one("GPU hours    20   $1.80   12   36.00").0 {
        LineKind::Unparsed(u) => assert_eq!(u.column, 14),
        other => panic!("{other:?}"),
    }
    let long = "x".repeat(MAX_LINE_CHARS + 1);
    assert!(matches!(one(&long).0, LineKind::Unparsed(_)));
}

#[test]
fn numbers_alone_are_not_items() {
    // An id or a date in the amount column is not money.
    assert!(matches!(
        one("Invoice ref    10042").0,
        LineKind::Unparsed(_)
    ));
    assert!(matches!(one("Due    2025-11-30").0, LineKind::Unparsed(_)));
}

#[test]
fn whole_invoice_lines_and_currency() {
    let text = "\u{feff}INVOICE\r\nCurrency: EUR\r\n\r\nStorage ..... €5.00\r\nTotal   €5.00\r\n";
    let inv = parse(text);
    assert_eq!(inv.lines.len(), 4);
    assert_eq!(inv.lines[2].line, 4);
    assert_eq!(inv.currency().as_deref(), Some("EUR"));
    assert_eq!(inv.items().count(), 1);
    assert_eq!(inv.summaries().count(), 1);
    let inv = parse("Storage ..... ¥5.00\n");
    assert_eq!(inv.currency().as_deref(), Some("CNY"));
}

#[test]
fn letterhead_is_header_but_body_text_is_reported() {
    let inv = parse(
        "GPU Cloud Inc.\n1 Main St, Springfield\nStorage ..... $5.00\nSee attached usage report\n",
    );
    assert_eq!(inv.lines[0].kind, LineKind::Header(HeaderField::Other));
    assert_eq!(inv.lines[1].kind, LineKind::Header(HeaderField::Other));
    assert!(matches!(inv.lines[3].kind, LineKind::Unparsed(_)));
    let inv = parse("Mystery fee $3.00\nStorage ..... $5.00\n");
    assert!(matches!(inv.lines[0].kind, LineKind::Unparsed(_)));
}

#[test]
fn bilingual_labels() {
    assert_eq!(
        summary_of("Subtotal 小计    172.00 元").kind,
        SummaryKind::Subtotal
    );
    let s = summary_of("VAT 增值税 (6%)    9.60 元");
    assert_eq!((s.kind, s.rate), (SummaryKind::Tax, Some(d("6"))));
    assert_eq!(
        summary_of("Total 合计    169.60 元").kind,
        SummaryKind::Total
    );
    let (k, inv) = one("Currency 币种：CNY");
    assert_eq!(k, LineKind::Header(HeaderField::Currency));
    assert_eq!(inv.currency.as_deref(), Some("CNY"));
    assert_eq!(one("Invoice 发票").0, LineKind::Header(HeaderField::Other));
    // Parts of different kinds are not a label.
    assert!(summary_kind("Subtotal 合计").is_none());
}
