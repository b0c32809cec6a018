//! Plain-text invoices: the text of a PDF (`pdftotext -layout`), an e-mail
//! or a pasted receipt, in English or Chinese.
//!
//! Every non-blank line ends as exactly one [`LineKind`]: a header field, a
//! column heading, a rule line, an item, a summary line, or
//! [`LineKind::Unparsed`], which the audit reports as `unparsed-line`.
//! Nothing is skipped in silence. Lines are read one at a time by the small
//! parsers in [`grammar`]; every item and every unparsed line keeps its
//! line and column.

pub mod grammar;

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime};
use nom::Parser;
use nom::combinator::all_consuming;
use rust_decimal::Decimal;

use crate::model::{Category, LineItem};
use crate::normalise::date::{parse_datetime, parse_month, parse_range};
use crate::normalise::header::{currency_code, currency_value};
use crate::normalise::number::fold_char;
use crate::vocab::summary;
use grammar::{CellKind, Money, column_of};

/// The `format` of a bill read from a text invoice.
pub const FORMAT: &str = "text-invoice";

/// Lines longer than this are not read (no invoice line is this long); they
/// are reported as unparsed.
pub const MAX_LINE_CHARS: usize = 1000;

/// A text invoice, read line by line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Invoice {
    pub number: Option<String>,
    pub date: Option<NaiveDateTime>,
    pub period: Option<(NaiveDateTime, NaiveDateTime)>,
    /// The currency the header names (`Currency: USD`, `币种：人民币（CNY）`).
    pub currency: Option<String>,
    /// The currency of the first currency mark on an amount (`$`, `¥`, `元`, `€`).
    pub inferred_currency: Option<String>,
    /// Every non-blank line, in order.
    pub lines: Vec<Line>,
}

impl Invoice {
    /// The currency of the invoice: the header's, else the first mark seen.
    pub fn currency(&self) -> Option<String> {
        self.currency
            .clone()
            .or_else(|| self.inferred_currency.clone())
    }

    pub fn items(&self) -> impl Iterator<Item = &TextItem> {
        self.lines.iter().filter_map(|l| match &l.kind {
            LineKind::Item(i) => Some(i),
            _ => None,
        })
    }

    pub fn summaries(&self) -> impl Iterator<Item = &Summary> {
        self.lines.iter().filter_map(|l| match &l.kind {
            LineKind::Summary(s) => Some(s),
            _ => None,
        })
    }
}

/// One non-blank line and what it was read as.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// 1-based line number.
    pub line: u64,
    pub kind: LineKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LineKind {
    Header(HeaderField),
    /// `Description  Qty  Unit  Rate  Amount`, `项目  数量  单价  金额`.
    ColumnHeading,
    /// `-----`, `=====`.
    Rule,
    Item(TextItem),
    Summary(Summary),
    Unparsed(Unparsed),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderField {
    Number,
    Date,
    Period,
    Currency,
    /// A title (`INVOICE`, `账单`), a page number or another `Key: value`.
    Other,
    /// A line whose amount restates figures of other lines and is counted
    /// nowhere: a part already included in the item above (`Incl.
    /// Thuiskopieheffing ... € 4,24`), a sub-line of a charge (`Charges`,
    /// `Credits`, `VAT` indented under it), a summary box restating the
    /// items, the amount left to pay after a [`HeaderField::Payment`]
    /// (`Te betalen  € 0,00`), the VAT already included in gross item
    /// amounts (`BTW 21%  € 124,61`), a sum carried between pages. See
    /// [`settle`].
    Restated,
    /// A description that runs onto the next line, indented under the
    /// item's description (`  instance gpu-8x-h100-a - us-east-3`): joined
    /// to the item's description.
    Continuation,
    /// A payment, a balance or a credit applied after the total
    /// (`Applied balance  -€20.00`, `Betaald met iDeal  € 189,00-`,
    /// `现金支付  ¥790.82`): not a charge and not the total.
    Payment,
}

/// A charge line of the invoice.
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem {
    pub line: u64,
    /// 1-based character column where the description starts.
    pub column: usize,
    /// 1-based character column where the amount starts.
    pub amount_column: usize,
    pub description: String,
    pub quantity: Option<Decimal>,
    pub unit: Option<String>,
    pub unit_price: Option<Decimal>,
    pub amount: Money,
    pub start: Option<NaiveDateTime>,
    pub end: Option<NaiveDateTime>,
}

/// A discount or credit ([`SummaryKind::Credit`]) is stored negative.
pub use crate::vocab::summary::SummaryKind;

/// `Subtotal`, `Tax (8%)`, `Discount`, `Total due`, `小计`, `应付金额`, ...
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub line: u64,
    pub column: usize,
    pub kind: SummaryKind,
    pub label: String,
    /// As stated, except that credits are always negative.
    pub amount: Money,
    /// A rate written with the label: `Tax (8%)` gives 8.
    pub rate: Option<Decimal>,
}

/// A line that is none of the above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unparsed {
    pub line: u64,
    /// 1-based character column where reading stopped.
    pub column: usize,
    pub text: String,
    pub reason: String,
}

