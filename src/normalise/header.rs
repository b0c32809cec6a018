//! Header cells: normalisation and currency suffixes.
//!
//! Exports drift: `Amount (USD)`, `应付金额(¥)`, `抵扣量（含RI）`, `' 优惠类型'`,
//! a BOM glued to the first cell, camelCase and localised Azure names with the
//! English one in parentheses. Every header is normalised the same way before
//! it is compared with any alias.

use super::number::fold_char;
use crate::vocab::currency;

/// A header cell after normalisation, with the currency its suffix named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NormHeader {
    pub name: String,
    pub currency: Option<String>,
}

/// Trim, drop a BOM, fold full-width to ASCII, lowercase, collapse inner
/// whitespace, and strip a currency suffix such as `(¥)`, `(元)`, `(USD)`.
/// `Kategorie der Verbrauchseinheit (MeterCategory)` becomes `metercategory`.
pub(crate) fn normalise_header(raw: &str) -> NormHeader {
    let folded: String = raw
        .chars()
        .filter(|c| *c != '\u{feff}' && *c != '\u{200b}')
        .map(fold_char)
        .collect();
    let mut s = collapse_ws(folded.trim());
    let mut currency = None;
    if let Some(open) = s.rfind('(') {
        if s.ends_with(')') {
            let inner = s[open + 1..s.len() - 1].trim().to_string();
            if let Some(code) = currency_code(&inner) {
                currency = Some(code.to_string());
                s = s[..open].trim_end().to_string();
            } else if is_camel_identifier(&inner) && open > 0 {
                s = inner;
            }
        }
    }
    if currency.is_none() {
        currency = named_by_words(&s).map(str::to_string);
    }
    NormHeader {
        name: s.to_lowercase(),
        currency,
    }
}

/// The currency a header names by its own words rather than by a bracketed
/// suffix: a header that is a currency (`USD`, DigitalOcean's amount
/// column; `¥`, `人民币`), or whose first or last word is a currency code
/// (`cost_usd`, `Amount EUR`, `USD Total`). Words are split at spaces,
/// `_`, `-`, `.` and `/`. ASCII words that are names, not codes (`real`),
/// never name one alone.
fn named_by_words(header: &str) -> Option<&'static str> {
    let t = header.trim();
    let word = |w: &str| currency::is_code(w).then(|| currency_code(w)).flatten();
    if t.is_ascii() && t.chars().all(|c| c.is_ascii_alphabetic()) {
        return word(t);
    }
    if let Some(code) = currency_code(t) {
        return Some(code);
    }
    let words: Vec<&str> = t
        .split([' ', '_', '-', '.', '/'])
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [first, .., last] => word(last).or_else(|| word(first)),
        _ => None,
    }
}

/// The names a bilingual header cell gives, each alone: `leistung / service`
/// is `leistung` and `service` (German invoices print the English name
/// beside their own, `Betrag | Amount`). Only a ` / ` or ` | ` with spaces
/// around it parts names: `lineitem/unblendedcost` is one CUR name. Empty
/// for a cell with one name.
pub(crate) fn translations(name: &str) -> impl Iterator<Item = &str> {
    let parted = name.contains(" / ") || name.contains(" | ");
    name.split(['/', '|'])
        .map(str::trim)
        .filter(move |p| parted && !p.is_empty())
}

fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// `MeterCategory`, `costInBillingCurrency`: the English column name that
/// localised Azure exports put in parentheses.
fn is_camel_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && s.len() >= 4
        && s.chars().all(|c| c.is_ascii_alphanumeric())
        && s.chars().skip(1).any(|c| c.is_ascii_uppercase())
        && s.chars().any(|c| c.is_ascii_lowercase())
}

/// Maps the ways bills write a currency to its ISO code (the table is
/// [`crate::vocab::currency`]); also a name with its code in brackets,
/// `人民币(CNY)`.
pub(crate) fn currency_code(raw: &str) -> Option<&'static str> {
    let t = raw.trim();
    if let Some(code) = currency::code_of(t) {
        return Some(code);
    }
    // `人民币(CNY)` style: a name with the code in brackets.
    let open = t.rfind(['(', '（'])?;
    let inner = t[open..]
        .trim_start_matches(['(', '（'])
        .trim_end_matches([')', '）']);
    currency_code(inner)
}

