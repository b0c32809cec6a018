//! What `billaudit.toml` gives a query, read the same way as for the audit
//! (`pipeline::Options::configured`): thresholds, and the user rules that
//! apply to the profile, in file order, before markers and built-in rules.

use crate::audit::Policy;
use crate::config::Config;

use super::user_rules::translate;
use super::{SqlOptions, supported_profiles};

impl SqlOptions {
    /// Applies `cfg` to the query's options. A user profile of the query's
    /// name, or a rule with no SQL form (no `column`), is an error: the
    /// query would read or classify differently from `billaudit audit`.
    pub fn configure(&mut self, cfg: &Config) -> Result<(), String> {
        if let Some(p) = cfg.profile(&self.profile) {
            return Err(format!(
                "{}: profile `{}` is a user profile; `sql` writes queries only for built-in profiles ({}), so no query was written; audit these files with `billaudit audit`",
                cfg.path.display(),
                p.name,
                supported_profiles().join(", ")
            ));
        }
        let mut policy = Policy {
            thresholds: self.thresholds.clone(),
            ..Policy::default()
        };
        cfg.apply_policy(&mut policy);
        self.thresholds = policy.thresholds;
        self.severities = policy.severities;
        self.price_book = policy.price_book;
        for r in &cfg.rules.rules {
            if let Some(rule) = translate(r, &self.profile, &cfg.path)? {
                self.user_rules.push(rule);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{Dialect, generate};

    fn cfg(text: &str) -> Config {
        crate::config::parse("billaudit.toml", text).unwrap()
    }

    #[test]
    fn rules_for_the_profile_in_order_labelled_once() {
        let c = cfg(
            "[[rule]]\nlabel = \"q\"\ncolumn = \"ChargeDescription\"\ncontains = \"requests\"\ncategory = \"scheduling\"\n\n\
             [[rule]]\nlabel = \"other-profile\"\ncolumn = \"x\"\ncontains = \"y\"\ncategory = \"tax\"\nprofile = \"aws-cur\"\n\n\
             [[rule]]\ncolumn = \"ChargeDescription\"\nany = [\"gpu\"]\ncategory = \"compute\"\n\n\
             [thresholds]\nhidden-fee-share = \"3%\"\n",
        );
        let mut o = SqlOptions::new(Dialect::DuckDb, "focus");
        o.configure(&c).unwrap();
        let labels: Vec<&str> = o.user_rules.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["q", "rule-3"]);
        // "3%" = 3/100.
        assert_eq!(o.thresholds.hidden_share, rust_decimal::Decimal::new(3, 2));
        let sql = generate(&o).unwrap().sql;
        assert!(sql.contains("-- user:q\n"), "{sql}");
        assert!(!sql.contains("user:user:"), "{sql}");
        assert!(sql.find("-- user:q").unwrap() < sql.find("-- user:rule-3").unwrap());
    }

    #[test]
    fn a_user_profile_and_a_rule_without_column_are_refused() {
        let c = cfg(
            "[[profile]]\nname = \"focus\"\ncost = \"Betrag\"\ncolumns = { description = \"Leistung\" }\n",
        );
        let e = SqlOptions::new(Dialect::DuckDb, "FOCUS")
            .configure(&c)
            .unwrap_err();
        assert!(e.contains("profile `focus` is a user profile"), "{e}");
        let c = cfg("[[rule]]\ncontains = \"gpu\"\ncategory = \"compute\"\n");
        let e = SqlOptions::new(Dialect::DuckDb, "focus")
            .configure(&c)
            .unwrap_err();
        assert!(e.contains("not one column"), "{e}");
    }
}
