//! Exact money and quantity parsing.
//!
//! A cell becomes a [`Decimal`] exactly as written (scale preserved: `12.30`
//! stays `12.30`), or [`Cell::Missing`] for the placeholders exports use
//! (`-`, `--`, `NULL`, `N/A`, empty), or an error. A value that cannot be read
//! is never read as zero.

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::vocab::currency;

/// Which character separates the fraction in this file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecimalMark {
    #[default]
    Dot,
    Comma,
}

/// What a numeric cell held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Value(Decimal),
    Missing,
}

/// Why a cell could not be read as a number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("`{0}` is ambiguous: `,` could be a decimal or a thousands separator")]
    Ambiguous(String),
    #[error("`{0}` is out of range for an exact decimal (at most 28 significant digits)")]
    OutOfRange(String),
}

/// Longest cell we try to read as a number; longer text is never a number.
const MAX_NUMBER_LEN: usize = 128;

/// Placeholders that mean "no value" (compared after trimming, ASCII case-insensitive).
pub fn is_placeholder(s: &str) -> bool {
    // Every placeholder starts with a sign or a letter: most cells (amounts,
    // quantities, dates) are told apart by their first byte.
    if s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let t = trim(s);
    t.is_empty()
        || matches!(t, "-" | "--" | "—" | "－" | "/" | "N/A" | "n/a" | "NA")
        || t.eq_ignore_ascii_case("null")
        || t.eq_ignore_ascii_case("none")
        || t.eq_ignore_ascii_case("nan")
}