/// An ISO code as exports write it on every row (`USD`), which is its own
/// value; `RMB` is an alias (of `CNY`).
pub(crate) fn is_iso_code(t: &str) -> bool {
    t.len() == 3 && t.bytes().all(|b| b.is_ascii_uppercase()) && !currency::is_alias(t)
}

/// A currency cell's value as an ISO code: known names are mapped, other
/// three-letter codes are kept uppercase, anything else is `None`.
pub(crate) fn currency_value(raw: &str) -> Option<String> {
    let t = raw.trim();
    if is_iso_code(t) {
        return Some(t.to_string());
    }
    if let Some(c) = currency_code(t) {
        return Some(c.to_string());
    }
    if t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Some(t.to_ascii_uppercase());
    }
    None
}

/// The first column whose normalised name is a net amount's
/// ([`crate::vocab::headers::NET`]: `Net`, `Nettobetrag`, `不含税金额`).
pub(crate) fn net_column(names: &[String]) -> Option<usize> {
    let net = crate::vocab::headers::NET;
    names
        .iter()
        .position(|n| net.iter().any(|x| normalise_header(x).name == *n))
}

/// The column a `--columns` value names: a 1-based position (`7`) or a
/// header name (compared after header normalisation).
pub(crate) fn override_column(names: &[String], value: &str) -> Option<usize> {
    let v = value.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        let n: usize = v.parse().ok()?;
        return (1..=names.len()).contains(&n).then(|| n - 1);
    }
    let target = normalise_header(v).name;
    names.iter().position(|n| *n == target)
}

