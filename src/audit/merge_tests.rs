//! Property tests of [`BillState`]: the rows of a bill cut into ranges, each
//! range's state built on its own (counting its lines from its start),
//! merged in file order in any tree shape, finish into the bill the rows
//! give when added one by one to one state: every field, the findings
//! in the same order with the same messages, the cap and its closing
//! "N more" finding, and the "first seen" lines.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use proptest::prelude::*;
use rust_decimal::Decimal;

use super::*;
use crate::classify::rules::UNCLASSIFIED;
use crate::model::{Category, Finding, LineItem, Severity};
use crate::normalise::SkipReason;

/// One row of a bill.
#[derive(Debug, Clone)]
enum Op {
    Item(Box<LineItem>),
    Skip(SkipReason, Option<Finding>),
    /// A stated subtotal (`true`) or total, on its line.
    Stated(bool, u64, Decimal),
}

impl Op {
    fn line(&self) -> u64 {
        match self {
            Op::Item(i) => i.line,
            Op::Skip(_, f) => f.as_ref().and_then(|f| f.line).unwrap_or(0),
            Op::Stated(_, l, _) => *l,
        }
    }

    /// The row as a reader counting lines from `by + 1` sees it.
    fn relative(&self, by: u64) -> Op {
        let mut op = self.clone();
        match &mut op {
            Op::Item(i) => i.line -= by,
            Op::Skip(_, Some(f)) => f.line = f.line.map(|l| l - by),
            Op::Skip(_, None) => {}
            Op::Stated(_, l, _) => *l -= by,
        }
        op
    }
}

fn day(n: u8) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2025, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| d + Duration::days(i64::from(n) * 9))
        .unwrap()
}

/// A row from a few small numbers: repeats (for `duplicate-line`), several
/// currencies and months, compute and storage of a few resources on a few
/// days (`idle-storage`), lines above their list amount, rounded-up hours,
/// inbound traffic, unclassified items, skips and stated figures.
fn op(line: u64, (kind, desc, res, when, cents, cur): (u8, u8, u8, u8, u16, u8)) -> Op {
    let amount = Decimal::new(i64::from(cents % 7) * 125 + 5, 2);
    let start = day(when);
    let mut i = LineItem::new(line, format!("thing {desc}"), amount);
    i.rule = "test".into();
    i.currency = [None, Some("USD"), Some("EUR")][usize::from(cur % 3)].map(String::from);
    i.start = Some(start);
    i.end = (when % 3 != 0).then(|| start + Duration::days(i64::from(when % 4)));
    i.resource = (res % 4 != 0).then(|| format!("vol-{res}"));
    // Rows of the same few fields repeat; a fingerprint of 0 hashes the fields.
    i.fingerprint = match desc % 3 {
        0 => 0,
        _ => u64::from(kind % 4) * 1000 + u64::from(desc) * 10 + u64::from(cents % 3),
    };
    match kind {
        0..=3 => {
            i.category = Category::Compute;
            i.description = format!("A100 GPU hours {desc}");
            let hours = i64::from(cents % 3) + 1;
            i.quantity = Some(if desc == 5 {
                Decimal::new(15, 1)
            } else {
                Decimal::from(hours)
            });
            i.unit = Some("hours".into());
            i.end = Some(start + Duration::minutes(hours * 60 - 30));
            // Commitment rows of a few ids, Used and Unused (`unused-commitment`),
            // lines billed above their contract (`above-contracted-price`), and
            // monthly plans of the same GPU (`plan-costlier-than-on-demand`).
            if res % 2 == 1 {
                i.terms = Some(Box::new(crate::model::Terms {
                    commitment_id: (res != 3).then(|| format!("ri-{}", kind % 2)),
                    status: Some(["Used", "Unused"][usize::from(desc % 2)].into()),
                    effective: Some(amount),
                    ..crate::model::Terms::default()
                }));
            } else if desc == 4 {
                i.terms = Some(Box::new(crate::model::Terms {
                    contracted: Some(amount - Decimal::new(5, 2)),
                    ..crate::model::Terms::default()
                }));
            }
            if kind == 3 && desc == 3 {
                i.quantity = Some(Decimal::ONE);
                i.unit = Some("month".into());
            }
        }
        4..=6 => {
            i.category = [Category::Storage, Category::StorageReplica][usize::from(kind % 2)];
            i.description = format!("disk {desc}");
        }
        7 => {
            i.category = Category::Bandwidth;
            i.description = format!("inbound transfer {desc}");
        }
        8 => {
            i.category = Category::Scheduling;
            i.list_amount = Some(amount - Decimal::ONE);
        }
        9 => {
            i.category = Category::Other;
            i.rule = UNCLASSIFIED.into();
        }
        10 => i.category = Category::Tax,
        11 => {
            i.category = Category::Credit;
            i.amount = -amount;
        }
        12 => i.amount = Decimal::ZERO,
        13 => {
            let f = Finding {
                code: Check::UnparsableValue,
                severity: Severity::Warning,
                message: format!("unparsable {desc}"),
                path: "b.csv".into(),
                line: Some(line),
                accepted: None,
            };
            return Op::Skip(SkipReason::Unparsable, (desc % 2 == 0).then_some(f));
        }
        14 => return Op::Skip(SkipReason::Blank, None),
        _ => return Op::Stated(desc % 2 == 0, line, amount),
    }
    Op::Item(Box::new(i))
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let row = (0u8..16, 0u8..6, 0u8..5, 0u8..12, any::<u16>(), 0u8..3);
    prop::collection::vec(row, 0..90).prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(n, r)| op(n as u64 + 2, r))
            .collect()
    })
}

