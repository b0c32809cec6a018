//! `billing-rounding` and `billing-granularity` in `sql --findings`, with
//! the decisions of `audit/billing_rounding.rs` and
//! `audit/billing_granularity.rs`: the hour and day units of
//! [`crate::vocab::units`], whole seconds between the charge period's start
//! and end (`audit/usage.rs` `elapsed_seconds`), and every comparison in
//! integers (the quantity as its unscaled digits and scale). Each check
//! writes its own CTEs (`br*`, `bg*`); `findings.rs` puts its SELECT in the
//! `UNION ALL` through a row writer ([`Row`]).

use super::Dialect;
use super::rows::{at_scale_text, pow10, timestamp};
use crate::audit::Check;
use crate::model::Category;
use crate::vocab::units::{DAY, HOUR, MINUTE, NOT_TIME, SECOND};

/// Writes a finding's SELECT list: the check, the line, the figures
/// (`expected`, `actual`, `difference`; `""` for none), the message and
/// whether the row key is the row's (`findings.rs` `Ctx::row`).
pub(super) type Row<'a> = &'a dyn Fn(Check, &str, [&str; 3], &str, bool) -> String;

/// What a check writes: its CTEs and its SELECT.
pub(super) type Parts = (Vec<String>, String);

/// Whitespace `str::trim` drops around a unit and between a block count and
/// its word (ASCII and the ideographic space).
const WS: &str = "[ \t\r\n\u{b}\u{c}\u{3000}]*";

/// The hours of one unit of `unit` when they are 1 or 24 (the only units
/// `billing-granularity` counts), else NULL: `unit_hours` of
/// `vocab/units.rs` as a regular expression. The count before the word is
/// 1 (or none) for an hour or a day, 24 for an hour (`24 Hours`); then any
/// `gpu`, `card`, `instance`, separators, `卡`, the word and any `(s)`. A
/// unit naming storage, traffic or requests ([`NOT_TIME`]) is no time.
fn unit_hours_sql(d: Dialect, unit: &str) -> String {
    let u = format!("lower({unit})");
    let not_time = not_time_sql(d, &u);
    let [one, day_hours, day] = unit_res();
    format!(
        "CASE WHEN {unit} IS NULL OR {not_time} THEN NULL WHEN {} THEN 1 WHEN {} OR {} THEN 24 END",
        d.regex(&u, &one),
        d.regex(&u, &day_hours),
        d.regex(&u, &day),
    )
}

/// The regular expressions of [`unit_hours_sql`] (of the lowercased unit):
/// one hour; 24 hours; one day.
fn unit_res() -> [String; 3] {
    [
        unit_re("(?:0*1)?", HOUR),
        unit_re("0*24", HOUR),
        unit_re("(?:0*1)?", DAY),
    ]
}

/// The seconds of one unit of `unit` (`unit_hours` of `vocab/units.rs`
/// in whole seconds: a block count times 3600 for an hour, 86400 for a
/// day, 60 for a minute, 1 for a second), else NULL, for
/// `plan-costlier-than-on-demand` (`findings_plan.rs`), which counts every
/// time unit. The same words and prefixes as [`unit_hours_sql`]; the
/// count is captured (none is 1; more than 28 digits is no unit, as
/// `Decimal` cannot read it).
pub(super) fn unit_seconds_sql(d: Dialect, unit: &str) -> String {
    let u = format!("lower({unit})");
    let not_time = not_time_sql(d, &u);
    let mut cases = Vec::new();
    for (words, secs) in [(HOUR, 3600), (DAY, 86400), (MINUTE, 60), (SECOND, 1)] {
        let re = unit_re("([0-9]*)", words);
        let g = d.regex_group(&u, &re, 1);
        cases.push(format!(
            "WHEN {} THEN {secs} * CASE WHEN {g} = '' THEN 1 WHEN length({g}) <= 28 THEN CAST({g} AS {}) END",
            d.regex(&u, &re),
            d.int38()
        ));
    }
    format!(
        "CASE WHEN {unit} IS NULL OR {not_time} THEN NULL {} END",
        cases.join(" ")
    )
}

