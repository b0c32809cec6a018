//! `billaudit profiles`: the bill formats billaudit recognises.

use std::io::{self, Write};

use billaudit::normalise::profile::{CostBasis, Profile};
use billaudit::normalise::profiles::builtin;

use super::output::load_config;
use super::rules::RulesArgs;
use super::{EXIT_INPUT, EXIT_OK};

pub fn run(a: RulesArgs) -> u8 {
    let cfg = match load_config(a.config.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut all: Vec<Profile> = cfg.map(|c| c.profiles).unwrap_or_default();
    all.extend(builtin());
    let mut out = String::new();
    for p in all {
        let extra: Vec<String> = p
            .costs
            .iter()
            .filter(|(b, _)| *b != CostBasis::Billed)
            .map(|(b, _)| format!("--cost {}", b.as_str()))
            .collect();
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" ({})", extra.join(", "))
        };
        out.push_str(&format!(
            "{:<12} cost: {}{}\n             {}\n",
            p.name, p.cost_column, extra, p.summary
        ));
    }
    match io::stdout().write_all(out.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => EXIT_INPUT,
        _ => EXIT_OK,
    }
}
