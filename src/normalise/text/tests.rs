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

/// The items, the last stated total and the tax lines of a whole invoice.
fn figures(text: &str) -> (Decimal, Option<Decimal>, Decimal, Option<String>) {
    let inv = parse(text);
    let items = inv.items().map(|i| i.amount.value).sum();
    let total = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Total)
        .last()
        .map(|s| s.amount.value);
    let tax = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Tax)
        .map(|s| s.amount.value)
        .sum();
    (items, total, tax, inv.currency())
}

#[test]
fn trailing_minus_and_the_japanese_no_more_mark() {
    let v = |s: &str| all_consuming(grammar::money).parse(s).unwrap().1.value;
    // `€ 189,00-`: a payment printed with the minus after the amount.
    assert_eq!(v("€ 189,00-"), d("-189.00"));
    // `￥30,107 -` (folded to `¥`): " -" is "no more", not a minus.
    assert_eq!(v("¥30,107 -"), d("30107"));
}

#[test]
fn codes_the_number_reader_does_not_know() {
    let m = all_consuming(grammar::money).parse("316,83 PLN").unwrap().1;
    assert_eq!((m.value, m.currency), (d("316.83"), Some("PLN")));
    let m = all_consuming(grammar::money).parse("27,370円").unwrap().1;
    assert_eq!((m.value, m.currency), (d("27370"), Some("JPY")));
}

#[test]
fn a_vat_rate_column_is_skipped_and_a_line_vat_after_it_is_not_the_amount() {
    // Coolblue: price, rate, amount incl. VAT.
    let i = item("Nintendo AC-adapter      1     € 14,99     21%     € 14,99");
    assert_eq!((i.quantity, i.unit_price), (Some(d("1")), Some(d("14.99"))));
    assert_eq!(i.amount.value, d("14.99"));
    // bol.com: price, amount, rate, the line's VAT (156.20 x 0.21 = 32.80).
    let i =
        item("  4718755045813 BenQ RL2455HM     1     € 156,20      € 156,20     21%     € 32,80");
    assert_eq!(i.amount.value, d("156.20"));
    // Flipkart: quantity, price, rate, the line's tax, the amount incl. tax
    // (278.61 + 40.39 = 319.00).
    let i =
        item("Memory cards    SanDisk Ultra 16 GB    1     278.61     14.50%     40.39     319.00");
    // The net price is not kept: 1 x 278.61 is not the gross 319.00.
    assert_eq!((i.quantity, i.unit_price), (Some(d("1")), None));
    assert_eq!(i.amount.value, d("319.00"));
    // Saeco: price, rate, quantity with unit, amount.
    let i = item(" E103184    Onderhoudsset CA6707/10    49,99     21 %     1 PCS     49,99");
    assert_eq!((i.quantity, i.unit_price), (Some(d("1")), Some(d("49.99"))));
}

#[test]
fn position_numbers_and_wide_tables() {
    // Orlen: Lp, name, Jm, Ilość, 6 more figures; the last column is the
    // gross amount (54.910 x 5.77 = 316.8307 -> 316.83).
    let i = item(
        "1   EFECTA 95 CN27101245    l     54,910     5,79    1,10    5,77    257,59    23    59,24    316,83",
    );
    // The unit column (`l`) stays in the description of a wide table.
    assert_eq!(i.description, "EFECTA 95 CN27101245 l");
    assert_eq!(i.amount.value, d("316.83"));
}

#[test]
fn two_blocks_side_by_side_and_a_currency_in_the_label() {
    let s = summary_of(
        "    Exclusief BTW            € 593,36          Subtotaal                 € 717,97",
    );
    assert_eq!(
        (s.kind, s.amount.value),
        (SummaryKind::Subtotal, d("717.97"))
    );
    let s = summary_of(" Prijzen zijn inclusief BTW          Factuur totaal EUR        49,99");
    assert_eq!((s.kind, s.amount.value), (SummaryKind::Total, d("49.99")));
    assert_eq!(s.amount.currency, Some("EUR"));
    let s = summary_of("VAT - Ireland (23% on €170.68)         €39.26");
    assert_eq!((s.kind, s.rate), (SummaryKind::Tax, Some(d("23"))));
}

#[test]
fn the_total_is_not_the_amount_due_after_a_payment() {
    // 100.00 + 20.00 (tax) = 120.00; paid 120.00, nothing left to pay.
    let text = "Description   Amount\nHosting   100.00\nBTW   20.00\n\
                Bedrag inclusief BTW   € 120,00\nBetaald met iDeal   € 120,00-\nTe betalen   € 0,00\n";
    let (items, total, tax, _) = figures(text);
    assert_eq!(
        (items, total, tax),
        (d("100.00"), Some(d("120.00")), d("20.00"))
    );
    // A credit applied after the total, then the amount due: 90 = 100 - 10.
    let text =
        "GPU   $100.00\nTotal   $100.00\nCredit applied (PROMO10)   -$10.00\nAmount due   $90.00\n";
    let inv = parse(text);
    assert_eq!(
        inv.summaries()
            .filter(|s| s.kind == SummaryKind::Credit)
            .count(),
        0
    );
    let (_, total, _, _) = figures(text);
    assert_eq!(total, Some(d("100.00")));
}

