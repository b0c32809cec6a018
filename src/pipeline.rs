//! Runs the stages in order for one input: ingest -> normalise -> classify
//! -> audit. Rows stream through one at a time; only per-bill totals and
//! findings are kept.

use ::csv::ByteRecord;

use std::io::Read;

use crate::audit::{Bill, BillBuilder, Policy, mixed_currency, unparsed_line};
use crate::classify::Classifier;
use crate::error::{Error, InputError, Result};
use crate::ingest::text::{self, LineKind, SummaryKind};
use crate::ingest::{self, Source, TextEncoding};
use crate::model::{Finding, LineItem};
use crate::normalise::number::DecimalMark;
use crate::normalise::profile::{self, ColumnOverrides, Profile};
use crate::normalise::{HEADER_SEARCH_ROWS, RowNormaliser, RowOutcome, SkipReason, detect_header};

/// What the content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputKind {
    /// Decide from the content.
    #[default]
    Auto,
    Csv,
    Text,
}

/// Everything that shapes one audit run.
#[derive(Debug, Clone)]
pub struct Options {
    pub encoding: Option<TextEncoding>,
    pub columns: ColumnOverrides,
    pub input: InputKind,
    pub policy: Policy,
    pub profiles: Vec<Profile>,
    pub classifier: Classifier,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            encoding: None,
            columns: Vec::new(),
            input: InputKind::Auto,
            policy: Policy::default(),
            profiles: vec![profile::generic()],
            classifier: Classifier::default(),
        }
    }
}

/// The result of a run over many inputs.
#[derive(Debug, Default)]
pub struct Report {
    pub bills: Vec<Bill>,
    /// Inputs that could not be audited (exit code 2).
    pub errors: Vec<Error>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.errors.is_empty() && self.bills.iter().all(|b| b.passed)
    }
}

/// Audits every path (files, directories, `-`), in the order given, with
/// directories expanded in sorted order.
pub fn audit_paths(paths: &[String], opts: &Options) -> Report {
    let mut report = Report::default();
    for source in ingest::expand_paths(paths) {
        match source.and_then(|s| audit_source(&s, opts)) {
            Ok(bills) => report.bills.extend(bills),
            Err(e) => report.errors.push(e),
        }
    }
    report
}

/// Audits one input. A file with several currencies gives one bill each.
pub fn audit_source(source: &Source, opts: &Options) -> Result<Vec<Bill>> {
    let opened = ingest::open(source, opts.encoding)?;
    let path = source.display.as_str();
    let delimiter = ingest::csv::sniff_delimiter(&opened.prefix_text);
    // Text or CSV is decided by content: a file whose first rows hold no CSV
    // header is read as a text invoice.
    let as_text = match opts.input {
        InputKind::Text => true,
        InputKind::Csv => false,
        InputKind::Auto => !csv_header_in(&opened.prefix_text, delimiter, opts),
    };
    if as_text {
        let content = read_all(path, opened.reader)?;
        let invoice = text::parse(&content);
        if invoice.items().next().is_none()
            && opts.input == InputKind::Auto
            && looks_like_csv(&opened.prefix_text, delimiter)
        {
            return Err(no_header(path, HEADER_SEARCH_ROWS, opts));
        }
        return audit_invoice(path, &invoice, opts);
    }
    let mut rdr = ingest::csv::reader(opened.reader, delimiter);
    let mut rec = ByteRecord::new();

    // The header is found, not assumed: title lines above it are skipped.
    let mut found = None;
    let mut searched = 0;
    loop {
        if searched >= HEADER_SEARCH_ROWS {
            break;
        }
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(path, &e)),
        }
        searched += 1;
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        if let Some((p, map)) = detect_header(&opts.profiles, &cells, &opts.columns) {
            let line = rec.position().map_or(1, |p| p.line());
            found = Some((p, map, line));
            break;
        }
    }
    let Some((profile, map, header_line)) = found else {
        if searched == 0 {
            return Err(Error::input(path, "the file has no rows"));
        }
        return Err(no_header(path, searched, opts));
    };

    let mark = profile.decimal_mark.unwrap_or(if delimiter == b';' {
        DecimalMark::Comma
    } else {
        DecimalMark::Dot
    });
    let norm = RowNormaliser {
        map: &map,
        mark,
        path,
    };
    let mut bills = Bills::new(
        path,
        &profile.name,
        map.header_currency.clone(),
        &opts.policy,
    );
    let mut rows = 0u64;
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(path, &e)),
        }
        rows += 1;
        let line = rec.position().map_or(header_line + rows, |p| p.line());
        match norm.row(line, &rec) {
            RowOutcome::Item(mut item) => {
                opts.classifier.classify(&mut item);
                bills.add_item(&item);
            }
            RowOutcome::Skip(reason, finding) => bills.add_skip(reason, finding),
            RowOutcome::StatedTotal(amount) => {
                bills.add_skip(SkipReason::Summary, None);
                bills.primary().stated_total = Some((line, amount));
            }
        }
    }
    if rows == 0 {
        return Err(Error::at_line(
            path,
            header_line,
            format!(
                "the file has a header but no data rows (columns: {})",
                map.describe()
            ),
        ));
    }
    bills.finish(path)
}

