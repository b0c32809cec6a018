//! `plan-costlier-than-on-demand` in `sql --findings`, with the decisions
//! of `audit/plan_cost.rs`: per bill (currency) and GPU model (the tokens
//! of `audit/usage.rs` `GPU_MODELS` as one regular expression each, most
//! specific first), the compute lines that are plans (a plan unit or a
//! plan word, [`crate::vocab::commitment`]) against the other lines of
//! that model with a quantity in a time unit (`findings_usage.rs`
//! [`unit_seconds_sql`]). The on-demand price per hour is the first
//! `[[price]]` entry per hour (its unit an hour, or none) of the bill's
//! currency whose pattern is in the first plan line's folded description;
//! without a price book, the built-in entry of the model in the bill's
//! currency (`SqlOptions::on_demand`, the entries of
//! `pipeline::configured::builtin_on_demand`). Every figure is an integer:
//! the hours as seconds at the quantities' largest scale.

use rust_decimal::Decimal;

use super::findings_usage::unit_seconds_sql;
use super::price::{fold, half_even, normalized, price_list};
use super::{Branch, Ctx};
use crate::audit::Check;
use crate::audit::rate_above_reference::PriceBook;
use crate::audit::usage::GPU_MODELS;
use crate::model::Category;
use crate::sql::rows::{at_scale_text, pow10};
use crate::sql::{Dialect, SqlError};
use crate::vocab::commitment::{PLAN_UNITS, PLAN_WORDS};
use crate::vocab::units::unit_hours;

/// Whitespace `str::trim` drops (as `findings_usage.rs`).
const WS: &str = "[ \t\r\n\u{b}\u{c}\u{3000}]*";

