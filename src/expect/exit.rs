//! The exit policy of `billaudit audit` and `billaudit check`: which exit
//! code a finished run ends with, decided here from the result alone. A
//! closed stdout pipe (`billaudit check ... | head -1`) does not change it:
//! the binary stops writing quietly and still ends with this code, so a
//! failing result is never exit 0 (docs/decisions.md, "A closed pipe").

use crate::audit::Bill;
use crate::error::Error;

use super::{Outcome, Status};

/// No failing finding (`audit`) or every expectation met (`check`).
pub const OK: u8 = 0;
/// `audit`: a finding at or above the fail level. `check`: an audit that
/// differs from its expectation, or a missing one under `--require-expectations`.
pub const FINDINGS: u8 = 1;
/// A usage or input error.
pub const INPUT: u8 = 2;

/// `billaudit audit`: [`INPUT`] when an input could not be read, else
/// [`FINDINGS`] when a bill did not pass, else [`OK`]. A bill's `passed`
/// already holds the fail level: no finding at or above `fail_on`.
pub fn audit(errors: &[Error], bills: &[Bill]) -> u8 {
    if !errors.is_empty() {
        INPUT
    } else if bills.iter().any(|b| !b.passed) {
        FINDINGS
    } else {
        OK
    }
}

/// The errors no expectation accounts for: an error of a bill file whose
/// expectation matched (or was just blessed) is the expected result, not a
/// failure of the run.
pub fn unexpected_errors<'a>(outcomes: &[Outcome], errors: &'a [Error]) -> Vec<&'a Error> {
    let expected: Vec<&str> = outcomes
        .iter()
        .filter(|o| matches!(o.status, Status::Matched | Status::Blessed))
        .map(|o| o.path.as_str())
        .collect();
    errors
        .iter()
        .filter(|e| !e.path().is_some_and(|p| expected.contains(&p)))
        .collect()
}

/// `billaudit check`: [`INPUT`] when an error is unexpected
/// ([`unexpected_errors`]), else [`FINDINGS`] when an audit differs from its
/// expectation, an expectation file is broken, or (with
/// `require_expectations`) a bill has none; else [`OK`]. The bills' own
/// findings do not fail a check.
pub fn check(outcomes: &[Outcome], errors: &[Error], require_expectations: bool) -> u8 {
    let failed = outcomes.iter().any(|o| match o.status {
        Status::Mismatch(_) | Status::Broken(_) => true,
        Status::Missing => require_expectations,
        Status::Matched | Status::Blessed => false,
    });
    if !unexpected_errors(outcomes, errors).is_empty() {
        INPUT
    } else if failed {
        FINDINGS
    } else {
        OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{BillState, Policy};

    fn outcome(path: &str, status: Status) -> Outcome {
        Outcome {
            path: path.into(),
            expectation: format!("{path}.expect.toml"),
            status,
        }
    }

    fn io_error(path: &str) -> Error {
        Error::Io {
            path: path.into(),
            source: std::io::Error::other("unreadable"),
        }
    }

    fn bill(passed: bool) -> Bill {
        let policy = Policy::default();
        let mut b = BillState::new("a.csv", "csv", Some("USD".into()), &policy).finish();
        b.passed = passed;
        b
    }

    #[test]
    fn audit_is_0_when_every_bill_passes_1_on_a_failing_bill_2_on_an_error() {
        assert_eq!(audit(&[], &[]), 0);
        assert_eq!(audit(&[], &[bill(true), bill(true)]), 0);
        assert_eq!(audit(&[], &[bill(true), bill(false)]), 1);
        // An unreadable input outranks a failing bill.
        assert_eq!(audit(&[io_error("b.csv")], &[bill(false)]), 2);
        assert_eq!(audit(&[io_error("b.csv")], &[bill(true)]), 2);
    }

    #[test]
    fn check_is_0_when_expectations_match_even_with_missing_ones() {
        let o = [
            outcome("a.csv", Status::Matched),
            outcome("b.csv", Status::Blessed),
            outcome("c.csv", Status::Missing),
        ];
        assert_eq!(check(&o, &[], false), 0);
        assert_eq!(check(&[], &[], true), 0);
    }

    #[test]
    fn check_is_1_on_a_mismatch_a_broken_expectation_or_a_required_missing_one() {
        let mismatch = [outcome("a.csv", Status::Mismatch(vec!["total".into()]))];
        assert_eq!(check(&mismatch, &[], false), 1);
        let broken = [outcome("a.csv", Status::Broken("bad toml".into()))];
        assert_eq!(check(&broken, &[], false), 1);
        let missing = [outcome("a.csv", Status::Missing)];
        assert_eq!(check(&missing, &[], true), 1);
        assert_eq!(check(&missing, &[], false), 0);
    }

    #[test]
    fn check_is_2_on_an_error_no_expectation_records() {
        // a.csv's error is its expected result (the expectation matched).
        let o = [
            outcome("a.csv", Status::Matched),
            outcome("b.csv", Status::Missing),
        ];
        let expected = [io_error("a.csv")];
        assert_eq!(check(&o, &expected, false), 0);
        assert!(unexpected_errors(&o, &expected).is_empty());
        // b.csv has no expectation: its error is unexpected, and outranks a mismatch.
        let errors = [io_error("a.csv"), io_error("b.csv")];
        assert_eq!(check(&o, &errors, false), 2);
        let unexpected: Vec<Option<&str>> = unexpected_errors(&o, &errors)
            .iter()
            .map(|e| e.path())
            .collect();
        assert_eq!(unexpected, [Some("b.csv")]);
        let mismatch = [outcome("a.csv", Status::Mismatch(vec!["total".into()]))];
        assert_eq!(check(&mismatch, &[io_error("b.csv")], false), 2);
        // An error without a path (usage) is never an expected result.
        assert_eq!(check(&o, &[Error::Usage("bad flag".into())], false), 2);
    }
}
