//! `billaudit sql --findings`: the per-line checks as one query whose
//! result is one row per finding, with the same decisions as the native
//! checks in `src/audit/`.
//!
//! The query is the totals query's `lines` and `items` (the same columns,
//! classification and amounts; `super::query::prelude`), a `nums` CTE
//! with each row's figures read exactly, and one `UNION ALL` branch per
//! check of `BRANCHES`: a check more is a row more there. Every branch
//! selects the same columns ([`COLUMNS`]). A check that billaudit.toml
//! turns off has no branch; one the query cannot decide as the audit
//! does is refused with an error, never written differently.

use super::findings_usage::{self, Parts, Row};
use super::rows::{at_scale_text, block, pow10, timestamp, unscaled};
use super::{Dialect, Generated, Grain, SqlError, SqlOptions};
use crate::audit::Check;
use crate::audit::ingress_charged::{INBOUND, OUTBOUND};
use crate::model::{Category, Severity};

#[path = "findings_commitment.rs"]
pub(super) mod commitment;
#[path = "findings_plan.rs"]
mod plan;
#[path = "findings_price.rs"]
mod price;
#[path = "findings_shape.rs"]
pub mod shape;

/// The columns of the result, in order.
pub const COLUMNS: &[&str] = &[
    "code",
    "severity",
    "line",
    "currency",
    "item_id",
    "resource",
    "period_start",
    "sku",
    "expected",
    "actual",
    "difference",
    "message",
];

/// What one branch writes: its CTEs (`name AS (...)`) and its SELECT.
struct Branch {
    ctes: Vec<String>,
    select: String,
}

type Build = fn(&Ctx<'_>) -> Branch;

/// The per-line checks the query carries, in the order of their branches.
/// The share checks come from the totals (`shares`).
const BRANCHES: &[(Check, Build)] = &[
    (Check::LineArithmetic, line_arithmetic),
    (Check::AboveListPrice, above_list_price),
    (Check::AboveContractedPrice, above_contracted_price),
    (Check::DuplicateLine, duplicate_line),
    (Check::IdleStorage, idle_storage),
    (Check::IngressCharged, ingress_charged),
    (Check::UnclassifiedItems, unclassified_items),
    (Check::UnusedCommitment, commitment::unused_commitment),
    (Check::RateAboveReference, price::rate_above_reference),
    (Check::BillingRounding, |c| {
        usage(c, findings_usage::billing_rounding)
    }),
    (Check::BillingGranularity, |c| {
        usage(c, findings_usage::billing_granularity)
    }),
    (Check::PlanCostlierThanOnDemand, plan::plan_costlier),
];

/// A branch written in `findings_usage.rs`.
fn usage(c: &Ctx<'_>, f: fn(Dialect, bool, Row) -> Parts) -> Branch {
    let (ctes, select) = f(c.d, c.day_first, &|k, l, fig, m, keys| {
        c.row(k, l, fig, m, keys)
    });
    Branch { ctes, select }
}

/// Per-line checks of the native audit the query does not carry yet, and
/// why: `sql --findings` says so on standard error and in the query.
pub const NOT_IN_SQL: &[(Check, &str)] = &[];

struct Ctx<'o> {
    d: Dialect,
    severity: Severity,
    day_first: bool,
    /// The query's options: thresholds and the price book.
    opts: &'o SqlOptions,
}

impl Ctx<'_> {
    fn s(&self) -> String {
        self.d.string_type().to_string()
    }

    /// The SELECT list of a finding row; `line`, `expected`, `actual`,
    /// `difference` and `message` are expressions over the branch's rows.
    fn row(
        &self,
        code: Check,
        line: &str,
        figures: [&str; 3],
        message: &str,
        keys: bool,
    ) -> String {
        let s = self.s();
        let null = format!("CAST(NULL AS {s})");
        let key = |k: &str| {
            if keys { k.to_string() } else { null.clone() }
        };
        let fig = |f: &str| {
            if f.is_empty() {
                null.clone()
            } else {
                format!("CAST({f} AS {s})")
            }
        };
        format!(
            "SELECT {} AS code, {} AS severity, CAST({line} AS {}) AS line, currency, {} AS item_id, {} AS resource, {} AS period_start, {} AS sku, {} AS expected, {} AS actual, {} AS difference, CAST({message} AS {s}) AS message",
            self.d.lit(code.code()),
            self.d.lit(self.severity.as_str()),
            self.d.bigint_type(),
            key("item_id"),
            key("resource"),
            key("start_text"),
            key("sku"),
            fig(figures[0]),
            fig(figures[1]),
            fig(figures[2]),
        )
    }
}

