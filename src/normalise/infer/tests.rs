use super::*;

fn rows(csv: &[&[&str]]) -> Vec<Vec<String>> {
    csv.iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

fn role(i: &Inference, r: Role) -> Option<usize> {
    i.map.get(r)
}

#[test]
fn a_headerless_table_by_its_product() {
    // 720 x 0.0080 = 5.7600 = 5.76; 1 x 3.50 = 3.50; 2 x 1.19 = 2.38.
    let r = rows(&[
        &[
            "Server",
            "CX21 #1",
            "2025-11-01",
            "2025-11-30",
            "720",
            "0.0080",
            "5.76",
        ],
        &[
            "Backup",
            "CX21 #1",
            "2025-11-01",
            "2025-11-30",
            "1",
            "3.50",
            "3.50",
        ],
        &[
            "IP",
            "Primary IPv4",
            "2025-11-01",
            "2025-11-30",
            "2",
            "1.19",
            "2.38",
        ],
    ]);
    let i = infer(&r, &Vec::new(), DecimalMark::Dot).unwrap();
    assert_eq!(i.header, None);
    assert_eq!(i.first_data, 0);
    assert_eq!(role(&i, Role::Amount), Some(6));
    assert_eq!(role(&i, Role::Quantity), Some(4));
    assert_eq!(role(&i, Role::UnitPrice), Some(5));
    assert_eq!(role(&i, Role::Start), Some(2));
    assert_eq!(role(&i, Role::End), Some(3));
    // `CX21 #1` twice: column 2 has 2 distinct values, column 1 has 3.
    assert_eq!(role(&i, Role::Description), Some(0));
}

#[test]
fn a_header_row_is_all_text_over_numbers() {
    let r = rows(&[
        &["what", "how many", "each", "sum"],
        &["GPU", "10", "1.50", "15.00"],
        &["Disk", "3", "2.00", "6.00"],
    ]);
    let i = infer(&r, &Vec::new(), DecimalMark::Dot).unwrap();
    assert_eq!(i.header, Some(0));
    assert_eq!(i.first_data, 1);
    // 10 x 1.50 = 15.00 and 3 x 2.00 = 6.00: `sum` is the amount.
    assert_eq!(role(&i, Role::Amount), Some(3));
    assert_eq!(role(&i, Role::Quantity), Some(1));
    assert_eq!(role(&i, Role::UnitPrice), Some(2));
    assert_eq!(i.columns[0].header.as_deref(), Some("sum"));
}

#[test]
fn the_rightmost_numbers_without_a_product() {
    let r = rows(&[&["a", "1", "7.00"], &["b", "2", "9.00"]]);
    let i = infer(&r, &Vec::new(), DecimalMark::Dot).unwrap();
    assert_eq!(role(&i, Role::Amount), Some(2));
}

#[test]
fn nothing_is_money_or_no_table() {
    let r = rows(&[&["a", "b"], &["c", "d"], &["e", "f"]]);
    assert_eq!(
        infer(&r, &Vec::new(), DecimalMark::Dot).unwrap_err(),
        InferError::NoMoney
    );
    let r = rows(&[&["one line of text"], &["another"]]);
    assert_eq!(
        infer(&r, &Vec::new(), DecimalMark::Dot).unwrap_err(),
        InferError::NoTable
    );
}

#[test]
fn overrides_by_position_and_by_name() {
    let r = rows(&[
        &["what", "n", "each", "sum"],
        &["GPU", "10", "1.50", "15.00"],
        &["Disk", "3", "2.00", "6.00"],
    ]);
    let o = vec![(Role::Amount, "3".to_string())];
    let i = infer(&r, &o, DecimalMark::Dot).unwrap();
    // Column 3 was the unit price: it is the amount now, and nothing else.
    assert_eq!(role(&i, Role::Amount), Some(2));
    assert_eq!(role(&i, Role::UnitPrice), None);
    let o = vec![(Role::Amount, "Cost".to_string())];
    assert!(matches!(
        infer(&r, &o, DecimalMark::Dot).unwrap_err(),
        InferError::NoSuchColumn { .. }
    ));
    assert_eq!(override_column(&["a".into(), "b".into()], "2"), Some(1));
    assert_eq!(override_column(&["a".into(), "b".into()], "3"), None);
    assert_eq!(override_column(&["a".into(), "b".into()], "0"), None);
    assert_eq!(override_column(&["a".into(), "b".into()], " B "), Some(1));
}

#[test]
fn an_amount_that_reads_as_a_month_is_still_an_amount() {
    // Found by props_shapes: `2001.01` also reads as January 2001, so the
    // amount column held "dates" and the quantity (all 1) was taken for the
    // amount (total 3 instead of 0.01 + 2001.01 + 0.01 = 2001.03).
    let r = rows(&[
        &["GPU", "0.01", "0.01", "USD", "1", "2025-11-30"],
        &["GPU", "2001.01", "2001.01", "USD", "1", "2025-11-30"],
        &["GPU", "0.01", "0.01", "USD", "1", "2025-11-30"],
        &["Subtotal", "2001.03", "", "USD", "", "2025-11-30"],
    ]);
    let i = infer(&r, &Vec::new(), DecimalMark::Dot).expect("inferred");
    // Columns 2 and 3 are equal (quantity 1): the rightmost of the tie
    // rule's two amounts, either of which sums 2001.03 on the items.
    assert!(matches!(role(&i, Role::Amount), Some(1 | 2)), "{:?}", i.map);
    assert_eq!(role(&i, Role::Date), Some(5));
}

#[test]
fn a_column_of_months_alone_is_a_period_not_money() {
    let r = rows(&[
        &["GPU hours", "2025.11", "120.50"],
        &["Disk", "2025.11", "30.00"],
        &["Egress", "2025.11", "10.00"],
    ]);
    let i = infer(&r, &Vec::new(), DecimalMark::Dot).expect("inferred");
    assert_eq!(role(&i, Role::Amount), Some(2));
    assert_eq!(role(&i, Role::Date), Some(1));
}

#[test]
fn the_amount_is_not_a_column_the_header_names_as_a_quantity() {
    // No product: Netto (unnamed) is the amount, not Menge (a quantity)
    // though Menge is the rightmost column of numbers.
    let r = rows(&[
        &["Beschreibung", "Netto", "Menge"],
        &["GPU Server", "1000,00", "2"],
        &["Speicher", "100,00", "3"],
    ]);
    let i = infer(&r, &Vec::new(), DecimalMark::Comma).unwrap();
    assert_eq!(role(&i, Role::Amount), Some(1));
    assert_eq!(role(&i, Role::Quantity), Some(2));
}
