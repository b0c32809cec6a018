use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use rust_decimal::Decimal;

use chrono::{Datelike, NaiveDate};

use super::Sink;
use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
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

/// The state of `idle-storage`. Which rows its limits leave out depends on
/// every row before them, so the state of the bill's first rows compares
/// as rows come ([`IdleStorage`]), and a state of rows after rows not seen
/// keeps their compact events ([`Events`]) for its merge to replay in
/// file order (docs/decisions.md).
#[derive(Debug)]
pub(crate) struct Idle(Order);

#[derive(Debug)]
enum Order {
    First(IdleStorage),
    After(Events),
}

register!(Idle);

impl Accumulator for Idle {
    const RANK: u32 = 20;

    fn start(start: Start) -> Self {
        Idle(match start {
            Start::First => Order::First(IdleStorage::default()),
            Start::After => Order::After(Events::default()),
        })
    }

    fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        match &mut self.0 {
            Order::First(s) => s.add(item, row.part),
            Order::After(e) => e.push(item),
        }
    }

    fn merge(&mut self, later: Self, part: usize) {
        match (&mut self.0, later.0) {
            (Order::First(s), Order::After(events)) => s.replay(events, part),
            (Order::After(e), Order::After(events)) => e.merge(events),
            (_, Order::First(_)) => {
                unreachable!("only the state of a bill's first rows compares them")
            }
        }
    }

    fn shift_lines(&mut self, by: u64) {
        if let Order::After(e) = &mut self.0 {
            e.shift_lines(by);
        }
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        let s = match self.0 {
            Order::First(s) => s,
            Order::After(events) => {
                let mut s = IdleStorage::default();
                s.replay(events, 0);
                s
            }
        };
        s.report(bill.currency, sink);
    }
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
    /// A compute row of a resource was not recorded (the pairs' cap): no
    /// resource's own compute days are known whole, so every storage row
    /// is compared with the bill's compute days (which are always whole).
    pub(super) compute_dropped: bool,
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
            // Once a resource's compute row was dropped, "no compute of its
            // own" cannot be told: the bill's days decide (a day with any
            // compute is never called idle).
            let own = key.filter(|k| !self.compute_dropped && self.compute_resources.contains(k));
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
                    self.compute_dropped = true;
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
#[path = "idle_storage_tests.rs"]
mod tests;
