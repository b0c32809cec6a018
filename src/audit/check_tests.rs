//! Unit tests of the share checks, the stated-figure checks and the small
//! per-line checks, on figures and line items built by hand: every expected
//! figure is worked out in the comment beside it.

use rust_decimal::Decimal;

use super::*;
use crate::model::{Category, Finding, LineItem, Totals};

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn totals(items: &[(Category, &str)]) -> Totals {
    let mut t = Totals::default();
    for (c, a) in items {
        t.checked_add(*c, d(a)).unwrap();
    }
    t
}

/// Runs one bill-level check on the totals (subtotal and hidden as the
/// bill computes them) and returns the messages.
fn bill_check(
    items: &[(Category, &str)],
    t: &Thresholds,
    check: fn(&Figures<'_>, &Thresholds, &mut Sink<'_>),
) -> Vec<String> {
    let totals = totals(items);
    let f = Figures {
        totals: &totals,
        subtotal: totals.sum(Category::in_subtotal),
        hidden: totals.sum(Category::is_hidden),
    };
    let p = Policy::default();
    let mut sink = Sink::new("b.csv", &p);
    check(&f, t, &mut sink);
    sink.finish().into_iter().map(|f| f.message).collect()
}

use Category::*;

#[test]
fn hidden_fee_share_fires_strictly_above_five_percent() {
    let t = Thresholds::default();
    // 3.00 + 2.00 = 5.00 of 100.00: exactly 5%, passes.
    let at = [
        (Compute, "95.00"),
        (Bandwidth, "3.00"),
        (Scheduling, "2.00"),
    ];
    assert!(bill_check(&at, &t, hidden_fee_share::check).is_empty());
    // 5.01 of 100.01 = 5.0095% -> 5.01%; storage_replica is 0 and not named.
    let above = [
        (Compute, "95.00"),
        (Bandwidth, "3.01"),
        (Scheduling, "2.00"),
    ];
    assert_eq!(
        bill_check(&above, &t, hidden_fee_share::check),
        [
            "hidden fees are 5.01% of the subtotal (5.01 of 100.01: bandwidth 3.01, scheduling 2.00), above the 5.00% threshold"
        ]
    );
    // A subtotal of -5.00 (a compute refund): no share to speak of.
    let negative = [(Compute, "-10.00"), (Bandwidth, "5.00")];
    assert!(bill_check(&negative, &t, hidden_fee_share::check).is_empty());
}

#[test]
fn replica_share_fires_strictly_above_thirty_percent() {
    let t = Thresholds::default();
    // 30.00 of 100.00 = 30%: passes; 30.01 of 100.00 = 30.01%: fires.
    let at = [
        (Compute, "50.00"),
        (Storage, "20.00"),
        (StorageReplica, "30.00"),
    ];
    assert!(bill_check(&at, &t, replica_share::check).is_empty());
    let above = [
        (Compute, "49.99"),
        (Storage, "20.00"),
        (StorageReplica, "30.01"),
    ];
    assert_eq!(
        bill_check(&above, &t, replica_share::check),
        [
            "storage replicas are 30.01% of the subtotal (30.01 of 100.00), above the 30.00% threshold"
        ]
    );
    // Subtotal -10.00 + 5.00 = -5.00: nothing.
    let negative = [(Compute, "-10.00"), (StorageReplica, "5.00")];
    assert!(bill_check(&negative, &t, replica_share::check).is_empty());
}

#[test]
fn replica_redundancy_fires_strictly_above_one_point_two() {
    let t = Thresholds::default();
    // (100.00 + 20.00) / 100.00 = 1.2: passes.
    let at = [(Storage, "100.00"), (StorageReplica, "20.00")];
    assert!(bill_check(&at, &t, replica_redundancy::check).is_empty());
    // (100.00 + 20.01) / 100.00 = 1.2001 -> 1.20x.
    let above = [(Storage, "100.00"), (StorageReplica, "20.01")];
    assert_eq!(
        bill_check(&above, &t, replica_redundancy::check),
        ["storage redundancy is 1.20x (storage 100.00 + replicas 20.01), above 1.2x"]
    );
    // (20.00 + 30.00) / 20.00 = 2.5.
    let twice = [(Storage, "20.00"), (StorageReplica, "30.00")];
    assert_eq!(
        bill_check(&twice, &t, replica_redundancy::check),
        ["storage redundancy is 2.50x (storage 20.00 + replicas 30.00), above 1.2x"]
    );
    // Replicas without primary storage.
    assert_eq!(
        bill_check(&[(StorageReplica, "5.00")], &t, replica_redundancy::check),
        ["storage replicas cost 5.00 with no primary storage billed"]
    );
    // No replicas: nothing.
    assert!(bill_check(&[(Storage, "5.00")], &t, replica_redundancy::check).is_empty());
    // storage + replicas overflows: 7e28 + 1.4e28 > MAX; the ratio
    // 1.4e28 / 7e28 + 1 = 1.2 exactly: passes; 1.5e28: 1.2142... fires.
    let big = [
        (Storage, "70000000000000000000000000000"),
        (StorageReplica, "14000000000000000000000000000"),
    ];
    assert!(bill_check(&big, &t, replica_redundancy::check).is_empty());
    let bigger = [
        (Storage, "70000000000000000000000000000"),
        (StorageReplica, "15000000000000000000000000000"),
    ];
    assert_eq!(bill_check(&bigger, &t, replica_redundancy::check).len(), 1);
}

