use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use rust_decimal::Decimal;

use chrono::{Datelike, NaiveDate};

use super::Sink;
use super::idle_events::{Event, Events, Names};
use super::usage::{day_text, round_money};
use crate::model::LineItem;
use crate::vocab::checks::Check;

pub(crate) const MAX_RESOURCES: usize = 10_000;
pub(crate) const MAX_STORAGE_ROWS: usize = 50_000;
pub(crate) const MAX_COMPUTE_PAIRS: usize = 100_000;
/// Idle days listed in a finding; the rest are counted.
const LISTED_DAYS: usize = 10;

#[derive(Debug)]
pub(super) struct Group {
    pub(super) name: Option<String>,
    pub(super) item: String,
    /// The part of the bill (a [`Sink::part`]) and the line of the first row.
    pub(super) first_part: usize,
    pub(super) first_line: u64,
    /// (first day, last day, amount, dated by one day only) of each storage row.
    pub(super) spans: Vec<(i32, i32, Decimal, bool)>,
    pub(super) scale: u32,
}

/// Compute days and storage rows of one bill.
#[derive(Debug, Default)]
pub(crate) struct IdleStorage {
    /// (resource hash, day) pairs with a compute charge.
    pub(super) compute: FxHashSet<(u64, i32)>,
    /// Resources with any compute charge.
    pub(super) compute_resources: FxHashSet<u64>,
    /// Days with any compute charge in the bill.
    pub(super) bill_days: FxHashSet<i32>,
    /// The last compute row's (resource, first day, last day): rows of
    /// the same resource and days add nothing.
    pub(super) last_compute: Option<(Option<u64>, i32, i32)>,
    /// Storage rows per resource and item (hashes of the resource id, `None`
    /// without one, and of the description).
    pub(super) groups: FxHashMap<(Option<u64>, u64), Group>,
    pub(super) storage_rows: usize,
    /// Rows not compared because a cap was reached.
    pub(super) dropped: u64,
}

impl IdleStorage {
    /// `part`: the part of the bill the item comes from ([`Sink::part`]).
    pub(crate) fn add(&mut self, item: &LineItem, part: usize) {
        if let Some(event) = Event::of(item) {
            self.apply(event, part, || Event::names(item));
        }
    }

    pub(crate) fn report(self, currency: Option<&str>, sink: &mut Sink<'_>) {
        if self.bill_days.is_empty() {
            return;
        }
        let capped = if self.dropped > 0 {
            format!(
                " ({} rows beyond the per-bill limits were not compared)",
                self.dropped
            )
        } else {
            String::new()
        };
        let mut groups: Vec<((Option<u64>, u64), Group)> = self.groups.into_iter().collect();
        groups.sort_by_key(|(_, g)| (g.first_part, g.first_line));
        for ((key, _), g) in groups {
            let own = key.filter(|k| self.compute_resources.contains(k));
            let computed = |d: i32| match own {
                Some(r) => self.compute.contains(&(r, d)),
                None => self.bill_days.contains(&d),
            };
            // A resource with at most one single-date row per month is billed
            // monthly, dated by when it was posted: its date says which month
            // it covers, not which day. Compare it by month.
            let mut per_month: HashMap<(i32, u32), u32> = HashMap::new();
            for (first, _, _, point) in &g.spans {
                if *point {
                    *per_month.entry(month_of(*first)).or_default() += 1;
                }
            }
            let monthly = per_month.values().all(|n| *n <= 1);
            let mut idle_days = BTreeSet::new();
            let mut idle_months = BTreeSet::new();
            let mut amount = Decimal::ZERO;
            let mut estimated = false;
            for (first, last, a, point) in &g.spans {
                if *point && monthly {
                    let m = month_of(*first);
                    let Some((lo, hi)) = month_bounds(m) else {
                        continue;
                    };
                    if !(lo..=hi).any(computed) {
                        idle_months.insert(m);
                        if let Some(x) = amount.checked_add(*a) {
                            amount = x;
                        }
                    }
                    continue;
                }
                let len = i64::from(last - first) + 1;
                let idle = (*first..=*last)
                    .filter(|d| !computed(*d))
                    .inspect(|d| {
                        idle_days.insert(*d);
                    })
                    .count() as i64;
                if idle == 0 {
                    continue;
                }
                let part = if idle == len {
                    Some(*a)
                } else {
                    estimated = true;
                    a.checked_mul(Decimal::from(idle))
                        .and_then(|x| x.checked_div(Decimal::from(len)))
                };
                if let Some(s) = part.and_then(|p| amount.checked_add(p)) {
                    amount = s;
                }
            }
            if (idle_days.is_empty() && idle_months.is_empty()) || amount <= Decimal::ZERO {
                continue;
            }
            let mut listed: Vec<String> = idle_months
                .iter()
                .map(|(y, m)| format!("{y}-{m:02}"))
                .chain(idle_days.iter().map(|d| day_text(*d)))
                .take(LISTED_DAYS)
                .collect();
            let n_listed = idle_days.len() + idle_months.len();
            if n_listed > LISTED_DAYS {
                listed.push(format!("and {} more", n_listed - LISTED_DAYS));
            }
            let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
            let when = match (idle_days.len(), idle_months.len()) {
                (d, 0) => format!("on {}", plural(d, "day")),
                (0, m) => format!("in {} (monthly rows)", plural(m, "month")),
                (d, m) => format!(
                    "on {} and in {} (monthly rows)",
                    plural(d, "day"),
                    plural(m, "month")
                ),
            };
            let (what, against) = match (&g.name, own) {
                (Some(n), Some(_)) => (format!("`{}` for `{n}`", g.item), "no compute of its own"),
                (Some(n), None) => (
                    format!("`{}` (`{n}`)", g.item),
                    "no compute anywhere in the bill",
                ),
                (None, _) => (format!("`{}`", g.item), "no compute anywhere in the bill"),
            };
            sink.emit_in(
                g.first_part,
                Check::IdleStorage,
                Some(g.first_line),
                format!(
                    "{what} billed {when} with {against} ({}): {}{} of storage charges{capped}",
                    listed.join(", "),
                    if estimated { "about " } else { "" },
                    super::money(round_money(amount, g.scale), currency),
                ),
            );
        }
    }
}

