use std::collections::{BTreeSet, HashMap};

use rustc_hash::{FxHashMap, FxHashSet};

use rust_decimal::Decimal;

use chrono::{Datelike, NaiveDate};

use super::usage::{day_text, hash_text, item_days, round_money};
use super::{CheckInfo, Sink};
use crate::model::{Category, LineItem, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "idle-storage",
    default_severity: Severity::Warning,
    summary: "storage or replica charges fall on days with no compute charge",
    what: "Needs dated rows and at least one compute charge in the bill. For every `storage` and `storage_replica` row with a positive amount, takes the days it covers (its date, or every day from start to end) and compares them with the days that have a compute charge. When the bill has a resource id column and the storage row's resource also has compute rows (a pod's container disk, an instance's system disk), it is compared with that resource's own compute days; otherwise (a separate volume or snapshot, or a bill without resource ids) with the days on which anything in the bill computed. Rows are grouped by resource and item (description), and one finding per group gives the idle days and the amount on them; a row spanning several days is shared out evenly over its days, so that amount is an estimate (`about`). A group whose rows carry one date each, at most one per month, is billed monthly and dated when posted (a `GB-month` line on the 15th): its row is compared by month, and is idle only when nothing computed in that month. Memory is bounded: at most 10,000 storage groups, 50,000 storage rows and 100,000 (resource, compute day) pairs are kept per bill; rows beyond that are not compared, and the finding says so.",
    why: "Storage that keeps billing after the GPU stops is the most common surprise on GPU-rental bills: RunPod container and network volumes, Vast.ai disks, AutoDL data disks and Lambda filesystems all charge while the instance is off. A day of storage with no compute is money spent on nothing running.",
    example: "`pod-7f3a` computes on 2025-10-01 only, but its container disk is billed on 2025-10-02 and 2025-10-03: storage for `pod-7f3a` billed on 2 days with no compute of its own, 5.00 USD.",
};

pub const MAX_RESOURCES: usize = 10_000;
pub const MAX_STORAGE_ROWS: usize = 50_000;
pub const MAX_COMPUTE_PAIRS: usize = 100_000;
/// Idle days listed in a finding; the rest are counted.
const LISTED_DAYS: usize = 10;
/// A resource id is kept for the message up to this many characters.
const MAX_NAME: usize = 200;

#[derive(Debug)]
struct Group {
    name: Option<String>,
    item: String,
    /// The part of the bill (a [`Sink::part`]) and the line of the first row.
    first_part: usize,
    first_line: u64,
    /// (first day, last day, amount, dated by one day only) of each storage row.
    spans: Vec<(i32, i32, Decimal, bool)>,
    scale: u32,
}

/// Compute days and storage rows of one bill.
#[derive(Debug, Default)]
pub struct IdleStorage {
    /// (resource hash, day) pairs with a compute charge.
    compute: FxHashSet<(u64, i32)>,
    /// Resources with any compute charge.
    compute_resources: FxHashSet<u64>,
    /// Days with any compute charge in the bill.
    bill_days: FxHashSet<i32>,
    /// The last compute row's (resource, first day, last day): rows of
    /// the same resource and days add nothing.
    last_compute: Option<(Option<u64>, i32, i32)>,
    /// Storage rows per resource and item (hashes of the resource id, `None`
    /// without one, and of the description).
    groups: FxHashMap<(Option<u64>, u64), Group>,
    storage_rows: usize,
    /// Rows not compared because a cap was reached.
    dropped: u64,
}

impl IdleStorage {
    /// `part`: the part of the bill the item comes from ([`Sink::part`]).
    pub fn add(&mut self, item: &LineItem, part: usize) {
        let kept = matches!(
            item.category,
            Category::Compute | Category::Storage | Category::StorageReplica
        );
        if !kept || item.amount <= Decimal::ZERO {
            return;
        }
        let Some((first, last)) = item_days(item) else {
            return;
        };
        match item.category {
            Category::Compute => {
                let resource = item.resource.as_deref().map(hash_text);
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
            Category::Storage | Category::StorageReplica => {
                if self.storage_rows >= MAX_STORAGE_ROWS {
                    self.dropped += 1;
                    return;
                }
                let resource = item.resource.as_deref().map(hash_text);
                let key = (resource, hash_text(&item.description));
                if self.groups.len() >= MAX_RESOURCES && !self.groups.contains_key(&key) {
                    self.dropped += 1;
                    return;
                }
                self.storage_rows += 1;
                let g = self.groups.entry(key).or_insert_with(|| Group {
                    name: item
                        .resource
                        .as_ref()
                        .map(|r| r.chars().take(MAX_NAME).collect()),
                    item: item.description.chars().take(MAX_NAME).collect(),
                    first_part: part,
                    first_line: item.line,
                    spans: Vec::new(),
                    scale: 0,
                });
                g.scale = g.scale.max(item.amount.scale());
                g.spans.push((first, last, item.amount, item.end.is_none()));
            }
            _ => {}
        }
    }

    pub fn report(self, currency: Option<&str>, sink: &mut Sink<'_>) {
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
                &INFO,
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
