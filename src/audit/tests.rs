//! Unit tests of the audit's building blocks: the table, the policy, the
//! sink, the bill builder and the figures.

use rust_decimal::Decimal;

use super::*;
use crate::model::{Category, Finding, LineItem, Totals};

#[test]
fn codes_are_unique_and_kebab_case() {
    let mut codes: Vec<_> = CHECKS.iter().map(|c| c.code).collect();
    for c in &codes {
        assert!(
            c.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{c}"
        );
    }
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), CHECKS.len());
}

#[test]
fn fractions() {
    assert_eq!(parse_fraction("5%").unwrap(), Decimal::new(5, 2));
    assert_eq!(parse_fraction("0.05").unwrap(), Decimal::new(5, 2));
    assert_eq!(parse_fraction(" 12.5 % ").unwrap(), Decimal::new(125, 3));
    assert!(parse_fraction("five").is_err());
    assert!(parse_fraction("-1%").is_err());
}

#[test]
fn shares_round_to_six_places() {
    assert_eq!(
        share(Decimal::new(5, 0), Decimal::new(100, 0))
            .unwrap()
            .to_string(),
        "0.050000"
    );
    assert_eq!(
        share(Decimal::ONE, Decimal::new(3, 0)).unwrap().to_string(),
        "0.333333"
    );
    assert_eq!(share(Decimal::ONE, Decimal::ZERO), None);
    assert_eq!(percent(Decimal::new(5125, 5)), "5.13%");
    assert_eq!(percent(Decimal::MAX), "79228162514264337593543950335 times");
}

fn builder_with<'p>(policy: &'p Policy, items: &[(Category, &str)]) -> BillState<'p> {
    let mut b = BillState::new("inv.txt", "text-invoice", Some("USD".into()), policy);
    for (i, (c, amount)) in items.iter().enumerate() {
        let mut item = LineItem::new(i as u64 + 1, "x", amount.parse().unwrap());
        item.category = *c;
        item.rule = "test".into();
        b.add_item(&item);
    }
    b
}

fn codes_of(bill: &Bill) -> Vec<Check> {
    bill.findings.iter().map(|f| f.code).collect()
}

#[test]
fn stated_subtotal_and_total_have_their_own_codes() {
    let policy = Policy::default();
    let items = [
        (Category::Compute, "100.00"),
        (Category::Tax, "8.00"),
        (Category::Credit, "-10.00"),
    ];
    // Both agree with the lines.
    let mut b = builder_with(&policy, &items);
    b.stated_subtotal = Some((9, "100.00".parse().unwrap()));
    b.stated_total = Some((10, "98.00".parse().unwrap()));
    assert!(b.finish().findings.is_empty());
    // The tolerance is half a unit of the stated figure's last decimal:
    // `98.004` allows 0.0005, so 0.004 off is a mismatch; `98` allows 0.5.
    let mut b = builder_with(&policy, &items);
    b.stated_total = Some((10, "98.004".parse().unwrap()));
    assert!(codes_of(&b.finish()).contains(&Check::TotalMismatch));
    let mut b = builder_with(&policy, &items);
    b.stated_total = Some((10, "98".parse().unwrap()));
    assert!(b.finish().findings.is_empty());
    // The subtotal is off, the total is right.
    let mut b = builder_with(&policy, &items);
    b.stated_subtotal = Some((9, "101.00".parse().unwrap()));
    b.stated_total = Some((10, "98.00".parse().unwrap()));
    let bill = b.finish();
    assert_eq!(codes_of(&bill), [Check::SubtotalMismatch]);
    assert_eq!(bill.findings[0].line, Some(9));
    // The total is off, the subtotal is right.
    let mut b = builder_with(&policy, &items);
    b.stated_subtotal = Some((9, "100.00".parse().unwrap()));
    b.stated_total = Some((10, "108.00".parse().unwrap()));
    let bill = b.finish();
    assert_eq!(codes_of(&bill), [Check::TotalMismatch]);
    assert_eq!(bill.findings[0].line, Some(10));
}

// ---- Mutation-testing unit tests (docs/reliability.md, "Mutation testing") ----

fn finding(code: Check, line: Option<u64>, message: &str) -> Finding {
    Finding {
        code,
        severity: Severity::Warning,
        message: message.into(),
        path: "earlier.csv".into(),
        line,
        accepted: None,
    }
}

