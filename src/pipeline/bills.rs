//! Bill assembly: one bill per currency in a file, in order of first
//! appearance, built from the items and skips of a CSV or text run.

use crate::audit::{Bill, BillBuilder, Policy};
use crate::error::{Error, InputError, Result};
use crate::model::{Check, Finding, LineItem};
use crate::normalise::SkipReason;
use crate::normalise::date::DateOrder;

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
    list: Vec<BillBuilder<'p>>,
    /// What the report says about how the file was read (the order of its
    /// slashed dates), on every bill of the file.
    pub(super) notes: Vec<String>,
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
    pub(super) fn open(&self, currency: Option<String>) -> BillBuilder<'p> {
        let mut b = BillBuilder::new(&self.path, &self.format, currency, self.policy);
        if let Some(p) = &self.part {
            b.begin_part(p);
        }
        b
    }

    /// The bill that takes rows without a currency: the header's currency, or
    /// the first currency seen.
    pub(super) fn primary(&mut self) -> &mut BillBuilder<'p> {
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

    pub(super) fn for_currency(&mut self, currency: &Option<String>) -> &mut BillBuilder<'p> {
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
        Ok(self
            .list
            .into_iter()
            .map(|b| {
                let mut bill = b.finish();
                bill.notes.clone_from(&notes);
                bill.currency_note.clone_from(&currency_note);
                bill
            })
            .collect())
    }
}
