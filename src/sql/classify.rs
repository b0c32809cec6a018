//! The CASE that gives every row its category, from the same rules as the
//! audit: user rules, the profile's markers, the built-in rules.

use super::columns::{Cols, trimmed};
use super::{Dialect, MatchKind, SqlError, SqlOptions};
use crate::classify::rules::{BUILTIN, Rule};
use crate::model::Category;
use crate::normalise::profiles::Spec;

pub(super) fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether a pattern can be put in a regex literal unchanged in meaning.
pub(super) fn check_user_regex(d: Dialect, label: &str, re: &str) -> Result<(), SqlError> {
    let bad = [
        ("(?=", "look-ahead"),
        ("(?!", "look-ahead"),
        ("(?<=", "look-behind"),
        ("(?<!", "look-behind"),
        ("\\1", "back-reference"),
        ("\\2", "back-reference"),
        (
            "\\d",
            "`\\d` (Unicode digits in billaudit, ASCII in SQL engines)",
        ),
        (
            "\\w",
            "`\\w` (Unicode word characters in billaudit, ASCII in SQL engines)",
        ),
        (
            "\\b",
            "`\\b` (Unicode word boundary in billaudit, ASCII in SQL engines)",
        ),
        (
            "\\s",
            "`\\s` (Unicode spaces in billaudit, ASCII in SQL engines)",
        ),
        ("\\p{", "Unicode classes"),
        ("(?P<", "named groups"),
        ("\\z", "`\\z`"),
        ("\\A", "`\\A`"),
    ];
    for (needle, what) in bad {
        if re.contains(needle) {
            return Err(SqlError::Inexpressible {
                rule: label.to_string(),
                dialect: d,
                reason: format!(
                    "the regex `{re}` uses {what}, which {} does not read the same way",
                    d.regex_flavour()
                ),
            });
        }
    }
    Ok(())
}

/// One regex for a built-in rule: its whole words between non-[a-z0-9]
/// characters or the ends (as `classify` matches `=word`), or any of its
/// plain patterns as substrings.
pub(super) fn rule_regex(rule: &Rule) -> String {
    let words: Vec<String> = rule
        .patterns
        .iter()
        .filter_map(|p| p.strip_prefix('='))
        .map(regex_escape)
        .collect();
    let mut alts: Vec<String> = Vec::new();
    if !words.is_empty() {
        alts.push(format!("(^|[^a-z0-9])({})([^a-z0-9]|$)", words.join("|")));
    }
    alts.extend(
        rule.patterns
            .iter()
            .filter(|p| !p.starts_with('='))
            .map(|p| regex_escape(p)),
    );
    alts.join("|")
}

/// The condition of one built-in rule on a tier's text expressions.
/// A text that is a list (`true`, DuckDB) matches when one of its items does.
pub(super) fn rule_cond(d: Dialect, rule: &Rule, texts: &[(String, bool)]) -> String {
    let re = rule_regex(rule);
    let ors: Vec<String> = texts
        .iter()
        .map(|(t, list)| {
            if *list {
                format!("len(list_filter({t}, lambda v: {})) > 0", d.regex("v", &re))
            } else {
                d.regex(t, &re)
            }
        })
        .collect();
    format!("({})", ors.join(" OR "))
}

pub(super) fn marker_cond(
    d: Dialect,
    col: &str,
    values: &[&str],
    profile: &str,
    id: &str,
) -> Result<String, SqlError> {
    let t = format!("lower({})", trimmed(d, col));
    let mut ors = Vec::new();
    for v in values {
        let v = v.to_lowercase();
        let wild = v.starts_with('*') || v.ends_with('*');
        if wild && v.contains(['%', '_']) {
            return Err(SqlError::Inexpressible {
                rule: format!("profile:{id}"),
                dialect: d,
                reason: format!("marker value `{v}` of profile {profile} holds a LIKE wildcard"),
            });
        }
        ors.push(if let Some(s) = v.strip_prefix('*') {
            format!("{t} LIKE {}", d.lit(&format!("%{s}")))
        } else if let Some(p) = v.strip_suffix('*') {
            format!("{t} LIKE {}", d.lit(&format!("{p}%")))
        } else {
            format!("{t} = {}", d.lit(&v))
        });
    }
    Ok(format!("({})", ors.join(" OR ")))
}

