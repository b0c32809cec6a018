//! The grammar of one invoice line, as small named nom parsers.
//!
//! Every parser works on one physical line that has already been folded
//! (full-width forms to ASCII, see [`fold_char`](crate::normalise::number::fold_char)),
//! so `：`, `（`, `）` and full-width digits need no rules of their own.
//! Numbers are recognised here but read by
//! [`parse_number`], the one number
//! reader of the crate, so a text invoice and a CSV read `1,234.50` alike.
//!
//! Parsers return borrowed slices of the line, so a caller can turn any of
//! them back into a column with [`column_of`].

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1};
use nom::character::complete::{char, space0, space1};
use nom::combinator::{all_consuming, opt, recognize, verify};
use nom::multi::{many0, separated_list1};
use nom::{IResult, Parser};
use rust_decimal::Decimal;
use std::sync::LazyLock;

use crate::vocab::currency;

use crate::normalise::number::{Cell, DecimalMark, NumberError, parse_number};

/// An amount as written: its value and the currency its marks name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Money {
    pub value: Decimal,
    /// The ISO code named by a symbol (`$`, `¥`, `元`, `€`) or a code (`USD`).
    pub currency: Option<&'static str>,
    /// True when the currency was written as a code (`USD`, `CNY`), which is
    /// unambiguous; a symbol like `$` or `¥` yields to the invoice header.
    pub explicit: bool,
    /// True when the text carried a currency mark or a decimal fraction, so
    /// it reads as money rather than as a count or an id.
    pub looks_like_money: bool,
}

/// What one column cell of an item line holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellKind<'a> {
    /// A number or an amount: `20`, `1.80`, `$0.69`, `36.00 元`.
    Number(Money),
    /// A price per unit: `1.80 元/小时`, `$1.29/hr`, `0.05 per GB`.
    Rate(Money, &'a str),
    /// A quantity with its unit: `20 小时`, `300 hrs`, `500 GB`.
    QtyUnit(Decimal, &'a str),
    /// A unit alone: `hours`, `GB-month`, `小时`.
    Unit(&'a str),
    /// A date or a date range.
    Date,
    /// Anything else: description text.
    Text,
}

/// 1-based character column of `part` within `line`; `part` must be a
/// sub-slice of `line` (every parser here returns sub-slices).
pub fn column_of(line: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    let offset = offset.min(line.len());
    line.char_indices().take_while(|(i, _)| *i < offset).count() + 1
}

/// A column gap as `pdftotext -layout` writes it: two or more spaces, or a tab.
pub fn gap(i: &str) -> IResult<&str, &str> {
    verify(take_while1(|c| c == ' ' || c == '\t'), |s: &str| {
        s.len() >= 2 || s.contains('\t')
    })
    .parse(i)
}

fn word(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace()).parse(i)
}

/// One column cell: words separated by single spaces.
pub fn cell(i: &str) -> IResult<&str, &str> {
    recognize((word, many0((char(' '), word)))).parse(i)
}

/// A whole line split into column cells (leading and trailing blanks allowed).
pub fn cells(i: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(nom::sequence::delimited(
        space0,
        separated_list1(gap, cell),
        space0,
    ))
    .parse(i)
}

/// A rule line: `-----`, `=====`, `_____`, `+----+`, box-drawing lines.
pub fn rule_line(i: &str) -> IResult<&str, &str> {
    all_consuming(verify(
        take_while1(|c: char| c == ' ' || is_rule_char(c)),
        |s: &str| s.chars().filter(|c| is_rule_char(*c)).count() >= 3,
    ))
    .parse(i)
}

fn is_rule_char(c: char) -> bool {
    matches!(
        c,
        '-' | '=' | '_' | '*' | '~' | '+' | '|' | '─' | '━' | '═' | '—' | '–'
    )
}

pub fn is_leader_char(c: char) -> bool {
    matches!(c, '.' | '·' | '…' | '•')
}

/// A leader: a run of dots (spaces between dots allowed) with at least three
/// dots, as in `Filesystem storage 1 TB ........ $20.00`.
pub fn leader(i: &str) -> IResult<&str, &str> {
    let dots = take_while1(is_leader_char);
    verify(
        recognize((
            space0,
            dots,
            many0((space1, take_while1(is_leader_char))),
            space0,
        )),
        |s: &str| {
            s.chars()
                .map(|c| match c {
                    '…' => 3,
                    c if is_leader_char(c) => 1,
                    _ => 0,
                })
                .sum::<usize>()
                >= 3
        },
    )
    .parse(i)
}

/// The currency symbols, longest first, and codes ([`currency::CURRENCIES`]).
static SYMBOLS: LazyLock<Vec<&'static str>> = LazyLock::new(currency::symbols);
static CODES: LazyLock<Vec<&'static str>> = LazyLock::new(|| currency::codes().collect());

/// A currency symbol or code, as a prefix or suffix of an amount.
fn currency_mark(i: &str) -> IResult<&str, &str> {
    // Most calls see a digit or a space: answer those without trying every tag.
    if !i.starts_with(|c: char| c.is_ascii_alphabetic() || currency::is_symbol_char(c)) {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        )));
    }
    let symbol = |i| -> IResult<&str, &str> {
        for s in SYMBOLS.iter().copied() {
            if let Ok(r) = tag::<_, _, nom::error::Error<&str>>(s).parse(i) {
                return Ok(r);
            }
        }
        Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        )))
    };
    let code = |i| -> IResult<&str, &str> {
        for c in CODES.iter().copied() {
            if let Ok((rest, m)) = tag_no_case::<_, _, nom::error::Error<&str>>(c).parse(i) {
                // A code is a whole word: `USD` but not the start of `USDT`.
                if !rest.starts_with(|ch: char| ch.is_ascii_alphabetic()) {
                    return Ok((rest, m));
                }
            }
        }
        Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        )))
    };
    alt((symbol, code)).parse(i)
}

