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
//! - **Spark**: the query is a script of statements (`finish`): each CTE
//!   a temporary view of its name, cached (`CACHE TABLE name AS ...`) when
//!   more than one later part reads it, then the final SELECT. Catalyst
//!   inlines a CTE into every reference (and a view is analysed again
//!   from its text unless the script's first statement, a `SET` of
//!   [`SPARK_VIEW_SETTING`], keeps its plan), so the one-query form analysed and
//!   optimised the `lines`/`items`/`nums` tree, and each shared CTE, once
//!   per reference.
//! - **Athena, BigQuery**: one query, as before.

use super::Dialect;

/// The session setting the Spark script sets first: temporary views keep
/// their analysed plan (Spark 3.1 and later keep the SQL text and analyse
/// it again, with every view it reads, at each reference: the script then
/// spent 310 s on the FOCUS sample creating its views, 138 s with this).
pub const SPARK_VIEW_SETTING: &str = "spark.sql.legacy.storeAnalyzedPlanForView=true";

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
        Dialect::Spark | Dialect::Athena | Dialect::BigQuery => {
            s.push_str(&format!("nums AS (\n  {select}\n),\n"));
            s
        }
    }
}

/// The query `sql` (comments, one `WITH` of CTEs, the final SELECT) as the
/// dialect runs it: for Spark a script, each CTE `name AS (body)` a
/// temporary view, cached when `FROM name` or `JOIN name` occurs more than
/// once after it, then the final SELECT; for the others `sql` itself. A
/// query whose CTEs cannot be told apart (a `--table` text holding a line
/// `x AS (`) stays one statement, which Spark runs too, only slower.
pub(super) fn finish(d: Dialect, sql: String) -> String {
    if d != Dialect::Spark {
        return sql;
    }
    let Some((head, ctes, main)) = split_ctes(&sql) else {
        return sql;
    };
    // A view keeps its analysed plan: a view read by a later one is not
    // analysed again from its text, down to the table, at every reference.
    let mut out = format!("{head}SET {SPARK_VIEW_SETTING}{STATEMENT_END}");
    for (i, (name, body)) in ctes.iter().enumerate() {
        let later: usize = ctes[i + 1..]
            .iter()
            .map(|(_, b)| references(b, name))
            .sum::<usize>()
            + references(main, name);
        if later > 1 {
            out.push_str(&format!(
                "DROP VIEW IF EXISTS {name}{STATEMENT_END}CACHE TABLE {name} AS\n{body}{STATEMENT_END}"
            ));
        } else {
            out.push_str(&format!(
                "CREATE OR REPLACE TEMPORARY VIEW {name} AS\n{body}{STATEMENT_END}"
            ));
        }
    }
    out.push_str(main.trim_end());
    out.push('\n');
    out
}

/// A query cut in three: the text before `WITH`, the CTEs (name, body),
/// the final SELECT.
type Split<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);

/// `sql` as the text before `WITH`, its CTEs (name, body) and the final
/// SELECT. Each CTE starts on a line `name AS (` (the first `WITH name AS
/// (`) and ends on a line `)` before the next (`),`) or the SELECT.
fn split_ctes(sql: &str) -> Option<Split<'_>> {
    let mut heads: Vec<(usize, usize, &str)> = Vec::new();
    let mut at = 0;
    for line in sql.split_inclusive('\n') {
        let l = line.trim_end_matches('\n');
        let l = if heads.is_empty() {
            l.strip_prefix("WITH ").unwrap_or("")
        } else {
            l
        };
        if let Some(name) = l.strip_suffix(" AS (")
            && !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            heads.push((at, at + line.len(), name));
        }
        at += line.len();
    }
    let (start, _, _) = *heads.first()?;
    let mut ctes = Vec::new();
    for (i, (_, body_at, name)) in heads.iter().enumerate() {
        let end = match heads.get(i + 1) {
            Some((next, _, _)) => *next,
            None => body_at + sql[*body_at..].find("\n)\nSELECT ")? + 3,
        };
        let body = sql[*body_at..end].strip_suffix(if i + 1 < heads.len() {
            "\n),\n"
        } else {
            "\n)\n"
        })?;
        ctes.push((*name, body));
    }
    let (_, last_at, _) = *heads.last()?;
    let main_at = last_at + sql[last_at..].find("\n)\nSELECT ")? + 3;
    Some((&sql[..start], ctes, &sql[main_at..]))
}

