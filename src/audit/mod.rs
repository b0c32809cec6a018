//! Stage 4: figures and findings for each bill.
//!
//! Every check lives in its own file: a function that looks at the bill and
//! pushes findings of its [`Check`] into a [`Sink`]. The checks' codes,
//! default severities and documentation are one table, [`CHECKS`]
//! (`vocab::checks`); `billaudit explain` and `docs/checks.md` are
//! generated from it.

pub(crate) mod above_list_price;
pub(crate) mod accepted;
pub(crate) mod accumulator;
pub mod baseline;
mod bill;
pub(crate) mod billing_granularity;
pub(crate) mod billing_rounding;
pub(crate) mod contract_price;
pub(crate) mod duplicate_line;
mod excess;
mod finding_log;
pub(crate) mod gpu_usage;
pub(crate) mod hidden_fee_share;
pub mod hidden_items;
pub(crate) mod idle_events;
pub(crate) mod idle_storage;
mod in_order;
pub(crate) mod ingress_charged;
pub(crate) mod line_arithmetic;
pub(crate) mod monthly;
pub(crate) mod parse_double_counted;
pub(crate) mod plan_cost;
pub mod ragged_rows;
pub(crate) mod rate_above_reference;
pub(crate) mod replica_redundancy;
pub(crate) mod replica_share;
pub(crate) mod scheduling_fee_share;
mod sink;
mod state;
pub(crate) mod subtotal_mismatch;
mod thresholds;
pub(crate) mod total_mismatch;
pub(crate) mod unclassified_items;
pub mod unstated;
pub(crate) mod unused_commitment;
pub(crate) mod usage;
// The stateful checks whose files are not named above (build.rs).
include!(concat!(env!("OUT_DIR"), "/stateful_checks.rs"));

use std::collections::HashMap;

use rust_decimal::{Decimal, RoundingStrategy};

use crate::model::{Category, Severity, Totals};
use crate::normalise::SkipReason;

pub use crate::vocab::checks::{CHECKS, Check, CheckInfo, Figure, Ratio};
pub use bill::Bill;
pub use finding_log::FindingLog;
pub use sink::{Emit, Sink};
pub use state::{BillState, Caches};
pub use thresholds::{
    Flag, Thresholds, default_text, flags, parse_fraction, parse_max_findings, parse_share,
};

pub use gpu_usage::GpuUsage;
pub use hidden_items::{HiddenItem, TOP_HIDDEN, TopHidden};
pub use monthly::{MAX_MONTHS, MonthFigures, Monthly, MonthlyTally};

/// `docs/checks.md`, generated from [`CHECKS`] (a test keeps the file in step).
pub fn checks_markdown() -> String {
    let mut s = String::from(
        "# Checks\n\n<!-- Generated from src/vocab/checks.rs (CHECKS) (also printed by `billaudit explain --all`); \
         a test fails when this file drifts. Regenerate with `BILLAUDIT_BLESS=1 cargo test docs_checks`. -->\n\n\
         Every finding has a stable kebab-case code and a default severity. `error` findings fail the run \
         (exit code 1); `--fail-on warning` fails on warnings too.\n\n\
         | code | default | fires when |\n|---|---|---|\n",
    );
    for c in CHECKS {
        s.push_str(&format!(
            "| [`{}`](#{}) | {} | {} |\n",
            c.code, c.code, c.default_severity, c.summary
        ));
    }
    for c in CHECKS {
        s.push_str(&format!("\n## {}\n\n", c.code));
        s.push_str(&explain_text(c));
    }
    s
}

/// The documentation of one check, as `billaudit explain CODE` prints it.
pub fn explain_text(c: &CheckInfo) -> String {
    format!(
        "Default severity: **{}**.\n\n**What it does.** {}\n\n**Why it matters.** {}\n\n**Example.** {}\n",
        c.default_severity, c.what, c.why, c.example
    )
}

/// The table row of the check with this code.
pub fn check_info(code: &str) -> Option<&'static CheckInfo> {
    Check::from_code(code).map(Check::info)
}

/// What the user decided about checks: thresholds, severities, fail level.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The share checks' thresholds.
    pub thresholds: Thresholds,
    /// Per-check severity; `None` turns the check off. A check not listed
    /// has its default severity.
    pub severities: HashMap<Check, Option<Severity>>,
    /// Findings at or above this level fail the bill.
    pub fail_on: Severity,
    /// At most this many findings of one code per bill are listed; the rest
    /// are counted in one closing finding.
    pub max_findings_per_code: usize,
    /// Expected unit prices (`[[price]]`), for `rate-above-reference`.
    pub price_book: rate_above_reference::PriceBook,
    /// On-demand prices per GPU model and currency (pattern: the folded
    /// model name), which `plan-costlier-than-on-demand` reads when
    /// `price_book` is empty: the built-in book's, set by
    /// `pipeline::configured` (docs/decisions.md, "The built-in on-demand
    /// prices for plan-costlier-than-on-demand"). Never read by
    /// `rate-above-reference`.
    pub on_demand: rate_above_reference::PriceBook,
    /// Known findings that no longer fail the run (`[[accept]]`).
    pub accepted: Vec<accepted::Accepted>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            thresholds: Thresholds::default(),
            severities: HashMap::new(),
            fail_on: Severity::Error,
            max_findings_per_code: 100,
            price_book: rate_above_reference::PriceBook::default(),
            on_demand: rate_above_reference::PriceBook::default(),
            accepted: Vec::new(),
        }
    }
}

