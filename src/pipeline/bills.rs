//! Bill assembly: one bill per currency in a file, in order of first
//! appearance, built from the row outcomes of every reader.

use crate::audit::parse_double_counted::Stated;
use crate::audit::{Bill, BillState, Caches, Policy};
use crate::error::{Error, InputError, Result};
use crate::model::{Category, Check, LineItem};
use crate::normalise::date::DateOrder;
use crate::normalise::{RowOutcome, SkipReason};
use crate::vocab::summary::SummaryKind;

use super::unlabelled::Unlabelled;

mod held;

/// The bills of a file (one per currency, in order of first appearance),
/// or what a range of its rows read on another thread gives them: one
/// state, updated with rows ([`Bills::add_outcome`]), merged with the state
/// of the rows right after ([`Bills::merge`]) and finished into the bills.
pub(super) struct Bills<'p> {
    policy: &'p Policy,
    route: Route<'p>,
    /// Set on every bill of the file (a CSV without a currency column).
    pub(super) currency_note: Option<String>,
    /// What the report says about how the file was read (the order of its
    /// slashed dates), on every bill of the file.
    pub(super) notes: Vec<String>,
    /// See [`Bill::encoding`].
    pub(super) encoding: Option<crate::ingest::EncodingChoice>,
    /// See [`Bill::inferred_columns`].
    pub(super) inferred_columns: Vec<crate::normalise::infer::InferredColumn>,
    /// Every subtotal and total stated is kept for `parse-double-counted`
    /// (a text invoice), not only the last ones.
    pub(super) keep_stated_figures: bool,
    /// The first line of the rows read whose dates prove day-first
    /// / month-first (see `LineItem::date_proves`).
    pub(super) proved: [Option<u64>; 2],
    /// A row that may be a subtotal under a label no vocabulary knows,
    /// held until the stated total decides it: only in a small CSV, read
    /// on one thread (`hold_unlabelled`).
    unlabelled: Unlabelled,
    pub(super) hold_unlabelled: bool,
}

/// Which bill a row goes to.
enum Route<'p> {
    /// The file's bills, from its first row: a row's bill is known.
    File(FileBills<'p>),
    /// A range read after rows not seen here: which bill a row without a
    /// currency goes to depends on the rows before the range (it goes to
    /// the primary bill, which may be the bill of the first currency
    /// seen). The range keeps its rows' states in runs: a run of rows
    /// without a currency (and skips, which go to the primary bill), or a
    /// run of rows with currencies, one state per currency in order of
    /// first appearance (rows of two currencies never share a bill). Each
    /// bill then gets its rows' states in file order ([`Bills::merge`]).
    Range {
        runs: Vec<Run<'p>>,
        /// The caches the range's first state starts with (the reader's,
        /// from its earlier ranges).
        caches: Caches,
    },
}

struct FileBills<'p> {
    path: String,
    /// The file now read, for a bill merged from parts ([`Bills::begin_part`]).
    part: Option<String>,
    format: String,
    default_currency: Option<String>,
    list: Vec<BillState<'p>>,
}

