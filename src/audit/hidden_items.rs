//! The largest hidden-fee line items of a bill, kept while the rows stream
//! by: a min-heap of at most [`TOP_HIDDEN`] items, so memory stays constant
//! however long the bill is. Not a check: reports (HTML) show these items
//! with their source lines.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use rust_decimal::Decimal;

use crate::model::{Category, LineItem};

/// How many hidden-fee items a bill keeps.
pub const TOP_HIDDEN: usize = 10;

/// A kept description is cut to this many characters, so ten kept items stay
/// small even when a bill carries megabyte-long descriptions.
pub const MAX_KEPT_DESCRIPTION: usize = 2000;

/// One hidden-fee line item (storage_replica, bandwidth or scheduling).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenItem {
    pub amount: Decimal,
    /// The file of the line: the bill's, or for a bill merged from split
    /// parts the part the line comes from.
    pub path: String,
    /// 1-based line of the source file.
    pub line: u64,
    /// The part of the bill the line comes from (a `Sink::part`).
    pub part: usize,
    /// The description, cut to [`MAX_KEPT_DESCRIPTION`] characters.
    pub description: String,
    /// True when `description` was cut.
    pub description_cut: bool,
    pub category: Category,
}

/// Heap order: a larger amount ranks higher; on equal amounts the earlier
/// line does, so the result does not depend on anything but the input.
#[derive(Debug)]
struct Ranked(HiddenItem);

