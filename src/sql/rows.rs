//! The findings query's view of one row: its line, its description as the
//! audit joins it, the texts of its figures, units, resource and dates, its
//! key columns and the duplicate key (every cell but the row-id columns);
//! and how those texts are read exactly in SQL (unscaled integer and scale,
//! ISO and slashed dates, declared block prices).

use super::columns::{Cols, is_placeholder_sql, trimmed};
use super::{Dialect, SqlError, SqlOptions};
use crate::normalise::profile::{ROW_ID_HEADERS, Role};
use crate::normalise::profiles::Spec;
use crate::normalise::terms::Term;

/// The commitment terms of a row `unused-commitment` reads (`findings_commitment`), with their column in
/// `lines` (the profile's `terms` table, first filled alias).
pub(crate) const TERMS: &[(Term, &str)] = &[
    (Term::CommitmentId, "cm_id"),
    (Term::Status, "cm_status"),
    (Term::UnusedRecurring, "ur_text"),
    (Term::UnusedUpfront, "uu_text"),
    (Term::Upfront, "up_text"),
    (Term::CommitmentTotal, "ct_text"),
    (Term::CommitmentUsed, "cu_text"),
];

/// Per profile: the line-item id and SKU columns of the findings' row key
/// (the resource and period are the profile's `ResourceId` and `Start`).
pub const ROW_KEYS: &[(&str, &[&str], &[&str])] = &[
    ("focus", &[], &["SkuPriceId", "SkuId"]),
    ("aws-cur", &["identity/LineItemId"], &["product/sku"]),
    ("aws-cur2", &["identity_line_item_id"], &["product_sku"]),
    ("azure", &[], &["MeterId", "ProductId"]),
    ("oci", &["lineItem/referenceNo"], &["cost/productSku"]),
];

/// The profile's column names for a role, in order.
pub(super) fn role_aliases(spec: &Spec, r: Role) -> Vec<&'static str> {
    spec.columns
        .iter()
        .find(|(x, _)| *x == r)
        .map(|(_, a)| a.to_vec())
        .unwrap_or_default()
}

/// A trimmed cell, NULL when empty or a placeholder.
fn cell(d: Dialect, col: &str) -> String {
    let t = trimmed(d, col);
    format!(
        "CASE WHEN {} THEN NULL ELSE {t} END",
        is_placeholder_sql(d, &t)
    )
}

fn null_text(d: Dialect) -> String {
    format!("CAST(NULL AS {})", d.string_type())
}

