//! Bill assembly: one bill per currency in a file, in order of first
//! appearance, built from the items and skips of a CSV or text run.

use crate::audit::{Bill, BillState, Caches, Policy};
use crate::error::{Error, InputError, Result};
use crate::model::{Check, Finding, LineItem};
use crate::normalise::date::DateOrder;
use crate::normalise::{RowOutcome, SkipReason};
use crate::vocab::summary::SummaryKind;

/// One bill per currency in a file, in order of first appearance.
pub(super) struct Bills<'p> {
    path: String,
    /// The file now read, for a bill merged from parts ([`Bills::begin_part`]).
    part: Option<String>,
    format: String,
    default_currency: Option<String>,
    /// Set on every bill of the file (a CSV without a currency column).
    pub(super) currency_note: Option<String>,
    policy: &'p Policy,
    list: Vec<BillState<'p>>,
    /// What the report says about how the file was read (the order of its
    /// slashed dates), on every bill of the file.
    pub(super) notes: Vec<String>,
    /// See [`Bill::encoding`].
    pub(super) encoding: Option<crate::ingest::EncodingChoice>,
    /// See [`Bill::inferred_columns`].
    pub(super) inferred_columns: Vec<crate::normalise::infer::InferredColumn>,
    /// The first line of the input being read whose dates prove day-first
    /// / month-first (see `LineItem::date_proves`).
    pub(super) proved: [Option<u64>; 2],
}

impl<'p> Bills<'p> {
    pub(super) fn new(
        path: &str,
        format: &str,
        default_currency: Option<String>,
        policy: &'p Policy,
    ) -> Self {
        Bills {
            path: path.to_string(),
            part: None,
            format: format.to_string(),
            default_currency,
            currency_note: None,
            policy,
            list: Vec::new(),
            notes: Vec::new(),
            encoding: None,
            inferred_columns: Vec::new(),
            proved: [None; 2],
        }
    }

    /// The rows added from now on come from the file `path`: findings on
    /// them name it (a part of a merged bill, or the one file).
    pub(super) fn begin_part(&mut self, path: &str) {
        for b in &mut self.list {
            b.begin_part(path);
        }
        self.part = Some(path.to_string());
    }

    /// A new bill (another currency), told which part is being read.
    pub(super) fn open(&self, currency: Option<String>) -> BillState<'p> {
        let mut b = BillState::new(&self.path, &self.format, currency, self.policy);
        if let Some(p) = &self.part {
            b.begin_part(p);
        }
        b
    }

    /// The bill that takes rows without a currency: the header's currency, or
    /// the first currency seen.
    pub(super) fn primary(&mut self) -> &mut BillState<'p> {
        let cur = self.default_currency.clone();
        let i = match self.list.iter().position(|b| b.currency == cur) {
            Some(i) => i,
            None if !self.list.is_empty() && cur.is_none() => 0,
            None => {
                let b = self.open(cur);
                self.list.push(b);
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }

    pub(super) fn for_currency(&mut self, currency: &Option<String>) -> &mut BillState<'p> {
        if currency.is_none() {
            return self.primary();
        }
        if let Some(i) = self.list.iter().position(|b| &b.currency == currency) {
            return &mut self.list[i];
        }
        // A bill opened for currency-less rows takes the first stated currency.
        if let Some(i) = self.list.iter().position(|b| b.currency.is_none()) {
            self.list[i].currency = currency.clone();
            if self.default_currency.is_none() {
                self.default_currency = currency.clone();
            }
            return &mut self.list[i];
        }
        if self.default_currency.is_none() {
            self.default_currency = currency.clone();
        }
        let b = self.open(currency.clone());
        self.list.push(b);
        let n = self.list.len() - 1;
        &mut self.list[n]
    }

    /// The policy the bills are judged by, for checks run on other threads.
    pub(super) fn policy(&self) -> &'p Policy {
        self.policy
    }

    pub(super) fn add_item(&mut self, item: &LineItem) {
        if let Some(o) = item.date_proves {
            // Items arrive in file order: the first is the earliest.
            self.proved[usize::from(o == DateOrder::MonthFirst)].get_or_insert(item.line);
        }
        // Borrowed, not cloned: this runs once per row on the ordering thread.
        self.for_currency(&item.currency).add_item(item);
    }

    pub(super) fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.primary().add_skip(reason, finding);
    }

    /// Adds the rows of a range read on another thread, right after the
    /// rows added so far, as if they were added one by one: each run of
    /// its rows goes to the bill its rows would have gone to.
    pub(super) fn absorb(&mut self, range: RangeBills<'p>) {
        for (proved, line) in self.proved.iter_mut().zip(range.proved) {
            if let Some(line) = line {
                proved.get_or_insert(line);
            }
        }
        for run in range.runs {
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
        if self.list.is_empty() {
            self.primary();
        }
        if let Some(line) = self.list.iter().find_map(|b| b.overflow_at) {
            return Err(Error::Input(Box::new(InputError {
                path: path.to_string(),
                line: Some(line),
                column: None,
                field: None,
                message: "amounts add up beyond the range of an exact decimal (28 digits)".into(),
                snippet: None,
            })));
        }
        if self.list.iter().any(|b| !b.totals.sums_fit()) {
            // Each category fits, but together they do not: never a saturated total.
            return Err(Error::input(
                path,
                "the category totals add up beyond the range of an exact decimal (28 digits)",
            ));
        }
        if self.list.len() > 1 {
            let names: Vec<String> = self
                .list
                .iter()
                .map(|b| b.currency.clone().unwrap_or_else(|| "unknown".into()))
                .collect();
            let msg = format!(
                "the file holds {} currencies ({}); it is audited as one bill per currency",
                names.len(),
                names.join(", ")
            );
            for b in &mut self.list {
                b.emit(Check::MixedCurrency, None, msg.clone());
            }
        }
        let notes = self.notes;
        let currency_note = self.currency_note;
        let encoding = self.encoding;
        let inferred = self.inferred_columns;
        Ok(self
            .list
            .into_iter()
            .map(|b| {
                let mut bill = b.finish();
                bill.notes.clone_from(&notes);
                bill.currency_note.clone_from(&currency_note);
                bill.encoding.clone_from(&encoding);
                bill.inferred_columns.clone_from(&inferred);
                bill
            })
            .collect())
    }
}

