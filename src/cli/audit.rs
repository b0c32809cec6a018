//! `billaudit audit`: audit bills and report the findings.

use std::path::PathBuf;

use clap::Args;

use billaudit::expect::exit;
use billaudit::report::{self, Context, Format, json};

use super::args::{CommonArgs, options};
use super::output::{Out, error_line, print_errors};

#[derive(Debug, Args)]
pub struct AuditArgs {
    #[command(flatten)]
    common: CommonArgs,

    /// Compare with an earlier JSON report: hidden-share growth, new and vanished findings.
    #[arg(long, value_name = "REPORT.json")]
    baseline: Option<PathBuf>,

    /// With --baseline: the largest allowed growth of a bill's hidden share, in percentage points.
    #[arg(
        long,
        value_name = "POINTS",
        default_value = "1",
        requires = "baseline"
    )]
    max_increase: rust_decimal::Decimal,
}

pub fn run(a: AuditArgs) -> u8 {
    let opts = match options(&a.common) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let baseline = match &a.baseline {
        Some(path) => match load_baseline(path) {
            Ok(b) => Some(b),
            Err(e) => {
                error_line(&e);
                return exit::INPUT;
            }
        },
        None => None,
    };
    let format = Format::from(a.common.format);
    let mut out = Out { broken: false };
    let apply_baseline = |r: &mut billaudit::pipeline::SourceResult| {
        if let (Some(b), Ok(bills)) = (&baseline, r) {
            billaudit::audit::baseline::apply(bills, b, a.max_increase, &opts.policy);
        }
    };
    let report = if format == Format::Jsonl {
        billaudit::pipeline::audit_paths_streaming(&a.common.paths, &opts, &mut |_, r| {
            apply_baseline(r);
            out.write(&json::lines_of(r));
        })
    } else {
        let report =
            billaudit::pipeline::audit_paths_streaming(&a.common.paths, &opts, &mut |_, r| {
                apply_baseline(r);
            });
        let ctx = Context {
            fail_on: opts.policy.fail_on,
            check: false,
            paint: a.common.color.paint(format == Format::Human),
            require_expectations: false,
        };
        out.render(ctx.paint, |w| report::write(&report, format, &ctx, w));
        report
    };
    print_errors(&report);
    // A closed pipe leaves the exit code as the result decides it.
    exit::audit(&report.errors, &report.bills)
}

fn load_baseline(path: &std::path::Path) -> Result<billaudit::audit::baseline::Baseline, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let report: json::JsonReport = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}: not a billaudit JSON report: {e}",
            path.display(),
            e.line()
        )
    })?;
    Ok(billaudit::audit::baseline::Baseline::from(&report))
}