/// Reads a whole invoice. Never fails: lines that are not understood are
/// [`LineKind::Unparsed`], except in the letterhead (above the first item,
/// summary or column heading), where a line without an amount is header text.
pub fn parse(text: &str) -> Invoice {
    let mut inv = Invoice::default();
    // `円` names the yen: an invoice that writes it reads `¥`/`￥` as yen
    // (not yuan) and its whole numbers as amounts.
    if text.contains('円') {
        inv.currency = Some("JPY".to_string());
    }
    let mut in_body = false;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i as u64 + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let raw = if i == 0 {
            raw.trim_start_matches('\u{feff}')
        } else {
            raw
        };
        // Full-width forms fold one character to one, so columns survive.
        let folded: String = raw.chars().map(fold_char).collect();
        if folded.trim().is_empty() {
            continue;
        }
        let mut kind = read_line(line_no, &folded, &mut inv);
        // Above the first item or column heading is the letterhead: the
        // vendor's name and address are header text, unless they hold an amount.
        if let LineKind::Unparsed(_) = kind {
            if !in_body && grammar::trailing_amount(folded.trim()).is_none() {
                kind = LineKind::Header(HeaderField::Other);
            }
        }
        in_body |= matches!(
            kind,
            LineKind::Item(_) | LineKind::ColumnHeading | LineKind::Summary(_)
        );
        inv.lines.push(Line {
            line: line_no,
            kind,
        });
    }
    settle(&mut inv);
    inv
}