fn policy(max: usize) -> Policy {
    let mut p = Policy {
        max_findings_per_code: max,
        ..Policy::default()
    };
    // A check turned off is neither listed nor counted, here or there.
    p.severities.insert(Check::IngressCharged, None);
    // An on-demand price for the monthly A100 plans.
    p.price_book.entries.push(rate_above_reference::PriceEntry {
        pattern: "a100".into(),
        unit: None,
        currency: None,
        max: Decimal::new(5, 1),
        source: None,
    });
    p
}

fn builder(policy: &Policy) -> BillState<'_> {
    BillState::new("b.csv", "csv", Some("USD".into()), policy)
}

/// The bill of the rows added one by one.
fn sequential(ops: &[Op], policy: &Policy) -> Bill {
    let mut b = builder(policy);
    for op in ops {
        match op.clone() {
            Op::Item(i) => b.add_item(&i),
            Op::Skip(r, f) => b.add_skip(r, f),
            Op::Stated(sub, line, d) => {
                b.add_skip(SkipReason::Summary, None);
                if sub {
                    b.stated_subtotal = Some((line, d));
                } else {
                    b.stated_total = Some((line, d));
                }
            }
        }
    }
    b.finish()
}

/// The state of a range, its lines counted from its first row's line.
fn partial<'p>(ops: &[Op], policy: &'p Policy) -> BillState<'p> {
    let by = ops.first().map_or(0, |o| o.line().max(1) - 1);
    let mut p = BillState::later(policy);
    for op in ops.iter().map(|o| o.relative(by)) {
        match op {
            Op::Item(i) => p.add_item(&i),
            Op::Skip(r, f) => p.add_skip(r, f),
            Op::Stated(sub, line, d) => {
                p.add_skip(SkipReason::Summary, None);
                if sub {
                    p.stated_subtotal = Some((line, d));
                } else {
                    p.stated_total = Some((line, d));
                }
            }
        }
    }
    p.shift_lines(by);
    p
}

/// The ranges of `ops` cut at `cuts`.
fn ranges<'a>(ops: &'a [Op], cuts: &[prop::sample::Index]) -> Vec<&'a [Op]> {
    let mut at: Vec<usize> = cuts.iter().map(|c| c.index(ops.len() + 1)).collect();
    at.push(0);
    at.push(ops.len());
    at.sort_unstable();
    at.windows(2).map(|w| &ops[w[0]..w[1]]).collect()
}

