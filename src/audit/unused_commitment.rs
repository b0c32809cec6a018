//! `unused-commitment`: the part of a reservation or savings plan nobody
//! used, per commitment id, from the amortised commitment columns of the
//! rows ([`crate::model::Terms`]). Never the purchase rows: the money is
//! counted once, and the bill's totals are untouched.

use std::collections::HashMap;

use rust_decimal::Decimal;

use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
use super::{Sink, exceeds, money, percent};
use crate::model::LineItem;
use crate::vocab::checks::{Check, LIMITS};
use crate::vocab::commitment as words;

/// At most this many commitment ids are kept apart per bill; the rows of
/// later ids are pooled under [`POOLED`].
pub(crate) const MAX_COMMITMENTS: usize = 10_000;
/// The name of the pool of rows past [`MAX_COMMITMENTS`] ids.
pub(crate) const POOLED: &str = "(further commitments)";
/// The name of the rows whose commitment has no id.
pub(crate) const NO_ID: &str = "(no id)";

/// What one row adds to its commitment: (cost, unused).
pub(crate) fn contribution(item: &LineItem) -> Option<(Decimal, Decimal)> {
    let t = item.terms.as_deref()?;
    let status = t.status.as_deref()?;
    let zero = Decimal::ZERO;
    if words::is(status, words::RESERVATION_FEE) {
        let unused = t.unused_recurring.unwrap_or(zero) + t.unused_upfront.unwrap_or(zero);
        let cost = item.amount.checked_add(t.upfront.unwrap_or(zero))?;
        return Some((cost, unused));
    }
    if words::is(status, words::SAVINGS_PLAN_FEE) {
        let total = t.commitment_total?;
        let used = t.commitment_used.unwrap_or(zero);
        return Some((total, total.checked_sub(used)?.max(zero)));
    }
    // FOCUS rows carry the amortised cost in `EffectiveCost`; Azure's
    // amortised export in the amount itself.
    let cost = t.effective.unwrap_or(item.amount);
    if words::is(status, words::UNUSED) {
        return Some((cost, cost));
    }
    if words::is(status, words::USED)
        || (words::is(status, words::USAGE) && t.commitment_id.is_some())
    {
        return Some((cost, zero));
    }
    None
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Use {
    cost: Decimal,
    unused: Decimal,
    /// (part, line) of the commitment's first row.
    first: (usize, u64),
}

/// The commitments of a bill (or of a range of its rows), in the order of
/// their first rows.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Commitments {
    ids: Vec<String>,
    uses: HashMap<String, Use>,
}

register!(Commitments);

impl Accumulator for Commitments {
    const RANK: u32 = 40;

    fn start(_: Start) -> Self {
        Commitments::default()
    }

    fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        self.add(item, row.part);
    }

    /// Adds the commitments of the rows right after these, in the order
    /// of their first rows.
    fn merge(&mut self, later: Self, part: usize) {
        let Commitments { ids, mut uses } = later;
        for id in ids {
            if let Some(mut u) = uses.remove(&id) {
                u.first.0 = part;
                self.add_use(&id, u);
            }
        }
    }

    /// Moves every first line by `by`.
    fn shift_lines(&mut self, by: u64) {
        for u in self.uses.values_mut() {
            u.first.1 += by;
        }
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        self.report(bill.currency, sink);
    }
}

impl Commitments {
    /// `part`: the part of the bill the item comes from ([`Sink::part`]).
    pub(crate) fn add(&mut self, item: &LineItem, part: usize) {
        let Some((cost, unused)) = contribution(item) else {
            return;
        };
        let id = item
            .terms
            .as_deref()
            .and_then(|t| t.commitment_id.as_deref())
            .unwrap_or(NO_ID);
        self.add_use(
            id,
            Use {
                cost,
                unused,
                first: (part, item.line),
            },
        );
    }

    fn add_use(&mut self, id: &str, u: Use) {
        let id = if self.uses.contains_key(id) || self.ids.len() < MAX_COMMITMENTS {
            id
        } else {
            POOLED
        };
        match self.uses.get_mut(id) {
            Some(kept) => {
                kept.cost = kept.cost.saturating_add(u.cost);
                kept.unused = kept.unused.saturating_add(u.unused);
            }
            None => {
                self.ids.push(id.to_string());
                self.uses.insert(id.to_string(), u);
            }
        }
    }

