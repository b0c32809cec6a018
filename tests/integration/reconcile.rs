//! Reconciliation as the safety net of the text-invoice reader: items that
//! add up to a whole multiple of a stated total are reported as a wrong
//! parse (`parse-double-counted`), not passed; a stated total that agrees
//! is said to agree.

use crate::common::{audit_json, codes, run, stderr, stdout};

const RESTATED: &str = "tests/data/reconcile/usage-breakdown.txt";
const CHARGES: &str = "tests/data/reconcile/restated-charges.txt";
const AGREES: &str = "tests/data/reconcile/agrees.txt";

/// A layout the reader does not know: each service line is followed by an
/// indented per-resource usage line restating its amount (`gpu-node-01
/// 400 h @ 3.00   1,200.00`), and both are read as items.
/// The layout, which the reader now knows: a service line followed by
/// an indented `Charges` line restating it is one item.
/// 1,200.00 + 300.00 + 45.50 = 1,545.50, the stated `Total`.
#[test]
fn a_service_line_restated_by_its_charges_line_is_one_item() {
    let (r, out) = audit_json(&[CHARGES]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let b = &r.bills[0];
    assert_eq!(b.line_items, 3);
    assert_eq!(b.total, "1545.50");
    assert_eq!(b.stated_total.as_deref(), Some("1545.50"));
    assert!(!codes(b).contains(&"parse-double-counted".to_string()));
}

#[test]
fn items_read_twice_are_reported_not_passed() {
    let (r, out) = audit_json(&[RESTATED]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let b = &r.bills[0];
    // Each charge twice: (1,200.00 + 300.00 + 45.50) x 2 = 1,545.50 x 2 = 3,091.00,
    // against the stated `Total 1,545.50` on line 15.
    assert_eq!(b.subtotal, "3091.00");
    assert_eq!(b.stated_total.as_deref(), Some("1545.50"));
    assert!(!b.passed);
    let f: Vec<_> = b
        .findings
        .iter()
        .filter(|f| f.code == "parse-double-counted")
        .collect();
    assert_eq!(f.len(), 1, "{:?}", b.findings);
    assert_eq!(f[0].severity, billaudit::model::Severity::Error);
    assert_eq!(f[0].line, Some(15));
    assert!(
        f[0].message
            .contains("3091.00 USD, exactly 2 times the stated figure 1545.50 USD"),
        "{}",
        f[0].message
    );
    assert!(codes(b).contains(&"total-mismatch".to_string()));
    // The human report says the stated total differs: 1,545.50 - 3,091.00 = -1,545.50.
    let human = stdout(&run(&["audit", RESTATED]));
    assert!(
        human.contains("stated total      1545.50  differs from the lines by -1545.50"),
        "{human}"
    );
}

/// The same charges read once: the stated subtotal and total agree, and the
/// report says so.
#[test]
fn a_stated_total_that_agrees_is_said_to_agree() {
    let (r, out) = audit_json(&[AGREES]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let b = &r.bills[0];
    // 1,200.00 + 300.00 + 45.50 = 1,545.50.
    assert_eq!(b.subtotal, "1545.50");
    assert_eq!(b.total, "1545.50");
    assert!(b.findings.is_empty(), "{:?}", b.findings);
    let human = stdout(&run(&["audit", AGREES]));
    assert!(
        human.contains("stated subtotal   1545.50  agrees with the lines"),
        "{human}"
    );
    assert!(
        human.contains("stated total      1545.50  agrees with the lines"),
        "{human}"
    );
}