fn cat(d: Dialect, c: Category) -> String {
    d.lit(c.as_str())
}

/// Writes the findings query.
pub fn generate_findings(opts: &SqlOptions) -> Result<Generated, SqlError> {
    let d = opts.dialect;
    let severity = |c: Check| match opts.severities.get(&c) {
        Some(s) => *s,
        None => Some(c.default_severity()),
    };
    let mut o = opts.clone();
    o.grain = Grain::Currency;
    let mut s = super::query::prelude(&o, true)?.sql;
    let mut not_in: Vec<String> = Vec::new();
    for (c, why) in NOT_IN_SQL {
        if severity(*c).is_some() {
            not_in.push(format!("-- not in this query: {} ({why})\n", c.code()));
        }
    }
    s.insert_str(
        0,
        &format!(
            "-- billaudit sql --findings: one row per finding ({}).\n{}",
            COLUMNS.join(", "),
            not_in.concat()
        ),
    );
    // `nums` in the dialect's shape (kept once; Spark: a cached view),
    // the totals over it.
    let mut s = shape::with_nums(d, s, &nums(opts, &severity));
    s.push_str(&super::query::totals_cte(&o, d, "nums"));
    if [
        Check::LineArithmetic,
        Check::AboveListPrice,
        Check::AboveContractedPrice,
    ]
    .iter()
    .any(|c| severity(*c).is_some())
    {
        for c in listed(d) {
            s.push_str(&c);
            s.push_str(",\n");
        }
    }
    // The price book, for the checks that read it (none without one).
    let book = !opts.price_book.entries.is_empty();
    if book && severity(Check::RateAboveReference).is_some() {
        s.push_str(&price::prices(d, &opts.price_book)?);
        s.push_str(",\n");
    }
    if severity(Check::PlanCostlierThanOnDemand).is_some() {
        plan::check(opts)?;
    }
    let mut selects: Vec<String> = Vec::new();
    for (check, build) in BRANCHES {
        let Some(sev) = severity(*check) else {
            continue;
        };
        if *check == Check::RateAboveReference && !book {
            continue;
        }
        let b = build(&Ctx {
            d,
            severity: sev,
            day_first: opts.day_first,
            opts,
        });
        for c in b.ctes {
            s.push_str(&c);
            s.push_str(",\n");
        }
        selects.push(b.select);
    }
    // The share checks: one finding per bill (currency) whose check is TRUE.
    for check in Check::ALL {
        if check.compares().is_none() || o.thresholds.get(check).is_none() {
            continue;
        }
        let Some(sev) = severity(check) else {
            continue;
        };
        let ctx = Ctx {
            d,
            severity: sev,
            day_first: false,
            opts,
        };
        let msg = d.lit(&format!("{} is above its threshold", check.code()));
        selects.push(format!(
            "{}\nFROM shares WHERE {}",
            ctx.row(check, "NULL", ["", "", ""], &msg, false),
            d.ident(check.code())
        ));
    }
    // A trailing comma after the last CTE is not SQL: end with `all_findings`.
    s.push_str(&format!(
        "all_findings AS (\n{}\n)\nSELECT {} FROM all_findings\nORDER BY line NULLS FIRST, code, currency NULLS FIRST\n",
        selects.join("\nUNION ALL\n"),
        COLUMNS.join(", ")
    ));
    Ok(Generated {
        sql: shape::finish(d, s),
    })
}

/// `nums`' SELECT: each item's category (`other` where no rule matched,
/// and the flag), figures as unscaled integers and scales, dates as
/// TIMESTAMPs and the declared block ([`shape::with_nums`] makes it a CTE).
/// With them, the per-row values of the checks `severity` turns on
/// (`billing-rounding`, `billing-granularity`,
/// `plan-costlier-than-on-demand`).
fn nums(opts: &SqlOptions, severity: &dyn Fn(Check) -> Option<Severity>) -> String {
    let d = opts.dialect;
    let mut cols: Vec<String> = Vec::new();
    for (t, n) in [
        ("a_text", "a"),
        ("q_text", "q"),
        ("p_text", "p"),
        ("l_text", "l"),
        ("e_text", "e"),
        ("c_text", "c"),
        ("u_text", "u"),
    ] {
        let (u, sc) = unscaled(d, t);
        cols.push(format!("{u} AS {n}_u"));
        cols.push(format!("{sc} AS {n}_s"));
    }
    cols.push(format!("{} AS block", block(d)));
    if severity(Check::BillingRounding).is_some() || severity(Check::BillingGranularity).is_some() {
        cols.extend(findings_usage::nums_columns(d));
    }
    if severity(Check::PlanCostlierThanOnDemand).is_some() {
        cols.extend(plan::nums_columns(d));
    }
    format!(
        "{},\n    {}\n  FROM items",
        shape::nums_columns(d),
        cols.join(",\n    ")
    )
}