#[test]
fn checks_markdown_is_the_checked_in_docs_page() {
    // docs/checks.md is generated from CHECKS (integration test
    // `docs_checks_md_is_generated_from_the_code` regenerates it).
    let md = checks_markdown();
    assert_eq!(md, include_str!("../../docs/checks.md"));
    for c in CHECKS {
        assert!(md.contains(&format!("\n## {}\n\n{}", c.code, explain_text(c))));
    }
}

#[test]
fn explain_text_has_every_part_in_order() {
    let c = CheckInfo {
        check: Check::IdleStorage,
        code: "x-y",
        default_severity: Severity::Error,
        summary: "S",
        what: "W",
        why: "Y",
        example: "E",
        compares: None,
    };
    assert_eq!(
        explain_text(&c),
        "Default severity: **error**.\n\n**What it does.** W\n\n**Why it matters.** Y\n\n**Example.** E\n"
    );
}

#[test]
fn check_info_finds_a_code_and_only_it() {
    assert_eq!(
        check_info(Check::IdleStorage.code()).unwrap().check,
        Check::IdleStorage
    );
    assert_eq!(
        check_info(Check::TotalMismatch.code())
            .unwrap()
            .default_severity,
        Severity::Error
    );
    assert!(check_info("no-such-check").is_none());
}

#[test]
fn fraction_percent_is_divided_by_one_hundred() {
    // 250% = 250 / 100 = 2.5 (not 250 * 100, not 250 % 100 = 50).
    assert_eq!(parse_fraction("250%").unwrap(), Decimal::new(25, 1));
    assert_eq!(parse_fraction("0%").unwrap(), Decimal::ZERO);
    assert_eq!(parse_fraction("1.5").unwrap(), Decimal::new(15, 1));
}

fn accept(code: Check, path: &str, line: Option<u64>, reason: &str) -> accepted::Accepted {
    accepted::Accepted {
        code,
        path: glob::Pattern::new(path).unwrap(),
        line,
        reason: reason.into(),
    }
}

#[test]
fn policy_severity_default_override_off_unknown() {
    let mut p = Policy::default();
    // Defaults from the CheckInfo table.
    assert_eq!(p.severity(Check::TotalMismatch), Some(Severity::Error));
    assert_eq!(p.severity(Check::IdleStorage), Some(Severity::Warning));
    p.severities
        .insert(Check::IdleStorage, Some(Severity::Error));
    p.severities.insert(Check::TotalMismatch, None);
    assert_eq!(p.severity(Check::IdleStorage), Some(Severity::Error));
    assert_eq!(p.severity(Check::TotalMismatch), None);
}

#[test]
fn policy_accepted_reason_is_the_first_covering_entry() {
    let mut p = Policy::default();
    assert_eq!(
        p.accepted_reason(Check::IdleStorage, "a.csv", Some(3)),
        None
    );
    p.accepted = vec![
        accept(Check::IdleStorage, "b.csv", None, "other file"),
        accept(Check::IdleStorage, "*.csv", Some(3), "line three"),
        accept(Check::IdleStorage, "*.csv", None, "any line"),
    ];
    assert_eq!(
        p.accepted_reason(Check::IdleStorage, "a.csv", Some(3))
            .as_deref(),
        Some("line three")
    );
    assert_eq!(
        p.accepted_reason(Check::IdleStorage, "a.csv", Some(4))
            .as_deref(),
        Some("any line")
    );
    assert_eq!(
        p.accepted_reason(Check::TotalMismatch, "a.csv", Some(3)),
        None
    );
}

