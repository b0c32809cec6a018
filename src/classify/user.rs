//! User classification rules (`[[rule]]` in billaudit.toml), tried in order
//! before the built-in rules. A rule looks at one column (by its normalised
//! header name) or, without `column`, at the line's classification texts,
//! and matches a substring, any of a list of keywords, or a regex, all
//! case-insensitive. It can be scoped to a profile and to path globs.
//!
//! Entry points: [`UserRules::bind`] once per file header, then
//! [`BoundRules::classify`] per row.

use crate::classify::fold;
use crate::model::{Category, Cells, LineItem};
use crate::normalise::header::normalise_header;

/// How a rule matches a cell.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// A folded (lowercase, half-width) substring.
    Contains(String),
    /// Any of these folded substrings.
    Any(Vec<String>),
    /// A case-insensitive regex.
    Regex(regex::Regex),
}

impl Matcher {
    fn matches(&self, text: &str) -> bool {
        match self {
            Matcher::Regex(r) => r.is_match(text),
            m => m.matches_folded(&fold(text)),
        }
    }

    /// Substring matchers on text already folded; a regex sees it as is.
    fn matches_folded(&self, folded: &str) -> bool {
        match self {
            Matcher::Contains(s) => folded.contains(s.as_str()),
            Matcher::Any(list) => list.iter().any(|s| folded.contains(s.as_str())),
            Matcher::Regex(r) => r.is_match(folded),
        }
    }

    /// The patterns as data, for listings and other back-ends (SQL).
    pub fn describe(&self) -> String {
        match self {
            Matcher::Contains(s) => format!("contains `{s}`"),
            Matcher::Any(list) => format!("any of `{}`", list.join("`, `")),
            Matcher::Regex(r) => format!("regex `{}`", r.as_str()),
        }
    }
}

/// One user rule.
#[derive(Debug, Clone)]
pub struct UserRule {
    /// `user:LABEL`, or `user:rule-N` (1-based) without a label.
    pub id: std::sync::Arc<str>,
    pub category: Category,
    /// Normalised header name; `None`: the classification texts.
    pub column: Option<String>,
    pub matcher: Matcher,
    /// Only for files read with this profile.
    pub profile: Option<String>,
    /// Only for files whose path matches one of these globs (empty: all).
    pub paths: Vec<glob::Pattern>,
}

impl UserRule {
    /// `column` as written by the user, normalised like headers are.
    pub fn column_key(name: &str) -> String {
        normalise_header(name).name
    }

    fn applies_to(&self, path: &str, profile: &str) -> bool {
        if let Some(p) = &self.profile {
            if !p.eq_ignore_ascii_case(profile) {
                return false;
            }
        }
        if self.paths.is_empty() {
            return true;
        }
        let path = path.strip_prefix("./").unwrap_or(path);
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        self.paths
            .iter()
            .any(|g| g.matches(path) || (!g.as_str().contains('/') && g.matches(name)))
    }
}

/// The ordered user rules of a config.
#[derive(Debug, Clone, Default)]
pub struct UserRules {
    pub rules: Vec<UserRule>,
}

/// Where a bound rule reads its text.
#[derive(Debug, Clone, Copy)]
enum Source {
    Column(usize),
    ClassTexts,
}

/// The rules that apply to one file, with their columns resolved.
#[derive(Debug, Clone, Default)]
pub struct BoundRules<'a> {
    rules: Vec<(&'a UserRule, Source)>,
}

impl UserRules {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules for a file at `path`, read with `profile`, whose normalised
    /// header names are `names`. A rule whose column the file lacks is left out.
    pub fn bind(&self, path: &str, profile: &str, names: &[String]) -> BoundRules<'_> {
        let rules = self
            .rules
            .iter()
            .filter(|r| r.applies_to(path, profile))
            .filter_map(|r| match &r.column {
                None => Some((r, Source::ClassTexts)),
                Some(c) => names
                    .iter()
                    .position(|n| n == c)
                    .map(|i| (r, Source::Column(i))),
            })
            .collect();
        BoundRules { rules }
    }
}

impl BoundRules<'_> {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Classifies the item by the first matching rule; false when none
    /// matched (the built-in rules decide then).
    pub fn classify<C: Cells + ?Sized>(&self, rec: &C, item: &mut LineItem) -> bool {
        // The description joins every classification text: fold it once per
        // row for all substring rules.
        let mut folded: Option<String> = None;
        for (rule, source) in &self.rules {
            let hit = match source {
                Source::Column(i) => rec
                    .get(*i)
                    .map(|c| String::from_utf8_lossy(c))
                    .is_some_and(|c| rule.matcher.matches(c.trim())),
                Source::ClassTexts => match &rule.matcher {
                    // A regex sees each text alone, so `^` and `$` anchor to it.
                    Matcher::Regex(r) => std::iter::once(&item.description)
                        .chain(item.class_text.iter().flatten())
                        .any(|t| r.is_match(t)),
                    m => m.matches_folded(folded.get_or_insert_with(|| fold(&item.description))),
                },
            };
            if hit {
                item.category = rule.category;
                item.rule.clone_from(&rule.id);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    fn rule(column: Option<&str>, m: Matcher, cat: Category) -> UserRule {
        UserRule {
            id: "user:t".into(),
            category: cat,
            column: column.map(UserRule::column_key),
            matcher: m,
            profile: None,
            paths: Vec::new(),
        }
    }

    #[test]
    fn column_text_and_scope() {
        let rules = UserRules {
            rules: vec![
                rule(
                    Some("Typ"),
                    Matcher::Any(vec!["gebühr".into()]),
                    Category::Scheduling,
                ),
                rule(
                    None,
                    Matcher::Regex(regex::Regex::new("(?i)^disk").unwrap()),
                    Category::Storage,
                ),
            ],
        };
        let names = vec!["beschreibung".to_string(), "typ".to_string()];
        let b = rules.bind("x.csv", "generic-csv", &names);
        let rec = csv::ByteRecord::from(vec!["Orchestrierung", "Gebühr"]);
        let mut item = LineItem::new(2, "Orchestrierung", Decimal::ONE);
        assert!(b.classify(&rec, &mut item));
        assert_eq!(item.category, Category::Scheduling);
        let rec = csv::ByteRecord::from(vec!["Disk 50GB", "Nutzung"]);
        let mut item = LineItem::new(3, "Disk 50GB", Decimal::ONE);
        assert!(b.classify(&rec, &mut item));
        assert_eq!(item.category, Category::Storage);
        let mut scoped = rules.clone();
        scoped.rules[0].paths = vec![glob::Pattern::new("other/*.csv").unwrap()];
        scoped.rules[1].profile = Some("aws-cur".into());
        assert!(scoped.bind("x.csv", "generic-csv", &names).is_empty());
    }
}