#[test]
fn a_label_then_its_amount_on_the_next_line_after_a_note() {
    let text = "GPU   $100.00\nSubtotal   $100.00\nCommit discount COMMIT10\n(10% off $100.00)   -$10.00\nTotal   $90.00\n";
    let inv = parse(text);
    let c: Vec<Decimal> = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Credit)
        .map(|s| s.amount.value)
        .collect();
    assert_eq!(c, [d("-10.00")]);
    assert_eq!(inv.items().count(), 1);
}

#[test]
fn gross_items_with_their_vat_stated_and_included_parts() {
    // 399.00 + 69.99 = 468.99 incl. VAT; the levy 4.24 is part of the 399.00;
    // the VAT 81.40 is included (468.99 / 1.21 = 387.59; 468.99 - 387.59 = 81.40).
    let text = "Artikel   Aantal   Prijs\n\
                Apple iPad Air    1    € 399,00    21%    € 399,00\n\
                \x20 Incl. Thuiskopieheffing: Thuiskopie €3.50    1    21%    € 4,24\n\
                Cover    1    € 69,99    21%    € 69,99\n\
                BTW 21%    € 81,40\nTotaal    € 468,99\n";
    let (items, total, tax, _) = figures(text);
    assert_eq!(
        (items, total, tax),
        (d("468.99"), Some(d("468.99")), d("0"))
    );
}

#[test]
fn yen_invoices_have_whole_number_amounts() {
    // 3 x 4,400 = 13,200; 13,200 - 2,000 = 11,200; tax 1,120; 12,320.
    let text = "  No.  品目   数量   単位   単価   金額\n\
                \x20  1   クラウドサーバ    3    台    4,400    13,200\n\
                \x20  2   キャンペーン割引    1    式    -2,000    -2,000\n\
                小計    11,200円\n消費税(10%)    1,120円\n合計    12,320円\n";
    let (items, total, tax, currency) = figures(text);
    assert_eq!(
        (items, total, tax),
        (d("11200"), Some(d("12320")), d("1120"))
    );
    assert_eq!(currency.as_deref(), Some("JPY"));
}

#[test]
fn hierarchical_sections_are_counted_once() {
    // Two services restated by their Charges / Credits / VAT sub-lines
    // (80.00 - 10.00 + 13.30 = 83.30; 20.00 + 3.80 = 23.80), and a summary
    // box above them restating their sum (83.30 + 23.80 = 107.10).
    let text = "Bill to   Acme   TOTAL AMOUNT DUE ON March 2 , 2026   $107.10\n\
                Summary\n\
                Service Charges                      $107.10\n\
                \x20   Charges                          $100.00\n\
                \x20   Credits                          -$10.00\n\
                \x20   VAT **                            $17.10\n\
                Total for this invoice               $107.10\n\
                Detail\n\
                \x20   Elastic Compute                   $83.30\n\
                \x20        Charges              $80.00\n\
                \x20        Credits             -$10.00\n\
                \x20        VAT **               $13.30\n\
                \x20   Object Storage                    $23.80\n\
                \x20        Charges              $20.00\n\
                \x20        VAT **                $3.80\n\
                Total for this invoice               $107.10\n";
    let inv = parse(text);
    let items: Vec<Decimal> = inv.items().map(|i| i.amount.value).collect();
    assert_eq!(items, [d("83.30"), d("23.80")]);
    assert_eq!(
        inv.summaries()
            .filter(|s| s.kind != SummaryKind::Total)
            .count(),
        0
    );
    let (_, total, _, _) = figures(text);
    assert_eq!(total, Some(d("107.10")));
}