#[test]
fn scheduling_fee_share_fires_strictly_above_eight_percent_of_compute() {
    let t = Thresholds::default();
    // 8.00 of 100.00 compute = 8%: passes; 8.01: 8.01%.
    assert!(
        bill_check(
            &[(Compute, "100.00"), (Scheduling, "8.00")],
            &t,
            scheduling_fee_share::check
        )
        .is_empty()
    );
    assert_eq!(
        bill_check(
            &[(Compute, "100.00"), (Scheduling, "8.01")],
            &t,
            scheduling_fee_share::check
        ),
        ["scheduling fees are 8.01% of compute (8.01 of 100.00), above the 8.00% threshold"]
    );
    assert_eq!(
        bill_check(&[(Scheduling, "5.00")], &t, scheduling_fee_share::check),
        ["scheduling fees of 5.00 are billed with no compute"]
    );
    assert!(bill_check(&[(Compute, "5.00")], &t, scheduling_fee_share::check).is_empty());
}

fn stated(sub: Option<&str>, total: Option<&str>) -> Vec<(Option<u64>, String)> {
    // Lines: 100.05 compute + 8.00 tax - 10.00 credit = 98.05; subtotal 100.05.
    let totals = totals(&[(Compute, "100.05"), (Tax, "8.00"), (Credit, "-10.00")]);
    let f = Figures {
        totals: &totals,
        subtotal: d("100.05"),
        hidden: Decimal::ZERO,
    };
    let p = Policy::default();
    let mut sink = Sink::new("b.csv", &p);
    subtotal_mismatch::check(sub.map(|s| (9, d(s))), &f, Some("USD"), &mut sink);
    total_mismatch::check(
        total.map(|s| (10, d(s))),
        &f,
        d("98.05"),
        Some("USD"),
        &mut sink,
    );
    sink.finish()
        .into_iter()
        .map(|f| (f.line, f.message))
        .collect()
}

#[test]
fn stated_figures_are_held_to_their_own_half_unit() {
    // 100.1 allows 0.05: 100.05 is exactly 0.05 off; 98.1 likewise.
    assert!(stated(Some("100.1"), Some("98.1")).is_empty());
    assert!(stated(Some("100.0"), Some("98.0")).is_empty());
    assert!(stated(None, None).is_empty());
    // 100.2 - 100.05 = 0.15; 97.9 - 98.05 = -0.15.
    assert_eq!(
        stated(Some("100.2"), Some("97.9")),
        [
            (
                Some(9),
                "stated subtotal 100.2 USD differs from the sum of the item lines 100.05 by 0.15".to_string()
            ),
            (
                Some(10),
                "stated total 97.9 USD differs from the lines' total 98.05 (subtotal 100.05 + tax 8.00 + credits -10.00) by -0.15".to_string()
            ),
        ]
    );
}

#[test]
fn a_subtotal_after_the_credits_printed_among_the_items_agrees() {
    // Items 100.05, credit -10.00: an invoice that prints its discount as a
    // position states the subtotal after it, 100.05 - 10.00 = 90.05.
    assert!(stated(Some("90.05"), None).is_empty());
    // Neither 100.05 nor 90.05: 95.05 - 100.05 = -5.00.
    assert_eq!(
        stated(Some("95.05"), None),
        [(
            Some(9),
            "stated subtotal 95.05 USD differs from the sum of the item lines 100.05 by -5.00"
                .to_string()
        )]
    );
}

fn item(category: Category, desc: &str, amount: &str) -> LineItem {
    let mut i = LineItem::new(4, desc, d(amount));
    i.category = category;
    i
}

