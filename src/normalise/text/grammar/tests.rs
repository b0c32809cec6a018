use super::*;
use std::str::FromStr;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

#[test]
fn gaps_are_two_spaces_or_a_tab() {
    assert_eq!(gap("  x"), Ok(("x", "  ")));
    assert_eq!(gap("\tx"), Ok(("x", "\t")));
    assert!(gap(" x").is_err());
    assert!(gap("x").is_err());
}

#[test]
fn cells_split_on_gaps_only() {
    let (_, c) = cells("  RTX 4090 GPU instance (on-demand)   20  hours  1.80   36.00  ").unwrap();
    assert_eq!(
        c,
        [
            "RTX 4090 GPU instance (on-demand)",
            "20",
            "hours",
            "1.80",
            "36.00"
        ]
    );
    let (_, c) = cells("Persistent volume 500 GB\t20.00").unwrap();
    assert_eq!(c, ["Persistent volume 500 GB", "20.00"]);
    assert!(cells("").is_err());
}

#[test]
fn rule_lines() {
    assert!(rule_line("-----").is_ok());
    assert!(rule_line("  ===== ====== ").is_ok());
    assert!(rule_line("+------+-----+").is_ok());
    assert!(rule_line("──────────").is_ok());
    assert!(rule_line("--").is_err());
    assert!(rule_line("--- a ---").is_err());
}

#[test]
fn leaders() {
    assert_eq!(leader(" ........ $20").unwrap().0, "$20");
    assert_eq!(leader(". . . . 5").unwrap().0, "5");
    assert_eq!(leader("…20").unwrap().0, "20");
    assert!(leader("..20").is_err());
    assert!(leader("abc").is_err());
}

#[test]
fn spaces_around_two_dots_make_no_leader() {
    // `Misc. . $5.00`: two dots and the blanks around them; only dots count.
    assert!(leader(" . . $5.00").is_err());
    assert!(leader("  ..  $5.00").is_err());
}

#[test]
fn money_forms() {
    let v = |s: &str| all_consuming(money).parse(s).map(|(_, m)| m).unwrap();
    assert_eq!(v("$1,234.50").value, d("1234.50"));
    assert_eq!(v("$1,234.50").currency, Some("USD"));
    assert!(!v("$1,234.50").explicit);
    assert_eq!(v("36.00 元").currency, Some("CNY"));
    assert_eq!(v("36.00元").value, d("36.00"));
    assert_eq!(v("¥5.00").currency, Some("CNY"));
    assert_eq!(v("€-3.10").value, d("-3.10"));
    assert_eq!(v("-$10.00").value, d("-10.00"));
    assert_eq!(v("(10.00)").value, d("-10.00"));
    assert_eq!(v("USD 12.00").currency, Some("USD"));
    assert!(v("USD 12.00").explicit);
    assert_eq!(v("12.00 CNY").currency, Some("CNY"));
    assert_eq!(v("12,50 €").value, d("12.50"));
    assert_eq!(v("EUR 3.00").currency, Some("EUR"));
    assert_eq!(v("3.00 EUR").value, d("3.00"));
    assert_eq!(v("20").value, d("20"));
    assert!(!v("20").looks_like_money);
    assert!(v("20.0").looks_like_money);
    assert!(v("$20").looks_like_money);
    assert!(all_consuming(money).parse("12abc").is_err());
    assert!(all_consuming(money).parse("2025-10-31").is_err());
    assert!(all_consuming(amount).parse("10042").is_err());
}

#[test]
fn units_quantities_and_rates() {
    assert_eq!(unit("GB-month x").unwrap().1, "GB-month");
    assert_eq!(unit("小时").unwrap().1, "小时");
    assert!(unit("4090").is_err());
    assert_eq!(qty_unit("20 小时").unwrap().1, (d("20"), "小时"));
    assert_eq!(qty_unit("500GB").unwrap().1, (d("500"), "GB"));
    assert!(qty_unit("$5 hours").is_err());
    let (_, (m, u)) = rate("1.80 元/小时").unwrap();
    assert_eq!((m.value, m.currency, u), (d("1.80"), Some("CNY"), "小时"));
    let (_, (m, u)) = rate("$1.29/hr").unwrap();
    assert_eq!((m.value, u), (d("1.29"), "hr"));
    let (_, (m, u)) = rate("0.05 per GB").unwrap();
    assert_eq!((m.value, u), (d("0.05"), "GB"));
}

#[test]
fn cell_kinds() {
    assert!(matches!(cell_kind("20"), CellKind::Number(_)));
    assert!(matches!(cell_kind("20 小时"), CellKind::QtyUnit(_, "小时")));
    assert!(matches!(
        cell_kind("1.80 元/小时"),
        CellKind::Rate(_, "小时")
    ));
    assert!(matches!(cell_kind("hours"), CellKind::Unit("hours")));
    assert!(matches!(cell_kind("2025-10-14"), CellKind::Date));
    assert!(matches!(cell_kind("RTX 4090 GPU"), CellKind::Text));
}

