//! `plan-costlier-than-on-demand`: a GPU rented by the month (or week,
//! year, or on a daily plan) that cost more than on-demand hours would
//! have for the hours the bill shows it used, at the price book's
//! on-demand price.
//!
//! Per GPU model (`usage::gpu_model`) of a bill's compute lines: the plan
//! lines (unit a month, week or year, or a plan word in the description,
//! [`crate::vocab::commitment`]) give what the plan cost; the other lines
//! of that model with a quantity in a time unit give the hours used (and
//! any usage charges on top). The on-demand price per hour is the first
//! price-book entry (`Policy::price_book`) that matches a plan line's
//! description and is per hour (or has no unit).

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::accumulator::{Accumulator, Evaluation, Row, Start, register};
use super::rate_above_reference::PriceEntry;
use super::usage::Memo;
use super::{Sink, money};
use crate::classify::fold;
use crate::model::{Category, LineItem};
use crate::vocab::checks::Check;
use crate::vocab::commitment::{PLAN_UNITS, PLAN_WORDS};

/// Whether a compute line is a plan rented for a period (what
/// `Plans::add` asks, with the words remembered).
#[cfg(test)]
pub(crate) fn is_plan(item: &LineItem) -> bool {
    plan_unit(item.unit.as_deref()) || plan_words(&item.description)
}

/// Whether a unit is one of a plan's, compared whole and lowercased.
fn plan_unit(unit: Option<&str>) -> bool {
    let Some(u) = unit.map(str::trim) else {
        return false;
    };
    if u.is_ascii() {
        // The same answer as lowercasing it: the ASCII units are lowercase.
        return PLAN_UNITS.iter().any(|p| u.eq_ignore_ascii_case(p));
    }
    PLAN_UNITS.contains(&u.to_lowercase().as_str())
}