fn per_line<'a>(
    check: fn(&LineItem, &mut Sink<'a>),
    item: &LineItem,
    policy: &'a Policy,
) -> Vec<Finding> {
    let mut sink = Sink::new("b.csv", policy);
    check(item, &mut sink);
    sink.finish()
}

#[test]
fn ingress_charged_on_positive_inbound_bandwidth() {
    let p = Policy::default();
    let mut i = item(Bandwidth, "Data Transfer In", "1.20");
    i.quantity = Some(d("12"));
    i.unit = Some("GB".into());
    i.currency = Some("USD".into());
    let f = per_line(ingress_charged::check, &i, &p);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].line, Some(4));
    assert_eq!(
        f[0].message,
        "inbound traffic is charged: Data Transfer In for 12 GB costs 1.20 USD; confirm the bandwidth price covers both directions"
    );
    // A quantity without unit, and none at all.
    i.unit = None;
    assert!(
        per_line(ingress_charged::check, &i, &p)[0]
            .message
            .contains(": Data Transfer In for 12 costs")
    );
    i.quantity = None;
    assert!(
        per_line(ingress_charged::check, &i, &p)[0]
            .message
            .contains(": Data Transfer In costs")
    );
    // The direction may be in the unit.
    let mut u = item(Bandwidth, "traffic", "1.00");
    u.unit = Some("GB ingress".into());
    assert_eq!(per_line(ingress_charged::check, &u, &p).len(), 1);
    // Free, credited, outbound or not bandwidth: nothing.
    for (c, desc, a) in [
        (Bandwidth, "Data Transfer In", "0.00"),
        (Bandwidth, "Data Transfer In", "-1.00"),
        (Bandwidth, "Data Transfer Out", "1.00"),
        (Other, "Data Transfer In", "1.00"),
    ] {
        assert!(
            per_line(ingress_charged::check, &item(c, desc, a), &p).is_empty(),
            "{desc} {a}"
        );
    }
    // Both directions named: not inbound only.
    assert!(!ingress_charged::is_inbound("ingress and egress"));
    assert!(ingress_charged::is_inbound("ingress"));
    assert!(!ingress_charged::is_inbound("storage"));
}

#[test]
fn unclassified_items_are_counted_with_the_first_named() {
    let p = Policy::default();
    let mut t = unclassified_items::Tally::default();
    let mut a = item(Other, "mystery fee", "2.50");
    a.rule = crate::classify::rules::UNCLASSIFIED.into();
    let mut b = item(Other, "other fee", "1.25");
    b.line = 9;
    b.rule = crate::classify::rules::UNCLASSIFIED.into();
    let mut known = item(Compute, "gpu", "100.00");
    known.rule = "builtin:gpu".into();
    t.add(&known, 0);
    t.add(&a, 1);
    t.add(&b, 1);
    let mut sink = Sink::new("b.csv", &p);
    sink.begin_part("b_1.csv");
    sink.begin_part("b_2.csv");
    t.report(Some("USD"), &mut sink);
    let f = sink.finish();
    // 2.50 + 1.25 = 3.75.
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].path.as_str(), f[0].line), ("b_2.csv", Some(4)));
    assert_eq!(
        f[0].message,
        "2 items (3.75 USD) matched no rule and count as `other`; the first is `mystery fee`"
    );
    // One item: singular.
    let mut t = unclassified_items::Tally::default();
    t.add(&a, 0);
    let mut sink = Sink::new("b.csv", &p);
    t.report(None, &mut sink);
    assert_eq!(
        sink.finish()[0].message,
        "1 item (2.50) matched no rule and count as `other`; the first is `mystery fee`"
    );
}

fn book(max: &str, unit: Option<&str>, currency: Option<&str>) -> Policy {
    Policy {
        price_book: rate_above_reference::PriceBook {
            entries: vec![rate_above_reference::PriceEntry {
                pattern: "rtx 4090".into(),
                unit: unit.map(String::from),
                currency: currency.map(String::from),
                max: d(max),
                source: Some("market 2025-10".into()),
            }],
        },
        ..Policy::default()
    }
}

