use super::*;
use crate::audit::Policy;
use crate::model::{Category, Finding};
use chrono::NaiveDateTime;

fn dt(s: &str) -> NaiveDateTime {
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
}

fn day(s: &str) -> i32 {
    dt(s).date().num_days_from_ce()
}

fn row(
    line: u64,
    category: Category,
    amount: &str,
    resource: Option<&str>,
    desc: &str,
    start: &str,
    end: Option<&str>,
) -> LineItem {
    let mut i = LineItem::new(line, desc, amount.parse().unwrap());
    i.category = category;
    i.resource = resource.map(String::from);
    i.start = Some(dt(start));
    i.end = end.map(dt);
    i
}

fn compute(line: u64, resource: Option<&str>, start: &str, end: Option<&str>) -> LineItem {
    row(line, Category::Compute, "5.00", resource, "gpu", start, end)
}

fn run_with(policy: &Policy, items: &[LineItem]) -> Vec<Finding> {
    let mut s = IdleStorage::default();
    for i in items {
        s.add(i, 0);
    }
    let mut sink = Sink::new("b.csv", policy);
    s.report(Some("USD"), &mut sink);
    sink.finish()
}

fn run(items: &[LineItem]) -> Vec<(Option<u64>, String)> {
    run_with(&Policy::default(), items)
        .into_iter()
        .map(|f| (f.line, f.message))
        .collect()
}

#[test]
fn own_resource_idle_days_and_amount() {
    use Category::*;
    let items = [
        compute(1, Some("pod-7f3a"), "2025-10-01", None),
        row(
            2,
            Storage,
            "2.50",
            Some("pod-7f3a"),
            "container disk",
            "2025-10-01",
            None,
        ),
        row(
            3,
            Storage,
            "2.50",
            Some("pod-7f3a"),
            "container disk",
            "2025-10-02",
            None,
        ),
        row(
            4,
            StorageReplica,
            "2.50",
            Some("pod-7f3a"),
            "container disk",
            "2025-10-03",
            None,
        ),
    ];
    // Idle: 10-02 and 10-03, 2.50 + 2.50 = 5.00.
    assert_eq!(
        run(&items),
        [(
            Some(2),
            "`container disk` for `pod-7f3a` billed on 2 days with no compute of its own \
             (2025-10-02, 2025-10-03): 5.00 USD of storage charges"
                .to_string()
        )]
    );
    // Another pod computing on 10-02 and 10-03 does not cover this one.
    let mut more = items.to_vec();
    more.push(compute(
        5,
        Some("pod-other"),
        "2025-10-02",
        Some("2025-10-04"),
    ));
    assert_eq!(run(&more).len(), 1);
    assert!(run(&more)[0].1.contains("5.00 USD"));
}

#[test]
fn zero_and_negative_rows_are_not_charges() {
    use Category::*;
    let items = [
        compute(1, None, "2025-10-01", None),
        // A zero compute row does not make 10-02 a compute day.
        row(2, Compute, "0.00", None, "gpu", "2025-10-02", None),
        row(3, Compute, "-1.00", None, "gpu", "2025-10-03", None),
        row(4, Storage, "1.00", None, "disk", "2025-10-02", None),
        row(5, Storage, "1.00", None, "disk", "2025-10-03", None),
        // A storage credit is not idle storage.
        row(6, Storage, "-9.00", None, "refund", "2025-10-05", None),
        row(7, Storage, "0.00", None, "free", "2025-10-06", None),
        // Other categories are not compared.
        row(8, Tax, "3.00", None, "vat", "2025-10-07", None),
    ];
    assert_eq!(
        run(&items),
        [(
            Some(4),
            "`disk` billed on 2 days with no compute anywhere in the bill \
             (2025-10-02, 2025-10-03): 2.00 USD of storage charges"
                .to_string()
        )]
    );
    // Without any compute at all: nothing to compare with.
    assert!(run(&items[3..]).is_empty());
}

#[test]
fn a_span_is_shared_out_over_its_days() {
    use Category::*;
    let items = [
        compute(1, None, "2025-10-01", Some("2025-10-03")),
        // 10-01 .. 10-05 00:00: days 1, 2, 3, 4; idle 3 and 4:
        // 10.00 * 2 / 4 = 5.00.
        row(
            2,
            Storage,
            "10.00",
            Some("vol-1"),
            "volume",
            "2025-10-01",
            Some("2025-10-05"),
        ),
        // Fully idle span 10-06 .. 10-08 00:00 (2 days): all 3.00.
        row(
            3,
            Storage,
            "3.00",
            None,
            "snap",
            "2025-10-06",
            Some("2025-10-08"),
        ),
    ];
    assert_eq!(
        run(&items),
        [
            (
                Some(2),
                "`volume` (`vol-1`) billed on 2 days with no compute anywhere in the bill \
                 (2025-10-03, 2025-10-04): about 5.00 USD of storage charges"
                    .to_string()
            ),
            (
                Some(3),
                "`snap` billed on 2 days with no compute anywhere in the bill \
                 (2025-10-06, 2025-10-07): 3.00 USD of storage charges"
                    .to_string()
            ),
        ]
    );
    // Same compute row twice (deduplicated) changes nothing.
    let mut twice = items.to_vec();
    twice.insert(1, compute(9, None, "2025-10-01", Some("2025-10-03")));
    assert_eq!(run(&twice), run(&items));
}

