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
mod items;
mod line;
mod reconcile;
mod settle;
mod summaries;

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime};
use nom::Parser;
use nom::combinator::all_consuming;
use rust_decimal::Decimal;

use crate::model::{Category, LineItem};
use crate::normalise::date::{parse_datetime, parse_month, parse_range};
use crate::normalise::header::{currency_code, currency_value};
use crate::normalise::number::fold_char;
use crate::vocab::{currency, summary};
use grammar::{CellKind, Money, column_of};
use items::*;
pub use line::{period, read_line};
pub use reconcile::SetAside;
pub use settle::settle;
pub use summaries::summary_kind;
use summaries::*;

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
    /// Why the invoice's currency is what it is, when it was inferred from
    /// more than a mark (`¥` read as the yen in a Japanese invoice).
    pub currency_basis: Option<String>,
    /// Every non-blank line, in order.
    pub lines: Vec<Line>,
    /// The character columns (1-based, first and last) of the last column
    /// heading's amount word (`Amount`, `金额`): an amount after a single
    /// space under it is an item's amount.
    pub amount_heading: Option<(usize, usize)>,
    /// The item lines set aside because the invoice prints its charges
    /// more than once (a summary block above the detail); see [`SetAside`].
    pub set_aside: Option<SetAside>,
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
    /// `settle`.
    Restated,
    /// A description that runs onto the next line, indented under the
    /// item's description (`  instance gpu-8x-h100-a - us-east-3`): joined
    /// to the item's description.
    Continuation,
    /// A payment, a balance or a credit applied after the total
    /// (`Applied balance  -€20.00`, `Betaald met iDeal  € 189,00-`,
    /// `现金支付  ¥790.82`): not a charge and not the total.
    Payment,
    /// The tax already included in the gross amounts, stated for
    /// information (`Including VAT 20%  200.00`, `В том числе НДС`,
    /// [`crate::vocab::summary::INCLUDED_TAX`]): never added to the lines.
    /// Counted as a `summary` skip and said in a note.
    IncludedTax,
    /// An item line of a block that restates the counted one: the charges
    /// printed twice, provably (a summary block above the detail, each
    /// adding to the stated total). Counted as a `summary` skip and said
    /// in a note ([`SetAside`]).
    SetAside,
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
    } else if currency::yen_sign_is_the_yen(text) {
        inv.currency = Some("JPY".to_string());
        inv.currency_basis = Some(
            "currency JPY: the invoice is written in Japanese (it has kana) and marks its amounts with ¥, which is the yen there (¥ is also the yuan's sign)"
                .to_string(),
        );
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
        // A line's own date or period first; else the invoice's billing
        // period; else its date (`Invoice date: 2025-11-30`), as a CSV row
        // with one date column.
        (item.start, item.end) = match (self.start, inv.period, inv.date) {
            (Some(s), _, _) => (Some(s), self.end),
            (None, Some((s, e)), _) => (Some(s), Some(e)),
            (None, None, date) => (date, None),
        };
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