#[test]
fn position_and_quantity_before_the_description_and_carried_sums() {
    // Pos., Menge, Beschreibung, Rabatt %, VK-Preis, Zeilenbetrag:
    // 1 x 46,41; 1,35 TB x 1,00 = 1,35; 1 x 1.165,56 less 10 % = 1.049,00.
    let text = "Pos.   Menge     Beschreibung     Rabatt %     VK-Preis     Zeilenbetrag\n\
                1          1     Dedicated Root Server AX42             46,41        46,41\n\
                \x20                Grundgebühr pro Einheit\n\
                \x20                                Übertrag EUR                 46,41\n\
                8       1,35     Zusätzlicher Traffic (TB)               1,00         1,35\n\
                10         1     Dedicated GPU Server    10      1.165,56     1.049,00\n\
                \x20              Summe ohne MwSt. EUR     1.096,76\n\
                \x20              19 % MwSt. EUR             208,38\n\
                \x20              Gesamtbetrag EUR         1.305,14\n";
    let inv = parse(text);
    let items: Vec<(Option<Decimal>, Option<Decimal>, Decimal)> = inv
        .items()
        .map(|i| (i.quantity, i.unit_price, i.amount.value))
        .collect();
    assert_eq!(
        items,
        [
            (Some(d("1")), Some(d("46.41")), d("46.41")),
            (Some(d("1.35")), Some(d("1.00")), d("1.35")),
            // 1 x 1165.56 less the 10 % of the discount column: the price
            // is not kept, so line-arithmetic does not report it.
            (Some(d("1")), None, d("1049.00")),
        ]
    );
    // 46.41 + 1.35 + 1049.00 = 1096.76; x 0.19 = 208.3844 -> 208.38; 1305.14.
    let (items, total, tax, currency) = figures(text);
    assert_eq!(
        (items, total, tax),
        (d("1096.76"), Some(d("1305.14")), d("208.38"))
    );
    assert_eq!(currency.as_deref(), Some("EUR"));
}

#[test]
fn list_price_and_discount_columns_and_an_overview_above_the_detail() {
    // 388.00 - 38.80 = 349.20; 512.35 x 0.12 = 61.482 -> 61.48;
    // 349.20 + 61.48 = 410.68, tax included (6%).
    let text = "币种：人民币（CNY）\n\
                \x20   本期应付金额        ¥410.68\n\
                \x20   代金券抵扣         -¥100.00\n\
                \x20   现金支付（已从账户余额扣款）   ¥310.68\n\
                \x20   账户余额（截至2026-11-03）   ¥1,204.57\n\
                产品名称     计费项     用量     单价     原价     优惠金额     应付金额\n\
                云服务器 ECS    实例 ecs.g7.large    1个月（包年包月）    ¥388.00/月    ¥388.00    -¥38.80    ¥349.20\n\
                对象存储 OSS    标准存储容量    512.35 GB·月    ¥0.12/GB·月    ¥61.48    ¥0.00    61.48元\n\
                合计：   ¥410.68\n\
                税额（增值税 6%）   ¥23.25\n";
    let inv = parse(text);
    let items: Vec<(String, Decimal)> = inv
        .items()
        .map(|i| (i.description.clone(), i.amount.value))
        .collect();
    assert_eq!(
        items,
        [
            (
                "云服务器 ECS 实例 ecs.g7.large 1个月(包年包月)".to_string(),
                d("349.20")
            ),
            ("对象存储 OSS 标准存储容量".to_string(), d("61.48")),
        ]
    );
    // The voucher is applied to the amount due, not a discount; the tax
    // (410.68 - 410.68 / 1.06 = 23.25) is included.
    assert_eq!(
        inv.summaries()
            .filter(|s| s.kind == SummaryKind::Credit)
            .count(),
        0
    );
    let (_, total, tax, currency) = figures(text);
    assert_eq!((total, tax), (Some(d("410.68")), d("0")));
    assert_eq!(currency.as_deref(), Some("CNY"));
}

#[test]
fn a_summary_page_and_a_detail_page_are_counted_once() {
    // Page 1: categories HT / TVA / TTC (24.99 + 5.00 = 29.99; 0.00), their
    // total; page 2: the detail line and the same total. Items: 29.99 once.
    let text = "Abonnements, forfaits et options       24.99       5.00       29.99\n\
                Communications                          0.00       0.00        0.00\n\
                Total facture                          24.99       5.00       29.99\n\
                TVA 20% payée sur les encaissements                5.00\n\
                Somme à payer                                          29.99 € TTC\n\
                \x0cDétail de votre consommation\n\
                Free Haut Débit du 1er au 31 Juillet 2015                 29.99\n\
                Total facture                          24.99                  29.99\n";
    let inv = parse(text);
    let items: Vec<Decimal> = inv.items().map(|i| i.amount.value).collect();
    assert_eq!(items, [d("29.99")]);
    let due = inv
        .summaries()
        .find(|s| s.label == "Somme à payer")
        .unwrap();
    assert_eq!(
        (due.amount.value, due.amount.currency),
        (d("29.99"), Some("EUR"))
    );
    // The VAT (5.00) is included in the 29.99.
    let (_, total, tax, currency) = figures(text);
    assert_eq!((total, tax), (Some(d("29.99")), d("0")));
    assert_eq!(currency.as_deref(), Some("EUR"));
}

