use rust_decimal::Decimal;

use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
use super::{Sink, money};
use crate::classify::rules::UNCLASSIFIED;
use crate::model::LineItem;
use crate::vocab::checks::Check;

/// Running count of unclassified items.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    count: u64,
    amount: Decimal,
    /// (part, line, description) of the first unclassified item.
    first: Option<(usize, u64, String)>,
}

register!(Tally);

impl Accumulator for Tally {
    const RANK: u32 = 10;

    fn start(_: Start) -> Self {
        Tally::default()
    }

    fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        self.add(item, row.part);
    }

    fn merge(&mut self, later: Self, part: usize) {
        self.count += later.count;
        self.amount = self.amount.saturating_add(later.amount);
        if self.first.is_none() {
            self.first = later.first.map(|(_, line, desc)| (part, line, desc));
        }
    }

    /// Moves the first item's line by `by`.
    fn shift_lines(&mut self, by: u64) {
        if let Some(first) = &mut self.first {
            first.1 += by;
        }
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        self.report(bill.currency, sink);
    }
}

impl Tally {
    /// `part`: the part of the bill the item comes from ([`Sink::part`]).
    pub(crate) fn add(&mut self, item: &LineItem, part: usize) {
        if &*item.rule != UNCLASSIFIED {
            return;
        }
        self.count += 1;
        self.amount = self.amount.saturating_add(item.amount);
        if self.first.is_none() {
            self.first = Some((part, item.line, item.description.clone()));
        }
    }

    pub(crate) fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
        if let Some((part, line, desc)) = &self.first {
            let noun = if self.count == 1 { "item" } else { "items" };
            sink.emit_in(
                *part,
                Check::UnclassifiedItems,
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
