//! The default output: one block per bill, a category table, the hidden
//! share against its threshold, and the findings with `file:line`.

use std::fmt::Write;

use rust_decimal::Decimal;
use unicode_width::UnicodeWidthStr;

use super::paint::{Styled, Tone};
use super::{Context, dec, summarise, term_text};
use crate::audit::{Bill, above_threshold, percent};
use crate::expect::Report;
use crate::expect::Status;
use crate::model::{Category, Check, Severity};

/// `--format human`: the [`Renderer`](super::Renderer) of the format.
pub fn write(
    report: &Report,
    ctx: &super::Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    out.write_all(render(report, ctx).as_bytes())
}

/// The report for a terminal, escaped, coloured when `ctx.paint` says so.
pub fn render(report: &Report, ctx: &Context) -> String {
    let mut out = Styled::new();
    for bill in &report.bills {
        render_bill(&mut out, bill);
    }
    if report.bills.len() > 1 {
        let _ = writeln!(out, "per currency:");
        for c in summarise(&report.bills) {
            let worst: Vec<String> = c
                .worst
                .iter()
                .map(|(p, h)| format!("{p} {}", percent(*h)))
                .collect();
            let _ = writeln!(
                out,
                "  {}: {} bill{}, total {}, hidden {} = {}; worst: {}",
                term_text(&c.label()),
                c.bills,
                plural(c.bills),
                dec(c.total),
                dec(c.hidden),
                c.hidden_share
                    .map(percent)
                    .unwrap_or_else(|| "no share".into()),
                if worst.is_empty() {
                    "-".into()
                } else {
                    worst.join(", ")
                }
            );
        }
        let _ = writeln!(out);
    }
    if ctx.check {
        render_expectations(&mut out, report);
    }
    if report.not_audited > 0 {
        let _ = writeln!(
            out,
            "{} input{} not audited: --fail-fast stopped at the first error",
            report.not_audited,
            plural(report.not_audited)
        );
    }
    let errors = report
        .bills
        .iter()
        .flat_map(|b| &b.findings)
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = report
        .bills
        .iter()
        .flat_map(|b| &b.findings)
        .filter(|f| f.severity == Severity::Warning)
        .count();
    let failed = report.bills.iter().filter(|b| !b.passed).count();
    let _ = writeln!(
        out,
        "{} bill{} audited: {} passed, {} failed ({} error{}, {} warning{}){}",
        report.bills.len(),
        plural(report.bills.len()),
        report.bills.len() - failed,
        failed,
        errors,
        plural(errors),
        warnings,
        plural(warnings),
        if report.errors.is_empty() {
            String::new()
        } else {
            format!(
                "; {} input{} could not be read",
                report.errors.len(),
                plural(report.errors.len())
            )
        }
    );
    out.finish(ctx.paint)
}

/// `check --bless` in the human format: the expectations only: the [`Renderer`](super::Renderer) of the format.
pub fn write_expectations_only(
    report: &Report,
    ctx: &super::Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    out.write_all(render_expectations_only(report, ctx).as_bytes())
}

/// `check --bless` for a terminal: what was blessed (and what could not be),
/// without the audits themselves.
pub fn render_expectations_only(report: &Report, ctx: &Context) -> String {
    let mut out = Styled::new();
    render_expectations(&mut out, report);
    out.finish(ctx.paint)
}

