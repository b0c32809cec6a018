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

impl DecimalMark {
    /// The mark a file's cells show, when its delimiter leaves it open: a
    /// comma-delimited export may quote decimal-comma amounts (`"30,00"`,
    /// a Dutch or Belgian invoice). [`DecimalMark::Comma`] when some cell
    /// is a number whose last separator can only be a decimal comma
    /// (`30,00`, `1.234,5`, `-0,125`: not `1,234`, which may be a
    /// thousands group) and no cell's can only be a decimal point
    /// (`12.50`, `1,234.5`); [`DecimalMark::Dot`] for the opposite (with the
    /// first cell that shows it); `None`
    /// when the cells show neither or both. A cell counts only when it is
    /// digits and separators, with at most signs, brackets, spaces and
    /// currency symbols around them (`€ 12,50`, `(5,10)`), never a
    /// description with a number in it.
    pub fn of_cells<'a>(
        cells: impl IntoIterator<Item = &'a str>,
    ) -> Option<(DecimalMark, &'a str)> {
        let (mut comma, mut dot) = (None, None);
        for cell in cells {
            match mark_shown(cell) {
                Some(DecimalMark::Comma) => comma = comma.or(Some(cell)),
                Some(DecimalMark::Dot) => dot = dot.or(Some(cell)),
                None => {}
            }
        }
        match (comma, dot) {
            (Some(c), None) => Some((DecimalMark::Comma, c)),
            (None, Some(d)) => Some((DecimalMark::Dot, d)),
            _ => None,
        }
    }
}

/// The decimal mark one cell can only be read with ([`DecimalMark::of_cells`]).
fn mark_shown(cell: &str) -> Option<DecimalMark> {
    let around = |c: char| !(c.is_alphanumeric() || c == '.' || c == ',');
    let t = cell.trim_matches(around);
    if t.is_empty()
        || t.len() > MAX_NUMBER_LEN
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return None;
    }
    // Only a sign, brackets, spaces and currency symbols may stand around it.
    let start = t.as_ptr() as usize - cell.as_ptr() as usize;
    let outside = cell[..start].chars().chain(cell[start + t.len()..].chars());
    if !outside
        .into_iter()
        .all(|c| c.is_whitespace() || "+-\u{2212}()".contains(c) || currency::is_symbol_char(c))
    {
        return None;
    }
    let last = t.rfind([',', '.'])?;
    let (int, frac) = (&t[..last], &t[last + 1..]);
    let sep = t.as_bytes()[last];
    if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) || int.is_empty() {
        return None;
    }
    // What stands before the last separator: digits, or digits grouped in
    // threes by the other separator.
    let other = if sep == b',' { '.' } else { ',' };
    let plain = int.bytes().all(|b| b.is_ascii_digit());
    let grouped = !plain && is_grouped(int, other) && !int.contains(sep as char);
    if !(plain || grouped) {
        return None;
    }
    // `1,234` or `1.234` alone may be a thousands group in either reading.
    if plain && frac.len() == 3 {
        return None;
    }
    Some(if sep == b',' {
        DecimalMark::Comma
    } else {
        DecimalMark::Dot
    })
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
/// 28 digits). Anything else takes the general path. Up to 19 digits (all but
/// a few cells) the mantissa is built as the digits are checked, in one pass;
/// the value, scale included, is the one `Decimal::from_str_exact` gives
/// (`fast_numbers_are_from_str_exact`).
fn plain_fast(raw: &str) -> Option<Decimal> {
    let b = raw.as_bytes();
    let (negative, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 28 || digits[0] == b'.' {
        return None;
    }
    // Every number of 19 digits fits a u64 (10^19 - 1 < 2^64).
    let (mut m, mut n, mut dot) = (0u64, 0usize, None);
    for (i, &c) in digits.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if n < 19 {
                    m = m * 10 + u64::from(c - b'0');
                }
                n += 1;
            }
            b'.' if dot.is_none() => dot = Some(i),
            _ => return None,
        }
    }
    if digits.last() == Some(&b'.') {
        return None;
    }
    let mut d = if n <= 19 {
        let scale = dot.map_or(0, |i| digits.len() - i - 1);
        Decimal::from_parts(m as u32, (m >> 32) as u32, 0, negative, scale as u32)
    } else {
        Decimal::from_str_exact(raw).ok()?
    };
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
        if int_part.contains(g) && !is_grouped(int_part, g) && !is_lakh_grouped(int_part, g) {
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

/// `1,25,000` (the Indian lakh and crore grouping): a last group of 3 digits,
/// the groups before it of 2, the first of 1 or 2, and at least two
/// separators (`25,000` is the common grouping too).
fn is_lakh_grouped(int: &str, sep: char) -> bool {
    let groups: Vec<&str> = int.split(sep).collect();
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    let [first, middle @ .., last] = groups.as_slice() else {
        return false;
    };
    !middle.is_empty()
        && digits(first)
        && first.len() <= 2
        && middle.iter().all(|g| g.len() == 2 && digits(g))
        && last.len() == 3
        && digits(last)
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

/// Whether a computed figure agrees with a stated one, within half a unit
/// of the stated figure's last digit ([`half_unit`], the audit's tolerance).
pub fn agrees(stated: Decimal, computed: Decimal) -> bool {
    // Saturated only when the two are ~1e28 apart: a disagreement either way.
    stated.saturating_sub(computed).abs() <= half_unit(stated)
}

/// The half-unit of the last decimal written in `d`: `12.30` -> `0.005`.
pub fn half_unit(d: Decimal) -> Decimal {
    Decimal::new(5, d.scale().saturating_add(1).min(28))
}

#[cfg(test)]
mod tests;
