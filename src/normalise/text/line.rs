//! Reading one line: which kind it is, header fields and their keys,
//! column headings and page titles.

use super::*;
use crate::normalise::date::range_with;
use crate::vocab::{currency, invoice};

/// An invoice's date: what the crate's date reader reads, or a day-first
/// dotted date (`30.11.2025`, [`invoice::DOTTED_DATE_FORMATS`]).
pub(super) fn invoice_date(value: &str) -> Option<NaiveDateTime> {
    let v = value.trim();
    parse_datetime(v).or_else(|| {
        invoice::DOTTED_DATE_FORMATS.iter().find_map(|f| {
            NaiveDate::parse_from_str(v, f)
                .ok()
                .map(|d| d.and_time(NaiveTime::MIN))
        })
    })
}

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
        // `Including VAT 20%  200.00`, `В том числе НДС (20%):  2 000,00`:
        // the tax inside the gross amounts, not a charge of its own.
        if summary::is_included_tax(&plain) {
            return LineKind::Header(HeaderField::IncludedTax);
        }
    }
    if let Some(field) = header(body, inv) {
        return LineKind::Header(field);
    }
    let bare_ok = inv.currency.as_deref().is_some_and(currency::is_whole);
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
        // The last heading word is the amount column: an amount after a
        // single space under it is read (`Item purchase $80.80`).
        if let Some(last) = body.split(' ').rfind(|w| !w.is_empty()) {
            let start = column_of(line, last);
            inv.amount_heading = Some((start, start + last.chars().count() - 1));
        }
        return LineKind::ColumnHeading;
    }
    if let Some(item) = single_space_item(line_no, line, inv) {
        note_currency(inv, &item.amount);
        return LineKind::Item(item);
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

pub(super) fn unparsed(line_no: u64, line: &str, at: &str, reason: String) -> LineKind {
    LineKind::Unparsed(Unparsed {
        line: line_no,
        column: column_of(line, at),
        text: line.trim().to_string(),
        reason,
    })
}

pub(super) fn note_currency(inv: &mut Invoice, m: &Money) {
    if inv.inferred_currency.is_none() {
        inv.inferred_currency = m.currency.map(str::to_string);
    }
}

pub(super) const NUMBER_KEYS: &[&str] = &[
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
pub(super) const CURRENCY_KEYS: &[&str] = &[
    "currency",
    "billing currency",
    "币种",
    "货币",
    "结算币种",
    "通貨",
    "통화",
    "währung",
    "devise",
    "moneda",
    "divisa",
    "moeda",
    "valuta",
    "waluta",
    "měna",
    "para birimi",
    "валюта",
];

/// A known header field, written `Key: value` or `Key    value`.
pub(super) fn header(body: &str, inv: &mut Invoice) -> Option<HeaderField> {
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
    } else if has(invoice::DATE_KEYS) {
        let d = invoice_date(value)?;
        inv.date.get_or_insert(d);
        Some(HeaderField::Date)
    } else if has(invoice::PERIOD_KEYS) {
        let p = period(value)?;
        inv.period.get_or_insert(p);
        Some(HeaderField::Period)
    } else if has(CURRENCY_KEYS) {
        let c = currency_value(value)?;
        // A currency the invoice states wins over one read from its script
        // (`¥` in Japanese text, [`Invoice::currency_basis`]).
        if inv.currency_basis.take().is_some() {
            inv.currency = Some(c);
        } else {
            inv.currency.get_or_insert(c);
        }
        Some(HeaderField::Currency)
    } else {
        None
    }
}

/// `2025-10-01 - 2025-10-31`, `Oct 2025`, `2025年10月`: a month is its
/// first to its last day.
pub fn period(value: &str) -> Option<(NaiveDateTime, NaiveDateTime)> {
    if let Some(r) = date_range(value) {
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

/// A period written somewhere in a line of words (`Service ID svc-322699,
/// period 2025-10-01 to 2025-10-31`): the first run of at most seven words
/// that is a range of two dates.
pub(super) fn period_in(text: &str) -> Option<(NaiveDateTime, NaiveDateTime)> {
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|w| w.trim_end_matches([',', ';', ')']).trim_start_matches('('))
        .collect();
    (0..words.len()).find_map(|i| {
        (i + 1..=words.len().min(i + 7))
            .rev()
            .find_map(|j| date_range(&words[i..j].join(" ")))
    })
}

/// Two dates: `2025-10-01 - 2025-10-31`, `01.11.2025 bis 30.11.2025`.
fn date_range(value: &str) -> Option<(NaiveDateTime, NaiveDateTime)> {
    if !value.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(r) = range_with(value, invoice_date) {
        return Some(r);
    }
    // `2025-10-01 to 2025-10-31`, `01.11.2025 bis 30.11.2025`.
    let words: Vec<&str> = value.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if i > 0 && invoice::RANGE_WORDS.contains(&w.to_lowercase().as_str()) {
            let (a, b) = (words[..i].join(" "), words[i + 1..].join(" "));
            if let (Some(x), Some(y)) = (invoice_date(&a), invoice_date(&b)) {
                if y >= x {
                    return Some((x, y));
                }
            }
        }
    }
    None
}

pub(super) const HEADING_WORDS: &[&str] = &[
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
pub(super) fn is_column_heading(body: &str) -> bool {
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

pub(super) const TITLES: &[&str] = &[
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
    "detail",
    "detail for consolidated bill",
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
pub(super) fn is_title(body: &str) -> bool {
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
