//! The text run: a text invoice (or a PDF's text layer) read whole, parsed
//! into lines, and audited through the same bill builder as a CSV export.

use std::collections::BTreeMap;
use std::io::Read;

use ::csv::ByteRecord;

use super::bills::Bills;
use super::diagnostics::{io_error, no_header, unclosed_quote_error};
use super::sniff::{looks_like_csv, unclosed_quote};
use super::{InputKind, Options, seen};
use crate::audit::Bill;
use crate::error::{Error, Result};
use crate::ingest::{self, Opened};
use crate::model::{Check, Finding, LineItem};
use crate::normalise::text::{self, LineKind};
use crate::normalise::{HEADER_SEARCH_ROWS, RowOutcome, SkipReason};

/// Audits one opened input as a text invoice (or a PDF's text layer). It
/// is refused first when its prefix holds a quote that never closes, or
/// when it looked like a CSV and no invoice item is found in it.
pub(super) fn audit_text(
    display: &str,
    opened: Opened<'_>,
    delimiter: u8,
    opts: &Options,
) -> Result<Vec<Bill>> {
    let prefix_looks_csv = looks_like_csv(&opened.prefix_text, delimiter);
    if let Some(line) = unclosed_quote(&opened.prefix_text, delimiter) {
        if opts.input == InputKind::Auto {
            return Err(unclosed_quote_error(display, &opened.prefix_text, line));
        }
    }
    let (content, bad_lines) = read_all(display, opened.reader)?;
    let invoice = text::parse(&content);
    if invoice.items().next().is_none() && opts.input == InputKind::Auto && prefix_looks_csv {
        return Err(no_header(display, HEADER_SEARCH_ROWS, opts));
    }
    let mut bills = audit_invoice(display, &invoice, &bad_lines, opts)?;
    if opened.pdf {
        for b in &mut bills {
            b.notes.push(ingest::pdf::NOTE.to_string());
        }
    }
    Ok(bills)
}

/// The largest text invoice read into memory. A text invoice is pages, not
/// gigabytes: anything larger is a CSV export whose header was not found (or
/// a decompression bomb), and is refused instead of filling memory.
pub const MAX_TEXT_INVOICE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a text invoice whole. Invalid UTF-8 is replaced for parsing, and
/// the lines that held it are returned (with the byte in the line) so that
/// an amount on them is reported, never guessed.
pub(super) fn read_all(
    path: &str,
    reader: Box<dyn Read + '_>,
) -> Result<(String, BTreeMap<u64, usize>)> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_TEXT_INVOICE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(path, e))?;
    if bytes.len() as u64 > MAX_TEXT_INVOICE_BYTES {
        return Err(Error::input(
            path,
            format!(
                "no CSV header was found, and the content is too large ({} MiB or more) to be a text invoice; if it is a CSV export, map its columns with --columns or name its profile with --profile",
                MAX_TEXT_INVOICE_BYTES / (1024 * 1024)
            ),
        ));
    }
    let mut bad = BTreeMap::new();
    let mut rest: &[u8] = &bytes;
    let mut offset = 0usize;
    while let Err(e) = std::str::from_utf8(rest) {
        let at = offset.saturating_add(e.valid_up_to());
        let before = bytes.get(..at).unwrap_or_default();
        let line = 1 + before.iter().filter(|b| **b == b'\n').count() as u64;
        let col = at
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1);
        bad.entry(line).or_insert(col + 1);
        let skip = e.valid_up_to().saturating_add(e.error_len().unwrap_or(1));
        offset = offset.saturating_add(skip);
        rest = rest.get(skip..).unwrap_or_default();
    }
    Ok((String::from_utf8_lossy(&bytes).into_owned(), bad))
}

