//! `--format gitlab`: a GitLab Code Quality report
//! (`artifacts: reports: codequality:`), the subset of the Code Climate
//! format GitLab reads: a JSON array of issues, each with `description`,
//! `check_name`, `fingerprint`, `severity` and `location.path` /
//! `location.lines.begin`.
//!
//! Severities say what the exit code says ([`Context::weigh`]):
//! `critical` for an input that could not be audited (exit 2), `major` for
//! a result that fails the run (exit 1), `minor` for one that does not,
//! `info` for an accepted finding or an input error that the bill's
//! expectation records. GitLab's `blocker` is not used.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::{Context, Weight};
use crate::expect::Report;

/// GitLab's severity for a result of this weight.
pub(crate) fn severity(w: Weight) -> &'static str {
    match w {
        Weight::InputError => "critical",
        Weight::Fails => "major",
        Weight::Reported => "minor",
        Weight::Accepted => "info",
    }
}

/// A stable fingerprint: XXH3-128 of path, line, check and message, so the
/// same finding in the next pipeline has the same one (GitLab compares
/// reports by it). Identical findings get an occurrence number, so each
/// fingerprint is unique in a report.
struct Fingerprints(HashMap<u128, u32>);

impl Fingerprints {
    fn next(&mut self, path: &str, line: Option<u64>, code: &str, message: &str) -> String {
        let line = line.map(|l| l.to_string()).unwrap_or_default();
        let key = format!("{path}\0{line}\0{code}\0{message}");
        let base = xxhash_rust::xxh3::xxh3_128(key.as_bytes());
        let seen = self.0.entry(base).or_insert(0);
        let hash = if *seen == 0 {
            base
        } else {
            xxhash_rust::xxh3::xxh3_128(format!("{key}\0{seen}").as_bytes())
        };
        *seen += 1;
        format!("{hash:032x}")
    }
}

/// A repository-relative path as GitLab matches it (no leading `./`, `/`
/// separators).
fn repo_path(path: &str) -> String {
    let p = path.replace('\\', "/");
    let mut s = p.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_string()
}

fn issue(
    fp: &mut Fingerprints,
    code: &str,
    path: &str,
    line: Option<u64>,
    description: &str,
    weight: Weight,
) -> Value {
    let path = repo_path(path);
    json!({
        "description": description,
        "check_name": code,
        "fingerprint": fp.next(&path, line, code, description),
        "severity": severity(weight),
        "location": {
            "path": path,
            // GitLab needs a line; a whole-bill result is placed on line 1.
            "lines": { "begin": line.unwrap_or(1) },
        },
    })
}

pub(crate) fn render(report: &Report, ctx: &Context) -> String {
    let mut fp = Fingerprints(HashMap::new());
    let mut issues: Vec<Value> = Vec::new();
    for b in &report.bills {
        for f in &b.findings {
            let description = match &f.accepted {
                Some(reason) => format!("{} [accepted: {reason}]", f.message),
                None => f.message.clone(),
            };
            issues.push(issue(
                &mut fp,
                f.code.code(),
                &f.path,
                f.line,
                &description,
                ctx.weigh(f),
            ));
        }
    }
    for o in ctx.others(report) {
        issues.push(issue(
            &mut fp, o.code, &o.path, o.line, &o.message, o.weight,
        ));
    }
    let mut s = serde_json::to_string_pretty(&Value::Array(issues)).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_stable_and_unique_per_finding() {
        let code = crate::model::Check::LineArithmetic.code();
        let mut a = Fingerprints(HashMap::new());
        let first = a.next("b.csv", Some(3), code, "m");
        let again = a.next("b.csv", Some(3), code, "m");
        let other_line = a.next("b.csv", Some(4), code, "m");
        assert_ne!(first, again, "identical findings get distinct fingerprints");
        assert_ne!(first, other_line);
        assert_eq!(first.len(), 32);
        // A new report gives the same fingerprints in the same order.
        let mut b = Fingerprints(HashMap::new());
        assert_eq!(b.next("b.csv", Some(3), code, "m"), first);
        assert_eq!(b.next("b.csv", Some(3), code, "m"), again);
        // No line and line 0 differ from each other (the key keeps them apart).
        assert_ne!(
            b.next("b.csv", None, "x", "m"),
            b.next("b.csv", Some(0), "x", "m")
        );
    }

    #[test]
    fn paths_are_repository_relative() {
        assert_eq!(repo_path("./bills/a.csv"), "bills/a.csv");
        assert_eq!(repo_path("bills\\a.csv"), "bills/a.csv");
        assert_eq!(repo_path("a.csv"), "a.csv");
    }
}
