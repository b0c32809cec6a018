//! The findings of a range of a bill's rows read on another thread, in the
//! order the per-item checks made them, with the rows' `duplicate-line`
//! keys in their place among them (see [`super::BillState`]).

use std::ops::Range;

use rust_decimal::Decimal;
use rustc_hash::FxHashMap;

use super::duplicate_line::{Seen, repeat_text, row_key};
use super::{Emit, Policy, Sink};
use crate::model::{Check, LineItem};

/// One entry of a [`FindingLog`].
#[derive(Debug, Clone)]
enum Entry {
    /// A finding of a per-item check (or of a skipped row).
    Finding(Check, Option<u64>, String),
    /// A row's `duplicate-line` key, looked up in the bill's one table when
    /// the log is replayed; what a repeat's finding says of the row (its
    /// description, in the log's `text`, its amount and its currency, in
    /// the log's `currencies`) is only written out for a repeat.
    Key {
        line: u64,
        key: u64,
        text: Range<usize>,
        amount: Decimal,
        currency: u32,
    },
}

/// Findings and `duplicate-line` keys of consecutive rows of one bill.
///
/// At most `max_findings_per_code` findings of a code are kept (the first
/// ones) and all are counted, so that the bill's cap and its closing
/// "N more" finding come out as on one thread. Findings of a check the
/// policy turns off are neither kept nor counted, as in a [`Sink`].
#[derive(Debug, Clone)]
pub struct FindingLog<'p> {
    policy: &'p Policy,
    entries: Vec<Entry>,
    /// Findings per code, kept or not.
    per_code: FxHashMap<Check, usize>,
    /// The descriptions of the keys' entries, one after the other, each
    /// distinct one once (bills repeat a few thousand descriptions on
    /// millions of rows).
    text: String,
    /// Where each description's hash has its text in `text`.
    texts: FxHashMap<u64, Range<usize>>,
    /// The currencies of the keys' entries.
    currencies: Vec<Option<String>>,
}

impl<'p> Emit<'p> for FindingLog<'p> {
    fn policy(&self) -> &'p Policy {
        self.policy
    }

    fn emit(&mut self, check: Check, line: Option<u64>, message: String) {
        if self.policy.severity(check).is_none() {
            return;
        }
        let n = self.per_code.entry(check).or_insert(0);
        *n += 1;
        if *n <= self.policy.max_findings_per_code {
            self.entries.push(Entry::Finding(check, line, message));
        }
    }
}

impl<'p> FindingLog<'p> {
    pub fn new(policy: &'p Policy) -> Self {
        FindingLog {
            policy,
            entries: Vec::new(),
            per_code: FxHashMap::default(),
            text: String::new(),
            texts: FxHashMap::default(),
            currencies: Vec::new(),
        }
    }

    /// Where `description` is in `text`, put there when it is not yet.
    fn text_of(&mut self, description: &str) -> Range<usize> {
        let h = super::usage::hash_text(description);
        if let Some(r) = self.texts.get(&h) {
            if self.text.get(r.clone()) == Some(description) {
                return r.clone();
            }
        }
        let from = self.text.len();
        self.text.push_str(description);
        self.texts.insert(h, from..self.text.len());
        from..self.text.len()
    }

    /// Notes the row's `duplicate-line` key in its place (rows of zero
    /// amount are never duplicates, as in [`Seen::add`]).
    pub fn key(&mut self, item: &LineItem) {
        if item.amount == Decimal::ZERO {
            return;
        }
        let text = self.text_of(&item.description);
        let currency = self.currency(&item.currency);
        self.entries.push(Entry::Key {
            line: item.line,
            key: row_key(item),
            text,
            amount: item.amount,
            currency,
        });
    }

    /// The index of `currency` in `currencies` (a range has one or two).
    fn currency(&mut self, currency: &Option<String>) -> u32 {
        let i = match self.currencies.iter().rposition(|c| c == currency) {
            Some(i) => i,
            None => {
                self.currencies.push(currency.clone());
                self.currencies.len() - 1
            }
        };
        u32::try_from(i).unwrap_or(u32::MAX)
    }

    /// Appends the log of the rows right after these.
    pub fn merge(&mut self, later: Self) {
        let max = self.policy.max_findings_per_code;
        let base = self.text.len();
        self.text.push_str(&later.text);
        // Findings of a code kept so far: the first `max` of those counted.
        let mut kept: FxHashMap<Check, usize> = FxHashMap::default();
        for e in later.entries {
            match e {
                Entry::Finding(check, ..) => {
                    let k = kept.entry(check).or_insert_with(|| {
                        self.per_code.get(&check).copied().unwrap_or(0).min(max)
                    });
                    if *k < max {
                        *k += 1;
                        self.entries.push(e);
                    }
                }
                Entry::Key {
                    line,
                    key,
                    text,
                    amount,
                    currency,
                } => {
                    let c = later.currencies.get(currency as usize).cloned().flatten();
                    let currency = self.currency(&c);
                    self.entries.push(Entry::Key {
                        line,
                        key,
                        text: text.start + base..text.end + base,
                        amount,
                        currency,
                    });
                }
            }
        }
        for (check, n) in later.per_code {
            *self.per_code.entry(check).or_insert(0) += n;
        }
    }

    /// Moves every line by `by` (a range counts its lines from its start).
    pub fn shift_lines(&mut self, by: u64) {
        for e in &mut self.entries {
            match e {
                Entry::Finding(_, line, _) => *line = line.map(|l| l + by),
                Entry::Key { line, .. } => *line += by,
            }
        }
    }

    /// Puts the findings into the bill's sink in their order, looking each
    /// key up in the bill's `duplicate-line` table at its place.
    pub fn replay(self, seen: &mut Seen, sink: &mut Sink<'_>) {
        let max = self.policy.max_findings_per_code;
        for e in self.entries {
            match e {
                Entry::Finding(check, line, message) => sink.emit(check, line, message),
                Entry::Key {
                    line,
                    key,
                    text,
                    amount,
                    currency,
                } => {
                    let t = || {
                        let c = self.currencies.get(currency as usize).cloned().flatten();
                        repeat_text(&self.text[text], amount, c.as_deref())
                    };
                    seen.add_key(line, key, t, sink);
                }
            }
        }
        // The findings not kept came after the first `max` of their code:
        // the sink would not list them either, only count them.
        for (check, n) in self.per_code {
            sink.count_unlisted(check, n - n.min(max));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_repeated_on_many_rows_is_kept_once() {
        let policy = Policy::default();
        let mut log = FindingLog::new(&policy);
        for (line, d) in [
            (2, "GPU hours"),
            (3, "Egress"),
            (4, "GPU hours"),
            (5, "GPU"),
        ] {
            log.key(&LineItem::new(line, d, Decimal::ONE));
        }
        // "GPU hours" once, then "Egress" and "GPU" (a prefix of the first
        // is a text of its own).
        assert_eq!(log.text, "GPU hoursEgressGPU");
        let texts: Vec<&str> = log
            .entries
            .iter()
            .map(|e| match e {
                Entry::Key { text, .. } => &log.text[text.clone()],
                Entry::Finding(..) => "",
            })
            .collect();
        assert_eq!(texts, ["GPU hours", "Egress", "GPU hours", "GPU"]);
    }
}
