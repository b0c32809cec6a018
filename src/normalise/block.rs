//! Block prices: a unit or price that is declared per block of units
//! (`1K requests`, `100 Hours`, `per 1M requests`, `元/万次`). The block size
//! is what lets `line-arithmetic` accept a quantity in single units times a
//! price per block (or the other way round): the product is off by exactly
//! the declared block, and by nothing else.
//!
//! Recognised forms (case-insensitive; a block is a power of ten from 10
//! up, so `1 Hour`, `1 GB` and `1/Day` declare nothing):
//! - a unit (or price unit) that starts with a count: `1K`, `10K`,
//!   `1K requests`, `1000 Hours`, `100 GB/Month`, `10,000 units`, `1M`,
//!   `1 Million`, `10 Thousand`;
//! - anywhere in a unit, price unit or description, a count after `per`,
//!   `每` or straight after `/`: `per 1M requests`, `per 1,000`, `/10k`,
//!   `per million`, `per thousand` (not `Data disk / 100 GB`: a spaced
//!   slash separates texts);
//! - a Chinese multiplier before a count word (`次`, `个`, `条`, `请求`,
//!   `token`): `万次`, `千次`, `百万次`, `元/万次`, `每千次`, `10万次`,
//!   `百万tokens`. A bare `千` is not a block: `千瓦时` is a kilowatt-hour.

use rust_decimal::Decimal;

/// Multipliers written after a count (`1K`, `1 Million`), lowercase.
const SUFFIXES: &[(&str, u64)] = &[
    ("thousand", 1_000),
    ("million", 1_000_000),
    ("billion", 1_000_000_000),
    ("k", 1_000),
    ("m", 1_000_000),
];

/// Chinese multipliers, longest first (`百万` before `万`).
const CN_MULTIPLIERS: &[(&str, u64)] = &[
    ("百万", 1_000_000),
    ("千万", 10_000_000),
    ("亿", 100_000_000),
    ("万", 10_000),
    ("千", 1_000),
    ("百", 100),
];

/// What a Chinese multiplier must be followed by to count as a block.
const CN_COUNT_WORDS: &[&str] = &["次", "个", "条", "请求", "token"];

/// The block size a unit or price unit cell declares, if any: a leading
/// count is a block here, and so is anything [`block_in_text`] finds.
pub(crate) fn declared_block(unit: &str) -> Option<Decimal> {
    leading_count(unit.trim()).or_else(|| block_in_text(unit))
}

/// A block declared inside free text: after `per`, `/` or `每`, or a
/// Chinese multiplier with a count word.
pub(crate) fn block_in_text(text: &str) -> Option<Decimal> {
    let lower = text.to_lowercase();
    for (i, _) in lower.char_indices() {
        let rest = &lower[i..];
        let after = if let Some(r) = rest.strip_prefix("per ") {
            // `per` as a word, not the end of `super `.
            let word_start = lower[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            if !word_start {
                continue;
            }
            r.trim_start()
        } else if let Some(r) = rest.strip_prefix('/') {
            // `/10k`, `元/万次`: the count right after the slash. A spaced
            // slash separates texts (`Data disk / 100 GB`), not a price.
            r
        } else if let Some(r) = rest.strip_prefix('每') {
            r.trim_start()
        } else {
            if let Some(n) = chinese_block(rest) {
                return Some(n);
            }
            continue;
        };
        if let Some(n) = leading_count(after) {
            return Some(n);
        }
        // `per million requests`, `per thousand`: a bare multiplier word.
        for (word, n) in SUFFIXES.iter().filter(|(w, _)| w.len() > 1) {
            if after.starts_with(word) && word_ends(&after[word.len()..]) {
                return Some(Decimal::from(*n));
            }
        }
    }
    None
}

/// `万次`, `10万次`, `百万tokens` at the start of `s`.
fn chinese_block(s: &str) -> Option<Decimal> {
    let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let count: u64 = if digits == 0 {
        1
    } else {
        s[..digits].parse().ok()?
    };
    let s = &s[digits..];
    let (word, n) = CN_MULTIPLIERS.iter().find(|(w, _)| s.starts_with(w))?;
    let s = s[word.len()..].trim_start();
    if !CN_COUNT_WORDS.iter().any(|w| s.starts_with(w)) {
        return None;
    }
    block(Decimal::from(count).checked_mul(Decimal::from(*n))?)
}

/// A count at the start of `s` (`1K`, `1,000`, `100 Hours`, `10 million`),
/// as a block when it is a power of ten of at least 10.
fn leading_count(s: &str) -> Option<Decimal> {
    if let Some(n) = chinese_block(s) {
        return Some(n);
    }
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == ','))
        .unwrap_or(s.len());
    let digits: String = s[..end].chars().filter(|c| *c != ',').collect();
    if digits.is_empty() {
        return None;
    }
    let count: Decimal = digits.parse().ok()?;
    let rest = s[end..].trim_start();
    let lower = rest.to_lowercase();
    for (word, n) in SUFFIXES {
        if lower.starts_with(word) && word_ends(&lower[word.len()..]) {
            return block(count.checked_mul(Decimal::from(*n))?);
        }
    }
    block(count)
}

