//! Currencies: every way bills write one, defined once. The CSV reader
//! (header suffixes, currency cells), the number reader (marks around a
//! number) and the text-invoice reader (marks beside an amount) all read
//! this table.

/// One currency and its spellings.
pub struct Currency {
    /// The ISO 4217 code, as reports write it.
    pub code: &'static str,
    /// Other codes for it: `RMB` for `CNY`.
    pub aliases: &'static [&'static str],
    /// Marks written beside an amount: `$`, `US$`, `元`, `Rs.`.
    pub symbols: &'static [&'static str],
    /// Names written in headers and currency cells, never beside an amount
    /// in a text invoice: `人民币`, `美元`.
    pub names: &'static [&'static str],
    /// No minor unit: amounts are whole numbers (`13,200` yen).
    pub whole: bool,
}

/// The currencies bills are read in. `¥` is the yuan (Chinese bills); the
/// yen is written `円` or `JPY`, or `¥` in a text invoice written in
/// Japanese ([`yen_sign_is_the_yen`]).
pub const CURRENCIES: &[Currency] = &[
    Currency {
        code: "CNY",
        aliases: &["RMB"],
        symbols: &["RMB¥", "¥", "￥", "元"],
        names: &["人民币", "人民币元"],
        whole: false,
    },
    Currency {
        code: "USD",
        aliases: &[],
        symbols: &["US$", "$"],
        names: &["美元"],
        whole: false,
    },
    Currency {
        code: "EUR",
        aliases: &[],
        symbols: &["€"],
        names: &["欧元"],
        whole: false,
    },
    Currency {
        code: "GBP",
        aliases: &[],
        symbols: &["£"],
        names: &["英镑"],
        whole: false,
    },
    Currency {
        code: "CAD",
        aliases: &[],
        symbols: &["C$"],
        names: &[],
        whole: false,
    },
    Currency {
        code: "AUD",
        aliases: &[],
        symbols: &["A$"],
        names: &[],
        whole: false,
    },
    Currency {
        code: "JPY",
        aliases: &[],
        symbols: &["円"],
        names: &["日元"],
        whole: true,
    },
    Currency {
        code: "HKD",
        aliases: &[],
        symbols: &["HK$"],
        names: &["港币"],
        whole: false,
    },
    Currency {
        code: "SGD",
        aliases: &[],
        symbols: &[],
        names: &[],
        whole: false,
    },
    Currency {
        code: "INR",
        aliases: &[],
        symbols: &["₹", "Rs.", "Rs"],
        names: &[],
        whole: false,
    },
    Currency {
        code: "CHF",
        aliases: &[],
        symbols: &[],
        names: &[],
        whole: false,
    },
    Currency {
        code: "BRL",
        aliases: &[],
        symbols: &["R$"],
        names: &["reais", "real"],
        whole: false,
    },
    Currency {
        code: "KRW",
        aliases: &[],
        // Korean bills write the won after the amount (`4,500원`) and in
        // their headers (`금액(원)`), as Japanese ones write `円`.
        symbols: &["₩", "원"],
        names: &["원화", "韩元"],
        whole: true,
    },
    Currency {
        code: "PLN",
        aliases: &[],
        symbols: &[],
        names: &[],
        whole: false,
    },
];

/// The ISO code of a spelling (code, alias, symbol or name; ASCII letters in
/// any case), or `None`.
pub fn code_of(spelling: &str) -> Option<&'static str> {
    CURRENCIES.iter().find_map(|c| {
        let found = std::iter::once(&c.code)
            .chain(c.aliases)
            .chain(c.symbols)
            .chain(c.names)
            .any(|s| s.eq_ignore_ascii_case(spelling));
        found.then_some(c.code)
    })
}

/// Whether a document's `¥`/`￥` is the yen, not the yuan: the sign is both,
/// and a Japanese invoice writes `¥30,690` as often as `30,690円`. The
/// document is Japanese when it has kana (hiragana or katakana, which
/// Chinese text never uses; the middle dot `・` and the long-vowel mark
/// `ー`, which Chinese text borrows, do not count), writes the sign, and
/// names no yuan (`元`, `人民币`, `RMB`, `CNY`).
pub fn yen_sign_is_the_yen(text: &str) -> bool {
    let kana = |c: char| matches!(c, '\u{3041}'..='\u{309f}' | '\u{30a0}'..='\u{30fa}' | '\u{ff66}'..='\u{ff9d}');
    let yuan = ["元", "人民币", "RMB", "CNY"];
    (text.contains('¥') || text.contains('￥'))
        && text.chars().any(kana)
        && !yuan.iter().any(|y| text.contains(y))
}

/// True when a currency has no minor unit (its amounts are whole numbers).
pub fn is_whole(code: &str) -> bool {
    CURRENCIES.iter().any(|c| c.whole && c.code == code)
}

/// Every code and alias: `USD`, `RMB`.
pub fn codes() -> impl Iterator<Item = &'static str> {
    CURRENCIES
        .iter()
        .flat_map(|c| std::iter::once(c.code).chain(c.aliases.iter().copied()))
}

/// True when `w` is another code for a currency (`RMB`), not its ISO code.
pub fn is_alias(w: &str) -> bool {
    CURRENCIES.iter().any(|c| c.aliases.contains(&w))
}

