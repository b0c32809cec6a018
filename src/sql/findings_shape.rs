//! How the findings query is laid out for each engine: which shared CTEs
//! are computed once and kept, and which are read again rather than kept.
//! The decisions of the checks are not here (they are the branches'); this
//! only changes how often the engine computes the same rows
//! (`docs/at-scale.md`, "Shape per engine").
//!
//! - **DuckDB**: `nums` (every item's category and figures, the regexes
//!   run once per row) is `MATERIALIZED`, without the all-cells
//!   `row_key`; `lines` is `NOT MATERIALIZED`, so DuckDB never keeps every
//!   row's cells: `duplicate-line` reads the table a second time, and only
//!   the rows whose `hash(row_key)` another row of the bill shares are
//!   compared on their cells (an equal key has an equal hash, so no
//!   duplicate is missed; the cells decide, so no collision is reported).
//! - **Spark**: the query is a script of statements: `nums` is a cached
//!   temporary view (`CACHE TABLE billaudit_nums AS ...`), then the
//!   findings query reads it. Catalyst inlines a CTE into every reference,
//!   so the one-query form analysed and optimised the `lines`/`items`/
//!   `nums` tree once per branch.
//! - **Athena, BigQuery**: one query, as before.

use super::Dialect;

/// The cached view of the Spark script.
pub const SPARK_NUMS_VIEW: &str = "billaudit_nums";

/// What ends each statement of a script: `;` and an empty line, so a
/// runner splits on `;\n\n` (no literal of the query holds one) and
/// `spark-sql -f` reads it as it is.
pub const STATEMENT_END: &str = ";\n\n";

/// The findings query's statements, in order (the last one returns the
/// findings); a query of one statement is itself.
pub fn statements(sql: &str) -> Vec<&str> {
    sql.split(STATEMENT_END)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// `s` (the prelude: comments, `WITH`, `lines` ... `items`, ending
/// `),\n`) followed by `nums` (`select`: its SELECT over `items`), in the
/// dialect's shape; what follows is more CTEs of the same `WITH`.
pub(super) fn with_nums(d: Dialect, mut s: String, select: &str) -> String {
    match d {
        Dialect::DuckDb => {
            // `lines` holds every row's cells (`row_key`): read again
            // where it is needed, never kept.
            for (from, to) in [
                ("WITH lines AS (\n", "WITH lines AS NOT MATERIALIZED (\n"),
                ("\nlines AS (\n", "\nlines AS NOT MATERIALIZED (\n"),
            ] {
                if let Some(i) = s.find(from) {
                    s.replace_range(i..i + from.len(), to);
                    break;
                }
            }
            s.push_str(&format!("nums AS MATERIALIZED (\n  {select}\n),\n"));
            s
        }
        Dialect::Spark => {
            let body = s.trim_end().trim_end_matches(',');
            let at = body
                .find("\nWITH ")
                .map(|i| i + 1)
                .or_else(|| body.starts_with("WITH ").then_some(0))
                .unwrap_or(0);
            let v = SPARK_NUMS_VIEW;
            format!(
                "{}DROP VIEW IF EXISTS {v}{STATEMENT_END}CACHE TABLE {v} AS\n{}\n{select}{STATEMENT_END}WITH nums AS (\n  SELECT * FROM {v}\n),\n",
                &body[..at],
                &body[at..],
            )
        }
        Dialect::Athena | Dialect::BigQuery => {
            s.push_str(&format!("nums AS (\n  {select}\n),\n"));
            s
        }
    }
}

/// The first words of `nums`' SELECT list: every column of `items`
/// (DuckDB: but the all-cells key, for its hash).
pub(super) fn nums_columns(d: Dialect) -> &'static str {
    match d {
        Dialect::DuckDb => "SELECT * EXCLUDE (row_key), hash(row_key) AS row_hash",
        _ => "SELECT *",
    }
}

/// `duplicate-line`'s `dup` CTE: the rows of non-zero amount with, per
/// bill (currency) and all-cells key, the first line and the row's place.
/// DuckDB compares the cells only of the rows whose key's hash is shared
/// (`dup_h`), reading them from `lines` again.
pub(super) fn dup_ctes(d: Dialect) -> Vec<String> {
    let window = "min(line_no) OVER (PARTITION BY currency, row_key) AS first_line,\n    row_number() OVER (PARTITION BY currency, row_key ORDER BY line_no) AS nth";
    if d != Dialect::DuckDb {
        return vec![format!(
            "dup AS (\n  SELECT *,\n    {window}\n  FROM nums\n  WHERE amount <> 0\n)"
        )];
    }
    vec![
        "dup_h AS (\n  SELECT currency, row_hash FROM nums\n  WHERE amount <> 0\n  GROUP BY currency, row_hash\n  HAVING count(*) > 1\n)".to_string(),
        format!(
            "dup AS (\n  SELECT *,\n    {window}\n  FROM (SELECT l.* FROM lines AS l JOIN dup_h AS h ON {} AND hash(l.row_key) = h.row_hash\n    WHERE l.amount IS NOT NULL AND l.amount <> 0) AS x\n)",
            d.same("l.currency", "h.currency")
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{SqlOptions, generate_findings};

    fn findings(d: Dialect) -> String {
        generate_findings(&SqlOptions::new(d, "focus")).unwrap().sql
    }

    #[test]
    fn duckdb_keeps_nums_and_never_the_cells() {
        let sql = findings(Dialect::DuckDb);
        assert!(sql.contains("nums AS MATERIALIZED ("), "{sql}");
        assert!(sql.contains("lines AS NOT MATERIALIZED ("), "{sql}");
        assert!(sql.contains("SELECT * EXCLUDE (row_key), hash(row_key) AS row_hash"));
        assert_eq!(statements(&sql).len(), 1);
    }

    #[test]
    fn spark_caches_nums_and_then_runs_the_findings_query() {
        let mut o = SqlOptions::new(Dialect::Spark, "focus");
        o.header = Some(vec!["BilledCost".into(), "BillingCurrency".into()]);
        let sql = generate_findings(&o).unwrap().sql;
        let st = statements(&sql);
        assert_eq!(st.len(), 3, "{sql}");
        assert!(
            st[0].ends_with("DROP VIEW IF EXISTS billaudit_nums"),
            "{}",
            st[0]
        );
        assert!(st[1].starts_with("CACHE TABLE billaudit_nums AS\nWITH lines AS ("));
        assert!(st[1].contains("\nSELECT *,"), "{}", st[1]);
        assert!(st[2].starts_with("WITH nums AS (\n  SELECT * FROM billaudit_nums\n)"));
        assert!(st[2].contains("FROM all_findings"));
        // The cached statement holds the prelude, the last none of it.
        assert!(!st[2].contains("lines AS ("));
    }

    #[test]
    fn athena_and_bigquery_stay_one_query() {
        for d in [Dialect::Athena, Dialect::BigQuery] {
            let mut o = SqlOptions::new(d, "focus");
            o.header = Some(vec!["BilledCost".into(), "BillingCurrency".into()]);
            let sql = generate_findings(&o).unwrap().sql;
            assert_eq!(statements(&sql).len(), 1, "{d}");
            assert!(sql.contains("\nnums AS (\n"), "{d}");
        }
    }
}