#[test]
fn at_rates() {
    let (q, u, m) = at_rate("1x A100 (80 GB) on-demand, 300 hrs @ $1.29/hr").unwrap();
    assert_eq!((q, u, m.value), (d("300"), Some("hrs"), d("1.29")));
    let (q, u, m) = at_rate("Egress 120GB @ 0.05").unwrap();
    assert_eq!((q, u, m.value), (d("120"), Some("GB"), d("0.05")));
    let (q, u, _) = at_rate("Pods 12 @ $2.00 per pod").unwrap();
    assert_eq!((q, u), (d("12"), None));
    assert!(at_rate("Support @ premium").is_none());
    assert!(at_rate("no at sign").is_none());
}

#[test]
fn trailing_amounts() {
    let (l, _, m) = trailing_amount("Subtotal:   $1,230.00").unwrap();
    assert_eq!((l, m.value), ("Subtotal", d("1230.00")));
    let (l, _, m) = trailing_amount("Tax (8%) 8.00").unwrap();
    assert_eq!((l, m.value), ("Tax (8%)", d("8.00")));
    let (l, _, m) = trailing_amount("小计:¥120.00").unwrap();
    assert_eq!((l, m.value), ("小计", d("120.00")));
    let (l, _, m) = trailing_amount("Total due ....... USD 451.50").unwrap();
    assert_eq!((l, m.value), ("Total due", d("451.50")));
    assert!(trailing_amount("Invoice 10042").is_none());
    assert!(trailing_amount("$5.00").is_none());
    // Thousands grouped by a space (a Russian invoice): on main the
    // label was `Итого без НДС: 18` and the amount 0.00.
    let (l, _, m) = trailing_amount("Итого без НДС:      18 000,00").unwrap();
    assert_eq!((l, m.value), ("Итого без НДС", d("18000.00")));
    let (l, _, m) = trailing_amount("Total TTC  1\u{202f}234\u{a0}567,50 €").unwrap();
    assert_eq!((l, m.value), ("Total TTC", d("1234567.50")));
    // A date is not an amount, and its dots are no leader: on main
    // `Дата: 30.11.2025` ended with the amount 11.2025.
    assert!(trailing_amount("ООО «ГПУ Облако»    Дата: 30.11.2025").is_none());
}

#[test]
fn space_grouped_thousands_in_cells() {
    let value = |s: &str| match cell_kind(s) {
        CellKind::Number(m) => Some(m.value),
        _ => None,
    };
    assert_eq!(value("13 500,00"), Some(d("13500.00")));
    assert_eq!(value("1 234 567"), Some(d("1234567")));
    // Not groups of three: not one number.
    assert_eq!(value("1 50,00"), None);
    assert_eq!(value("12 3456"), None);
}

#[test]
fn key_values() {
    assert_eq!(
        key_value("Invoice #: INV-1").unwrap().1,
        ("Invoice #", "INV-1")
    );
    assert_eq!(
        key_value("币种:人民币(CNY)").unwrap().1,
        ("币种", "人民币(CNY)")
    );
    assert_eq!(key_value("Bill to:").unwrap().1, ("Bill to", ""));
    assert!(key_value("12:30").is_err());
    assert_eq!(
        key_gap_value("Invoice no   INV-1").unwrap().1,
        ("Invoice no", "INV-1")
    );
}

#[test]
fn percents() {
    assert_eq!(percent("8%").unwrap().1, d("8"));
    assert_eq!(percent("7.25 %)").unwrap(), (")", d("7.25")));
    assert!(percent("8").is_err());
}

#[test]
fn two_minus_signs_are_no_number() {
    // `-5.00-`: a sign before and a minus after; not read as 5.00.
    assert!(read_money("-5.00-").is_none());
    assert_eq!(read_money("5.00-").map(|m| m.value), Some(d("-5.00")));
}

#[test]
fn units_start_with_a_letter_and_are_short() {
    assert!(unit("-hours").is_err());
    assert!(unit("_gb").is_err());
    // 16 letters are a unit, 17 are not.
    assert_eq!(unit("abcdefghijklmnop").unwrap().1, "abcdefghijklmnop");
    assert!(unit("abcdefghijklmnopq").is_err());
}

#[test]
fn an_amount_with_no_label_before_it_is_no_trailing_amount() {
    // The separators start the line: there is no label.
    assert!(trailing_amount("  $5.00").is_none());
    assert!(trailing_amount(": 5.00").is_none());
}

#[test]
fn digits_start_with_a_digit_or_point_and_do_not_end_with_a_comma() {
    assert_eq!(digits("1,234.50 x").unwrap().1, "1,234.50");
    assert_eq!(digits(".5").unwrap().1, ".5");
    assert!(digits(",5").is_err());
    assert!(digits(".").is_err());
    assert!(digits("5,").is_err());
}

#[test]
fn columns_count_characters() {
    let line = "RTX 4090 实例  36.00";
    let (_, c) = cells(line).unwrap();
    assert_eq!(column_of(line, c[1]), 14);
    assert_eq!(column_of(line, c[0]), 1);
}
