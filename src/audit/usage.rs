//! What a line item says about usage: the calendar days it covers, how many
//! hours one unit of its quantity is, and which GPU model it names. Shared by
//! `idle-storage`, `billing-granularity` and the GPU usage kept for
//! `billaudit reprice`.

use std::hash::Hasher;

use chrono::{Datelike, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::model::LineItem;
pub(crate) use crate::vocab::units::unit_hours;

/// A row is taken to cover at most this many days (a longer range is cut).
pub(crate) const MAX_SPAN_DAYS: i32 = 366;

/// The days a dated item covers, as (first, last) day numbers (days from
/// the common era), inclusive. An end at midnight does not cover its own
/// day: `2025-10-01 00:00` to `2025-10-31 00:00` is 30 days.
pub(crate) fn item_days(item: &LineItem) -> Option<(i32, i32)> {
    let start = item.start?;
    let first = start.date().num_days_from_ce();
    let last = match item.end {
        Some(end) if end > start => (end - chrono::Duration::seconds(1))
            .date()
            .num_days_from_ce(),
        _ => first,
    };
    Some((
        first,
        last.clamp(first, first.saturating_add(MAX_SPAN_DAYS - 1)),
    ))
}

/// `2025-10-02` for a day number.
pub(crate) fn day_text(day: i32) -> String {
    NaiveDate::from_num_days_from_ce_opt(day).map_or_else(|| day.to_string(), |d| d.to_string())
}

/// Seconds between start and end, when both are known and end is later.
pub(crate) fn elapsed_seconds(
    start: Option<NaiveDateTime>,
    end: Option<NaiveDateTime>,
) -> Option<i64> {
    let (s, e) = (start?, end?);
    let secs = (e - s).num_seconds();
    (secs > 0).then_some(secs)
}

/// GPU models recognised in descriptions, most specific first. Each entry is
/// (token in the lowercase text, `-` and `_` read as spaces; canonical name).
pub(crate) const GPU_MODELS: &[(&str, &str)] = &[
    ("4090d", "RTX 4090D"),
    ("4090", "RTX 4090"),
    ("5090", "RTX 5090"),
    ("3090", "RTX 3090"),
    ("3080", "RTX 3080"),
    ("a100", "A100"),
    ("a800", "A800"),
    ("h100", "H100"),
    ("h800", "H800"),
    ("h200", "H200"),
    ("h20", "H20"),
    ("v100", "V100"),
    ("l40s", "L40S"),
    ("l40", "L40"),
    ("l20", "L20"),
    ("a10g", "A10G"),
    ("a10", "A10"),
    ("a6000", "RTX A6000"),
    ("t4", "T4"),
];

/// The GPU model a text names (`RTX 4090 GPU pod`, `NVIDIA A100 80GB`,
/// `ecs.gn7i (A10)`), by its canonical name. A token must not run on into
/// a letter or digit (`a100` is not `a10`; `h20` in `h200` is not H20).
pub(crate) fn gpu_model(text: &str) -> Option<&'static str> {
    let s: String = text
        .to_lowercase()
        .chars()
        .map(|c| if matches!(c, '-' | '_') { ' ' } else { c })
        .collect();
    for (token, name) in GPU_MODELS {
        let mut from = 0;
        while let Some(i) = s[from..].find(token) {
            let at = from + i;
            let before = s[..at].chars().last();
            let after = s[at + token.len()..].chars().next();
            // `t4` must stand alone (`t4g`, `gpt4`, `st4` are not T4).
            let before_ok = token.len() > 2 || !before.is_some_and(|c| c.is_ascii_alphanumeric());
            // Short tokens must end there (`t4g`, `a10g`, `l40s` are other
            // names); longer ones must not run on into a digit (`a100` in `a1000`).
            let after_ok = if token.len() <= 3 {
                !after.is_some_and(|c| c.is_ascii_alphanumeric())
            } else {
                !after.is_some_and(|c| c.is_ascii_digit())
            };
            if before_ok && after_ok {
                return Some(name);
            }
            from = at + token.len();
        }
    }
    None
}

/// Remembers [`gpu_model`] and [`unit_hours`] for texts already seen, and
/// whether a description names a plan (`plan-costlier-than-on-demand`'s
/// words): bills repeat the same few descriptions and units on most rows.
/// One memo serves every state a thread builds, range after range
/// ([`super::Caches`]): a check's own memo would start empty in each range
/// and look every description up again. Bounded: each table starts afresh
/// after [`Memo::CAP`] texts.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    models: rustc_hash::FxHashMap<u64, Option<&'static str>>,
    units: Vec<(String, Option<Decimal>)>,
    plans: rustc_hash::FxHashMap<u64, bool>,
}

