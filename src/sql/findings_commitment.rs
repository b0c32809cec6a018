//! `unused-commitment` in the findings query, as
//! `audit/unused_commitment.rs` decides it: per bill (currency) and
//! commitment id, the cost of the commitment and its unused part from the
//! amortised commitment columns of the rows (FOCUS `EffectiveCost` of the
//! `Used` and `Unused` rows, CUR `RIFee` and `SavingsPlanRecurringFee`
//! rows, Azure `UnusedReservation` / `Usage`), never the purchase rows;
//! one finding per commitment whose unused share is above a level of
//! `[thresholds]`, at that level's severity, and one on the bill with the
//! sums when more than one is. Exact: no limit of 10,000 ids.

use rust_decimal::Decimal;

use super::super::rows::{at_scale_text, pow10, unscaled};
use super::{Branch, Ctx};
use crate::audit::Check;
use crate::audit::unused_commitment::NO_ID;
use crate::model::Severity;
use crate::sql::Dialect;
use crate::vocab::checks::LIMITS;
use crate::vocab::commitment as words;

/// `status IN (words)`, ASCII-case-insensitively (`vocab::commitment::is`).
fn is(d: Dialect, words: &[&str]) -> String {
    let w: Vec<String> = words.iter().map(|w| d.lit(&w.to_lowercase())).collect();
    format!("lower(cm_status) IN ({})", w.join(", "))
}

/// `a / b` rounded down, for integers `a >= 0` and `b > 0`.
pub(super) fn int_div(d: Dialect, a: &str, b: &str) -> String {
    match d {
        Dialect::DuckDb => format!(
            "CAST(CAST({a} AS HUGEINT) // CAST({b} AS HUGEINT) AS {})",
            d.int38()
        ),
        Dialect::Spark => format!("CAST(({a}) div ({b}) AS {})", d.int38()),
        Dialect::BigQuery => format!("DIV({a}, {b})"),
        // Trino rounds a decimal quotient half up: one less where it did.
        Dialect::Athena => {
            format!("(({a}) / ({b}) - CASE WHEN (({a}) / ({b})) * ({b}) > ({a}) THEN 1 ELSE 0 END)")
        }
    }
}

/// A sum `x + y` of two integers at scales `xs` and `ys` (NULL as 0 at
/// scale 0) at scale `greatest(xs, ys)`: `(sum, scale)`.
fn add(d: Dialect, [x, xs, y, ys]: [&str; 4]) -> (String, String) {
    let s = format!("greatest(coalesce({xs}, 0), coalesce({ys}, 0))");
    let at = |v: &str, vs: &str| format!("coalesce({v} * {}, 0)", pow10(d, &format!("{s} - {vs}")));
    (format!("{} + {}", at(x, xs), at(y, ys)), s)
}