/// Merges neighbouring range states, in the order `picks` says, until one is
/// left: every tree shape of the merges can come out.
fn merge_in_shape<'p>(
    mut parts: Vec<BillState<'p>>,
    picks: &[prop::sample::Index],
) -> BillState<'p> {
    let mut picks = picks.iter().cycle();
    while parts.len() > 1 {
        let i = picks.next().map_or(0, |p| p.index(parts.len() - 1));
        let later = parts.remove(i + 1);
        parts[i].merge(later);
    }
    parts.pop().unwrap()
}

fn finish_merged(p: BillState<'_>, policy: &Policy) -> Bill {
    let mut b = builder(policy);
    b.merge(p);
    b.finish()
}

/// 256 cases, or `PROPTEST_CASES` when set (an explicit count in the
/// config would otherwise hide the variable: `PROPTEST_CASES=4000`).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Ranges merged in any tree shape, then finished, give the bill of
    /// the rows added one by one.
    #[test]
    fn merged_ranges_in_any_shape_equal_the_sequential_bill(
        ops in ops(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..7),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..8),
        max in 1usize..4,
    ) {
        let policy = policy(max);
        let want = sequential(&ops, &policy);
        let parts: Vec<BillState<'_>> =
            ranges(&ops, &cuts).into_iter().map(|r| partial(r, &policy)).collect();
        let got = finish_merged(merge_in_shape(parts, &picks), &policy);
        prop_assert_eq!(got, want);
    }

    /// The pipeline's way: each range's state merged into the bill's in
    /// file order.
    #[test]
    fn ranges_absorbed_in_order_equal_the_sequential_bill(
        ops in ops(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..7),
        max in 1usize..4,
    ) {
        let policy = policy(max);
        let want = sequential(&ops, &policy);
        let mut b = builder(&policy);
        for r in ranges(&ops, &cuts) {
            b.merge(partial(r, &policy));
        }
        prop_assert_eq!(b.finish(), want);
    }

    /// `((a + b) + c)` and `(a + (b + c))` give the same bill.
    #[test]
    fn merging_is_associative(
        ops in ops(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 2..3),
        max in 1usize..4,
    ) {
        let policy = policy(max);
        let three = |ops: &[Op]| {
            let r = ranges(ops, &cuts);
            (partial(r[0], &policy), partial(r[1], &policy), partial(r[2], &policy))
        };
        let (mut a, b, c) = three(&ops);
        a.merge(b);
        a.merge(c);
        let left = finish_merged(a, &policy);
        let (mut a, mut b, c) = three(&ops);
        b.merge(c);
        a.merge(b);
        let right = finish_merged(a, &policy);
        prop_assert_eq!(&left, &right);
        prop_assert_eq!(left, sequential(&ops, &policy));
    }
}

/// The bill's limits are met in the middle of a range: `duplicate-line`
/// forgets its rows after [`duplicate_line::MAX_REMEMBERED`] distinct ones
/// (a repeat of a forgotten row is no finding), and `idle-storage` stops
/// comparing at its limits of storage rows, groups and compute days.
#[test]
fn limits_reached_inside_a_range_are_met_as_on_one_thread() {
    let n = duplicate_line::MAX_REMEMBERED as u64 + 2_000;
    let mut ops = Vec::new();
    for k in 0..n {
        let line = k + 2;
        let mut i = LineItem::new(line, "disk", Decimal::new(150, 2));
        i.rule = "test".into();
        // Every 1,000th row repeats row 2 (remembered until the table starts
        // afresh), the rest are new.
        i.fingerprint = if k % 1_000 == 999 { 1 } else { k + 1 };
        i.start = Some(day((k % 40) as u8));
        i.resource = Some(format!("vol-{}", k % 24_000));
        i.category = if k % 2 == 0 {
            Category::Compute
        } else {
            Category::Storage
        };
        i.end = Some(day((k % 40) as u8) + Duration::days(3));
        ops.push(Op::Item(Box::new(i)));
    }
    let policy = policy(usize::MAX);
    let want = sequential(&ops, &policy);
    let repeats = want
        .findings
        .iter()
        .filter(|f| f.code == Check::DuplicateLine)
        .count() as u64;
    // Row k (from 0) has key k + 1, but rows 999, 1999, ... have key 1,
    // row 0's: they repeat line 2. After row k = 131,202 the table holds
    // 1 + (131,202 - 131) = 131,072 = MAX_REMEMBERED keys (131 rows of the
    // form 999 + 1000j lie in 1..=131,202); row 131,203 starts it afresh.
    // So rows 999 ... 130,999 are repeats (131), row 131,999 is remembered
    // anew, and row 132,999 repeats it: 132 in all.
    assert_eq!(repeats, 132);
    let cuts = [0, 40_000, 65_537, 131_100, 131_205, n as usize];
    let mut b = builder(&policy);
    for w in cuts.windows(2) {
        b.merge(partial(&ops[w[0]..w[1]], &policy));
    }
    assert_eq!(b.finish(), want);
}

