//! `--format markdown`: for pull-request comments and `$GITHUB_STEP_SUMMARY`.
//! A table of bills with shares and the worst finding, the aggregate per
//! currency, and for `check` the expectation results.

use super::{Context, dec, summarise, worst_finding};
use crate::audit::percent;
use crate::expect::Report;
use crate::expect::Status;

/// Escapes bill text (paths, messages, currencies) for a markdown table
/// cell, so that it is shown as written: no raw HTML (`<`, `>`, `&` as
/// entities), no emphasis, code, link, strikethrough or math (`*`, `_`,
/// `` ` ``, `[`, `]`, `~`, `$` and `\` backslash-escaped), no extra cell
/// (`|` escaped) and no line break.
pub(crate) fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '`' | '*' | '_' | '[' | ']' | '\\' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `--format markdown`, its bill text made safe for a terminal: the [`Renderer`](super::Renderer) of the format.
pub(crate) fn write(
    report: &Report,
    ctx: &super::Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    out.write_all(crate::terminal::term_report(render(report, ctx)).as_bytes())
}

pub(crate) fn render(report: &Report, ctx: &Context) -> String {
    let mut s = String::from("## billaudit report\n\n");
    let failed = report.bills.iter().filter(|b| !b.passed).count();
    s.push_str(&format!(
        "{} bill(s) audited: {} passed, {} failed; {} input error(s).\n\n",
        report.bills.len(),
        report.bills.len() - failed,
        failed,
        report.errors.len()
    ));
    if !report.bills.is_empty() {
        s.push_str("| bill | currency | total | hidden | hidden share | replica share | result | worst finding |\n");
        s.push_str("|---|---|---:|---:|---:|---:|---|---|\n");
        for b in &report.bills {
            let worst = worst_finding(b)
                .map(|f| match f.line {
                    // A merged bill's finding names its part.
                    Some(l) if f.path != b.path => format!(
                        "{} `{}` ({}:{l}): {}",
                        f.severity,
                        f.code,
                        cell(&f.path),
                        cell(&f.message)
                    ),
                    Some(l) => format!(
                        "{} `{}` (line {l}): {}",
                        f.severity,
                        f.code,
                        cell(&f.message)
                    ),
                    None => format!("{} `{}`: {}", f.severity, f.code, cell(&f.message)),
                })
                .unwrap_or_else(|| "none".into());
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                cell(&b.path),
                cell(b.currency.as_deref().unwrap_or("?")),
                dec(b.total),
                dec(b.hidden),
                b.hidden_share.map(percent).unwrap_or_else(|| "n/a".into()),
                b.replica_share.map(percent).unwrap_or_else(|| "n/a".into()),
                if b.passed { "pass" } else { "**FAIL**" },
                worst
            ));
        }
        s.push_str("\n### Per currency\n\n| currency | bills | failed | total | hidden share | worst bills |\n|---|---:|---:|---:|---:|---|\n");
        for c in summarise(&report.bills) {
            let worst: Vec<String> = c
                .worst
                .iter()
                .map(|(p, h)| format!("{} ({})", cell(p), percent(*h)))
                .collect();
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                cell(&c.label()),
                c.bills,
                c.failed,
                dec(c.total),
                c.hidden_share.map(percent).unwrap_or_else(|| "n/a".into()),
                worst.join(", ")
            ));
        }
    }
    if !report.errors.is_empty() {
        s.push_str("\n### Input errors\n\n");
        for e in &report.errors {
            s.push_str(&format!("- {}\n", cell(&e.to_string())));
        }
    }
    if ctx.check && !report.expectations.is_empty() {
        s.push_str("\n### Expectations\n\n| bill | result | differences |\n|---|---|---|\n");
        for o in &report.expectations {
            let (status, diffs) = match &o.status {
                Status::Matched => ("matched", String::new()),
                Status::Mismatch(d) => (
                    "**MISMATCH**",
                    d.iter().map(|x| cell(x)).collect::<Vec<_>>().join("<br>"),
                ),
                Status::Missing => ("no expectation", String::new()),
                Status::Blessed => ("blessed", String::new()),
                Status::Broken(m) => ("**BROKEN**", cell(m)),
            };
            s.push_str(&format!("| {} | {status} | {diffs} |\n", cell(&o.path)));
        }
    }
    s
}