#[test]
fn monthly_rows_are_compared_by_month() {
    use Category::*;
    let items = [
        compute(1, None, "2025-10-03", None),
        compute(2, None, "2025-12-31", None),
        // One row a month, dated when posted: Oct computed, Nov idle,
        // Dec computed (on the 31st, the month's last day).
        row(3, Storage, "3.00", None, "snapshot", "2025-10-15", None),
        row(4, Storage, "3.00", None, "snapshot", "2025-11-15", None),
        row(5, Storage, "3.00", None, "snapshot", "2025-12-15", None),
        // A ranged row of the same item is compared by day: 2026-01-01
        // and 01-02 idle, 4.00 in all.
        row(
            6,
            Storage,
            "4.00",
            None,
            "snapshot",
            "2026-01-01",
            Some("2026-01-03"),
        ),
    ];
    // 3.00 (Nov) + 4.00 = 7.00.
    assert_eq!(
        run(&items),
        [(
            Some(3),
            "`snapshot` billed on 2 days and in 1 month (monthly rows) with no compute \
             anywhere in the bill (2025-11, 2026-01-01, 2026-01-02): 7.00 USD of storage charges"
                .to_string()
        )]
    );
    // Only the monthly rows: "in 1 month".
    assert_eq!(
        run(&items[..5])[0].1,
        "`snapshot` billed in 1 month (monthly rows) with no compute anywhere in the bill \
         (2025-11): 3.00 USD of storage charges"
    );
    // Two single-date rows in one month: compared by day (11-15, 11-16).
    let daily = [
        compute(1, None, "2025-11-01", None),
        row(2, Storage, "1.00", None, "disk", "2025-11-15", None),
        row(3, Storage, "1.00", None, "disk", "2025-11-16", None),
    ];
    assert_eq!(
        run(&daily)[0].1,
        "`disk` billed on 2 days with no compute anywhere in the bill \
         (2025-11-15, 2025-11-16): 2.00 USD of storage charges"
    );
}

#[test]
fn ten_days_are_listed_and_the_rest_counted() {
    use Category::*;
    // 10-02 .. 10-12 00:00: 10 idle days, all listed.
    let ten = [
        compute(1, None, "2025-10-01", None),
        row(
            2,
            Storage,
            "10.00",
            None,
            "disk",
            "2025-10-02",
            Some("2025-10-12"),
        ),
    ];
    let f = run(&ten);
    assert!(f[0].1.starts_with("`disk` billed on 10 days"), "{}", f[0].1);
    assert!(f[0].1.contains("2025-10-11): 10.00 USD"), "{}", f[0].1);
    // 10-02 .. 10-14 00:00: 12 idle days, 10 listed, "and 2 more".
    let twelve = [
        compute(1, None, "2025-10-01", None),
        row(
            2,
            Storage,
            "12.00",
            None,
            "disk",
            "2025-10-02",
            Some("2025-10-14"),
        ),
    ];
    let f = run(&twelve);
    assert!(
        f[0].1
            .ends_with("2025-10-11, and 2 more): 12.00 USD of storage charges"),
        "{}",
        f[0].1
    );
    // One idle day: singular; the amount as the bill writes it (1.5).
    let one = [
        compute(1, None, "2025-10-01", None),
        row(
            2,
            Storage,
            "1.5",
            None,
            "disk",
            "2025-10-02",
            Some("2025-10-03"),
        ),
    ];
    assert_eq!(
        run(&one)[0].1,
        "`disk` billed on 1 day with no compute anywhere in the bill (2025-10-02): \
         1.5 USD of storage charges"
    );
}

#[test]
fn month_helpers() {
    assert_eq!(month_of(day("2025-11-15")), (2025, 11));
    assert_eq!(month_of(day("2025-01-01")), (2025, 1));
    assert_eq!(month_of(i32::MAX), (0, 0));
    assert_eq!(
        month_bounds((2025, 12)),
        Some((day("2025-12-01"), day("2025-12-31")))
    );
    // 2024 is a leap year: February has 29 days.
    assert_eq!(
        month_bounds((2024, 2)),
        Some((day("2024-02-01"), day("2024-02-29")))
    );
    assert_eq!(month_bounds((2025, 13)), None);
}