#[test]
fn sink_names_the_part_of_each_line_and_the_first_part_for_the_bill() {
    let p = Policy::default();
    let mut s = Sink::new("bill.csv", &p);
    assert_eq!(s.part(), 0);
    assert_eq!(s.part_path(0), "bill.csv");
    assert_eq!(s.part_path(5), "bill.csv");
    s.begin_part("bill_1.csv");
    s.begin_part("bill_1.csv"); // the same part again: no new part
    assert_eq!(s.part(), 0);
    s.emit(Check::IdleStorage, Some(2), "a".into());
    s.begin_part("bill_2.csv");
    assert_eq!(s.part(), 1);
    assert_eq!(s.part_path(0), "bill_1.csv");
    assert_eq!(s.part_path(1), "bill_2.csv");
    s.emit(Check::IdleStorage, Some(3), "b".into());
    s.emit(Check::HiddenFeeShare, None, "c".into());
    s.emit_in(0, Check::DuplicateLine, Some(9), "d".into());
    let f = s.finish();
    let got: Vec<(Check, &str, Option<u64>, &str, Severity)> = f
        .iter()
        .map(|f| {
            (
                f.code,
                f.path.as_str(),
                f.line,
                f.message.as_str(),
                f.severity,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                Check::IdleStorage,
                "bill_1.csv",
                Some(2),
                "a",
                Severity::Warning
            ),
            (
                Check::IdleStorage,
                "bill_2.csv",
                Some(3),
                "b",
                Severity::Warning
            ),
            (
                Check::HiddenFeeShare,
                "bill_1.csv",
                None,
                "c",
                Severity::Error
            ),
            (
                Check::DuplicateLine,
                "bill_1.csv",
                Some(9),
                "d",
                Severity::Warning
            ),
        ]
    );
}

#[test]
fn sink_policy_is_the_one_given() {
    let p = Policy {
        max_findings_per_code: 7,
        ..Policy::default()
    };
    let s = Sink::new("a.csv", &p);
    assert_eq!(s.policy().max_findings_per_code, 7);
}

#[test]
fn sink_caps_findings_per_code_with_a_closing_count() {
    let p = Policy {
        max_findings_per_code: 2,
        accepted: vec![accept(Check::IdleStorage, "a.csv", None, "known")],
        ..Policy::default()
    };
    // Exactly at the cap: 2 findings, no closing one.
    let mut s = Sink::new("a.csv", &p);
    for i in 0..2 {
        s.emit(Check::DuplicateLine, Some(i), format!("m{i}"));
    }
    let f = s.finish();
    assert_eq!(f.len(), 2);
    assert_eq!(f[1].message, "m1");
    // One above the cap on two codes: 2 listed each, then "1 more" each
    // (3 - 2 = 1), sorted by code.
    let mut s = Sink::new("a.csv", &p);
    for i in 0..3 {
        s.emit(Check::IdleStorage, Some(i), format!("i{i}"));
        s.emit(Check::DuplicateLine, Some(i), format!("d{i}"));
    }
    s.emit(Check::TotalMismatch, None, "t".into());
    let f = s.finish();
    let msgs: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "i0",
            "d0",
            "i1",
            "d1",
            "t",
            "1 more `duplicate-line` findings not listed (3 in all)",
            "1 more `idle-storage` findings not listed (3 in all)",
        ]
    );
    let closing = &f[6];
    assert_eq!(closing.code, Check::IdleStorage);
    assert_eq!(closing.severity, Severity::Warning);
    assert_eq!(closing.line, None);
    assert_eq!(closing.path, "a.csv");
    assert_eq!(closing.accepted.as_deref(), Some("known"));
    assert_eq!(f[0].accepted.as_deref(), Some("known"));
    assert_eq!(f[1].accepted, None);
    // Ten more than the cap: 12 - 2 = 10 not listed.
    let mut s = Sink::new("a.csv", &p);
    for i in 0..12 {
        s.emit(Check::DuplicateLine, Some(i), String::new());
    }
    let f = s.finish();
    assert_eq!(f.len(), 3);
    assert_eq!(
        f[2].message,
        "10 more `duplicate-line` findings not listed (12 in all)"
    );
}

#[test]
fn sink_drops_a_check_turned_off_and_counts_nothing_for_it() {
    let mut p = Policy::default();
    p.severities.insert(Check::DuplicateLine, None);
    p.max_findings_per_code = 1;
    let mut s = Sink::new("a.csv", &p);
    for i in 0..3 {
        s.emit(Check::DuplicateLine, Some(i), String::new());
    }
    assert!(s.finish().is_empty());
}

