//! Collects a bill's findings, applying the policy.

use std::collections::HashMap;

use super::Policy;
use crate::model::{Check, Finding};

/// Where a per-item check puts its findings: a bill's [`Sink`], or the
/// [`super::FindingLog`] of a range of its rows read on another thread.
pub trait Emit<'p> {
    /// The policy findings are judged by (price book, severities).
    fn policy(&self) -> &'p Policy;
    /// A finding on a line of the part being read, or on the whole bill.
    fn emit(&mut self, check: Check, line: Option<u64>, message: String);
}

impl<'p> Emit<'p> for Sink<'p> {
    fn policy(&self) -> &'p Policy {
        self.policy
    }

    fn emit(&mut self, check: Check, line: Option<u64>, message: String) {
        self.emit_in(self.part(), check, line, message);
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
    pub(super) findings: Vec<Finding>,
    per_code: HashMap<Check, usize>,
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
    pub fn emit(&mut self, check: Check, line: Option<u64>, message: String) {
        self.emit_in(self.part(), check, line, message);
    }

    /// A finding on a line of part `part` (from [`Sink::part`] when the
    /// line was added), or on the whole bill (`line` is `None`: the first part).
    pub fn emit_in(&mut self, part: usize, check: Check, line: Option<u64>, message: String) {
        self.emit_at(part, check, line, message, None);
    }

    /// [`Sink::emit_in`] at the severity `level` of a threshold the finding
    /// passed (`unused-commitment` above 25%), unless billaudit.toml's
    /// `[severity]` gives the check another than its default (or turns it
    /// off): the file `billaudit init` writes lists every default.
    pub fn emit_at(
        &mut self,
        part: usize,
        check: Check,
        line: Option<u64>,
        message: String,
        level: Option<crate::model::Severity>,
    ) {
        let path = match line {
            Some(_) => self.part_path(part),
            None => self.part_path(0),
        }
        .to_string();
        let default = Some(check.default_severity());
        let severity = match (self.policy.severities.get(&check), level) {
            (None, Some(l)) => Some(l),
            (Some(s), Some(l)) if *s == default => Some(l),
            _ => self.policy.severity(check),
        };
        let Some(severity) = severity else {
            return;
        };
        let n = self.per_code.entry(check).or_insert(0);
        *n += 1;
        if *n > self.policy.max_findings_per_code {
            return;
        }
        self.findings.push(Finding {
            code: check,
            severity,
            message,
            accepted: self.policy.accepted_reason(check, &path, line),
            path,
            line,
        });
    }

    /// Counts `n` more findings of `check` that are not listed: they came
    /// after the cap of their code was reached (see [`super::FindingLog`]).
    pub(super) fn count_unlisted(&mut self, check: Check, n: usize) {
        if n > 0 && self.policy.severity(check).is_some() {
            *self.per_code.entry(check).or_insert(0) += n;
        }
    }

    /// Takes a finding made by an earlier stage (e.g. `unparsable-value`).
    pub fn push(&mut self, f: Finding) {
        self.emit(f.code, f.line, f.message);
    }

    pub(super) fn finish(mut self) -> Vec<Finding> {
        let mut capped: Vec<(Check, usize)> = self
            .per_code
            .iter()
            .filter(|(_, n)| **n > self.policy.max_findings_per_code)
            .map(|(c, n)| (*c, *n))
            .collect();
        capped.sort_by_key(|(c, _)| c.code());
        for (code, n) in capped {
            if let Some(severity) = self.policy.severity(code) {
                self.findings.push(Finding {
                    code,
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