/// The extra columns of `lines` for the findings query: `(expression, alias)`.
pub(super) fn line_columns(
    opts: &SqlOptions,
    spec: &Spec,
    cols: &Cols,
    tiers: &[Vec<String>],
    amount_col: &str,
) -> Result<Vec<(String, String)>, SqlError> {
    let d = opts.dialect;
    let role = |r: Role| role_aliases(spec, r);
    let text_of = |r: Role| match cols.first(&role(r)) {
        Some(c) => cell(d, &c),
        None => null_text(d),
    };
    let mut out: Vec<(String, String)> = Vec::new();
    // Line numbers and the duplicate key.
    let row_ids: Vec<&str> = ROW_ID_HEADERS.to_vec();
    let extras = cols.row_extras(&row_ids);
    let line = match (&opts.line_column, &extras) {
        (Some(c), _) => match cols.first(&[c.as_str()]) {
            Some(c) => format!("CAST({} AS {})", trimmed(d, &c), d.bigint_type()),
            None => {
                return Err(SqlError::MissingColumn {
                    profile: spec.name.into(),
                    column: c.clone(),
                });
            }
        },
        (None, Some((l, _))) => d.ident(l),
        (None, None) if d == Dialect::DuckDb => "row_number() OVER () + 1".into(),
        (None, None) => format!("CAST(NULL AS {})", d.bigint_type()),
    };
    out.push((line, "line_no".into()));
    let key = match &extras {
        Some((_, k)) => d.ident(k),
        None => {
            let skip_line = opts
                .line_column
                .as_deref()
                .map(|c| crate::normalise::header::normalise_header(c).name);
            let cells: Vec<String> = cols
                .header_columns()
                .iter()
                .filter(|(n, _)| !ROW_ID_HEADERS.contains(&n.as_str()))
                .filter(|(n, _)| Some(n) != skip_line.as_ref())
                .map(|(_, raw)| format!("CAST({} AS {})", d.ident(raw), d.string_type()))
                .collect();
            d.array_key(&d.array(&cells))
        }
    };
    out.push((key, "row_key".into()));
    out.push((description(d, cols, tiers), "description".into()));
    out.push((cell(d, amount_col), "a_text".into()));
    out.push((text_of(Role::Quantity), "q_text".into()));
    out.push((text_of(Role::UnitPrice), "p_text".into()));
    out.push((text_of(Role::ListAmount), "l_text".into()));
    // The contract terms `above-contracted-price` reads (`Spec::terms`):
    // the first filled column of a term's aliases, as `normalise::terms`.
    let term_of = |t: Term| {
        let cells: Vec<String> = spec
            .terms
            .iter()
            .filter(|(x, _)| *x == t)
            .flat_map(|(_, a)| a.iter())
            .filter_map(|a| cols.first(&[a]))
            .map(|c| cell(d, &c))
            .collect();
        match cells.len() {
            0 => null_text(d),
            1 => cells[0].clone(),
            _ => format!("coalesce({})", cells.join(", ")),
        }
    };
    out.push((term_of(Term::Effective), "e_text".into()));
    out.push((term_of(Term::Contracted), "c_text".into()));
    out.push((term_of(Term::ContractedUnitPrice), "u_text".into()));
    // The commitment terms `unused-commitment` reads (`findings_commitment`).
    for (t, name) in TERMS {
        out.push((term_of(*t), (*name).into()));
    }
    out.push((text_of(Role::Unit), "unit".into()));
    out.push((text_of(Role::PriceUnit), "price_unit".into()));
    out.push((text_of(Role::ResourceId), "resource".into()));
    let start = match cols.first(&role(Role::Start)) {
        Some(c) => cell(d, &c),
        None => text_of(Role::Date),
    };
    out.push((start, "start_text".into()));
    out.push((text_of(Role::End), "end_text".into()));
    let (ids, skus) = ROW_KEYS
        .iter()
        .find(|k| k.0 == spec.name)
        .map(|k| (k.1, k.2))
        .unwrap_or((&[], &[]));
    for (aliases, name) in [(ids, "item_id"), (skus, "sku")] {
        let e = match cols.first(aliases) {
            Some(c) => cell(d, &c),
            None => null_text(d),
        };
        out.push((e, name.into()));
    }
    Ok(out)
}

/// The item's description as the normaliser joins it: each distinct text
/// of the classification columns once, in tier order, joined by ` / `.
fn description(d: Dialect, cols: &Cols, tiers: &[Vec<String>]) -> String {
    let parts: Vec<String> = tiers
        .iter()
        .flatten()
        .map(|c| {
            if cols.is_list(c) {
                format!(
                    "list_transform({}, lambda v: CASE WHEN {p} THEN NULL ELSE trim(v) END)",
                    d.ident(c),
                    p = is_placeholder_sql(d, "trim(v)")
                )
            } else {
                d.array(&[cell(d, c)])
            }
        })
        .collect();
    if parts.is_empty() {
        return "''".into();
    }
    match d {
        Dialect::DuckDb => {
            let l = format!("flatten([{}])", parts.join(", "));
            format!(
                "array_to_string(list_filter({l}, lambda x, i: x IS NOT NULL AND list_position({l}, x) = i), ' / ')"
            )
        }
        Dialect::Spark => {
            let l = format!("concat({})", parts.join(", "));
            format!(
                "array_join(filter({l}, (x, i) -> x IS NOT NULL AND array_position({l}, x) = i + 1), ' / ')"
            )
        }
        // Trino's array_distinct keeps the first of each value, in order.
        Dialect::Athena => format!(
            "array_join(array_distinct(filter(concat({}), x -> x IS NOT NULL)), ' / ')",
            parts.join(", ")
        ),
        Dialect::BigQuery => format!(
            "ARRAY_TO_STRING(ARRAY(SELECT x FROM UNNEST(ARRAY_CONCAT({})) AS x WITH OFFSET o WHERE x IS NOT NULL GROUP BY x ORDER BY MIN(o)), ' / ')",
            parts.join(", ")
        ),
    }
}