/// `la1`..`la4`: each priced or listed row's figures in integers at a
/// common scale, and `surcharge`: the payable amount above the list amount
/// by more than half a unit of its last place (`audit/above_list_price.rs`
/// `excess`), and `product_off` (`line_arithmetic::product_mismatch`).
/// Shared by `line-arithmetic`, `above-list-price` and
/// `above-contracted-price`, written when one of them is on.
fn listed(d: Dialect) -> Vec<String> {
    let p = |k: &str| pow10(d, k);
    let la1 = "la1 AS (\n  SELECT *,\n    greatest(a_s + 1, l_s) AS s1,\n    coalesce(l_u, a_u) AS g_u,\n    CASE WHEN l_u IS NOT NULL THEN l_s ELSE a_s END AS g_s\n  FROM nums\n)".to_string();
    let la2 = "la2 AS (\n  SELECT *,\n    least(g_s, 10) AS w,\n    greatest(q_s + p_s + 1, g_s, least(g_s, 10) + 1) AS sc\n  FROM la1\n)".to_string();
    let la3 = format!(
        "la3 AS (\n  SELECT *,\n    CASE WHEN l_u IS NULL THEN NULL ELSE a_u * {} END AS a_i,\n    CASE WHEN l_u IS NULL THEN NULL ELSE l_u * {} END AS l_i,\n    CASE WHEN l_u IS NULL THEN NULL ELSE 5 * {} END AS h1,\n    q_u * p_u * {} AS pr,\n    g_u * {} AS g_i,\n    5 * {} AS h,\n    5 * {} * ((CASE WHEN q_s > 0 THEN abs(p_u) ELSE 0 END) + (CASE WHEN p_s > 0 THEN abs(q_u) ELSE 0 END)) AS sl\n  FROM la2\n)",
        p("s1 - a_s"),
        p("s1 - l_s"),
        p("s1 - a_s - 1"),
        p("sc - q_s - p_s"),
        p("sc - g_s"),
        p("sc - w - 1"),
        p("sc - q_s - p_s - 1"),
    );
    let la4 = "la4 AS (\n  SELECT *,\n    coalesce(l_u IS NOT NULL AND (CASE WHEN l_u < 0 THEN a_i < l_i ELSE a_i > l_i END) AND abs(a_i - l_i) > h1, FALSE) AS surcharge,\n    coalesce(pr IS NOT NULL AND abs(pr - g_i) > h + sl AND NOT coalesce(abs(pr - block * g_i) <= block * h + sl OR abs(block * pr - g_i) <= h + block * sl, FALSE), FALSE) AS product_off\n  FROM la3\n)".to_string();
    vec![la1, la2, la3, la4]
}

/// `line-arithmetic` (`audit/line_arithmetic.rs`) over [`listed`]: on a
/// row that is no surcharge (that is `above-list-price`'s, on or off),
/// quantity x unit price against the list amount (or the amount) with the
/// tolerance of half a unit of the compared figure's last place (at most
/// 10 places) plus the rounding of each factor, unless off by exactly the
/// declared block either way.
fn line_arithmetic(c: &Ctx) -> Branch {
    let d = c.d;
    let msg = format!(
        "concat(q_text, ' x ', p_text, ' = ', {}, ' but the ', CASE WHEN l_u IS NOT NULL THEN 'list amount' ELSE 'amount' END, ' is ', coalesce(l_text, a_text), ': ', description)",
        at_scale_text(d, "pr", "sc")
    );
    let expected = at_scale_text(d, "pr", "sc");
    let diff = at_scale_text(d, "abs(pr - g_i)", "sc");
    Branch {
        ctes: vec![],
        select: format!(
            "{}\nFROM la4 WHERE NOT surcharge AND product_off",
            c.row(
                Check::LineArithmetic,
                "line_no",
                [&expected, "coalesce(l_text, a_text)", &diff],
                &msg,
                true
            )
        ),
    }
}