/// True when `s` is a currency mark and nothing else: `$`, `€`, `USD`.
pub fn is_currency_mark(s: &str) -> bool {
    all_consuming(currency_mark).parse(s).is_ok()
}

/// The digits of a number: `1,234.50`, `.5`, `20`, and thousands grouped by
/// a space, as French, Russian, Polish, Czech and Nordic invoices print
/// them (`13 500,00`, `1 234 567`; also a no-break or thin space): a first
/// group of one to three digits, then groups of exactly three after one
/// space each. Cells are parted by two spaces or more ([`gap`]), so one
/// space inside a number never parts two cells.
fn digits(i: &str) -> IResult<&str, &str> {
    let plain = |c: char| c.is_ascii_digit() || c == ',' || c == '.';
    let run = |s: &str| s.len() - s.trim_start_matches(plain).len();
    let mut end = run(i);
    if (1..=3).contains(&end) && i[..end].bytes().all(|b| b.is_ascii_digit()) {
        while let Some(space) = i[end..]
            .chars()
            .next()
            .filter(|c| matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}'))
        {
            let group = &i[end + space.len_utf8()..];
            let three = group.len() >= 3 && group.as_bytes()[..3].iter().all(u8::is_ascii_digit);
            if !three || group.as_bytes().get(3).is_some_and(u8::is_ascii_digit) {
                break;
            }
            end += space.len_utf8() + 3;
            // A fraction (`,00`) ends the number.
            let fraction = run(&i[end..]);
            if fraction > 0 {
                end += fraction;
                break;
            }
        }
    }
    let (number, rest) = i.split_at(end);
    let ok = number.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && number.bytes().any(|b| b.is_ascii_digit())
        && !number.ends_with(',');
    if ok {
        Ok((rest, number))
    } else {
        Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::TakeWhile1,
        )))
    }
}

/// The text of an amount: optional bracket or sign, optional currency mark,
/// digits, optional currency mark. `$1,234.50`, `-¥5.00`, `(10.00)`,
/// `36.00 元`, `USD 12.00`, `€-3.10`, and a minus right after the amount
/// (`€ 189,00-`, as Dutch and German invoices print a payment or credit).
pub fn money_text(i: &str) -> IResult<&str, &str> {
    let sign = |i| alt((tag("-"), tag("+"))).parse(i);
    recognize((
        opt(char('(')),
        opt(sign),
        opt((currency_mark, space0)),
        opt(sign),
        digits,
        opt((space0, currency_mark)),
        opt(char(')')),
        opt(alt((tag(" -"), tag("-")))),
    ))
    .parse(i)
}