impl Memo {
    pub(crate) const CAP: usize = 4096;
    /// Distinct units remembered.
    const UNITS: usize = 16;

    pub(crate) fn gpu_model(&mut self, description: &str) -> Option<&'static str> {
        let k = hash_text(description);
        if let Some(m) = self.models.get(&k) {
            return *m;
        }
        if self.models.len() >= Self::CAP {
            self.models.clear();
        }
        let m = gpu_model(description);
        self.models.insert(k, m);
        m
    }

    /// `plan_words(description)`, remembered per description (the one
    /// test `plan_cost` asks of a description).
    pub(crate) fn plan_words(&mut self, description: &str, plan_words: fn(&str) -> bool) -> bool {
        let k = hash_text(description);
        if let Some(&found) = self.plans.get(&k) {
            return found;
        }
        if self.plans.len() >= Self::CAP {
            self.plans.clear();
        }
        let found = plan_words(description);
        self.plans.insert(k, found);
        found
    }

    pub(crate) fn unit_hours(&mut self, unit: &str) -> Option<Decimal> {
        // A bill has a handful of units, interleaved row by row.
        if let Some((_, h)) = self.units.iter().find(|(u, _)| u == unit) {
            return *h;
        }
        let h = unit_hours(unit);
        if self.units.len() >= Self::UNITS {
            self.units.clear();
        }
        self.units.push((unit.to_string(), h));
        h
    }
}

/// A 64-bit hash that does not change between runs (SipHash with fixed keys).
pub(crate) fn stable_hash(f: impl FnOnce(&mut std::hash::DefaultHasher)) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    f(&mut h);
    h.finish()
}

/// Hashes a text (for keys that must not keep the whole text).
pub(crate) fn hash_text(s: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(s.as_bytes())
}