/// How often `text` reads the relation `name`: `FROM name` or `JOIN
/// name`, the name ending there.
fn references(text: &str, name: &str) -> usize {
    ["FROM ", "JOIN "]
        .iter()
        .map(|k| {
            text.match_indices(&format!("{k}{name}"))
                .filter(|(i, m)| {
                    !text[i + m.len()..]
                        .bytes()
                        .next()
                        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                })
                .count()
        })
        .sum()
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

/// Where `sql` defines the relation `name`: a CTE `name AS (`, or in the
/// Spark script a view (`VIEW name AS`, `CACHE TABLE name AS`); for tests
/// that look for a branch's parts in every dialect.
#[cfg(test)]
pub(crate) fn definition(sql: &str, name: &str) -> Option<usize> {
    [
        format!("{name} AS ("),
        format!("VIEW {name} AS\n"),
        format!("CACHE TABLE {name} AS\n"),
    ]
    .iter()
    .filter_map(|p| sql.find(p.as_str()))
    .min()
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
    fn spark_runs_each_cte_once_as_a_view_cached_when_read_twice() {
        let mut o = SqlOptions::new(Dialect::Spark, "focus");
        o.header = Some(vec!["BilledCost".into(), "BillingCurrency".into()]);
        let one = generate_findings(&o).unwrap().sql;
        let st = statements(&one);
        // (The first statement starts with the query's comments.)
        let at = |line: String| st.iter().position(|s| s.lines().any(|l| l == line));
        let view = |name: &str| at(format!("CREATE OR REPLACE TEMPORARY VIEW {name} AS"));
        let cached = |name: &str| at(format!("CACHE TABLE {name} AS"));
        // The prelude is read once; nums (every branch) and la4 (four
        // branches) are cached, after the views they read.
        assert!(view("lines").is_some() && view("items").is_some(), "{one}");
        assert!(cached("nums").is_some() && cached("la4").is_some(), "{one}");
        assert!(view("la3").unwrap() < cached("la4").unwrap());
        assert!(view("items").unwrap() < cached("nums").unwrap());
        assert!(st[st.len() - 2].contains("all_findings"), "{one}");
        let last = st.last().unwrap();
        assert!(last.starts_with("SELECT code, severity") && last.contains("FROM all_findings"));
        // The setting first; a cached view is dropped first, so the script
        // runs again in one session.
        assert!(st[0].ends_with("SET spark.sql.legacy.storeAnalyzedPlanForView=true"));
        let n = cached("nums").unwrap();
        assert_eq!(st[n - 1].lines().last(), Some("DROP VIEW IF EXISTS nums"));
    }

    #[test]
    fn references_are_whole_names_after_from_or_join() {
        let t = "SELECT * FROM st2 AS y LEFT JOIN st ON x\nFROM st)\nFROM stx";
        assert_eq!(references(t, "st"), 2);
        assert_eq!(references(t, "st2"), 1);
        assert_eq!(references(t, "lines"), 0);
        let q =
            "-- c\nWITH a AS (\n  SELECT 1\n),\nb AS (\n  SELECT * FROM a\n)\nSELECT * FROM b\n";
        let (head, ctes, main) = split_ctes(q).unwrap();
        assert_eq!(head, "-- c\n");
        assert_eq!(ctes, vec![("a", "  SELECT 1"), ("b", "  SELECT * FROM a")]);
        assert_eq!(main, "SELECT * FROM b\n");
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