/// The bill's finding of `check` (line NULL, `contract_price::Excess`):
/// a CTE `name` with, per bill (currency) with more than one row of
/// `from`, their count `n` and the sum `over_i` of `over` (an integer at
/// scale `scale`) at the bill's largest scale `ms`; and its SELECT.
fn bill_excess(
    c: &Ctx,
    check: Check,
    name: &str,
    [from, over, scale]: [&str; 3],
    above: &str,
) -> (String, String) {
    let d = c.d;
    let cte = format!(
        "{name} AS (\n  SELECT currency, count(*) AS n, sum(({over}) * {}) AS over_i, max(ms) AS ms\n  FROM (SELECT *, max({scale}) OVER (PARTITION BY currency) AS ms FROM {from}) AS x\n  GROUP BY currency\n  HAVING count(*) > 1\n)",
        pow10(d, &format!("ms - {scale}"))
    );
    let sum = at_scale_text(d, "over_i", "ms");
    let msg = format!(
        "concat(CAST(n AS {}), ' lines billed above {above}, by ', {sum}, ' in all')",
        c.s()
    );
    let select = format!(
        "{}\nFROM {name}",
        c.row(check, "NULL", ["", "", &sum], &msg, false)
    );
    (cte, select)
}

/// `above-contracted-price` (`audit/contract_price.rs` `excess`) over
/// [`listed`], at a common scale `k`: a payable amount above zero above its
/// `ContractedCost` (when above zero), else `ContractedUnitPrice` x
/// quantity (both above zero; tolerance more by quantity x half a unit of
/// the price's last place when it has decimals), by more than half a unit
/// of the amount's last place plus that; not when the effective cost is at
/// most the contract plus the tolerance (the discount given in the
/// amortised view), nor when the line's product is off (`line-arithmetic`'s
/// `product_off`, whether or not the line is above its list).
fn above_contracted_price(c: &Ctx) -> Branch {
    let d = c.d;
    let p = |k: &str| pow10(d, k);
    let ac1 = "ac1 AS (\n  SELECT *,\n    coalesce(c_u > 0, FALSE) AS by_cost,\n    greatest(a_s + 1, coalesce(c_s, 0), coalesce(u_s, 0) + coalesce(q_s, 0) + 1, coalesce(e_s, 0)) AS k\n  FROM la4\n  WHERE a_u > 0\n)".to_string();
    let ac2 = format!(
        "ac2 AS (\n  SELECT *,\n    a_u * {} AS a_k,\n    CASE WHEN by_cost THEN c_u * {} WHEN u_u > 0 AND q_u > 0 THEN u_u * q_u * {} ELSE NULL END AS con_k,\n    5 * {} + CASE WHEN by_cost OR u_s = 0 THEN 0 ELSE 5 * q_u * {} END AS tol,\n    CASE WHEN e_u IS NULL THEN NULL ELSE e_u * {} END AS e_k\n  FROM ac1\n)",
        p("k - a_s"),
        p("k - c_s"),
        p("k - u_s - q_s"),
        p("k - a_s - 1"),
        p("k - u_s - q_s - 1"),
        p("k - e_s"),
    );
    let ac3 = "ac3 AS (\n  SELECT * FROM ac2\n  WHERE con_k IS NOT NULL AND NOT coalesce(e_k <= con_k + tol, FALSE) AND a_k - con_k > tol AND NOT product_off\n)".to_string();
    let (bill, bill_select) = bill_excess(
        c,
        Check::AboveContractedPrice,
        "acp",
        ["ac3", "a_k - con_k", "k"],
        "their contracted cost",
    );
    let con = at_scale_text(d, "con_k", "k");
    let over = at_scale_text(d, "a_k - con_k", "k");
    let msg = format!(
        "concat('billed ', a_text, ' where the contract says ', {con}, CASE WHEN by_cost THEN ' (ContractedCost): ' ELSE ' (ContractedUnitPrice x quantity): ' END, {over}, ' above: ', description)"
    );
    Branch {
        ctes: vec![ac1, ac2, ac3, bill],
        select: format!(
            "{}\nFROM ac3\nUNION ALL\n{bill_select}",
            c.row(
                Check::AboveContractedPrice,
                "line_no",
                [&con, "a_text", &over],
                &msg,
                true
            ),
        ),
    }
}