/// Audits a text invoice through the same bill builder as a CSV export.
pub(super) fn audit_invoice(
    path: &str,
    invoice: &text::Invoice,
    bad_utf8: &BTreeMap<u64, usize>,
    opts: &Options,
) -> Result<Vec<Bill>> {
    let item_count = invoice.items().count();
    if item_count == 0 {
        return Err(Error::input(
            path,
            format!(
                "no invoice item found in {} non-blank lines: an item is a description followed by its amount, in columns two or more spaces apart or after a leader (`Storage 1 TB ..... $20.00`); see docs/text-invoices.md",
                invoice.lines.len()
            ),
        ));
    }
    let header_currency = invoice.currency.is_some();
    let mut bills = Bills::new(path, text::FORMAT, invoice.currency(), &opts.policy);
    bills.currency_note.clone_from(&invoice.currency_basis);
    // As for a CSV row: the user's rules first (bound as for a file read with
    // the profile `text-invoice` whose one column is the description), then
    // the built-in classifier.
    let names = [text_description_column()];
    let user = opts.user_rules.bind(path, text::FORMAT, &names);
    let classify = |item: &mut LineItem| {
        let rec = ByteRecord::from(vec![item.description.as_str()]);
        if user.is_empty() || !user.classify(&rec, item) {
            opts.classifier.classify(item);
        }
    };
    // Every subtotal and total stated is kept for `parse-double-counted`.
    bills.keep_stated_figures = true;
    let mut included_tax: Vec<String> = Vec::new();
    for line in &invoice.lines {
        let mut outcome = match (bad_utf8.get(&line.line), &line.kind) {
            (Some(byte), LineKind::Item(_) | LineKind::Summary(_)) => {
                // As in a CSV cell: a line with invalid UTF-8 is reported, not guessed.
                let finding = Finding {
                    code: Check::UnparsableValue,
                    severity: crate::model::Severity::Error,
                    message: format!(
                        "invalid UTF-8 at byte {byte} of the line; the file was read as UTF-8 (use --encoding to choose another); the line is kept out of the totals"
                    ),
                    path: path.to_string(),
                    line: Some(line.line),
                    accepted: None,
                };
                RowOutcome::Skip(SkipReason::Unparsable, Some(finding))
            }
            (_, LineKind::Item(t)) => {
                let mut item = t.to_line_item(header_currency, invoice);
                classify(&mut item);
                RowOutcome::Item(Box::new(item))
            }
            (_, LineKind::Summary(s)) => match s.to_line_item(header_currency) {
                Some(mut item) => {
                    classify(&mut item);
                    RowOutcome::Item(Box::new(item))
                }
                None => RowOutcome::Stated {
                    kind: s.kind,
                    amount: s.amount.value,
                    currency: s.currency(header_currency),
                    less_tax: false,
                },
            },
            (_, LineKind::Unparsed(u)) => {
                let finding = Finding {
                    code: Check::UnparsedLine,
                    severity: Check::UnparsedLine.default_severity(),
                    message: format!("column {}: {}: `{}`", u.column, u.reason, shorten(&u.text)),
                    path: path.to_string(),
                    line: Some(u.line),
                    accepted: None,
                };
                RowOutcome::Skip(SkipReason::Unparsable, Some(finding))
            }
            // A block restating the counted one (see `SetAside`): a summary.
            (_, LineKind::Header(text::HeaderField::SetAside)) => {
                RowOutcome::Skip(SkipReason::Summary, None)
            }
            // The tax inside the gross amounts: stated, not charged.
            (_, LineKind::Header(text::HeaderField::IncludedTax)) => {
                included_tax.push(line.line.to_string());
                RowOutcome::Skip(SkipReason::Summary, None)
            }
            (_, LineKind::Header(_) | LineKind::ColumnHeading | LineKind::Rule) => continue,
        };
        // A stated figure is on its summary's line.
        let at = match &line.kind {
            LineKind::Summary(s) => s.line,
            _ => line.line,
        };
        bills.add_outcome(&mut outcome, at, |i| seen(opts, path, i));
    }
    if !included_tax.is_empty() {
        let (word, verb) = match included_tax.len() {
            1 => ("line", "states"),
            _ => ("lines", "state"),
        };
        bills.notes.push(format!(
            "{word} {} {verb} the tax already included in the amounts (a label such as `Including VAT`, `inkl. MwSt.`, `в том числе НДС`): counted as a summary row, not added to the lines",
            included_tax.join(", ")
        ));
    }
    if let Some(s) = &invoice.set_aside {
        bills.notes.push(s.note(invoice.currency().as_deref()));
    }
    bills.finish(path)
}

/// The one column a text invoice line offers to a user rule's `column`:
/// its description (`column = "Description"`).
pub(super) fn text_description_column() -> String {
    crate::classify::user::UserRule::column_key("Description")
}

pub(super) fn shorten(s: &str) -> String {
    if s.chars().count() > 120 {
        format!("{}...", s.chars().take(120).collect::<String>())
    } else {
        s.to_string()
    }
}
