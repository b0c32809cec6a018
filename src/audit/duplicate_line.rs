use std::hash::Hash;

use rust_decimal::Decimal;

use super::Sink;
use super::usage::stable_hash;
use crate::model::LineItem;
use crate::vocab::checks::Check;

/// At most this many distinct rows are remembered at once (about 4 MB).
pub(crate) const MAX_REMEMBERED: usize = 1 << 17;

/// Slots of the table: twice the rows remembered, so probes stay short.
const SLOTS: usize = 2 * MAX_REMEMBERED;

/// Rows seen so far in one bill: hash of the identifying fields -> first
/// line. An open-addressing table of bare keys (2 MiB, about the size of a
/// core's cache: a lookup of a new row, the usual case, touches one or two
/// of its lines), with the lines beside it, read only for a repeat.
#[derive(Debug, Default)]
pub struct Seen {
    /// Keys, 0 for an empty slot (a key of 0, which only a hash of the
    /// fields could give, is stored as 1).
    keys: Vec<u64>,
    lines: Vec<u32>,
    /// The part (a [`Sink::part`]) of each line, for a bill merged from
    /// split parts; empty while every row comes from the first part.
    parts: Vec<u16>,
    len: usize,
}

impl Seen {
    /// The slot of `key`: where it is, or the empty slot where it goes.
    fn slot(&self, key: u64) -> usize {
        let mask = SLOTS - 1;
        // The keys are hashes already: their low bits pick the slot.
        let mut i = (key as usize) & mask;
        while self.keys[i] != 0 && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }
}

/// The row's key in the table (never 0): what a worker thread computes for
/// each item of its range, for the ordering thread to look up
/// ([`Seen::add_key`]).
pub(crate) fn row_key(item: &LineItem) -> u64 {
    key(item).max(1)
}

/// What a repeat's finding says of the row: its description and amount.
pub(crate) fn repeat_text(description: &str, amount: Decimal, currency: Option<&str>) -> String {
    format!("{description} {}", super::money(amount, currency))
}

fn key(item: &LineItem) -> u64 {
    // A CSV row's fingerprint already covers every cell the fields below
    // are read from, the amount's too; the amount and description tell
    // apart the credits a GCP row lists inside it, which share the row's
    // fingerprint.
    if item.fingerprint != 0 {
        if item
            .forced
            .is_some_and(|(_, id)| id == crate::model::CREDIT_LIST_RULE)
        {
            return stable_hash(|h| {
                item.fingerprint.hash(h);
                item.amount.normalize().hash(h);
                item.description.hash(h);
            });
        }
        return item.fingerprint;
    }
    stable_hash(|h| {
        item.resource.hash(h);
        item.description.hash(h);
        item.start.hash(h);
        item.end.hash(h);
        item.quantity.map(|q| q.normalize()).hash(h);
        item.unit.hash(h);
        item.unit_price.map(|p| p.normalize()).hash(h);
        item.currency.hash(h);
        item.amount.normalize().hash(h);
    })
}

impl Seen {
    pub fn add(&mut self, item: &LineItem, sink: &mut Sink<'_>) {
        // A tax column's tax or a credit column's credit repeats when its
        // row does: the row's charge reports the repeat, once.
        if item.amount == Decimal::ZERO || item.is_row_part() {
            return;
        }
        let text = || repeat_text(&item.description, item.amount, item.currency.as_deref());
        self.add_key(item.line, row_key(item), text, sink);
    }

