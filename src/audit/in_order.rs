//! The findings of a bill's rows in file order, with `duplicate-line`: one
//! type, [`InOrder`], for the bill's first rows and for rows after rows not
//! seen (see [`super::BillState`]).

use super::accumulator::Start;
use super::duplicate_line::Seen;
use super::{Emit, FindingLog, Policy, Sink};
use crate::model::{Check, LineItem};

/// The findings of a run of a bill's rows, in their order, with the
/// `duplicate-line` table. A repeat's finding comes among the findings of
/// the per-item checks, under the same per-code caps (the first N listed,
/// the rest counted), so the order of repeats is the order of the findings
/// themselves: the state of the bill's first rows ([`Start::First`]) decides
/// them as rows come, into the bill's [`Sink`] and its one table of rows
/// seen; a state of rows after rows not seen ([`Start::After`]) keeps the
/// findings and row keys in order in a [`FindingLog`], which the merge
/// replays into the state before.
#[derive(Debug)]
pub(crate) struct InOrder<'p>(Form<'p>);

#[derive(Debug)]
enum Form<'p> {
    Decided { sink: Sink<'p>, duplicates: Seen },
    Kept { log: FindingLog<'p> },
}

impl<'p> InOrder<'p> {
    /// The findings of no rows yet of the bill `path` (its name is only
    /// read in the state of its first rows).
    pub(crate) fn start(start: Start, path: &str, policy: &'p Policy) -> Self {
        InOrder(match start {
            Start::First => Form::Decided {
                sink: Sink::new(path, policy),
                duplicates: Seen::default(),
            },
            Start::After => Form::Kept {
                log: FindingLog::new(policy),
            },
        })
    }

    /// The part of a merged bill the rows now added come from (a kept
    /// state's rows are of the part being read: 0 until merged).
    pub(crate) fn part(&self) -> usize {
        match &self.0 {
            Form::Decided { sink, .. } => sink.part(),
            Form::Kept { .. } => 0,
        }
    }

    /// The lines added from now on come from the part `path` of a merged
    /// bill (a kept state's rows are of the part being read when merged).
    pub(crate) fn begin_part(&mut self, path: &str) {
        if let Form::Decided { sink, .. } = &mut self.0 {
            sink.begin_part(path);
        }
    }

    /// Looks the row up among the rows seen (`duplicate-line`), after the
    /// per-item checks' findings on it.
    pub(crate) fn add(&mut self, item: &LineItem) {
        match &mut self.0 {
            Form::Decided { sink, duplicates } => duplicates.add(item, sink),
            Form::Kept { log } => log.key(item),
        }
    }

    /// Appends the findings of the rows right after these (a kept state).
    pub(crate) fn merge(&mut self, later: Self) {
        match (&mut self.0, later.0) {
            (Form::Decided { sink, duplicates }, Form::Kept { log }) => {
                log.replay(duplicates, sink);
            }
            (Form::Kept { log }, Form::Kept { log: later_log }) => log.merge(later_log),
            (_, Form::Decided { .. }) => {
                unreachable!("only the state of a bill's first rows decides them")
            }
        }
    }

    /// Moves every line of a kept state by `by`; whether it was kept.
    pub(crate) fn shift_lines(&mut self, by: u64) -> bool {
        match &mut self.0 {
            Form::Kept { log } => {
                log.shift_lines(by);
                true
            }
            Form::Decided { .. } => false,
        }
    }

    /// Whether these are the findings of the bill's first rows.
    pub(crate) fn is_decided(&self) -> bool {
        matches!(self.0, Form::Decided { .. })
    }

    /// The bill's sink (`None` for a kept state: merge it into a state of
    /// the bill's first rows first).
    pub(crate) fn into_sink(self) -> Option<Sink<'p>> {
        match self.0 {
            Form::Decided { sink, .. } => Some(sink),
            Form::Kept { .. } => None,
        }
    }
}

impl<'p> Emit<'p> for InOrder<'p> {
    fn policy(&self) -> &'p Policy {
        match &self.0 {
            Form::Decided { sink, .. } => sink.policy(),
            Form::Kept { log } => log.policy(),
        }
    }

    fn emit(&mut self, check: Check, line: Option<u64>, message: String) {
        match &mut self.0 {
            Form::Decided { sink, .. } => sink.emit(check, line, message),
            Form::Kept { log } => log.emit(check, line, message),
        }
    }
}
