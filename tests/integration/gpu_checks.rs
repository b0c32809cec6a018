//! The GPU renters' checks (issue 11): each fires on its fixture and stays
//! quiet on a nearly identical one. Expected figures are computed by hand in
//! the comments.

use billaudit::report::json::JsonBill;

use crate::common::{audit_one, fixture, real_data};

fn findings<'a>(bill: &'a JsonBill, code: &str) -> Vec<(&'a str, Option<u64>)> {
    bill.findings
        .iter()
        .filter(|f| f.code == code)
        .map(|f| (f.message.as_str(), f.line))
        .collect()
}

#[test]
fn idle_storage_fires_per_resource_and_for_the_bill() {
    let bill = audit_one(&fixture("gpu/idle-storage.csv"));
    let f = findings(&bill, "idle-storage");
    assert_eq!(f.len(), 2, "{f:?}");
    // pod-a computes on 10-01 and 10-02; its disk bills 10-01..10-05:
    // 3 idle days x 0.50.
    assert_eq!(f[0].1, Some(4));
    assert!(f[0].0.contains("`pod-a`"), "{}", f[0].0);
    assert!(f[0].0.contains("no compute of its own"), "{}", f[0].0);
    assert!(
        f[0].0.contains(
            "3 days with no compute of its own (2025-10-03, 2025-10-04, 2025-10-05): 1.50 USD"
        ),
        "{}",
        f[0].0
    );
    // vol-01 has no compute of its own: compared with the bill's compute
    // days (10-01, 10-02): 10-03 and 10-04 idle, 2 x 2.00.
    assert_eq!(f[1].1, Some(9));
    assert!(
        f[1].0.contains(
            "2 days with no compute anywhere in the bill (2025-10-03, 2025-10-04): 4.00 USD"
        ),
        "{}",
        f[1].0
    );
}

#[test]
fn idle_storage_is_quiet_while_the_gpu_runs() {
    let bill = audit_one(&fixture("gpu/idle-storage-busy.csv"));
    assert!(
        findings(&bill, "idle-storage").is_empty(),
        "{:?}",
        bill.findings
    );
}

#[test]
fn idle_storage_shares_out_a_range_over_its_days() {
    // alibaba-detail: the GPU ran 10-01 00:00 to 10-05 04:00; the system
    // disk bills 10-01 to 10-31 00:00 (30 days, 14.40): 25 idle days,
    // 14.40 x 25 / 30 = 12.00.
    let bill = audit_one(&fixture("csv/alibaba-detail.csv"));
    let f = findings(&bill, "idle-storage");
    assert!(f[0].0.contains("25 days"), "{}", f[0].0);
    // The bill's currency: the rows' one symbol, 元.
    assert!(f[0].0.contains("about 12.00 CNY of storage"), "{}", f[0].0);
}

#[test]
fn idle_storage_compares_monthly_rows_by_month() {
    // One disk row per month, dated when posted (10-31): the GPU computed
    // in October, so the month is not idle.
    let bill = audit_one(&fixture("csv/gpu-platform-cn-utf8bom.csv"));
    assert!(
        findings(&bill, "idle-storage").is_empty(),
        "{:?}",
        bill.findings
    );
}

#[test]
fn ingress_charged_fires_on_paid_inbound_only() {
    let bill = audit_one(&fixture("gpu/ingress-charged.csv"));
    let f = findings(&bill, "ingress-charged");
    assert_eq!(
        f.iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![Some(3), Some(4)]
    );
    assert!(f[0].0.contains("5.00 USD"), "{}", f[0].0);
    let bill = audit_one(&fixture("gpu/ingress-charged-cn.csv"));
    let f = findings(&bill, "ingress-charged");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].0.contains("公网入方向流量"), "{}", f[0].0);
    let bill = audit_one(&fixture("gpu/ingress-free.csv"));
    assert!(findings(&bill, "ingress-charged").is_empty());
}

#[test]
fn ingress_charged_on_the_real_azure_ea_sample() {
    let Some(dir) = real_data() else { return };
    let bill = audit_one(&dir.join("azure/sample-anonymous-ea-export-dataset.csv"));
    let f = findings(&bill, "ingress-charged");
    // Seven ingress rows: five VNet peering / Private Link ingress rows
    // with a cost, two with 0 (not findings). The egress rows are not
    // inbound.
    assert_eq!(f.len(), 5, "{f:?}");
    assert!(f.iter().all(|x| x.0.contains("Ingress")), "{f:?}");
    assert_eq!(
        f.iter().filter(|x| x.0.contains("Peering")).count(),
        4,
        "{f:?}"
    );
    assert!(f.iter().any(|x| x.0.contains("0.131532691 CAD")), "{f:?}");
}

#[test]
fn duplicate_line_keeps_the_first_and_reports_the_rest() {
    let bill = audit_one(&fixture("gpu/duplicate-line.csv"));
    let f = findings(&bill, "duplicate-line");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].1, Some(3));
    assert!(f[0].0.contains("repeats line 2"), "{}", f[0].0);
    // Same amount, but another resource or another day: not duplicates.
    let bill = audit_one(&fixture("gpu/duplicate-line-distinct.csv"));
    assert!(findings(&bill, "duplicate-line").is_empty());
}

#[test]
fn duplicate_line_reads_columns_it_does_not_map() {
    // AWS rows that differ only in lineItem/Operation (and their own
    // identity/LineItemId) are different charges.
    let Some(dir) = real_data() else { return };
    let bill = audit_one(&dir.join("aws-cur/sample-anonymous-aws-export-dataset.csv"));
    assert!(findings(&bill, "duplicate-line").is_empty());
}

#[test]
fn billing_granularity_estimates_per_second_cost() {
    // 3, 5 and 1 hours billed for 2h10m, 4h05m and 20m at 2.00/hour:
    // billed 18.00; per second 2 x (13/6 + 49/12 + 1/3) = 13.1666.. = 13.17.
    let bill = audit_one(&fixture("gpu/billing-granularity-hourly.csv"));
    let f = findings(&bill, "billing-granularity");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].0.contains("3 of 3 timed compute lines"), "{}", f[0].0);
    assert!(f[0].0.contains("billed 18.00 CNY"), "{}", f[0].0);
    assert!(
        f[0].0.contains("about 13.17 CNY (4.83 CNY more"),
        "{}",
        f[0].0
    );
    // The same runs billed per second (fractional hours): quiet.
    let bill = audit_one(&fixture("gpu/billing-granularity-per-second.csv"));
    assert!(findings(&bill, "billing-granularity").is_empty());
}

#[test]
fn billing_granularity_ignores_inclusive_end_times() {
    // tencent-detail: 72 hours from 10-01 00:00:00 to 10-03 23:59:59.
    let bill = audit_one(&fixture("csv/tencent-detail.csv"));
    assert!(findings(&bill, "billing-granularity").is_empty());
}