/// A number's text as billaudit reads it: sign, digits, a point, an
/// exponent. The groups: 1 sign, 2 integer digits, 4 decimals, 6 exponent.
const NUMBER: &str = "^([+-]?)([0-9]*)([.]([0-9]*))?([eE]([+-]?[0-9]+))?$";

/// `(unscaled integer, scale)` of a number's text, exactly: `1.50` is
/// (150, 2), `1.5E-9` is (15, 10). A text that is no plain number stops
/// the query (the cast fails), as the totals query does.
pub(super) fn unscaled(d: Dialect, t: &str) -> (String, String) {
    let g = |i| d.regex_group(t, NUMBER, i);
    let int = d.int_type();
    let exp = format!(
        "CASE WHEN {} = '' THEN 0 ELSE CAST({} AS {int}) END",
        g(6),
        g(6)
    );
    let frac = format!("length({})", g(4));
    let scale = format!("greatest({frac} - ({exp}), 0)");
    let digits = format!(
        "concat({}, {}, {}, repeat('0', greatest(({exp}) - {frac}, 0)))",
        g(1),
        g(2),
        g(4)
    );
    (
        format!(
            "CASE WHEN {t} IS NULL THEN NULL ELSE CAST({digits} AS {}) END",
            d.int38()
        ),
        format!("CASE WHEN {t} IS NULL THEN NULL ELSE {scale} END"),
    )
}

/// 10^k as an integer (k >= 0).
pub(super) fn pow10(d: Dialect, k: &str) -> String {
    format!("CAST(concat('1', repeat('0', {k})) AS {})", d.int38())
}

/// An integer at scale `k` as a decimal text (`12345`, 3: `12.345`).
pub(super) fn at_scale_text(d: Dialect, x: &str, k: &str) -> String {
    let digits = format!("CAST(abs({x}) AS {})", d.string_type());
    let lp = format!(
        "lpad({digits}, CAST(greatest(length({digits}), ({k}) + 1) AS {}), '0')",
        d.int_type()
    );
    format!(
        "concat(CASE WHEN {x} < 0 THEN '-' ELSE '' END, substr({lp}, 1, length({lp}) - ({k})), CASE WHEN ({k}) > 0 THEN concat('.', substr({lp}, length({lp}) - ({k}) + 1)) ELSE '' END)"
    )
}

/// ISO dates (`2024-09-04`, `2024-09-04T10:00:00Z`, an offset, which the
/// audit drops too) and slashed ones (`9/2/2023`, month first unless the
/// first number is above 12 or `--date-order day-first`): the groups of
/// year, month, day, hour, minute, second.
pub(super) const ISO: &str = "^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})([T ]([0-9]{1,2}):([0-9]{2})(:([0-9]{2})([.][0-9]*)?)?)? ?(Z|UTC|GMT)?([+-][0-9]{2}:?[0-9]{2})?$";
const SLASHED: &str =
    "^([0-9]{1,2})/([0-9]{1,2})/([0-9]{1,4})( ([0-9]{1,2}):([0-9]{2})(:([0-9]{2}))?)?$";

