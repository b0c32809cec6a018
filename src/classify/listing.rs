//! The text of `billaudit rules`: every classification rule in the order it
//! is tried, user rules (from billaudit.toml) first, then the built-in ones.

use std::path::Path;

use super::rules::BUILTIN;
use super::user::UserRules;

/// The listing: one numbered entry of two lines per rule, then a note on
/// the order texts are tried in. `user` is the config's rules and the file
/// they came from, when there is a config.
pub fn rules_listing(user: Option<(&UserRules, &Path)>) -> String {
    let mut out = String::new();
    let mut n = 0;
    if let Some((rules, from)) = user {
        for rule in &rules.rules {
            n += 1;
            let mut scope = Vec::new();
            if let Some(p) = &rule.profile {
                scope.push(format!("profile {p}"));
            }
            if !rule.paths.is_empty() {
                let globs: Vec<&str> = rule.paths.iter().map(|g| g.as_str()).collect();
                scope.push(format!("paths {}", globs.join(", ")));
            }
            out.push_str(&format!(
                "{n:>3}. {:<28} {:<15} {} {}\n     from {}{}\n",
                rule.id,
                rule.category.as_str(),
                rule.column
                    .as_deref()
                    .map(|c| format!("column `{c}`"))
                    .unwrap_or_else(|| "description".into()),
                rule.matcher.describe(),
                from.display(),
                if scope.is_empty() {
                    String::new()
                } else {
                    format!("; only {}", scope.join("; "))
                }
            ));
        }
    }
    for rule in BUILTIN {
        n += 1;
        let only = if rule.non_positive_only {
            " (amounts <= 0 only)"
        } else {
            ""
        };
        out.push_str(&format!(
            "{n:>3}. builtin:{:<20} {:<15} {}{only}\n     {}\n",
            rule.id,
            rule.category.as_str(),
            rule.why,
            rule.patterns.join(", ")
        ));
    }
    out.push_str(
        "Rules are tried on the most specific texts (description, SKU) before coarse ones \
         (service); a pattern written `=word` matches a whole word. \
         A profile marker (e.g. FOCUS ChargeCategory=Tax) decides before built-in rules.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::user::{Matcher, UserRule};
    use crate::model::Category;

    fn rule(id: &str, column: Option<&str>, profile: Option<&str>, paths: &[&str]) -> UserRule {
        UserRule {
            id: id.into(),
            category: Category::Scheduling,
            column: column.map(str::to_string),
            matcher: Matcher::Contains("orchestr".into()),
            profile: profile.map(str::to_string),
            paths: paths
                .iter()
                .map(|p| glob::Pattern::new(p).unwrap())
                .collect(),
        }
    }

    #[test]
    fn user_rules_come_first_numbered_with_their_scope_then_every_builtin() {
        let user = UserRules {
            rules: vec![
                rule("user:fees", None, None, &[]),
                rule(
                    "user:k8s",
                    Some("service"),
                    Some("focus"),
                    &["a/*.csv", "b.csv"],
                ),
            ],
        };
        let text = rules_listing(Some((&user, Path::new("cfg/billaudit.toml"))));
        let lines: Vec<&str> = text.lines().collect();
        // `{n:>3}. {id:<28} {category:<15} {where} {matcher}`: the id padded
        // to 28 characters, the category to 15.
        assert_eq!(
            lines[0],
            format!(
                "  1. user:fees{} scheduling{} description contains `orchestr`",
                " ".repeat(28 - 9),
                " ".repeat(15 - 10)
            )
        );
        assert_eq!(lines[1], "     from cfg/billaudit.toml");
        assert_eq!(
            lines[3],
            "     from cfg/billaudit.toml; only profile focus; paths a/*.csv, b.csv"
        );
        assert!(lines[2].starts_with("  2. user:k8s "), "{}", lines[2]);
        assert!(lines[2].ends_with(" column `service` contains `orchestr`"));
        // The built-in rules follow, numbered on from 3; two lines each.
        let first = &BUILTIN[0];
        assert!(
            lines[4].starts_with(&format!("  3. builtin:{}", first.id)),
            "{}",
            lines[4]
        );
        assert_eq!(lines[5], format!("     {}", first.patterns.join(", ")));
        let last = BUILTIN.len() + 2;
        assert!(lines[2 * last - 2].starts_with(&format!("{last:>3}. builtin:")));
        // Then the one closing note.
        assert_eq!(lines.len(), 2 * last + 1);
        assert!(lines[2 * last].starts_with("Rules are tried on the most specific texts"));
    }

    #[test]
    fn without_a_config_the_builtins_are_numbered_from_1() {
        let text = rules_listing(None);
        assert!(text.starts_with(&format!("  1. builtin:{}", BUILTIN[0].id)));
        assert_eq!(text.lines().count(), 2 * BUILTIN.len() + 1);
        // A credit rule that only matches amounts <= 0 says so.
        let credit = BUILTIN.iter().position(|r| r.non_positive_only);
        if let Some(k) = credit {
            let line = text.lines().nth(2 * k).unwrap_or_default();
            assert!(line.ends_with(" (amounts <= 0 only)"), "{line}");
        }
    }
}