/// Reads a recognised number with the crate's number reader. A decimal comma
/// is accepted when the dot reading is ambiguous (`12,50 €`).
pub fn read_money(text: &str) -> Option<Money> {
    let original = text;
    // A trailing minus (`189,00-`) right after the digits or the mark.
    // `￥30,107 -`: the Japanese "no more" mark after a space, not a minus.
    let (number, negate) = match text.strip_suffix('-') {
        Some(t) if t.ends_with(' ') => (t.trim_end(), false),
        Some(t) if !t.starts_with('-') => (t, true),
        _ => (text, false),
    };
    // `30.11.2025` is a date (`Дата: 30.11.2025`), not 30112025.
    if number.matches('.').count() >= 2 && crate::normalise::date::parse_datetime(number).is_some()
    {
        return None;
    }
    let mut value = match parse_number(number, DecimalMark::Dot) {
        Ok(Cell::Value(v)) => v,
        Err(NumberError::Ambiguous(_)) => match parse_number(number, DecimalMark::Comma) {
            Ok(Cell::Value(v)) => v,
            _ => return None,
        },
        _ => return None,
    };
    if negate {
        value = -value;
    }
    let text = original;
    let mut currency = None;
    let mut explicit = false;
    for s in SYMBOLS.iter() {
        if text.contains(s) {
            currency = currency::code_of(s);
            break;
        }
    }
    for c in CODES.iter() {
        if contains_code(text, c) {
            currency = currency::code_of(c);
            explicit = true;
            break;
        }
    }
    let has_fraction = text
        .rsplit_once(['.', ','])
        .is_some_and(|(_, f)| f.starts_with(|c: char| c.is_ascii_digit()));
    Some(Money {
        value,
        currency,
        explicit,
        looks_like_money: currency.is_some() || has_fraction,
    })
}

fn contains_code(text: &str, code: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    upper.match_indices(code).any(|(i, _)| {
        let before = upper[..i].chars().next_back();
        let after = upper[i + code.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphabetic())
            && !after.is_some_and(|c| c.is_ascii_alphabetic())
    })
}

