//! The state of one stateful check, in the style of DataFusion's
//! `Accumulator`: [`Accumulator::update`] with a row, [`Accumulator::merge`]
//! with the state of the rows right after, [`Accumulator::evaluate`] into
//! findings given the bill's figures. Each stateful check implements it
//! once, in its own file, and registers itself there with [`register!`]:
//! [`BillState`](super::BillState) runs every registered state on every
//! row, so a new stateful check is its file plus its row in
//! `vocab/checks.rs`, with no list to edit (docs/decisions.md, "Stateful
//! checks register themselves").
//!
//! One type serves every partition (a whole file on one thread, a byte
//! range, a Parquet row group, a text invoice). A state is started for the
//! bill's first rows or for rows after rows not seen ([`Start`]); a check
//! whose figures depend on the order of its rows (a Decimal sum that
//! rounds, the first N of something) keeps what it needs in the rows-after
//! case for its `merge`, inside its one type.

use std::any::Any;
use std::fmt::Debug;
use std::sync::OnceLock;

use rust_decimal::Decimal;

use super::usage::Memo;
use super::{Figures, Sink};
use crate::model::LineItem;

/// Where the rows a state is started for stand in their bill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The bill's first rows (a whole file read on one thread): nothing
    /// comes before, so what depends on order is decided as rows come.
    First,
    /// Rows after rows not seen here (a range read on another thread):
    /// what depends on order is kept for [`Accumulator::merge`].
    After,
}

/// What an update sees besides the row.
#[derive(Debug)]
pub struct Row<'a> {
    /// The part of a merged bill the row comes from ([`Sink::part`]); 0 in
    /// a state started [`Start::After`], whose `merge` is given the part.
    pub part: usize,
    /// Descriptions to GPU models and units to hours, shared by the
    /// states of a thread (a pure cache).
    pub memo: &'a mut Memo,
    /// What several checks ask of the row, worked out once a row (issue 27
    /// item 3: asked separately, the first was worked out three times a row
    /// and the second twice). How far the amount is above the list amount
    /// (`above_list_price::excess`: `line-arithmetic` leaves such a line to
    /// `above-list-price`, whose finding and bill sum both need it).
    pub above_list: Option<Decimal>,
    /// The contracted cost, the excess above it and where the contracted
    /// cost comes from (`contract_price::excess`: the finding of
    /// `above-contracted-price` and its bill sum).
    pub above_contract: Option<(Decimal, Decimal, &'static str)>,
}

/// What a state is evaluated against: the bill's figures and currency.
#[derive(Debug)]
pub struct Evaluation<'a> {
    /// For a check that compares its sums with the bill's (none of the
    /// registered ones does yet; the demo branch's does).
    #[allow(dead_code)]
    pub figures: &'a Figures<'a>,
    pub currency: Option<&'a str>,
}

/// The state of one stateful check (see the module docs).
pub trait Accumulator: Debug + Send + Sized + 'static {
    /// Where the check's bill-level findings come among the other
    /// registered checks' (lower first): the order of a report.
    const RANK: u32;

    /// The state of no rows yet.
    fn start(start: Start) -> Self;

    /// Adds one classified line item.
    fn update(&mut self, item: &LineItem, row: &mut Row<'_>);

    /// Appends the state of the rows right after these (started
    /// [`Start::After`]), whose rows are of part `part` of the bill: the
    /// state is then as if those rows had been added here one by one.
    fn merge(&mut self, later: Self, part: usize);

    /// Moves every line the state keeps by `by`: a range read on its own
    /// counts its lines from its start.
    fn shift_lines(&mut self, by: u64) {
        let _ = by;
    }

    /// The check's findings on the whole bill.
    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>);
}