    /// One finding per commitment whose unused share is above the lowest
    /// level, at the severity of the highest level passed; one more on the
    /// bill with the sums when several fire.
    pub(crate) fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
        let levels = sink.policy().thresholds.limits_of(Check::UnusedCommitment);
        let (mut n, mut cost, mut unused) = (0u64, Decimal::ZERO, Decimal::ZERO);
        let mut worst = None;
        for id in &self.ids {
            let u = &self.uses[id];
            let Some((level, severity)) = passed(&levels, u.unused, u.cost) else {
                continue;
            };
            n += 1;
            cost = cost.saturating_add(u.cost);
            unused = unused.saturating_add(u.unused);
            worst = worst.max(Some(severity));
            let key = LIMITS
                .iter()
                .find(|l| l.check == Check::UnusedCommitment && l.severity == severity)
                .map_or("", |l| l.key);
            sink.emit_at(
                u.first.0,
                Check::UnusedCommitment,
                Some(u.first.1),
                format!(
                    "commitment `{id}`: {} of its {} unused ({}), above {} (`{key}`)",
                    money(u.unused, currency),
                    money(u.cost, currency),
                    share_text(u.unused, u.cost),
                    percent(level),
                ),
                Some(severity),
            );
        }
        if n > 1 {
            sink.emit_at(
                0,
                Check::UnusedCommitment,
                None,
                format!(
                    "{n} commitments above their level: {} of their {} unused ({}) in all",
                    money(unused, currency),
                    money(cost, currency),
                    share_text(unused, cost),
                ),
                worst,
            );
        }
    }
}

/// `unused / cost` as a percentage.
fn share_text(unused: Decimal, cost: Decimal) -> String {
    unused
        .checked_div(cost)
        .map_or_else(|| "?".to_string(), percent)
}