enum Run<'p> {
    Primary(Box<BillState<'p>>),
    Currencies(Vec<(String, BillState<'p>)>),
}

impl<'p> Bills<'p> {
    /// The bills of a file, from its first row.
    pub(super) fn new(
        path: &str,
        format: &str,
        default_currency: Option<String>,
        policy: &'p Policy,
    ) -> Self {
        let file = FileBills {
            path: path.to_string(),
            part: None,
            format: format.to_string(),
            default_currency,
            list: Vec::new(),
        };
        Bills::with_route(policy, Route::File(file))
    }

    /// The currency of the rows without one, when the file's first rows
    /// tell it after the bills were made (a symbol in their cells); before
    /// any row is added.
    pub(super) fn set_default_currency(&mut self, code: String) {
        if let Route::File(file) = &mut self.route {
            file.default_currency = Some(code);
        }
    }

    /// What a range of a file's rows read on another thread gives its
    /// bills, starting with the reader's caches.
    pub(super) fn range(policy: &'p Policy, caches: Caches) -> Self {
        let runs = Vec::new();
        Bills::with_route(policy, Route::Range { runs, caches })
    }

    fn with_route(policy: &'p Policy, route: Route<'p>) -> Self {
        Bills {
            policy,
            route,
            currency_note: None,
            notes: Vec::new(),
            encoding: None,
            inferred_columns: Vec::new(),
            keep_stated_figures: false,
            proved: [None; 2],
            unlabelled: Unlabelled::default(),
            hold_unlabelled: false,
        }
    }

    /// The rows added from now on come from the file `path`: findings on
    /// them name it (a part of a merged bill, or the one file). A range's
    /// rows are of the part being read when it is merged.
    pub(super) fn begin_part(&mut self, path: &str) {
        if let Route::File(f) = &mut self.route {
            for b in &mut f.list {
                b.begin_part(path);
            }
            f.part = Some(path.to_string());
        }
    }

    /// The policy the bills are judged by, for checks run on other threads.
    pub(super) fn policy(&self) -> &'p Policy {
        self.policy
    }

    /// The bill (or state) that takes rows without a currency: the
    /// header's currency, or the first currency seen.
    fn primary(&mut self) -> &mut BillState<'p> {
        match &mut self.route {
            Route::File(f) => f.primary(self.policy),
            Route::Range { runs, caches } => {
                if !matches!(runs.last(), Some(Run::Primary(_))) {
                    let p = BillState::later_with_caches(self.policy, std::mem::take(caches));
                    runs.push(Run::Primary(Box::new(p)));
                }
                match runs.last_mut() {
                    Some(Run::Primary(p)) => p,
                    _ => unreachable!("a primary run was just pushed"),
                }
            }
        }
    }

    fn for_currency(&mut self, currency: &Option<String>) -> &mut BillState<'p> {
        let Some(c) = currency else {
            return self.primary();
        };
        match &mut self.route {
            Route::File(f) => f.for_currency(c, self.policy),
            Route::Range { runs, caches } => {
                if !matches!(runs.last(), Some(Run::Currencies(_))) {
                    runs.push(Run::Currencies(Vec::new()));
                }
                let Some(Run::Currencies(list)) = runs.last_mut() else {
                    unreachable!("a currency run was just pushed")
                };
                let i = match list.iter().position(|(x, _)| x == c) {
                    Some(i) => i,
                    None => {
                        let p = BillState::later_with_caches(self.policy, std::mem::take(caches));
                        list.push((c.clone(), p));
                        list.len() - 1
                    }
                };
                &mut list[i].1
            }
        }
    }

    fn add_item(&mut self, item: &LineItem) {
        if let Some(o) = item.date_proves {
            // Items arrive in file order: the first is the earliest.
            self.proved[usize::from(o == DateOrder::MonthFirst)].get_or_insert(item.line);
        }
        // Borrowed, not cloned: this runs once per row on the ordering thread.
        self.for_currency(&item.currency).add_item(item);
    }

    /// Adds one classified row's outcome (of line `line`) to the bills, in
    /// file order, showing each item to `seen` (the item hook of
    /// `billaudit lines`). The outcome is borrowed (only a skip's finding
    /// is taken out of it), so that the thread that made it also frees it.
    /// The one row step of every reader: a CSV on one thread, a range, a
    /// Parquet row group, a text invoice's lines.
    pub(super) fn add_outcome(
        &mut self,
        outcome: &mut RowOutcome,
        line: u64,
        mut seen: impl FnMut(&LineItem),
    ) {
        match outcome {
            RowOutcome::Item(item) => {
                seen(item);
                if self.holds_unlabelled() {
                    self.release_total();
                    if self.closes_unlabelled(item, line)
                        || self.total_after_subtotal(item)
                        || self.unlabelled.hold(item)
                    {
                        return;
                    }
                }
                self.add_item(item);
            }
            RowOutcome::WithCredits(item, credits) => {
                seen(item);
                self.release_total();
                self.add_item(item);
                for c in credits.iter() {
                    seen(c);
                    self.add_item(c);
                }
            }
            RowOutcome::Skip(reason, finding) => self.primary().add_skip(*reason, finding.take()),
            RowOutcome::Remark(finding, shape) => {
                self.primary().add_ragged((**finding).clone(), shape);
            }
            RowOutcome::TopUp(label) => {
                self.release_total();
                self.primary().add_top_up(line, label);
            }
            RowOutcome::Unstated { kind, label } => {
                self.primary().add_unstated(line, *kind, label);
            }
            RowOutcome::Stated {
                kind,
                amount,
                currency,
                less_tax,
            } => {
                self.primary().add_skip(SkipReason::Summary, None);
                let (kind, currency) = (*kind, &*currency);
                let Some(amount) = self.net_of_line_tax(*amount, *less_tax, currency) else {
                    return;
                };
                if self.holds_unlabelled() {
                    self.release_total();
                    self.decide_unlabelled(kind, amount, currency);
                    if kind == SummaryKind::Subtotal {
                        let agrees = self
                            .for_currency(currency)
                            .totals
                            .checked_sum(|c| !matches!(c, Category::Tax | Category::Credit))
                            .is_some_and(|items| crate::audit::agrees(amount, items));
                        self.unlabelled.subtotal_stated(agrees);
                    }
                }
                let keep = self.keep_stated_figures;
                let stated = Some((line, amount));
                let bill = self.for_currency(currency);
                if keep {
                    bill.stated_figures.push(Stated {
                        line,
                        amount,
                        total: kind == SummaryKind::Total,
                    });
                }
                // The last subtotal and total stated are the ones checked.
                if kind == SummaryKind::Subtotal {
                    bill.stated_subtotal = stated;
                } else {
                    bill.stated_total = stated;
                }
            }
        }
    }

    /// The caches of a range's first state, for the reader's next range.
    pub(super) fn take_caches(&mut self) -> Caches {
        match &mut self.route {
            Route::File(_) => Caches::default(),
            Route::Range { runs, caches } => match runs.first_mut() {
                Some(Run::Primary(p)) => p.take_caches(),
                Some(Run::Currencies(list)) => list
                    .first_mut()
                    .map_or_else(Caches::default, |(_, p)| p.take_caches()),
                None => std::mem::take(caches),
            },
        }
    }

    /// Gives back the caches taken by [`Bills::take_caches`], to a state
    /// that reads on.
    pub(super) fn give_caches(&mut self, given: Caches) {
        if let Route::Range { runs, caches } = &mut self.route {
            match runs.first_mut() {
                Some(Run::Primary(p)) => p.give_caches(given),
                Some(Run::Currencies(list)) => {
                    if let Some((_, p)) = list.first_mut() {
                        p.give_caches(given);
                    }
                }
                None => *caches = given,
            }
        }
    }

    /// Moves every line of a range by `by` (a range counts its lines from
    /// its start; a file's bills count them from the file's).
    pub(super) fn shift_lines(&mut self, by: u64) {
        for p in self.proved.iter_mut().flatten() {
            *p += by;
        }
        match &mut self.route {
            Route::File(_) => debug_assert!(false, "a file's bills are never shifted"),
            Route::Range { runs, .. } => {
                for run in runs {
                    match run {
                        Run::Primary(p) => p.shift_lines(by),
                        Run::Currencies(list) => {
                            for (_, p) in list {
                                p.shift_lines(by);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds the rows of a range read on another thread, right after the
    /// rows added so far, as if they were added one by one: each run of
    /// its rows goes to the bill its rows would have gone to.
    pub(super) fn merge(&mut self, later: Bills<'p>) {
        for (proved, line) in self.proved.iter_mut().zip(later.proved) {
            if let Some(line) = line {
                proved.get_or_insert(line);
            }
        }
        let Route::Range { runs, .. } = later.route else {
            unreachable!("only a range's state merges into the rows before it")
        };
        if let Route::Range { runs: to, .. } = &mut self.route {
            to.extend(runs);
            return;
        }
        for run in runs {
            match run {
                Run::Primary(p) => self.primary().merge(*p),
                Run::Currencies(list) => {
                    for (currency, p) in list {
                        self.for_currency(&Some(currency)).merge(p);
                    }
                }
            }
        }
    }

    pub(super) fn finish(mut self, path: &str) -> Result<Vec<Bill>> {
        if let Some(item) = self.unlabelled.release() {
            // No total came to decide it: an item after all.
            self.add_item(&item);
        }
        self.close_total();
        let mut list = match self.route {
            Route::File(ref mut f) => {
                if f.list.is_empty() {
                    f.primary(self.policy);
                }
                std::mem::take(&mut f.list)
            }
            Route::Range { .. } => {
                // The rows of a range alone: the bills of a file of them.
                let mut file = Bills::new(path, "", None, self.policy);
                file.merge(self);
                return file.finish(path);
            }
        };
        if let Some(line) = list.iter().find_map(|b| b.overflow_at) {
            return Err(Error::Input(Box::new(InputError {
                path: path.to_string(),
                line: Some(line),
                column: None,
                field: None,
                message: "amounts add up beyond the range of an exact decimal (28 digits)".into(),
                snippet: None,
            })));
        }
        if list.iter().any(|b| !b.totals.sums_fit()) {
            // Each category fits, but together they do not: never a saturated total.
            return Err(Error::input(
                path,
                "the category totals add up beyond the range of an exact decimal (28 digits)",
            ));
        }
        if list.len() > 1 {
            let names: Vec<String> = list
                .iter()
                .map(|b| b.currency.clone().unwrap_or_else(|| "unknown".into()))
                .collect();
            let msg = format!(
                "the file holds {} currencies ({}); it is audited as one bill per currency",
                names.len(),
                names.join(", ")
            );
            for b in &mut list {
                b.emit(Check::MixedCurrency, None, msg.clone());
            }
        }
        let notes = self.notes;
        let currency_note = self.currency_note;
        let encoding = self.encoding;
        let inferred = self.inferred_columns;
        Ok(list
            .into_iter()
            .map(|b| {
                let mut bill = b.finish();
                // The file's notes, then the bill's own.
                bill.notes.splice(0..0, notes.iter().cloned());
                bill.currency_note.clone_from(&currency_note);
                bill.encoding.clone_from(&encoding);
                bill.inferred_columns.clone_from(&inferred);
                bill
            })
            .collect())
    }
}

impl<'p> FileBills<'p> {
    /// A new bill (another currency), told which part is being read.
    fn open(&self, currency: Option<String>, policy: &'p Policy) -> BillState<'p> {
        let mut b = BillState::new(&self.path, &self.format, currency, policy);
        if let Some(p) = &self.part {
            b.begin_part(p);
        }
        b
    }

    /// See [`Bills::primary`].
    fn primary(&mut self, policy: &'p Policy) -> &mut BillState<'p> {
        let cur = self.default_currency.clone();
        let i = match self.list.iter().position(|b| b.currency == cur) {
            Some(i) => i,
            None if !self.list.is_empty() && cur.is_none() => 0,
            None => {
                let b = self.open(cur, policy);
                self.list.push(b);
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }

    fn for_currency(&mut self, c: &str, policy: &'p Policy) -> &mut BillState<'p> {
        // Compared borrowed: this runs once per row on the ordering thread.
        if let Some(i) = self
            .list
            .iter()
            .position(|b| b.currency.as_deref() == Some(c))
        {
            return &mut self.list[i];
        }
        let currency = Some(c.to_string());
        // A bill opened for currency-less rows takes the first stated currency.
        if let Some(i) = self.list.iter().position(|b| b.currency.is_none()) {
            self.list[i].currency.clone_from(&currency);
            if self.default_currency.is_none() {
                self.default_currency.clone_from(&currency);
            }
            return &mut self.list[i];
        }
        if self.default_currency.is_none() {
            self.default_currency.clone_from(&currency);
        }
        let b = self.open(currency, policy);
        self.list.push(b);
        let n = self.list.len() - 1;
        &mut self.list[n]
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;
    use crate::model::Category;

    /// Rows of a file of two currencies: rows without one go to the
    /// primary bill, which is the first currency stated (USD).
    fn rows() -> Vec<(u64, RowOutcome)> {
        let item = |line: u64, currency: Option<&str>, cents: i64, category: Category| {
            let mut i = LineItem::new(line, format!("item {line}"), Decimal::new(cents, 2));
            i.currency = currency.map(String::from);
            i.category = category;
            i.rule = "test".into();
            RowOutcome::Item(Box::new(i))
        };
        vec![
            (2, item(2, None, 1000, Category::Compute)),
            (3, item(3, Some("USD"), 250, Category::Bandwidth)),
            (4, item(4, Some("EUR"), 700, Category::Storage)),
            (5, RowOutcome::Skip(SkipReason::Blank, None)),
            (6, item(6, None, 125, Category::Scheduling)),
            (7, item(7, Some("EUR"), 300, Category::Compute)),
            (
                8,
                RowOutcome::Stated {
                    kind: SummaryKind::Total,
                    amount: Decimal::new(1375, 2),
                    currency: None,
                    less_tax: false,
                },
            ),
            (9, item(9, Some("USD"), 1000, Category::Compute)),
        ]
    }

    fn file<'p>(policy: &'p Policy, rows: &mut [(u64, RowOutcome)]) -> Bills<'p> {
        let mut bills = Bills::new("b.csv", "csv", None, policy);
        for (line, outcome) in rows {
            bills.add_outcome(outcome, *line, |_| {});
        }
        bills
    }

    /// A range's rows as its reader counts them (from line 1), shifted.
    fn range<'p>(policy: &'p Policy, rows: &mut [(u64, RowOutcome)]) -> Bills<'p> {
        let by = rows.first().map_or(0, |(l, _)| l - 1);
        let mut bills = Bills::range(policy, Caches::default());
        for (line, outcome) in rows {
            if let RowOutcome::Item(item) = outcome {
                item.line -= by;
            }
            bills.add_outcome(outcome, *line - by, |_| {});
        }
        bills.shift_lines(by);
        bills
    }

    #[test]
    fn ranges_merged_in_order_give_the_files_bills() {
        let policy = Policy::default();
        let want = file(&policy, &mut rows()).finish("b.csv").unwrap();
        // By hand: USD gets lines 2, 3, 6, 9 (10.00 + 2.50 + 1.25 + 10.00 =
        // 23.75) and the stated total 13.75 of line 8; EUR lines 4 and 7
        // (7.00 + 3.00 = 10.00).
        assert_eq!(want.len(), 2);
        assert_eq!(want[0].currency.as_deref(), Some("USD"));
        assert_eq!(want[0].total, Decimal::new(2375, 2));
        assert_eq!(want[0].stated_total, Some(Decimal::new(1375, 2)));
        assert_eq!(want[1].total, Decimal::new(1000, 2));
        for cuts in [[1, 4], [0, 5], [3, 3], [2, 7], [1, 2]] {
            let mut r = rows();
            let (head, rest) = r.split_at_mut(cuts[0]);
            let (mid, tail) = rest.split_at_mut(cuts[1] - cuts[0]);
            // The ranges merged one by one into the file's bills.
            let mut bills = file(&policy, head);
            bills.merge(range(&policy, mid));
            bills.merge(range(&policy, tail));
            assert_eq!(bills.finish("b.csv").unwrap(), want, "cuts {cuts:?}");
            // The later two merged first.
            let mut r = rows();
            let (head, rest) = r.split_at_mut(cuts[0]);
            let (mid, tail) = rest.split_at_mut(cuts[1] - cuts[0]);
            let mut later = range(&policy, mid);
            later.merge(range(&policy, tail));
            let mut bills = file(&policy, head);
            bills.merge(later);
            assert_eq!(bills.finish("b.csv").unwrap(), want, "cuts {cuts:?}, b + c");
        }
    }
}
