//! `billaudit check`: audit bills and compare each with its expectation.

use clap::Args;

use billaudit::expect::{self, exit};
use billaudit::report::{self, Context, Format, json};

use super::args::{CommonArgs, options};
use super::output::{Out, print_errors};

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    common: CommonArgs,

    /// Write or update the expectation files from the current audit (atomically; bills are never touched).
    #[arg(long)]
    bless: bool,

    /// A bill without an expectation file is an error.
    #[arg(long)]
    require_expectations: bool,
}

pub fn run(c: CheckArgs) -> u8 {
    let opts = match options(&c.common) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let format = Format::from(c.common.format);
    let mut out = Out { broken: false };
    let mut outcomes = Vec::new();
    let mut report =
        billaudit::pipeline::audit_paths_streaming(&c.common.paths, &opts, &mut |path, r| {
            let result = match r {
                Ok(bills) => Ok(bills.clone()),
                Err(e) => Err(&*e),
            };
            let outcome = expect::check_file(path, result, c.bless);
            if format == Format::Jsonl {
                out.write(&json::lines_of(r));
                out.write(&json::expectation_line(&outcome));
            }
            outcomes.push(outcome);
        });
    report.expectations = outcomes;
    if format != Format::Jsonl {
        let ctx = Context {
            fail_on: opts.policy.fail_on,
            check: true,
            paint: c.common.color.paint(format == Format::Human),
            require_expectations: c.require_expectations,
        };
        // `--bless` says what it wrote; the audits it blessed are in the files.
        let renderer: report::Renderer = if c.bless && format == Format::Human {
            report::human::write_expectations_only
        } else {
            format.renderer()
        };
        out.render(ctx.paint, |w| renderer(&report, &ctx, w));
    }
    let code = exit::check(&report.expectations, &report.errors, c.require_expectations);
    // Every error is printed when one of them is unexpected.
    if code == exit::INPUT {
        print_errors(&report);
    }
    // A closed pipe leaves the exit code as the result decides it.
    code
}
