use super::*;

proptest::proptest! {
    /// The fast path's value is `from_str_exact`'s, mantissa and scale
    /// alike (so `1.50` stays `1.50`), a zero without its sign, on both
    /// sides of 19 digits (a u64 mantissa, else `from_str_exact`).
    #[test]
    fn fast_numbers_are_from_str_exact(s in "-?[0-9]{1,22}(\\.[0-9]{1,12})?") {
        let want = Decimal::from_str_exact(&s).ok().map(|mut d| {
            if d.is_zero() {
                d.set_sign_positive(true);
            }
            d
        });
        // Past 28 bytes of digits and dot the general path reads it.
        let got = plain_fast(&s);
        if s.trim_start_matches('-').len() <= 28 {
            proptest::prop_assert!(got.is_some(), "{}", s);
        }
        if let Some(got) = got {
            proptest::prop_assert_eq!(Some(got.serialize()), want.map(|d| d.serialize()), "{}", s);
        }
    }

    #[test]
    fn fast_trim_is_trim(s in "[ \t\u{3000}\u{a0}a-z0-9.]{0,12}") {
        proptest::prop_assert_eq!(trim(&s), s.trim());
    }
}

fn v(s: &str) -> Decimal {
    match parse_number(s, DecimalMark::Dot) {
        Ok(Cell::Value(d)) => d,
        other => panic!("{s}: {other:?}"),
    }
}
fn vc(s: &str) -> Decimal {
    match parse_number(s, DecimalMark::Comma) {
        Ok(Cell::Value(d)) => d,
        other => panic!("{s}: {other:?}"),
    }
}
fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

#[test]
fn plain_and_grouped() {
    assert_eq!(v("1,234.56"), d("1234.56"));
    assert_eq!(v("1234.56").to_string(), "1234.56");
    assert_eq!(v("12.30").to_string(), "12.30");
    assert_eq!(v("0.00000000150").to_string(), "0.00000000150");
    assert_eq!(v("12,345,678"), d("12345678"));
    assert_eq!(v("+3"), d("3"));
    assert_eq!(v(".5"), d("0.5"));
}

#[test]
fn decimal_comma() {
    assert_eq!(vc("1.234,56"), d("1234.56"));
    assert_eq!(vc("12,5"), d("12.5"));
    assert_eq!(vc("1.234"), d("1234"));
    assert_eq!(vc("12.50"), d("12.50"));
    assert_eq!(vc("-0,75"), d("-0.75"));
}

#[test]
fn currency_marks() {
    assert_eq!(v("¥12.30"), d("12.30"));
    assert_eq!(v("￥12.30"), d("12.30"));
    assert_eq!(v("12.30元"), d("12.30"));
    assert_eq!(v("USD 4.00"), d("4.00"));
    assert_eq!(v("US$4.00"), d("4.00"));
    assert_eq!(v("4.00 CNY"), d("4.00"));
    assert_eq!(v("€ 1.234,50"), d("1234.50"));
    assert_eq!(v("EUR 12.00"), d("12.00"));
    assert_eq!(v("12.00 EUR"), d("12.00"));
    assert_eq!(v("eur12"), d("12"));
    // Every mark of the currency table (vocab::currency), letters of a
    // symbol included.
    assert_eq!(v("HK$ 5.00"), d("5.00"));
    assert_eq!(v("Rs. 40.00"), d("40.00"));
    assert_eq!(v("13,200円"), d("13200"));
    assert_eq!(v("316.83 PLN"), d("316.83"));
}

#[test]
fn negatives() {
    assert_eq!(v("$-5.10"), d("-5.10"));
    assert_eq!(v("-$5.10"), d("-5.10"));
    assert_eq!(v("(5.10)"), d("-5.10"));
    assert_eq!(v("($5.10)"), d("-5.10"));
    assert_eq!(v("－５.１０"), d("-5.10"));
    assert_eq!(v("−5.10"), d("-5.10"));
    assert_eq!(v("-0").to_string(), "0");
    assert!(parse_number("--5", DecimalMark::Dot).is_err());
    assert!(parse_number("-(5)", DecimalMark::Dot).is_err());
}

