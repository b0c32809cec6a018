//! Stage 4: figures and findings for each bill.
//!
//! Every check lives in its own file with the same shape: an [`CheckInfo`]
//! (stable kebab-case code, default severity and its documentation) and a
//! function that looks at the bill and pushes findings into a [`Sink`].
//! [`CHECKS`] is the one table of codes; `billaudit explain` and
//! `docs/checks.md` are generated from it.

pub mod accepted;
pub mod baseline;
pub mod billing_granularity;
pub mod billing_rounding;
pub mod duplicate_line;
pub mod gpu_usage;
pub mod hidden_fee_share;
pub mod hidden_items;
pub mod idle_storage;
pub mod ingress_charged;
pub mod line_arithmetic;
pub mod missing_amount;
pub mod mixed_currency;
pub mod monthly;
pub mod parse_double_counted;
pub mod rate_above_reference;
pub mod replica_redundancy;
pub mod replica_share;
pub mod scheduling_fee_share;
pub mod subtotal_mismatch;
pub mod total_mismatch;
pub mod unclassified_items;
pub mod unparsable_value;
pub mod unparsed_line;
pub mod usage;

use std::collections::HashMap;

use rust_decimal::{Decimal, RoundingStrategy};

use crate::model::{Category, Finding, LineItem, Severity, Totals};
use crate::normalise::SkipReason;

pub use gpu_usage::GpuUsage;
pub use hidden_items::{HiddenItem, TOP_HIDDEN, TopHidden};
pub use monthly::{MAX_MONTHS, MonthFigures, Monthly, MonthlyTally};

/// A check's identity and documentation. The texts are user documentation:
/// `billaudit explain CODE` prints them and `docs/checks.md` is generated
/// from them.
#[derive(Debug, Clone, Copy)]
pub struct CheckInfo {
    pub code: &'static str,
    pub default_severity: Severity,
    /// One line: when it fires.
    pub summary: &'static str,
    pub what: &'static str,
    pub why: &'static str,
    pub example: &'static str,
}

/// Every check, in the order of the docs.
pub const CHECKS: &[CheckInfo] = &[
    hidden_fee_share::INFO,
    replica_share::INFO,
    replica_redundancy::INFO,
    scheduling_fee_share::INFO,
    idle_storage::INFO,
    ingress_charged::INFO,
    duplicate_line::INFO,
    billing_granularity::INFO,
    line_arithmetic::INFO,
    subtotal_mismatch::INFO,
    total_mismatch::INFO,
    parse_double_counted::INFO,
    unparsable_value::INFO,
    unparsed_line::INFO,
    missing_amount::INFO,
    unclassified_items::INFO,
    mixed_currency::INFO,
    baseline::INFO,
    rate_above_reference::INFO,
    billing_rounding::INFO,
];

/// `docs/checks.md`, generated from [`CHECKS`] (a test keeps the file in step).
pub fn checks_markdown() -> String {
    let mut s = String::from(
        "# Checks\n\n<!-- Generated from src/audit/*.rs (CheckInfo) (also printed by `billaudit explain --all`); \
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

pub fn check_info(code: &str) -> Option<&'static CheckInfo> {
    CHECKS.iter().find(|c| c.code == code)
}

/// Thresholds of the share checks, as fractions (`0.05` is 5%).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thresholds {
    /// `hidden-fee-share`: hidden / subtotal above this fails.
    pub hidden_share: Decimal,
    /// `replica-share`: storage_replica / subtotal above this fails.
    pub replica_share: Decimal,
    /// `replica-redundancy`: (storage + storage_replica) / storage above this.
    pub redundancy: Decimal,
    /// `scheduling-fee-share`: scheduling / compute above this.
    pub scheduling_share: Decimal,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            hidden_share: Decimal::new(5, 2),
            replica_share: Decimal::new(30, 2),
            redundancy: Decimal::new(12, 1),
            scheduling_share: Decimal::new(8, 2),
        }
    }
}

/// Reads `5%` or `0.05` as the fraction 0.05.
pub fn parse_fraction(s: &str) -> Result<Decimal, String> {
    let t = s.trim();
    let (num, pct) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (t, false),
    };
    let d: Decimal = num
        .parse()
        .map_err(|_| format!("`{s}` is not a share: write it as `5%` or `0.05`"))?;
    let d = if pct { d / Decimal::ONE_HUNDRED } else { d };
    if d.is_sign_negative() {
        return Err(format!("`{s}` is negative"));
    }
    Ok(d)
}

