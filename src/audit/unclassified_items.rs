use rust_decimal::Decimal;

use super::{CheckInfo, Sink, money};
use crate::classify::rules::UNCLASSIFIED;
use crate::model::{LineItem, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "unclassified-items",
    default_severity: Severity::Warning,
    summary: "items fell into `other` because no rule matched them",
    what: "Counts the line items that no classification rule matched, with their amount and the first line. Items that a rule deliberately puts in `other` (support plans, licences, early-delete penalties, and known kinds of managed service such as databases, analytics and monitoring, by their FOCUS service category) are not counted: an unclassified item is one billaudit does not know. Run `billaudit lines --unclassified` to list them.",
    why: "An unclassified item may be a hidden fee under a name the rules don't know. The hidden share is only as good as the classification behind it.",
    example: "3 items (42.10 USD) matched no rule; the first is at line 12: `Quantum flux capacitor`.",
};

/// Running count of unclassified items.
#[derive(Debug, Default)]
pub struct Tally {
    count: u64,
    amount: Decimal,
    /// (part, line, description) of the first unclassified item.
    first: Option<(usize, u64, String)>,
}

impl Tally {
    /// `part`: the part of the bill the item comes from ([`Sink::part`]).
    pub fn add(&mut self, item: &LineItem, part: usize) {
        if &*item.rule != UNCLASSIFIED {
            return;
        }
        self.count += 1;
        self.amount = self.amount.saturating_add(item.amount);
        if self.first.is_none() {
            self.first = Some((part, item.line, item.description.clone()));
        }
    }

    pub fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
        if let Some((part, line, desc)) = &self.first {
            let noun = if self.count == 1 { "item" } else { "items" };
            sink.emit_in(
                *part,
                &INFO,
                Some(*line),
                format!(
                    "{} {noun} ({}) matched no rule and count as `other`; the first is `{desc}`",
                    self.count,
                    money(self.amount, currency)
                ),
            );
        }
    }
}