fn month_of(day: i32) -> (i32, u32) {
    NaiveDate::from_num_days_from_ce_opt(day).map_or((0, 0), |d| (d.year(), d.month()))
}

/// First and last day numbers of a month.
fn month_bounds((y, m): (i32, u32)) -> Option<(i32, i32)> {
    let first = NaiveDate::from_ymd_opt(y, m, 1);
    let next = if m == 12 {
        NaiveDate::from_ymd_opt(y.saturating_add(1), 1, 1)
    } else {
        NaiveDate::from_ymd_opt(y, m + 1, 1)
    };
    Some((first?.num_days_from_ce(), next?.num_days_from_ce() - 1))
}

// ---- the events of `idle_events`, applied in file order.

impl IdleStorage {
    /// Adds one row's event; `names` are asked for when it starts a group.
    pub(super) fn apply(&mut self, event: Event, part: usize, names: impl FnOnce() -> Names) {
        match event {
            Event::Compute {
                resource,
                first,
                last,
            } => {
                if self.last_compute == Some((resource, first, last)) {
                    return;
                }
                self.last_compute = Some((resource, first, last));
                for d in first..=last {
                    self.bill_days.insert(d);
                }
                let Some(r) = resource else { return };
                if self.compute.len() >= MAX_COMPUTE_PAIRS {
                    self.dropped += 1;
                    return;
                }
                self.compute_resources.insert(r);
                for d in first..=last {
                    self.compute.insert((r, d));
                }
            }
            Event::Storage {
                key,
                first,
                last,
                amount,
                point,
                line,
            } => {
                if self.storage_rows >= MAX_STORAGE_ROWS {
                    self.dropped += 1;
                    return;
                }
                if self.groups.len() >= MAX_RESOURCES && !self.groups.contains_key(&key) {
                    self.dropped += 1;
                    return;
                }
                self.storage_rows += 1;
                let g = self.groups.entry(key).or_insert_with(|| {
                    let (name, item) = names();
                    Group {
                        name,
                        item,
                        first_part: part,
                        first_line: line,
                        spans: Vec::new(),
                        scale: 0,
                    }
                });
                g.scale = g.scale.max(amount.scale());
                g.spans.push((first, last, amount, point));
            }
        }
    }

    /// Replays the events of the rows that follow, as if each row were
    /// added here (`part`: the part of the bill they come from).
    pub(crate) fn replay(&mut self, later: Events, part: usize) {
        let text = |r: &Range<usize>| later.text.get(r.clone()).unwrap_or("").to_string();
        for (event, names) in &later.list {
            let names = || match names {
                Some((resource, item)) => (resource.as_ref().map(text), text(item)),
                None => Names::default(),
            };
            self.apply(event.clone(), part, names);
        }
    }
}

#[cfg(test)]
mod tests {
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
}
