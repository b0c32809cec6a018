//! `--format github`: workflow-command annotations
//! (`::error file=...,line=...::message`) that GitHub Actions shows on the
//! pull request.

use crate::expect::Report;
use crate::expect::Status;
use crate::report::{INPUT_ERROR, expectation_code};

/// Escapes a message (data) of a workflow command; other control
/// characters (an ESC sequence, which Actions logs render) as in the
/// terminal (`\u{1b}`).
fn data(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    crate::report::term_text(&s).into_owned()
}

/// Escapes a property value of a workflow command.
fn prop(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub(crate) fn render(report: &Report) -> String {
    let mut out = String::new();
    for b in &report.bills {
        for f in &b.findings {
            let line = f.line.map(|l| format!(",line={l}")).unwrap_or_default();
            // An accepted finding is a notice: it does not fail the run.
            let (level, note) = match &f.accepted {
                Some(r) => ("notice", format!(" [accepted: {r}]")),
                None => (f.severity.as_str(), String::new()),
            };
            out.push_str(&format!(
                "::{level} file={}{line},title={}::{}\n",
                prop(&f.path),
                prop(f.code.code()),
                data(&format!("{}{note}", f.message))
            ));
        }
    }
    for e in &report.errors {
        let (file, line) = match e {
            crate::Error::Input(i) => (i.path.clone(), i.line),
            other => (other.path().unwrap_or("").to_string(), None),
        };
        let line = line.map(|l| format!(",line={l}")).unwrap_or_default();
        out.push_str(&format!(
            "::error file={}{line},title={INPUT_ERROR}::{}\n",
            prop(&file),
            data(&e.to_string())
        ));
    }
    for o in &report.expectations {
        let msg = match &o.status {
            Status::Mismatch(d) => Some(d.join("\n")),
            Status::Broken(m) => Some(m.clone()),
            _ => None,
        };
        if let (Some(msg), Some(code)) = (msg, expectation_code(&o.status)) {
            out.push_str(&format!(
                "::error file={},title={code}::{}\n",
                prop(&o.path),
                data(&msg)
            ));
        }
    }
    out
}
