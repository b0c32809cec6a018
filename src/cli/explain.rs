//! `billaudit explain`: the documentation of a check.

use std::io::{self, Write};

use clap::Args;

use super::output::Out;
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A check code, e.g. `hidden-fee-share`. Without one, the checks are
    /// listed: code, default severity and when each fires.
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
    let Some(code) = e.code else {
        out.write(&check_list());
        return EXIT_OK;
    };
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

/// Every check on one line: code, default severity, when it fires.
fn check_list() -> String {
    let checks = billaudit::audit::CHECKS;
    let width = checks.iter().map(|c| c.code.len()).max().unwrap_or(0);
    let mut s =
        String::from("checks (billaudit explain CODE for one, --all for every one in full):\n");
    for c in checks {
        s.push_str(&format!(
            "  {:width$}  {:7}  {}\n",
            c.code,
            c.default_severity.as_str(),
            c.summary
        ));
    }
    s
}