    /// [`Seen::add`] of a row (of non-zero amount) by its key ([`row_key`]),
    /// its line, and what a finding says of it ([`repeat_text`]).
    pub fn add_key(
        &mut self,
        line: u64,
        k: u64,
        text: impl FnOnce() -> String,
        sink: &mut Sink<'_>,
    ) {
        if self.keys.is_empty() {
            self.keys = vec![0; SLOTS];
            self.lines = vec![0; SLOTS];
        }
        let i = self.slot(k);
        if self.keys[i] == k {
            let first = self.lines[i];
            // The first row may be in an earlier part of a merged bill.
            let part = self.parts.get(i).map_or(0, |p| usize::from(*p));
            let of = if part == sink.part() {
                String::new()
            } else {
                format!(" of {}", sink.part_path(part))
            };
            sink.emit(
                Check::DuplicateLine,
                Some(line),
                format!(
                    "repeats line {first}{of} in resource, item, period, quantity and amount: {} is charged again",
                    text()
                ),
            );
            return;
        }
        if self.len >= MAX_REMEMBERED {
            self.keys.fill(0);
            self.len = 0;
        }
        let i = self.slot(k);
        self.keys[i] = k;
        self.lines[i] = u32::try_from(line).unwrap_or(u32::MAX);
        let part = sink.part();
        if part > 0 && self.parts.is_empty() {
            self.parts = vec![0; SLOTS];
        }
        if let Some(p) = self.parts.get_mut(i) {
            *p = u16::try_from(part).unwrap_or(u16::MAX);
        }
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;

    fn row(line: u64, fingerprint: u64) -> LineItem {
        let mut item = LineItem::new(line, "GPU pod", Decimal::new(1380, 2));
        item.fingerprint = fingerprint;
        item
    }

    #[test]
    fn a_repeat_names_the_first_line_until_the_memory_starts_afresh() {
        let policy = Policy {
            max_findings_per_code: usize::MAX,
            ..Policy::default()
        };
        let mut sink = Sink::new("bill.csv", &policy);
        let mut seen = Seen::default();
        // A fingerprint of 0 means none: the row's fields are hashed instead.
        for (line, fp) in [(2, 7), (3, 0), (4, 7), (5, 7), (6, 0), (7, 1)] {
            seen.add(&row(line, fp), &mut sink);
        }
        let found: Vec<(Option<u64>, bool)> = sink
            .findings
            .iter()
            .map(|f| (f.line, f.message.starts_with("repeats line 2 ")))
            .collect();
        assert_eq!(found, [(Some(4), true), (Some(5), true), (Some(6), false)]);
        assert!(sink.findings[2].message.starts_with("repeats line 3 "));
        // A zero amount costs nothing twice.
        let mut zero = row(8, 7);
        zero.amount = Decimal::ZERO;
        seen.add(&zero, &mut sink);
        assert_eq!(sink.findings.len(), 3);
        // Past MAX_REMEMBERED distinct rows, the memory starts afresh.
        let mut seen = Seen::default();
        let mut sink = Sink::new("bill.csv", &policy);
        for i in 0..MAX_REMEMBERED as u64 {
            seen.add(&row(i + 2, 1000 + i * 0x9e37_79b9), &mut sink);
        }
        seen.add(&row(9, 1000), &mut sink);
        assert_eq!(sink.findings.len(), 1, "still remembered");
        seen.add(&row(10, 5), &mut sink);
        seen.add(&row(11, 1000 + 0x9e37_79b9), &mut sink);
        assert_eq!(sink.findings.len(), 1, "forgotten after the cap");
    }

    #[test]
    fn a_repeat_of_a_row_in_an_earlier_part_names_that_part() {
        let policy = Policy::default();
        let mut sink = Sink::new("d/bill_1.csv + bill_2.csv", &policy);
        let mut seen = Seen::default();
        sink.begin_part("d/bill_1.csv");
        seen.add(&row(2, 7), &mut sink);
        sink.begin_part("d/bill_2.csv");
        seen.add(&row(2, 8), &mut sink);
        seen.add(&row(3, 7), &mut sink);
        seen.add(&row(4, 8), &mut sink);
        let found: Vec<(&str, Option<u64>, &str)> = sink
            .findings
            .iter()
            .map(|f| (f.path.as_str(), f.line, f.message.as_str()))
            .collect();
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].0, found[0].1), ("d/bill_2.csv", Some(3)));
        assert!(
            found[0].2.starts_with("repeats line 2 of d/bill_1.csv in "),
            "{}",
            found[0].2
        );
        assert_eq!((found[1].0, found[1].1), ("d/bill_2.csv", Some(4)));
        assert!(
            found[1].2.starts_with("repeats line 2 in "),
            "{}",
            found[1].2
        );
    }

    #[test]
    fn colliding_keys_probe_on_and_each_finds_its_own_first_line() {
        let policy = Policy::default();
        let mut sink = Sink::new("bill.csv", &policy);
        let mut seen = Seen::default();
        // Fingerprints SLOTS, 2 x SLOTS and 3 x SLOTS all start at slot 0.
        let s = SLOTS as u64;
        for (line, fp) in [
            (2, s),
            (3, 2 * s),
            (4, 3 * s),
            (5, s),
            (6, 2 * s),
            (7, 3 * s),
        ] {
            seen.add(&row(line, fp), &mut sink);
        }
        let firsts: Vec<(Option<u64>, &str)> = sink
            .findings
            .iter()
            .map(|f| (f.line, &f.message[..14]))
            .collect();
        assert_eq!(
            firsts,
            [
                (Some(5), "repeats line 2"),
                (Some(6), "repeats line 3"),
                (Some(7), "repeats line 4"),
            ]
        );
        assert_eq!(
            sink.findings[0].message,
            "repeats line 2 in resource, item, period, quantity and amount: GPU pod 13.80 is charged again"
        );
    }

    #[test]
    fn credits_listed_in_one_row_are_told_apart_by_amount() {
        let policy = Policy::default();
        let mut sink = Sink::new("bill.csv", &policy);
        let mut seen = Seen::default();
        let credit = |line: u64, cents: i64, id: &'static str| {
            let mut i = row(line, 42);
            i.amount = Decimal::new(cents, 2);
            i.forced = Some((crate::model::Category::Credit, id));
            i
        };
        // Two credits inside one GCP row: different amounts, not repeats.
        seen.add(&credit(2, -100, "credit-list"), &mut sink);
        seen.add(&credit(2, -250, "credit-list"), &mut sink);
        assert!(sink.findings.is_empty());
        // Another forced rule on the same fingerprint: the fingerprint
        // alone decides (it already covers the amount cell).
        seen.add(&credit(3, -300, "other"), &mut sink);
        seen.add(&credit(4, -400, "other"), &mut sink);
        assert_eq!(sink.findings.len(), 1);
        assert_eq!(sink.findings[0].line, Some(4));
        assert!(sink.findings[0].message.starts_with("repeats line 3 in "));
    }

    #[test]
    fn a_bill_whose_first_part_adds_no_row_still_names_parts_right() {
        let policy = Policy::default();
        let mut sink = Sink::new("bill_1.csv + bill_2.csv", &policy);
        let mut seen = Seen::default();
        sink.begin_part("bill_1.csv");
        let mut zero = row(2, 9);
        zero.amount = Decimal::ZERO;
        seen.add(&zero, &mut sink);
        sink.begin_part("bill_2.csv");
        // Two rows remembered in part 2, then a repeat of the first: the
        // part of the first must survive the second being remembered.
        seen.add(&row(2, 7), &mut sink);
        seen.add(&row(3, 8), &mut sink);
        seen.add(&row(4, 7), &mut sink);
        assert_eq!(sink.findings.len(), 1);
        assert_eq!(sink.findings[0].path, "bill_2.csv");
        assert_eq!(sink.findings[0].line, Some(4));
        assert!(
            sink.findings[0].message.starts_with("repeats line 2 in "),
            "{}",
            sink.findings[0].message
        );
    }
}
