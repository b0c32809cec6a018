//! DuckDB without `--header-from`: the query finds the profile's columns by
//! name when it runs, so one query reads every version of an export (FOCUS
//! 1.0 has no `SkuMeter`, 1.2 adds columns, CUR exports differ in their
//! optional columns). `COLUMNS(lambda c: ...)` picks a table's columns by
//! name; a column the table lacks is read as empty, as `billaudit audit`
//! reads an export without it, and a required one (the cost) stops the
//! query with an error naming it.
//!
//! Three CTEs come before `lines`:
//! - `cells`: every column of the table as text, and the empty sentinel
//!   column [`ABSENT`] last, so that a `COLUMNS` pattern never matches
//!   nothing (DuckDB refuses an empty `COLUMNS`);
//! - `found`: per column name the query reads, the list of the matching
//!   columns' values, the sentinel last: `l[1]` is the value (NULL when
//!   absent), `len(l) > 1` says the table has the column;
//! - `src`: one column per name the rest of the query uses.
//!
//! Names are matched as billaudit matches a header (`normalise_header`):
//! trimmed and lowercased. Its other rules (a currency or an English name
//! in brackets, full-width letters, non-ASCII spaces) are not written in
//! SQL: a table with such a column name stops the query with an error that
//! names `--header-from`, never reads a column differently.

use super::Dialect;
use crate::normalise::header::normalise_header;

/// The sentinel column: always last in `cells`, always empty.
pub(super) const ABSENT: &str = "__billaudit_absent__";

/// How a column of the table is matched: its normalised name equals, or
/// starts with, the text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Match {
    Exact(String),
    Prefix(String),
}

/// A column of `src`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Def {
    /// The value of the first alias the table has (`take`: read it, or
    /// read NULL because another rule covers it); `required`: an error
    /// when the table has none.
    First {
        aliases: Vec<(String, bool)>,
        required: bool,
    },
    /// The list of every column whose name starts with the prefix.
    Prefix(String),
}

/// The columns a query reads, in the order it asked for them.
#[derive(Debug, Default)]
pub(super) struct Found {
    matches: Vec<Match>,
    defs: Vec<(String, Def)>,
    /// The findings query: number the rows as they are read ([`LINE`]).
    pub(super) line: bool,
    /// The findings query: the list of every cell of the row but these
    /// (normalised names: the row-id columns), [`ROW_CELLS`].
    pub(super) row_cells: Option<Vec<String>>,
}

/// The row's line in its file (the header is line 1), numbered as DuckDB reads.
pub(super) const LINE: &str = "__billaudit_line";
/// Every cell of the row as text, but the row-id columns: the duplicate key.
pub(super) const ROW_CELLS: &str = "__billaudit_row_cells";

impl Found {
    fn matched(&mut self, m: Match) -> usize {
        match self.matches.iter().position(|x| *x == m) {
            Some(i) => i,
            None => {
                self.matches.push(m);
                self.matches.len() - 1
            }
        }
    }

    fn define(&mut self, base: &str, def: Def) -> String {
        if let Some((name, _)) = self.defs.iter().find(|(_, d)| *d == def) {
            return name.clone();
        }
        let mut name = base.to_string();
        let mut n = 1;
        while self.defs.iter().any(|(x, _)| x.eq_ignore_ascii_case(&name)) {
            n += 1;
            name = format!("{base}#{n}");
        }
        self.defs.push((name.clone(), def));
        name
    }

    /// The first of `aliases` the table has; `take[i]` false reads NULL
    /// when alias `i` is that first one.
    pub(super) fn first(&mut self, aliases: &[&str], take: &[bool], required: bool) -> String {
        let list: Vec<(String, bool)> = aliases
            .iter()
            .zip(take)
            .map(|(a, t)| (normalise_header(a).name, *t))
            .collect();
        for (n, _) in &list {
            self.matched(Match::Exact(n.clone()));
        }
        let base = if aliases.len() == 1 && take[0] {
            aliases[0].to_string()
        } else {
            aliases.join("|")
        };
        self.define(
            &base,
            Def::First {
                aliases: list,
                required,
            },
        )
    }

    /// Every column whose name starts with `prefix` (an alias ending in `*`).
    pub(super) fn prefix(&mut self, alias: &str) -> String {
        let n = normalise_header(alias).name;
        let p = n.trim_end_matches('*').to_string();
        self.matched(Match::Prefix(p.clone()));
        self.define(alias, Def::Prefix(p))
    }

