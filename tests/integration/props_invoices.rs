//! Generated text invoices of shapes nobody here wrote by hand (issue 26,
//! item 7, the invoice part): items whose continuation lines stand between
//! the item and its restating `Charges` / `Usage` sub-line, a summary block
//! above the detail, the invoice's date or billing period in several
//! languages, and amounts written `$12.34`, `$ 12.34`, `$   12.34` (the
//! symbol in a column of its own) or after a single space.
//!
//! The expected figures come from the generator's own `Decimal` arithmetic
//! (the sum of the amounts it wrote, the dates it wrote), never from
//! billaudit.

use chrono::{Datelike, NaiveDate};
use proptest::prelude::*;
use rust_decimal::Decimal;

use billaudit::normalise::text;

/// Descriptions that are no summary label, breakdown word or title.
const DESCRIPTIONS: &[&str] = &[
    "H100 GPU instance hours",
    "RTX 4090 pod on-demand",
    "Block storage volume 2 TB",
    "Object storage standard",
    "Volume snapshot daily",
    "Data transfer out to internet",
    "Managed Kubernetes control plane",
    "Load balancer hours",
    "Dedicated server EX44",
    "Support plan business",
];

/// How an amount is written.
#[derive(Debug, Clone, Copy)]
enum Style {
    /// `$12.34` in the amount column.
    Symbol,
    /// `$ 12.34`: a space after the symbol.
    SpacedSymbol,
    /// `$      12.34`: the symbol in a column of its own.
    SymbolColumn,
    /// `Description $12.34`: after a single space, the line's only money.
    SingleSpace,
}

/// The invoice's date line, and the item period start it gives.
#[derive(Debug, Clone, Copy)]
enum DateLine {
    InvoiceDateEn,
    RechnungsdatumDe,
    KaipiaoZh,
    SeikyubiJa,
    BillingPeriodEn,
    LeistungszeitraumDe,
    ZhangdanZhouqiZh,
    SeikyuKikanJa,
}

#[derive(Debug, Clone)]
struct Item {
    desc: usize,
    amount: Decimal,
    /// Continuation lines between the item and its sub-line: `Some(true)`
    /// one that states the item's own period.
    continuation: Option<bool>,
    /// A restating sub-line (`Charges` / `Usage`) of the same amount.
    restated: bool,
}

#[derive(Debug, Clone)]
struct Invoice {
    items: Vec<Item>,
    style: Style,
    date: DateLine,
    day: NaiveDate,
    summary_block: bool,
    tax: Decimal,
}

fn money(cents: i64) -> Decimal {
    Decimal::new(cents, 2)
}

fn item() -> impl Strategy<Value = Item> {
    (
        0..DESCRIPTIONS.len(),
        1i64..5_000_000,
        prop::option::of(any::<bool>()),
        any::<bool>(),
    )
        .prop_map(|(desc, cents, continuation, restated)| Item {
            desc,
            amount: money(cents),
            continuation,
            restated,
        })
}

fn invoice() -> impl Strategy<Value = Invoice> {
    let style = prop_oneof![
        Just(Style::Symbol),
        Just(Style::SpacedSymbol),
        Just(Style::SymbolColumn),
        Just(Style::SingleSpace),
    ];
    let date = prop_oneof![
        Just(DateLine::InvoiceDateEn),
        Just(DateLine::RechnungsdatumDe),
        Just(DateLine::KaipiaoZh),
        Just(DateLine::SeikyubiJa),
        Just(DateLine::BillingPeriodEn),
        Just(DateLine::LeistungszeitraumDe),
        Just(DateLine::ZhangdanZhouqiZh),
        Just(DateLine::SeikyuKikanJa),
    ];
    (
        prop::collection::vec(item(), 1..8),
        style,
        date,
        (2020i32..2031, 1u32..13, 1u32..29),
        any::<bool>(),
        prop::option::of(0i64..100_000),
    )
        .prop_map(
            |(items, style, date, (y, m, d), summary_block, tax)| Invoice {
                items,
                style,
                date,
                day: NaiveDate::from_ymd_opt(y, m, d).unwrap(),
                summary_block,
                // Tax only without a summary block (the block would state it again).
                tax: tax.filter(|_| !summary_block).map_or(Decimal::ZERO, money),
            },
        )
}