/// `s.trim()`, without looking for whitespace in a cell that starts and ends
/// with a visible ASCII character (most cells of an export).
pub fn trim(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(f), Some(l)) if f.is_ascii_graphic() && l.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// Parses a money or quantity cell.
///
/// Accepts `1,234.56`, `1.234,56` (with [`DecimalMark::Comma`]), `¥12.30`,
/// `12.30元`, `$-5.10`, `-$5.10`, `(5.10)`, full-width digits and minus,
/// and scientific notation (`1.5e-7`).
pub fn parse_number(raw: &str, mark: DecimalMark) -> Result<Cell, NumberError> {
    if is_placeholder(raw) {
        return Ok(Cell::Missing);
    }
    if raw.len() > MAX_NUMBER_LEN * 4 {
        return Err(NumberError::NotANumber(shorten(raw)));
    }
    if mark == DecimalMark::Dot {
        if let Some(d) = plain_fast(raw) {
            return Ok(Cell::Value(d));
        }
    }
    let err = || NumberError::NotANumber(shorten(raw));

    // Fold full-width forms and strip currency marks and spaces, keeping
    // only the characters a number is made of.
    let mut s = String::with_capacity(raw.len());
    let mut negative = false;
    let mut chars = raw.trim().chars().peekable();
    let mut parens = false;
    let mut first = true;
    while let Some(c) = chars.next() {
        let c = fold_char(c);
        match c {
            '0'..='9' | '.' | ',' | '+' => s.push(c),
            // An exponent follows the mantissa and comes before its digits;
            // any other `E` starts a word (`EUR 12.00`, `12.00 EUR`).
            'e' | 'E'
                if s.ends_with(|d: char| d.is_ascii_digit() || d == '.')
                    && chars
                        .peek()
                        .map(|n| fold_char(*n))
                        .is_some_and(|n| n.is_ascii_digit() || n == '-' || n == '+') =>
            {
                s.push(c)
            }
            '-' | '\u{2212}' => {
                // A minus inside an exponent belongs to it; elsewhere it negates.
                if s.ends_with(['e', 'E']) {
                    s.push('-');
                } else if negative || (!s.is_empty() && chars.peek().is_some()) {
                    // One sign, written before the digits (or trailing: `5.10-`).
                    return Err(err());
                } else {
                    negative = true;
                }
            }
            '(' if first => parens = true,
            ')' if parens && chars.peek().is_none() => parens = false,
            ' ' | '\u{a0}' | '\u{202f}' | '\'' | '_' => {}
            c if currency::is_symbol_char(c) => {}
            c if c.is_ascii_alphabetic() => {
                // Currency codes around a number: `USD 12.00`, `12.00 CNY`, `US$5`.
                let mut word = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_ascii_alphabetic() {
                        word.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                // The letters of a symbol (`US$5`, `HK$ 5`, `Rs. 40`).
                if let Some(&n) = chars.peek() {
                    if currency::is_symbol(&format!("{word}{n}")) {
                        chars.next();
                        continue;
                    }
                }
                if currency::is_code(&word) || currency::is_symbol(&word) {
                    continue;
                }
                if word.eq_ignore_ascii_case("e") {
                    s.push('e');
                    continue;
                }
                return Err(err());
            }
            _ => return Err(err()),
        }
        first = false;
    }
    if parens {
        return Err(err());
    }
    if raw.trim_start().starts_with('(') {
        if negative {
            return Err(err());
        }
        negative = true;
    }
    if s.is_empty() || !s.bytes().any(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let plain = resolve_separators(&s, mark).ok_or_else(|| {
        if s.contains(',') {
            NumberError::Ambiguous(shorten(raw))
        } else {
            err()
        }
    })?;
    let mut value = parse_plain(&plain).ok_or_else(|| {
        // `plain` is digits, a dot and an exponent: it fails only past the
        // Decimal range, which for a plain integer means more than 28 digits.
        if plain.contains(['e', 'E']) || plain.len() > 28 {
            NumberError::OutOfRange(shorten(raw))
        } else {
            err()
        }
    })?;
    if negative && !value.is_zero() {
        value.set_sign_negative(!value.is_sign_negative());
    }
    Ok(Cell::Value(value))
}

/// The common case without any allocation: `-123.4500`, as machine exports
/// write it (ASCII digits, at most one dot, an optional leading minus, at most
/// 28 digits). Anything else takes the general path.
fn plain_fast(raw: &str) -> Option<Decimal> {
    let b = raw.as_bytes();
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    if digits.is_empty() || digits.len() > 28 || digits[0] == b'.' {
        return None;
    }
    let mut dots = 0;
    for &c in digits {
        match c {
            b'0'..=b'9' => {}
            b'.' => dots += 1,
            _ => return None,
        }
    }
    if dots > 1 || digits.last() == Some(&b'.') {
        return None;
    }
    let mut d = Decimal::from_str_exact(raw).ok()?;
    if d.is_zero() {
        d.set_sign_positive(true);
    }
    Some(d)
}

fn shorten(s: &str) -> String {
    let t = s.trim();
    if t.chars().count() > 40 {
        let head: String = t.chars().take(40).collect();
        format!("{head}...")
    } else {
        t.to_string()
    }
}

/// Full-width ASCII variants (U+FF01..U+FF5E) to ASCII, ideographic space to space.
pub fn fold_char(c: char) -> char {
    match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
        '\u{3000}' => ' ',
        '\u{ffe5}' => '¥',
        '\u{2212}' | '\u{2012}' | '\u{2013}' => '-',
        _ => c,
    }
}

/// Turns `1,234.56` or `1.234,56` into `1234.56`, or `None` when the
/// separators don't form a valid number in `mark`.
fn resolve_separators(s: &str, mark: DecimalMark) -> Option<String> {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let mantissa = mantissa.strip_prefix('+').unwrap_or(mantissa);
    if !mantissa.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let dots = mantissa.matches('.').count();
    let commas = mantissa.matches(',').count();
    let (decimal, group) = match (dots, commas) {
        (_, 0) if dots <= 1 => {
            // `1.234` in a decimal-comma file is a thousands group.
            if mark == DecimalMark::Comma && dots == 1 && is_grouped(mantissa, '.') {
                (None, Some('.'))
            } else {
                (Some('.'), None)
            }
        }
        (_, 0) => (None, Some('.')), // 1.234.567
        (0, 1) => {
            if mark == DecimalMark::Comma {
                (Some(','), None)
            } else if is_grouped(mantissa, ',') {
                (None, Some(','))
            } else {
                return None;
            }
        }
        (0, _) => (None, Some(',')), // 1,234,567
        _ => {
            // Both present: the last one is the decimal mark.
            let last_dot = mantissa.rfind('.')?;
            let last_comma = mantissa.rfind(',')?;
            if last_dot > last_comma {
                (Some('.'), Some(','))
            } else {
                (Some(','), Some('.'))
            }
        }
    };
    let (int_part, frac_part) = match decimal.and_then(|d| mantissa.rfind(d)) {
        Some(i) => (&mantissa[..i], Some(&mantissa[i + 1..])),
        None => (mantissa, None),
    };
    if let Some(g) = group {
        if int_part.contains(g) && !is_grouped(int_part, g) {
            return None;
        }
    }
    let int_digits: String = int_part.chars().filter(|c| Some(*c) != group).collect();
    if !int_digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut out = if int_digits.is_empty() {
        "0".to_string()
    } else {
        int_digits
    };
    if let Some(frac) = frac_part {
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
    }
    if !exponent.is_empty() {
        let e = &exponent[1..];
        let digits = e.strip_prefix(['-', '+']).unwrap_or(e);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        out.push('e');
        out.push_str(e);
    }
    Some(out)
}

/// `1,234,567` style: a first group of 1-3 digits, then groups of exactly 3.
fn is_grouped(s: &str, sep: char) -> bool {
    let int = s.split('.').next().unwrap_or(s);
    let int = if sep == '.' { s } else { int };
    let mut parts = int.split(sep);
    let first = parts.next().unwrap_or("");
    if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let mut any = false;
    for p in parts {
        any = true;
        if p.len() != 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    any
}

/// Parses `digits[.digits][e[+-]digits]` exactly. More than 28 fractional
/// digits are rounded to 28 (half away from zero; the one documented rounding
/// point on input); more than 28 integer digits are out of range.
fn parse_plain(s: &str) -> Option<Decimal> {
    if let Some(i) = s.find('e') {
        let exp: i64 = s[i + 1..].parse().ok()?;
        if !(-60..=60).contains(&exp) {
            return None;
        }
        let base = parse_plain(&s[..i])?;
        return scale_by_pow10(base, exp);
    }
    let (int, frac) = match s.split_once('.') {
        Some((a, b)) => (a, b),
        None => (s, ""),
    };
    let int = int.trim_start_matches('0');
    if int.len() > 28 {
        return None;
    }
    if let Ok(d) = Decimal::from_str_exact(s) {
        return Some(d);
    }
    // Too many fractional digits for an exact decimal: round them.
    let keep = 28usize.saturating_sub(int.len()).min(frac.len());
    let mut d = Decimal::from_str(&format!(
        "{}.{}",
        if int.is_empty() { "0" } else { int },
        &frac[..keep]
    ))
    .ok()?;
    if frac.len() > keep && frac.as_bytes()[keep] >= b'5' {
        let ulp = Decimal::new(1, u32::try_from(keep).ok()?);
        d = d.checked_add(ulp)?;
    }
    Some(d)
}

fn scale_by_pow10(base: Decimal, exp: i64) -> Option<Decimal> {
    let mut v = base;
    if exp >= 0 {
        for _ in 0..exp {
            v = v.checked_mul(Decimal::TEN)?;
        }
        Some(v)
    } else {
        let new_scale = i64::from(v.scale()) - exp;
        if new_scale <= 28 {
            let mut m = v;
            m.set_scale(u32::try_from(new_scale).ok()?).ok()?;
            Some(m)
        } else {
            // Beyond 28 places: round to 28 (values like 1e-40 become 0).
            let mut m = v;
            for _ in 0..(-exp) {
                m = m.checked_div(Decimal::TEN)?;
            }
            Some(m)
        }
    }
}

/// The half-unit of the last decimal written in `d`: `12.30` -> `0.005`.
pub fn half_unit(d: Decimal) -> Decimal {
    Decimal::new(5, d.scale().saturating_add(1).min(28))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
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
}