#[test]
fn a_currency_named_only_in_a_note() {
    // The rupee sign of the PDF is not in the text layer; the only currency
    // text is `Rs` in a note under the item.
    let text = "Product    Title    Qty    Price    Total\n\
                Memory cards    SanDisk Ultra 16 GB    1    278.61    319.00\n\
                ACCEA5E3GPBQJ9P9    Price is inclusive of Promotional Discount of Rs -40.00,\n\
                Grand Total    319.00\n";
    let (items, total, _, currency) = figures(text);
    assert_eq!((items, total), (d("319.00"), Some(d("319.00"))));
    assert_eq!(currency.as_deref(), Some("INR"));
    let m = all_consuming(grammar::money).parse("Rs. 40.00").unwrap().1;
    assert_eq!((m.value, m.currency), (d("40.00"), Some("INR")));
}

/// The stated subtotal that is checked: the last one left a summary.
fn stated_subtotal(text: &str) -> Option<Decimal> {
    parse(text)
        .summaries()
        .filter(|s| s.kind == SummaryKind::Subtotal)
        .last()
        .map(|s| s.amount.value)
}

#[test]
fn section_subtotals_and_the_net_after_a_discount_are_not_the_subtotal() {
    // 小计 under each product: 349.20 + 50.00 = 399.20; 90.00; the invoice
    // has no subtotal of its own.
    let text = "云服务器 ECS    实例    ¥349.20\n\
                \x20   ESSD云盘    50.00元\n\
                小计：   ¥399.20\n\
                短信服务    国内验证码短信    90.00元\n\
                小计：   ¥90.00\n\
                合计：   ¥489.20\n";
    assert_eq!(stated_subtotal(text), None);
    // `Total excluding tax` after the discount is the net after it:
    // 1736.67 - 98.67 = 1638.00; the subtotal checked is 1736.67.
    let text = "H100    41.25 h    $23.92    $986.70\nA100    $749.97\n\
                Subtotal   $1,736.67\nDiscount   -$98.67\n\
                Total excluding tax   $1,638.00\nTotal   $1,638.00\n";
    assert_eq!(stated_subtotal(text), Some(d("1736.67")));
    // VAT included in gross items: the net figure restates too
    // (106.00 - 6.00 = 100.00).
    let text = "GPU    ¥106.00\n合计：   ¥106.00\n不含税金额   ¥100.00\n税额（6%）   ¥6.00\n";
    assert_eq!(stated_subtotal(text), None);
}

#[test]
fn descriptions_that_run_onto_the_next_lines() {
    let text = "Description        Qty    Unit price    Amount\n\
                8x H100 SXM 80GB (on-demand)    41.25 h    $23.92    $986.70\n\
                \x20 instance gpu-8x-h100-a - us-east-3\n\
                \x20 Oct 3, 2026 09:15 - Oct 4, 2026 01:30 (16h 15m)\n\
                Egress to internet (see attached usage report)\n\
                1          1     Dedicated Root Server AX42     46,41     46,41\n\
                \x20                Grundgebühr pro Einheit\n";
    let inv = parse(text);
    let d: Vec<&str> = inv.items().map(|i| i.description.as_str()).collect();
    assert_eq!(
        d,
        [
            "8x H100 SXM 80GB (on-demand) instance gpu-8x-h100-a - us-east-3 Oct 3, 2026 09:15 - Oct 4, 2026 01:30 (16h 15m)",
            "Dedicated Root Server AX42 Grundgebühr pro Einheit",
        ]
    );
    // A line at the item's own column (where a new charge would start) is
    // not joined: it is reported.
    let unparsed: Vec<u64> = inv
        .lines
        .iter()
        .filter(|l| matches!(l.kind, LineKind::Unparsed(_)))
        .map(|l| l.line)
        .collect();
    assert_eq!(unparsed, [5]);
}

#[test]
fn an_item_equal_to_the_sum_of_the_others_is_still_an_item() {
    // 10.00 = 5.00 + 5.00 by chance; all three are charges: 20.00.
    let text = "GPU    10.00\nStorage    5.00\nEgress    5.00\nTotal    20.00\n";
    let (items, total, _, _) = figures(text);
    assert_eq!((items, total), (d("20.00"), Some(d("20.00"))));
}

#[test]
fn sections_of_equal_sums_under_a_grand_total_are_not_repeats() {
    // Two sections of 50.00 each, then the grand total 50.00 + 50.00 = 100.00.
    let text =
        "GPU    50.00\nTotal    50.00\nStorage    50.00\nTotal    50.00\nGrand total    100.00\n";
    let (items, total, _, _) = figures(text);
    assert_eq!((items, total), (d("100.00"), Some(d("100.00"))));
}

// Tests that pin decisions `cargo mutants` showed were untested
// (docs/reliability.md, "Mutation testing", lists them).