fn no_header(path: &str, searched: usize, opts: &Options) -> Error {
    Error::input(
        path,
        format!(
            "no header row found in the first {searched} rows: looked for an amount column ({}) next to a description, quantity or price column; map columns by hand with --columns amount=NAME,description=NAME, or read the file as a text invoice with --input text",
            amount_aliases(&opts.profiles)
        ),
    )
}

/// True when one of the first rows of `prefix` maps as a CSV header.
fn csv_header_in(prefix: &str, delimiter: u8, opts: &Options) -> bool {
    let mut rdr = ingest::csv::reader(prefix.as_bytes(), delimiter);
    let mut rec = ByteRecord::new();
    for _ in 0..HEADER_SEARCH_ROWS {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            // The prefix may end inside a quoted field: what was read counts.
            Ok(false) | Err(_) => return false,
        }
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        if detect_header(&opts.profiles, &cells, &opts.columns).is_some() {
            return true;
        }
    }
    false
}

fn read_all(path: &str, mut reader: Box<dyn Read>) -> Result<String> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(|e| Error::Io {
        path: path.to_string(),
        source: e,
    })?;
    // Invalid bytes show up in `unparsed-line` findings instead of failing the file.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Audits a text invoice through the same bill builder as a CSV export.
fn audit_invoice(path: &str, invoice: &text::Invoice, opts: &Options) -> Result<Vec<Bill>> {
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
    for line in &invoice.lines {
        match &line.kind {
            LineKind::Item(t) => {
                let mut item = t.to_line_item(header_currency, invoice);
                opts.classifier.classify(&mut item);
                bills.add_item(&item);
            }
            LineKind::Summary(s) => match s.to_line_item(header_currency) {
                Some(mut item) => {
                    opts.classifier.classify(&mut item);
                    bills.add_item(&item);
                }
                None => {
                    bills.add_skip(SkipReason::Summary, None);
                    let stated = Some((s.line, s.amount.value));
                    let bill = bills.for_currency(&s.currency(header_currency));
                    // The last subtotal and total stated are the ones checked.
                    if s.kind == SummaryKind::Subtotal {
                        bill.stated_subtotal = stated;
                    } else {
                        bill.stated_total = stated;
                    }
                }
            },
            LineKind::Unparsed(u) => {
                let finding = Finding {
                    code: unparsed_line::INFO.code.to_string(),
                    severity: unparsed_line::INFO.default_severity,
                    message: format!("column {}: {}: `{}`", u.column, u.reason, shorten(&u.text)),
                    path: path.to_string(),
                    line: Some(u.line),
                };
                bills.add_skip(SkipReason::Unparsable, Some(finding));
            }
            LineKind::Header(_) | LineKind::ColumnHeading | LineKind::Rule => {}
        }
    }
    bills.finish(path)
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 120 {
        format!("{}...", s.chars().take(120).collect::<String>())
    } else {
        s.to_string()
    }
}

/// True when most of the first lines split into the same number (>= 2) of fields.
fn looks_like_csv(prefix: &str, delimiter: u8) -> bool {
    let lines: Vec<&str> = prefix
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    let counts: Vec<usize> = lines
        .iter()
        .map(|l| l.bytes().filter(|b| *b == delimiter).count())
        .collect();
    let with = counts.iter().filter(|c| **c >= 1).count();
    with * 2 > lines.len()
}

