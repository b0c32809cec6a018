//! The sum of the lines billed above a figure of their own, shared by
//! `above-contracted-price` and `above-list-price`.

use rust_decimal::Decimal;

use super::{Sink, money};
use crate::vocab::checks::Check;

/// The lines of a bill billed above a figure of their own (their contract,
/// `above-contracted-price`; their list amount, `above-list-price`): how
/// many, and by how much in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Excess {
    check: Check,
    /// What they were billed above, for the message (`their list amount`).
    above: &'static str,
    lines: u64,
    over: Decimal,
}

impl Excess {
    pub(crate) fn new(check: Check, above: &'static str) -> Self {
        Excess {
            check,
            above,
            lines: 0,
            over: Decimal::ZERO,
        }
    }

    /// Counts a line that is `over` above its figure (`None`: it is not).
    pub(crate) fn add(&mut self, over: Option<Decimal>) {
        if let Some(over) = over {
            self.lines += 1;
            self.over = self.over.saturating_add(over);
        }
    }

    /// Adds the lines of the rows right after these.
    pub(crate) fn merge(&mut self, later: Self) {
        self.lines += later.lines;
        self.over = self.over.saturating_add(later.over);
    }

    /// A finding on the whole bill with the sum, when more than one line
    /// was billed above its figure (one line's finding says it all).
    pub(crate) fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
        if self.lines > 1 {
            sink.emit(
                self.check,
                None,
                format!(
                    "{} lines billed above {}, by {} in all",
                    self.lines,
                    self.above,
                    money(self.over, currency)
                ),
            );
        }
    }
}
