//! Comparison with an earlier JSON report (`--baseline report.json`).
//!
//! The report file is read at the edge (the JSON report module converts it
//! into a [`Baseline`]); this check works on that domain type only.

use std::collections::{BTreeSet, HashMap};

use rust_decimal::Decimal;

use super::{Bill, Policy, percent};
use crate::model::{Check, Finding};

/// An earlier report, as far as the comparison needs it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Baseline {
    pub bills: Vec<BaselineBill>,
}

/// One bill of the earlier report, found again by path and currency.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BaselineBill {
    pub path: String,
    pub currency: Option<String>,
    /// The hidden share as a fraction; `None` when the report had none or
    /// it was not a number.
    pub hidden_share: Option<Decimal>,
    pub findings: Vec<Finding>,
}

/// What changed against the baseline, for one bill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineDiff {
    /// The bill's hidden share in the baseline; `None` when the bill is new.
    pub previous_hidden_share: Option<Decimal>,
    pub found: bool,
    pub new_findings: Vec<String>,
    pub vanished_findings: Vec<String>,
}

fn key(f: &Finding) -> String {
    match f.line {
        Some(l) => format!("{}:{l}", f.code),
        None => f.code.to_string(),
    }
}

/// Compares `bills` with `baseline`, adding `hidden-share-increase` findings
/// and a [`BaselineDiff`] to each bill. `max_increase` is in percentage points.
/// The JSON report is parsed into a [`Baseline`] once, at the edge.
pub fn apply(bills: &mut [Bill], baseline: &Baseline, max_increase: Decimal, policy: &Policy) {
    let index: HashMap<(&str, Option<&str>), &BaselineBill> = baseline
        .bills
        .iter()
        .map(|b| ((b.path.as_str(), b.currency.as_deref()), b))
        .collect();
    for bill in bills.iter_mut() {
        let Some(prev) = index.get(&(bill.path.as_str(), bill.currency.as_deref())) else {
            bill.baseline = Some(BaselineDiff {
                previous_hidden_share: None,
                found: false,
                new_findings: Vec::new(),
                vanished_findings: Vec::new(),
            });
            continue;
        };
        let before: BTreeSet<String> = prev.findings.iter().map(key).collect();
        let now: BTreeSet<String> = bill.findings.iter().map(key).collect();
        let previous: Option<Decimal> = prev.hidden_share;
        if let (Some(p), Some(n)) = (previous, bill.hidden_share) {
            // The baseline is a file from outside: a share near the Decimal
            // range must not overflow (it saturates, keeping the sign).
            let grew = n
                .checked_sub(p)
                .and_then(|d| d.checked_mul(Decimal::ONE_HUNDRED))
                .unwrap_or(if n > p { Decimal::MAX } else { Decimal::MIN });
            if grew > max_increase {
                if let Some(severity) = policy.severity(Check::HiddenShareIncrease) {
                    bill.findings.push(Finding {
                        code: Check::HiddenShareIncrease,
                        severity,
                        message: format!(
                            "the hidden share grew from {} to {} (+{} points), more than the {}-point limit",
                            percent(p),
                            percent(n),
                            grew.round_dp(2),
                            max_increase.normalize()
                        ),
                        path: bill.path.clone(),
                        line: None,
                        accepted: policy.accepted_reason(Check::HiddenShareIncrease, &bill.path, None),
                    });
                }
            }
        }
        bill.baseline = Some(BaselineDiff {
            previous_hidden_share: previous,
            found: true,
            new_findings: now.difference(&before).cloned().collect(),
            vanished_findings: before.difference(&now).cloned().collect(),
        });
        bill.passed = !bill.findings.iter().any(|f| f.fails(policy.fail_on));
    }
}