/// What the rows of one range of a file give the file's bills, built on the
/// thread that read them ([`Bills::absorb`]).
///
/// Which bill a row goes to depends on the rows before the range: a row
/// without a currency goes to the primary bill, which may be the bill of
/// the first currency seen. The range keeps its rows' states in runs:
/// a run of rows without a currency (and skips, which go to the primary
/// bill), or a run of rows with currencies, one partial per currency in
/// order of first appearance (rows of two currencies never share a bill).
/// Each bill then gets its rows' partials in file order.
pub(super) struct RangeBills<'p> {
    policy: &'p Policy,
    runs: Vec<Run<'p>>,
    /// As [`Bills::proved`], for the range's rows.
    proved: [Option<u64>; 2],
    /// The caches the first partial starts with (the reader's, from its
    /// earlier ranges).
    caches: Caches,
}

enum Run<'p> {
    Primary(Box<BillState<'p>>),
    Currencies(Vec<(String, BillState<'p>)>),
}

impl<'p> RangeBills<'p> {
    pub(super) fn new(policy: &'p Policy, caches: Caches) -> Self {
        RangeBills {
            policy,
            runs: Vec::new(),
            proved: [None; 2],
            caches,
        }
    }

    fn partial(&mut self) -> BillState<'p> {
        BillState::later_with_caches(self.policy, std::mem::take(&mut self.caches))
    }

    /// The caches of the range's first partial, for the reader's next range.
    pub(super) fn take_caches(&mut self) -> Caches {
        match self.runs.first_mut() {
            Some(Run::Primary(p)) => p.take_caches(),
            Some(Run::Currencies(list)) => list
                .first_mut()
                .map_or_else(Caches::default, |(_, p)| p.take_caches()),
            None => std::mem::take(&mut self.caches),
        }
    }

    fn primary(&mut self) -> &mut BillState<'p> {
        if !matches!(self.runs.last(), Some(Run::Primary(_))) {
            self.runs
                .push(Run::Primary(Box::new(BillState::later(self.policy))));
        }
        match self.runs.last_mut() {
            Some(Run::Primary(p)) => p,
            _ => unreachable!("a primary run was just pushed"),
        }
    }

    fn for_currency(&mut self, currency: &Option<String>) -> &mut BillState<'p> {
        let Some(c) = currency else {
            return self.primary();
        };
        if !matches!(self.runs.last(), Some(Run::Currencies(_))) {
            self.runs.push(Run::Currencies(Vec::new()));
        }
        let fresh = match &self.runs.last() {
            Some(Run::Currencies(list)) if list.iter().any(|(x, _)| x == c) => None,
            _ => Some(self.partial()),
        };
        let Some(Run::Currencies(list)) = self.runs.last_mut() else {
            unreachable!("a currency run was just pushed")
        };
        let i = match list.iter().position(|(x, _)| x == c) {
            Some(i) => i,
            None => {
                let p = fresh.unwrap_or_else(|| BillState::later(self.policy));
                list.push((c.clone(), p));
                list.len() - 1
            }
        };
        &mut list[i].1
    }

    fn add_item(&mut self, item: &LineItem) {
        if let Some(o) = item.date_proves {
            self.proved[usize::from(o == DateOrder::MonthFirst)].get_or_insert(item.line);
        }
        self.for_currency(&item.currency).add_item(item);
    }

    /// [`super::rows::apply_outcome`] of one row (`line`, as the range
    /// counts them), without the item hook.
    pub(super) fn add_outcome(&mut self, outcome: &mut RowOutcome, line: u64) {
        match outcome {
            RowOutcome::Item(item) => self.add_item(item),
            RowOutcome::WithCredits(item, credits) => {
                self.add_item(item);
                for c in credits.iter() {
                    self.add_item(c);
                }
            }
            RowOutcome::Skip(reason, finding) => self.primary().add_skip(*reason, finding.take()),
            RowOutcome::Stated {
                kind,
                amount,
                currency,
            } => {
                self.primary().add_skip(SkipReason::Summary, None);
                let stated = Some((line, *amount));
                let p = self.for_currency(currency);
                if *kind == SummaryKind::Subtotal {
                    p.stated_subtotal = stated;
                } else {
                    p.stated_total = stated;
                }
            }
        }
    }

    /// Moves every line by `by` (the range counts its lines from its start).
    pub(super) fn shift_lines(&mut self, by: u64) {
        for p in self.proved.iter_mut().flatten() {
            *p += by;
        }
        for run in &mut self.runs {
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
