//! The query: the line items with their category, the totals per bill,
//! the shares and the share checks.

use super::checks::check_columns;
use super::classify::{TextCols, case_arms, cat_lit};
use super::columns::{Cols, is_placeholder_sql, text_expr, trimmed};
use super::options::{FIXED_SCHEMA, KEYS, REFUSED};
use super::{Dialect, Generated, Grain, SCALE, SqlError, SqlOptions};
use crate::audit::Figure;
use crate::model::Category;
use crate::normalise::profile::{CostBasis, Role};
use crate::normalise::profiles::{SPECS, Spec};

/// Writes the query.
pub fn generate(opts: &SqlOptions) -> Result<Generated, SqlError> {
    let mut s = prelude(opts, false)?.sql;
    let d = opts.dialect;
    let m = d.money();
    totals_and_checks(opts, d, &m, &mut s);
    Ok(Generated { sql: s })
}

/// The start of a query: `-- comment`, `WITH` and the `lines` and `items`
/// CTEs, each ending with `),\n`. With `findings`, `lines` also carries
/// the columns the per-line checks read ([`super::findings::line_columns`])
/// and `items` every column of `lines`, with the category NULL where no
/// rule matched (`unclassified-items`).
pub(super) struct Prelude {
    pub sql: String,
}

pub(super) fn prelude(opts: &SqlOptions, findings: bool) -> Result<Prelude, SqlError> {
    let d = opts.dialect;
    let name = opts.profile.trim().to_ascii_lowercase();
    if let Some((_, reason)) = REFUSED.iter().find(|(p, _)| *p == name) {
        return Err(SqlError::UnsupportedProfile {
            profile: name,
            dialect: d,
            reason: reason.to_string(),
        });
    }
    let spec: &Spec = SPECS
        .iter()
        .find(|s| s.name == name)
        .copied()
        .ok_or_else(|| SqlError::UnknownProfile(name.clone()))?;
    let Some(&(_, account_aliases, period_aliases, period_is_month)) =
        KEYS.iter().find(|k| k.0 == name)
    else {
        return Err(SqlError::UnknownProfile(name));
    };
    if findings && spec.credit_list.is_some() {
        return Err(SqlError::UnsupportedProfile {
            profile: name,
            dialect: d,
            reason: "the findings query does not read the GCP `credits` lists yet (the totals query does, with --dialect bigquery)".into(),
        });
    }
    if spec.credit_list.is_some() && d != Dialect::BigQuery {
        return Err(SqlError::UnsupportedProfile {
            profile: name,
            dialect: d,
            reason: "its `credits` column is a list of credits per row; the native BigQuery export holds it as ARRAY<STRUCT<.., amount>> (use --dialect bigquery), while flattened CSV copies hold Python-style text that SQL cannot read exactly".into(),
        });
    }
    // Only DuckDB can read a column only when the table has it: the other
    // engines need the table's header, unless the export's schema is fixed.
    if opts.header.is_none() && d != Dialect::DuckDb && !FIXED_SCHEMA.contains(&spec.name) {
        return Err(SqlError::NeedsHeader {
            profile: name,
            dialect: d,
        });
    }
    let cols = Cols::new(d, opts.header.as_deref());
    let need = |aliases: &[&str], shown: &str| -> Result<String, SqlError> {
        cols.required(aliases)
            .ok_or_else(|| SqlError::MissingColumn {
                profile: name.clone(),
                column: shown.to_string(),
            })
    };
    let role = |r: Role| super::rows::role_aliases(spec, r);

    // The amount: `--cost` picks among the profile's cost columns.
    let amount_col = match spec.costs.iter().find(|(b, _)| *b == opts.cost) {
        Some((_, c)) => need(&[c], c)?,
        None if opts.cost != CostBasis::Billed => {
            return Err(SqlError::UnsupportedProfile {
                profile: name,
                dialect: d,
                reason: format!(
                    "it has one cost column, not a `--cost {}`",
                    opts.cost.as_str()
                ),
            });
        }
        None => need(&role(Role::Amount), spec.cost_column)?,
    };
    let currency_col = cols.first(&role(Role::Currency));
    let account_col = cols.first(account_aliases);
    let period_col = cols.first(period_aliases);

    // Classification tiers, as the normaliser builds them: the profile's
    // tiers, with the description column first when no tier holds it.
    let mut tiers: Vec<Vec<String>> = Vec::new();
    for tier in spec.class_tiers {
        let mut t: Vec<String> = Vec::new();
        for a in *tier {
            for c in cols.resolve(a) {
                if !t.contains(&c) {
                    t.push(c);
                }
            }
        }
        if !t.is_empty() {
            tiers.push(t);
        }
    }
    let desc_aliases = role(Role::Description);
    if cols.found().is_some() {
        // Which alias comes first is known only as the query runs: read
        // it as its own tier only when no tier holds it.
        let take: Vec<bool> = desc_aliases
            .iter()
            .map(|a| {
                let r = cols.resolve(a);
                !tiers.iter().flatten().any(|c| r.contains(c))
            })
            .collect();
        if take.contains(&true) {
            if let Some(desc) = cols.first_of(&desc_aliases, &take, false) {
                tiers.insert(0, vec![desc]);
            }
        }
    } else if let Some(desc) = cols.first(&desc_aliases) {
        if !tiers.iter().flatten().any(|c| *c == desc) {
            tiers.insert(0, vec![desc]);
        }
    }

    let m = d.money();
    let amount_text = trimmed(d, &amount_col);
    // A value with more (non-zero) decimals than the money type holds would
    // be rounded by the cast in silence (billaudit keeps 28): cast it with a prefix
    // instead, so the query fails and the engine's message names the value.
    let too_fine = format!(
        "length({amount_text}) > {} AND {}",
        SCALE + 1,
        d.regex(&amount_text, &format!("[.][0-9]{{{SCALE}}}0*[1-9]"))
    );
    let amount_expr = format!(
        "CASE WHEN {} THEN NULL WHEN {too_fine} THEN CAST(concat({}, {amount_text}) AS {m}) ELSE CAST({amount_text} AS {m}) END",
        is_placeholder_sql(d, &amount_text),
        d.lit(&format!("more than {SCALE} decimal places: "))
    );
    // GCP: `cost` is before credits; the BigQuery export lists them in an
    // ARRAY<STRUCT<name, amount, ..>> per row.
    // Each credit is its own `credit` item, as `billaudit audit` makes it.
    let credits_col = spec.credit_list.and_then(|c| cols.first(&[c]));
    let key_text = |col: &Option<String>, month: bool| -> String {
        match col {
            Some(c) => {
                let t = trimmed(d, c);
                let v = if month {
                    format!("substr({t}, 1, 7)")
                } else {
                    t.clone()
                };
                format!(
                    "CASE WHEN {} THEN NULL ELSE {v} END",
                    is_placeholder_sql(d, &t)
                )
            }
            None => format!("CAST(NULL AS {})", d.string_type()),
        }
    };
    let currency_expr = match &currency_col {
        Some(c) => {
            let t = trimmed(d, c);
            format!(
                "CASE WHEN {} THEN NULL ELSE upper({t}) END",
                is_placeholder_sql(d, &t)
            )
        }
        None => format!("CAST(NULL AS {})", d.string_type()),
    };

    // The CASE that classifies a row, and the text columns it reads.
    let mut text_cols = TextCols::default();
    let whens = case_arms(d, opts, spec, &cols, &tiers, &mut text_cols)?;

    // ---- assemble
    let mut s = String::new();
    s.push_str(&format!(
        "-- billaudit sql --dialect {} --profile {}{}: generated by billaudit {} from its\n\
         -- built-in rules and the `{}` profile table. Money is {m} ({SCALE} decimal\n\
         -- places; amounts with more places are rounded by the cast). Shares are\n\
         -- fractions rounded half away from zero to 6 places, NULL when subtotal <= 0.\n\
         -- A check column is TRUE when billaudit would report that finding.\n",
        d,
        spec.name,
        if opts.grain == Grain::Currency {
            " --grain currency"
        } else {
            ""
        },
        env!("CARGO_PKG_VERSION"),
        spec.name,
    ));
    s.push_str("WITH ");
    // The columns found as the query runs are known once `lines` is written.
    let found_at = s.len();
    s.push_str("lines AS (\n  SELECT\n");
    s.push_str(&format!(
        "    {} AS billing_account,\n",
        key_text(&account_col, false)
    ));
    s.push_str(&format!("    {currency_expr} AS currency,\n"));
    s.push_str(&format!(
        "    {} AS billing_period,\n",
        key_text(&period_col, period_is_month)
    ));
    s.push_str(&format!("    {amount_expr} AS amount"));
    if let Some(c) = &credits_col {
        s.push_str(&format!(",\n    {} AS credits", d.ident(c)));
    }
    for (i, c) in text_cols.0.iter().enumerate() {
        s.push_str(&format!(",\n    {} AS t{i}", text_expr(d, &cols, c)));
    }
    // Markers read their columns directly; select them through.
    let mut marker_cols: Vec<String> = Vec::new();
    for (col, ..) in spec.markers {
        if let Some(c) = cols.first(&[col]) {
            if !marker_cols.contains(&c) {
                marker_cols.push(c);
            }
        }
    }
    for c in &marker_cols {
        s.push_str(&format!(",\n    {}", d.ident(c)));
    }
    if findings {
        for (e, alias) in super::rows::line_columns(opts, spec, &cols, &tiers, &amount_col)? {
            s.push_str(&format!(",\n    {e} AS {alias}"));
        }
    }
    match cols.found() {
        Some(f) => {
            s.push_str("\n  FROM src\n),\n");
            s.insert_str(found_at, &f.ctes(&opts.table, spec.name));
        }
        None => s.push_str(&format!("\n  FROM {}\n),\n", opts.table)),
    }
    // Rows with an amount become line items; credit lists add credit items.
    s.push_str(if findings {
        "items0 AS (\n  SELECT *,\n    CASE\n"
    } else {
        "items AS (\n  SELECT billing_account, currency, billing_period, amount,\n    CASE\n"
    });
    for w in &whens {
        s.push_str("      ");
        s.push_str(w);
        s.push('\n');
    }
    s.push_str(&format!(
        "      ELSE {}\n    END AS {}\n  FROM lines\n  WHERE amount IS NOT NULL",
        if findings {
            format!("CAST(NULL AS {})", d.string_type())
        } else {
            cat_lit(d, Category::Other)
        },
        if findings { "category0" } else { "category" }
    ));
    if credits_col.is_some() {
        s.push_str(&format!(
            "\n  UNION ALL\n  SELECT billing_account, currency, billing_period, CAST(CAST(cr.amount AS {}) AS {m}), {}\n  FROM lines CROSS JOIN UNNEST(lines.credits) AS cr\n  WHERE lines.amount IS NOT NULL AND cr.amount IS NOT NULL",
            d.string_type(),
            cat_lit(d, Category::Credit)
        ));
    }
    s.push_str("\n),\n");
    if findings {
        s.push_str(&format!(
            "items AS (\n  SELECT *, coalesce(category0, {}) AS category, category0 IS NULL AS unmatched\n  FROM items0\n),\n",
            cat_lit(d, Category::Other)
        ));
    }
    Ok(Prelude { sql: s })
}