/// The branch: `uc1` each contributing row's (cost, unused), `uc2` per
/// commitment the sums at the largest scale of each, `uc3` the level
/// passed, `ucb` the bill's sums.
pub(super) fn unused_commitment(c: &Ctx<'_>) -> Branch {
    let d = c.d;
    let p = |k: &str| pow10(d, k);
    let mut figs: Vec<String> = Vec::new();
    for t in ["ur", "uu", "up", "ct", "cu"] {
        let (u, s) = unscaled(d, &format!("{t}_text"));
        figs.push(format!("{u} AS {t}_u, {s} AS {t}_s"));
    }
    let fee = is(d, words::RESERVATION_FEE);
    let sp = is(d, words::SAVINGS_PLAN_FEE);
    let unused = is(d, words::UNUSED);
    let used = format!(
        "({} OR ({} AND cm_id IS NOT NULL))",
        is(d, words::USED),
        is(d, words::USAGE)
    );
    let uc0 = format!(
        "uc0 AS (\n  SELECT currency, line_no, coalesce(cm_id, {}) AS cid, a_u, a_s, e_u, e_s, cm_id,\n    CASE WHEN {fee} THEN 'fee' WHEN {sp} THEN 'sp' WHEN {unused} THEN 'unused' WHEN {used} THEN 'used' END AS kind,\n    {}\n  FROM nums WHERE cm_status IS NOT NULL\n)",
        d.lit(NO_ID),
        figs.join(",\n    ")
    );
    // RIFee: cost amount + upfront, unused recurring + upfront unused;
    // SavingsPlanRecurringFee: cost the commitment, unused what it left
    // (never below 0); FOCUS and Azure: cost the effective cost (else the
    // amount), all of it unused on an unused row.
    let (fee_cost, fee_cost_s) = add(d, ["a_u", "a_s", "up_u", "up_s"]);
    let (fee_un, fee_un_s) = add(d, ["ur_u", "ur_s", "uu_u", "uu_s"]);
    let sp_s = "greatest(ct_s, coalesce(cu_s, 0))";
    let sp_left = format!(
        "ct_u * {} - coalesce(cu_u * {}, 0)",
        p(&format!("{sp_s} - ct_s")),
        p(&format!("{sp_s} - cu_s"))
    );
    let uc1 = format!(
        "uc1 AS (\n  SELECT currency, line_no, cid,\n    CASE kind WHEN 'fee' THEN {fee_cost} WHEN 'sp' THEN ct_u ELSE coalesce(e_u, a_u) END AS cost_u,\n    CASE kind WHEN 'fee' THEN {fee_cost_s} WHEN 'sp' THEN ct_s ELSE CASE WHEN e_u IS NULL THEN a_s ELSE e_s END END AS cost_s,\n    CASE kind WHEN 'fee' THEN {fee_un} WHEN 'sp' THEN CASE WHEN {sp_left} > 0 THEN {sp_left} ELSE 0 END WHEN 'unused' THEN coalesce(e_u, a_u) ELSE 0 END AS un_u,\n    CASE kind WHEN 'fee' THEN {fee_un_s} WHEN 'sp' THEN CASE WHEN {sp_left} > 0 THEN {sp_s} ELSE 0 END WHEN 'unused' THEN CASE WHEN e_u IS NULL THEN a_s ELSE e_s END ELSE 0 END AS un_s\n  FROM uc0\n  WHERE kind IS NOT NULL AND (kind <> 'sp' OR ct_u IS NOT NULL)\n)"
    );
    let uc2 = format!(
        "uc2 AS (\n  SELECT currency, cid, min(line_no) AS first_line, sum(cost_u * {}) AS cost_k, max(ks) AS ks, sum(un_u * {}) AS un_k, max(us) AS us\n  FROM (SELECT *, max(cost_s) OVER (PARTITION BY currency, cid) AS ks, max(un_s) OVER (PARTITION BY currency, cid) AS us FROM uc1) AS x\n  GROUP BY currency, cid\n)",
        p("ks - cost_s"),
        p("us - un_s")
    );
    // The levels, highest first (of equal ones the later in LIMITS, as
    // `max_by_key` keeps the last).
    let mut levels = c.opts.thresholds.limits_of(Check::UnusedCommitment);
    levels.sort_by_key(|l| l.0);
    levels.reverse();
    let passed = |v: Decimal| {
        format!(
            "(cost_k > 0 AND un_k > 0 AND un_k * {} * {} > {} * cost_k * {})",
            p("greatest(ks, us) - us"),
            p(&v.scale().to_string()),
            v.mantissa(),
            p("greatest(ks, us) - ks")
        )
    };
    let by_level = c.severity == Check::UnusedCommitment.default_severity();
    let mut level_case = String::from("CASE");
    let mut sev_case = String::from("CASE");
    for (i, (v, s)) in levels.iter().enumerate() {
        let key = LIMITS
            .iter()
            .find(|l| l.check == Check::UnusedCommitment && l.severity == *s)
            .map_or("", |l| l.key);
        level_case.push_str(&format!(
            " WHEN {} THEN {}",
            passed(*v),
            d.lit(&format!("{} (`{key}`)", crate::audit::percent(*v)))
        ));
        sev_case.push_str(&format!(" WHEN {} THEN {i}", passed(*v)));
    }
    level_case.push_str(" END");
    sev_case.push_str(" END");
    let sevs: Vec<Severity> = levels
        .iter()
        .map(|(_, s)| if by_level { *s } else { c.severity })
        .collect();
    let uc3 = format!(
        "uc3 AS (\n  SELECT *, {level_case} AS level_text, {sev_case} AS level_i,\n    CAST(NULL AS {s}) AS item_id, cid AS resource, CAST(NULL AS {s}) AS start_text, CAST(NULL AS {s}) AS sku\n  FROM uc2\n)",
        s = c.s()
    );
    let money = |x: &str, k: &str| {
        format!(
            "concat({}, CASE WHEN currency IS NULL THEN '' ELSE concat(' ', currency) END)",
            at_scale_text(d, x, k)
        )
    };
    let share = |un: &str, cost: &str, us: &str, ks: &str| {
        // unused / cost in hundredths of a percent, half away from zero.
        let s = format!("greatest({us}, {ks})");
        let un_s = format!("{un} * {}", p(&format!("{s} - {us}")));
        let cost_s = format!("{cost} * {}", p(&format!("{s} - {ks}")));
        let q = int_div(
            d,
            &format!("20000 * {un_s} + {cost_s}"),
            &format!("2 * {cost_s}"),
        );
        format!("concat({}, '%')", at_scale_text(d, &q, "2"))
    };
    let msg = format!(
        "concat('commitment `', cid, '`: ', {}, ' of its ', {}, ' unused (', {}, '), above ', level_text)",
        money("un_k", "us"),
        money("cost_k", "ks"),
        share("un_k", "cost_k", "us", "ks")
    );
    let cost = at_scale_text(d, "cost_k", "ks");
    let un = at_scale_text(d, "un_k", "us");
    let mut selects: Vec<String> = Vec::new();
    let mut worst = String::from("CASE");
    for s in [Severity::Error, Severity::Warning] {
        let idx: Vec<String> = (0..sevs.len())
            .filter(|i| sevs[*i] == s)
            .map(|i| i.to_string())
            .collect();
        if idx.is_empty() {
            continue;
        }
        let ctx = Ctx {
            d,
            severity: s,
            day_first: c.day_first,
            opts: c.opts,
        };
        selects.push(format!(
            "{}\nFROM uc3 WHERE level_i IN ({})",
            ctx.row(
                Check::UnusedCommitment,
                "first_line",
                [&cost, &un, ""],
                &msg,
                true
            ),
            idx.join(", ")
        ));
        worst.push_str(&format!(
            " WHEN max(CASE WHEN level_i IN ({}) THEN 1 ELSE 0 END) = 1 THEN {}",
            idx.join(", "),
            d.lit(s.as_str())
        ));
    }
    worst.push_str(" END");
    // The bill: the commitments above a level, when more than one.
    let ucb = format!(
        "ucb AS (\n  SELECT currency, count(*) AS n, {worst} AS sev, sum(cost_k * {}) AS cost_k, max(mk) AS ks, sum(un_k * {}) AS un_k, max(mu) AS us\n  FROM (SELECT *, max(ks) OVER (PARTITION BY currency) AS mk, max(us) OVER (PARTITION BY currency) AS mu FROM uc3 WHERE level_i IS NOT NULL) AS x\n  GROUP BY currency\n  HAVING count(*) > 1\n)",
        p("mk - ks"),
        p("mu - us")
    );
    let bill_msg = format!(
        "concat(CAST(n AS {}), ' commitments above their level: ', {}, ' of their ', {}, ' unused (', {}, ') in all')",
        c.s(),
        money("un_k", "us"),
        money("cost_k", "ks"),
        share("un_k", "cost_k", "us", "ks")
    );
    let bill_row = c.row(
        Check::UnusedCommitment,
        "NULL",
        [&cost, &un, ""],
        &bill_msg,
        false,
    );
    // The bill's severity is the worst of its commitments'.
    let bill_row = bill_row.replacen(
        &format!("{} AS severity", d.lit(c.severity.as_str())),
        "sev AS severity",
        1,
    );
    selects.push(format!("{bill_row}\nFROM ucb"));
    Branch {
        ctes: vec![uc0, uc1, uc2, uc3, ucb],
        select: selects.join("\nUNION ALL\n"),
    }
}