pub(super) fn cat_lit(d: Dialect, c: Category) -> String {
    d.lit(c.as_str())
}

/// The text columns the query selects, each once: column `i` is `t{i}`.
#[derive(Debug, Default)]
pub(super) struct TextCols(pub(super) Vec<String>);

impl TextCols {
    /// The alias of column `c`, selected from now on.
    pub(super) fn alias(&mut self, c: &str) -> String {
        let i = match self.0.iter().position(|x| x == c) {
            Some(i) => i,
            None => {
                self.0.push(c.to_string());
                self.0.len() - 1
            }
        };
        format!("t{i}")
    }
}

/// The `WHEN .. THEN category` arms of the CASE that classifies a row, in
/// the audit's order: user rules, the profile's markers, then every
/// built-in rule on each tier of classification columns in turn.
pub(super) fn case_arms(
    d: Dialect,
    opts: &SqlOptions,
    spec: &Spec,
    cols: &Cols,
    tiers: &[Vec<String>],
    text_cols: &mut TextCols,
) -> Result<Vec<String>, SqlError> {
    let tier_aliases: Vec<Vec<(String, bool)>> = tiers
        .iter()
        .map(|t| {
            t.iter()
                .map(|c| (text_cols.alias(c), cols.is_list(c)))
                .collect()
        })
        .collect();

    // The CASE that classifies a row.
    let mut whens: Vec<String> = Vec::new();
    for r in &opts.user_rules {
        if !r.paths.is_empty() {
            return Err(SqlError::Inexpressible {
                rule: r.label.clone(),
                dialect: d,
                reason: format!(
                    "it is scoped to paths ({}), and a table has no paths",
                    r.paths.join(", ")
                ),
            });
        }
        let Some(c) = cols.first(&[r.column.as_str()]) else {
            // The header lacks the column: the rule never matches natively.
            continue;
        };
        let t = text_cols.alias(&c);
        let cond = match &r.kind {
            MatchKind::Substring(s) => d.contains(&t, &crate::classify::fold(s)),
            MatchKind::Keywords(k) => {
                if k.is_empty() {
                    continue;
                }
                format!(
                    "({})",
                    k.iter()
                        .map(|w| d.contains(&t, &crate::classify::fold(w)))
                        .collect::<Vec<_>>()
                        .join(" OR ")
                )
            }
            MatchKind::Regex(re) => {
                check_user_regex(d, &r.label, re)?;
                d.regex(&t, &format!("(?i){re}"))
            }
        };
        whens.push(format!(
            "WHEN {cond} THEN {}  -- user:{}",
            cat_lit(d, r.category),
            r.label.replace('\n', " ")
        ));
    }
    // User rules come first, as in the audit; then the profile's markers.
    for (col, values, category, id) in spec.markers {
        let Some(c) = cols.first(&[col]) else {
            continue;
        };
        whens.push(format!(
            "WHEN {} THEN {}  -- profile:{id}",
            marker_cond(d, &c, values, spec.name, id)?,
            cat_lit(d, *category)
        ));
    }
    for (ti, tier) in tier_aliases.iter().enumerate() {
        for rule in BUILTIN {
            let cond = rule_cond(d, rule, tier);
            let cond = if rule.non_positive_only {
                format!("amount <= 0 AND {cond}")
            } else {
                cond
            };
            whens.push(format!(
                "WHEN {cond}\n      THEN {}  -- builtin:{} (tier {ti})",
                cat_lit(d, rule.category),
                rule.id
            ));
        }
    }
    Ok(whens)
}