/// What the user decided about checks: thresholds, severities, fail level.
#[derive(Debug, Clone)]
pub struct Policy {
    pub thresholds: Thresholds,
    /// Per-code severity; `None` turns the check off.
    pub severities: HashMap<String, Option<Severity>>,
    /// Findings at or above this level fail the bill.
    pub fail_on: Severity,
    /// At most this many findings of one code per bill are listed; the rest
    /// are counted in one closing finding.
    pub max_findings_per_code: usize,
    /// Expected unit prices (`[[price]]`), for `rate-above-reference`.
    pub price_book: rate_above_reference::PriceBook,
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
            accepted: Vec::new(),
        }
    }
}

impl Policy {
    pub fn severity(&self, code: &str) -> Option<Severity> {
        match self.severities.get(code) {
            Some(s) => *s,
            None => Some(check_info(code).map_or(Severity::Warning, |c| c.default_severity)),
        }
    }

    /// The reason of the first `[[accept]]` entry covering this finding.
    pub fn accepted_reason(&self, code: &str, path: &str, line: Option<u64>) -> Option<String> {
        self.accepted
            .iter()
            .find(|a| a.covers(code, path, line))
            .map(|a| a.reason.clone())
    }
}

/// Collects findings for one bill, applying the policy's severities and the
/// per-code cap.
///
/// A finding's `path` is a real file: for a bill merged from split parts
/// (`bill_1.csv + bill_2.csv`), a finding on a line names the part the line
/// came from ([`Sink::begin_part`]), and a finding on the whole bill names
/// the first part.
#[derive(Debug)]
pub struct Sink<'p> {
    path: String,
    /// The files the bill's lines come from, in order; empty: `path` itself.
    parts: Vec<String>,
    policy: &'p Policy,
    findings: Vec<Finding>,
    per_code: HashMap<&'static str, usize>,
}

impl<'p> Sink<'p> {
    pub fn new(path: &str, policy: &'p Policy) -> Self {
        Sink {
            path: path.to_string(),
            parts: Vec::new(),
            policy,
            findings: Vec::new(),
            per_code: HashMap::new(),
        }
    }

    /// The lines added from now on come from the file `path` (a part of a
    /// merged bill).
    pub fn begin_part(&mut self, path: &str) {
        if self.parts.last().is_none_or(|p| p != path) {
            self.parts.push(path.to_string());
        }
    }

    /// The part the lines now added come from, for a finding emitted later
    /// ([`Sink::emit_in`]).
    pub fn part(&self) -> usize {
        self.parts.len().saturating_sub(1)
    }

    /// The file of part `part` (the bill's own path when it has no parts).
    pub fn part_path(&self, part: usize) -> &str {
        self.parts
            .get(part)
            .map_or(self.path.as_str(), String::as_str)
    }