impl Ranked {
    fn key(&self) -> (Decimal, Reverse<(usize, u64)>) {
        (self.0.amount, Reverse((self.0.part, self.0.line)))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// The running top-N of positive hidden-fee items, plus how many there were.
#[derive(Debug, Default)]
pub struct TopHidden {
    /// Min-heap: the weakest kept item is on top, ready to be replaced.
    heap: BinaryHeap<Reverse<Ranked>>,
    /// Every positive hidden-fee item seen, kept or not.
    pub seen: u64,
}

impl TopHidden {
    /// Considers one classified item. Refunds and corrections (amount <= 0)
    /// are not fees and are not ranked.
    pub fn add(&mut self, item: &LineItem) {
        self.add_in(item, 0);
    }

    /// [`TopHidden::add`] for an item of part `part` of a merged bill.
    pub fn add_in(&mut self, item: &LineItem, part: usize) {
        if !item.category.is_hidden() || item.amount <= Decimal::ZERO {
            return;
        }
        self.seen += 1;
        let key = (item.amount, Reverse((part, item.line)));
        self.offer(key, || {
            // Only items that make the list pay for a copy of their text.
            let (description, description_cut) = cut(&item.description, MAX_KEPT_DESCRIPTION);
            HiddenItem {
                amount: item.amount,
                path: String::new(),
                line: item.line,
                part,
                description,
                description_cut,
                category: item.category,
            }
        });
    }

    /// Keeps the item of rank `key` if it is among the [`TOP_HIDDEN`] best.
    fn offer(&mut self, key: (Decimal, Reverse<(usize, u64)>), item: impl FnOnce() -> HiddenItem) {
        if self.heap.len() >= TOP_HIDDEN {
            match self.heap.peek() {
                Some(Reverse(weakest)) if key <= weakest.key() => return,
                _ => {}
            }
            self.heap.pop();
        }
        self.heap.push(Reverse(Ranked(item())));
    }

    /// Adds the items of the rows right after these: the best of both
    /// lists are the best of all their rows.
    pub fn merge(&mut self, later: Self) {
        self.seen += later.seen;
        for Reverse(Ranked(item)) in later.heap.into_sorted_vec() {
            let r = Ranked(item);
            self.offer(r.key(), || r.0);
        }
    }

    /// The list, its items counted as of part `part` of the bill.
    pub fn in_part(self, part: usize) -> Self {
        self.map_items(|h| h.part = part)
    }

    /// Moves every kept item's line by `by`.
    pub fn shift_lines(self, by: u64) -> Self {
        self.map_items(|h| h.line += by)
    }

    fn map_items(self, f: impl Fn(&mut HiddenItem)) -> Self {
        let heap = self
            .heap
            .into_iter()
            .map(|Reverse(Ranked(mut h))| {
                f(&mut h);
                Reverse(Ranked(h))
            })
            .collect();
        TopHidden {
            heap,
            seen: self.seen,
        }
    }

    /// The kept items, largest first; `path` is left empty for the bill
    /// to fill in from `part`.
    pub fn finish(self) -> Vec<HiddenItem> {
        // Ascending order of Reverse<Ranked> is descending rank.
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|Reverse(Ranked(item))| item)
            .collect()
    }
}

/// The first `max` characters of `s`, and whether anything was cut.
pub fn cut(s: &str, max: usize) -> (String, bool) {
    match s.char_indices().nth(max) {
        Some((i, _)) => (s[..i].to_string(), true),
        None => (s.to_string(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(line: u64, amount: i64, category: Category) -> LineItem {
        let mut it = LineItem::new(line, format!("item {line}"), Decimal::new(amount, 2));
        it.category = category;
        it
    }

    #[test]
    fn keeps_the_largest_ten_in_order_with_earlier_lines_first_on_ties() {
        let mut top = TopHidden::default();
        for line in 1..=100u64 {
            let amount = (line % 17) as i64 * 100;
            top.add(&item(line, amount, Category::Bandwidth));
        }
        top.add(&item(200, 5000, Category::Compute));
        top.add(&item(201, -9000, Category::Scheduling));
        let seen = top.seen;
        let kept = top.finish();
        assert_eq!(kept.len(), TOP_HIDDEN);
        // Positive hidden items only: lines with line % 17 != 0.
        assert_eq!(seen, 100 - 5);
        let got: Vec<(u64, String)> = kept
            .iter()
            .map(|h| (h.line, h.amount.to_string()))
            .collect();
        // 16 x 1.00 occurs at lines 16, 33, 50, 67, 84; 15.00 at 15, 32, ...
        assert_eq!(got[0], (16, "16.00".to_string()));
        assert_eq!(got[4], (84, "16.00".to_string()));
        assert_eq!(got[5], (15, "15.00".to_string()));
        assert_eq!(got[9], (83, "15.00".to_string()));
    }

    #[test]
    fn long_descriptions_are_cut_on_a_char_boundary() {
        let mut it = item(3, 100, Category::StorageReplica);
        it.description = "快".repeat(MAX_KEPT_DESCRIPTION + 5);
        let mut top = TopHidden::default();
        top.add(&it);
        let kept = top.finish();
        assert!(kept[0].description_cut);
        assert_eq!(kept[0].description.chars().count(), MAX_KEPT_DESCRIPTION);
    }

    fn ranked(line: u64, part: usize, amount: i64, desc: &str) -> Ranked {
        let mut i = item(line, amount, Category::Bandwidth);
        i.description = desc.into();
        Ranked(HiddenItem {
            amount: i.amount,
            path: String::new(),
            line,
            part,
            description: i.description,
            description_cut: false,
            category: i.category,
        })
    }

    #[test]
    fn rank_is_amount_then_earlier_part_and_line() {
        let a = ranked(5, 0, 100, "a");
        // Same amount, part and line, other text: the same rank.
        assert!(a == ranked(5, 0, 100, "b"));
        assert!(a != ranked(5, 0, 200, "a"));
        assert!(a != ranked(6, 0, 100, "a"));
        // Larger amount ranks higher; on a tie the earlier line, then the
        // earlier part.
        assert_eq!(a.cmp(&ranked(5, 0, 200, "a")), Ordering::Less);
        assert_eq!(a.cmp(&ranked(9, 0, 100, "a")), Ordering::Greater);
        assert_eq!(a.cmp(&ranked(1, 1, 100, "a")), Ordering::Greater);
        assert_eq!(a.cmp(&ranked(5, 0, 100, "z")), Ordering::Equal);
        assert_eq!(a.partial_cmp(&ranked(5, 0, 200, "a")), Some(Ordering::Less));
        assert_eq!(
            a.partial_cmp(&ranked(5, 0, 50, "a")),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn a_full_list_keeps_the_earlier_of_equal_items() {
        let mut top = TopHidden::default();
        // Ten items of 1.00 (lines 1..=10), then an equal one (line 11):
        // not kept; then 2.00 (line 12) replaces the weakest, line 10.
        for line in 1..=11 {
            top.add_in(&item(line, 100, Category::Scheduling), 0);
        }
        top.add_in(&item(12, 200, Category::StorageReplica), 1);
        assert_eq!(top.seen, 12);
        let kept = top.finish();
        let lines: Vec<u64> = kept.iter().map(|h| h.line).collect();
        assert_eq!(lines, [12, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(kept[0].part, 1);
        assert_eq!(kept[0].category, Category::StorageReplica);
        assert_eq!(kept[0].description, "item 12");
        assert!(!kept[0].description_cut);
        // A zero amount is not ranked, nor counted.
        let mut top = TopHidden::default();
        top.add(&item(1, 0, Category::Bandwidth));
        assert_eq!(top.seen, 0);
        assert!(top.finish().is_empty());
    }

    #[test]
    fn cut_texts() {
        assert_eq!(cut("abc", 5), ("abc".to_string(), false));
        assert_eq!(cut("abc", 3), ("abc".to_string(), false));
        assert_eq!(cut("abcdef", 3), ("abc".to_string(), true));
        assert_eq!(cut("快乐快乐", 1), ("快".to_string(), true));
    }
}
