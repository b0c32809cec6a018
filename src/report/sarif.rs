//! `--format sarif`: SARIF 2.1.0. Rule ids are the check codes, with their
//! documentation; results carry the file and, where known, the line.
//!
//! Levels say what the exit code says ([`Context::weigh`]): `error` for a
//! result that fails the run (a finding at or above `--fail-on` in
//! `audit`, a failed expectation in `check`, an input error), `warning` for
//! one that does not, `note` for an accepted finding (with its reason) and
//! an input error that the bill's expectation records.

use serde_json::{Value, json};

use super::{Context, INPUT_ERROR, Weight, expectation_code};
use crate::audit::CHECKS;
use crate::expect::{Report, Status};

pub(crate) const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn location(path: &str, line: Option<u64>) -> Value {
    let mut physical = json!({ "artifactLocation": { "uri": uri(path) } });
    if let Some(l) = line {
        physical["region"] = json!({ "startLine": l });
    }
    json!([{ "physicalLocation": physical }])
}

/// A relative URI reference for a path (spaces and `%` escaped).
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            '\\' => out.push('/'),
            c => out.push(c),
        }
    }
    out
}

/// The SARIF level of a result of this weight.
pub(crate) fn level(w: Weight) -> &'static str {
    match w {
        Weight::Fails | Weight::InputError => "error",
        Weight::Reported => "warning",
        Weight::Accepted => "note",
    }
}

fn rule(id: &str, short: &str, full: &str) -> Value {
    json!({
        "id": id,
        "name": id,
        "shortDescription": { "text": short },
        "fullDescription": { "text": full },
        "defaultConfiguration": { "level": "error" },
    })
}

fn rules() -> Vec<Value> {
    let mut rules: Vec<Value> = CHECKS
        .iter()
        .map(|c| {
            json!({
                "id": c.code,
                "name": c.code,
                "shortDescription": { "text": c.summary },
                "fullDescription": { "text": c.what },
                "help": { "text": format!("{}\n\nExample: {}", c.why, c.example) },
                "defaultConfiguration": { "level": c.default_severity.as_str() },
            })
        })
        .collect();
    rules.push(rule(
        INPUT_ERROR,
        "the input could not be audited",
        "The file is missing, empty, binary, not a bill, or malformed at the line given.",
    ));
    let expectation = |s: &Status, short: &str, full: &str| {
        rule(expectation_code(s).unwrap_or_default(), short, full)
    };
    rules.push(expectation(
        &Status::Mismatch(Vec::new()),
        "the audit differs from the bill's .expect.toml (billaudit check)",
        "billaudit check: a figure or a finding of the audit differs from the bill's expectation file.",
    ));
    rules.push(expectation(
        &Status::Broken(String::new()),
        "the bill's .expect.toml cannot be read (billaudit check)",
        "billaudit check: the expectation file is not valid TOML or has unknown fields.",
    ));
    rules.push(expectation(
        &Status::Missing,
        "the bill has no .expect.toml (billaudit check --require-expectations)",
        "billaudit check --require-expectations: every bill needs an expectation file beside it.",
    ));
    rules
}

pub(crate) fn render(report: &Report, ctx: &Context) -> String {
    let mut results: Vec<Value> = Vec::new();
    for b in &report.bills {
        for f in &b.findings {
            let text = match &f.accepted {
                Some(reason) => format!("{} [accepted: {reason}]", f.message),
                None => f.message.clone(),
            };
            let mut r = json!({
                "ruleId": f.code,
                "level": level(ctx.weigh(f)),
                "message": { "text": text },
                "locations": location(&f.path, f.line),
            });
            // An accepted finding (billaudit.toml `[[accept]]`) is also a
            // SARIF suppression: code-scanning tools show it as dismissed.
            if let (Some(reason), Some(obj)) = (&f.accepted, r.as_object_mut()) {
                obj.insert(
                    "suppressions".into(),
                    json!([{ "kind": "external", "justification": reason }]),
                );
            }
            results.push(r);
        }
    }
    for o in ctx.others(report) {
        results.push(json!({
            "ruleId": o.code,
            "level": level(o.weight),
            "message": { "text": o.message },
            "locations": location(&o.path, o.line),
        }));
    }
    let doc = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "billaudit",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules(),
            }},
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
