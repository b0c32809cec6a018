//! One user rule of billaudit.toml (`[[rule]]`, `crate::classify::user`)
//! in the form a query uses ([`UserRule`]): the same column, the same
//! matcher as data, the same category, and the label the query's comments
//! show. [`SqlOptions::configure`](super::SqlOptions::configure) calls it
//! for each rule, in file order.

use std::path::Path;

use crate::classify::user::{self, Matcher};

use super::{MatchKind, UserRule};

/// The SQL form of `rule` for a query on `profile`. `Ok(None)` when the
/// rule is scoped to another profile (the audit would not try it either).
/// A rule without `column` matches the classification texts, which a query
/// does not build: an error naming the rule and the config file `from`.
pub fn translate(
    rule: &user::UserRule,
    profile: &str,
    from: &Path,
) -> Result<Option<UserRule>, String> {
    if rule
        .profile
        .as_deref()
        .is_some_and(|p| !p.eq_ignore_ascii_case(profile.trim()))
    {
        return Ok(None);
    }
    let Some(column) = &rule.column else {
        return Err(format!(
            "{}: rule `{}` matches the classification texts, not one column; give it `column = \"...\"` to use it in SQL; no query written",
            from.display(),
            rule.id
        ));
    };
    let kind = match &rule.matcher {
        Matcher::Contains(s) => MatchKind::Substring(s.clone()),
        Matcher::Any(v) => MatchKind::Keywords(v.clone()),
        // The config compiles the regex case-insensitive; the query writes
        // its own `(?i)` before the pattern, so one written in the config
        // is dropped.
        Matcher::Regex(re) => MatchKind::Regex(re.as_str().trim_start_matches("(?i)").to_string()),
    };
    Ok(Some(UserRule {
        // The query writes `-- user:LABEL`; the id already has `user:`.
        label: rule
            .id
            .strip_prefix("user:")
            .unwrap_or(&rule.id)
            .to_string(),
        column: column.clone(),
        kind,
        category: rule.category,
        paths: rule.paths.iter().map(|g| g.as_str().to_string()).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Category;

    fn rule(matcher: Matcher, column: Option<&str>, profile: Option<&str>) -> user::UserRule {
        user::UserRule {
            id: "user:fees".into(),
            category: Category::Scheduling,
            column: column.map(str::to_string),
            matcher,
            profile: profile.map(str::to_string),
            paths: vec![glob::Pattern::new("bills/*.csv").unwrap()],
        }
    }

    fn from() -> &'static Path {
        Path::new("cfg/billaudit.toml")
    }

    #[test]
    fn each_matcher_becomes_its_match_kind_with_the_label_once() {
        let r = rule(
            Matcher::Contains("orchestr".into()),
            Some("chargedescription"),
            None,
        );
        assert_eq!(
            translate(&r, "focus", from()),
            Ok(Some(UserRule {
                label: "fees".into(),
                column: "chargedescription".into(),
                kind: MatchKind::Substring("orchestr".into()),
                category: Category::Scheduling,
                paths: vec!["bills/*.csv".into()],
            }))
        );
        let r = rule(
            Matcher::Any(vec!["gpu".into(), "a100".into()]),
            Some("x"),
            None,
        );
        let kind = translate(&r, "focus", from()).unwrap().unwrap().kind;
        assert_eq!(kind, MatchKind::Keywords(vec!["gpu".into(), "a100".into()]));
        let re = regex::Regex::new("(?i)daten(ü|ue)bertragung").unwrap();
        let r = rule(Matcher::Regex(re), Some("x"), None);
        let kind = translate(&r, "focus", from()).unwrap().unwrap().kind;
        assert_eq!(kind, MatchKind::Regex("daten(ü|ue)bertragung".into()));
    }

    #[test]
    fn a_rule_of_another_profile_is_left_out_and_one_without_column_refused() {
        let c = || Matcher::Contains("x".into());
        assert_eq!(
            translate(&rule(c(), Some("x"), Some("aws-cur")), "focus", from()),
            Ok(None)
        );
        // The profile is compared as the audit compares it: any case, trimmed.
        assert!(
            translate(&rule(c(), Some("x"), Some("FOCUS")), " focus ", from())
                .unwrap()
                .is_some()
        );
        let e = translate(&rule(c(), None, None), "focus", from()).unwrap_err();
        assert!(
            e.starts_with("cfg/billaudit.toml: rule `user:fees` matches the classification texts"),
            "{e}"
        );
    }
}
