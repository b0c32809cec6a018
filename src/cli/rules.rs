//! `billaudit rules`: the classification rules in the order they are tried.

use std::path::PathBuf;

use clap::Args;

use super::EXIT_OK;
use super::output::{Out, load_config};

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Read this config instead of the nearest billaudit.toml (its user rules or profiles come first).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(r: RulesArgs) -> u8 {
    let cfg = match load_config(r.config.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut out = String::new();
    let mut n = 0;
    if let Some(cfg) = &cfg {
        for rule in &cfg.rules.rules {
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
                cfg.path.display(),
                if scope.is_empty() {
                    String::new()
                } else {
                    format!("; only {}", scope.join("; "))
                }
            ));
        }
    }
    for rule in billaudit::classify::rules::BUILTIN {
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
    let mut o = Out { broken: false };
    o.write(&out);
    EXIT_OK
}