/// An amount, read.
pub fn money(i: &str) -> IResult<&str, Money> {
    let (rest, text) = money_text(i)?;
    match read_money(text) {
        Some(m) => Ok((rest, m)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

/// An amount that reads as money (a currency mark or a decimal fraction):
/// `36.00`, `$20`, `20 元`, but not `10042`.
pub fn amount(i: &str) -> IResult<&str, Money> {
    verify(money, |m: &Money| m.looks_like_money).parse(i)
}

/// A unit: `hours`, `hrs`, `GB-month`, `小时`, `GPU-hr`. Letters, `-`, `·`
/// and `_`, at most 16 characters, no digits except inside (`GB2` no, `m3` no).
pub fn unit(i: &str) -> IResult<&str, &str> {
    verify(
        take_while1(|c: char| c.is_alphabetic() || matches!(c, '-' | '·' | '_')),
        |s: &str| s.chars().count() <= 16 && s.starts_with(char::is_alphabetic),
    )
    .parse(i)
}

/// A quantity with its unit: `20 小时`, `300 hrs`, `500GB`.
pub fn qty_unit(i: &str) -> IResult<&str, (Decimal, &str)> {
    let (rest, (m, _, u)) = (money, space0, unit).parse(i)?;
    if m.currency.is_some() {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((rest, (m.value, u)))
}

/// A price per unit: `1.80 元/小时`, `$1.29/hr`, `$0.05 / GB`, `0.05 per GB`.
pub fn rate(i: &str) -> IResult<&str, (Money, &str)> {
    let per = alt((
        recognize((space0, char('/'), space0)),
        recognize((space1, tag_no_case("per"), space1)),
    ));
    let (rest, (m, _, u)) = (money, per, unit).parse(i)?;
    Ok((rest, (m, u)))
}

/// What one column cell holds; see [`CellKind`].
pub fn cell_kind(s: &str) -> CellKind<'_> {
    if let Ok((_, (m, u))) = all_consuming(rate).parse(s) {
        return CellKind::Rate(m, u);
    }
    if let Ok((_, m)) = all_consuming(money).parse(s) {
        return CellKind::Number(m);
    }
    if let Ok((_, (q, u))) = all_consuming(qty_unit).parse(s) {
        return CellKind::QtyUnit(q, u);
    }
    if let Ok((_, u)) = all_consuming(unit).parse(s) {
        return CellKind::Unit(u);
    }
    if s.len() <= 64
        && s.bytes().any(|b| b.is_ascii_digit())
        && (crate::normalise::date::parse_datetime(s).is_some()
            || crate::normalise::date::parse_range(s).is_some())
    {
        return CellKind::Date;
    }
    CellKind::Text
}

/// `N unit @ rate` at the end of a description:
/// `1x A100 (80 GB) on-demand, 300 hrs @ $1.29/hr` gives 300, `hrs`, 1.29.
pub fn at_rate(desc: &str) -> Option<(Decimal, Option<&str>, Money)> {
    let (left, right) = desc.rsplit_once('@')?;
    let price = |i| -> IResult<&str, Money> {
        let (rest, (_, m, _)) = (
            space0,
            money,
            opt(alt((
                recognize((space0, char('/'), space0, unit)),
                recognize((space1, tag_no_case("per"), space1, unit)),
            ))),
        )
            .parse(i)?;
        Ok((rest, m))
    };
    let (_, m) = all_consuming((price, space0)).parse(right).ok()?;
    let m = m.0;
    let left = left.trim_end();
    let mut tokens = left.rsplit(' ');
    let last = tokens.next()?;
    if let Ok((_, (q, u))) = all_consuming(qty_unit).parse(last) {
        return Some((q, Some(u), m));
    }
    if let Ok((_, q)) = all_consuming(money).parse(last) {
        return (q.currency.is_none()).then_some((q.value, None, m));
    }
    if all_consuming(unit).parse(last).is_ok() {
        let prev = tokens.next()?;
        let (_, q) = all_consuming(money)
            .parse(prev.trim_start_matches(','))
            .ok()?;
        return (q.currency.is_none()).then_some((q.value, Some(last), m));
    }
    None
}

/// `label  amount` with the amount at the end of the line: returns the label
/// (without its trailing `:` and leader) and the amount. The label may be
/// followed by `:`, a leader, a column gap or one space.
pub fn trailing_amount(line: &str) -> Option<(&str, &str, Money)> {
    let line = line.trim_end();
    let is_sep = |c: char| c == ' ' || c == ':' || c == '\t' || is_leader_char(c);
    let mut prev_sep = false;
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        // Only where a run of separators starts: every split inside the run
        // gives the same label and amount, and trying them all is quadratic.
        // A dot between digits is inside a number or a date (`30.11.2025`),
        // not a leader.
        let inside = c == '.'
            && prev.is_some_and(|p| p.is_ascii_digit())
            && line[i + 1..].starts_with(|n: char| n.is_ascii_digit());
        prev = Some(c);
        let sep = is_sep(c) && !inside;
        let starts_run = sep && !prev_sep;
        prev_sep = sep;
        if !starts_run {
            continue;
        }
        let (label, rest) = line.split_at(i);
        let rest = rest.trim_start_matches(is_sep);
        // A run that starts at 0 has no label before it.
        if i == 0 || rest.is_empty() {
            continue;
        }
        // Recognise first (cheap), read the number only for a whole match.
        if all_consuming(money_text).parse(rest).is_err() {
            continue;
        }
        if let Ok((_, m)) = all_consuming(amount).parse(rest) {
            return Some((label.trim(), rest, m));
        }
    }
    None
}

/// `Key: value`, with a key of at most five words and no digits except in
/// `#`-style numbering words. The colon may be followed by nothing.
pub fn key_value(i: &str) -> IResult<&str, (&str, &str)> {
    let key = verify(take_while1(|c: char| c != ':'), |k: &str| {
        let k = k.trim();
        !k.is_empty()
            && k.split_whitespace().count() <= 5
            && k.chars().count() <= 40
            && k.chars().any(char::is_alphabetic)
            && !k.bytes().any(|b| b.is_ascii_digit())
    });
    let (rest, (k, _, _, v)) = (key, char(':'), space0, take_while(|_| true)).parse(i)?;
    Ok((rest, (k.trim(), v.trim())))
}

/// `Key    value` with a column gap instead of a colon (only for keys the
/// caller knows).
pub fn key_gap_value(i: &str) -> IResult<&str, (&str, &str)> {
    let (rest, (k, _, v)) = (cell, gap, take_while1(|_| true)).parse(i)?;
    Ok((rest, (k.trim(), v.trim())))
}

/// A percentage: `8%`, `7.25 %`.
pub fn percent(i: &str) -> IResult<&str, Decimal> {
    let (rest, (d, _, _)) = (digits, space0, char('%')).parse(i)?;
    match parse_number(d, DecimalMark::Dot) {
        Ok(Cell::Value(v)) => Ok((rest, v)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

#[cfg(test)]
mod tests;
