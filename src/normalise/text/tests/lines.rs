//! One line at a time: items, summaries, header fields, headings.

use super::*;

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
        // No currency mark and no column heading: a single space does not
        // make an amount an item's (docs/decisions.md, "Amounts after a
        // single space"); `Mystery charge $12.00` is an item.
        "Mystery charge 12.00",
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
    let inv = parse("Mystery fee 3.00\nStorage ..... $5.00\n");
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

mod props {
    use proptest::prelude::*;

    use super::super::*;

    /// A generated invoice item and the way it is written.
    #[derive(Debug, Clone)]
    struct Gen {
        description: String,
        quantity: Decimal,
        unit: &'static str,
        rate: Decimal,
        amount: Decimal,
        layout: u8,
        gap: usize,
    }

    const FIRST: &[&str] = &[
        "GPU",
        "RTX",
        "A100",
        "Persistent",
        "Egress",
        "Snapshot",
        "Pod",
        "实例",
        "数据盘",
        "公网",
        "NAT",
        "H800",
    ];
    const MORE: &[&str] = &[
        "4090",
        "(80",
        "GB)",
        "instance",
        "(on-demand)",
        "volume",
        "500",
        "GB",
        "实例",
        "快照",
        "node-7",
        "x2",
        "[spot]",
        "us-east-1",
        "流量",
    ];
    const UNITS: &[&str] = &["hours", "hrs", "GB", "GB-month", "小时", "month", "个"];

    fn gen_item() -> impl Strategy<Value = Gen> {
        (
            prop::sample::select(FIRST),
            prop::collection::vec(prop::sample::select(MORE), 0..5),
            (1i64..100_000, 0u32..4),
            prop::sample::select(UNITS),
            (1i64..1_000_000, 2u32..5),
            0i64..100_000_000,
            0u8..3,
            2usize..7,
        )
            .prop_map(|(first, more, (q, qs), unit, (r, rs), a, layout, gap)| {
                let mut words = vec![first];
                words.extend(more);
                Gen {
                    description: words.join(" "),
                    quantity: Decimal::new(q, qs),
                    unit,
                    rate: Decimal::new(r, rs),
                    amount: Decimal::new(a, 2),
                    layout,
                    gap,
                }
            })
    }

    fn render(g: &Gen) -> String {
        let sp = " ".repeat(g.gap);
        match g.layout {
            // English column layout.
            0 => format!(
                "{:<40}{sp}{:>8}{sp}{:<8}{sp}{:>10}{sp}{:>12}",
                g.description, g.quantity, g.unit, g.rate, g.amount
            ),
            // Chinese column layout: `20 小时   1.80 元/小时   36.00 元`.
            1 => format!(
                "{}{sp}{} {}{sp}{} 元/{}{sp}{} 元",
                g.description, g.quantity, g.unit, g.rate, g.unit, g.amount
            ),
            // Leader line with `N unit @ rate`.
            _ => format!(
                "{} {} {} @ ${}/{} ........ ${}",
                g.description, g.quantity, g.unit, g.rate, g.unit, g.amount
            ),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn rendered_items_parse_back(items in prop::collection::vec(gen_item(), 1..12)) {
            let mut text = String::from("INVOICE\nDescription  Qty  Unit  Rate  Amount\n");
            for g in &items {
                text.push_str(&render(g));
                text.push('\n');
            }
            let inv = parse(&text);
            let got: Vec<&TextItem> = inv.items().collect();
            prop_assert_eq!(got.len(), items.len(), "{}", text);
            for (g, t) in items.iter().zip(got) {
                let expected_desc = if g.layout == 2 {
                    format!("{} {} {} @ ${}/{}", g.description, g.quantity, g.unit, g.rate, g.unit)
                } else {
                    g.description.clone()
                };
                prop_assert_eq!(&t.description, &expected_desc);
                prop_assert_eq!(t.quantity.map(|q| q.to_string()), Some(g.quantity.to_string()));
                prop_assert_eq!(t.unit.as_deref(), Some(g.unit));
                prop_assert_eq!(t.unit_price.map(|r| r.to_string()), Some(g.rate.to_string()));
                prop_assert_eq!(t.amount.value.to_string(), g.amount.to_string());
            }
        }

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
            let text = String::from_utf8_lossy(&bytes);
            let inv = parse(&text);
            prop_assert!(inv.lines.len() <= text.split('\n').count());
        }

        #[test]
        fn random_text_never_panics(s in "\\PC{0,300}") {
            let _ = parse(&s);
        }

        #[test]
        fn mixtures_of_invoice_lines_never_panic(
            parts in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(SAMPLE_LINES).prop_map(str::to_string),
                    "[ .:$¥元€@()（）：0-9a-z\u{4e00}-\u{4e10}-]{0,60}",
                    gen_item().prop_map(|g| render(&g)),
                ],
                0..40,
            ),
            crlf in any::<bool>(),
        ) {
            let text = parts.join(if crlf { "\r\n" } else { "\n" });
            let inv = parse(&text);
            for l in &inv.lines {
                if let LineKind::Item(i) = &l.kind {
                    prop_assert!(i.column >= 1 && i.amount_column > i.column);
                }
            }
        }
    }

    const SAMPLE_LINES: &[&str] = &[
        "INVOICE",
        "Invoice #: INV-1",
        "Currency: USD",
        "币种：人民币（CNY）",
        "Billing period: 2025-10-01 - 2025-10-31",
        "账期：2025年10月",
        "Description   Qty   Unit   Rate   Amount",
        "-------------",
        "RTX 4090 GPU instance (on-demand)    20    hours    1.80    36.00",
        "Filesystem storage 1 TB ........ $20.00",
        "1x A100 (80 GB) on-demand, 300 hrs @ $1.29/hr ..... $387.00",
        "RTX 4090 GPU 实例   20 小时   1.80 元/小时   36.00 元",
        "Subtotal    $100.00",
        "Tax (8%)    8.00",
        "Discount    10.00",
        "Total due   $98.00",
        "合计：￥98.00",
        "...........",
        "@@@ $",
        "(((((((",
        "$$$$ 1,2,3,4,5.6.7",
        "Total ........ ........ ........",
    ];
}