#[test]
fn rate_above_reference_the_documented_example() {
    let p = book("2.00", Some("hour"), Some("CNY"));
    let mut i = item(Compute, "RTX 4090 GPU", "25.00");
    i.quantity = Some(d("10"));
    i.unit = Some("hours".into());
    i.unit_price = Some(d("2.50"));
    // 2.50 - 2.00 = 0.50 over; 0.50 x 10 = 5.00 (at the amount's 2 places).
    let f = per_line(rate_above_reference::check, &i, &p);
    assert_eq!(f.len(), 1);
    assert_eq!(
        f[0].message,
        "unit price 2.50 CNY is above the price book's 2.00 CNY for `rtx 4090` (market 2025-10): 0.50 CNY over per unit, an overcharge of 5.00 CNY on 10 hours: RTX 4090 GPU"
    );
    // Without a unit price: 25.00 / 10 = 2.5, the same finding.
    i.unit_price = None;
    assert!(
        per_line(rate_above_reference::check, &i, &p)[0]
            .message
            .starts_with("unit price 2.5 CNY")
    );
    // At the price (20.00 / 10 = 2): nothing.
    i.amount = d("20.00");
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
    // Just above: 20.10 / 10 = 2.01.
    i.amount = d("20.10");
    assert_eq!(per_line(rate_above_reference::check, &i, &p).len(), 1);
    // A zero or negative quantity gives no price.
    i.quantity = Some(Decimal::ZERO);
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
    i.quantity = Some(d("-1"));
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
}

#[test]
fn rate_above_reference_matching_rules() {
    let p = book("2.00", Some("hour"), Some("CNY"));
    let mut i = item(Compute, "RTX 4090 GPU", "25.00");
    i.quantity = Some(d("10"));
    i.unit = Some("hours".into());
    // Another unit: the entry does not apply.
    i.unit = Some("days".into());
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
    i.unit = None;
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
    i.unit = Some("hours".into());
    // Another currency: skipped; the same one in other case: applies.
    i.currency = Some("USD".into());
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
    i.currency = Some("cny".into());
    assert_eq!(per_line(rate_above_reference::check, &i, &p).len(), 1);
    // Another description: no entry.
    i.description = "A100".into();
    assert!(per_line(rate_above_reference::check, &i, &p).is_empty());
    // A credit line above the price is no overcharge.
    let mut c = item(Credit, "RTX 4090 GPU", "-25.00");
    c.unit_price = Some(d("9.00"));
    assert!(per_line(rate_above_reference::check, &c, &p).is_empty());
    // No quantity: the message has no overcharge part; no source, no
    // currency: bare figures.
    let p = Policy {
        price_book: rate_above_reference::PriceBook {
            entries: vec![rate_above_reference::PriceEntry {
                pattern: "rtx 4090".into(),
                unit: None,
                currency: None,
                max: d("2.00"),
                source: None,
            }],
        },
        ..Policy::default()
    };
    let mut u = item(Compute, "RTX 4090 GPU", "25.00");
    u.unit_price = Some(d("2.50"));
    assert_eq!(
        per_line(rate_above_reference::check, &u, &p)[0].message,
        "unit price 2.50 is above the price book's 2.00 for `rtx 4090`: 0.50 over per unit: RTX 4090 GPU"
    );
    // An empty book: nothing.
    assert!(per_line(rate_above_reference::check, &u, &Policy::default()).is_empty());
}

#[test]
fn gpu_usage_per_model() {
    use chrono::NaiveDateTime;
    let t = |s: &str| Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap());
    let mut g = gpu_usage::GpuTally::default();
    // 2 hours, 1.40, timed, on 10-01.
    let mut a = item(Compute, "RTX 4090 pod", "1.40");
    a.quantity = Some(d("2"));
    a.unit = Some("hours".into());
    a.start = t("2025-10-01 00:00:00");
    a.end = t("2025-10-01 02:00:00");
    // 1 day = 24 hours, 10.00, dated 10-03 only (not timed).
    let mut b = item(Compute, "RTX 4090 pod", "10.00");
    b.quantity = Some(d("1"));
    b.unit = Some("days".into());
    b.start = t("2025-10-03 00:00:00");
    // Unpriced: no quantity (5.00), a unit that is no time (2.00).
    let c = item(Compute, "RTX 4090 pod", "5.00");
    let mut e = item(Compute, "RTX 4090 pod", "2.00");
    e.quantity = Some(d("3"));
    e.unit = Some("GB".into());
    // Not counted: storage, compute without a model.
    let s = item(Storage, "RTX 4090 disk", "9.00");
    let mut cpu = item(Compute, "cpu vm", "9.00");
    cpu.quantity = Some(d("1"));
    cpu.unit = Some("hours".into());
    // A100: 1 hour, 3.00, undated.
    let mut h = item(Compute, "A100", "3.00");
    h.quantity = Some(d("1"));
    h.unit = Some("h".into());
    let memo = &mut usage::Memo::default();
    for i in [&a, &b, &c, &e, &s, &cpu, &h] {
        g.add(i, memo);
    }
    let u = g.finish();
    assert_eq!(u.len(), 2);
    let (a100, rtx) = (&u[0], &u[1]);
    assert_eq!(a100.model, "A100");
    assert_eq!(
        (
            a100.hours,
            a100.paid,
            a100.lines,
            a100.timed_lines,
            a100.days
        ),
        (d("1"), d("3.00"), 1, 0, 0)
    );
    assert_eq!(
        (a100.first, a100.last, a100.unpriced_lines),
        (None, None, 0)
    );
    assert_eq!(rtx.model, "RTX 4090");
    // 2 + 24 = 26 hours; 1.40 + 10.00 = 11.40; days 10-01 and 10-03.
    assert_eq!(
        (rtx.hours, rtx.paid, rtx.lines, rtx.timed_lines, rtx.days),
        (d("26"), d("11.40"), 2, 1, 2)
    );
    assert_eq!(rtx.first, t("2025-10-01 00:00:00"));
    assert_eq!(rtx.last, t("2025-10-03 00:00:00"));
    // 5.00 + 2.00 = 7.00 unpriced on 2 lines.
    assert_eq!((rtx.unpriced_lines, rtx.unpriced_amount), (2, d("7.00")));
}