/// `above-list-price` (`audit/above_list_price.rs`) over [`listed`]: one
/// finding per surcharged row, and one on the bill (line NULL) with the sum
/// of the excess when more than one row is (`contract_price::Excess`).
fn above_list_price(c: &Ctx) -> Branch {
    let msg =
        "concat('the amount ', a_text, ' is above the list amount ', l_text, ': ', description)";
    let diff = at_scale_text(c.d, "abs(a_i - l_i)", "s1");
    let (alp, bill_select) = bill_excess(
        c,
        Check::AboveListPrice,
        "alp",
        ["la4 WHERE surcharge", "abs(a_i - l_i)", "s1"],
        "their list amount",
    );
    Branch {
        ctes: vec![alp],
        select: format!(
            "{}\nFROM la4 WHERE surcharge\nUNION ALL\n{bill_select}",
            c.row(
                Check::AboveListPrice,
                "line_no",
                ["l_text", "a_text", &diff],
                msg,
                true
            ),
        ),
    }
}

/// `duplicate-line` (`audit/duplicate_line.rs`): a row of non-zero amount
/// whose cells (all but the row-id columns) equal an earlier row's in the
/// same bill. Exact: no window of remembered rows.
fn duplicate_line(c: &Ctx) -> Branch {
    let msg = format!(
        "concat('repeats line ', coalesce(CAST(first_line AS {}), '?'), ': ', description, ' ', a_text, ' is charged again')",
        c.s()
    );
    Branch {
        ctes: shape::dup_ctes(c.d),
        select: format!(
            "{}\nFROM dup WHERE nth > 1",
            c.row(
                Check::DuplicateLine,
                "line_no",
                ["", "a_text", ""],
                &msg,
                true
            )
        ),
    }
}

