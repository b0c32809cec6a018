//! `billaudit explain`: the documentation of a check.

use std::io::{self, Write};

use clap::Args;

use super::output::Out;
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A check code, e.g. `hidden-fee-share`.
    #[arg(required_unless_present = "all")]
    code: Option<String>,

    /// Every check, in the order of docs/checks.md.
    #[arg(long)]
    all: bool,
}

pub fn run(e: ExplainArgs) -> u8 {
    let mut out = Out { broken: false };
    if e.all {
        out.write(&billaudit::audit::checks_markdown());
        return EXIT_OK;
    }
    let code = e.code.unwrap_or_default();
    match billaudit::audit::check_info(&code) {
        Some(info) => {
            out.write(&format!(
                "{}: {}\n\n{}",
                info.code,
                info.summary,
                billaudit::audit::explain_text(info).replace("**", "")
            ));
            EXIT_OK
        }
        None => {
            let codes: Vec<&str> = billaudit::audit::CHECKS.iter().map(|c| c.code).collect();
            let _ = writeln!(
                io::stderr(),
                "billaudit: unknown check `{code}`; the checks are: {}",
                codes.join(", ")
            );
            EXIT_INPUT
        }
    }
}
