//! Audit bills with thresholds of your own and print the JSON report of
//! `billaudit audit --format json` (docs/json-output.md).
//!
//! ```sh
//! cargo run --example custom_thresholds -- 10% fixtures/csv/gpu-pod-en.csv
//! ```
//!
//! The first argument is the `hidden-fee-share` threshold, `10%` or `0.10`.

use std::process::ExitCode;

use billaudit::{Check, Context, Format, Options, Severity, audit_paths, parse_fraction, render};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(share), paths) = (args.next(), args.collect::<Vec<_>>()) else {
        eprintln!("usage: custom_thresholds SHARE BILL...");
        return ExitCode::from(2);
    };
    let threshold = match parse_fraction(&share) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut opts = Options::default();
    opts.policy.thresholds.set(Check::HiddenFeeShare, threshold);
    // Warnings fail a bill too, as `--fail-on warning`.
    opts.policy.fail_on = Severity::Warning;
    let report = audit_paths(&paths, &opts);
    let ctx = Context {
        fail_on: opts.policy.fail_on,
        ..Context::default()
    };
    print!("{}", render(&report, Format::Json, &ctx));
    if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