/// The object-safe face of an [`Accumulator`], for the list of states.
pub trait State: Debug + Send {
    fn update(&mut self, item: &LineItem, row: &mut Row<'_>);
    fn merge(&mut self, later: Box<dyn State>, part: usize);
    fn shift_lines(&mut self, by: u64);
    fn evaluate(self: Box<Self>, bill: &Evaluation<'_>, sink: &mut Sink<'_>);
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<A: Accumulator> State for A {
    fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        Accumulator::update(self, item, row);
    }

    fn merge(&mut self, later: Box<dyn State>, part: usize) {
        // The lists of two states of a bill hold the same registrations in
        // the same order, so the later state here is of this type.
        match later.into_any().downcast::<A>() {
            Ok(later) => Accumulator::merge(self, *later, part),
            Err(_) => unreachable!("states are merged in registration order"),
        }
    }

    fn shift_lines(&mut self, by: u64) {
        Accumulator::shift_lines(self, by);
    }

    fn evaluate(self: Box<Self>, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        Accumulator::evaluate(*self, bill, sink);
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// One registered stateful check: its rank and how to start its state.
#[derive(Debug)]
pub struct Registration {
    pub rank: u32,
    pub start: fn(Start) -> Box<dyn State>,
}

/// Every stateful check, each registered in its own file by [`register!`].
#[linkme::distributed_slice]
pub static STATES: [Registration];

/// Registers an [`Accumulator`] (in the check's own file).
macro_rules! register {
    ($state:ty) => {
        #[linkme::distributed_slice($crate::audit::accumulator::STATES)]
        static REGISTRATION: $crate::audit::accumulator::Registration =
            $crate::audit::accumulator::Registration {
                rank: <$state as $crate::audit::accumulator::Accumulator>::RANK,
                start: |s| {
                    Box::new(<$state as $crate::audit::accumulator::Accumulator>::start(
                        s,
                    ))
                },
            };
    };
}
pub(crate) use register;

/// The registrations by rank (the link order of [`STATES`] is arbitrary).
fn registered() -> &'static [&'static Registration] {
    static SORTED: OnceLock<Vec<&'static Registration>> = OnceLock::new();
    SORTED.get_or_init(|| {
        let mut v: Vec<&'static Registration> = STATES.iter().collect();
        v.sort_by_key(|r| r.rank);
        v
    })
}

/// The states of every registered check for one run of rows.
#[derive(Debug)]
pub struct States(Vec<Box<dyn State>>);

impl States {
    pub fn start(start: Start) -> Self {
        States(registered().iter().map(|r| (r.start)(start)).collect())
    }

    pub fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        for s in &mut self.0 {
            s.update(item, row);
        }
    }

    /// Appends the states of the rows right after these, of part `part`.
    pub fn merge(&mut self, later: States, part: usize) {
        debug_assert_eq!(self.0.len(), later.0.len());
        for (s, l) in self.0.iter_mut().zip(later.0) {
            s.merge(l, part);
        }
    }

    pub fn shift_lines(&mut self, by: u64) {
        for s in &mut self.0 {
            s.shift_lines(by);
        }
    }

    /// Every check's findings on the whole bill, by rank.
    pub fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        for s in self.0 {
            s.evaluate(bill, sink);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stateful_check_is_registered_once_with_its_own_rank() {
        // unclassified-items, idle-storage, billing-granularity,
        // unused-commitment, above-contracted-price, above-list-price,
        // plan-costlier-than-on-demand: seven on main, as their files
        // register (a branch adding a check adds one).
        let ranks: Vec<u32> = registered().iter().map(|r| r.rank).collect();
        assert!(ranks.len() >= 7, "{ranks:?}");
        let mut unique = ranks.clone();
        unique.dedup();
        assert_eq!(unique, ranks, "two checks share a rank: {ranks:?}");
    }

    /// `cargo fmt` follows `mod` lines, so it never reaches a check file
    /// that build.rs declares: rustfmt checks those here (none on main).
    #[test]
    fn the_check_files_build_rs_declares_are_formatted() {
        for path in super::super::DECLARED_BY_BUILD {
            let out = std::process::Command::new("rustfmt")
                .args(["--check", "--edition", "2024", path])
                .output();
            let Ok(out) = out else {
                // No rustfmt here; under CI=true that is a step that cannot
                // run, and it fails.
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "rustfmt is not installed, and CI=true"
                );
                return;
            };
            assert!(
                out.status.success(),
                "{path} is not formatted (rustfmt --edition 2024 {path}):\n{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}
