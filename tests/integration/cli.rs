//! Process-level tests: exit codes, both output formats, stdin, errors.

use crate::common::*;

#[test]
fn json_report_of_a_fixture() {
    let (r, out) = audit_json(&["fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(r.schema_version, 1);
    assert!(!r.passed);
    let b = &r.bills[0];
    assert_eq!(b.total, "241.75");
    assert_eq!(b.hidden_share.as_deref(), Some("0.085646"));
}