#[test]
fn full_width_and_scientific() {
    assert_eq!(v("１２３.４５"), d("123.45"));
    assert_eq!(v("1.5e-7"), d("0.00000015"));
    assert_eq!(v("5.64902E-05"), d("0.0000564902"));
    assert_eq!(v("-1e-09"), d("-0.000000001"));
    assert_eq!(v("5e-06"), d("0.000005"));
    assert_eq!(v("2E3"), d("2000"));
}

#[test]
fn placeholders_are_missing() {
    for p in ["", "  ", "-", "--", "NULL", "null", "N/A", "n/a"] {
        assert_eq!(
            parse_number(p, DecimalMark::Dot),
            Ok(Cell::Missing),
            "{p:?}"
        );
    }
}

#[test]
fn garbage_is_an_error_never_zero() {
    for g in [
        "abc", "12abc", "1.2.3x", "$", "(", "1e", "e5", "12,5", "1,23,4", "1-2",
    ] {
        assert!(parse_number(g, DecimalMark::Dot).is_err(), "{g:?}");
    }
}

#[test]
fn extremes() {
    assert!(matches!(
        parse_number("1e999999", DecimalMark::Dot),
        Err(NumberError::OutOfRange(_))
    ));
    let forty = format!("0.{}", "1234567890".repeat(4));
    let got = v(&forty);
    assert_eq!(got.scale(), 28);
    assert_eq!(got, d("0.1234567890123456789012345679"));
    assert!(parse_number(&"9".repeat(40), DecimalMark::Dot).is_err());
    assert!(parse_number(&"9".repeat(5000), DecimalMark::Dot).is_err());
}

/// The error a cell gives, for asserting its kind and its quoted text.
fn e(s: &str, mark: DecimalMark) -> NumberError {
    match parse_number(s, mark) {
        Err(e) => e,
        other => panic!("{s:?}: expected an error, got {other:?}"),
    }
}

#[test]
fn every_placeholder_spelling_is_missing() {
    // The full list of `is_placeholder`, including the case-insensitive
    // words and a placeholder padded with spaces on one side only.
    for p in [
        "—",
        "－",
        "/",
        "NA",
        "None",
        "NONE",
        "none",
        "NaN",
        "nan",
        " -",
        "- ",
        "\u{3000}--",
    ] {
        assert_eq!(
            parse_number(p, DecimalMark::Dot),
            Ok(Cell::Missing),
            "{p:?}"
        );
    }
    // Not placeholders: a word that merely contains one, and a number.
    assert!(parse_number("nana", DecimalMark::Dot).is_err());
    assert!(!is_placeholder("0"));
    assert!(!is_placeholder("1-"));
}

#[test]
fn trim_only_skips_cells_without_outer_whitespace() {
    assert_eq!(trim(" a"), "a");
    assert_eq!(trim("a "), "a");
    assert_eq!(trim("a b"), "a b");
    assert_eq!(trim("\u{3000}x\u{3000}"), "x");
}

#[test]
fn cell_length_limit_is_512_bytes() {
    // MAX_NUMBER_LEN (128) characters of up to 4 bytes: 512 bytes.
    // "1" followed by 511 spaces is 512 bytes and still reads as 1;
    // one more space and the cell is not a number, whatever it holds.
    let at_limit = format!("1{}", " ".repeat(511));
    assert_eq!(v(&at_limit), d("1"));
    let long = format!("1{}", " ".repeat(512));
    assert_eq!(
        e(&long, DecimalMark::Dot),
        NumberError::NotANumber("1".into())
    );
    // 200 bytes: far below the limit (a limit of 128+4 or 128/4 would refuse it).
    assert_eq!(v(&format!("7{}", " ".repeat(199))), d("7"));
}