/// What the whole invoice says about its lines, once every line is read:
///
/// 1. a summary label alone on its line, with its amount on the next line
///    after a bracketed note (`Commit discount COMMIT10` /
///    `(10% off $986.70)   -$98.67`), is one summary line;
///    a line without an amount indented under an item's description
///    continues it ([`HeaderField::Continuation`]);
/// 2. indented sub-lines of a charge (`Charges`, `Credits`, `VAT`) tell
///    its parts, and an indented `Incl. ...` line under an item is a part
///    already included in it ([`HeaderField::Restated`]);
/// 3. after a total (or an amount due), a credit is applied to it
///    ([`HeaderField::Payment`]) and, after a payment or such a credit, an
///    amount due is what is left to pay: the stated total is the invoice
///    total; the same charges printed twice, each part closed by a total
///    of the same amount, are counted once (the last part: a summary box
///    closed by its total, then the detail closed by the same total);
/// 4. when the items (with their discounts) already add up to the last
///    stated total, the VAT lines state the VAT included in them (gross
///    prices, as shops print them) and are not added again.
pub fn settle(inv: &mut Invoice) {
    // 1. A label line, then `(note)   amount`.
    for i in 1..inv.lines.len() {
        let (head, tail) = inv.lines.split_at_mut(i);
        let (prev, cur) = (&mut head[i - 1], &mut tail[0]);
        if prev.line + 1 != cur.line {
            continue;
        }
        let (LineKind::Unparsed(u), LineKind::Item(item)) = (&prev.kind, &cur.kind) else {
            continue;
        };
        let note = item.description.trim();
        if !(note.starts_with('(') && note.ends_with(')')) {
            continue;
        }
        let Some((kind, rate)) = summary_kind(&u.text) else {
            continue;
        };
        let mut amount = item.amount;
        if kind == SummaryKind::Credit && amount.value.is_sign_positive() {
            amount.value.set_sign_negative(true);
        }
        let s = Summary {
            line: cur.line,
            column: u.column,
            kind,
            label: format!("{} {}", u.text, note),
            amount,
            rate: rate.or_else(|| strip_brackets(note).1),
        };
        prev.kind = LineKind::Header(HeaderField::Other);
        cur.kind = LineKind::Summary(s);
    }
    // 1b. A description that runs onto the following lines: lines without
    // an amount, right under an item, indented under its description (or
    // further in when the description starts the line).
    let mut open: Option<(usize, usize, u64)> = None;
    for i in 0..inv.lines.len() {
        let line = inv.lines[i].line;
        match &inv.lines[i].kind {
            LineKind::Item(item) => open = Some((i, item.column, line)),
            LineKind::Unparsed(u) => {
                let joins = open.is_some_and(|(_, col, last)| {
                    line == last + 1
                        && (u.column > col || (u.column == col && col > 1))
                        && grammar::trailing_amount(&u.text).is_none()
                });
                match open {
                    Some((at, col, _)) if joins => {
                        let text = u.text.clone();
                        if let LineKind::Item(item) = &mut inv.lines[at].kind {
                            item.description.push(' ');
                            item.description.push_str(&text);
                        }
                        inv.lines[i].kind = LineKind::Header(HeaderField::Continuation);
                        open = Some((at, col, line));
                    }
                    _ => open = None,
                }
            }
            _ => open = None,
        }
    }
    // 2. A charge restated by indented sub-lines (`Charges`, `Credits`,
    // `VAT`): the sub-lines tell its parts and are not counted again.
    let mut parent: Option<usize> = None;
    let mut prev_line = 0;
    for l in &mut inv.lines {
        let (column, label) = match &l.kind {
            LineKind::Item(i) => (i.column, i.description.as_str()),
            LineKind::Summary(s) if matches!(s.kind, SummaryKind::Tax | SummaryKind::Credit) => {
                (s.column, s.label.as_str())
            }
            _ => {
                parent = None;
                continue;
            }
        };
        let sub = parent.is_some_and(|p| column > p)
            && l.line == prev_line + 1
            && (matches!(l.kind, LineKind::Summary(_))
                || summary::is_breakdown(label.trim_end_matches([' ', '*'])));
        prev_line = l.line;
        if sub {
            l.kind = LineKind::Header(HeaderField::Restated);
        } else {
            parent = matches!(l.kind, LineKind::Item(_)).then_some(column);
        }
    }
    // 2b. `Incl. ...` under an item.
    let mut last_item_column = None;
    for l in &mut inv.lines {
        let LineKind::Item(item) = &l.kind else {
            continue;
        };
        let d = item.description.to_lowercase();
        let included = INCLUDED_PREFIXES.iter().any(|p| d.starts_with(p));
        if included && last_item_column.is_some_and(|c| item.column > c) {
            l.kind = LineKind::Header(HeaderField::Restated);
        } else {
            last_item_column = Some(item.column);
        }
    }
    // 3. Credits applied after the total, and the amount due after them.
    // A credit after any total, even an amount due at the top
    // (`本期应付金额 ¥890.82`, `代金券抵扣 -¥100.00`), is applied to it.
    let mut seen_any_total = false;
    let mut after_payment = false;
    for l in &mut inv.lines {
        match &l.kind {
            LineKind::Header(HeaderField::Payment) => after_payment = true,
            LineKind::Summary(s) if s.kind == SummaryKind::Credit && seen_any_total => {
                l.kind = LineKind::Header(HeaderField::Payment);
                after_payment = true;
            }
            LineKind::Summary(s) if s.kind == SummaryKind::Total => {
                seen_any_total = true;
                let due = summary::is_due(&s.label)
                    || summary::is_due(strip_brackets(&s.label).0.as_str());
                if due && after_payment {
                    l.kind = LineKind::Header(HeaderField::Restated);
                }
            }
            _ => {}
        }
    }
    // 3a. A subtotal with items after it closes a section (`小计` under
    // each product); a subtotal after a discount is the net after it
    // (`Total excluding tax`): neither is the invoice's subtotal.
    // The last section's subtotal (no items after it) is one too when it
    // is the sum of its own section only.
    let mut credit_seen = false;
    let mut sections = 0;
    let mut section_sum = Decimal::ZERO;
    let last_item = inv
        .lines
        .iter()
        .rposition(|l| matches!(l.kind, LineKind::Item(_)));
    for (i, l) in inv.lines.iter_mut().enumerate() {
        match &l.kind {
            LineKind::Item(item) => section_sum += item.amount.value,
            LineKind::Summary(s) if s.kind == SummaryKind::Credit => credit_seen = true,
            LineKind::Summary(s) if s.kind == SummaryKind::Subtotal => {
                let items_after = last_item.is_some_and(|j| j > i);
                let last_section = sections > 0 && s.amount.value == section_sum;
                if items_after || last_section || credit_seen {
                    sections += usize::from(items_after);
                    l.kind = LineKind::Header(HeaderField::Restated);
                }
                section_sum = Decimal::ZERO;
            }
            _ => {}
        }
    }
    // 3b. The same charges printed twice, each part closed by a total of
    // the same amount (a summary page, then the detail page): the last
    // part is counted, the earlier ones restate it.
    // Each part: its item lines, their sum, the total that closes it.
    type Part = (Vec<usize>, Decimal, Option<Decimal>);
    let mut parts: Vec<Part> = Vec::new();
    let mut open: Part = (Vec::new(), Decimal::ZERO, None);
    for (i, l) in inv.lines.iter().enumerate() {
        match &l.kind {
            LineKind::Item(item) => {
                open.0.push(i);
                open.1 += item.amount.value;
            }
            LineKind::Summary(s) if s.kind == SummaryKind::Total && !open.0.is_empty() => {
                open.2 = Some(s.amount.value);
                parts.push(std::mem::replace(
                    &mut open,
                    (Vec::new(), Decimal::ZERO, None),
                ));
            }
            _ => {}
        }
    }
    parts.push(open);
    let closed: Vec<&Part> = parts.iter().filter(|p| p.2 == Some(p.1)).collect();
    // Each part is the whole invoice: its total is the invoice's last one
    // (sections of equal sums under a grand total are not repeats).
    let invoice_total = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Total)
        .last()
        .map(|s| s.amount.value);
    if let Some((last, earlier)) = closed.split_last() {
        if parts.iter().all(|p| p.0.is_empty() || p.2.is_some()) && invoice_total == Some(last.1) {
            let restated: Vec<usize> = earlier
                .iter()
                .filter(|p| p.1 == last.1)
                .flat_map(|p| p.0.iter().copied())
                .collect();
            for i in restated {
                inv.lines[i].kind = LineKind::Header(HeaderField::Restated);
            }
        }
    }
    // 5 (runs whatever 4 finds). No currency on any amount or in the
    // header: the first currency mark beside a number in a line that is not
    // understood (a note: `Promotional Discount of Rs -40.00,`) names it.
    if inv.currency().is_none() {
        inv.inferred_currency = inv.lines.iter().find_map(|l| match &l.kind {
            LineKind::Unparsed(u) => noted_currency(&u.text),
            _ => None,
        });
    }
    // 4. VAT included in gross items.
    let Some(total) = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Total)
        .last()
        .map(|s| s.amount.value)
    else {
        return;
    };
    let lines: Decimal = inv.items().map(|i| i.amount.value).sum::<Decimal>()
        + inv
            .summaries()
            .filter(|s| s.kind == SummaryKind::Credit)
            .map(|s| s.amount.value)
            .sum::<Decimal>();
    let tax: Decimal = inv
        .summaries()
        .filter(|s| s.kind == SummaryKind::Tax)
        .map(|s| s.amount.value)
        .sum();
    if lines == total && !tax.is_zero() {
        // The net figure (`不含税金额 840.40` = 890.82 - 50.42) restates too.
        for l in &mut inv.lines {
            let restated = match &l.kind {
                LineKind::Summary(s) => {
                    s.kind == SummaryKind::Tax
                        || (s.kind == SummaryKind::Subtotal && s.amount.value == total - tax)
                }
                _ => false,
            };
            if restated {
                l.kind = LineKind::Header(HeaderField::Restated);
            }
        }
    }
}