/// `idle-storage` (`audit/idle_storage.rs`): per bill, storage rows grouped
/// by resource and description; a group is reported (at its first row)
/// when one of its rows is billed on a day without compute: of its own
/// resource when that resource has compute rows, else anywhere in the
/// bill. A group with at most one single-date row per month is compared by
/// month. Days are the dates of `start..end` (an end at midnight does not
/// cover its day), at most 366 per row.
fn idle_storage(c: &Ctx) -> Branch {
    let d = c.d;
    let ts = |t: &str| timestamp(d, t, c.day_first);
    let compute = cat(d, Category::Compute);
    let kept = [
        Category::Compute,
        Category::Storage,
        Category::StorageReplica,
    ]
    .iter()
    .map(|k| cat(d, *k))
    .collect::<Vec<_>>()
    .join(", ");
    let first = d.day_number("ts_start");
    let last = format!(
        "CASE WHEN ts_end IS NOT NULL AND ts_end > ts_start THEN {} ELSE {first} END",
        d.day_number(&d.second_before("ts_end"))
    );
    let ev = format!(
        "ev AS (\n  SELECT currency, line_no, category, resource, description, amount, ts_end IS NULL AS point, d0, least(greatest(d1, d0), d0 + 365) AS d1, row_number() OVER (ORDER BY line_no) AS rid\n  FROM (SELECT *, {first} AS d0, {last} AS d1 FROM (SELECT *, {} AS ts_start, {} AS ts_end FROM nums WHERE category IN ({kept}) AND amount > 0) AS t WHERE ts_start IS NOT NULL) AS x\n)",
        ts("start_text"),
        ts("end_text")
    );
    let same = |a: &str, b: &str| d.same(a, b);
    let cdays = format!(
        "cdays AS (\n  SELECT DISTINCT currency, resource, d, {} AS mk FROM {} WHERE category = {compute}\n)",
        d.month_key("d"),
        d.expand_days("ev", "d0", "d1")
    );
    let bdays = "bdays AS (\n  SELECT DISTINCT currency, d, mk FROM cdays\n)".to_string();
    let cres =
        "cres AS (\n  SELECT DISTINCT currency, resource FROM cdays WHERE resource IS NOT NULL\n)"
            .to_string();
    let st = format!(
        "st AS (\n  SELECT ev.*, cres.resource IS NOT NULL AS own, {} AS mk0\n  FROM ev LEFT JOIN cres ON {} AND ev.resource = cres.resource\n  JOIN (SELECT DISTINCT currency FROM bdays) AS bc ON {}\n  WHERE ev.category <> {compute}\n)",
        d.month_key("ev.d0"),
        same("ev.currency", "cres.currency"),
        same("bc.currency", "ev.currency")
    );
    let months = "cmonths AS (\n  SELECT DISTINCT currency, resource, mk FROM cdays\n),\nbmonths AS (\n  SELECT DISTINCT currency, mk FROM cdays\n)".to_string();
    let monthly = "monthly AS (\n  SELECT currency, resource, description, max(n) <= 1 AS by_month\n  FROM (SELECT currency, resource, description, mk0, count(*) AS n FROM st WHERE point GROUP BY currency, resource, description, mk0) AS m\n  GROUP BY currency, resource, description\n)".to_string();
    let st2 = format!(
        "st2 AS (\n  SELECT st.*, coalesce(point AND by_month, FALSE) AS by_m\n  FROM st LEFT JOIN monthly ON {} AND {} AND st.description = monthly.description\n)",
        same("st.currency", "monthly.currency"),
        same("st.resource", "monthly.resource")
    );
    // A row is idle on a day (or, by month, in a month) without compute:
    // of its own resource when it has compute rows, else in the bill.
    let idle_days = format!(
        "idle AS (\n  SELECT DISTINCT rid FROM (SELECT * FROM {} WHERE NOT st2.by_m) AS x\n  LEFT JOIN cdays c ON x.own AND {} AND c.resource = x.resource AND c.d = x.d\n  LEFT JOIN bdays b ON NOT x.own AND {} AND b.d = x.d\n  WHERE (x.own AND c.d IS NULL) OR (NOT x.own AND b.d IS NULL)\n  UNION ALL\n  SELECT rid FROM st2 AS y\n  LEFT JOIN cmonths c ON y.own AND {} AND c.resource = y.resource AND c.mk = y.mk0\n  LEFT JOIN bmonths b ON NOT y.own AND {} AND b.mk = y.mk0\n  WHERE y.by_m AND ((y.own AND c.mk IS NULL) OR (NOT y.own AND b.mk IS NULL))\n)",
        d.expand_days("st2", "d0", "d1"),
        same("c.currency", "x.currency"),
        same("b.currency", "x.currency"),
        same("c.currency", "y.currency"),
        same("b.currency", "y.currency"),
    );
    let groups = "idle_groups AS (\n  SELECT st2.currency, st2.resource, st2.description, min(st2.line_no) AS first_line, count(idle.rid) AS idle_rows, count(*) AS rows_n\n  FROM st2 LEFT JOIN idle ON idle.rid = st2.rid\n  GROUP BY st2.currency, st2.resource, st2.description\n  HAVING count(idle.rid) > 0\n)".to_string();
    let msg = format!(
        "concat('`', description, '`', CASE WHEN resource IS NULL THEN '' ELSE concat(' (`', resource, '`)') END, ' is billed on days without compute: ', CAST(idle_rows AS {s}), ' of its ', CAST(rows_n AS {s}), ' storage rows')",
        s = c.s()
    );
    let s = c.s();
    Branch {
        ctes: vec![
            ev, cdays, bdays, cres, st, months, monthly, st2, idle_days, groups,
        ],
        select: format!(
            "{}\nFROM (SELECT g.*, CAST(NULL AS {s}) AS item_id, CAST(NULL AS {s}) AS start_text, CAST(NULL AS {s}) AS sku FROM idle_groups g) AS ig",
            c.row(Check::IdleStorage, "first_line", ["", "", ""], &msg, true)
        ),
    }
}

/// `ingress-charged` (`audit/ingress_charged.rs`): a bandwidth charge
/// above zero whose description or unit names inbound traffic and no
/// outbound traffic.
fn ingress_charged(c: &Ctx) -> Branch {
    let d = c.d;
    let text = "concat(lower(description), CASE WHEN unit IS NULL THEN '' ELSE concat('\n', lower(unit)) END)";
    let any = |words: &[&str]| {
        words
            .iter()
            .map(|w| d.contains(text, w))
            .collect::<Vec<_>>()
            .join(" OR ")
    };
    let msg = "concat('inbound traffic is charged: ', description, ' costs ', a_text)";
    Branch {
        ctes: vec![],
        select: format!(
            "{}\nFROM nums WHERE category = {} AND amount > 0 AND ({}) AND NOT ({})",
            c.row(
                Check::IngressCharged,
                "line_no",
                ["", "a_text", ""],
                msg,
                true
            ),
            cat(d, Category::Bandwidth),
            any(INBOUND),
            any(OUTBOUND)
        ),
    }
}