#[test]
fn dot_file_reads_dot_groups_only_when_repeated() {
    // In a decimal-dot file `$1.234` is one and a bit, not 1234 ...
    assert_eq!(v("$1.234"), d("1.234"));
    // ... while two dots can only be thousands groups: 1,234,567.
    assert_eq!(v("1.234.567"), d("1234567"));
    assert_eq!(vc("1.234.567"), d("1234567"));
    // A single comma group with a 3-digit first group: 123,456.
    assert_eq!(v("123,456"), d("123456"));
    // Both marks, dot last: dot is the decimal, comma groups.
    assert_eq!(v("$1,234.5"), d("1234.5"));
    // Both marks, comma last, in a dot file: 1.234,5 = 1234.5.
    assert_eq!(v("1.234,5"), d("1234.5"));
    // A trailing decimal mark with nothing after it: 5. = 5.
    assert_eq!(v("$5."), d("5"));
}

#[test]
fn ambiguous_and_bad_groups_are_errors_of_their_kind() {
    // `1234,567`: first group of four digits, so `,` is not a thousands
    // separator, and a dot file has no decimal comma: ambiguous.
    assert_eq!(
        e("1234,567", DecimalMark::Dot),
        NumberError::Ambiguous("1234,567".into())
    );
    // `,234`: empty first group.
    assert_eq!(
        e(",234", DecimalMark::Dot),
        NumberError::Ambiguous(",234".into())
    );
    // A lone comma has no digit at all: not a number (not "ambiguous").
    assert_eq!(
        e(",", DecimalMark::Dot),
        NumberError::NotANumber(",".into())
    );
    // An exponent without digits.
    assert_eq!(
        e("1e", DecimalMark::Dot),
        NumberError::NotANumber("1e".into())
    );
    assert_eq!(
        e("abc", DecimalMark::Dot),
        NumberError::NotANumber("abc".into())
    );
}

#[test]
fn parentheses_only_around_the_whole_cell() {
    assert!(parse_number("5(3)", DecimalMark::Dot).is_err());
    assert!(parse_number("5)", DecimalMark::Dot).is_err());
    assert!(parse_number("(5", DecimalMark::Dot).is_err());
    assert!(parse_number("(5)x", DecimalMark::Dot).is_err());
    assert_eq!(v("(0)"), d("0"));
    assert!(!v("(0)").is_sign_negative());
}

#[test]
fn dashes_and_spaces_from_other_scripts() {
    // U+2013 (en dash) and U+2012 (figure dash) fold to a minus.
    assert_eq!(v("\u{2013}5.10"), d("-5.10"));
    assert_eq!(v("\u{2012}5.10"), d("-5.10"));
    // U+3000 (ideographic space) between a currency code and the digits.
    assert_eq!(v("USD\u{3000}4.00"), d("4.00"));
    // Full-width comma and dot: １，２３４．５ = 1234.5.
    assert_eq!(v("１，２３４．５"), d("1234.5"));
}

#[test]
fn error_text_quotes_at_most_40_characters() {
    // 40 characters are quoted whole; 41 are cut to 40 and `...`.
    let forty = "x".repeat(40);
    assert_eq!(
        e(&forty, DecimalMark::Dot),
        NumberError::NotANumber(forty.clone())
    );
    let forty_one = "x".repeat(41);
    assert_eq!(
        e(&forty_one, DecimalMark::Dot),
        NumberError::NotANumber(format!("{forty}..."))
    );
}

#[test]
fn twenty_eight_digit_limits() {
    // 28 integer digits through the general path (currency mark): exact.
    assert_eq!(
        v("$1234567890123456789012345678"),
        d("1234567890123456789012345678")
    );
    // 29 integer digits: out of range, on both the plain and the general path
    // (a 29-digit integer fits a Decimal, but the documented limit is 28).
    let n29 = "12345678901234567890123456789";
    assert_eq!(
        e(n29, DecimalMark::Dot),
        NumberError::OutOfRange(n29.into())
    );
    assert_eq!(
        e(&format!("${n29}"), DecimalMark::Dot),
        NumberError::OutOfRange(format!("${n29}"))
    );
    let n40 = "9".repeat(40);
    assert_eq!(
        e(&n40, DecimalMark::Dot),
        NumberError::OutOfRange(shorten(&n40))
    );
    // 30 fractional ones: the 29th digit is 1 (< 5), so it rounds down
    // to 28 ones: 0.1111111111111111111111111111.
    let ones = format!("0.{}", "1".repeat(30));
    assert_eq!(v(&ones), d("0.1111111111111111111111111111"));
    // 28 nines and .9: the fraction rounds the integer up to 10^28.
    assert_eq!(
        v("9999999999999999999999999999.9"),
        d("10000000000000000000000000000")
    );
}