/// A multiplier word ends at the end of the text or before a non-letter
/// (`1K requests`, `10K`, `1M/month`; not `1 Months`, `1 km`).
fn word_ends(rest: &str) -> bool {
    rest.chars().next().is_none_or(|c| !c.is_alphabetic())
}

/// `n` when it is 10, 100, 1000, ...: the only block sizes.
fn block(n: Decimal) -> Option<Decimal> {
    let mut b = Decimal::TEN;
    while b <= n {
        if b == n {
            return Some(n);
        }
        b = b.checked_mul(Decimal::TEN)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Option<u64> {
        declared_block(s).map(|d| d.try_into().unwrap())
    }

    fn t(s: &str) -> Option<u64> {
        block_in_text(s).map(|d| d.try_into().unwrap())
    }

    #[test]
    fn units_that_declare_a_block() {
        assert_eq!(b("1K"), Some(1_000));
        assert_eq!(b("10K"), Some(10_000));
        assert_eq!(b("1K requests"), Some(1_000));
        assert_eq!(b("1000 Hours"), Some(1_000));
        assert_eq!(b("100 Hours"), Some(100));
        assert_eq!(b("100 GB/Month"), Some(100));
        assert_eq!(b("10,000 units"), Some(10_000));
        assert_eq!(b("1M"), Some(1_000_000));
        assert_eq!(b("1 Million"), Some(1_000_000));
        assert_eq!(b("万次"), Some(10_000));
        assert_eq!(b("千次"), Some(1_000));
        assert_eq!(b("10万次"), Some(100_000));
        assert_eq!(b("百万tokens"), Some(1_000_000));
        assert_eq!(b("元/万次"), Some(10_000));
        assert_eq!(b("per 1M requests"), Some(1_000_000));
    }

    #[test]
    fn plain_units_declare_nothing() {
        for u in [
            "hour",
            "Hours",
            "1 Hour",
            "1 GB",
            "1/Day",
            "GB-Months",
            "Units",
            "Requests",
            "小时",
            "千瓦时",
            "元/GB/小时",
            "1 Months",
            "25 GB",
            "3K",
            "元",
        ] {
            assert_eq!(b(u), None, "{u}");
        }
    }

    #[test]
    fn descriptions_declare_a_block_only_after_per() {
        assert_eq!(t("API calls, 0.40 per 1M requests"), Some(1_000_000));
        assert_eq!(t("Lookups per 1,000"), Some(1_000));
        assert_eq!(t("Transactions /10k"), Some(10_000));
        assert_eq!(t("Writes per million"), Some(1_000_000));
        assert_eq!(t("短信 每千次"), Some(1_000));
        assert_eq!(t("Data disk 100 GB"), None);
        // The description joins its texts with ` / `: not a price per block.
        assert_eq!(t("Data disk / 100 GB SSD"), None);
        assert_eq!(t("GPU hours 1000"), None);
        assert_eq!(t("super 1000 things"), None);
        assert_eq!(t("per hour"), None);
        assert_eq!(t("per 1 hour"), None);
        assert_eq!(t("per month"), None);
        // A bare `k` or `m` after `per` is a unit (`per m` of cable), not a
        // multiplier: only the words `thousand`, `million`, `billion` are.
        assert_eq!(t("Cable per m"), None);
        assert_eq!(t("Calls per k"), None);
        assert_eq!(t("per billion"), Some(1_000_000_000));
    }
}
