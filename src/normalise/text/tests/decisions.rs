//! Decisions that mutation testing showed were untested.

use super::*;

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