fn amount_aliases(profiles: &[Profile]) -> String {
    profiles
        .iter()
        .flat_map(|p| p.columns.iter())
        .filter(|(r, _)| *r == profile::Role::Amount)
        .flat_map(|(_, a)| a.iter().take(6).cloned())
        .collect::<Vec<_>>()
        .join(", ")
}

fn csv_error(path: &str, e: &::csv::Error) -> Error {
    let line = e.position().map(|p| p.line());
    let message = match e.kind() {
        ::csv::ErrorKind::Io(io) => format!("read error: {io}"),
        ::csv::ErrorKind::Utf8 { err, .. } => format!("invalid UTF-8 in field {}", err.field() + 1),
        _ => format!("malformed CSV: {e}"),
    };
    match line {
        Some(l) => Error::at_line(path, l, message),
        None => Error::input(path, message),
    }
}

/// One bill per currency in a file, in order of first appearance.
struct Bills<'p> {
    path: String,
    format: String,
    default_currency: Option<String>,
    policy: &'p Policy,
    list: Vec<BillBuilder<'p>>,
}

impl<'p> Bills<'p> {
    fn new(path: &str, format: &str, default_currency: Option<String>, policy: &'p Policy) -> Self {
        Bills {
            path: path.to_string(),
            format: format.to_string(),
            default_currency,
            policy,
            list: Vec::new(),
        }
    }

    /// The bill that takes rows without a currency: the header's currency, or
    /// the first currency seen.
    fn primary(&mut self) -> &mut BillBuilder<'p> {
        let cur = self.default_currency.clone();
        let i = match self.list.iter().position(|b| b.currency == cur) {
            Some(i) => i,
            None if !self.list.is_empty() && cur.is_none() => 0,
            None => {
                self.list
                    .push(BillBuilder::new(&self.path, &self.format, cur, self.policy));
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }

    fn for_currency(&mut self, currency: &Option<String>) -> &mut BillBuilder<'p> {
        if currency.is_none() {
            return self.primary();
        }
        if let Some(i) = self.list.iter().position(|b| &b.currency == currency) {
            return &mut self.list[i];
        }
        // A bill opened for currency-less rows takes the first stated currency.
        if let Some(i) = self.list.iter().position(|b| b.currency.is_none()) {
            self.list[i].currency = currency.clone();
            if self.default_currency.is_none() {
                self.default_currency = currency.clone();
            }
            return &mut self.list[i];
        }
        if self.default_currency.is_none() {
            self.default_currency = currency.clone();
        }
        self.list.push(BillBuilder::new(
            &self.path,
            &self.format,
            currency.clone(),
            self.policy,
        ));
        let n = self.list.len() - 1;
        &mut self.list[n]
    }

    fn add_item(&mut self, item: &LineItem) {
        let cur = item.currency.clone();
        self.for_currency(&cur).add_item(item);
    }

    fn add_skip(&mut self, reason: SkipReason, finding: Option<Finding>) {
        self.primary().add_skip(reason, finding);
    }

    fn finish(mut self, path: &str) -> Result<Vec<Bill>> {
        if self.list.is_empty() {
            self.primary();
        }
        if let Some(line) = self.list.iter().find_map(|b| b.overflow_at) {
            return Err(Error::Input(Box::new(InputError {
                path: path.to_string(),
                line: Some(line),
                field: None,
                message: "amounts add up beyond the range of an exact decimal (28 digits)".into(),
                snippet: None,
            })));
        }
        if self.list.len() > 1 {
            let names: Vec<String> = self
                .list
                .iter()
                .map(|b| b.currency.clone().unwrap_or_else(|| "unknown".into()))
                .collect();
            let msg = format!(
                "the file holds {} currencies ({}); it is audited as one bill per currency",
                names.len(),
                names.join(", ")
            );
            for b in &mut self.list {
                b.emit(&mixed_currency::INFO, None, msg.clone());
            }
        }
        Ok(self.list.into_iter().map(BillBuilder::finish).collect())
    }
}