/// A bill of 95.40 compute + 4.60 bandwidth: hidden share 4.60 / 100.00 =
/// 0.046000 (under the 5% threshold: no finding of its own).
fn baseline_bill(policy: &Policy) -> Bill {
    let mut b = BillState::new("oct.csv", "csv", Some("USD".into()), policy);
    for (line, c, a) in [(2, Compute, "95.40"), (3, Bandwidth, "4.60")] {
        let mut i = item(c, "x", a);
        i.line = line;
        b.add_item(&i);
    }
    b.finish()
}

/// The baseline report: the same bill with hidden share `previous` and one
/// `idle-storage` finding on line 3.
fn baseline_report(previous: &str) -> baseline::Baseline {
    let findings = vec![Finding {
        code: Check::IdleStorage,
        severity: crate::model::Severity::Warning,
        message: "m".into(),
        path: "oct.csv".into(),
        line: Some(3),
        accepted: None,
    }];
    baseline::Baseline {
        bills: vec![baseline::BaselineBill {
            path: "oct.csv".into(),
            currency: Some("USD".into()),
            hidden_share: Some(d(previous)),
            findings,
        }],
    }
}

#[test]
fn baseline_hidden_share_increase_and_finding_diff() {
    let p = Policy::default();
    // 0.046 - 0.031 = 0.015 = 1.5 points > 1.
    let mut bills = vec![baseline_bill(&p)];
    assert!(bills[0].passed);
    baseline::apply(&mut bills, &baseline_report("0.031000"), Decimal::ONE, &p);
    let b = &bills[0];
    assert_eq!(b.findings.len(), 1);
    assert_eq!(
        b.findings[0].message,
        "the hidden share grew from 3.10% to 4.60% (+1.50 points), more than the 1-point limit"
    );
    assert_eq!(b.findings[0].code, Check::HiddenShareIncrease);
    assert!(!b.passed);
    let diff = b.baseline.as_ref().unwrap();
    assert!(diff.found);
    assert_eq!(diff.previous_hidden_share, Some(d("0.031000")));
    // The diff compares the findings of the audit itself (none), not the
    // increase finding added by the comparison.
    assert!(diff.new_findings.is_empty());
    assert_eq!(diff.vanished_findings, ["idle-storage:3"]);
    // 0.046 - 0.036 = 1.0 point: not more than 1.
    let mut bills = vec![baseline_bill(&p)];
    baseline::apply(&mut bills, &baseline_report("0.036"), Decimal::ONE, &p);
    assert!(bills[0].findings.is_empty());
    assert!(bills[0].passed);
    // A share past the Decimal range in the baseline file: (0.046 + 7e28)
    // x 100 overflows and saturates upwards.
    let mut bills = vec![baseline_bill(&p)];
    baseline::apply(
        &mut bills,
        &baseline_report("-70000000000000000000000000000"),
        Decimal::ONE,
        &p,
    );
    assert_eq!(bills[0].findings.len(), 1);
    assert!(
        bills[0].findings[0]
            .message
            .contains("(+79228162514264337593543950335 points)")
    );
    // A bill the baseline does not have: not found, nothing compared.
    let mut other = baseline_bill(&p);
    other.path = "nov.csv".into();
    let mut bills = vec![other];
    baseline::apply(&mut bills, &baseline_report("0.001"), Decimal::ONE, &p);
    assert!(bills[0].findings.is_empty());
    assert!(!bills[0].baseline.as_ref().unwrap().found);
}