#[test]
fn summary_labels_with_figures_or_a_currency_code() {
    let s = summary_of("Total          300 hrs          $451.50");
    assert_eq!((s.kind, s.amount.value), (SummaryKind::Total, d("451.50")));
    assert_eq!(s.label, "Total");
    assert_eq!(summary_of("Total USD    451.50").kind, SummaryKind::Total);
    assert_eq!(summary_of("Tax   8%   8.00").rate, Some(d("8")));
    // Not a summary: an item whose description starts like one.
    assert!(matches!(
        one("Total storage snapshots    200 GB    0.05    10.00").0,
        LineKind::Item(_)
    ));
}

#[test]
fn long_pathological_lines_stay_linear() {
    // Before leaders and separators were tried once per run, these took
    // about 0.05 s per line in a debug build; now the whole text takes a fraction of that.
    let mut text = String::new();
    for _ in 0..100 {
        text.push_str(&".".repeat(MAX_LINE_CHARS - 1));
        text.push('\n');
        text.push_str(&format!("x{}\n", " :".repeat(499)));
        text.push_str(&format!("a {}\n", "1".repeat(997)));
        text.push_str(&format!("x{}\n", " .".repeat(499)));
    }
    let t = std::time::Instant::now();
    let inv = parse(&text);
    assert_eq!(inv.items().count(), 0);
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

#[test]
fn currency_marks_come_from_the_one_table() {
    // `C$` is the Canadian dollar, not a `$` after a letter (read as USD
    // before the table was shared); `₩` and `PLN` are marks too.
    assert_eq!(
        item("Support plan      C$ 49.00").amount.currency,
        Some("CAD")
    );
    assert_eq!(
        item("Cloud server      ₩13,200").amount.currency,
        Some("KRW")
    );
    assert_eq!(
        item("Dedicated server    316,83 PLN").amount.value,
        d("316.83")
    );
}

/// Issue 26: an amount after a single space is read when it is the line's
/// only money and carries a currency mark, or stands under the heading's
/// amount column; a currency mark in a column of its own joins its number.
#[test]
fn amounts_after_a_single_space_or_a_spaced_symbol() {
    let i = item("Item purchase $80.80");
    assert_eq!(
        (i.description.as_str(), i.amount.value),
        ("Item purchase", d("80.80"))
    );
    let i = item("Mystery charge $ 12.00");
    assert_eq!(
        (i.amount.value, i.amount.currency),
        (d("12.00"), Some("USD"))
    );
    // Two amounts after single spaces: which is the amount is not known.
    assert!(matches!(
        one("Pods 2 x $40.40 $80.80").0,
        LineKind::Unparsed(_)
    ));
    // `$   5.10`: the symbol is the amount's, not the description's.
    let i = item("GPU hours   $   5.10");
    assert_eq!(
        (i.description.as_str(), i.amount.currency),
        ("GPU hours", Some("USD"))
    );
    let i = item("GPU hours   5.10   EUR");
    assert_eq!(
        (i.amount.value, i.amount.currency),
        (d("5.10"), Some("EUR"))
    );
    // Under the heading's `Amount`, without a mark.
    // `Amount` is columns 18-23: `20.20` (15-19) is under it, `1.00` (6-9) is not.
    let inv =
        parse("Description      Amount\nItem purchase    80.80\nShipping fee 20.20\nNote 1.00\n");
    assert_eq!(
        inv.items().map(|i| i.amount.value).collect::<Vec<_>>(),
        [d("80.80"), d("20.20")]
    );
    assert!(matches!(inv.lines[3].kind, LineKind::Unparsed(_)));
    let inv = parse("Description   Amount\nShipping fee 20.20\n");
    assert_eq!(
        inv.items().map(|i| i.amount.value).collect::<Vec<_>>(),
        [d("20.20")]
    );
}