/// Whether a description has one of a plan's words.
fn plan_words(description: &str) -> bool {
    let text = fold(description);
    PLAN_WORDS.iter().any(|w| text.contains(w))
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Model {
    plan: Decimal,
    /// (part, line, description) of the first plan line.
    first_plan: Option<(usize, u64, String)>,
    hours: Decimal,
    usage_paid: Decimal,
    usage_lines: u64,
}

/// The plan and usage lines of a bill, per GPU model.
#[derive(Debug, Default)]
pub(crate) struct Plans {
    models: BTreeMap<&'static str, Model>,
}

register!(Plans);

impl Accumulator for Plans {
    const RANK: u32 = 70;

    fn start(_: Start) -> Self {
        Plans::default()
    }

    fn update(&mut self, item: &LineItem, row: &mut Row<'_>) {
        self.add(item, row.part, row.memo);
    }

    /// Adds the lines of the rows right after these.
    fn merge(&mut self, later: Self, part: usize) {
        for (k, l) in later.models {
            let m = self.models.entry(k).or_default();
            m.plan = m.plan.saturating_add(l.plan);
            if m.first_plan.is_none() {
                m.first_plan = l.first_plan.map(|(_, line, desc)| (part, line, desc));
            }
            m.hours = m.hours.saturating_add(l.hours);
            m.usage_paid = m.usage_paid.saturating_add(l.usage_paid);
            m.usage_lines += l.usage_lines;
        }
    }

    /// Moves the first plan lines by `by`.
    fn shift_lines(&mut self, by: u64) {
        for m in self.models.values_mut() {
            if let Some(f) = &mut m.first_plan {
                f.1 += by;
            }
        }
    }

    fn evaluate(self, bill: &Evaluation<'_>, sink: &mut Sink<'_>) {
        self.report(bill.currency, sink);
    }
}

impl Plans {
    /// `part`: the part of the bill the item comes from ([`Sink::part`]);
    /// `memo`: the thread's memo of GPU models, units and plan words.
    pub(crate) fn add(&mut self, item: &LineItem, part: usize, memo: &mut Memo) {
        if item.category != Category::Compute {
            return;
        }
        let Some(model) = memo.gpu_model(&item.description) else {
            return;
        };
        if plan_unit(item.unit.as_deref()) || memo.plan_words(&item.description, plan_words) {
            let m = self.models.entry(model).or_default();
            m.plan = m.plan.saturating_add(item.amount);
            m.first_plan
                .get_or_insert_with(|| (part, item.line, item.description.clone()));
            return;
        }
        let per = item.unit.as_deref().and_then(|u| memo.unit_hours(u));
        let Some(hours) = item.quantity.zip(per).and_then(|(q, p)| q.checked_mul(p)) else {
            return;
        };
        let m = self.models.entry(model).or_default();
        m.hours = m.hours.saturating_add(hours);
        m.usage_paid = m.usage_paid.saturating_add(item.amount);
        m.usage_lines += 1;
    }

    /// One finding per model whose plan cost more than its used hours at
    /// the on-demand price, on its first plan line.
    pub(crate) fn report(&self, currency: Option<&str>, sink: &mut Sink<'_>) {
        let book = &sink.policy().price_book;
        for (model, m) in &self.models {
            let Some((part, line, desc)) = &m.first_plan else {
                continue;
            };
            if m.usage_lines == 0 || m.plan <= Decimal::ZERO {
                continue;
            }
            // A declared price book is the one source; without one, the
            // built-in on-demand price of the model in the bill's currency.
            let entry = if book.entries.is_empty() {
                builtin(&sink.policy().on_demand, model, currency)
            } else {
                on_demand(book, desc, currency)
            };
            let Some(entry) = entry else {
                continue;
            };
            let Some(paid) = m.plan.checked_add(m.usage_paid) else {
                continue;
            };
            let Some(on_demand_cost) = m.hours.checked_mul(entry.max) else {
                continue;
            };
            // At the plan amount's precision, as the bill writes money.
            let places = m.plan.scale().max(2);
            let on_demand_cost = on_demand_cost.round_dp(places);
            let more = paid - on_demand_cost;
            if more <= crate::normalise::number::half_unit(m.plan) {
                continue;
            }
            let currency = currency.or(entry.currency.as_deref());
            let rate = if m.hours > Decimal::ZERO {
                paid.checked_div(m.hours).map_or_else(String::new, |r| {
                    format!(" = {}/hour", money(r.round_dp(places), currency))
                })
            } else {
                String::new()
            };
            let source = entry
                .source
                .as_deref()
                .map(|s| format!(", {s}"))
                .unwrap_or_default();
            let usage = if m.usage_paid.is_zero() {
                String::new()
            } else {
                format!(" (+ {} billed for usage)", money(m.usage_paid, currency))
            };
            sink.emit_in(
                *part,
                Check::PlanCostlierThanOnDemand,
                Some(*line),
                format!(
                    "{model}: the plan cost {}{usage} for {} hours used{rate}; on demand at {}/hour (price book `{}`{source}) those hours cost {}: the plan cost {} more",
                    money(m.plan, currency),
                    m.hours.normalize(),
                    money(entry.max, currency),
                    entry.pattern,
                    money(on_demand_cost, currency),
                    money(more.round_dp(places), currency),
                ),
            );
        }
    }
}

/// The first price-book entry for this plan line's description that is a
/// price per hour (its unit an hour, or none) in the bill's currency.
fn on_demand<'b>(
    book: &'b super::rate_above_reference::PriceBook,
    description: &str,
    currency: Option<&str>,
) -> Option<&'b PriceEntry> {
    let text = fold(description);
    book.entries.iter().find(|e| {
        let per_hour = e
            .unit
            .as_deref()
            .is_none_or(|u| super::usage::unit_hours(u) == Some(Decimal::ONE));
        let same_currency = match (&e.currency, currency) {
            (Some(c), Some(b)) => c.eq_ignore_ascii_case(b),
            _ => true,
        };
        per_hour && same_currency && text.contains(e.pattern.as_str())
    })
}