/// The regular expression of a GPU model token in the lowercased text
/// (`usage::gpu_model`): `t4` (2 characters) must not follow a letter or
/// digit; a token of at most 3 characters must not run on into one, a
/// longer one not into a digit. The tokens repeat no prefix as a suffix,
/// so the first occurrence that stands is found by either search.
fn token_re(token: &str) -> String {
    let before = if token.len() > 2 {
        ""
    } else {
        "(?:^|[^a-z0-9])"
    };
    let after = if token.len() <= 3 {
        "(?:[^a-z0-9]|$)"
    } else {
        "(?:[^0-9]|$)"
    };
    format!("{before}{}{after}", regex_escape(token))
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || !c.is_ascii() {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

/// The model's canonical name, NULL for none.
fn model_sql(d: Dialect, text: &str) -> String {
    let whens: Vec<String> = GPU_MODELS
        .iter()
        .map(|(token, name)| {
            format!(
                "WHEN {} THEN {}",
                d.regex(text, &token_re(token)),
                d.lit(name)
            )
        })
        .collect();
    format!("CASE {} END", whens.join(" "))
}

/// The folded name of the model `model` (a canonical name): the built-in
/// book's pattern.
fn model_key_sql(d: Dialect, model: &str) -> String {
    let whens: Vec<String> = GPU_MODELS
        .iter()
        .map(|(_, name)| {
            format!(
                "WHEN {} THEN {}",
                d.lit(name),
                d.lit(&crate::classify::fold(name))
            )
        })
        .collect();
    format!("CASE {model} {} END", whens.join(" "))
}

/// Whether a row is a plan (`plan_cost::is_plan`): its trimmed, lowercased
/// unit a plan unit, or a plan word in its folded description.
fn is_plan_sql(d: Dialect) -> String {
    let units: Vec<String> = PLAN_UNITS.iter().map(|u| regex_escape(u)).collect();
    let re = format!("^{WS}(?:{}){WS}$", units.join("|"));
    let text = fold(d, "coalesce(description, '')");
    let words: Vec<String> = PLAN_WORDS.iter().map(|w| d.contains(&text, w)).collect();
    format!(
        "(coalesce({}, FALSE) OR {})",
        d.regex("lower(unit)", &re),
        words.join(" OR ")
    )
}

/// The entries the check may use: the price book's entries per hour
/// (`plan_cost::on_demand`), or without a book the built-in ones.
fn candidates(c: &Ctx<'_>) -> (PriceBook, bool) {
    let book = &c.opts.price_book;
    if book.entries.is_empty() {
        return (c.opts.on_demand.clone(), false);
    }
    let entries = book
        .entries
        .iter()
        .filter(|e| {
            e.unit
                .as_deref()
                .is_none_or(|u| unit_hours(u) == Some(Decimal::ONE))
        })
        .cloned()
        .collect();
    (PriceBook { entries }, true)
}

/// The per-row values of the branch, on compute rows, as columns of
/// `nums` (computed once a row, `findings_shape.rs`): the GPU model
/// (`pc_model`), the plan flag (`pc_is_plan`) and the seconds of one unit
/// (`pc_unit_secs`).
pub(super) fn nums_columns(d: Dialect) -> Vec<String> {
    let text = "lower(coalesce(description, ''))";
    let compute = d.lit(Category::Compute.as_str());
    [
        (model_sql(d, text), "pc_model"),
        (is_plan_sql(d), "pc_is_plan"),
        (unit_seconds_sql(d, "unit"), "pc_unit_secs"),
    ]
    .into_iter()
    .map(|(e, n)| format!("CASE WHEN category = {compute} THEN {e} END AS {n}"))
    .collect()
}

/// The branch: `pc1` the rows with their model, plan flag and seconds per
/// unit; `pc2` with each model's scales; `pc3` per model the plan, what
/// was paid, the seconds used; `pc4` with its entry; `pc5` the figures and
/// whether the plan cost more than half a unit of its last place more.
pub(super) fn plan_costlier(c: &Ctx<'_>) -> Branch {
    let d = c.d;
    let p = |k: &str| pow10(d, k);
    let (book, declared) = candidates(c);
    // `check` has refused a book this list cannot write.
    let list = price_list(d, "plan_prices", &book).unwrap_or_default();
    let compute = d.lit(Category::Compute.as_str());
    let pc1 = format!(
        "pc1 AS (\n  SELECT *, {} AS model_key FROM (SELECT *, pc_model AS model, pc_is_plan AS is_plan, pc_unit_secs AS unit_secs FROM nums WHERE category = {compute}) AS x\n  WHERE model IS NOT NULL AND (is_plan OR (q_u IS NOT NULL AND unit_secs IS NOT NULL))\n)",
        model_key_sql(d, "model"),
    );
    let w = "OVER (PARTITION BY currency, model)";
    let pc2 = format!(
        "pc2 AS (\n  SELECT *,\n    max(CASE WHEN is_plan THEN a_s END) {w} AS plan_s,\n    max(CASE WHEN NOT is_plan THEN a_s END) {w} AS use_s,\n    max(a_s) {w} AS ms,\n    max(CASE WHEN NOT is_plan THEN q_s END) {w} AS qs,\n    min(CASE WHEN is_plan THEN line_no END) {w} AS first_line\n  FROM pc1\n)"
    );
    let pc3 = format!(
        "pc3 AS (\n  SELECT currency, model, model_key, min(first_line) AS first_line, max(CASE WHEN line_no = first_line THEN description END) AS first_desc, max(plan_s) AS plan_s, max(use_s) AS use_s, max(ms) AS ms, max(qs) AS qs,\n    sum(CASE WHEN is_plan THEN a_u * {} ELSE 0 END) AS plan_u,\n    sum(CASE WHEN is_plan THEN 0 ELSE a_u * {} END) AS use_u,\n    sum(a_u * {}) AS paid_u,\n    sum(CASE WHEN is_plan THEN 0 ELSE q_u * unit_secs * {} END) AS hn,\n    sum(CASE WHEN is_plan THEN 0 ELSE 1 END) AS use_n\n  FROM pc2\n  GROUP BY currency, model, model_key\n  HAVING sum(CASE WHEN is_plan THEN 1 ELSE 0 END) > 0 AND sum(CASE WHEN is_plan THEN 0 ELSE 1 END) > 0\n)",
        p("plan_s - a_s"),
        p("coalesce(use_s, 0) - a_s"),
        p("ms - a_s"),
        p("qs - q_s"),
    );
    let matches = if declared {
        format!(
            "(b.currency IS NULL OR m.currency IS NULL OR upper(b.currency) = upper(m.currency)) AND {} > 0",
            d.position(&fold(d, "m.first_desc"), "b.pattern")
        )
    } else {
        "m.currency IS NOT NULL AND upper(b.currency) = upper(m.currency) AND b.pattern = m.model_key"
            .to_string()
    };
    let pc4 = format!(
        "pc4 AS (\n  SELECT * FROM (SELECT m.*, b.pi, b.pattern, b.max_u, b.max_s, b.max_text, b.source, b.currency AS book_currency, row_number() OVER (PARTITION BY m.currency, m.model ORDER BY b.pi) AS nth\n    FROM pc3 AS m CROSS JOIN plan_prices AS b WHERE plan_u > 0 AND {matches}) AS x\n  WHERE nth = 1\n)"
    );
    // ps: the plan's places (at least 2); cost_p: hn / 3600 / 10^qs hours
    // x max, rounded half to even to ps places (`round_dp`); k: a scale
    // above both paid's and ps; more_k: paid - cost at k + 1 places.
    let ps = "greatest(plan_s, 2)";
    let cost_p = half_even(
        d,
        &format!("hn * max_u * {}", p(ps)),
        &format!("3600 * {}", p("qs + max_s")),
    );
    let pc5 = format!(
        "pc5 AS (\n  SELECT *, {ps} AS ps, greatest({ps}, ms) AS k, {cost_p} AS cost_p\n  FROM pc4\n)"
    );
    let pc6 = format!(
        "pc6 AS (\n  SELECT *, paid_u * {} - cost_p * {} AS more_k\n  FROM pc5\n)",
        p("k + 1 - ms"),
        p("k + 1 - ps")
    );
    let pc7 = format!(
        "pc7 AS (\n  SELECT *, {} AS more_p, CASE WHEN hn > 0 THEN {} END AS rate_p, {} AS hours_text\n  FROM pc6\n  WHERE more_k > 5 * {}\n)",
        half_even(d, "more_k", &p("k + 1 - ps")),
        half_even(
            d,
            &format!("paid_u * 3600 * {}", p("qs + ps")),
            &format!("hn * {}", p("ms"))
        ),
        hours_text(d),
        p("k - plan_s"),
    );
    let cur = "coalesce(currency, book_currency)";
    let money = |x: &str| {
        format!("concat({x}, CASE WHEN {cur} IS NULL THEN '' ELSE concat(' ', {cur}) END)")
    };
    let cost = at_scale_text(d, "cost_p", "ps");
    let more = at_scale_text(d, "more_p", "ps");
    let paid = at_scale_text(d, "paid_u", "ms");
    let msg = format!(
        "concat(model, ': the plan cost ', {}, CASE WHEN use_u = 0 THEN '' ELSE concat(' (+ ', {}, ' billed for usage)') END, ' for ', hours_text, ' hours used', CASE WHEN rate_p IS NULL THEN '' ELSE concat(' = ', {}, '/hour') END, '; on demand at ', {}, '/hour (price book `', pattern, '`', CASE WHEN source IS NULL THEN '' ELSE concat(', ', source) END, ') those hours cost ', {}, ': the plan cost ', {}, ' more')",
        money(&at_scale_text(d, "plan_u", "plan_s")),
        money(&at_scale_text(d, "use_u", "use_s")),
        money(&at_scale_text(d, "rate_p", "ps")),
        money("max_text"),
        money(&cost),
        money(&more),
    );
    Branch {
        ctes: vec![list, pc1, pc2, pc3, pc4, pc5, pc6, pc7],
        select: format!(
            "{}\nFROM pc7",
            c.row(
                Check::PlanCostlierThanOnDemand,
                "first_line",
                [&cost, &paid, &more],
                &msg,
                false
            )
        ),
    }
}

/// Refuses, before the query is written, a price list [`plan_costlier`]
/// could not write (a `max` too large for its exact columns).
pub(super) fn check(opts: &crate::sql::SqlOptions) -> Result<(), SqlError> {
    let book = if opts.price_book.entries.is_empty() {
        &opts.on_demand
    } else {
        &opts.price_book
    };
    price_list(opts.dialect, "plan_prices", book).map(|_| ())
}

/// The hours used (`Decimal::normalize` of hn / 3600 at qs places): exact
/// for hours and days; minutes and seconds to 6 places more.
fn hours_text(d: Dialect) -> String {
    let exact = normalized(
        d,
        &at_scale_text(d, &super::commitment::int_div(d, "hn", "3600"), "qs"),
    );
    let fine = normalized(
        d,
        &at_scale_text(
            d,
            &half_even(d, &format!("hn * {}", pow10(d, "6")), "3600"),
            "qs + 6",
        ),
    );
    format!("CASE WHEN mod(hn, 3600) = 0 THEN {exact} ELSE {fine} END")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::rate_above_reference::PriceEntry;
    use crate::audit::usage::gpu_model;

    /// The model [`model_sql`] gives, its regular expressions evaluated
    /// with the `regex` crate (RE2 syntax, as DuckDB and BigQuery).
    fn sql_model(text: &str) -> Option<&'static str> {
        let t = text.to_lowercase();
        GPU_MODELS
            .iter()
            .find(|(token, _)| regex::Regex::new(&token_re(token)).unwrap().is_match(&t))
            .map(|(_, name)| *name)
    }

    #[test]
    fn gpu_model_tokens_read_as_the_native_gpu_model() {
        // The native answer is the oracle.
        for t in [
            "RTX 4090 包月",
            "RTX-4090D",
            "rtx 4090d 包月",
            "40900",
            "GeForce RTX 3090",
            "A100 80GB GPU pod",
            "A100_80G",
            "a1000",
            "NVIDIA A10",
            "g5.xlarge (A10G)",
            "a10g2",
            "H200 SXM",
            "h2000",
            "h20 ",
            "H20-96G",
            "L40S",
            "l40s2",
            "L40 inference",
            "L20",
            "Tesla T4",
            "t4g.medium",
            "gpt4",
            "st4",
            "t4",
            "x-t4-",
            "RTX A6000",
            "a6000x",
            "H100 then A100",
            "V100-32G",
            "ＲＴＸ 4090",
            "Network volume 500 GB",
            "",
        ] {
            assert_eq!(sql_model(t), gpu_model(t), "{t:?}");
        }
    }

    /// The seconds [`unit_seconds_sql`] gives, with the `regex` crate.
    fn sql_secs(unit: &str) -> Option<Decimal> {
        let u = unit.to_lowercase();
        if crate::vocab::units::NOT_TIME.iter().any(|w| u.contains(w)) {
            return None;
        }
        use crate::vocab::units::{DAY, HOUR, MINUTE, SECOND};
        for (words, secs) in [(HOUR, 3600), (DAY, 86400), (MINUTE, 60), (SECOND, 1)] {
            let re =
                regex::Regex::new(&super::super::findings_usage::unit_re_for_tests(words)).unwrap();
            if let Some(c) = re.captures(&u) {
                let g = c.get(1).map_or("", |m| m.as_str());
                let block = if g.is_empty() {
                    Decimal::ONE
                } else {
                    g.parse().ok()?
                };
                return Some(block * Decimal::from(secs));
            }
        }
        None
    }

    #[test]
    fn time_units_in_seconds_read_as_the_native_unit_hours() {
        for u in [
            "h",
            "Hours",
            " hrs ",
            "GPU-Hours",
            "gpu hours",
            "卡时",
            "GPU·小时",
            "100 Hours",
            "24 Hours",
            "3 days",
            "Days",
            "天",
            "Minutes",
            "min",
            "分钟",
            "s",
            "Seconds",
            "秒",
            "0 hours",
            "GB-Hours",
            "GB*小时",
            "Requests",
            "Month",
            "月",
            "hourly",
            "hs",
            "hours (s)",
            "",
            "1",
        ] {
            // unit_hours x 3600 (1/60 and 1/3600 of an hour are inexact
            // decimals: rounded to whole seconds).
            let native = unit_hours(u).map(|h| (h * Decimal::from(3600)).round());
            assert_eq!(sql_secs(u), native, "{u:?}");
        }
    }

    #[test]
    fn plan_units_are_whole_units() {
        let units: Vec<String> = PLAN_UNITS.iter().map(|u| regex_escape(u)).collect();
        let re = regex::Regex::new(&format!("^{WS}(?:{}){WS}$", units.join("|"))).unwrap();
        for (u, plan) in [
            ("Month", true),
            (" months ", true),
            ("月", true),
            ("个月", true),
            ("week", true),
            ("年", true),
            ("Monthly", false),
            ("GB-Month", false),
            ("Hours", false),
        ] {
            assert_eq!(re.is_match(&u.to_lowercase()), plan, "{u}");
            let native = PLAN_UNITS.contains(&u.trim().to_lowercase().as_str());
            assert_eq!(native, plan, "{u}");
        }
    }

    #[test]
    fn every_dialect_writes_the_branch_with_the_book_or_the_built_in_prices() {
        let entry = |pattern: &str, unit: Option<&str>, max: i64| PriceEntry {
            pattern: pattern.into(),
            unit: unit.map(String::from),
            currency: Some("CNY".into()),
            max: Decimal::new(max, 2),
            source: None,
        };
        for d in [
            Dialect::DuckDb,
            Dialect::Spark,
            Dialect::Athena,
            Dialect::BigQuery,
        ] {
            let mut o = crate::sql::SqlOptions::new(d, "focus");
            // The columns the check reads (the other engines need a header).
            o.header = Some(
                [
                    "BilledCost",
                    "BillingCurrency",
                    "ChargeDescription",
                    "PricingQuantity",
                    "PricingUnit",
                    "ServiceCategory",
                ]
                .map(String::from)
                .to_vec(),
            );
            o.on_demand
                .entries
                .push(entry("rtx 4090", Some("hour"), 200));
            let sql = crate::sql::generate_findings(&o)
                .map_err(|e| e.to_string())
                .unwrap()
                .sql;
            assert!(sql.contains(&d.lit("plan-costlier-than-on-demand")), "{d}");
            assert!(!sql.contains("-- not in this query"), "{d}");
            // The built-in entry, matched by the model's folded name.
            let defined = |sql: &str, n: &str| crate::sql::findings::shape::definition(sql, n);
            assert!(
                defined(&sql, "plan_prices").is_some() && sql.contains("'200'"),
                "{d}"
            );
            assert!(sql.contains("b.pattern = m.model_key"), "{d}");
            // A book: only its entries per hour (not the day's 40.00).
            o.price_book.entries = vec![
                entry("rtx 4090", Some("day"), 4000),
                entry("rtx 4090", Some("hours"), 180),
            ];
            let sql = crate::sql::generate_findings(&o)
                .map_err(|e| e.to_string())
                .unwrap()
                .sql;
            let list = &sql[defined(&sql, "plan_prices").unwrap()..];
            // (A CTE ends with `)`, a statement of the Spark script with `;`.)
            let list = &list[..list.find("\n)").or(list.find(";\n")).unwrap()];
            assert!(list.contains("'180'") && !list.contains("'4000'"), "{list}");
            assert!(!sql.contains("b.pattern = m.model_key"), "{d}");
            // No entry per hour: no row, and the query is still written.
            o.price_book.entries.truncate(1);
            let sql = crate::sql::generate_findings(&o)
                .map_err(|e| e.to_string())
                .unwrap()
                .sql;
            assert!(sql.contains("WHERE 1 = 0"), "{d}");
            // Turned off: no branch.
            o.severities.insert(Check::PlanCostlierThanOnDemand, None);
            let sql = crate::sql::generate_findings(&o)
                .map_err(|e| e.to_string())
                .unwrap()
                .sql;
            assert!(!sql.contains("pc1 AS ("), "{d}");
        }
    }
}