/// The currency of the first amount with a currency mark in a text.
fn noted_currency(text: &str) -> Option<String> {
    let mut prev_space = true;
    text.char_indices().find_map(|(i, c)| {
        let start = prev_space && !c.is_whitespace();
        prev_space = c.is_whitespace();
        if !start {
            return None;
        }
        // At most two words (`Rs -40.00`), without the punctuation after.
        let rest = &text[i..];
        let end = rest
            .char_indices()
            .filter(|(_, c)| c.is_whitespace())
            .nth(1)
            .map_or(rest.len(), |(j, _)| j);
        let word = rest[..end].trim_end_matches([',', ';', '.', ')']);
        let (_, m) = grammar::money(word).ok()?;
        m.currency.map(str::to_string)
    })
}

/// Currencies without a minor unit: their amounts are whole numbers.
const ZERO_DECIMAL: &[&str] = &["JPY", "KRW"];

/// An item description starting with one of these, indented under an item,
/// is a part already included in it.
const INCLUDED_PREFIXES: &[&str] = &["incl.", "incl ", "inkl.", "including ", "included "];

/// Reads one folded, non-blank line. Header fields are stored in `inv`.
pub fn read_line(line_no: u64, line: &str, inv: &mut Invoice) -> LineKind {
    if line.chars().count() > MAX_LINE_CHARS {
        return unparsed(
            line_no,
            line,
            line,
            format!("the line is longer than {MAX_LINE_CHARS} characters"),
        );
    }
    let body = line.trim();
    if grammar::rule_line(body).is_ok() {
        return LineKind::Rule;
    }
    if let Some(s) = summary(line_no, line) {
        note_currency(inv, &s.amount);
        return LineKind::Summary(s);
    }
    // `Applied balance  -€20.00`, `Betaald met iDeal  € 189,00-`: a payment.
    if let Some((label, _, _)) = grammar::trailing_amount(line) {
        let plain = strip_brackets(label).0;
        if summary::is_payment(&plain) {
            return LineKind::Header(HeaderField::Payment);
        }
        if summary::is_carried(strip_code(&plain)) {
            return LineKind::Header(HeaderField::Restated);
        }
    }
    if let Some(field) = header(body, inv) {
        return LineKind::Header(field);
    }
    let bare_ok = inv
        .currency
        .as_deref()
        .is_some_and(|c| ZERO_DECIMAL.contains(&c));
    let item = leader_item(line_no, line).or_else(|| column_item(line_no, line, bare_ok));
    match item {
        Some(Ok(item)) => {
            note_currency(inv, &item.amount);
            return LineKind::Item(item);
        }
        Some(Err(u)) => return LineKind::Unparsed(u),
        None => {}
    }
    if is_column_heading(body) {
        return LineKind::ColumnHeading;
    }
    if is_title(body) {
        return LineKind::Header(HeaderField::Other);
    }
    if let Ok((_, (_, value))) = grammar::key_value(body) {
        if grammar::trailing_amount(value).is_none()
            && all_consuming(grammar::amount).parse(value).is_err()
        {
            return LineKind::Header(HeaderField::Other);
        }
    }
    let reason = if grammar::trailing_amount(body).is_some() {
        "ends with an amount, but is neither an item line (description, then quantity, unit, rate and amount in columns two spaces apart, or a leader `....`) nor a known summary line"
    } else {
        "not an item, summary, header or column-heading line"
    };
    unparsed(line_no, line, body, reason.to_string())
}

fn unparsed(line_no: u64, line: &str, at: &str, reason: String) -> LineKind {
    LineKind::Unparsed(Unparsed {
        line: line_no,
        column: column_of(line, at),
        text: line.trim().to_string(),
        reason,
    })
}

fn note_currency(inv: &mut Invoice, m: &Money) {
    if inv.inferred_currency.is_none() {
        inv.inferred_currency = m.currency.map(str::to_string);
    }
}

/// A label without a currency code after it: `Übertrag EUR` is `Übertrag`.
fn strip_code(label: &str) -> &str {
    match label.trim_end().rsplit_once(' ') {
        Some((head, last)) if currency_code(last).is_some() => head,
        _ => label,
    }
}

/// Lowercase, single spaces, no trailing `:`.
fn norm_label(s: &str) -> String {
    let s = s.trim().trim_end_matches([':', '.', ' ']).to_lowercase();
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Removes bracket groups and a bare percentage; returns the rate they held.
fn strip_brackets(label: &str) -> (String, Option<Decimal>) {
    let mut out = String::new();
    let mut rate = None;
    let mut depth = 0usize;
    let mut inner = String::new();
    for c in label.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                if depth == 1 {
                    inner.clear();
                    continue;
                }
            }
            ')' | ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    rate = rate.or_else(|| find_percent(&inner));
                    continue;
                }
            }
            _ => {}
        }
        if depth > 0 {
            inner.push(c);
        } else {
            out.push(c);
        }
    }
    // `VAT 20%`, `Tax @ 8%`: a percentage outside brackets.
    if let Some(r) = find_percent(&out) {
        rate = rate.or(Some(r));
        out = out
            .split_whitespace()
            .filter(|w| !w.ends_with('%') && *w != "@" && !w.chars().all(|c| c == '%'))
            // `19 % MwSt.`: the number of a rate written apart from its `%`.
            .filter(|w| {
                !w.bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
            })
            // `10%対象`: a rate written onto the word.
            .map(|w| match w.split_once('%') {
                Some((r, rest)) if r.bytes().all(|b| b.is_ascii_digit() || b == b'.') => rest,
                _ => w,
            })
            .collect::<Vec<_>>()
            .join(" ");
        out = out
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
            .to_string();
    }
    (norm_label(&out), rate)
}

