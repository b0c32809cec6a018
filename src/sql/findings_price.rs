//! The price book (`[[price]]` of billaudit.toml) in the findings query:
//! a literal list `prices` (a `VALUES` list; BigQuery, which has none, an
//! `UNNEST` of structs) of each entry's folded pattern, unit, currency and
//! `max` as exact decimal text, and the `rate-above-reference` branch over
//! it, as `audit/rate_above_reference.rs` decides: the first entry whose
//! currency is the row's (when both have one), whose unit is in the row's
//! unit and whose pattern is in the row's description (both folded as
//! `classify::fold`), and a unit price (the stated one, else amount /
//! quantity rounded half to even to 6 places) above its `max`, on a row
//! of amount above zero.

use rust_decimal::Decimal;

use super::super::columns::fold_maps;
use super::super::rows::{at_scale_text, pow10};
use super::commitment::int_div;
use super::{Branch, Ctx};
use crate::audit::Check;
use crate::audit::rate_above_reference::PriceBook;
use crate::sql::{Dialect, SqlError};

/// Places of a unit price computed as amount / quantity
/// (`rate_above_reference::unit_price`).
const PLACES: u32 = 6;

/// The `prices` CTE: `pi` (the entry's position: the first match wins),
/// `pattern`, `unit`, `currency` (NULL when the entry has none), `max_u`
/// and `max_s` (the unscaled digits and scale of `max`), `max_text`,
/// `v6` (the least multiple of 10^-6 above `max`, times 10^6: a price
/// rounded to 6 places is above `max` when it is at least that), `source`.
pub(super) fn prices(d: Dialect, book: &PriceBook) -> Result<String, SqlError> {
    price_list(d, "prices", book)
}

/// A CTE `name` with the columns of [`prices`], one row per entry of
/// `book` (no row when it has none).
pub(super) fn price_list(d: Dialect, name: &str, book: &PriceBook) -> Result<String, SqlError> {
    let s = d.string_type();
    let text = |v: Option<&str>| match v {
        Some(v) => format!("CAST({} AS {s})", d.lit(v)),
        None => format!("CAST(NULL AS {s})"),
    };
    let int = |v: String| format!("CAST({} AS {})", d.lit(&v), d.int38());
    let mut rows: Vec<[String; 9]> = Vec::new();
    for (i, e) in book.entries.iter().enumerate() {
        let v6 = e
            .max
            .checked_mul(Decimal::from(10u32.pow(PLACES)))
            .map(|m| m.floor() + Decimal::ONE)
            .ok_or_else(|| SqlError::Inexpressible {
                rule: format!("[[price]] `{}`", e.pattern),
                dialect: d,
                reason: "its `max` is too large to compare at 6 places".into(),
            })?;
        rows.push([
            i.to_string(),
            text(Some(&e.pattern)),
            text(e.unit.as_deref()),
            text(e.currency.as_deref()),
            int(e.max.mantissa().to_string()),
            e.max.scale().to_string(),
            text(Some(&e.max.to_string())),
            int(v6.normalize().to_string()),
            text(e.source.as_deref()),
        ]);
    }
    let names = [
        "pi", "pattern", "unit", "currency", "max_u", "max_s", "max_text", "v6", "source",
    ];
    let list = match d {
        // No entry: the columns, typed, and no row.
        _ if rows.is_empty() => {
            let c = |n: &str, t: String| format!("CAST(NULL AS {t}) AS {n}");
            let cols = [
                c("pi", d.bigint_type().into()),
                c("pattern", s.into()),
                c("unit", s.into()),
                c("currency", s.into()),
                c("max_u", d.int38()),
                c("max_s", d.bigint_type().into()),
                c("max_text", s.into()),
                c("v6", d.int38()),
                c("source", s.into()),
            ];
            format!(
                "SELECT {} FROM (SELECT 1 AS x) AS none WHERE 1 = 0",
                cols.join(", ")
            )
        }
        Dialect::BigQuery => {
            let structs: Vec<String> = rows
                .iter()
                .map(|r| {
                    let f: Vec<String> = r
                        .iter()
                        .zip(names)
                        .map(|(v, n)| format!("{v} AS {n}"))
                        .collect();
                    format!("STRUCT({})", f.join(", "))
                })
                .collect();
            format!("SELECT * FROM UNNEST([{}])", structs.join(", "))
        }
        _ => {
            let values: Vec<String> = rows.iter().map(|r| format!("({})", r.join(", "))).collect();
            let alias = format!("AS book({})", names.join(", "));
            // Spark's inline table takes no parentheses around VALUES.
            match d {
                Dialect::Spark => format!("SELECT * FROM VALUES {} {alias}", values.join(", ")),
                _ => format!("SELECT * FROM (VALUES {}) {alias}", values.join(", ")),
            }
        }
    };
    Ok(format!("{name} AS (\n  {list}\n)"))
}

/// `text` folded as `classify::fold`: full-width forms to ASCII, lowercase.
pub(super) fn fold(d: Dialect, text: &str) -> String {
    let (from, to) = fold_maps();
    format!("lower(translate({text}, {}, {}))", d.lit(&from), d.lit(&to))
}