#[test]
fn a_byte_order_mark_before_the_first_line_is_dropped() {
    // Without the BOM dropped, the key would be `\u{feff}invoice #`, which
    // is no number key, and the number would stay unknown.
    let inv = parse("\u{feff}Invoice #: INV-7\nCompute  10.00\n");
    assert_eq!(inv.number.as_deref(), Some("INV-7"));
}

#[test]
fn a_percent_cell_after_two_amounts_then_text_is_not_a_line_vat() {
    // `21%` follows two amounts, but the cell after it is the word `VAT`,
    // not an amount: no line VAT to cut off. With the rate removed, the last
    // cell `VAT` is no amount, so the line is not an item.
    assert!(column_item(1, "Storage  10.00  20.00  21%  VAT", false).is_none());
}

#[test]
fn a_percent_in_the_first_cell_stays_in_the_description() {
    // Only a rate column after the description is dropped; a first cell
    // `21%` is description text (column 1).
    let i = match column_item(1, "21%  Storage  5.00", false) {
        Some(Ok(i)) => i,
        other => panic!("{other:?}"),
    };
    assert_eq!(i.description, "21% Storage");
    assert_eq!(i.column, 1);
    assert_eq!(i.amount.value, d("5.00"));
}

#[test]
fn a_five_digit_first_number_is_no_position_number() {
    // `12345` has five digits: not a position number (at most four), so the
    // line starts with a number and is not an item.
    assert!(column_item(1, "12345  Storage  5.00", false).is_none());
    // Four digits are one: the item is `Storage`.
    match column_item(1, "1234  Storage  5.00", false) {
        Some(Ok(i)) => assert_eq!(i.description, "Storage"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_position_and_quantity_need_a_short_position_number() {
    // `12345` is no position number (five digits), so `3` is no leading
    // quantity: the line starts with figures and is not an item.
    assert!(column_item(1, "12345  3  Storage  5.00", false).is_none());
    // A lone figure before the amount: no description, no item.
    assert!(column_item(1, "7  5.00", false).is_none());
}

#[test]
fn an_amount_with_a_currency_left_before_the_rate_is_no_quantity() {
    // `$3.00` is the rate (a figure before it), then `$2.00` is left: a
    // quantity has no currency, so it cannot be placed (column 10).
    match column_item(1, "Storage  $2.00  $3.00  $6.00", false) {
        Some(Err(u)) => assert_eq!(u.column, 10),
        other => panic!("{other:?}"),
    }
}

#[test]
fn page_markers_need_numbers() {
    assert!(is_title("Page 2"));
    assert!(is_title("Page 2 of 3"));
    assert!(!is_title("Page one"));
    assert!(!is_title("Page 1 of two"));
    // `第 1 页` (page 1) is a page marker; `第1季度` (quarter 1) is not.
    assert!(is_title("第 1 页"));
    assert!(!is_title("第1季度"));
}

#[test]
fn a_repeat_is_closed_by_totals_only() {
    // Two parts closed by totals of 10.00, then a `Storage` item that no
    // total closes (the `VAT` line after it is not a total): the parts are
    // not the whole invoice twice, so all three items count
    // (10.00 + 10.00 + 5.00 = 25.00).
    let text =
        "Compute  10.00\nTotal  10.00\nCompute  10.00\nTotal  10.00\nStorage  5.00\nVAT  1.05\n";
    let inv = parse(text);
    let sum: Decimal = inv.items().map(|i| i.amount.value).sum();
    assert_eq!((inv.items().count(), sum), (3, d("25.00")));
}

#[test]
fn a_rate_number_with_a_decimal_point_is_removed_from_the_label() {
    // `7.7 % MWST`: the rate 7.7 written apart from its `%` is dropped
    // from the label, whatever its decimal point.
    assert_eq!(
        strip_brackets("7.7 % MWST"),
        ("mwst".to_string(), Some(d("7.7")))
    );
}

#[test]
fn a_quantity_and_unit_after_a_description_of_several_cells() {
    // Five cells before the amount: the description in three, then `10`
    // and `hours` (the quantity and its unit are the two cells before the end).
    match column_item(1, "Compute  A100 80GB  us-east-1  10  hours  25.00", false) {
        Some(Ok(i)) => {
            assert_eq!(i.description, "Compute A100 80GB us-east-1");
            assert_eq!(
                (i.quantity, i.unit.as_deref()),
                (Some(d("10")), Some("hours"))
            );
            assert_eq!(i.amount.value, d("25.00"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_label_then_a_positive_credit_and_a_tax_on_the_next_lines() {
    // A credit printed positive is stored negative (10.00 -> -10.00); a
    // tax keeps its sign (7.20 = 8% of 90.00).
    let text = "Compute  100.00\nCommit discount COMMIT10\n(10% off 100.00)   10.00\nTax\n(8% of 90.00)   7.20\nTotal  97.20\n";
    let inv = parse(text);
    let s: Vec<(SummaryKind, Decimal)> = inv
        .summaries()
        .filter(|s| s.kind != SummaryKind::Total)
        .map(|s| (s.kind, s.amount.value))
        .collect();
    assert_eq!(
        s,
        [
            (SummaryKind::Credit, d("-10.00")),
            (SummaryKind::Tax, d("7.20"))
        ]
    );
}

#[test]
fn a_label_line_joins_only_a_bracketed_note() {
    // `Storage (SSD)` only ends with `)`: it is an item, not the note of
    // the `Tax` label above it, which stays unparsed.
    let inv = parse("Compute  100.00\nTax\nStorage (SSD)  5.00\n");
    assert_eq!(inv.items().count(), 2);
    assert!(matches!(inv.lines[1].kind, LineKind::Unparsed(_)));
}

#[test]
fn an_included_part_must_be_indented_under_the_item() {
    // `Incl. support` starts in the same column as `Compute`: a charge of
    // its own, not a part of it (100.00 + 4.24 = 104.24).
    let inv = parse("Compute  100.00\nIncl. support  4.24\n");
    let sum: Decimal = inv.items().map(|i| i.amount.value).sum();
    assert_eq!((inv.items().count(), sum), (2, d("104.24")));
}

#[test]
fn gross_items_less_a_discount_include_their_vat() {
    // 110.00 - 10.00 = 100.00 = the total: the VAT (100.00 / 1.21 = 82.64,
    // 100.00 - 82.64 = 17.36) is included, not added.
    let text = "Compute  110.00\nDiscount  -10.00\nVAT 21%  17.36\nTotal  100.00\n";
    let (items, total, tax, _) = figures(text);
    assert_eq!(
        (items, total, tax),
        (d("110.00"), Some(d("100.00")), d("0"))
    );
}

#[test]
fn a_figure_after_the_rate_is_cut_from_the_label() {
    // `Tax 8% on $100.00`: the rate is taken, and the digits ending the
    // label are cut with it.
    assert_eq!(
        strip_brackets("Tax 8% on $100.00"),
        ("tax on $".to_string(), Some(d("8")))
    );
}

#[test]
fn a_sum_carried_with_a_currency_code_after_its_label() {
    // `Übertrag EUR:`: the carried sum, its label followed by a code (the
    // colon keeps the code off the amount); it restates the items above
    // and is no charge.
    assert_eq!(
        one("Übertrag EUR:  1234.56").0,
        LineKind::Header(HeaderField::Restated)
    );
}

fn dt(y: i32, m: u32, d: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_time(NaiveTime::MIN)
}

#[test]
fn a_month_period_runs_from_its_first_to_its_last_day() {
    // October has 31 days; December's last day comes from 1 January of the
    // next year, minus one day.
    assert_eq!(
        period("2025年10月"),
        Some((dt(2025, 10, 1), dt(2025, 10, 31)))
    );
    assert_eq!(
        period("2025年12月"),
        Some((dt(2025, 12, 1), dt(2025, 12, 31)))
    );
    assert_eq!(period("not a month"), None);
}

#[test]
fn text_items_become_line_items_with_their_currency_and_period() {
    let text = "Billing period: 2025年10月\nStorage  20 GB  $20.00\nCompute  USD 5.00\n";
    let inv = parse(text);
    let items: Vec<&TextItem> = inv.items().collect();
    assert_eq!(items.len(), 2);
    // No header currency: the `$` of the amount names USD.
    let li = items[0].to_line_item(false, &inv);
    assert_eq!(
        (li.line, li.description.as_str(), li.amount),
        (2, "Storage", d("20.00"))
    );
    assert_eq!(
        (li.quantity, li.unit.as_deref()),
        (Some(d("20")), Some("GB"))
    );
    assert_eq!(li.currency.as_deref(), Some("USD"));
    // The item has no dates of its own: the invoice's period.
    assert_eq!(
        (li.start, li.end),
        (Some(dt(2025, 10, 1)), Some(dt(2025, 10, 31)))
    );
    // A header currency: the `$` symbol yields to it, the code `USD` does not.
    assert_eq!(items[0].to_line_item(true, &inv).currency, None);
    assert_eq!(
        items[1].to_line_item(true, &inv).currency.as_deref(),
        Some("USD")
    );
}

#[test]
fn taxes_and_credits_are_line_items_and_totals_are_not() {
    let tax = summary_of("Tax (8%)   $8.00");
    let li = tax.to_line_item(false).unwrap();
    assert_eq!((li.line, li.amount), (1, d("8.00")));
    assert_eq!(li.forced, Some((Category::Tax, "text-tax")));
    assert_eq!(li.currency.as_deref(), Some("USD"));
    assert_eq!(tax.currency(false).as_deref(), Some("USD"));
    // A header currency: the `$` symbol yields to it.
    assert_eq!(tax.currency(true), None);
    let credit = summary_of("Discount   -$10.00");
    let li = credit.to_line_item(false).unwrap();
    assert_eq!(li.amount, d("-10.00"));
    assert_eq!(li.forced, Some((Category::Credit, "text-credit")));
    assert!(summary_of("Total   $98.00").to_line_item(false).is_none());
    assert!(
        summary_of("Subtotal   $90.00")
            .to_line_item(false)
            .is_none()
    );
}

#[test]
fn an_amount_due_with_its_currency_in_brackets_after_a_credit() {
    // `Amount due (USD)` is an amount due once the bracket is removed:
    // after the credit it is what is left to pay (100.00 - 10.00 = 90.00),
    // and the invoice total stays 100.00.
    let text = "GPU   $100.00\nTotal   $100.00\nCredit applied (PROMO10)   -$10.00\nAmount due (USD)   $90.00\n";
    let (_, total, _, _) = figures(text);
    assert_eq!(total, Some(d("100.00")));
}

#[test]
fn the_net_figure_of_gross_items_restates_too() {
    // 121.00 gross = the total; VAT 21.00 is included; the net subtotal
    // 100.00 = 121.00 - 21.00 restates it, so no subtotal is left to check.
    let text = "Compute  121.00\nSubtotal  100.00\nVAT 21%  21.00\nTotal  121.00\n";
    assert_eq!(stated_subtotal(text), None);
    let (items, total, tax, _) = figures(text);
    assert_eq!(
        (items, total, tax),
        (d("121.00"), Some(d("121.00")), d("0"))
    );
}

#[test]
fn a_line_of_exactly_the_limit_is_read() {
    // 7 + 989 + 4 = 1000 characters: not longer than the limit, so read.
    let line = format!("Storage{}5.00", " ".repeat(MAX_LINE_CHARS - 11));
    assert_eq!(line.chars().count(), MAX_LINE_CHARS);
    assert_eq!(item(&line).amount.value, d("5.00"));
    // One more character is over it.
    let line = format!("Storage{}5.00", " ".repeat(MAX_LINE_CHARS - 10));
    assert!(matches!(one(&line).0, LineKind::Unparsed(_)));
}

#[test]
fn rates_written_onto_a_word_or_after_an_at_sign() {
    // `10%対象` (Japanese "subject to 10%"): the rate is cut off the word.
    assert_eq!(
        strip_brackets("10%対象"),
        ("対象".to_string(), Some(d("10")))
    );
    // A `%` inside a word that starts with no number stays.
    assert_eq!(
        strip_brackets("Tax 8% x%y"),
        ("tax x%y".to_string(), Some(d("8")))
    );
    // `Tax @ 8%`: the `@` goes with the rate.
    assert_eq!(
        strip_brackets("Tax @ 8%"),
        ("tax".to_string(), Some(d("8")))
    );
}

#[test]
fn a_rate_in_a_bracket_before_a_nested_bracket() {
    // The rate 8 is in the outer bracket, before the nested `(net)`.
    assert_eq!(
        strip_brackets("Tax (8% (net))"),
        ("tax".to_string(), Some(d("8")))
    );
}

#[test]
fn a_rate_written_without_a_leading_zero() {
    // `(.5%)` is half a percent, not 5%.
    let s = summary_of("Tax (.5%)   $0.50");
    assert_eq!((s.kind, s.rate), (SummaryKind::Tax, Some(d("0.5"))));
}

#[test]
fn leaders_after_short_runs_of_dots() {
    // `Misc..,`: the two dots are no leader; the leader starts after the
    // comma, so the description is `Misc..,`.
    match leader_item(1, "Misc..,........ $5.00") {
        Some(Ok(i)) => assert_eq!(
            (i.description.as_str(), i.amount.value),
            ("Misc..,", d("5.00"))
        ),
        other => panic!("{other:?}"),
    }
    // A leader at the start (no description before it), then the real one:
    // everything before the second leader is the description.
    match leader_item(1, "..... Storage ....... $5.00") {
        Some(Ok(i)) => assert_eq!(i.description, "..... Storage"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_discount_label_without_a_code_is_a_credit() {
    // `Commit discount`: the last word names the kind; no promotion code
    // to drop.
    assert_eq!(
        summary_kind("Commit discount"),
        Some((SummaryKind::Credit, None))
    );
}

#[test]
fn two_blocks_side_by_side_the_label_just_before_the_amount() {
    // Six cells: the label of the amount is the fifth (`Subtotaal`), not the
    // third or the first.
    let s = summary_of("Exclusief BTW  € 593,36  BTW 21%  € 124,61  Subtotaal  € 717,97");
    assert_eq!(
        (s.kind, s.label.as_str(), s.amount.value),
        (SummaryKind::Subtotal, "Subtotaal", d("717.97"))
    );
}

#[test]
fn a_currency_code_ending_the_summary_label() {
    // `Total EUR:` then a bare amount: the code in the label names it.
    let s = summary_of("Total EUR:  49.99");
    assert_eq!(s.amount.value, d("49.99"));
    assert_eq!((s.amount.currency, s.amount.explicit), (Some("EUR"), true));
}

#[test]
fn a_noted_currency_starts_a_word() {
    assert_eq!(
        noted_currency("Promotional Discount of Rs -40.00,").as_deref(),
        Some("INR")
    );
    // `$5.00` inside the word `x$5.00` is no amount.
    assert_eq!(noted_currency("ref x$5.00"), None);
}

#[test]
fn a_tax_sub_line_under_a_service_is_restated_without_a_total() {
    // No stated total, so step 4 cannot restate the VAT: only the sub-line
    // rule does (70.00 + 13.30 = 83.30, the service line's amount).
    let text = "Elastic Compute                        $83.30\n\
                \x20    Charges                   $70.00\n\
                \x20    VAT **                    $13.30\n";
    let inv = parse(text);
    let items: Vec<Decimal> = inv.items().map(|i| i.amount.value).collect();
    assert_eq!(items, [d("83.30")]);
    assert_eq!(inv.summaries().count(), 0);
}

#[test]
fn an_indented_total_under_an_item_is_no_sub_line() {
    // Only taxes and credits restate the line above; a total indented under
    // the last item is still the invoice's total.
    let text = "Object Storage                         $23.80\n\
                \x20    Total                     $23.80\n";
    let inv = parse(text);
    let totals: Vec<Decimal> = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Total)
        .map(|s| s.amount.value)
        .collect();
    assert_eq!(totals, [d("23.80")]);
}

#[test]
fn a_gross_subtotal_is_not_the_net_figure() {
    // Gross items (119.00 = 100.00 + 19 % VAT): the VAT is included, so it
    // restates; the subtotal 119.00 is not the net 119.00 - 19.00 = 100.00,
    // so it stays.
    let text = "Web hosting plan                  119.00 EUR\n\
                Subtotal                          119.00 EUR\n\
                VAT 19%                            19.00 EUR\n\
                Total                             119.00 EUR\n";
    let inv = parse(text);
    let kinds: Vec<(SummaryKind, Decimal)> =
        inv.summaries().map(|s| (s.kind, s.amount.value)).collect();
    assert_eq!(
        kinds,
        [
            (SummaryKind::Subtotal, d("119.00")),
            (SummaryKind::Total, d("119.00"))
        ]
    );
}

#[test]
fn a_carried_sum_without_a_currency_code_keeps_its_last_word() {
    assert!(matches!(
        one("Carried forward                        $1,250.00").0,
        LineKind::Header(HeaderField::Restated)
    ));
}

#[test]
fn a_price_and_an_amount_with_their_currency() {
    // Two money cells after the description: the price, then the amount.
    let i = item("Support plan (monthly)      $49.00      $49.00");
    assert_eq!((i.quantity, i.unit_price), (None, Some(d("49.00"))));
    assert_eq!(i.amount.value, d("49.00"));
}

#[test]
fn a_bare_figure_before_the_amount_is_the_quantity() {
    // 120 x 0.05 = 6.00, the price not printed.
    let i = item("Egress traffic (GB)      120      6.00");
    assert_eq!((i.quantity, i.unit_price), (Some(d("120")), None));
}

#[test]
fn a_whole_number_before_the_quantity_is_no_price() {
    // `12` (a rack number) before `1 month` is not money-like: it cannot be
    // placed, and the line is reported.
    assert!(matches!(
        one("Server rack      12      1 month      49.00").0,
        LineKind::Unparsed(_)
    ));
    // A money-like figure there is the price: 1 x 49.00.
    let i = item("Server rack      49.00      1 month      49.00");
    assert_eq!((i.quantity, i.unit_price), (Some(d("1")), Some(d("49.00"))));
}

#[test]
fn two_date_cells_the_first_is_the_start() {
    let i = item("Cloud server CX22   2026-03-01   2026-03-31   4.51");
    assert_eq!(
        i.start.map(|s| s.date()),
        NaiveDate::from_ymd_opt(2026, 3, 1)
    );
}

#[test]
fn a_rate_in_the_description_does_not_override_the_columns() {
    // The quantity column is read (300); the `@ $1.29/hr` in the description
    // is not applied over it (300 x 1.29 = 387.00).
    let i = item("GPU time 300 hrs @ $1.29/hr      300      387.00");
    assert_eq!(
        (i.quantity, i.unit.as_deref(), i.unit_price),
        (Some(d("300")), None, None)
    );
}