fn find_percent(s: &str) -> Option<Decimal> {
    // Only where a number starts, so a long run of digits is read once.
    // A number may start with its decimal point: `.5%` is half a percent.
    let mut prev_digit = false;
    s.char_indices().find_map(|(i, c)| {
        let digit = c.is_ascii_digit();
        let point = c == '.' && s[i + 1..].starts_with(|n: char| n.is_ascii_digit());
        let start = (digit || point) && !prev_digit;
        prev_digit = digit;
        if start {
            grammar::percent(&s[i..]).ok().map(|(_, r)| r)
        } else {
            None
        }
    })
}

/// True when a normalised label is in `set`, or is a bilingual label whose
/// English and Chinese parts are both in it: `Subtotal 小计`, `VAT 增值税`.
fn label_is(label: &str, set: &[&str]) -> bool {
    summary::label_in(label, set)
}

/// What a summary label names (the shared table, [`crate::vocab::summary`]),
/// and the rate written with it.
pub fn summary_kind(label: &str) -> Option<(SummaryKind, Option<Decimal>)> {
    let (mut l, rate) = strip_brackets(label);
    // `Total USD`, `Amount due EUR`: a currency code after the label.
    if let Some((head, last)) = l.rsplit_once(' ') {
        if currency_code(last).is_some() {
            l = head.to_string();
        }
    }
    // `VAT **`: a footnote mark.
    let l = l.trim_end_matches([' ', '*', '†']).to_string();
    if let Some(k) = summary::kind(&l) {
        return Some((k, rate));
    }
    // `TOTAL AMOUNT DUE ON March 2 , 2026`: a label, then a date.
    if let Some((head, _)) = l.split_once(" on ") {
        if let Some(k) = summary::kind(head) {
            return Some((k, rate));
        }
    }
    // `VAT - Ireland`: a label, then a qualifier after a dash.
    if let Some((head, _)) = l.split_once(" - ") {
        if let Some(k) = summary::kind(head) {
            return Some((k, rate));
        }
    }
    // `Commit discount COMMIT10`: a promotion code after the label.
    let words: Vec<&str> = l.split(' ').collect();
    let code = |w: &str| {
        w.len() >= 4
            && w.bytes().any(|b| b.is_ascii_digit())
            && w.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    let words = match words.split_last() {
        Some((last, rest)) if code(last) && !rest.is_empty() => rest,
        _ => &words[..],
    };
    let l = words.join(" ");
    if let Some(k) = summary::kind(&l) {
        return Some((k, rate));
    }
    // `Commit discount`: a discount of some kind is a credit.
    if let Some(SummaryKind::Credit) = words.last().and_then(|w| summary::kind(w)) {
        return Some((SummaryKind::Credit, rate));
    }
    // `TVA 20% payée sur les encaissements`: a tax label and its rate,
    // then words about it.
    match (words.first().and_then(|w| summary::kind(w)), rate) {
        (Some(SummaryKind::Tax), Some(_)) => Some((SummaryKind::Tax, rate)),
        _ => None,
    }
}

/// A summary line: a known label, then an amount at the end.
fn summary(line_no: u64, line: &str) -> Option<Summary> {
    // `Somme à payer   29.99 € TTC`: the French "incl. tax" / "excl. tax"
    // after the amount of a summary line.
    let line = ["TTC", "HT"]
        .iter()
        .find_map(|m| line.trim_end().strip_suffix(m).filter(|l| l.ends_with(' ')))
        .unwrap_or(line);
    let (label, _, mut amount) = grammar::trailing_amount(line)?;
    let (label, (kind, rate)) = match summary_kind(label) {
        Some(k) => (label, k),
        None => {
            let (_, cells) = grammar::cells(line).ok()?;
            let n = cells.len();
            let before = if n >= 3 { cells.get(n - 2) } else { None };
            match before.and_then(|b| Some((*b, summary_kind(b)?))) {
                // `Exclusief BTW  € 593,36      Subtotaal  € 717,97`: two
                // blocks side by side; the label just before the amount.
                Some(k) => k,
                // `Total   300 hrs   $451.50`: a summary label in the first
                // column, other figures between it and the amount.
                None => {
                    let first = *cells.first()?;
                    (first, summary_kind(first)?)
                }
            }
        }
    };
    // `Factuur totaal EUR  49,99`: the currency named in the label.
    if amount.currency.is_none() {
        if let Some(code) = label
            .rsplit(' ')
            .next()
            .filter(|w| w.len() == 3 && w.bytes().all(|b| b.is_ascii_uppercase()))
            .and_then(currency_code)
        {
            amount.currency = Some(code);
            amount.explicit = true;
        }
    }
    if kind == SummaryKind::Credit && amount.value.is_sign_positive() && !amount.value.is_zero() {
        amount.value.set_sign_negative(true);
    }
    Some(Summary {
        line: line_no,
        column: column_of(line, label),
        kind,
        label: label.to_string(),
        amount,
        rate,
    })
}

const NUMBER_KEYS: &[&str] = &[
    "invoice",
    "invoice #",
    "invoice no",
    "invoice no.",
    "invoice number",
    "invoice id",
    "receipt",
    "receipt #",
    "receipt no",
    "receipt number",
    "bill no",
    "bill number",
    "statement no",
    "发票号码",
    "发票号",
    "发票编号",
    "账单号",
    "账单编号",
    "单号",
];
const DATE_KEYS: &[&str] = &[
    "date",
    "invoice date",
    "issue date",
    "date issued",
    "date of issue",
    "receipt date",
    "statement date",
    "日期",
    "开票日期",
    "账单日期",
    "出账日期",
];
const PERIOD_KEYS: &[&str] = &[
    "billing period",
    "period",
    "service period",
    "statement period",
    "usage period",
    "billing month",
    "账期",
    "计费周期",
    "账单周期",
    "结算周期",
    "账单月份",
];
const CURRENCY_KEYS: &[&str] = &["currency", "billing currency", "币种", "货币", "结算币种"];

/// A known header field, written `Key: value` or `Key    value`.
fn header(body: &str, inv: &mut Invoice) -> Option<HeaderField> {
    let (key, value) = grammar::key_value(body)
        .or_else(|_| grammar::key_gap_value(body))
        .ok()?
        .1;
    let key = norm_label(key);
    let has = |set: &[&str]| label_is(&key, set);
    if has(NUMBER_KEYS) {
        if !value.is_empty() {
            inv.number.get_or_insert_with(|| value.to_string());
        }
        Some(HeaderField::Number)
    } else if has(DATE_KEYS) {
        let d = parse_datetime(value)?;
        inv.date.get_or_insert(d);
        Some(HeaderField::Date)
    } else if has(PERIOD_KEYS) {
        let p = period(value)?;
        inv.period.get_or_insert(p);
        Some(HeaderField::Period)
    } else if has(CURRENCY_KEYS) {
        let c = currency_value(value)?;
        inv.currency.get_or_insert(c);
        Some(HeaderField::Currency)
    } else {
        None
    }
}

/// `2025-10-01 - 2025-10-31`, `Oct 2025`, `2025年10月`: a month is its
/// first to its last day.
pub fn period(value: &str) -> Option<(NaiveDateTime, NaiveDateTime)> {
    if let Some(r) = parse_range(value) {
        return Some(r);
    }
    let first = parse_month(value)?;
    let next = if first.month() == 12 {
        NaiveDate::from_ymd_opt(first.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(first.year(), first.month() + 1, 1)
    }?;
    let last = next.pred_opt()?;
    Some((
        first.and_time(NaiveTime::MIN),
        last.and_time(NaiveTime::MIN),
    ))
}

/// `Filesystem storage 1 TB ........ $20.00`.
fn leader_item(line_no: u64, line: &str) -> Option<Result<TextItem, Unparsed>> {
    // Each leader is tried once, from where it starts: a line of dots stays linear.
    let mut skip_to = 0;
    for (i, c) in line.char_indices() {
        if i < skip_to || !grammar::is_leader_char(c) {
            continue;
        }
        let after = match grammar::leader(&line[i..]) {
            Ok((after, _)) => after,
            Err(_) => {
                let run = line[i..]
                    .find(|c: char| !grammar::is_leader_char(c))
                    .unwrap_or(line.len() - i);
                skip_to = i + run;
                continue;
            }
        };
        skip_to = line.len() - after.len();
        let desc = line[..i].trim();
        if desc.is_empty() {
            continue;
        }
        let Ok((_, (amount_text, _))) = all_consuming((
            nom::combinator::recognize(grammar::amount),
            nom::character::complete::space0,
        ))
        .parse(after) else {
            continue;
        };
        let Ok((_, amount)) = grammar::amount(amount_text) else {
            continue;
        };
        if !desc.chars().any(char::is_alphabetic) {
            return None;
        }
        let mut item = TextItem {
            line: line_no,
            column: column_of(line, desc),
            amount_column: column_of(line, amount_text),
            description: desc.to_string(),
            quantity: None,
            unit: None,
            unit_price: None,
            amount,
            start: None,
            end: None,
        };
        apply_at_rate(&mut item);
        return Some(Ok(item));
    }
    None
}

fn apply_at_rate(item: &mut TextItem) {
    if item.quantity.is_some() || item.unit_price.is_some() {
        return;
    }
    if let Some((q, u, price)) = grammar::at_rate(&item.description) {
        item.quantity = Some(q);
        item.unit = u.map(str::to_string);
        item.unit_price = Some(price.value);
    }
}

/// Column layout: description, then quantity, unit, rate and amount, each
/// two or more spaces apart. `None` when the line is not shaped like an item;
/// `Some(Err)` when it is, but a column cannot be placed.
///
/// `bare_ok`: the invoice is in a currency without minor unit (yen), whose
/// amounts are whole numbers (`13,200`), so a bare number in the amount
/// column is an amount.
fn column_item(line_no: u64, line: &str, bare_ok: bool) -> Option<Result<TextItem, Unparsed>> {
    let (_, mut cells) = grammar::cells(line).ok()?;
    // A VAT rate column (`21%`, `21 %`) is not a quantity, unit or rate.
    // When the line's amount stands before it and one more amount after
    // it (`€ 156,20   21%   € 32,80`), that last one is the line's VAT.
    let is_money = |c: &str| all_consuming(grammar::amount).parse(c).is_ok();
    if let Some(p) = cells
        .iter()
        .position(|c| all_consuming(grammar::percent).parse(*c).is_ok())
    {
        let money_before = cells[..p].iter().filter(|c| is_money(c)).count();
        if money_before >= 2 && cells.len() == p + 2 && is_money(cells[p + 1]) {
            cells.truncate(p);
        } else if money_before >= 1
            && cells.len() == p + 3
            && is_money(cells[p + 1])
            && is_money(cells[p + 2])
        {
            // `278.61   14.50%   40.39   319.00`: net price, rate, the
            // line's tax, the gross amount. The net price times the
            // quantity is not the amount, so it is not kept as the rate.
            cells.drain(p - 1..p + 2);
        } else if p > 0 {
            cells.remove(p);
        }
    }
    let (amount_text, rest) = cells.split_last()?;
    if rest.is_empty() {
        return None;
    }
    let (_, amount) = if bare_ok {
        all_consuming(grammar::money).parse(*amount_text).ok()?
    } else {
        all_consuming(grammar::amount).parse(*amount_text).ok()?
    };
    let mut kinds: Vec<(&str, CellKind<'_>)> =
        rest.iter().map(|c| (*c, grammar::cell_kind(c))).collect();
    // A position number first (`1   EFECTA 95 ...`, `  3   Storage Box`):
    // a small whole number, then the description.
    if kinds.len() >= 2
        && matches!(kinds[1].1, CellKind::Text | CellKind::Unit(_))
        && matches!(&kinds[0].1, CellKind::Number(m) if !m.looks_like_money)
        && kinds[0].0.len() <= 4
        && kinds[0].0.bytes().all(|b| b.is_ascii_digit())
    {
        kinds.remove(0);
    }
    // `1   1,35   Zusätzlicher Traffic (TB)   1,00   1,35`: position, then
    // quantity, then the description; the figure after it is the price
    // (any other between them, a discount column).
    let mut lead_quantity = None;
    if kinds.len() >= 3
        && matches!(kinds[2].1, CellKind::Text | CellKind::Unit(_))
        && matches!(&kinds[0].1, CellKind::Number(m) if !m.looks_like_money)
        && matches!(&kinds[1].1, CellKind::Number(m) if m.currency.is_none())
        && kinds[0].0.len() <= 4
        && kinds[0].0.bytes().all(|b| b.is_ascii_digit())
    {
        if let CellKind::Number(m) = &kinds[1].1 {
            lead_quantity = Some(m.value);
        }
        kinds.drain(..2);
    }
    let mut lead_price = None;
    if lead_quantity.is_some() {
        if let Some((_, CellKind::Number(m))) = kinds.last() {
            if kinds.len() >= 2 {
                lead_price = Some(m.value);
                kinds.pop();
            }
        }
        let before = kinds.len();
        kinds.retain(|(_, k)| !matches!(k, CellKind::Number(_)));
        // A discount column between the description and the price: the
        // price times the quantity is not the amount.
        if kinds.len() < before {
            lead_price = None;
        }
    }

    // A wide table (`l  54,910  5,79  1,10  5,77  257,59  23  59,24  316,83`):
    // more figures after the description than quantity, unit and rate,
    // the amount the last column.
    if let Some(at) = kinds.iter().position(|(_, k)| {
        matches!(
            k,
            CellKind::Number(_) | CellKind::Rate(..) | CellKind::QtyUnit(..)
        )
    }) {
        let tail = &kinds[at..];
        let numbers = tail
            .iter()
            .filter(|(_, k)| matches!(k, CellKind::Number(_)))
            .count();
        let figures = tail
            .iter()
            .filter(|(_, k)| !matches!(k, CellKind::Unit(_)))
            .count();
        // `512.35 GB·月   ¥0.12/GB·月   ¥61.48   ¥0.00   ¥61.48`: usage,
        // price, list price, discount, amount.
        let priced = tail.iter().any(|(_, k)| matches!(k, CellKind::Rate(..)));
        if at > 0
            && (numbers >= 4 || (priced && figures >= 3 && numbers >= 2))
            && tail
                .iter()
                .all(|(_, k)| !matches!(k, CellKind::Text | CellKind::Date))
        {
            kinds.truncate(at);
        }
    }
    let mut quantity = lead_quantity;
    let mut unit: Option<&str> = None;
    let mut unit_price = lead_price;
    // The columns are placed from the right: rate, then unit, then quantity.
    // The first cell is always (part of) the description.
    let n = kinds.len();
    let before_last_is_column = n >= 3
        && matches!(
            kinds.get(n - 2),
            Some((
                _,
                CellKind::Number(_) | CellKind::QtyUnit(..) | CellKind::Unit(_)
            ))
        );
    match kinds.last().map(|(_, k)| k.clone()) {
        Some(CellKind::Rate(m, u)) if n >= 2 => {
            unit_price = Some(m.value);
            unit = Some(u);
            kinds.pop();
        }
        Some(CellKind::Number(m)) if before_last_is_column => {
            unit_price = Some(m.value);
            kinds.pop();
        }
        Some(CellKind::Number(m)) if n == 2 && m.currency.is_some() => {
            unit_price = Some(m.value);
            kinds.pop();
        }
        _ => {}
    }
    let n = kinds.len();
    match kinds.last().map(|(_, k)| k.clone()) {
        Some(CellKind::QtyUnit(q, u)) if n >= 2 => {
            quantity = Some(q);
            unit = Some(u);
            kinds.pop();
        }
        Some(CellKind::Unit(u)) if n >= 3 => {
            if let Some((_, CellKind::Number(q))) = kinds.get(n - 2) {
                if q.currency.is_none() {
                    quantity = Some(q.value);
                    unit = Some(u);
                    kinds.truncate(n - 2);
                }
            }
        }
        Some(CellKind::Number(q)) if n >= 2 && q.currency.is_none() => {
            quantity = Some(q.value);
            kinds.pop();
        }
        _ => {}
    }
    // `49,99   1 PCS   49,99`: the price before the quantity.
    let n = kinds.len();
    if let (None, Some(_), Some((_, CellKind::Number(m)))) = (unit_price, quantity, kinds.last()) {
        if n >= 2 && m.looks_like_money {
            unit_price = Some(m.value);
            kinds.pop();
        }
    }
    let mut description = Vec::new();
    let mut first = None;
    let mut start = None;
    let mut end = None;
    for (text, kind) in &kinds {
        match kind {
            CellKind::Date if start.is_none() => {
                if let Some((s, e)) = parse_range(text) {
                    start = Some(s);
                    end = Some(e);
                } else {
                    start = parse_datetime(text);
                }
            }
            CellKind::Text | CellKind::Unit(_) | CellKind::Date => {
                first.get_or_insert(*text);
                description.push(*text);
            }
            CellKind::Number(_) | CellKind::Rate(..) | CellKind::QtyUnit(..) => {
                // A number first: not an item line (a date, an id, a figure).
                first?;
                return Some(Err(Unparsed {
                    line: line_no,
                    column: column_of(line, text),
                    text: line.trim().to_string(),
                    reason: format!(
                        "the column `{text}` cannot be placed as a quantity, unit or rate (expected description, then quantity, unit, rate and amount)"
                    ),
                }));
            }
        }
    }
    let first = first?;
    if !description
        .iter()
        .any(|d| d.chars().any(char::is_alphabetic))
    {
        return None;
    }
    let mut item = TextItem {
        line: line_no,
        column: column_of(line, first),
        amount_column: column_of(line, amount_text),
        description: description.join(" "),
        quantity,
        unit: unit.map(str::to_string),
        unit_price,
        amount,
        start,
        end,
    };
    apply_at_rate(&mut item);
    Some(Ok(item))
}

const HEADING_WORDS: &[&str] = &[
    "description",
    "item",
    "items",
    "service",
    "services",
    "product",
    "resource",
    "details",
    "detail",
    "qty",
    "quantity",
    "usage",
    "hours",
    "unit",
    "units",
    "uom",
    "rate",
    "price",
    "cost",
    "amount",
    "total",
    "date",
    "period",
    "#",
    "no.",
    "line",
    "per",
    "项目",
    "名称",
    "产品",
    "服务",
    "描述",
    "说明",
    "计费项",
    "数量",
    "用量",
    "单位",
    "单价",
    "价格",
    "金额",
    "费用",
    "小计",
];

/// `Description  Qty  Unit  Rate  Amount`: at least two heading words, and
/// nothing else (currency marks in brackets allowed: `Amount (USD)`).
fn is_column_heading(body: &str) -> bool {
    if body.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let (stripped, _) = strip_brackets(body);
    if stripped.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let words: Vec<&str> = stripped.split(' ').filter(|w| !w.is_empty()).collect();
    words.len() >= 2 && words.iter().all(|w| HEADING_WORDS.contains(w))
}

const TITLES: &[&str] = &[
    "invoice",
    "tax invoice",
    "receipt",
    "payment receipt",
    "bill",
    "statement",
    "billing statement",
    "invoice summary",
    "summary",
    "charges",
    "usage charges",
    "details",
    "账单",
    "发票",
    "收据",
    "账单明细",
    "费用明细",
    "费用清单",
    "消费明细",
    "明细",
];

/// A title (`INVOICE`, `账单`) or a page marker (`Page 1 of 2`, `第 1 页`).
fn is_title(body: &str) -> bool {
    let l = norm_label(body);
    if label_is(&l, TITLES) {
        return true;
    }
    let words: Vec<&str> = l.split(' ').collect();
    let num = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    matches!(words.as_slice(), ["page", n] if num(n))
        || matches!(words.as_slice(), ["page", n, "of", m] if num(n) && num(m))
        || (l.starts_with('第') && l.ends_with('页'))
}

impl TextItem {
    /// The line item this invoice line stands for. `header_currency` says
    /// whether the invoice header named the currency: a symbol on an amount
    /// (`$`, `¥`) then yields to it, and only codes (`USD`) override it.
    pub fn to_line_item(&self, header_currency: bool, inv: &Invoice) -> LineItem {
        let mut item = LineItem::new(self.line, self.description.clone(), self.amount.value);
        item.quantity = self.quantity;
        item.unit = self.unit.clone();
        item.unit_price = self.unit_price;
        item.currency = money_currency(&self.amount, header_currency);
        item.start = self.start.or(inv.period.map(|p| p.0));
        item.end = self.end.or(inv.period.map(|p| p.1));
        item
    }
}

impl Summary {
    /// Taxes and credits are line items of their own category; subtotals
    /// and totals are not items (`None`).
    pub fn to_line_item(&self, header_currency: bool) -> Option<LineItem> {
        let forced = match self.kind {
            SummaryKind::Tax => (Category::Tax, "text-tax"),
            SummaryKind::Credit => (Category::Credit, "text-credit"),
            SummaryKind::Subtotal | SummaryKind::Total => return None,
        };
        let mut item = LineItem::new(self.line, self.label.clone(), self.amount.value);
        item.forced = Some(forced);
        item.currency = self.currency(header_currency);
        Some(item)
    }

    /// The currency of the amount; see [`TextItem::to_line_item`].
    pub fn currency(&self, header_currency: bool) -> Option<String> {
        money_currency(&self.amount, header_currency)
    }
}

fn money_currency(m: &Money, header_currency: bool) -> Option<String> {
    if m.explicit || !header_currency {
        m.currency.map(str::to_string)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
