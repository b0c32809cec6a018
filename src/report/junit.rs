//! `--format junit`: JUnit XML (written by `quick-junit`). One testsuite per
//! bill, one testcase per check, failing where the check fails at or above
//! `--fail-on`. For `check`, each bill file gets an `expectation` testcase.

use quick_junit::{NonSuccessKind, Report as JUnit, TestCase, TestCaseStatus, TestSuite};

use super::Context;
use crate::audit::CHECKS;
use crate::expect::Report;
use crate::expect::Status;

fn suite_name(path: &str, currency: Option<&str>) -> String {
    match currency {
        Some(c) => format!("{path} [{c}]"),
        None => path.to_string(),
    }
}

pub fn render(report: &Report, ctx: &Context) -> String {
    let mut junit = JUnit::new("billaudit");
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
            if let Some(o) = report.expectations.iter().find(|o| o.path == b.path) {
                suite.add_test_case(expectation_case(o, &name));
            }
        }
        junit.add_test_suite(suite);
    }
    for e in &report.errors {
        let path = e.path().unwrap_or("input").to_string();
        let mut suite = TestSuite::new(path.as_str());
        if ctx.check {
            if let Some(o) = report.expectations.iter().find(|o| o.path == path) {
                suite.add_test_case(expectation_case(o, &path));
                junit.add_test_suite(suite);
                continue;
            }
        }
        let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
        s.set_type("input-error");
        s.set_message(e.to_string());
        let mut case = TestCase::new("read", s);
        case.set_classname(path.as_str());
        suite.add_test_case(case);
        junit.add_test_suite(suite);
    }
    let mut out = junit.to_string().unwrap_or_default();
    out.push('\n');
    out
}

fn expectation_case(o: &crate::expect::Outcome, classname: &str) -> TestCase {
    let status = match &o.status {
        Status::Matched | Status::Blessed => TestCaseStatus::success(),
        Status::Missing => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(format!("no expectation file ({})", o.expectation));
            s
        }
        Status::Mismatch(d) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type("expectation-mismatch");
            s.set_message(format!("{} differs from {}", o.path, o.expectation));
            s.set_description(d.join("\n"));
            s
        }
        Status::Broken(m) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_type("expectation-broken");
            s.set_message(m.as_str());
            s
        }
    };
    let mut case = TestCase::new("expectation", status);
    case.set_classname(classname);
    case
}