fn render_expectations(out: &mut Styled, report: &Report) {
    let mut counts = [0usize; 5];
    for o in &report.expectations {
        let (i, label, tone) = match &o.status {
            Status::Matched => (0, "ok", Tone::Good),
            Status::Mismatch(_) => (1, "MISMATCH", Tone::Bad),
            Status::Missing => (2, "no expectation", Tone::Caution),
            Status::Blessed => (3, "blessed", Tone::Note),
            Status::Broken(_) => (4, "BROKEN", Tone::Bad),
        };
        counts[i] += 1;
        let _ = write!(out, "check {}: ", term_text(&o.path));
        out.tone(tone, label);
        let _ = writeln!(out);
        match &o.status {
            Status::Mismatch(diffs) => {
                for d in diffs {
                    let _ = writeln!(out, "    {}", term_text(d));
                }
            }
            // The message is ours (a TOML diagnostic with its snippet): its
            // line breaks are kept, and each line is escaped as bill text.
            Status::Broken(m) => {
                for line in m.lines() {
                    let _ = writeln!(out, "    {}", term_text(line));
                }
            }
            Status::Blessed => {
                let _ = writeln!(out, "    wrote {}", o.expectation);
            }
            _ => {}
        }
    }
    let _ = writeln!(
        out,
        "expectations: {} matched, {} mismatched, {} missing, {} blessed, {} broken",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(s.width())))
}

fn pad_right(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(s.width())))
}

