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
    let user = cfg.as_ref().map(|c| (&c.rules, c.path.as_path()));
    let out = billaudit::classify::listing::rules_listing(user);
    let mut o = Out { broken: false };
    o.write(&out);
    EXIT_OK
}