    /// Whether `name` (a column of `src`) holds a list of values.
    pub(super) fn is_list(&self, name: &str) -> bool {
        self.defs
            .iter()
            .any(|(x, d)| x == name && matches!(d, Def::Prefix(_)))
    }

    /// `cells AS (..), found AS (..), src AS (..),` for the query's
    /// `WITH`; `table` is the relation read, `profile` names the query in
    /// messages.
    pub(super) fn ctes(&self, table: &str, profile: &str) -> String {
        let d = Dialect::DuckDb;
        let s = d.string_type();
        let name_of = "lower(trim(c))";
        // The line number comes after the sentinel, which stays the last
        // column a `COLUMNS` pattern can match.
        let line = if self.line {
            format!(", row_number() OVER () + 1 AS {}", d.ident(LINE))
        } else {
            String::new()
        };
        let mut out = format!(
            "cells AS (\n  SELECT CAST(COLUMNS(*) AS {s}), CAST(NULL AS {s}) AS {}{line}\n  FROM {table}\n),\nfound AS (\n  SELECT\n",
            d.ident(ABSENT)
        );
        let pick = |cond: String| {
            format!(
                "list_value(*COLUMNS(lambda c: c = {} OR {cond}))",
                d.lit(ABSENT)
            )
        };
        let mut lists: Vec<String> = self
            .matches
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let cond = match m {
                    Match::Exact(n) => format!("{name_of} = {}", d.lit(n)),
                    Match::Prefix(p) => format!("starts_with({name_of}, {})", d.lit(p)),
                };
                format!("    {} AS l{i}", pick(cond))
            })
            .collect();
        // Names billaudit reads through rules not written here.
        lists.push(format!(
            "    {} AS unread",
            pick(format!("regexp_matches(c, {})", d.lit("[^ -~]|[(]|  ")))
        ));
        let mut carried: Vec<String> = Vec::new();
        if let Some(skip) = &self.row_cells {
            let skip = skip.iter().map(|n| d.lit(n)).collect::<Vec<_>>().join(", ");
            let not_row_id = if skip.is_empty() {
                String::new()
            } else {
                format!(" AND {name_of} NOT IN ({skip})")
            };
            lists.push(format!(
                "    list_value(*COLUMNS(lambda c: c <> {} AND c <> {}{not_row_id})) AS {}",
                d.lit(ABSENT),
                d.lit(LINE),
                d.ident(ROW_CELLS)
            ));
            carried.push(d.ident(ROW_CELLS));
        }
        if self.line {
            lists.push(format!("    {}", d.ident(LINE)));
            carried.push(d.ident(LINE));
        }
        out.push_str(&lists.join(",\n"));
        out.push_str("\n  FROM cells\n),\nsrc AS (\n  SELECT\n");
        let l = |m: Match| {
            let i = self.matches.iter().position(|x| *x == m).unwrap_or(0);
            format!("l{i}")
        };
        let cols: Vec<String> = self
            .defs
            .iter()
            .map(|(name, def)| {
                let e = match def {
                    Def::Prefix(p) => l(Match::Prefix(p.clone())),
                    Def::First { aliases, required } => {
                        let mut arms = String::new();
                        for (n, take) in aliases {
                            let li = l(Match::Exact(n.clone()));
                            let v = if *take {
                                format!("{li}[1]")
                            } else {
                                format!("CAST(NULL AS {s})")
                            };
                            arms.push_str(&format!(" WHEN len({li}) > 1 THEN {v}"));
                        }
                        let otherwise = if *required {
                            format!(
                                "error({})",
                                d.lit(&format!(
                                    "the table has no `{name}` column, which a `{profile}` query needs"
                                ))
                            )
                        } else {
                            format!("CAST(NULL AS {s})")
                        };
                        format!("CASE{arms} ELSE {otherwise} END")
                    }
                };
                format!("    {e} AS {}", d.ident(name))
            })
            .collect();
        let mut cols = cols;
        cols.extend(carried.into_iter().map(|c| format!("    {c}")));
        out.push_str(&cols.join(",\n"));
        out.push_str(&format!(
            "\n  FROM found\n  WHERE len(unread) = 1 OR error({})\n),\n",
            d.lit("a column name of the table has brackets, non-ASCII characters or double spaces, which billaudit reads by its header rules (a currency or an English name in brackets, full-width letters); write the query for the table's header with `billaudit sql --header-from FILE`")
        ));
        out
    }
}