impl Policy {
    pub fn severity(&self, check: Check) -> Option<Severity> {
        match self.severities.get(&check) {
            Some(s) => *s,
            None => Some(check.default_severity()),
        }
    }

    /// The reason of the first `[[accept]]` entry covering this finding.
    pub fn accepted_reason(&self, code: Check, path: &str, line: Option<u64>) -> Option<String> {
        self.accepted
            .iter()
            .find(|a| a.covers(code, path, line))
            .map(|a| a.reason.clone())
    }
}

/// How many rows were skipped, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkipCounts {
    pub unparsable: u64,
    pub missing_amount: u64,
    pub blank: u64,
    pub summary: u64,
}

impl SkipCounts {
    pub fn total(&self) -> u64 {
        self.unparsable + self.missing_amount + self.blank + self.summary
    }

    /// Adds the counts of later rows.
    pub fn merge(&mut self, later: SkipCounts) {
        self.unparsable += later.unparsable;
        self.missing_amount += later.missing_amount;
        self.blank += later.blank;
        self.summary += later.summary;
    }

    pub fn add(&mut self, r: SkipReason) {
        match r {
            SkipReason::Unparsable => self.unparsable += 1,
            SkipReason::MissingAmount => self.missing_amount += 1,
            SkipReason::Blank => self.blank += 1,
            SkipReason::Summary => self.summary += 1,
        }
    }
}

/// Whether `part > share * whole` (for `whole > 0`), exactly, and without
/// overflow: a threshold or total near the Decimal range never panics.
pub fn exceeds(part: Decimal, share: Decimal, whole: Decimal) -> bool {
    match share.checked_mul(whole) {
        Some(limit) => part > limit,
        None => part.checked_div(whole).is_some_and(|r| r > share),
    }
}

/// The value of a figure of a bill's category totals.
pub fn figure(totals: &Totals, f: Figure) -> Decimal {
    match f {
        Figure::Hidden => totals.sum(Category::is_hidden),
        Figure::Subtotal => totals.sum(Category::in_subtotal),
        Figure::Total(c) => totals.get(c),
    }
}

/// The verdict of a share check on a bill's totals, from its figures and
/// its threshold alone (whatever severity the check has): `Some(true)`
/// above the threshold, `Some(false)` within it, `None` when the check does
/// not judge these totals (no positive whole or part, see [`Ratio::needs`])
/// or has no threshold. Compared exactly, without overflow.
pub fn above_threshold(check: Check, totals: &Totals, threshold: Decimal) -> Option<bool> {
    let r = check.compares()?;
    let whole = figure(totals, r.whole);
    match r.needs {
        None if whole <= Decimal::ZERO => return None,
        Some(n) if figure(totals, n) <= Decimal::ZERO => return None,
        Some(_) if whole <= Decimal::ZERO => return Some(true),
        _ => {}
    }
    let sum = r
        .parts
        .iter()
        .try_fold(Decimal::ZERO, |a, p| a.checked_add(figure(totals, *p)));
    Some(match sum {
        Some(part) => exceeds(part, threshold, whole),
        // The parts overflow a Decimal: compare the sum of their shares.
        None => r
            .parts
            .iter()
            .try_fold(Decimal::ZERO, |a, p| {
                figure(totals, *p)
                    .checked_div(whole)
                    .and_then(|x| a.checked_add(x))
            })
            .is_none_or(|s| s > threshold),
    })
}

/// A fraction rounded to the 6 places of the report.
pub fn share(part: Decimal, whole: Decimal) -> Option<Decimal> {
    if whole <= Decimal::ZERO {
        return None;
    }
    let s = part.checked_div(whole)?;
    let mut r = s.round_dp_with_strategy(6, RoundingStrategy::MidpointAwayFromZero);
    r.rescale(6);
    Some(r)
}

/// The figures the share checks look at.
#[derive(Debug, Clone)]
pub struct Figures<'a> {
    pub totals: &'a Totals,
    pub subtotal: Decimal,
    pub hidden: Decimal,
}

/// How far a computed figure may be from a stated one: half a unit of the
/// stated figure's last decimal (0.005 for `1230.00`).
pub fn tolerance(stated: Decimal) -> Decimal {
    crate::normalise::number::half_unit(stated)
}

/// Whether a computed figure agrees with a stated one, within [`tolerance`]
/// (defined with the number reader, which the tax column's test uses too).
pub use crate::normalise::number::agrees;

/// Formats a fraction as a percentage with two decimals: `0.0512` -> `5.12%`.
/// A fraction too large to multiply by 100 (a tiny subtotal under huge
/// fees) is written as the fraction instead of panicking.
pub fn percent(f: Decimal) -> String {
    match f.checked_mul(Decimal::ONE_HUNDRED) {
        Some(p) => {
            let p = p.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
            format!("{p:.2}%")
        }
        None => format!("{} times", f.round_dp(2)),
    }
}

/// Money for messages: the amount with its currency code, when known.
pub fn money(d: Decimal, currency: Option<&str>) -> String {
    match currency {
        Some(c) => format!("{d} {c}"),
        None => d.to_string(),
    }
}

/// Unit tests of the bill-level and smaller checks (docs/reliability.md, "Mutation testing").
#[cfg(test)]
mod check_tests;

/// Property tests of merging the partials of a bill's ranges.
#[cfg(test)]
mod merge_tests;

#[cfg(test)]
mod tests;