/// True when `w` is a code or alias, in any case.
pub fn is_code(w: &str) -> bool {
    codes().any(|c| c.eq_ignore_ascii_case(w))
}

/// Every symbol, the longest first, so that `US$` is found before `$`.
pub fn symbols() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = CURRENCIES
        .iter()
        .flat_map(|c| c.symbols.iter().copied())
        .collect();
    all.sort_by_key(|s| std::cmp::Reverse(s.chars().count()));
    all
}

/// True when `s` is a symbol (exactly, case included).
pub fn is_symbol(s: &str) -> bool {
    CURRENCIES.iter().any(|c| c.symbols.contains(&s))
}

/// True when `c` is a one-character symbol: `$`, `元`.
pub fn is_symbol_char(c: char) -> bool {
    let mut buf = [0u8; 4];
    is_symbol(c.encode_utf8(&mut buf))
}

/// The active ISO 4217 alphabetic codes (funds and precious metals
/// included; `XXX` "no currency" and `XTS` "testing" left out), for
/// `--currency` and the `currency` keys of billaudit.toml. A bill may be
/// in any of them, not only in those [`CURRENCIES`] knows the marks of.
pub const ISO_4217: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
    "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUC", "CUP",
    "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP",
    "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS",
    "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW",
    "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD",
    "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN",
    "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR",
    "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL",
    "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY",
    "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES",
    "VND", "VUV", "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR",
    "XOF", "XPD", "XPF", "XPT", "XSU", "XUA", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
];

/// A currency code a user gives (`--currency cny`, `currency = "RMB"`): an
/// ISO 4217 code in any case, or an alias of one (`RMB` is `CNY`).
/// Anything else is refused with what is accepted.
pub fn parse_code(s: &str) -> Result<String, String> {
    let t = s.trim();
    let up = t.to_ascii_uppercase();
    if let Some(code) = code_of(&up).filter(|_| is_code(&up)) {
        return Ok(code.to_string());
    }
    if ISO_4217.contains(&up.as_str()) {
        return Ok(up);
    }
    Err(format!(
        "`{t}` is not an ISO 4217 currency code (three letters, e.g. USD, CNY, EUR{})",
        if t.chars().count() == 3 {
            "; this one is not assigned"
        } else {
            ""
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_names_one_currency() {
        let mut seen = std::collections::HashSet::new();
        for c in CURRENCIES {
            for s in std::iter::once(&c.code)
                .chain(c.aliases)
                .chain(c.symbols)
                .chain(c.names)
            {
                assert!(seen.insert(s.to_ascii_uppercase()), "{s} twice");
            }
        }
    }

    #[test]
    fn user_codes_are_iso_4217() {
        assert_eq!(parse_code("cny"), Ok("CNY".to_string()));
        assert_eq!(parse_code(" RMB "), Ok("CNY".to_string()));
        assert_eq!(parse_code("THB"), Ok("THB".to_string()));
        assert!(parse_code("XYZ").unwrap_err().contains("not assigned"));
        assert!(parse_code("dollars").unwrap_err().contains("ISO 4217"));
        assert!(parse_code("$").is_err());
        assert!(parse_code("XXX").is_err());
        // Every code the table reads bills in is an ISO code.
        for c in CURRENCIES {
            assert!(ISO_4217.contains(&c.code), "{}", c.code);
        }
        let mut sorted = ISO_4217.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ISO_4217.len());
    }

    #[test]
    fn spellings_give_their_code() {
        assert_eq!(code_of("usd"), Some("USD"));
        assert_eq!(code_of("RMB"), Some("CNY"));
        assert_eq!(code_of("円"), Some("JPY"));
        assert_eq!(code_of("원"), Some("KRW"));
        assert_eq!(code_of("원화"), Some("KRW"));
        assert_eq!(code_of("Rs."), Some("INR"));
        assert_eq!(code_of("dollars"), None);
        assert!(is_code("pln") && !is_code("$"));
        assert!(is_alias("RMB") && !is_alias("CNY"));
        assert!(is_whole("JPY") && is_whole("KRW") && !is_whole("USD"));
        assert!(is_symbol_char('€') && !is_symbol_char('E'));
        let s = symbols();
        let pos = |x| s.iter().position(|y| *y == x).unwrap();
        assert!(pos("US$") < pos("$") && pos("RMB¥") < pos("¥") && pos("Rs.") < pos("Rs"));
    }

    /// Kana and the sign make the yen; Chinese text (even with the marks
    /// it borrows, `・` and `ー`), a named yuan, or no sign do not.
    #[test]
    fn the_yen_sign_is_the_yen_only_in_japanese_text() {
        assert!(yen_sign_is_the_yen("ストレージ ¥1,000"));
        assert!(yen_sign_is_the_yen("ご請求金額 ￥30,690"));
        assert!(yen_sign_is_the_yen("ｽﾄﾚｰｼﾞ ¥1,000"));
        assert!(!yen_sign_is_the_yen("云盘存储 ¥1,000"));
        assert!(!yen_sign_is_the_yen("约翰・史密斯 数据ー ¥1,000"));
        assert!(!yen_sign_is_the_yen("ストレージ ¥1,000 (人民币)"));
        assert!(!yen_sign_is_the_yen("ストレージ CNY 1,000 ¥"));
        assert!(!yen_sign_is_the_yen("ストレージ 1,000"));
    }
}