/// `x` (an integer >= 0) / 10^`k` rounded half to even to an integer
/// (`Decimal::round_dp`).
pub(super) fn half_even(d: Dialect, n: &str, den: &str) -> String {
    let f = int_div(d, n, den);
    format!(
        "({f} + CASE WHEN 2 * (({n}) - {f} * ({den})) > ({den}) OR (2 * (({n}) - {f} * ({den})) = ({den}) AND mod({f}, 2) = 1) THEN 1 ELSE 0 END)"
    )
}

/// Trailing zeros of the decimals dropped (`Decimal::normalize`).
pub(super) fn normalized(d: Dialect, t: &str) -> String {
    let strip = |x: &str, c: &str| match d {
        Dialect::BigQuery => format!("RTRIM({x}, '{c}')"),
        _ => format!("trim(TRAILING '{c}' FROM {x})"),
    };
    format!(
        "CASE WHEN {} THEN {} ELSE {t} END",
        d.contains(t, "."),
        strip(&strip(t, "0"), ".")
    )
}

/// `rate-above-reference`: `rr1` the rows a price could apply to, `rr2`
/// each with its first matching entry, `rr3` the unit price at a common
/// scale and whether it is above the entry's `max`.
pub(super) fn rate_above_reference(c: &Ctx<'_>) -> Branch {
    let d = c.d;
    let p = |k: &str| pow10(d, k);
    let rr1 = "rr1 AS (\n  SELECT *, row_number() OVER (ORDER BY line_no) AS rid FROM nums\n)"
        .to_string();
    let desc = fold(d, "r.description");
    let unit = fold(d, "r.unit");
    let matches = format!(
        "(b.currency IS NULL OR r.currency IS NULL OR upper(b.currency) = upper(r.currency)) AND (b.unit IS NULL OR (r.unit IS NOT NULL AND {} > 0)) AND {} > 0",
        d.position(&unit, "b.unit"),
        d.position(&desc, "b.pattern")
    );
    let rr2 = format!(
        "rr2 AS (\n  SELECT * FROM (SELECT r.*, b.pi, b.pattern, b.max_u, b.max_s, b.max_text, b.v6, b.source, b.currency AS book_currency, row_number() OVER (PARTITION BY r.rid ORDER BY b.pi) AS nth\n    FROM rr1 AS r CROSS JOIN prices AS b WHERE {matches}) AS m\n  WHERE nth = 1\n)"
    );
    // The stated unit price against max at their common scale; else
    // amount / quantity x 10^6 (n / dq) rounded half to even against v6:
    // above when n / dq > v6 - 1/2, or equal to it and v6 even.
    let n = format!("a_u * {}", p(&format!("q_s + {PLACES}")));
    let dq = format!("q_u * {}", p("a_s"));
    let ks = "greatest(p_s, max_s)";
    let stated_above = format!(
        "p_u * {} > max_u * {}",
        p(&format!("{ks} - p_s")),
        p(&format!("{ks} - max_s"))
    );
    let derived_above = format!(
        "(2 * {n} > (2 * v6 - 1) * {dq} OR (2 * {n} = (2 * v6 - 1) * {dq} AND mod(v6, 2) = 0))"
    );
    let rr3 = format!(
        "rr3 AS (\n  SELECT *, CASE WHEN p_u IS NULL AND q_u > 0 THEN {} END AS r6\n  FROM rr2\n  WHERE a_u > 0 AND CASE WHEN p_u IS NOT NULL THEN {stated_above} WHEN q_u > 0 THEN {derived_above} ELSE FALSE END\n)",
        half_even(d, &n, &dq)
    );
    // The unit price as text, and what it is above max by, at scale `os`.
    let rr4 = format!(
        "rr4 AS (\n  SELECT *,\n    CASE WHEN p_u IS NULL THEN {} ELSE p_text END AS price_text,\n    CASE WHEN p_u IS NULL THEN greatest({PLACES}, max_s) ELSE {ks} END AS os,\n    CASE WHEN p_u IS NULL THEN r6 * {} - max_u * {} ELSE p_u * {} - max_u * {} END AS over_u\n  FROM rr3\n)",
        normalized(d, &at_scale_text(d, "r6", &PLACES.to_string())),
        p(&format!("greatest({PLACES}, max_s) - {PLACES}")),
        p(&format!("greatest({PLACES}, max_s) - max_s")),
        p(&format!("{ks} - p_s")),
        p(&format!("{ks} - max_s")),
    );
    let over = at_scale_text(d, "over_u", "os");
    let cur = "coalesce(currency, book_currency)";
    let money = |x: &str| {
        format!("concat({x}, CASE WHEN {cur} IS NULL THEN '' ELSE concat(' ', {cur}) END)")
    };
    let msg = format!(
        "concat('unit price ', {}, {}, {}, ' for `', pattern, '`', CASE WHEN source IS NULL THEN '' ELSE concat(' (', source, ')') END, ': ', {}, ' over per unit: ', description)",
        money("price_text"),
        d.lit(" is above the price book's "),
        money("max_text"),
        money(&over),
    );
    Branch {
        ctes: vec![rr1, rr2, rr3, rr4],
        select: format!(
            "{}\nFROM rr4",
            c.row(
                Check::RateAboveReference,
                "line_no",
                ["max_text", "price_text", &over],
                &msg,
                true
            )
        ),
    }
}
