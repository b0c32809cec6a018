//! The words of a text invoice's header that date it: the keys of its
//! invoice date and of its billing period, in every language the text
//! reader knows, and the date forms and range words only invoices use.
//!
//! The text reader (`normalise::text`) reads `Key: value` lines with these
//! keys; the invoice's date or period becomes the period of every item that
//! states none of its own (docs/text-invoices.md, "Dates").

/// Keys of the invoice's own date (`Invoice date: 2025-11-30`,
/// `Rechnungsdatum: 30.11.2025`, `开票日期：2025年11月30日`, `請求日: 2025/11/30`).
/// Compared lowercased, after full-width forms are folded.
pub(crate) const DATE_KEYS: &[&str] = &[
    // English
    "date",
    "invoice date",
    "issue date",
    "date issued",
    "date of issue",
    "receipt date",
    "statement date",
    "bill date",
    "billing date",
    // German
    "rechnungsdatum",
    "datum",
    "ausstellungsdatum",
    // French
    "date de facture",
    "date de facturation",
    "date d'émission",
    // Dutch
    "factuurdatum",
    // Spanish
    "fecha de factura",
    "fecha de emisión",
    // Chinese
    "日期",
    "开票日期",
    "账单日期",
    "出账日期",
    // Japanese
    "請求日",
    "発行日",
    "請求書発行日",
    "ご請求日",
];

/// Keys of the invoice's billing period (`Billing period: 2025-11-01 -
/// 2025-11-30`, `Leistungszeitraum: 01.11.2025 - 30.11.2025`, `账单周期：...`,
/// `請求期間: 2025/11/01 - 2025/11/30`). A month alone (`Oct 2025`,
/// `2025年10月`) is its first to its last day.
pub(crate) const PERIOD_KEYS: &[&str] = &[
    // English
    "billing period",
    "period",
    "service period",
    "statement period",
    "usage period",
    "billing month",
    "invoice period",
    // German
    "leistungszeitraum",
    "abrechnungszeitraum",
    "zeitraum",
    // French
    "période de facturation",
    "période",
    // Dutch
    "factuurperiode",
    "periode",
    // Spanish
    "periodo de facturación",
    "período de facturación",
    // Chinese
    "账期",
    "计费周期",
    "账单周期",
    "结算周期",
    "账单月份",
    // Japanese
    "請求期間",
    "利用期間",
    "ご利用期間",
    "対象期間",
];

/// At most this multiple of a stated figure is taken for charges printed
/// several times (`parse-double-counted`, and the text reader's reading
/// that reconciles).
pub(crate) const MAX_MULTIPLE: u32 = 10;

/// Day-first dotted dates as German, Dutch and Polish invoices print them
/// (`30.11.2025`), which no CSV date column is assumed to hold: tried for
/// an invoice's date and period only, after the crate's date reader.
pub(crate) const DOTTED_DATE_FORMATS: &[&str] = &["%d.%m.%Y", "%d. %m. %Y"];

/// Words between the two dates of a period (`2025-10-01 to 2025-10-31`,
/// `01.11.2025 bis 30.11.2025`), besides the dashes and `~` the date reader
/// knows. Lowercase, whole words.
pub(crate) const RANGE_WORDS: &[&str] =
    &["to", "through", "until", "bis", "au", "tot", "hasta", "al"];