/// The built-in on-demand entry of `model` (its folded name) in the
/// bill's currency, which must be known: the built-in book mixes currencies.
fn builtin<'b>(
    book: &'b super::rate_above_reference::PriceBook,
    model: &str,
    currency: Option<&str>,
) -> Option<&'b PriceEntry> {
    let model = fold(model);
    let currency = currency?;
    book.entries.iter().find(|e| {
        e.pattern == model
            && e.currency
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(currency))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;
    use crate::audit::rate_above_reference::PriceBook;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn line(n: u64, desc: &str, q: &str, unit: &str, amount: &str) -> LineItem {
        let mut i = LineItem::new(n, desc, d(amount));
        i.quantity = Some(d(q));
        i.unit = Some(unit.into());
        i.category = Category::Compute;
        i.currency = Some("CNY".into());
        i
    }

    fn policy(max: &str) -> Policy {
        Policy {
            price_book: PriceBook {
                entries: vec![PriceEntry {
                    pattern: "rtx 4090".into(),
                    unit: Some("hour".into()),
                    currency: Some("CNY".into()),
                    max: d(max),
                    source: Some("on-demand list, 2025-10".into()),
                }],
            },
            ..Policy::default()
        }
    }

    fn run(items: &[LineItem], p: &Policy) -> Vec<(Option<u64>, String)> {
        let mut plans = Plans::default();
        let memo = &mut Memo::default();
        for i in items {
            plans.add(i, 0, memo);
        }
        let mut sink = Sink::new("bill.csv", p);
        plans.report(Some("CNY"), &mut sink);
        sink.findings
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect()
    }

    #[test]
    fn the_issue_case() {
        // 1260.00 / 200 h = 6.30 CNY/hour; 200 h x 2.00 = 400.00 on demand;
        // 1260.00 - 400.00 = 860.00 more.
        let bill = [
            line(2, "RTX 4090 包月", "1", "月", "1260.00"),
            line(3, "RTX 4090 运行时长", "200", "小时", "0.00"),
        ];
        assert_eq!(
            run(&bill, &policy("2.00")),
            [(
                Some(2),
                "RTX 4090: the plan cost 1260.00 CNY for 200 hours used = 6.30 CNY/hour; on demand at 2.00 CNY/hour (price book `rtx 4090`, on-demand list, 2025-10) those hours cost 400.00 CNY: the plan cost 860.00 CNY more".to_string()
            )]
        );
        // Used 700 hours: 700 x 2.00 = 1400.00 > 1260.00: the plan paid off.
        let busy = [
            line(2, "RTX 4090 包月", "1", "月", "1260.00"),
            line(3, "RTX 4090 运行时长", "700", "小时", "0.00"),
        ];
        assert!(run(&busy, &policy("2.00")).is_empty());
        // Exactly at on-demand: 630 h x 2.00 = 1260.00: not more.
        let even = [
            line(2, "RTX 4090 包月", "1", "月", "1260.00"),
            line(3, "RTX 4090 运行时长", "630", "小时", "0.00"),
        ];
        assert!(run(&even, &policy("2.00")).is_empty());
        // No price book, or no usage lines: nothing to compare.
        assert!(run(&bill, &Policy::default()).is_empty());
        assert!(run(&bill[..1], &policy("2.00")).is_empty());
    }

    #[test]
    fn plan_lines_by_unit_or_word_and_merging() {
        assert!(is_plan(&line(2, "A100 80G", "1", "month", "900")));
        assert!(is_plan(&line(2, "A100 monthly plan", "30", "days", "900")));
        assert!(!is_plan(&line(2, "A100 80G", "30", "days", "900")));
        let rows = [
            line(2, "RTX 4090 包月", "1", "月", "1260.00"),
            line(3, "RTX 4090 运行时长", "120", "小时", "0.00"),
            line(4, "RTX 4090 运行时长", "80", "小时", "0.00"),
        ];
        let memo = &mut Memo::default();
        let mut one = Plans::default();
        rows.iter().for_each(|r| one.add(r, 0, memo));
        let mut a = Plans::default();
        a.add(&rows[0], 0, memo);
        let mut b = Plans::default();
        b.add(&rows[1], 0, &mut Memo::default());
        b.add(&rows[2], 0, memo);
        Accumulator::merge(&mut a, b, 0);
        assert_eq!(a.models, one.models);
    }
}
