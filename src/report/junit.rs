//! `--format junit`: JUnit XML (written by `quick-junit`). One testsuite per
//! bill, one testcase per check, failing where the check fails at or above
//! `--fail-on`. For `check`, each bill file gets one `expectation`
//! testcase: in the suite of its (first) bill, merged bills included, or of
//! its input error, or in a suite of its own.

use quick_junit::{NonSuccessKind, Report as JUnit, TestCase, TestCaseStatus, TestSuite};

use super::{Context, INPUT_ERROR, expectation_code};
use crate::audit::CHECKS;
use crate::expect::{Outcome, Report, Status};

fn suite_name(path: &str, currency: Option<&str>) -> String {
    match currency {
        Some(c) => format!("{path} [{c}]"),
        None => path.to_string(),
    }
}

/// Whether `outcome` is the expectation of the bill reported as `bill`: the
/// same file, or the first part of a merged bill (`a_1.csv + a_2.csv`).
fn belongs(outcome: &Outcome, bill: &str) -> bool {
    bill == outcome.path
        || bill
            .strip_prefix(outcome.path.as_str())
            .is_some_and(|rest| rest.starts_with(" + "))
}

/// The first expectation not yet given a testcase that belongs to `bill`;
/// marked as given.
fn take<'a>(report: &'a Report, given: &mut [bool], bill: &str) -> Option<&'a Outcome> {
    let i = report
        .expectations
        .iter()
        .enumerate()
        .position(|(i, o)| !given[i] && belongs(o, bill))?;
    given[i] = true;
    Some(&report.expectations[i])
}

pub(crate) fn render(report: &Report, ctx: &Context) -> String {
    let mut junit = JUnit::new("billaudit");
    let mut given = vec![false; report.expectations.len()];
    for b in &report.bills {
        let name = suite_name(&b.path, b.currency.as_deref());
        let mut suite = TestSuite::new(name.as_str());
        for check in CHECKS {
            let found: Vec<_> = b
                .findings
                .iter()
                .filter(|f| f.code == check.check)
                .collect();
            let failing: Vec<_> = found.iter().filter(|f| f.fails(ctx.fail_on)).collect();
            let status = if failing.is_empty() || ctx.check {
                TestCaseStatus::success()
            } else {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_type(check.code);
                s.set_message(failing[0].message.as_str());
                let details: Vec<String> = failing
                    .iter()
                    .map(|f| match f.line {
                        Some(l) => format!("{}:{l}: {}: {}", f.path, f.severity, f.message),
                        None => format!("{}: {}: {}", f.path, f.severity, f.message),
                    })
                    .collect();
                s.set_description(details.join("\n"));
                s
            };
            let mut case = TestCase::new(check.code, status);
            case.set_classname(name.as_str());
            if !found.is_empty() && (failing.is_empty() || ctx.check) {
                let notes: Vec<String> = found
                    .iter()
                    .map(|f| format!("{}: {}", f.severity, f.message))
                    .collect();
                case.set_system_out(notes.join("\n"));
            }
            suite.add_test_case(case);
        }
        if ctx.check {
            if let Some(o) = take(report, &mut given, &b.path) {
                suite.add_test_case(expectation_case(o, &name));
            }
        }
        junit.add_test_suite(suite);
    }
    for e in &report.errors {
        let path = e.path().unwrap_or("input").to_string();
        let mut suite = TestSuite::new(path.as_str());
        if ctx.check {
            if let Some(o) = take(report, &mut given, &path) {
                suite.add_test_case(expectation_case(o, &path));
                junit.add_test_suite(suite);
                continue;
            }
        }
        let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
        s.set_type(INPUT_ERROR);
        s.set_message(e.to_string());
        let mut case = TestCase::new("read", s);
        case.set_classname(path.as_str());
        suite.add_test_case(case);
        junit.add_test_suite(suite);
    }
    // An expectation whose file gave neither a bill nor an error of that name.
    if ctx.check {
        for (o, _) in report.expectations.iter().zip(&given).filter(|(_, g)| !**g) {
            let mut suite = TestSuite::new(o.path.as_str());
            suite.add_test_case(expectation_case(o, &o.path));
            junit.add_test_suite(suite);
        }
    }
    let mut out = junit.to_string().unwrap_or_default();
    out.push('\n');
    out
}

fn expectation_case(o: &Outcome, classname: &str) -> TestCase {
    let status = match &o.status {
        Status::Matched | Status::Blessed => TestCaseStatus::success(),
        Status::Missing => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(format!("no expectation file ({})", o.expectation));
            s
        }
        Status::Mismatch(d) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type(expectation_code(&o.status).unwrap_or_default());
            s.set_message(format!("{} differs from {}", o.path, o.expectation));
            s.set_description(d.join("\n"));
            s
        }
        Status::Broken(m) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_type(expectation_code(&o.status).unwrap_or_default());
            s.set_message(m.as_str());
            s
        }
    };
    let mut case = TestCase::new("expectation", status);
    case.set_classname(classname);
    case
}