/// A row's currency cell as a code: `USD`, `¥` -> `CNY`, `usd` -> `USD`. A
/// cell that names no currency (`5x`, a shifted amount) is an error, never a
/// currency of its own to pool the row under (docs/decisions.md).
pub fn currency_cell(c: &str) -> Result<String, String> {
    currency_value(c).ok_or_else(|| {
        format!(
            "`{c}` is not a currency (an ISO 4217 code such as USD, a sign such as ¥ or €, or a name such as RMB)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> (String, Option<String>) {
        let h = normalise_header(s);
        (h.name, h.currency)
    }

    #[test]
    fn normalises_drifted_headers() {
        assert_eq!(n("\u{feff}Amount"), ("amount".into(), None));
        assert_eq!(n("  Unit   Price "), ("unit price".into(), None));
        assert_eq!(n(" 优惠类型"), ("优惠类型".into(), None));
        assert_eq!(n("抵扣量（含RI）"), ("抵扣量(含ri)".into(), None));
        assert_eq!(n("ＡＭＯＵＮＴ"), ("amount".into(), None));
    }

    #[test]
    fn a_bilingual_cell_gives_each_name_and_a_namespaced_one_none() {
        fn t(s: &str) -> Vec<&str> {
            translations(s).collect()
        }
        assert_eq!(t("leistung / service"), vec!["leistung", "service"]);
        assert_eq!(t("betrag | amount"), vec!["betrag", "amount"]);
        // CUR's `lineItem/UnblendedCost` is one name, and so is a plain one.
        assert!(t("lineitem/unblendedcost").is_empty());
        assert!(t("description").is_empty());
    }

    #[test]
    fn strips_currency_suffixes() {
        assert_eq!(n("应付金额(¥)"), ("应付金额".into(), Some("CNY".into())));
        assert_eq!(
            n("现金账户支出(元)"),
            ("现金账户支出".into(), Some("CNY".into()))
        );
        assert_eq!(n("单价（元）"), ("单价".into(), Some("CNY".into())));
        assert_eq!(n("Cost (USD)"), ("cost".into(), Some("USD".into())));
        assert_eq!(n("Cost(USD)"), ("cost".into(), Some("USD".into())));
        assert_eq!(n("Amount (€)"), ("amount".into(), Some("EUR".into())));
    }

    #[test]
    fn a_header_that_is_or_carries_a_currency_code() {
        assert_eq!(n("USD"), ("usd".into(), Some("USD".into())));
        assert_eq!(n("eur"), ("eur".into(), Some("EUR".into())));
        assert_eq!(n("人民币"), ("人民币".into(), Some("CNY".into())));
        assert_eq!(n("cost_usd"), ("cost_usd".into(), Some("USD".into())));
        assert_eq!(n("Amount EUR"), ("amount eur".into(), Some("EUR".into())));
        assert_eq!(n("USD Total"), ("usd total".into(), Some("USD".into())));
        assert_eq!(n("total-gbp"), ("total-gbp".into(), Some("GBP".into())));
        // Not currencies: a name that is an ordinary word, a code inside a
        // word, a word that is no code, a currency column's own header.
        assert_eq!(n("Real"), ("real".into(), None));
        assert_eq!(n("Real Cost"), ("real cost".into(), None));
        assert_eq!(n("costinusd"), ("costinusd".into(), None));
        assert_eq!(n("usage_hours"), ("usage_hours".into(), None));
        assert_eq!(n("Currency"), ("currency".into(), None));
        assert_eq!(n("billing_currency"), ("billing_currency".into(), None));
    }

    #[test]
    fn localised_azure_names() {
        assert_eq!(
            n("Kategorie der Verbrauchseinheit (MeterCategory)"),
            ("metercategory".into(), None)
        );
        assert_eq!(n("Usage (hours)"), ("usage (hours)".into(), None));
    }

    #[test]
    fn invisible_characters_and_brackets() {
        // A zero-width space (U+200B) is dropped like a BOM.
        assert_eq!(n("\u{200b}Cost"), ("cost".into(), None));
        assert_eq!(n("Co\u{200b}st\u{feff}"), ("cost".into(), None));
        // Full-width brackets fold to ASCII before the suffix is looked at.
        assert_eq!(n("金额（USD）"), ("金额".into(), Some("USD".into())));
        // A header that is only a bracketed name keeps it: nothing before it
        // to replace.
        assert_eq!(n("(MeterCategory)"), ("(metercategory)".into(), None));
    }

    #[test]
    fn only_camel_case_identifiers_replace_the_name() {
        // Not identifiers: a space inside, a digit first, shorter than four.
        assert_eq!(n("Price (per GiB)"), ("price (per gib)".into(), None));
        assert_eq!(n("Tier (2ndGen)"), ("tier (2ndgen)".into(), None));
        assert_eq!(n("Size (aB)"), ("size (ab)".into(), None));
        // No uppercase after the first letter, or no lowercase at all.
        assert_eq!(n("Usage (Hours)"), ("usage (hours)".into(), None));
        assert_eq!(n("Usage (GPUH)"), ("usage (gpuh)".into(), None));
        // Four characters with an inner capital: an identifier.
        assert_eq!(n("Preis (unIt)"), ("unit".into(), None));
        assert_eq!(
            n("Kosten (costInBillingCurrency)"),
            ("costinbillingcurrency".into(), None)
        );
    }

    #[test]
    fn every_currency_spelling() {
        for (raw, code) in [
            ("¥", "CNY"),
            ("人民币", "CNY"),
            ("rmb", "CNY"),
            ("US$", "USD"),
            ("美元", "USD"),
            ("欧元", "EUR"),
            ("£", "GBP"),
            ("gbp", "GBP"),
            ("C$", "CAD"),
            ("A$", "AUD"),
            ("日元", "JPY"),
            ("HK$", "HKD"),
            ("港币", "HKD"),
            ("sgd", "SGD"),
            ("₹", "INR"),
            ("chf", "CHF"),
            ("₩", "KRW"),
            ("人民币(CNY)", "CNY"),
            ("Dollar (USD)", "USD"),
        ] {
            assert_eq!(currency_code(raw), Some(code), "{raw}");
        }
        assert_eq!(currency_code("dollars"), None);
        assert_eq!(currency_code("hours (h)"), None);
    }

    #[test]
    fn iso_codes() {
        assert!(is_iso_code("USD"));
        assert!(is_iso_code("XAF"));
        // Lowercase, four letters and the alias RMB are not ISO codes as written.
        assert!(!is_iso_code("usd"));
        assert!(!is_iso_code("USDX"));
        assert!(!is_iso_code("US"));
        assert!(!is_iso_code("RMB"));
        // Unknown three-letter codes are kept, uppercased.
        assert_eq!(currency_value("xaf").as_deref(), Some("XAF"));
        assert_eq!(currency_value(" XAF ").as_deref(), Some("XAF"));
        assert_eq!(currency_value("RMB").as_deref(), Some("CNY"));
        assert_eq!(currency_value("x1z"), None);
        assert_eq!(currency_value("USDX"), None);
    }

    #[test]
    fn currency_values() {
        assert_eq!(currency_value("人民币（CNY）").as_deref(), Some("CNY"));
        assert_eq!(currency_value("usd").as_deref(), Some("USD"));
        assert_eq!(currency_value("元").as_deref(), Some("CNY"));
        assert_eq!(currency_value("dollars"), None);
    }
}