    /// The policy findings are judged by (price book, accepted findings).
    pub fn policy(&self) -> &'p Policy {
        self.policy
    }

    /// A finding on a line of the part being read, or on the whole bill.
    pub fn emit(&mut self, check: &CheckInfo, line: Option<u64>, message: String) {
        self.emit_in(self.part(), check, line, message);
    }

    /// A finding on a line of part `part` (from [`Sink::part`] when the
    /// line was added), or on the whole bill (`line` is `None`: the first part).
    pub fn emit_in(&mut self, part: usize, check: &CheckInfo, line: Option<u64>, message: String) {
        let path = match line {
            Some(_) => self.part_path(part),
            None => self.part_path(0),
        }
        .to_string();
        let Some(severity) = self.policy.severity(check.code) else {
            return;
        };
        let n = self.per_code.entry(check.code).or_insert(0);
        *n += 1;
        if *n > self.policy.max_findings_per_code {
            return;
        }
        self.findings.push(Finding {
            code: check.code.to_string(),
            severity,
            message,
            accepted: self.policy.accepted_reason(check.code, &path, line),
            path,
            line,
        });
    }

    /// Takes a finding made by an earlier stage (e.g. `unparsable-value`).
    pub fn push(&mut self, f: Finding) {
        match check_info(&f.code) {
            Some(info) => self.emit(info, f.line, f.message),
            None => self.findings.push(f),
        }
    }

    fn finish(mut self) -> Vec<Finding> {
        let mut capped: Vec<(&'static str, usize)> = self
            .per_code
            .iter()
            .filter(|(_, n)| **n > self.policy.max_findings_per_code)
            .map(|(c, n)| (*c, *n))
            .collect();
        capped.sort();
        for (code, n) in capped {
            if let (Some(info), Some(severity)) = (check_info(code), self.policy.severity(code)) {
                self.findings.push(Finding {
                    code: info.code.to_string(),
                    severity,
                    message: format!(
                        "{} more `{code}` findings not listed ({n} in all)",
                        n - self.policy.max_findings_per_code
                    ),
                    path: self.part_path(0).to_string(),
                    line: None,
                    accepted: self.policy.accepted_reason(code, self.part_path(0), None),
                });
            }
        }
        self.findings
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

    pub fn add(&mut self, r: SkipReason) {
        match r {
            SkipReason::Unparsable => self.unparsable += 1,
            SkipReason::MissingAmount => self.missing_amount += 1,
            SkipReason::Blank => self.blank += 1,
            SkipReason::Summary => self.summary += 1,
        }
    }
}

/// The audited bill: figures and findings. One per file and currency.
#[derive(Debug, Clone, PartialEq)]
pub struct Bill {
    pub path: String,
    pub format: String,
    pub currency: Option<String>,
    /// Set when the file has no currency column: where the currency came
    /// from, or that it is unknown (`ColumnMap::currency_note`).
    pub currency_note: Option<String>,
    pub line_items: u64,
    pub skipped: SkipCounts,
    pub totals: Totals,
    pub subtotal: Decimal,
    pub total: Decimal,
    pub hidden: Decimal,
    pub hidden_share: Option<Decimal>,
    pub replica_share: Option<Decimal>,
    /// A total the bill states itself (a `合计` row, an invoice's `Total`).
    pub stated_total: Option<Decimal>,
    pub stated_subtotal: Option<Decimal>,
    /// The `hidden-fee-share` threshold the bill was held to.
    pub hidden_threshold: Decimal,
    /// The largest positive hidden-fee items, largest first (at most
    /// [`TOP_HIDDEN`]).
    pub top_hidden: Vec<HiddenItem>,
    /// How many positive hidden-fee items the bill has in all.
    pub hidden_items: u64,
    /// Hidden fees and subtotal per month of the items' dates.
    pub monthly: Monthly,
    /// GPU compute per model, for `billaudit reprice`.
    pub gpu_usage: Vec<GpuUsage>,
    pub findings: Vec<Finding>,
    pub passed: bool,
    /// Set when the run compared with a baseline report.
    pub baseline: Option<baseline::BaselineDiff>,
    /// How the file was read where the file alone does not say (the order
    /// assumed for its slashed dates): facts for the reader, not findings.
    pub notes: Vec<String>,
}

impl Bill {
    pub fn skipped_rows(&self) -> u64 {
        self.skipped.total()
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

/// Builds one bill from its line items, one item at a time, in constant memory.
#[derive(Debug)]
pub struct BillBuilder<'p> {
    pub path: String,
    pub format: String,
    pub currency: Option<String>,
    /// See [`Bill::currency_note`].
    pub currency_note: Option<String>,
    pub line_items: u64,
    pub skipped: SkipCounts,
    pub totals: Totals,
    pub stated_total: Option<(u64, Decimal)>,
    pub stated_subtotal: Option<(u64, Decimal)>,
    /// Every subtotal and total a text invoice states, in line order, for
    /// `parse-double-counted` (empty for CSV exports).
    pub stated_figures: Vec<parse_double_counted::Stated>,
    /// Set when a sum no longer fits a Decimal; the bill is then refused.
    pub overflow_at: Option<u64>,
    unclassified: unclassified_items::Tally,
    top_hidden: TopHidden,
    monthly: MonthlyTally,
    idle_storage: idle_storage::IdleStorage,
    duplicates: duplicate_line::Seen,
    granularity: billing_granularity::Granularity,
    gpu: gpu_usage::GpuTally,
    sink: Sink<'p>,
}

impl<'p> BillBuilder<'p> {
    pub fn new(path: &str, format: &str, currency: Option<String>, policy: &'p Policy) -> Self {
        BillBuilder {
            path: path.to_string(),
            format: format.to_string(),
            currency,
            currency_note: None,
            line_items: 0,
            skipped: SkipCounts::default(),
            totals: Totals::default(),
            stated_total: None,
            stated_subtotal: None,
            stated_figures: Vec::new(),
            overflow_at: None,
            unclassified: unclassified_items::Tally::default(),
            top_hidden: TopHidden::default(),
            monthly: MonthlyTally::default(),
            idle_storage: idle_storage::IdleStorage::default(),
            duplicates: duplicate_line::Seen::default(),
            granularity: billing_granularity::Granularity::default(),
            gpu: gpu_usage::GpuTally::default(),
            sink: Sink::new(path, policy),
        }
    }

    /// Adds a classified line item and runs the per-item checks on it.
    pub fn add_item(&mut self, item: &LineItem) {
        if self
            .totals
            .checked_add(item.category, item.amount)
            .is_none()
        {
            self.overflow_at.get_or_insert(item.line);
        }
        self.line_items += 1;
        line_arithmetic::check(item, &mut self.sink);
        rate_above_reference::check(item, &mut self.sink);
        billing_rounding::check(item, &mut self.sink);
        ingress_charged::check(item, &mut self.sink);
        self.duplicates.add(item, &mut self.sink);
        self.unclassified.add(item, self.sink.part());
        self.top_hidden.add_in(item, self.sink.part());
        self.monthly.add(item);
        self.idle_storage.add(item, self.sink.part());
        self.granularity.add(item);
        self.gpu.add(item);
    }

    pub fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.skipped.add(reason);
        if let Some(f) = finding {
            self.sink.push(f);
        }
    }

    pub fn add_finding(&mut self, f: Finding) {
        self.sink.push(f);
    }

    pub fn emit(&mut self, check: &CheckInfo, line: Option<u64>, message: String) {
        self.sink.emit(check, line, message);
    }

    /// The lines added from now on come from the part `path` of a merged
    /// bill: findings on them name it.
    pub fn begin_part(&mut self, path: &str) {
        self.sink.begin_part(path);
    }

    /// Computes the figures and runs the bill-level checks.
    pub fn finish(mut self) -> Bill {
        let policy = self.sink.policy;
        let totals = self.totals.clone();
        let subtotal = totals.sum(Category::in_subtotal);
        let hidden = totals.sum(Category::is_hidden);
        let total = totals.sum(|_| true);
        let currency = self.currency.clone();
        let figures = Figures {
            totals: &totals,
            subtotal,
            hidden,
        };
        let t = &policy.thresholds;
        hidden_fee_share::check(&figures, t, &mut self.sink);
        replica_share::check(&figures, t, &mut self.sink);
        replica_redundancy::check(&figures, t, &mut self.sink);
        scheduling_fee_share::check(&figures, t, &mut self.sink);
        self.unclassified
            .report(currency.as_deref(), &mut self.sink);
        std::mem::take(&mut self.idle_storage).report(currency.as_deref(), &mut self.sink);
        self.granularity.report(currency.as_deref(), &mut self.sink);
        subtotal_mismatch::check(
            self.stated_subtotal,
            &figures,
            currency.as_deref(),
            &mut self.sink,
        );
        total_mismatch::check(
            self.stated_total,
            &figures,
            total,
            currency.as_deref(),
            &mut self.sink,
        );
        parse_double_counted::check(
            &self.stated_figures,
            subtotal,
            total,
            currency.as_deref(),
            &mut self.sink,
        );
        // Each kept item names the file of its line (a part of a merged bill).
        let hidden_items = self.top_hidden.seen;
        let top_hidden: Vec<HiddenItem> = std::mem::take(&mut self.top_hidden)
            .finish()
            .into_iter()
            .map(|mut h| {
                h.path = self.sink.part_path(h.part).to_string();
                h
            })
            .collect();
        let findings = self.sink.finish();
        let passed = !findings.iter().any(|f| f.fails(policy.fail_on));
        Bill {
            path: self.path,
            format: self.format,
            currency,
            currency_note: self.currency_note,
            line_items: self.line_items,
            skipped: self.skipped,
            subtotal,
            total,
            hidden,
            hidden_share: share(hidden, subtotal),
            replica_share: share(totals.get(Category::StorageReplica), subtotal),
            stated_total: self.stated_total.map(|(_, d)| d),
            stated_subtotal: self.stated_subtotal.map(|(_, d)| d),
            hidden_threshold: policy.thresholds.hidden_share,
            hidden_items,
            top_hidden,
            monthly: self.monthly.finish(),
            gpu_usage: std::mem::take(&mut self.gpu).finish(),
            totals,
            findings,
            passed,
            baseline: None,
            notes: Vec::new(),
        }
    }
}

/// How far a computed figure may be from a stated one: half a unit of the
/// stated figure's last decimal (0.005 for `1230.00`).
pub fn tolerance(stated: Decimal) -> Decimal {
    crate::normalise::number::half_unit(stated)
}

/// Whether a computed figure agrees with a stated one, within [`tolerance`].
pub fn agrees(stated: Decimal, computed: Decimal) -> bool {
    // Saturated only when the two are ~1e28 apart: a disagreement either way.
    stated.saturating_sub(computed).abs() <= tolerance(stated)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut codes: Vec<_> = CHECKS.iter().map(|c| c.code).collect();
        for c in &codes {
            assert!(
                c.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{c}"
            );
        }
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), CHECKS.len());
    }

    #[test]
    fn fractions() {
        assert_eq!(parse_fraction("5%").unwrap(), Decimal::new(5, 2));
        assert_eq!(parse_fraction("0.05").unwrap(), Decimal::new(5, 2));
        assert_eq!(parse_fraction(" 12.5 % ").unwrap(), Decimal::new(125, 3));
        assert!(parse_fraction("five").is_err());
        assert!(parse_fraction("-1%").is_err());
    }

    #[test]
    fn shares_round_to_six_places() {
        assert_eq!(
            share(Decimal::new(5, 0), Decimal::new(100, 0))
                .unwrap()
                .to_string(),
            "0.050000"
        );
        assert_eq!(
            share(Decimal::ONE, Decimal::new(3, 0)).unwrap().to_string(),
            "0.333333"
        );
        assert_eq!(share(Decimal::ONE, Decimal::ZERO), None);
        assert_eq!(percent(Decimal::new(5125, 5)), "5.13%");
        assert_eq!(percent(Decimal::MAX), "79228162514264337593543950335 times");
    }

    fn builder_with<'p>(policy: &'p Policy, items: &[(Category, &str)]) -> BillBuilder<'p> {
        let mut b = BillBuilder::new("inv.txt", "text-invoice", Some("USD".into()), policy);
        for (i, (c, amount)) in items.iter().enumerate() {
            let mut item = LineItem::new(i as u64 + 1, "x", amount.parse().unwrap());
            item.category = *c;
            item.rule = "test".into();
            b.add_item(&item);
        }
        b
    }

    fn codes_of(bill: &Bill) -> Vec<&str> {
        bill.findings.iter().map(|f| f.code.as_str()).collect()
    }

    #[test]
    fn stated_subtotal_and_total_have_their_own_codes() {
        let policy = Policy::default();
        let items = [
            (Category::Compute, "100.00"),
            (Category::Tax, "8.00"),
            (Category::Credit, "-10.00"),
        ];
        // Both agree with the lines.
        let mut b = builder_with(&policy, &items);
        b.stated_subtotal = Some((9, "100.00".parse().unwrap()));
        b.stated_total = Some((10, "98.00".parse().unwrap()));
        assert!(b.finish().findings.is_empty());
        // The tolerance is half a unit of the stated figure's last decimal:
        // `98.004` allows 0.0005, so 0.004 off is a mismatch; `98` allows 0.5.
        let mut b = builder_with(&policy, &items);
        b.stated_total = Some((10, "98.004".parse().unwrap()));
        assert!(codes_of(&b.finish()).contains(&"total-mismatch"));
        let mut b = builder_with(&policy, &items);
        b.stated_total = Some((10, "98".parse().unwrap()));
        assert!(b.finish().findings.is_empty());
        // The subtotal is off, the total is right.
        let mut b = builder_with(&policy, &items);
        b.stated_subtotal = Some((9, "101.00".parse().unwrap()));
        b.stated_total = Some((10, "98.00".parse().unwrap()));
        let bill = b.finish();
        assert_eq!(codes_of(&bill), ["subtotal-mismatch"]);
        assert_eq!(bill.findings[0].line, Some(9));
        // The total is off, the subtotal is right.
        let mut b = builder_with(&policy, &items);
        b.stated_subtotal = Some((9, "100.00".parse().unwrap()));
        b.stated_total = Some((10, "108.00".parse().unwrap()));
        let bill = b.finish();
        assert_eq!(codes_of(&bill), ["total-mismatch"]);
        assert_eq!(bill.findings[0].line, Some(10));
    }

    // ---- Mutation-testing unit tests (docs/reliability.md, "Mutation testing") ----

    fn finding(code: &str, line: Option<u64>, message: &str) -> Finding {
        Finding {
            code: code.into(),
            severity: Severity::Warning,
            message: message.into(),
            path: "earlier.csv".into(),
            line,
            accepted: None,
        }
    }

    #[test]
    fn checks_markdown_is_the_checked_in_docs_page() {
        // docs/checks.md is generated from CHECKS (integration test
        // `docs_checks_md_is_generated_from_the_code` regenerates it).
        let md = checks_markdown();
        assert_eq!(md, include_str!("../../docs/checks.md"));
        for c in CHECKS {
            assert!(md.contains(&format!("\n## {}\n\n{}", c.code, explain_text(c))));
        }
    }

    #[test]
    fn explain_text_has_every_part_in_order() {
        let c = CheckInfo {
            code: "x-y",
            default_severity: Severity::Error,
            summary: "S",
            what: "W",
            why: "Y",
            example: "E",
        };
        assert_eq!(
            explain_text(&c),
            "Default severity: **error**.\n\n**What it does.** W\n\n**Why it matters.** Y\n\n**Example.** E\n"
        );
    }

    #[test]
    fn check_info_finds_a_code_and_only_it() {
        assert_eq!(check_info("idle-storage").unwrap().code, "idle-storage");
        assert_eq!(
            check_info("total-mismatch").unwrap().default_severity,
            Severity::Error
        );
        assert!(check_info("no-such-check").is_none());
    }

    #[test]
    fn fraction_percent_is_divided_by_one_hundred() {
        // 250% = 250 / 100 = 2.5 (not 250 * 100, not 250 % 100 = 50).
        assert_eq!(parse_fraction("250%").unwrap(), Decimal::new(25, 1));
        assert_eq!(parse_fraction("0%").unwrap(), Decimal::ZERO);
        assert_eq!(parse_fraction("1.5").unwrap(), Decimal::new(15, 1));
    }

    fn accept(code: &str, path: &str, line: Option<u64>, reason: &str) -> accepted::Accepted {
        accepted::Accepted {
            code: code.into(),
            path: glob::Pattern::new(path).unwrap(),
            line,
            reason: reason.into(),
        }
    }

    #[test]
    fn policy_severity_default_override_off_unknown() {
        let mut p = Policy::default();
        // Defaults from the CheckInfo table.
        assert_eq!(p.severity("total-mismatch"), Some(Severity::Error));
        assert_eq!(p.severity("idle-storage"), Some(Severity::Warning));
        // A code outside the table is a warning.
        assert_eq!(p.severity("no-such-check"), Some(Severity::Warning));
        p.severities
            .insert("idle-storage".into(), Some(Severity::Error));
        p.severities.insert("total-mismatch".into(), None);
        assert_eq!(p.severity("idle-storage"), Some(Severity::Error));
        assert_eq!(p.severity("total-mismatch"), None);
    }

    #[test]
    fn policy_accepted_reason_is_the_first_covering_entry() {
        let mut p = Policy::default();
        assert_eq!(p.accepted_reason("idle-storage", "a.csv", Some(3)), None);
        p.accepted = vec![
            accept("idle-storage", "b.csv", None, "other file"),
            accept("idle-storage", "*.csv", Some(3), "line three"),
            accept("idle-storage", "*.csv", None, "any line"),
        ];
        assert_eq!(
            p.accepted_reason("idle-storage", "a.csv", Some(3))
                .as_deref(),
            Some("line three")
        );
        assert_eq!(
            p.accepted_reason("idle-storage", "a.csv", Some(4))
                .as_deref(),
            Some("any line")
        );
        assert_eq!(p.accepted_reason("total-mismatch", "a.csv", Some(3)), None);
    }

    #[test]
    fn sink_names_the_part_of_each_line_and_the_first_part_for_the_bill() {
        let p = Policy::default();
        let mut s = Sink::new("bill.csv", &p);
        assert_eq!(s.part(), 0);
        assert_eq!(s.part_path(0), "bill.csv");
        assert_eq!(s.part_path(5), "bill.csv");
        s.begin_part("bill_1.csv");
        s.begin_part("bill_1.csv"); // the same part again: no new part
        assert_eq!(s.part(), 0);
        s.emit(&idle_storage::INFO, Some(2), "a".into());
        s.begin_part("bill_2.csv");
        assert_eq!(s.part(), 1);
        assert_eq!(s.part_path(0), "bill_1.csv");
        assert_eq!(s.part_path(1), "bill_2.csv");
        s.emit(&idle_storage::INFO, Some(3), "b".into());
        s.emit(&hidden_fee_share::INFO, None, "c".into());
        s.emit_in(0, &duplicate_line::INFO, Some(9), "d".into());
        let f = s.finish();
        let got: Vec<(&str, &str, Option<u64>, &str, Severity)> = f
            .iter()
            .map(|f| {
                (
                    f.code.as_str(),
                    f.path.as_str(),
                    f.line,
                    f.message.as_str(),
                    f.severity,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "idle-storage",
                    "bill_1.csv",
                    Some(2),
                    "a",
                    Severity::Warning
                ),
                (
                    "idle-storage",
                    "bill_2.csv",
                    Some(3),
                    "b",
                    Severity::Warning
                ),
                ("hidden-fee-share", "bill_1.csv", None, "c", Severity::Error),
                (
                    "duplicate-line",
                    "bill_1.csv",
                    Some(9),
                    "d",
                    Severity::Warning
                ),
            ]
        );
    }

    #[test]
    fn sink_policy_is_the_one_given() {
        let p = Policy {
            max_findings_per_code: 7,
            ..Policy::default()
        };
        let s = Sink::new("a.csv", &p);
        assert_eq!(s.policy().max_findings_per_code, 7);
    }

    #[test]
    fn sink_caps_findings_per_code_with_a_closing_count() {
        let p = Policy {
            max_findings_per_code: 2,
            accepted: vec![accept("idle-storage", "a.csv", None, "known")],
            ..Policy::default()
        };
        // Exactly at the cap: 2 findings, no closing one.
        let mut s = Sink::new("a.csv", &p);
        for i in 0..2 {
            s.emit(&duplicate_line::INFO, Some(i), format!("m{i}"));
        }
        let f = s.finish();
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].message, "m1");
        // One above the cap on two codes: 2 listed each, then "1 more" each
        // (3 - 2 = 1), sorted by code.
        let mut s = Sink::new("a.csv", &p);
        for i in 0..3 {
            s.emit(&idle_storage::INFO, Some(i), format!("i{i}"));
            s.emit(&duplicate_line::INFO, Some(i), format!("d{i}"));
        }
        s.emit(&total_mismatch::INFO, None, "t".into());
        let f = s.finish();
        let msgs: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "i0",
                "d0",
                "i1",
                "d1",
                "t",
                "1 more `duplicate-line` findings not listed (3 in all)",
                "1 more `idle-storage` findings not listed (3 in all)",
            ]
        );
        let closing = &f[6];
        assert_eq!(closing.code, "idle-storage");
        assert_eq!(closing.severity, Severity::Warning);
        assert_eq!(closing.line, None);
        assert_eq!(closing.path, "a.csv");
        assert_eq!(closing.accepted.as_deref(), Some("known"));
        assert_eq!(f[0].accepted.as_deref(), Some("known"));
        assert_eq!(f[1].accepted, None);
        // Ten more than the cap: 12 - 2 = 10 not listed.
        let mut s = Sink::new("a.csv", &p);
        for i in 0..12 {
            s.emit(&duplicate_line::INFO, Some(i), String::new());
        }
        let f = s.finish();
        assert_eq!(f.len(), 3);
        assert_eq!(
            f[2].message,
            "10 more `duplicate-line` findings not listed (12 in all)"
        );
    }

    #[test]
    fn sink_drops_a_check_turned_off_and_counts_nothing_for_it() {
        let mut p = Policy::default();
        p.severities.insert("duplicate-line".into(), None);
        p.max_findings_per_code = 1;
        let mut s = Sink::new("a.csv", &p);
        for i in 0..3 {
            s.emit(&duplicate_line::INFO, Some(i), String::new());
        }
        assert!(s.finish().is_empty());
    }

    #[test]
    fn sink_push_applies_the_policy_to_known_codes_and_keeps_others() {
        let mut p = Policy::default();
        p.severities
            .insert("unparsable-value".into(), Some(Severity::Warning));
        let mut s = Sink::new("a.csv", &p);
        s.push(finding("unparsable-value", Some(4), "bad"));
        s.push(finding("some-stage-note", Some(5), "kept"));
        let f = s.finish();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].code, "unparsable-value");
        // Re-emitted through the sink: its path and severity are the sink's.
        assert_eq!(f[0].path, "a.csv");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[1], finding("some-stage-note", Some(5), "kept"));
    }

    #[test]
    fn skip_counts_add_and_total() {
        let mut s = SkipCounts::default();
        // 1 unparsable, 2 missing, 3 blank, 4 summary: total 1+2+3+4 = 10.
        let reasons = [
            (SkipReason::Unparsable, 1),
            (SkipReason::MissingAmount, 2),
            (SkipReason::Blank, 3),
            (SkipReason::Summary, 4),
        ];
        for (r, n) in reasons {
            for _ in 0..n {
                s.add(r);
            }
        }
        assert_eq!(
            s,
            SkipCounts {
                unparsable: 1,
                missing_amount: 2,
                blank: 3,
                summary: 4
            }
        );
        assert_eq!(s.total(), 10);
        // 5+7+11+13 = 36 (no product or difference of these gives 36).
        let s = SkipCounts {
            unparsable: 5,
            missing_amount: 7,
            blank: 11,
            summary: 13,
        };
        assert_eq!(s.total(), 36);
    }

    #[test]
    fn exceeds_is_strict_at_the_threshold() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        // 0.05 * 100 = 5.00: 5.00 passes, 5.01 and 6 exceed, 4.99 passes.
        assert!(!exceeds(d("5.00"), d("0.05"), d("100")));
        assert!(exceeds(d("5.01"), d("0.05"), d("100")));
        assert!(exceeds(d("6"), d("0.05"), d("100")));
        assert!(!exceeds(d("4.99"), d("0.05"), d("100")));
        // share * whole overflows: compare part / whole with share instead.
        // 1 / 2 = 0.5 is not above MAX; MAX / 2 is above 0.5 only if
        // 0.5 * 2 overflowed, so use a share near MAX: MAX*2 overflows and
        // MAX/2 < MAX (no fire), 1/2 < MAX (no fire).
        assert!(!exceeds(Decimal::ONE, Decimal::MAX, d("2")));
        assert!(!exceeds(Decimal::MAX, Decimal::MAX, d("2")));
    }

    #[test]
    fn share_is_none_without_a_positive_whole() {
        assert_eq!(share(Decimal::ONE, Decimal::NEGATIVE_ONE), None);
        assert_eq!(
            share(Decimal::ONE, Decimal::ONE).unwrap().to_string(),
            "1.000000"
        );
    }

    #[test]
    fn percent_and_money_text() {
        // 0.05 * 100 = 5.00; 1.23456 * 100 = 123.456 -> 123.46.
        assert_eq!(percent(Decimal::new(5, 2)), "5.00%");
        assert_eq!(percent(Decimal::new(123456, 5)), "123.46%");
        assert_eq!(money(Decimal::new(500, 2), Some("USD")), "5.00 USD");
        assert_eq!(money(Decimal::new(500, 2), None), "5.00");
    }

    #[test]
    fn builder_counts_items_skips_and_decides_passed() {
        let policy = Policy::default();
        let mut b = builder_with(
            &policy,
            &[(Category::Compute, "10.00"), (Category::Compute, "20.00")],
        );
        b.add_skip(SkipReason::Blank, None);
        b.add_skip(
            SkipReason::Unparsable,
            Some(finding("unparsable-value", Some(7), "bad")),
        );
        let bill = b.finish();
        assert_eq!(bill.line_items, 2);
        assert_eq!(bill.skipped_rows(), 2);
        assert_eq!(bill.skipped.blank, 1);
        assert_eq!(bill.skipped.unparsable, 1);
        // 10.00 + 20.00 = 30.00 compute; no hidden fees.
        assert_eq!(bill.subtotal, Decimal::new(3000, 2));
        assert_eq!(bill.total, Decimal::new(3000, 2));
        // unparsable-value is an error by default: the bill fails.
        assert_eq!(codes_of(&bill), ["unparsable-value"]);
        assert_eq!(bill.findings[0].path, "inv.txt");
        assert!(!bill.passed);
        // Without findings the bill passes.
        let bill = builder_with(&policy, &[(Category::Compute, "10.00")]).finish();
        assert!(bill.findings.is_empty());
        assert!(bill.passed);
        assert_eq!(bill.skipped_rows(), 0);
        // A warning alone does not fail at the default fail level.
        let mut b = builder_with(&policy, &[(Category::Compute, "10.00")]);
        b.add_finding(finding("unparsed-line", Some(3), "?"));
        let bill = b.finish();
        assert_eq!(codes_of(&bill), ["unparsed-line"]);
        assert!(bill.passed);
    }

    #[test]
    fn builder_emit_and_parts_name_the_file() {
        let policy = Policy::default();
        let mut b = BillBuilder::new("m.csv", "csv", None, &policy);
        b.begin_part("m_1.csv");
        b.emit(&unparsed_line::INFO, Some(1), "one".into());
        b.begin_part("m_2.csv");
        b.emit(&unparsed_line::INFO, Some(2), "two".into());
        let bill = b.finish();
        let got: Vec<(&str, Option<u64>)> = bill
            .findings
            .iter()
            .map(|f| (f.path.as_str(), f.line))
            .collect();
        assert_eq!(got, [("m_1.csv", Some(1)), ("m_2.csv", Some(2))]);
    }
}