#[test]
fn sink_push_applies_the_policy_to_findings_of_earlier_stages() {
    let mut p = Policy::default();
    p.severities
        .insert(Check::UnparsableValue, Some(Severity::Warning));
    let mut s = Sink::new("a.csv", &p);
    s.push(finding(Check::UnparsableValue, Some(4), "bad"));
    s.push(finding(Check::UnparsedLine, Some(5), "kept"));
    let f = s.finish();
    assert_eq!(f.len(), 2);
    assert_eq!(f[0].code, Check::UnparsableValue);
    // Re-emitted through the sink: its path and severity are the sink's.
    assert_eq!(f[0].path, "a.csv");
    assert_eq!(f[0].severity, Severity::Warning);
    // Not set in the policy: the check's default severity (warning).
    assert_eq!(f[1].code, Check::UnparsedLine);
    assert_eq!(f[1].path, "a.csv");
    assert_eq!(f[1].severity, Check::UnparsedLine.default_severity());
    assert_eq!((f[1].line, f[1].message.as_str()), (Some(5), "kept"));
}

#[test]
fn skip_counts_add_and_total() {
    let mut s = SkipCounts::default();
    // 1 unparsable, 2 missing, 3 blank, 4 summary: total 1+2+3+4 = 10.
    let reasons = [
        (SkipReason::Unparsable, 1),
        (SkipReason::MissingAmount, 2),
        (SkipReason::Blank, 3),
        (SkipReason::Summary, 4),
    ];
    for (r, n) in reasons {
        for _ in 0..n {
            s.add(r);
        }
    }
    assert_eq!(
        s,
        SkipCounts {
            unparsable: 1,
            missing_amount: 2,
            blank: 3,
            summary: 4
        }
    );
    assert_eq!(s.total(), 10);
    // 5+7+11+13 = 36 (no product or difference of these gives 36).
    let s = SkipCounts {
        unparsable: 5,
        missing_amount: 7,
        blank: 11,
        summary: 13,
    };
    assert_eq!(s.total(), 36);
}

#[test]
fn exceeds_is_strict_at_the_threshold() {
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    // 0.05 * 100 = 5.00: 5.00 passes, 5.01 and 6 exceed, 4.99 passes.
    assert!(!exceeds(d("5.00"), d("0.05"), d("100")));
    assert!(exceeds(d("5.01"), d("0.05"), d("100")));
    assert!(exceeds(d("6"), d("0.05"), d("100")));
    assert!(!exceeds(d("4.99"), d("0.05"), d("100")));
    // share * whole overflows: compare part / whole with share instead.
    // 1 / 2 = 0.5 is not above MAX; MAX / 2 is above 0.5 only if
    // 0.5 * 2 overflowed, so use a share near MAX: MAX*2 overflows and
    // MAX/2 < MAX (no fire), 1/2 < MAX (no fire).
    assert!(!exceeds(Decimal::ONE, Decimal::MAX, d("2")));
    assert!(!exceeds(Decimal::MAX, Decimal::MAX, d("2")));
}

#[test]
fn share_is_none_without_a_positive_whole() {
    assert_eq!(share(Decimal::ONE, Decimal::NEGATIVE_ONE), None);
    assert_eq!(
        share(Decimal::ONE, Decimal::ONE).unwrap().to_string(),
        "1.000000"
    );
}

#[test]
fn percent_and_money_text() {
    // 0.05 * 100 = 5.00; 1.23456 * 100 = 123.456 -> 123.46.
    assert_eq!(percent(Decimal::new(5, 2)), "5.00%");
    assert_eq!(percent(Decimal::new(123456, 5)), "123.46%");
    assert_eq!(money(Decimal::new(500, 2), Some("USD")), "5.00 USD");
    assert_eq!(money(Decimal::new(500, 2), None), "5.00");
}

#[test]
fn builder_counts_items_skips_and_decides_passed() {
    let policy = Policy::default();
    let mut b = builder_with(
        &policy,
        &[(Category::Compute, "10.00"), (Category::Compute, "20.00")],
    );
    b.add_skip(SkipReason::Blank, None);
    b.add_skip(
        SkipReason::Unparsable,
        Some(finding(Check::UnparsableValue, Some(7), "bad")),
    );
    let bill = b.finish();
    assert_eq!(bill.line_items, 2);
    assert_eq!(bill.skipped_rows(), 2);
    assert_eq!(bill.skipped.blank, 1);
    assert_eq!(bill.skipped.unparsable, 1);
    // 10.00 + 20.00 = 30.00 compute; no hidden fees.
    assert_eq!(bill.subtotal, Decimal::new(3000, 2));
    assert_eq!(bill.total, Decimal::new(3000, 2));
    // unparsable-value is an error by default: the bill fails.
    assert_eq!(codes_of(&bill), [Check::UnparsableValue]);
    assert_eq!(bill.findings[0].path, "inv.txt");
    assert!(!bill.passed);
    // Without findings the bill passes.
    let bill = builder_with(&policy, &[(Category::Compute, "10.00")]).finish();
    assert!(bill.findings.is_empty());
    assert!(bill.passed);
    assert_eq!(bill.skipped_rows(), 0);
    // A warning alone does not fail at the default fail level.
    let mut b = builder_with(&policy, &[(Category::Compute, "10.00")]);
    b.add_finding(finding(Check::UnparsedLine, Some(3), "?"));
    let bill = b.finish();
    assert_eq!(codes_of(&bill), [Check::UnparsedLine]);
    assert!(bill.passed);
}

