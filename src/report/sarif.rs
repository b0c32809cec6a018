//! `--format sarif`: SARIF 2.1.0. Rule ids are the check codes, with their
//! documentation; results carry the file and, where known, the line.

use serde_json::{Value, json};

use crate::audit::CHECKS;
use crate::expect::Report;
use crate::expect::Status;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

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

pub fn render(report: &Report) -> String {
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
    rules.push(json!({
        "id": "input-error",
        "name": "input-error",
        "shortDescription": { "text": "the input could not be audited" },
        "fullDescription": { "text": "The file is missing, empty, binary, not a bill, or malformed at the line given." },
        "defaultConfiguration": { "level": "error" },
    }));
    rules.push(json!({
        "id": "expectation-mismatch",
        "name": "expectation-mismatch",
        "shortDescription": { "text": "the audit differs from the bill's .expect.toml (billaudit check)" },
        "defaultConfiguration": { "level": "error" },
    }));
    let mut results: Vec<Value> = Vec::new();
    for b in &report.bills {
        for f in &b.findings {
            let mut r = json!({
                "ruleId": f.code,
                "level": f.severity.as_str(),
                "message": { "text": f.message },
                "locations": location(&f.path, f.line),
            });
            // An accepted finding (billaudit.toml `[[accept]]`) is a SARIF
            // suppression: code-scanning tools show it as dismissed.
            if let (Some(reason), Some(obj)) = (&f.accepted, r.as_object_mut()) {
                obj.insert(
                    "suppressions".into(),
                    json!([{ "kind": "external", "justification": reason }]),
                );
            }
            results.push(r);
        }
    }
    for e in &report.errors {
        let line = match e {
            crate::Error::Input(i) => i.line,
            _ => None,
        };
        results.push(json!({
            "ruleId": "input-error",
            "level": "error",
            "message": { "text": e.to_string() },
            "locations": location(e.path().unwrap_or(""), line),
        }));
    }
    for o in &report.expectations {
        if let Status::Mismatch(d) = &o.status {
            results.push(json!({
                "ruleId": "expectation-mismatch",
                "level": "error",
                "message": { "text": d.join("\n") },
                "locations": location(&o.path, None),
            }));
        }
    }
    let doc = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "billaudit",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