/// `Decimal` rounded for a message to the scale the bill writes money in
/// (at least 2 places), half away from zero.
pub(crate) fn round_money(d: Decimal, scale: u32) -> Decimal {
    d.round_dp_with_strategy(
        scale.max(2),
        rust_decimal::RoundingStrategy::MidpointAwayFromZero,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(unit_hours("hours"), Some(Decimal::ONE));
        assert_eq!(unit_hours("GPU-hour"), Some(Decimal::ONE));
        assert_eq!(unit_hours("小时"), Some(Decimal::ONE));
        assert_eq!(unit_hours("卡时"), Some(Decimal::ONE));
        assert_eq!(unit_hours("100 Hours"), Some(Decimal::from(100)));
        assert_eq!(unit_hours("days"), Some(Decimal::from(24)));
        assert_eq!(unit_hours("GB*小时"), None);
        assert_eq!(unit_hours("GB-month"), None);
        assert_eq!(unit_hours("month"), None);
    }

    #[test]
    fn models() {
        assert_eq!(gpu_model("RTX 4090 GPU pod (on-demand)"), Some("RTX 4090"));
        assert_eq!(gpu_model("A100 80GB GPU pod"), Some("A100"));
        assert_eq!(gpu_model("GPU: 1 * NVIDIA A10"), Some("A10"));
        assert_eq!(gpu_model("NVIDIA H800 SXM"), Some("H800"));
        assert_eq!(gpu_model("Tesla V100-32G"), Some("V100"));
        assert_eq!(gpu_model("L40S"), Some("L40S"));
        assert_eq!(gpu_model("GeForce RTX 3090"), Some("RTX 3090"));
        assert_eq!(gpu_model("g5.xlarge (A10G)"), Some("A10G"));
        assert_eq!(gpu_model("Network volume 500 GB"), None);
        assert_eq!(gpu_model("t4g.medium"), None);
        assert_eq!(gpu_model("Tesla T4"), Some("T4"));
    }

    #[test]
    fn row_hashes_see_cell_boundaries() {
        let h = |cells: &[&str]| {
            crate::model::record_fingerprint(&csv::ByteRecord::from(cells.to_vec()), &[])
        };
        assert_ne!(h(&["ab", "c"]), h(&["a", "bc"]));
        assert_ne!(h(&["13.80", ""]), h(&["13.80"]));
        assert_ne!(h(&["pod-7f3a", "13.80"]), h(&["pod-9c21", "13.80"]));
        assert_eq!(h(&["x", "y"]), h(&["x", "y"]));
        // A skipped cell (a row id) counts neither its bytes nor its length.
        let skip = |cells: &[&str]| {
            crate::model::record_fingerprint(&csv::ByteRecord::from(cells.to_vec()), &[1])
        };
        assert_eq!(skip(&["a", "id-1", "b"]), skip(&["a", "id-22", "b"]));
        assert_ne!(skip(&["a", "id-1", "b"]), skip(&["ab", "id-1", ""]));
        let many: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let mut other = many.clone();
        other[150] = "x".into();
        assert_ne!(
            h(&many.iter().map(String::as_str).collect::<Vec<_>>()),
            h(&other.iter().map(String::as_str).collect::<Vec<_>>())
        );
        assert_eq!(hash_text("abc"), hash_text("abc"));
    }

    #[test]
    fn days_of_a_range() {
        let mut i = LineItem::new(1, "x", Decimal::ONE);
        let d = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").ok();
        i.start = d("2025-10-01 00:00:00");
        i.end = d("2025-10-31 00:00:00");
        let (a, b) = item_days(&i).unwrap();
        assert_eq!(b - a + 1, 30);
        i.end = d("2025-10-01 20:00:00");
        let (a, b) = item_days(&i).unwrap();
        assert_eq!(a, b);
        assert_eq!(day_text(a), "2025-10-01");
    }

    // ---- Mutation-testing unit tests (docs/reliability.md, "Mutation testing") ----

    fn at(s: &str) -> Option<NaiveDateTime> {
        Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
    }

    /// Day number of a date, computed by chrono (not by billaudit).
    fn day(y: i32, m: u32, d: u32) -> i32 {
        NaiveDate::from_ymd_opt(y, m, d).unwrap().num_days_from_ce()
    }

    #[test]
    fn item_days_exact_numbers() {
        let mut i = LineItem::new(1, "x", Decimal::ONE);
        assert_eq!(item_days(&i), None);
        // A date alone covers its own day.
        i.start = at("2025-10-01 08:00:00");
        assert_eq!(item_days(&i), Some((day(2025, 10, 1), day(2025, 10, 1))));
        // 2025-10-01 00:00 .. 2025-10-03 00:00: the 1st and the 2nd.
        i.start = at("2025-10-01 00:00:00");
        i.end = at("2025-10-03 00:00:00");
        assert_eq!(item_days(&i), Some((day(2025, 10, 1), day(2025, 10, 2))));
        // An end one second past midnight covers that day too.
        i.end = at("2025-10-03 00:00:01");
        assert_eq!(item_days(&i), Some((day(2025, 10, 1), day(2025, 10, 3))));
        // An end before the start: the start day only.
        i.end = at("2025-09-20 00:00:00");
        assert_eq!(item_days(&i), Some((day(2025, 10, 1), day(2025, 10, 1))));
        // Two years are cut to 366 days: first + 365.
        i.start = at("2024-01-01 00:00:00");
        i.end = at("2026-01-01 00:00:00");
        let first = day(2024, 1, 1);
        assert_eq!(item_days(&i), Some((first, first + 365)));
        // 2024 is a leap year: 366 days end on 2024-12-31.
        assert_eq!(first + 365, day(2024, 12, 31));
    }

    #[test]
    fn day_text_exact() {
        assert_eq!(day_text(day(2025, 10, 2)), "2025-10-02");
        // Out of chrono's range: the number itself.
        assert_eq!(day_text(i32::MAX), "2147483647");
    }

    #[test]
    fn elapsed_seconds_only_when_end_is_later() {
        // 08:00 .. 09:30 = 90 min = 5400 s.
        assert_eq!(
            elapsed_seconds(at("2025-10-01 08:00:00"), at("2025-10-01 09:30:00")),
            Some(5400)
        );
        // One second.
        assert_eq!(
            elapsed_seconds(at("2025-10-01 08:00:00"), at("2025-10-01 08:00:01")),
            Some(1)
        );
        assert_eq!(
            elapsed_seconds(at("2025-10-01 08:00:00"), at("2025-10-01 08:00:00")),
            None
        );
        assert_eq!(
            elapsed_seconds(at("2025-10-01 09:00:00"), at("2025-10-01 08:00:00")),
            None
        );
        assert_eq!(elapsed_seconds(None, at("2025-10-01 08:00:00")), None);
    }

    #[test]
    fn unit_hours_every_arm() {
        assert_eq!(unit_hours("hr"), Some(Decimal::ONE));
        assert_eq!(unit_hours("核时"), Some(Decimal::ONE));
        assert_eq!(unit_hours("天"), Some(Decimal::from(24)));
        // A minute is 1/60 hour: 60 of them make (about) one hour, and it
        // is neither 1 (1 % 60) nor 60 (1 * 60).
        let min = unit_hours("minutes").unwrap();
        assert!(
            min > Decimal::new(166, 4) && min < Decimal::new(167, 4),
            "{min}"
        );
        let sec = unit_hours("s").unwrap();
        // 1/3600 = 0.000277...
        assert!(
            sec > Decimal::new(277, 6) && sec < Decimal::new(278, 6),
            "{sec}"
        );
        assert_eq!(unit_hours("秒"), Some(sec));
        // A block: 2 days = 48 hours.
        assert_eq!(unit_hours("2 days"), Some(Decimal::from(48)));
        assert_eq!(unit_hours("request"), None);
        assert_eq!(unit_hours("fortnight"), None);
    }

    #[test]
    fn gpu_model_token_boundaries() {
        // A longer token may follow a letter or digit (`8xA100`)...
        assert_eq!(gpu_model("8xA100"), Some("A100"));
        // ... but `t4` must stand alone.
        assert_eq!(gpu_model("gpt4 api"), None);
        assert_eq!(gpu_model("gpt4 on a T4"), Some("T4"));
        // A rejected occurrence (`a1000`) is skipped and a later one found.
        assert_eq!(gpu_model("a1000 then a100"), Some("A100"));
        // A short token running on into a letter is another name; not a
        // digit-only rule: `h20x` is not H20.
        assert_eq!(gpu_model("h20x"), None);
        assert_eq!(gpu_model("node h20"), Some("H20"));
        assert_eq!(gpu_model("rtx-4090_d"), Some("RTX 4090"));
        assert_eq!(gpu_model("NVIDIA H100 SXM"), Some("H100"));
        assert_eq!(gpu_model("disk"), None);
    }

    #[test]
    fn memo_remembers_and_is_bounded() {
        let mut m = Memo::default();
        assert_eq!(m.gpu_model("RTX 4090 pod"), Some("RTX 4090"));
        assert_eq!(m.gpu_model("disk"), None);
        assert_eq!(m.gpu_model("RTX 4090 pod"), Some("RTX 4090"));
        assert_eq!(m.models.len(), 2);
        for i in 0..Memo::CAP {
            m.gpu_model(&format!("row {i}"));
        }
        // Before row k, 2 + k texts are held; at k = 4094 that is 4096 (the
        // cap): cleared, then rows 4094 and 4095 are inserted: 2 held.
        assert_eq!(m.models.len(), 2);
        assert_eq!(m.gpu_model("a100"), Some("A100"));

        assert_eq!(m.unit_hours("hours"), Some(Decimal::ONE));
        assert_eq!(m.unit_hours("days"), Some(Decimal::from(24)));
        assert_eq!(m.unit_hours("hours"), Some(Decimal::ONE));
        assert_eq!(m.unit_hours("GB"), None);
        assert_eq!(m.units.len(), 3);
        for i in 0..13 {
            m.unit_hours(&format!("{i} hours"));
        }
        // 3 + 13 = 16 held: full, not yet cleared.
        assert_eq!(m.units.len(), 16);
        assert_eq!(m.unit_hours("5 days"), Some(Decimal::from(120)));
        // The 17th clears first: only `5 days` held.
        assert_eq!(m.units.len(), 1);
    }

    #[test]
    fn hashes_tell_texts_apart() {
        assert_ne!(hash_text("abc"), hash_text("abd"));
        let a = stable_hash(|h| h.write(b"abc"));
        assert_eq!(a, stable_hash(|h| h.write(b"abc")));
        assert_ne!(a, stable_hash(|h| h.write(b"abd")));
        assert!(a > 1);
    }

    #[test]
    fn round_money_at_least_two_places_half_away() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        assert_eq!(round_money(d("1.005"), 2).to_string(), "1.01");
        assert_eq!(round_money(d("-1.005"), 0).to_string(), "-1.01");
        assert_eq!(round_money(d("1.23450"), 4).to_string(), "1.2345");
        assert_eq!(round_money(d("1.23455"), 4).to_string(), "1.2346");
    }
}