/// The lowercased unit `u` names storage, traffic or requests ([`NOT_TIME`]).
fn not_time_sql(d: Dialect, u: &str) -> String {
    NOT_TIME
        .iter()
        .map(|w| d.contains(u, w))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// A unit of `count` (a regular expression) and one of `words`, with the
/// prefixes and suffix `vocab/units.rs` `unit_hours` strips.
fn unit_re(count: &str, words: &[&str]) -> String {
    format!(
        "^{WS}{count}{WS}(?:gpu)*(?:card)*(?:instance)*[-_ *·]*卡*[*·]*(?:{})(?:[(]s[)])*{WS}$",
        words.join("|")
    )
}

/// The regular expression of [`unit_seconds_sql`] for `words`, its count
/// captured (for the tests that compare it with `unit_hours`).
#[cfg(test)]
pub(super) fn unit_re_for_tests(words: &[&str]) -> String {
    unit_re("([0-9]*)", words)
}

/// `unit` folded as `classify::fold` folds it before `billing-rounding`
/// asks for its hours: full-width ASCII as ASCII, the ideographic space
/// as a space, the minus and dashes as `-`.
fn folded(d: Dialect, unit: &str) -> String {
    let mut from: String = (0xff01..=0xff5e_u32).filter_map(char::from_u32).collect();
    let mut to: String = (0x21..=0x7e_u8).map(char::from).collect();
    from.push_str("\u{3000}\u{2212}\u{2012}\u{2013}");
    to.push_str(" ---");
    format!("translate({unit}, {}, {})", d.lit(&from), d.lit(&to))
}

/// Seconds since 1970 of a TIMESTAMP's date and time of day (its fields,
/// whatever the session's time zone).
fn epoch_seconds(d: Dialect, ts: &str) -> String {
    let f = |p: &str| format!("CAST(EXTRACT({p} FROM {ts}) AS {})", d.bigint_type());
    format!(
        "(CAST({} AS {b}) * 86400 + {} * 3600 + {} * 60 + {})",
        d.day_number(ts),
        f("HOUR"),
        f("MINUTE"),
        f("SECOND"),
        b = d.bigint_type()
    )
}

/// The nanoseconds of an ISO time's fraction (`.5` is 500000000; at most
/// 9 digits, as the audit reads them), else 0.
fn nanos(d: Dialect, t: &str) -> String {
    let frac = d.regex_group(t, super::rows::ISO, 9);
    format!(
        "CASE WHEN {t} IS NOT NULL AND length({frac}) > 1 THEN CAST(rpad(substr({frac}, 2, 9), 9, '0') AS {}) ELSE 0 END",
        d.bigint_type()
    )
}

/// `ts_s`, `ts_e` and `secs`: the whole seconds from start to end as
/// chrono's `num_seconds` counts them (a fraction short of a second is
/// none), NULL without both dates.
fn elapsed_cols(d: Dialect, day_first: bool) -> String {
    let s = timestamp(d, "start_text", day_first);
    let e = timestamp(d, "end_text", day_first);
    format!(
        "{} - {} - CASE WHEN {} < {} THEN 1 ELSE 0 END AS secs",
        epoch_seconds(d, &format!("({e})")),
        epoch_seconds(d, &format!("({s})")),
        nanos(d, "end_text"),
        nanos(d, "start_text"),
    )
}

/// `a` divided by `b`, rounded down, for `a >= 0` and `b > 0`, exactly:
/// each engine's quotient (within one of it) corrected by one step.
fn idiv(d: Dialect, a: &str, b: &str) -> String {
    let int = d.int38();
    let q0 = match d {
        Dialect::DuckDb => {
            format!("CAST(CAST({a} AS HUGEINT) // CAST({b} AS HUGEINT) AS {int})")
        }
        Dialect::BigQuery => format!("DIV({a}, {b})"),
        Dialect::Spark | Dialect::Athena => format!("CAST(floor(({a}) / ({b})) AS {int})"),
    };
    match d {
        Dialect::DuckDb | Dialect::BigQuery => q0,
        Dialect::Spark | Dialect::Athena => format!(
            "(({q0}) - CASE WHEN ({q0}) * ({b}) > ({a}) THEN 1 ELSE 0 END + CASE WHEN (({q0}) + 1) * ({b}) <= ({a}) THEN 1 ELSE 0 END)"
        ),
    }
}

/// `a / b` rounded half away from zero, `b > 0`.
fn div_round(d: Dialect, a: &str, b: &str) -> String {
    format!(
        "(CASE WHEN ({a}) < 0 THEN -1 ELSE 1 END * {})",
        idiv(d, &format!("2 * abs({a}) + ({b})"), &format!("2 * ({b})"))
    )
}

/// The quantity is whole: its digits end in its scale's zeros.
fn whole(d: Dialect) -> String {
    format!("mod(q_u, {}) = 0", pow10(d, "q_s"))
}

/// `billing-rounding` (`audit/billing_rounding.rs`): a line of a whole
/// The per-row values of `billing-rounding` (`br_per`: the hours of one
/// unit of the folded unit) and `billing-granularity` (`bg_per`: of the
/// unit, on compute rows), as columns of `nums`, where the engine computes
/// them once a row (`findings_shape.rs`).
pub(super) fn nums_columns(d: Dialect) -> Vec<String> {
    let compute = d.lit(Category::Compute.as_str());
    vec![
        format!("{} AS br_per", unit_hours_sql(d, &folded(d, "unit"))),
        format!(
            "CASE WHEN category = {compute} THEN {} END AS bg_per",
            unit_hours_sql(d, "unit")
        ),
    ]
}

/// quantity above zero in hours (`is_hours` of the folded unit) whose
/// start and end span more than zero seconds, billed more than half a unit
/// of the quantity's last place above the elapsed hours, the quantity being
/// the elapsed time rounded up to a whole hour or a whole day. Per line,
/// exact over the whole table (the native check has no window either).
pub(super) fn billing_rounding(d: Dialect, day_first: bool, row: Row) -> Parts {
    let p = |k: &str| pow10(d, k);
    let br1 = format!(
        "br1 AS (\n  SELECT *, br_per AS per\n  FROM nums\n  WHERE q_u > 0 AND {} AND unit IS NOT NULL AND start_text IS NOT NULL AND end_text IS NOT NULL\n)",
        whole(d)
    );
    let br2 = format!(
        "br2 AS (\n  SELECT *, {}\n  FROM br1 WHERE per = 1\n)",
        elapsed_cols(d, day_first)
    );
    // In seconds at the quantity's scale: q x 3600 - secs > half a unit of
    // q's last place x 3600; q = ceil(secs / 3600), or q = 24 x
    // ceil(secs / 86400).
    let br3 = format!(
        "br3 AS (\n  SELECT *,\n    (q_u - {one}) * 3600 < secs * {one} AND secs * {one} <= q_u * 3600 AS up_hour,\n    mod(q_u, 24 * {one}) = 0 AND (q_u - 24 * {one}) * 3600 < secs * {one} AND secs * {one} <= q_u * 3600 AS up_day\n  FROM br2\n  WHERE secs > 0 AND q_u * 36000 - secs * {ten} > 18000\n)",
        one = p("q_s"),
        ten = p("q_s + 1"),
    );
    // The figures: the hours elapsed and billed beyond them at 4 places
    // (secs / 3600 has no tie there: 3600 / 10^4 = 9 / 25), and the
    // overcharge amount x excess / q at the amount's scale.
    let br4 = format!(
        "br4 AS (\n  SELECT *,\n    {e4} AS e4,\n    {q} * 10000 - {e4} AS x4,\n    {over} AS over_u\n  FROM br3 WHERE up_hour OR up_day\n)",
        e4 = idiv(d, "secs * 50 + 9", "18"),
        q = idiv(d, "q_u", &p("q_s")),
        over = div_round(
            d,
            "a_u * (q_u * 3600 - secs * {one})"
                .replace("{one}", &p("q_s"))
                .as_str(),
            "q_u * 3600"
        ),
    );
    let s = d.string_type();
    let elapsed = at_scale_text(d, "e4", "4");
    let excess = at_scale_text(d, "x4", "4");
    let over = at_scale_text(d, "over_u", "a_s");
    let msg = format!(
        "concat(q_text, ' h billed for ', {elapsed}, ' h elapsed (', start_text, ' to ', end_text, '): rounded up to a whole ', CASE WHEN up_hour THEN 'hour' ELSE 'day' END, ', ', {excess}, ' h more, an overcharge of ', {over}, CASE WHEN currency IS NULL THEN '' ELSE concat(' ', CAST(currency AS {s})) END, ': ', description)"
    );
    let select = format!(
        "{}\nFROM br4",
        row(
            Check::BillingRounding,
            "line_no",
            [&elapsed, "q_text", &excess],
            &msg,
            true
        )
    );
    (vec![br1, br2, br3, br4], select)
}

/// `billing-granularity` (`audit/billing_granularity.rs`): per bill, the
/// compute lines of a quantity above zero in hours or days (1 or 24 hours
/// a unit) with start and end more than zero seconds apart are timed; one
/// with a fractional quantity silences the bill; a whole quantity more than
/// a minute and less than one unit above the elapsed time is rounded. One
/// finding per bill (line NULL) with rounded lines and no fractional one:
/// the amount billed (`actual`), what per-second billing would cost
/// (`expected`: amount x elapsed / quantity, each line at 6 places below
/// the bill's money scale, the sum rounded half away from zero to that
/// scale, at least 2 places, as the audit rounds its sum) and the
/// difference. Exact over the whole table, as natively (no window).
pub(super) fn billing_granularity(d: Dialect, day_first: bool, row: Row) -> Parts {
    let compute = d.lit(Category::Compute.as_str());
    let p = |k: &str| pow10(d, k);
    let bg1 = format!(
        "bg1 AS (\n  SELECT *, bg_per AS per\n  FROM nums\n  WHERE category = {compute} AND q_u > 0 AND unit IS NOT NULL AND start_text IS NOT NULL AND end_text IS NOT NULL\n)"
    );
    let bg2 = format!(
        "bg2 AS (\n  SELECT *, {}\n  FROM bg1 WHERE per IS NOT NULL\n)",
        elapsed_cols(d, day_first)
    );
    // short: the seconds billed above the elapsed ones, at q's scale.
    let bg3 = format!(
        "bg3 AS (\n  SELECT *, NOT ({whole}) AS frac,\n    {whole} AND q_u * per * 3600 - secs * {one} > 60 * {one} AND q_u * per * 3600 - secs * {one} < per * 3600 * {one} AS rounded\n  FROM bg2 WHERE secs > 0\n)",
        whole = whole(d),
        one = p("q_s"),
    );
    let bg4 = "bg4 AS (\n  SELECT *, max(CASE WHEN rounded THEN a_s END) OVER (PARTITION BY currency) AS ms\n  FROM bg3\n)".to_string();
    // Money scale k = max(ms, 2); each line's cost at k + 6 places.
    let k = "(greatest(ms, 2) + 6)";
    let cost = div_round(
        d,
        &format!("a_u * secs * {}", p(&format!("q_s + {k} - a_s"))),
        "q_u * per * 3600",
    );
    let bg5 = format!(
        "bg5 AS (\n  SELECT currency, count(*) AS timed, sum(CASE WHEN rounded THEN 1 ELSE 0 END) AS n, max(CASE WHEN rounded AND per = 1 THEN 1 ELSE 0 END) AS hours, max(CASE WHEN rounded AND per = 24 THEN 1 ELSE 0 END) AS days,\n    sum(CASE WHEN rounded THEN a_u * {} END) AS billed_u, sum(CASE WHEN rounded THEN {cost} END) AS cost_k, max(ms) AS ms\n  FROM bg4\n  GROUP BY currency\n  HAVING sum(CASE WHEN frac THEN 1 ELSE 0 END) = 0 AND sum(CASE WHEN rounded THEN 1 ELSE 0 END) > 0\n)",
        p("ms - a_s")
    );
    let bg6 = format!(
        "bg6 AS (\n  SELECT *, {} AS cost_u, billed_u * {} AS billed_k\n  FROM bg5\n)",
        div_round(d, "cost_k", "1000000"),
        p("6 + greatest(ms, 2) - ms"),
    );
    let bg7 = format!(
        "bg7 AS (\n  SELECT *, {} AS diff_u, CASE WHEN hours = 1 AND days = 1 THEN 'hour or day' WHEN days = 1 THEN 'day' ELSE 'hour' END AS granule\n  FROM bg6\n)",
        div_round(d, "billed_k - cost_k", "1000000"),
    );
    let s = d.string_type();
    let billed = at_scale_text(d, "billed_u", "ms");
    let cost = at_scale_text(d, "cost_u", "greatest(ms, 2)");
    let diff = at_scale_text(d, "diff_u", "greatest(ms, 2)");
    let cur =
        format!("CASE WHEN currency IS NULL THEN '' ELSE concat(' ', CAST(currency AS {s})) END");
    let msg = format!(
        "concat('the bill rounds compute up to the whole ', granule, ': ', CAST(n AS {s}), ' of ', CAST(timed AS {s}), ' timed compute lines bill more whole ', granule, 's than their start and end times span, and none has a fractional quantity; those lines were billed ', {billed}, {cur}, ', per-second billing would have cost about ', {cost}, {cur}, ' (', {diff}, {cur}, ' more than per-second billing)')"
    );
    let select = format!(
        "{}\nFROM bg7",
        row(
            Check::BillingGranularity,
            "NULL",
            [&cost, &billed, &diff],
            &msg,
            false
        )
    );
    (vec![bg1, bg2, bg3, bg4, bg5, bg6, bg7], select)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::units::unit_hours;
    use rust_decimal::Decimal;

    /// The hours [`unit_hours_sql`] gives, evaluated with the `regex` crate
    /// (RE2 syntax, as DuckDB and BigQuery; the patterns use nothing Java
    /// or Joni read otherwise).
    fn sql_hours(unit: &str) -> Option<u32> {
        let u = unit.to_lowercase();
        if NOT_TIME.iter().any(|w| u.contains(w)) {
            return None;
        }
        let [one, day_hours, day] = unit_res().map(|r| regex::Regex::new(&r).unwrap());
        if one.is_match(&u) {
            Some(1)
        } else if day_hours.is_match(&u) || day.is_match(&u) {
            Some(24)
        } else {
            None
        }
    }

    #[test]
    fn hour_units_read_as_the_native_unit_hours() {
        // The native answer, kept where it is 1 or 24 (the only ones the
        // two checks count), is the oracle.
        let native = |u: &str| match unit_hours(u) {
            Some(h) if h == Decimal::ONE => Some(1),
            Some(h) if h == Decimal::from(24) => Some(24),
            _ => None,
        };
        let units = [
            "h",
            "H",
            " Hours ",
            "hrs",
            "Hrs",
            "hour(s)",
            "hours(s)(s)",
            "GPU-hour",
            "gpu hours",
            "GPU_Hour",
            "gpugpu-h",
            "card-hour",
            "Instance-Hours",
            "instance hour",
            "1 Hour",
            "01 hour",
            "001h",
            "10 Hours",
            "100 Hours",
            "0 hours",
            "24 Hours",
            "024 hrs",
            "24h",
            "2 days",
            "1 day",
            "Days",
            "d",
            "天",
            "日",
            "1天",
            "小时",
            "时",
            "卡时",
            "核时",
            "卡卡时",
            "卡 时",
            "GPU·小时",
            "gpu*小时",
            "卡*小时",
            "GB*小时",
            "GB-hours",
            "TB-Hours",
            "Requests",
            "次",
            "minutes",
            "min",
            "s",
            "seconds",
            "month",
            "GB-Month",
            "hs",
            "ch",
            "hourly",
            "per hour",
            "h/s",
            "1 gpu-hour(s)",
            "24 gpu hours",
            "24 days",
            "1\t hours",
            "hours\u{3000}",
            "\u{3000}1\u{3000}hour",
            "",
            " ",
            "1",
            "24",
        ];
        for u in units {
            assert_eq!(sql_hours(u), native(u), "{u:?}");
        }
    }

    #[test]
    fn the_folded_alphabets_pair_up() {
        let from: Vec<char> = (0xff01..=0xff5e_u32).filter_map(char::from_u32).collect();
        assert_eq!(from.len(), 94);
        for c in from {
            let f = crate::classify::fold(&c.to_string());
            assert!(f.is_ascii() && f.len() == 1, "{c}");
        }
        let sql = folded(Dialect::DuckDb, "unit");
        assert!(sql.contains("'！") && sql.contains("'!"), "{sql}");
    }
}
