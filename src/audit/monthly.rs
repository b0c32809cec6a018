//! Hidden fees and subtotal per calendar month, for the bills whose line
//! items carry dates (`LineItem.start`). Memory is bounded by the number of
//! months, and that number is capped at [`MAX_MONTHS`]: items of further
//! months are counted, never silently dropped. Not a check: reports (HTML)
//! draw the hidden share per month as a trend.

use std::collections::BTreeMap;

use chrono::Datelike;
use rust_decimal::Decimal;

use super::accumulator::Start;
use super::share;
use crate::model::LineItem;

/// At most this many distinct months are tracked per bill (ten years).
pub const MAX_MONTHS: usize = 120;

/// The figures of one month of one bill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthFigures {
    /// `YYYY-MM`.
    pub month: String,
    pub hidden: Decimal,
    pub subtotal: Decimal,
}

impl MonthFigures {
    /// hidden / subtotal with 6 places, `None` without a positive subtotal.
    pub fn hidden_share(&self) -> Option<Decimal> {
        share(self.hidden, self.subtotal)
    }
}

/// The month sums of one bill.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Monthly {
    /// Tracked months, oldest first.
    pub months: Vec<MonthFigures>,
    /// Line items without a readable date.
    pub undated_items: u64,
    /// Dated line items whose month was not tracked because
    /// [`MAX_MONTHS`] months were already tracked.
    pub untracked_items: u64,
}

/// Rows of one month: (year, month), hidden, subtotal, how many rows.
type MonthRows = ((i32, u32), Decimal, Decimal, u64);

/// Accumulates [`Monthly`] one item at a time, for a bill or a run of its
/// rows. Which [`MAX_MONTHS`] months are tracked depends on the order the
/// months first come, so a tally started `Start::After` keeps the rows of
/// the months past its own cap for its merge (the bill may track them);
/// the bill's own tally (`default`, `Start::First`) counts them.
#[derive(Debug, Default)]
pub struct MonthlyTally {
    /// (year, month) -> (hidden, subtotal, items that reached the month).
    sums: BTreeMap<(i32, u32), (Decimal, Decimal, u64)>,
    /// The tracked months in the order their first item came: which months
    /// two tallies track together depends on it ([`MonthlyTally::merge`]).
    order: Vec<(i32, u32)>,
    undated: u64,
    untracked: u64,
    /// Set for a tally started [`Start::After`]: the rows of
    /// months it did not track, (month, hidden, subtotal, rows), for the
    /// bill, which may track their months, to add (with how many rows).
    beyond: Option<Vec<MonthRows>>,
}

impl MonthlyTally {
    pub fn add(&mut self, item: &LineItem) {
        let Some(start) = item.start else {
            self.undated += 1;
            return;
        };
        let in_subtotal = item.category.in_subtotal();
        let hidden = item.category.is_hidden();
        if !in_subtotal && !hidden {
            // Tax and credit rows still date the bill but change neither sum.
            return;
        }
        let key = (start.year(), start.month());
        let zero = Decimal::ZERO;
        let amount = |yes: bool| if yes { item.amount } else { zero };
        self.add_sums(key, amount(hidden), amount(in_subtotal), 1);
    }

    /// Adds `n` rows' sums to a month, or counts them as untracked.
    fn add_sums(&mut self, key: (i32, u32), hidden: Decimal, subtotal: Decimal, n: u64) {
        if !self.sums.contains_key(&key) && self.sums.len() >= MAX_MONTHS {
            match &mut self.beyond {
                Some(rows) => rows.push((key, hidden, subtotal, n)),
                None => self.untracked += n,
            }
            return;
        }
        let slot = self.sums.entry(key).or_insert_with(|| {
            self.order.push(key);
            Default::default()
        });
        slot.2 += n;
        // A sum that no longer fits a Decimal refuses the whole bill (see
        // `BillState::overflow_at`), so saturating here never shows.
        slot.0 = slot.0.saturating_add(hidden);
        slot.1 = slot.1.saturating_add(subtotal);
    }

    /// The tally of no rows yet (see the type's docs).
    pub fn start(start: Start) -> Self {
        MonthlyTally {
            beyond: (start == Start::After).then(Vec::new),
            ..MonthlyTally::default()
        }
    }