/// A date-time text as a TIMESTAMP; a text in another form stops the
/// query with a message naming the value (the audit reads more forms). A
/// date of those forms that is no date (`T30:00:00`) is NULL, as the audit
/// reads no date from it. Evaluated only for the rows `idle-storage`, `billing-rounding` and
/// `billing-granularity` read.
pub(super) fn timestamp(d: Dialect, t: &str, day_first: bool) -> String {
    let iso = |i| d.regex_group(t, ISO, i);
    let sl = |i| d.regex_group(t, SLASHED, i);
    let or0 = |e: String| format!("CASE WHEN {e} = '' THEN '00' ELSE {e} END");
    let build = |y: String, m: String, day: String, h: String, mi: String, s: String| {
        format!(
            "{}(concat(lpad({y}, 4, '0'), '-', lpad({m}, 2, '0'), '-', lpad({day}, 2, '0'), ' ', lpad({}, 2, '0'), ':', {}, ':', {}) AS TIMESTAMP)",
            match d {
                Dialect::BigQuery => "SAFE_CAST",
                _ => "TRY_CAST",
            },
            or0(h),
            or0(mi),
            or0(s)
        )
    };
    let a = format!("CAST({} AS {})", sl(1), d.int_type());
    let b = format!("CAST({} AS {})", sl(2), d.int_type());
    let month_first = if day_first {
        format!("{b} > 12")
    } else {
        format!("{a} <= 12")
    };
    format!(
        "CASE WHEN {t} IS NULL THEN NULL WHEN {} THEN {} WHEN {} THEN CASE WHEN {month_first} THEN {} ELSE {} END ELSE {} END",
        d.regex(t, ISO),
        build(iso(1), iso(2), iso(3), iso(5), iso(6), iso(8)),
        d.regex(t, SLASHED),
        build(sl(3), sl(1), sl(2), sl(5), sl(6), sl(8)),
        build(sl(3), sl(2), sl(1), sl(5), sl(6), sl(8)),
        d.error(&format!(
            "concat({}, {t})",
            d.lit("billaudit sql --findings reads ISO (2024-09-04T10:00:00Z) and slashed (9/2/2023) dates only; audit this file with billaudit audit: ")
        ))
    )
}

/// A block-yielding count (`normalise::block`): a power of ten with a
/// multiplier word (`1K`, `1 million`), a power of ten of at least 10
/// (`1,000`), or, after `per`, `/` or `每` only, a bare multiplier word.
/// Groups: 1 count with a word, 2 the word, 3 count alone, 4 bare word.
fn count_re(bare: bool) -> String {
    let mut x = String::from(
        "(?:([0,]*1[0,]*)[ \t]*(thousand|million|billion|k|m)(?:[^a-z]|$)|([0,]*1,*0[0,]*)(?:[^0-9,]|$)",
    );
    if bare {
        x.push_str("|(thousand|million|billion)(?:[^a-z]|$)");
    }
    x.push(')');
    x
}

/// The exponent of the block `text` (lowercase) declares, or NULL:
/// `leading` for a unit cell (a count at its start counts too).
fn block_exp(d: Dialect, text: &str, leading: bool) -> String {
    let in_text = format!("(?:(?:^|[^a-z0-9])per [ \t]*|/|每[ \t]*){}", count_re(true));
    let word_exp = |w: String| {
        format!(
            "CASE WHEN {w} IN ('k', 'thousand') THEN 3 WHEN {w} IN ('m', 'million') THEN 6 WHEN {w} = 'billion' THEN 9 ELSE 0 END"
        )
    };
    let zeros = |c: String| {
        let digits = format!("replace({c}, ',', '')");
        format!("(length({digits}) - {})", d.position(&digits, "'1'"))
    };
    let of = |re: &str, bare: bool| {
        let g = |i| d.regex_group(text, re, i);
        let mut e = format!(
            "CASE WHEN {} <> '' THEN {} + {} WHEN {} <> '' THEN {}",
            g(1),
            zeros(g(1)),
            word_exp(g(2)),
            g(3),
            zeros(g(3))
        );
        if bare {
            e.push_str(&format!(" WHEN {} <> '' THEN {}", g(4), word_exp(g(4))));
        }
        e.push_str(" END");
        format!("CASE WHEN {} THEN {e} END", d.regex(text, re))
    };
    let found = of(&in_text, true);
    if leading {
        let lead = format!("^{}", count_re(false));
        format!("coalesce({}, {found})", of(&lead, false))
    } else {
        found
    }
}

/// The block size the row declares (its unit, else its price unit, else
/// its description), as an integer, or NULL.
pub(super) fn block(d: Dialect) -> String {
    let e = format!(
        "coalesce({}, {}, {})",
        block_exp(d, "lower(unit)", true),
        block_exp(d, "lower(price_unit)", true),
        block_exp(d, "lower(description)", false)
    );
    format!("CASE WHEN ({e}) >= 1 THEN {} END", pow10(d, &e))
}