fn render_bill(out: &mut Styled, b: &Bill) {
    let cur = b.currency.as_deref().unwrap_or("currency unknown");
    let _ = writeln!(
        out,
        "{}  [{}, {}]",
        term_text(&b.path),
        term_text(&b.format),
        term_text(cur)
    );
    if let Some(note) = &b.currency_note {
        note_line(out, note);
    }
    // Each reason a row was skipped, counted: `(2 summary, 1 blank)`.
    let k = &b.skipped;
    let reasons: Vec<String> = [
        (k.summary, "summary"),
        (k.unparsable, "unparsable"),
        (k.missing_amount, "missing amount"),
        (k.blank, "blank"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{n} {why}"))
    .collect();
    let reasons = if reasons.is_empty() {
        String::new()
    } else {
        format!(" ({})", reasons.join(", "))
    };
    let _ = writeln!(
        out,
        "  {} line item{}, {} row{} skipped{reasons}",
        b.line_items,
        plural(b.line_items as usize),
        b.skipped_rows(),
        plural(b.skipped_rows() as usize)
    );
    let share_of = |d: Decimal| -> String {
        if b.subtotal > Decimal::ZERO {
            percent(d / b.subtotal)
        } else {
            String::new()
        }
    };
    let mut rows: Vec<(String, String, String, &str)> = Vec::new();
    for c in Category::ALL.into_iter().filter(|c| c.in_subtotal()) {
        let v = b.totals.get(c);
        rows.push((
            c.to_string(),
            dec(v),
            share_of(v),
            if c.is_hidden() { "hidden" } else { "" },
        ));
    }
    rows.push(("subtotal".into(), dec(b.subtotal), share_of(b.subtotal), ""));
    rows.push((
        "tax".into(),
        dec(b.totals.get(Category::Tax)),
        String::new(),
        "",
    ));
    rows.push((
        "credit".into(),
        dec(b.totals.get(Category::Credit)),
        String::new(),
        "",
    ));
    rows.push(("total".into(), dec(b.total), String::new(), ""));
    let w_amount = rows.iter().map(|r| r.1.width()).max().unwrap_or(0).max(6);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  {}  {}  {:>8}",
        pad_right("category", 16),
        pad_left("amount", w_amount),
        "share"
    );
    for (i, (name, amount, share, tag)) in rows.iter().enumerate() {
        if name == "subtotal" {
            let _ = writeln!(out, "  {}", "-".repeat(16 + 2 + w_amount + 2 + 8));
        }
        let _ = i;
        let line = format!(
            "  {}  {}  {:>8}  {}",
            pad_right(name, 16),
            pad_left(amount, w_amount),
            share,
            tag
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for (label, stated, computed) in [
        ("stated subtotal", b.stated_subtotal, b.subtotal),
        ("stated total", b.stated_total, b.total),
    ] {
        if let Some(st) = stated {
            // Said either way: a stated figure shown bare reads as agreement.
            let verdict = if crate::audit::agrees(st, computed) {
                "agrees with the lines".to_string()
            } else {
                format!(
                    "differs from the lines by {}",
                    dec(st.saturating_sub(computed))
                )
            };
            let _ = writeln!(
                out,
                "  {}  {}  {verdict}",
                pad_right(label, 16),
                pad_left(&dec(st), w_amount)
            );
        }
    }
    let _ = writeln!(out);
    match b.hidden_share {
        Some(s) => {
            // From the figures, not the findings: the check may be off.
            let fails =
                above_threshold(Check::HiddenFeeShare, &b.totals, b.hidden_threshold) == Some(true);
            let _ = write!(
                out,
                "  hidden fees {} = {} of subtotal, threshold {}  [",
                dec(b.hidden),
                percent(s),
                percent(b.hidden_threshold),
            );
            if fails {
                out.tone(Tone::Bad, "ABOVE THRESHOLD");
            } else {
                out.tone(Tone::Good, "within threshold");
            }
            let _ = writeln!(out, "]");
        }
        None => {
            let _ = writeln!(
                out,
                "  hidden fees {} (no positive subtotal, no share)",
                dec(b.hidden)
            );
        }
    }
    for n in &b.notes {
        note_line(out, n);
    }
    if b.findings.is_empty() {
        let _ = writeln!(out, "  no findings");
    } else {
        let _ = writeln!(out, "  findings:");
        for f in &b.findings {
            let path = term_text(&f.path);
            let loc = match f.line {
                Some(l) => format!("{path}:{l}"),
                None => path.into_owned(),
            };
            let accepted = f
                .accepted
                .as_deref()
                .map(|r| format!(" [accepted: {}]", term_text(r)))
                .unwrap_or_default();
            let severity = f.severity.as_str();
            let _ = write!(out, "    ");
            out.tone(Tone::of(f.severity), severity);
            let _ = writeln!(
                out,
                "{}  {:<20}  {loc}: {}{accepted}",
                " ".repeat(7usize.saturating_sub(severity.len())),
                f.code,
                term_text(&f.message)
            );
        }
    }
    let _ = write!(out, "  result: ");
    if b.passed {
        out.tone(Tone::Good, "PASSED");
    } else {
        out.tone(Tone::Bad, "FAILED");
    }
    let _ = writeln!(out);
    let _ = writeln!(out);
}

/// `  note: ...`, the label in the note tone.
fn note_line(out: &mut Styled, note: &str) {
    let _ = write!(out, "  ");
    out.tone(Tone::Note, "note");
    let _ = writeln!(out, ": {}", term_text(note));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 10%-hidden bill of [`crate::report::test_bill`], as the human
    /// report shows it.
    fn report_of(toml: &str) -> String {
        let mut out = Styled::new();
        render_bill(&mut out, &crate::report::test_bill(toml));
        out.as_str().to_string()
    }

    #[test]
    fn hidden_share_verdict_comes_from_the_figures_not_the_findings() {
        // Hidden 10.00 of a subtotal of 90.00 + 10.00 = 100.00 is 10.00%,
        // above the default 5.00%.
        let above =
            "  hidden fees 10.00 = 10.00% of subtotal, threshold 5.00%  [ABOVE THRESHOLD]\n";
        let on = report_of("");
        assert!(on.contains(above), "{on}");
        assert!(on.contains(Check::HiddenFeeShare.code()), "{on}");
        // The check turned off: no finding, but the share is still above.
        let off = report_of(&format!(
            "[severity]\n{} = \"off\"\n",
            Check::HiddenFeeShare.code()
        ));
        assert!(!off.contains(Check::HiddenFeeShare.code()), "{off}");
        assert!(off.contains(above), "{off}");
        // A threshold of 10%: exactly 10.00% is within it.
        let within = report_of(&format!(
            "[thresholds]\n{} = \"10%\"\n",
            Check::HiddenFeeShare.code()
        ));
        assert!(
            within.contains("10.00% of subtotal, threshold 10.00%  [within threshold]"),
            "{within}"
        );
    }
}