/// The `totals` CTE over `items` at the query's grain, and the final
/// SELECT with the shares and the share checks.
fn totals_and_checks(opts: &SqlOptions, d: Dialect, m: &str, s: &mut String) {
    totals_select(opts, d, m, s, None);
}

/// `totals AS (..),\nshares AS (..),\n`: the totals query as CTEs over
/// `from` (the findings query's `nums`: its rows are `items`' with more
/// columns, read once), for the share checks of the findings query.
pub(super) fn totals_cte(opts: &SqlOptions, d: Dialect, from: &str) -> String {
    let mut s = String::new();
    totals_select(opts, d, &d.money(), &mut s, Some(from));
    s
}

/// With `cte` (the relation read), the totals as CTEs; without, the
/// totals query's final SELECT over `items`.
fn totals_select(opts: &SqlOptions, d: Dialect, m: &str, s: &mut String, cte: Option<&str>) {
    let as_cte = cte.is_some();
    let keys: Vec<&str> = match opts.grain {
        Grain::Bill => vec!["billing_account", "currency", "billing_period"],
        Grain::Currency => vec!["currency"],
    };
    let zero = format!("CAST(0 AS {m})");
    let sum_if = |cond: String| format!("SUM(CASE WHEN {cond} THEN amount ELSE {zero} END)");
    let in_list = |cats: &[Category]| {
        cats.iter()
            .map(|c| cat_lit(d, *c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    s.push_str(&format!("totals AS (\n  SELECT {},\n", keys.join(", ")));
    s.push_str("    COUNT(*) AS line_items");
    for c in Category::ALL {
        s.push_str(&format!(
            ",\n    {} AS {}",
            sum_if(format!("category = {}", cat_lit(d, c))),
            c.as_str()
        ));
    }
    let subtotal_cats: Vec<Category> = Category::ALL
        .into_iter()
        .filter(|c| c.in_subtotal())
        .collect();
    let hidden_cats: Vec<Category> = Category::ALL
        .into_iter()
        .filter(|c| c.is_hidden())
        .collect();
    // The figures the share checks compare are named as the check table
    // names them (`Figure::name`).
    let (subtotal, hidden) = (Figure::Subtotal.name(), Figure::Hidden.name());
    // One SUM each, never a sum of sums: Spark narrows the scale of
    // DECIMAL(38, s) + DECIMAL(38, s).
    s.push_str(&format!(
        ",\n    {} AS {subtotal}",
        sum_if(format!("category IN ({})", in_list(&subtotal_cats)))
    ));
    s.push_str(",\n    SUM(amount) AS total");
    s.push_str(&format!(
        ",\n    {} AS {hidden}",
        sum_if(format!("category IN ({})", in_list(&hidden_cats)))
    ));
    s.push_str(&format!(
        "\n  FROM {}\n  GROUP BY {}\n){}\n",
        cte.unwrap_or("items"),
        keys.join(", "),
        if as_cte { ",\nshares AS (" } else { "" }
    ));
    let t = &opts.thresholds;
    s.push_str(&format!("SELECT {},\n    line_items", keys.join(", ")));
    for c in Category::ALL {
        s.push_str(&format!(",\n    {}", c.as_str()));
    }
    s.push_str(&format!(",\n    {subtotal},\n    total,\n    {hidden}"));
    s.push_str(&format!(
        ",\n    CASE WHEN {subtotal} > 0 THEN {} END AS hidden_share",
        d.share(hidden, subtotal)
    ));
    s.push_str(&format!(
        ",\n    CASE WHEN {subtotal} > 0 THEN {} END AS replica_share",
        d.share(Category::StorageReplica.as_str(), subtotal)
    ));
    s.push_str(&check_columns(d, t));
    if as_cte {
        s.push_str("\nFROM totals\n),\n");
        return;
    }
    s.push_str(&format!(
        "\nFROM totals\nORDER BY {}\n",
        keys.iter()
            .map(|k| format!("{k} NULLS FIRST"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
}