#[test]
fn storage_row_cap_counts_the_rows_not_compared() {
    use Category::*;
    let mut items = vec![compute(1, None, "2025-10-01", None)];
    // 50,000 rows of 0.01 on 10-02 are compared: 500.00; row 50,001 is not.
    for i in 0..=MAX_STORAGE_ROWS as u64 {
        items.push(row(
            i + 2,
            Storage,
            "0.01",
            None,
            "disk",
            "2025-10-02",
            None,
        ));
    }
    let f = run(&items);
    assert_eq!(f.len(), 1);
    assert!(
        f[0].1.ends_with(
            ": 500.00 USD of storage charges (1 rows beyond the per-bill limits were not compared)"
        ),
        "{}",
        f[0].1
    );
}

#[test]
fn group_cap_keeps_known_groups_and_drops_new_ones() {
    use Category::*;
    let mut items = vec![compute(1, None, "2025-10-01", None)];
    for i in 0..MAX_RESOURCES as u64 {
        items.push(row(
            i + 2,
            Storage,
            "1.00",
            None,
            &format!("disk {i}"),
            "2025-10-02",
            Some("2025-10-03"),
        ));
    }
    // A new group is dropped; another row of a known group is kept.
    items.push(row(
        20_000,
        Storage,
        "1.00",
        None,
        "disk new",
        "2025-10-03",
        Some("2025-10-04"),
    ));
    items.push(row(
        20_001,
        Storage,
        "1.00",
        None,
        "disk 0",
        "2025-10-03",
        Some("2025-10-04"),
    ));
    let f = run_with(&Policy::default(), &items);
    // 10,000 groups: 100 listed, then "9900 more (10000 in all)".
    assert_eq!(f.len(), 101);
    assert_eq!(
        f[100].message,
        "9900 more `idle-storage` findings not listed (10000 in all)"
    );
    // disk 0: 10-02 and 10-03 idle, 1.00 + 1.00 = 2.00.
    assert_eq!(
        f[0].message,
        "`disk 0` billed on 2 days with no compute anywhere in the bill \
         (2025-10-02, 2025-10-03): 2.00 USD of storage charges \
         (1 rows beyond the per-bill limits were not compared)"
    );
}

#[test]
fn compute_pair_cap_counts_the_rows_not_compared() {
    use Category::*;
    // 274 resources x 366 days = 100,284 pairs: the 274th row is still
    // kept (99,918 < 100,000 before it), the 275th is not.
    let mut items = Vec::new();
    for i in 0..275u64 {
        items.push(compute(
            i + 1,
            Some(&format!("pod-{i}")),
            "2024-01-01",
            Some("2025-01-01"),
        ));
    }
    // pod-274's disk on 2025-02-01: pod-274 never got its compute days
    // recorded, so it is compared with the bill's days (none in 2025).
    items.push(row(
        900,
        Storage,
        "1.00",
        Some("pod-274"),
        "disk",
        "2025-02-01",
        Some("2025-02-02"),
    ));
    let f = run(&items);
    assert_eq!(
        f,
        [(
            Some(900),
            "`disk` (`pod-274`) billed on 1 day with no compute anywhere in the bill \
             (2025-02-01): 1.00 USD of storage charges \
             (1 rows beyond the per-bill limits were not compared)"
                .to_string()
        )]
    );
}

#[test]
fn a_resource_whose_compute_row_was_dropped_is_not_called_idle() {
    use Category::*;
    // Found on the 10M-row FOCUS bill: `res-004229` had 49 compute rows on
    // 2025-10-03 (from line 694,354, after the pairs' cap) and was reported
    // "with no compute of its own" on that day. Here: vm-x's compute on
    // 2023-06-01 is recorded, its disk is billed on 2024-06-01, the pods
    // fill the cap (274 x 366 = 100,284 pairs, the 275th row dropped), and
    // vm-x's compute on 2024-06-01 comes after it and is dropped too.
    let mut items = vec![
        compute(1, Some("vm-x"), "2023-06-01", None),
        row(
            2,
            Storage,
            "1.00",
            Some("vm-x"),
            "disk",
            "2024-06-01",
            Some("2024-06-02"),
        ),
    ];
    for i in 0..275u64 {
        items.push(compute(
            i + 3,
            Some(&format!("pod-{i}")),
            "2024-01-01",
            Some("2025-01-01"),
        ));
    }
    items.push(compute(900, Some("vm-x"), "2024-06-01", None));
    // On main: "`disk` (`vm-x`) billed on 1 day with no compute of its own
    // (2024-06-01)". Now the bill's days decide: 2024-06-01 has compute.
    assert_eq!(run(&items), []);
}