#[test]
fn exponents_at_the_edges() {
    // 1e-40 is beyond 28 places: it becomes 0 (docs: "values like 1e-40 become 0").
    assert_eq!(v("1e-40"), d("0"));
    // 1.5e-29 = 0.000...0015 at 29-30 places: 0 at 28 places.
    assert_eq!(v("1.5e-29"), d("0"));
    // Exponent +60 is the largest accepted; 61 is out of range.
    assert_eq!(
        e("1e61", DecimalMark::Dot),
        NumberError::OutOfRange("1e61".into())
    );
    assert_eq!(v("0e60"), d("0"));
    assert_eq!(v("1e+2"), d("100"));
    assert_eq!(v("1.5e-7").scale(), 8);
}

#[test]
fn the_fast_path_takes_what_machine_exports_write() {
    // Taken without allocation: sign, digits, one inner dot, up to 28
    // characters after the sign.
    assert_eq!(
        plain_fast("-123.4500").map(|d| d.to_string()),
        Some("-123.4500".into())
    );
    assert_eq!(plain_fast("12.5"), Some(d("12.5")));
    let n28 = "1234567890123456789012345678";
    assert_eq!(plain_fast(n28), Some(d(n28)));
    // `-0` is 0, not negative zero.
    assert!(!plain_fast("-0").unwrap().is_sign_negative());
    // Left to the general path: 29 digits, two dots, a trailing or
    // leading dot, anything else.
    for s in [
        "12345678901234567890123456789",
        "1.2.3",
        "5.",
        ".5",
        "1,234",
        "1e5",
        "-",
        "",
    ] {
        assert_eq!(plain_fast(s), None, "{s:?}");
    }
}

#[test]
fn half_units() {
    assert_eq!(half_unit(d("12.30")), d("0.005"));
    assert_eq!(half_unit(d("12")), d("0.5"));
}

/// The mark a file's cells show (`DecimalMark::of_cells`): a Dutch invoice
/// exported comma-delimited quotes `"30,00"`.
#[test]
fn the_cells_show_the_decimal_mark() {
    let of = |cells: &[&str]| DecimalMark::of_cells(cells.iter().copied()).map(|(m, _)| m);
    use DecimalMark::{Comma, Dot};
    // Only a decimal comma reads these.
    assert_eq!(of(&["GPU", "10", "3,00", "30,00"]), Some(Comma));
    assert_eq!(of(&["€ 1.234,5", "(5,10)", "-0,125"]), Some(Comma));
    // Only a decimal point reads these.
    assert_eq!(of(&["12.50", "1,234.5"]), Some(Dot));
    // A thousands group in either reading, a date, a version, a
    // description with a number in it: no evidence.
    assert_eq!(of(&["1,234", "1.234", "01.10.2025", "v1.2.3"]), None);
    assert_eq!(of(&["GPU 2,5 h", "Server 1,50", "12,50 EUR"]), None);
    // Both shown: the cells do not decide.
    assert_eq!(of(&["30,00", "12.50"]), None);
    // The first cell that shows it is named.
    assert_eq!(
        DecimalMark::of_cells(["x", "1,5", "2,25"]),
        Some((Comma, "1,5"))
    );
}

/// The Indian lakh and crore grouping (`₹1,25,000.00`): on main it was
/// refused as ambiguous, and the row kept out of the totals.
#[test]
fn lakh_grouping() {
    assert_eq!(v("₹1,25,000.00"), d("125000.00"));
    assert_eq!(v("12,34,56,789"), d("123456789"));
    assert_eq!(v("1,00,000"), d("100000"));
    // Neither the common nor the lakh grouping.
    assert!(parse_number("1,2,000.00", DecimalMark::Dot).is_err());
    assert!(parse_number("1,25,00.00", DecimalMark::Dot).is_err());
    assert!(parse_number("123,45,000", DecimalMark::Dot).is_err());
}