/// `unclassified-items` (`audit/unclassified_items.rs`): one finding per
/// bill, at the first item no rule matched, with their count and amount.
fn unclassified_items(c: &Ctx) -> Branch {
    let s = c.s();
    let un = format!(
        "unclassified AS (\n  SELECT currency, count(*) AS n, min(line_no) AS first_line, CAST(sum(amount) AS {s}) AS total\n  FROM nums WHERE unmatched\n  GROUP BY currency\n)"
    );
    let msg = format!(
        "concat(CAST(n AS {s}), CASE WHEN n = 1 THEN ' item' ELSE ' items' END, ' matched no rule and count as `other`')"
    );
    Branch {
        ctes: vec![un],
        select: format!(
            "{}\nFROM unclassified",
            c.row(
                Check::UnclassifiedItems,
                "first_line",
                ["", "total", ""],
                &msg,
                false
            )
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> SqlOptions {
        SqlOptions::new(Dialect::DuckDb, "focus")
    }

    #[test]
    fn one_branch_per_check_and_a_check_turned_off_has_none() {
        let sql = generate_findings(&opts()).unwrap().sql;
        for (c, _) in BRANCHES {
            // rate-above-reference needs a price book (the test below).
            if *c == Check::RateAboveReference {
                continue;
            }
            assert!(sql.contains(&format!("'{}' AS code", c.code())), "{c:?}");
        }
        let mut o = opts();
        o.severities.insert(Check::DuplicateLine, None);
        let sql = generate_findings(&o).unwrap().sql;
        assert!(!sql.contains("'duplicate-line' AS code"));
        assert!(sql.contains("'idle-storage' AS code"));
    }

    #[test]
    fn checks_not_in_sql_are_named_and_a_price_book_is_a_list() {
        let sql = generate_findings(&opts()).unwrap().sql;
        for (c, _) in NOT_IN_SQL {
            assert!(
                sql.contains(&format!("-- not in this query: {}", c.code())),
                "{sql}"
            );
        }
        // Without a price book there is no rate-above-reference branch;
        // with one, its entries are the `prices` list.
        assert!(!sql.contains("'rate-above-reference' AS code"), "{sql}");
        let mut o = opts();
        o.price_book
            .entries
            .push(crate::audit::rate_above_reference::PriceEntry {
                pattern: "rtx 4090".into(),
                unit: Some("hour".into()),
                currency: Some("CNY".into()),
                max: rust_decimal::Decimal::new(200, 2),
                source: None,
            });
        let sql = generate_findings(&o).unwrap().sql;
        assert!(sql.contains("'rate-above-reference' AS code"), "{sql}");
        assert!(sql.contains("CAST('2.00' AS VARCHAR)"), "{sql}");
        o.severities.insert(Check::RateAboveReference, None);
        let sql = generate_findings(&o).unwrap().sql;
        // (`plan_prices` is plan-costlier-than-on-demand's own list.)
        assert!(!sql.contains("\nprices AS ("), "{sql}");
    }

    #[test]
    fn a_line_above_its_list_stays_out_of_line_arithmetic_with_its_check_off() {
        // As audit/line_arithmetic.rs: the surcharge rows are never
        // line-arithmetic's, whether above-list-price is on or off.
        let mut o = opts();
        o.severities.insert(Check::AboveListPrice, None);
        o.severities.insert(Check::AboveContractedPrice, None);
        let sql = generate_findings(&o).unwrap().sql;
        assert!(!sql.contains("'above-list-price' AS code"), "{sql}");
        assert!(sql.contains("FROM la4 WHERE NOT surcharge AND product_off"));
        // With every check that reads them off, the shared CTEs go too.
        o.severities.insert(Check::LineArithmetic, None);
        let sql = generate_findings(&o).unwrap().sql;
        assert!(!sql.contains("la4 AS ("), "{sql}");
    }

    #[test]
    fn severity_comes_from_the_config() {
        let mut o = opts();
        o.severities
            .insert(Check::IngressCharged, Some(Severity::Error));
        let sql = generate_findings(&o).unwrap().sql;
        assert!(
            sql.contains("SELECT 'ingress-charged' AS code, 'error' AS severity"),
            "{sql}"
        );
    }
}