/// The highest level `unused / cost` is above, with its severity; `None`
/// within every level or for a commitment that cost nothing.
fn passed(
    levels: &[(Decimal, crate::model::Severity)],
    unused: Decimal,
    cost: Decimal,
) -> Option<(Decimal, crate::model::Severity)> {
    if cost <= Decimal::ZERO || unused <= Decimal::ZERO {
        return None;
    }
    levels
        .iter()
        .copied()
        .filter(|(level, _)| exceeds(unused, *level, cost))
        .max_by_key(|(level, _)| *level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;
    use crate::model::{Severity, Terms};

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn focus(line: u64, id: &str, status: &str, effective: &str) -> LineItem {
        let mut i = LineItem::new(line, "reserved A100 hours", Decimal::ZERO);
        i.terms = Some(Box::new(Terms {
            commitment_id: Some(id.into()),
            status: Some(status.into()),
            effective: Some(d(effective)),
            ..Terms::default()
        }));
        i
    }

    fn run(items: &[LineItem], policy: &Policy) -> Vec<(Severity, Option<u64>, String)> {
        let mut c = Commitments::default();
        for i in items {
            c.add(i, 0);
        }
        let mut sink = Sink::new("bill.csv", policy);
        c.report(Some("USD"), &mut sink);
        sink.findings
            .into_iter()
            .map(|f| (f.severity, f.line, f.message))
            .collect()
    }

    #[test]
    fn the_issue_case_is_an_error_and_its_levels_hold() {
        let p = Policy::default();
        // 230.00 / (500.00 + 230.00) = 0.31506... -> 31.51%, above 25%.
        let f = run(
            &[
                focus(2, "ri-a100", "Used", "500.00"),
                focus(3, "ri-a100", "Unused", "230.00"),
            ],
            &p,
        );
        assert_eq!(
            f,
            [(
                Severity::Error,
                Some(2),
                "commitment `ri-a100`: 230.00 USD of its 730.00 USD unused (31.51%), above 25.00% (`unused-commitment-error`)".to_string()
            )]
        );
        // 100.00 / 730.00 = 13.70%: above 10%, within 25%: a warning.
        let f = run(
            &[
                focus(2, "ri-a100", "Used", "630.00"),
                focus(3, "ri-a100", "unused", "100.00"),
            ],
            &p,
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].0, Severity::Warning);
        // Exactly 10%: 73.00 / 730.00 = 0.10, not above.
        let f = run(
            &[
                focus(2, "ri-a100", "Used", "657.00"),
                focus(3, "ri-a100", "Unused", "73.00"),
            ],
            &p,
        );
        assert!(f.is_empty());
    }

    #[test]
    fn each_commitment_is_judged_alone_and_the_bill_gets_the_sums() {
        let p = Policy::default();
        // a: 50 / 100 = 50%; b: 30 / 100 = 30%; c: 0 unused.
        let f = run(
            &[
                focus(2, "a", "Used", "50"),
                focus(3, "b", "Used", "70"),
                focus(4, "a", "Unused", "50"),
                focus(5, "b", "Unused", "30"),
                focus(6, "c", "Used", "10"),
            ],
            &p,
        );
        assert_eq!(f.len(), 3, "{f:?}");
        assert_eq!(f[0].1, Some(2));
        assert_eq!(f[1].1, Some(3));
        // 80 of 200 = 40.00%.
        assert_eq!(f[2].1, None);
        assert!(f[2].2.contains("80 USD of their 200 USD unused (40.00%)"));
    }

    #[test]
    fn aws_fee_rows_and_a_configured_severity() {
        let mut fee = LineItem::new(7, "RI fee", d("100.00"));
        // Recurring 100.00 + upfront 50.00 = 150.00; unused 30.00 + 15.00 = 45.00: 30%.
        fee.terms = Some(Box::new(Terms {
            commitment_id: Some("arn:ri".into()),
            status: Some("RIFee".into()),
            unused_recurring: Some(d("30.00")),
            unused_upfront: Some(d("15.00")),
            upfront: Some(d("50.00")),
            ..Terms::default()
        }));
        assert_eq!(contribution(&fee), Some((d("150.00"), d("45.00"))));
        let mut sp = LineItem::new(8, "SP fee", d("10.00"));
        // 10.00 committed, 9.50 used: 0.50 unused.
        sp.terms = Some(Box::new(Terms {
            status: Some("SavingsPlanRecurringFee".into()),
            commitment_total: Some(d("10.00")),
            commitment_used: Some(d("9.50")),
            ..Terms::default()
        }));
        assert_eq!(contribution(&sp), Some((d("10.00"), d("0.50"))));
        let mut p = Policy::default();
        // The default written out (`billaudit init`) keeps the levels.
        p.severities
            .insert(Check::UnusedCommitment, Some(Severity::Warning));
        assert_eq!(run(&[fee.clone()], &p)[0].0, Severity::Error);
        // Another severity holds for both levels.
        p.severities
            .insert(Check::UnusedCommitment, Some(Severity::Error));
        let mut warn = fee.clone();
        warn.terms.as_mut().unwrap().unused_recurring = Some(d("0.00"));
        // Unused 0.00 + 30.00 of 150.00 = 20%: the warning level, made an error.
        warn.terms.as_mut().unwrap().unused_upfront = Some(d("30.00"));
        let f = run(&[warn], &p);
        assert_eq!(f[0].0, Severity::Error, "the configured severity holds");
        p.severities.insert(Check::UnusedCommitment, None);
        assert!(run(&[fee], &p).is_empty());
    }

    #[test]
    fn merging_ranges_is_adding_rows_in_order() {
        let rows = [
            focus(2, "a", "Used", "50"),
            focus(3, "b", "Used", "70"),
            focus(4, "a", "Unused", "50"),
        ];
        let mut one = Commitments::default();
        rows.iter().for_each(|r| one.add(r, 0));
        let mut first = Commitments::default();
        first.add(&rows[0], 0);
        let mut later = Commitments::default();
        later.add(&rows[1], 0);
        later.add(&rows[2], 0);
        Accumulator::merge(&mut first, later, 0);
        assert_eq!(first, one);
    }
}