    /// Adds the tally of the rows right after these. The months tracked
    /// are the first [`MAX_MONTHS`] of all the rows, as one tally would
    /// track them: the later rows' months in the order they came, then the
    /// rows of the months the later tally did not track (all of which came
    /// after its tracked months first did).
    pub fn merge(&mut self, later: Self) {
        self.undated += later.undated;
        self.untracked += later.untracked;
        let mut sums = later.sums;
        for key in later.order {
            if let Some((hidden, subtotal, n)) = sums.remove(&key) {
                self.add_sums(key, hidden, subtotal, n);
            }
        }
        for (key, hidden, subtotal, n) in later.beyond.into_iter().flatten() {
            self.add_sums(key, hidden, subtotal, n);
        }
    }

    pub fn finish(self) -> Monthly {
        Monthly {
            months: self
                .sums
                .into_iter()
                .map(|((y, m), (hidden, subtotal, _))| MonthFigures {
                    month: format!("{y:04}-{m:02}"),
                    hidden,
                    subtotal,
                })
                .collect(),
            undated_items: self.undated,
            untracked_items: self.untracked,
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;
    use crate::model::Category;

    fn dated(y: i32, m: u32, amount: i64, c: Category) -> LineItem {
        let mut it = LineItem::new(1, "x", Decimal::new(amount, 0));
        it.category = c;
        it.start = NaiveDate::from_ymd_opt(y, m, 3).and_then(|d| d.and_hms_opt(0, 0, 0));
        it
    }

    #[test]
    fn sums_per_month_in_order() {
        let mut t = MonthlyTally::default();
        t.add(&dated(2025, 11, 90, Category::Compute));
        t.add(&dated(2025, 10, 80, Category::Compute));
        t.add(&dated(2025, 10, 20, Category::Bandwidth));
        t.add(&dated(2025, 10, 7, Category::Tax));
        t.add(&LineItem::new(9, "undated", Decimal::ONE));
        let m = t.finish();
        assert_eq!(m.undated_items, 1);
        assert_eq!(m.months.len(), 2);
        assert_eq!(m.months[0].month, "2025-10");
        assert_eq!(m.months[0].hidden, Decimal::new(20, 0));
        assert_eq!(m.months[0].subtotal, Decimal::new(100, 0));
        assert_eq!(m.months[0].hidden_share().unwrap().to_string(), "0.200000");
        assert_eq!(m.months[1].hidden_share().unwrap().to_string(), "0.000000");
    }

    #[test]
    fn months_beyond_the_cap_are_counted() {
        let mut t = MonthlyTally::default();
        for i in 0..(MAX_MONTHS as i32 + 5) {
            t.add(&dated(
                2000 + i / 12,
                (i % 12) as u32 + 1,
                1,
                Category::Compute,
            ));
        }
        // A month already tracked still takes items.
        t.add(&dated(2000, 1, 1, Category::Compute));
        let m = t.finish();
        assert_eq!(m.months.len(), MAX_MONTHS);
        assert_eq!(m.untracked_items, 5);
        assert_eq!(m.months[0].subtotal, Decimal::new(2, 0));
    }

    #[test]
    fn tax_and_credit_rows_open_no_month_and_are_not_untracked() {
        let mut t = MonthlyTally::default();
        // A month with only tax and credit: no month, nothing untracked.
        t.add(&dated(2025, 12, 7, Category::Tax));
        t.add(&dated(2025, 12, -3, Category::Credit));
        t.add(&dated(2025, 11, 90, Category::Compute));
        let m = t.finish();
        assert_eq!(m.months.len(), 1);
        assert_eq!(m.months[0].month, "2025-11");
        assert_eq!(m.untracked_items, 0);
        // With every month slot taken, a tax row is not counted untracked.
        let mut t = MonthlyTally::default();
        for i in 0..MAX_MONTHS as i32 {
            t.add(&dated(
                2000 + i / 12,
                (i % 12) as u32 + 1,
                1,
                Category::Compute,
            ));
        }
        t.add(&dated(2999, 1, 7, Category::Tax));
        assert_eq!(t.finish().untracked_items, 0);
    }
}