/// Months past [`MAX_MONTHS`] are counted, not tracked; which months are
/// tracked depends on the order they first come in, across ranges.
#[test]
fn the_months_tracked_are_the_first_ones_of_all_the_ranges() {
    let mut ops = Vec::new();
    for k in 0..400u64 {
        // 150 distinct months (2000-01 on), in an order that jumps about.
        let m = (k * 37) % 150;
        let mut i = LineItem::new(k + 2, "disk", Decimal::new(100 + k as i64, 2));
        i.rule = "test".into();
        i.category = Category::Bandwidth;
        i.start = NaiveDate::from_ymd_opt(2000 + (m / 12) as i32, 1 + (m % 12) as u32, 1)
            .and_then(|d| d.and_hms_opt(0, 0, 0));
        ops.push(Op::Item(Box::new(i)));
    }
    let policy = policy(3);
    let want = sequential(&ops, &policy);
    // 150 months, 120 tracked: rows of the 30 others are untracked. Each
    // month has 400 / 150 rows, 2 or 3 (rows k and k + 150 share one).
    assert_eq!(want.monthly.months.len(), MAX_MONTHS);
    assert!(want.monthly.untracked_items >= 60 && want.monthly.untracked_items <= 90);
    for cut in [1, 50, 119, 121, 200, 399] {
        let mut b = builder(&policy);
        b.merge(partial(&ops[..cut], &policy));
        b.merge(partial(&ops[cut..], &policy));
        assert_eq!(b.finish(), want, "cut at {cut}");
    }
    // Three ranges, merged both ways before the bill gets them.
    for (x, y) in [(1, 2), (30, 170), (130, 260), (150, 151), (5, 390)] {
        let part = |r: std::ops::Range<usize>| partial(&ops[r], &policy);
        let mut ab = part(0..x);
        ab.merge(part(x..y));
        ab.merge(part(y..400));
        assert_eq!(finish_merged(ab, &policy), want, "(a + b) + c at {x}, {y}");
        let mut bc = part(x..y);
        bc.merge(part(y..400));
        let mut a = part(0..x);
        a.merge(bc);
        assert_eq!(finish_merged(a, &policy), want, "a + (b + c) at {x}, {y}");
    }
}

/// The rows the property tests draw raise the commitment, contract and plan
/// findings, so the merges above are tested on their state too.
#[test]
fn the_generated_rows_raise_the_commitment_contract_and_plan_findings() {
    let policy = policy(100);
    let mut seen = std::collections::HashSet::new();
    // Every (kind, desc, res) of the compute rows, on a few days and amounts.
    let mut ops = Vec::new();
    let mut line = 2;
    for kind in 0u8..4 {
        for desc in 0u8..6 {
            for res in 0u8..5 {
                ops.push(op(line, (kind, desc, res, line as u8 % 12, line as u16, 1)));
                line += 1;
            }
        }
    }
    for f in sequential(&ops, &policy).findings {
        seen.insert(f.code);
    }
    for c in [
        Check::UnusedCommitment,
        Check::AboveContractedPrice,
        Check::PlanCostlierThanOnDemand,
    ] {
        assert!(seen.contains(&c), "{c} not raised: {seen:?}");
    }
}
