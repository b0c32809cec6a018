//! Time units: the words bills use for an hour, a day, a minute and a
//! second, defined once. Read by the usage checks (`billing-granularity`,
//! `billing-rounding`, the GPU usage) through [`unit_hours`].

use rust_decimal::Decimal;

/// One hour, after a block count (`100 Hours`) and a `GPU-` or `卡` prefix.
pub(crate) const HOUR: &[&str] = &[
    "h", "hr", "hrs", "hour", "hours", "小时", "时", "卡时", "核时",
];
/// One day.
pub(crate) const DAY: &[&str] = &["d", "day", "days", "天", "日"];
/// One minute.
pub(crate) const MINUTE: &[&str] = &["min", "mins", "minute", "minutes", "分钟"];
/// One second.
pub(crate) const SECOND: &[&str] = &["s", "sec", "secs", "second", "seconds", "秒"];
/// Words that make a unit storage, traffic or requests, not time, even with
/// an hour in it (`GB*小时`, `GB-hours`).
pub(crate) const NOT_TIME: &[&str] = &[
    "gb", "tb", "mb", "gib", "tib", "byte", "request", "次", "万",
];

/// How many hours one unit of a quantity is: `hours`, `hrs`, `h`, `小时`,
/// `GPU-hour`, `卡时` are 1; `days`, `天` are 24; `min` is 1/60; `s` is
/// 1/3600. Azure's block units (`100 Hours`) multiply. Storage and traffic
/// units (`GB*小时`, `GB-hours`) are not time and give `None`.
pub(crate) fn unit_hours(unit: &str) -> Option<Decimal> {
    let u = unit.trim().to_lowercase();
    if NOT_TIME.iter().any(|w| u.contains(w)) {
        return None;
    }
    // `100 Hours`: a block of units.
    let digits: String = u.chars().take_while(|c| c.is_ascii_digit()).collect();
    let (block, rest) = if digits.is_empty() {
        (Decimal::ONE, u.as_str())
    } else {
        (digits.parse::<Decimal>().ok()?, u[digits.len()..].trim())
    };
    let rest = rest
        .trim_start_matches("gpu")
        .trim_start_matches("card")
        .trim_start_matches("instance")
        .trim_start_matches(['-', ' ', '_', '*', '·'])
        .trim_start_matches('卡')
        .trim_start_matches(['*', '·'])
        .trim_end_matches("(s)");
    let per = if HOUR.contains(&rest) {
        Decimal::ONE
    } else if DAY.contains(&rest) {
        Decimal::from(24)
    } else if MINUTE.contains(&rest) {
        Decimal::ONE / Decimal::from(60)
    } else if SECOND.contains(&rest) {
        Decimal::ONE / Decimal::from(3600)
    } else {
        return None;
    };
    block.checked_mul(per)
}

/// Words that say, in a line's own text, that its quantity is in hours,
/// when the bill has no unit column: `GPU 时长 RTX 4090`,
/// `RTX 4090 GPU instance (hours)`. ASCII words must stand alone
/// (`hourly` is not `hour`).
pub(crate) const HOUR_IN_TEXT: &[&str] = &[
    "时长",
    "小时",
    "卡时",
    "gpu-hours",
    "gpu-hour",
    "hours",
    "hour",
    "hrs",
];

/// The hours of one unit of a quantity whose line has no unit, from the
/// line's text: 1 when the text names an hour ([`HOUR_IN_TEXT`]), else
/// `None`. Only asked of GPU compute lines, whose texts name memory sizes
/// (`A100 80GB`) that are not a unit.
pub(crate) fn text_hours(text: &str) -> Option<Decimal> {
    let t = text.to_lowercase();
    let named = HOUR_IN_TEXT.iter().any(|w| {
        t.match_indices(w).any(|(i, _)| {
            if !w.is_ascii() {
                return true;
            }
            let before = t[..i].chars().last();
            let after = t[i + w.len()..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric())
                && !after.is_some_and(|c| c.is_ascii_alphanumeric())
        })
    });
    named.then_some(Decimal::ONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_in_hours() {
        assert_eq!(unit_hours(" H "), Some(Decimal::ONE));
        assert_eq!(unit_hours("GPU-h"), Some(Decimal::ONE));
        assert_eq!(unit_hours("24 Hours"), Some(Decimal::from(24)));
        assert_eq!(unit_hours("天"), Some(Decimal::from(24)));
        // 1 / 60 and 1 / 3600 of an hour.
        assert_eq!(unit_hours("min"), Some(Decimal::ONE / Decimal::from(60)));
        assert_eq!(unit_hours("秒"), Some(Decimal::ONE / Decimal::from(3600)));
        for u in ["GB-hours", "GB*小时", "month", "hs", "ch"] {
            assert_eq!(unit_hours(u), None, "{u}");
        }
    }

    #[test]
    fn hours_named_in_the_text() {
        for t in [
            "GPU 时长 RTX 4090",
            "RTX 4090 GPU instance (hours)",
            "A100 GPU-hours",
            "H100 usage, hrs",
            "RTX 4090 使用小时",
            "A100 80GB GPU-hours",
        ] {
            assert_eq!(text_hours(t), Some(Decimal::ONE), "{t}");
        }
        for t in [
            "RTX 4090 GPU pod",
            "RTX 4090 hourly plan",
            "4090 instance (2 cards)",
            "shours",
        ] {
            assert_eq!(text_hours(t), None, "{t}");
        }
    }
}
