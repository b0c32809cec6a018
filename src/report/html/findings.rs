//! A bill's findings as a table: severity, code, `file:line`, message.

use maud::{Markup, html};

use super::MAX_FINDINGS_SHOWN;
use super::text::{cut_text, location};
use crate::audit::Bill;

pub(super) fn findings(b: &Bill) -> Markup {
    html! {
        h3 { "Findings" }
        @if b.findings.is_empty() {
            p.muted { "No findings." }
        } @else {
            table {
                thead { tr { th { "severity" } th { "code" } th { "where" } th { "message" } } }
                tbody {
                    @for fd in b.findings.iter().take(MAX_FINDINGS_SHOWN) {
                        tr {
                            td { span.tag.(fd.severity.as_str()) { (fd.severity.as_str()) } }
                            td.mono.code { (fd.code.code()) }
                            td.mono.code { (location(&fd.path, fd.line)) }
                            td.text {
                                (cut_text(&fd.message, 600, false))
                                @if let Some(r) = &fd.accepted {
                                    " " em { "[accepted: " (cut_text(r, 200, false)) "]" }
                                }
                            }
                        }
                    }
                }
            }
            @if b.findings.len() > MAX_FINDINGS_SHOWN {
                p.note {
                    (b.findings.len() - MAX_FINDINGS_SHOWN)
                    " more findings not shown (the first " (MAX_FINDINGS_SHOWN) " of "
                    (b.findings.len()) " are; `--format json` has them all)."
                }
            }
        }
    }
}
