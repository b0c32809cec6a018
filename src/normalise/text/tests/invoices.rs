//! Whole invoices: layouts, sections, totals printed twice, VAT included.

use super::*;

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

/// Issue 26: a header's date or period in several languages.
#[test]
fn invoice_dates_and_periods_in_several_languages() {
    for (text, date) in [
        ("Invoice date: 2025-11-30\n", dt(2025, 11, 30)),
        ("Rechnungsdatum: 30.11.2025\n", dt(2025, 11, 30)),
        ("开票日期：2025年11月30日\n", dt(2025, 11, 30)),
        ("請求日: 2025/11/30\n", dt(2025, 11, 30)),
        ("Factuurdatum: 30.11.2025\n", dt(2025, 11, 30)),
    ] {
        assert_eq!(parse(text).date, Some(date), "{text}");
    }
    for text in [
        "Billing period: 2025-11-01 - 2025-11-30\n",
        "Leistungszeitraum: 01.11.2025 - 30.11.2025\n",
        "Leistungszeitraum: 01.11.2025 bis 30.11.2025\n",
        "账单周期：2025-11-01 至 2025-11-30\n",
        "請求期間：2025年11月1日～2025年11月30日\n",
        "Service period: 2025-11-01 to 2025-11-30\n",
    ] {
        assert_eq!(
            parse(text).period,
            Some((dt(2025, 11, 1), dt(2025, 11, 30))),
            "{text}"
        );
    }
    assert_eq!(
        line::period_in("Service ID svc-322699, period 2025-10-01 to 2025-10-31"),
        Some((dt(2025, 10, 1), dt(2025, 10, 31)))
    );
    assert_eq!(line::period_in("instance gpu-node-01 - us-east-3"), None);
}

/// Three printings of the same 10.00 (a summary, a page-1 list, the
/// detail): 30.00 = 3 x 10.00 in three blocks of 10.00; the detail (three
/// lines) is counted, the four other lines set aside.
#[test]
fn charges_printed_three_times_are_counted_once() {
    let inv = parse(
        "Summary\nCloud charges   $10.00\nTotal   $10.00\n\nBy service\nCompute   $7.00\nStorage   $3.00\n\nDetail\nGPU hours   $6.00\nDisk   $3.00\nEgress   $1.00\n",
    );
    let items: Vec<Decimal> = inv.items().map(|i| i.amount.value).collect();
    assert_eq!(items, [d("6.00"), d("3.00"), d("1.00")]);
    let s = inv.set_aside.expect("set aside");
    assert_eq!((s.multiple, s.stated, s.read), (3, d("10.00"), d("30.00")));
    assert_eq!(s.lines, [2, 6, 7]);
    assert_eq!(s.sum, d("20.00"));
    assert_eq!(s.kept, (10, 12));
}

/// 2.00 + 3.00 = 5.00 and 3.22 in two blocks, stated 4.11: 8.22 is 2 x
/// 4.11 but no block is 4.11, so nothing is set aside.
#[test]
fn no_block_equal_to_the_stated_figure_sets_nothing_aside() {
    let inv = parse("GPU   $2.00\nDisk   $3.00\n\nNetwork\nEgress   $3.22\nTotal   $4.11\n");
    assert_eq!(inv.items().count(), 3);
    assert_eq!(inv.set_aside, None);
}