/// Last day of the month of `d`.
fn month_end(d: NaiveDate) -> NaiveDate {
    let next = if d.month() == 12 {
        NaiveDate::from_ymd_opt(d.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(d.year(), d.month() + 1, 1)
    };
    next.unwrap().pred_opt().unwrap()
}

/// The header's date line and the period start it gives every item that
/// states none: the date itself, or the first of its month for a period.
fn date_line(inv: &Invoice) -> (String, NaiveDate) {
    let d = inv.day;
    let first = d.with_day(1).unwrap();
    let last = month_end(d);
    let (y, m, dd) = (d.year(), d.month(), d.day());
    match inv.date {
        DateLine::InvoiceDateEn => (format!("Invoice date: {}", d.format("%Y-%m-%d")), d),
        DateLine::RechnungsdatumDe => (format!("Rechnungsdatum: {dd:02}.{m:02}.{y}"), d),
        DateLine::KaipiaoZh => (format!("开票日期：{y}年{m}月{dd}日"), d),
        DateLine::SeikyubiJa => (format!("請求日: {y}/{m:02}/{dd:02}"), d),
        DateLine::BillingPeriodEn => (
            format!(
                "Billing period: {} - {}",
                first.format("%Y-%m-%d"),
                last.format("%Y-%m-%d")
            ),
            first,
        ),
        DateLine::LeistungszeitraumDe => (
            format!(
                "Leistungszeitraum: {} - {}",
                first.format("%d.%m.%Y"),
                last.format("%d.%m.%Y")
            ),
            first,
        ),
        DateLine::ZhangdanZhouqiZh => (
            format!(
                "账单周期：{} 至 {}",
                first.format("%Y-%m-%d"),
                last.format("%Y-%m-%d")
            ),
            first,
        ),
        DateLine::SeikyuKikanJa => (
            format!(
                "請求期間: {} - {}",
                first.format("%Y/%m/%d"),
                last.format("%Y/%m/%d")
            ),
            first,
        ),
    }
}

/// `amount` written in `style`, for the amount column.
fn written(amount: Decimal, style: Style) -> String {
    match style {
        Style::Symbol | Style::SingleSpace => format!("${amount}"),
        Style::SpacedSymbol => format!("$ {amount}"),
        Style::SymbolColumn => format!("$   {amount:>10}"),
    }
}

/// One item's line: the description and its amount.
fn item_line(desc: &str, amount: Decimal, style: Style) -> String {
    match style {
        Style::SingleSpace => format!("{desc} ${amount}"),
        _ => format!("{desc:<44}{:>22}", written(amount, style)),
    }
}

/// The indented sub-line restating an item.
fn sub_line(label: &str, amount: Decimal, style: Style) -> String {
    let style = match style {
        Style::SingleSpace => Style::Symbol,
        s => s,
    };
    format!("    {label:<40}{:>22}", written(amount, style))
}

/// The invoice text, the expected line-item count, the expected total, and the
/// period start each item should carry.
fn render(inv: &Invoice) -> (String, usize, Decimal, Vec<NaiveDate>) {
    let (date, start) = date_line(inv);
    let mut out = vec![
        "Nimbus GPU Cloud Ltd".to_string(),
        "Invoice number: NG-2025-4242".to_string(),
        date,
        String::new(),
    ];
    let sum: Decimal = inv.items.iter().map(|i| i.amount).sum();
    if inv.summary_block {
        out.push("Summary".into());
        out.push(format!(
            "{:<44}{:>22}",
            "Cloud Service Charges",
            written(sum, Style::Symbol)
        ));
        out.push(format!(
            "{:<44}{:>22}",
            "Total for this invoice",
            written(sum, Style::Symbol)
        ));
        out.push(String::new());
        out.push("Detail".into());
    }
    out.push(format!("{:<44}{:>22}", "Service", "Amount"));
    let mut starts = Vec::new();
    for (n, it) in inv.items.iter().enumerate() {
        out.push(item_line(DESCRIPTIONS[it.desc], it.amount, inv.style));
        let own = it.continuation == Some(true);
        match it.continuation {
            Some(true) => out.push(format!(
                "    Service ID svc-{:06}, period 2019-03-01 to 2019-03-31",
                322_699 + n
            )),
            Some(false) => out.push(format!("    instance gpu-node-{n:02} - us-east-3")),
            None => {}
        }
        if it.restated {
            let label = if n % 2 == 0 { "Charges" } else { "Usage" };
            out.push(sub_line(label, it.amount, inv.style));
        }
        starts.push(if own {
            NaiveDate::from_ymd_opt(2019, 3, 1).unwrap()
        } else {
            start
        });
    }
    out.push(String::new());
    if !inv.summary_block {
        out.push(format!(
            "{:<44}{:>22}",
            "Subtotal",
            written(sum, Style::Symbol)
        ));
        if !inv.tax.is_zero() {
            out.push(format!(
                "{:<44}{:>22}",
                "Tax",
                written(inv.tax, Style::Symbol)
            ));
        }
        out.push(format!(
            "{:<44}{:>22}",
            "Total",
            written(sum + inv.tax, Style::Symbol)
        ));
    }
    let mut text = out.join("\n");
    text.push('\n');
    // The tax line is a line item of its own (category `tax`).
    let count = inv.items.len() + usize::from(!inv.tax.is_zero());
    (text, count, sum + inv.tax, starts)
}

fn audit(text: &str) -> billaudit::report::json::JsonBill {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("invoice.txt");
    std::fs::write(&p, text).unwrap();
    crate::common::audit_one(&p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every generated invoice is read as written: its items once each, the
    /// total the generator's sum, no mismatch, no unparsed line, and every
    /// item dated by its own period or the invoice's date line.
    #[test]
    fn generated_invoices_reconcile(inv in invoice()) {
        let (text, count, total, starts) = render(&inv);
        let b = audit(&text);
        prop_assert_eq!(b.line_items as usize, count, "{}", text);
        prop_assert_eq!(b.total.parse::<Decimal>().unwrap(), total, "{}", text);
        prop_assert_eq!(
            b.stated_total.as_deref().map(|s| s.parse::<Decimal>().unwrap()),
            Some(total),
            "{}", text
        );
        let codes = crate::common::codes(&b);
        for code in ["parse-double-counted", "total-mismatch", "subtotal-mismatch", "unparsed-line"] {
            prop_assert!(!codes.contains(&code.to_string()), "{}: {:?}\n{}", code, b.findings, text);
        }
        // With a summary block, its one line is set aside and said.
        let noted = b.notes.iter().any(|n| n.starts_with("parse-double-counted: "));
        prop_assert_eq!(noted, inv.summary_block, "{:?}\n{}", b.notes, text);
        let parsed = text::parse(&text);
        let header_currency = parsed.currency.is_some();
        let got: Vec<NaiveDate> = parsed
            .items()
            .map(|i| i.to_line_item(header_currency, &parsed).start.unwrap().date())
            .collect();
        prop_assert_eq!(got, starts, "{}", text);
    }
}