#[test]
fn builder_emit_and_parts_name_the_file() {
    let policy = Policy::default();
    let mut b = BillState::new("m.csv", "csv", None, &policy);
    b.begin_part("m_1.csv");
    b.emit(Check::UnparsedLine, Some(1), "one".into());
    b.begin_part("m_2.csv");
    b.emit(Check::UnparsedLine, Some(2), "two".into());
    let bill = b.finish();
    let got: Vec<(&str, Option<u64>)> = bill
        .findings
        .iter()
        .map(|f| (f.path.as_str(), f.line))
        .collect();
    assert_eq!(got, [("m_1.csv", Some(1)), ("m_2.csv", Some(2))]);
}

fn totals_of(items: &[(Category, &str)]) -> Totals {
    let mut t = Totals::default();
    for (c, a) in items {
        t.checked_add(*c, a.parse().unwrap()).unwrap();
    }
    t
}

#[test]
fn above_threshold_judges_the_figures_of_the_table() {
    use Category::*;
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    // hidden = bandwidth 6 + scheduling 4 = 10 of a subtotal of 90 + 10 =
    // 100: 10% is above 5%, not above 10% (strict), not judged without a
    // positive subtotal.
    let t = totals_of(&[(Compute, "90"), (Bandwidth, "6"), (Scheduling, "4")]);
    assert_eq!(
        above_threshold(Check::HiddenFeeShare, &t, d("0.05")),
        Some(true)
    );
    assert_eq!(
        above_threshold(Check::HiddenFeeShare, &t, d("0.10")),
        Some(false)
    );
    let none = totals_of(&[(Credit, "-5")]);
    assert_eq!(
        above_threshold(Check::HiddenFeeShare, &none, d("0.05")),
        None
    );
    // scheduling 4 of compute 90 is 4.44%: within 8%. With no compute the
    // scheduling fee is above any threshold; with no scheduling, not judged.
    assert_eq!(
        above_threshold(Check::SchedulingFeeShare, &t, d("0.08")),
        Some(false)
    );
    let no_compute = totals_of(&[(Scheduling, "4")]);
    assert_eq!(
        above_threshold(Check::SchedulingFeeShare, &no_compute, d("0.08")),
        Some(true)
    );
    let no_sched = totals_of(&[(Compute, "90")]);
    assert_eq!(
        above_threshold(Check::SchedulingFeeShare, &no_sched, d("0.08")),
        None
    );
    // (storage 40 + replica 10) / storage 40 = 1.25: above 1.2, within 1.25.
    let s = totals_of(&[(Storage, "40"), (StorageReplica, "10")]);
    assert_eq!(
        above_threshold(Check::ReplicaRedundancy, &s, d("1.2")),
        Some(true)
    );
    assert_eq!(
        above_threshold(Check::ReplicaRedundancy, &s, d("1.25")),
        Some(false)
    );
    // storage + replica overflows a Decimal: 1 + MAX/MAX = 2 > 1.2.
    let mut huge = Totals::default();
    huge.0[Storage.index()] = Decimal::MAX;
    huge.0[StorageReplica.index()] = Decimal::MAX;
    assert_eq!(
        above_threshold(Check::ReplicaRedundancy, &huge, d("1.2")),
        Some(true)
    );
    assert_eq!(
        above_threshold(Check::ReplicaRedundancy, &huge, d("3")),
        Some(false)
    );
    // A check that compares no figures has no verdict.
    assert_eq!(above_threshold(Check::IdleStorage, &t, d("0.05")), None);
}
