//! Summary labels: the words a bill uses for a line that states a figure
//! about the other lines (`Subtotal`, `Tax`, `Discount`, `Total`) instead of
//! charging for something. Defined once, read by the CSV reader
//! (`normalise`) and the text-invoice reader
//! (`normalise::text`).
//!
//! A label matches when, trimmed, lowercased, with its spaces collapsed and a
//! trailing `:`, `：` or `.` removed, it is one of the labels below, or is a
//! bilingual label whose ASCII and non-ASCII parts both are labels of the
//! same kind (`Subtotal 小计`, `VAT 增值税`). A rate (`Tax (8%)`, `VAT 20%`)
//! and a trailing currency code (`Total USD`) are removed by the reader
//! before it asks, since only the reader knows the currencies
//! ([`stated_kind`] does that for a reader that passes its currency test).
//!
//! The kinds are tried in the order subtotal, tax, credit, total: `Total HT`,
//! `total before tax` are subtotals, `total tax` is a tax.

/// What a summary label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryKind {
    /// The sum of the charges before tax and credits.
    Subtotal,
    /// A tax on the bill: a charge of its own (category `tax`).
    Tax,
    /// A discount or credit: a negative charge (category `credit`).
    Credit,
    /// What the bill says is due: the sum of every line.
    Total,
}

/// Subtotal labels, by language.
pub const SUBTOTAL: &[&str] = &[
    // English
    "subtotal",
    "sub-total",
    "sub total",
    "total before tax",
    "total excluding tax",
    "total excl. tax",
    "total net",
    // Chinese
    "小计",
    "小计金额",
    "不含税金额",
    // German
    "zwischensumme",
    "summe ohne mwst",
    "nettobetrag",
    "summe netto",
    // French
    "sous-total",
    "sous total",
    "total ht",
    // Japanese (`10%対象（税抜）`: the amount subject to 10% tax, before it)
    "小計",
    "対象",
    // Spanish (`subtotal` is the English word): the taxable base
    "base imponible",
    "total sin iva",
    // Dutch
    "subtotaal",
    "totaal exclusief btw",
    // Italian
    "subtotale",
    "imponibile",
    "totale imponibile",
    // Korean (`공급가액`: the supply value, before VAT)
    "소계",
    "공급가액",
    "공급가",
    // Polish, Russian, Turkish, Swedish, Finnish, Czech, Vietnamese
    "razem netto",
    "wartość netto",
    "suma netto",
    "итого без ндс",
    "сумма без ндс",
    "ara toplam",
    "delsumma",
    "välisumma",
    "mezisoučet",
    "cộng tiền hàng",
];

/// Tax labels, by language.
pub const TAX: &[&str] = &[
    // English
    "tax",
    "taxes",
    "vat",
    "sales tax",
    "gst",
    // India's GST in its parts: integrated, central, state, union territory
    "igst",
    "cgst",
    "sgst",
    "utgst",
    "tax total",
    "total tax",
    // Chinese
    "税额",
    "税金",
    "税费",
    "增值税",
    "增值税额",
    // German
    "mwst",
    "ust",
    "mehrwertsteuer",
    "umsatzsteuer",
    // French
    "tva",
    // Japanese
    "消費税",
    // Dutch
    "btw",
    // Spanish
    "iva",
    // Portuguese
    "impostos",
    "imposto",
    // Korean, Polish, Russian, Turkish, Scandinavian, Finnish, Czech,
    // Vietnamese, Indonesian
    "부가세",
    "부가가치세",
    "세액",
    "podatek vat",
    "ндс",
    "сумма ндс",
    "kdv",
    "moms",
    "mva",
    "alv",
    "dph",
    "thuế gtgt",
    "ppn",
];

/// Discount and credit labels, by language.
pub const CREDIT: &[&str] = &[
    // English
    "discount",
    "discounts",
    "credit",
    "credits",
    "credit applied",
    "credits applied",
    "promotional credit",
    "promotional credits",
    "promo credit",
    "coupon",
    "voucher",
    // Chinese
    "优惠",
    "优惠金额",
    "折扣",
    "代金券",
    "代金券抵扣",
    "抵扣",
    // German
    "rabatt",
    // French
    "remise",
    // Japanese
    "割引",
    // Dutch
    "korting",
    // Spanish
    "descuento",
    // Italian
    "sconto",
    // Korean, Polish, Russian, Turkish, Swedish, Danish, Finnish, Czech,
    // Portuguese
    "할인",
    "rabat",
    "zniżka",
    "скидка",
    "indirim",
    "alennus",
    "sleva",
    "desconto",
];

/// Total labels, by language.
pub const TOTAL: &[&str] = &[
    // English
    "total",
    "grand total",
    "total amount",
    "invoice total",
    "total for this invoice",
    "total charges",
    // Chinese
    "合计",
    "合计金额",
    "总计",
    "总计金额",
    "应付金额",
    "应付总额",
    "价税合计",
    // German
    "summe",
    "gesamtsumme",
    "gesamtbetrag",
    "rechnungsbetrag",
    // French
    "total ttc",
    "montant total",
    "total facture",
    "total général",
    // Japanese
    "合計",
    "ご請求金額",
    "請求金額",
    // Dutch
    "totaal",
    "totaalbedrag",
    "factuur totaal",
    "bedrag inclusief btw",
    // Spanish (`total` is the English word)
    "importe total",
    "total factura",
    "total de la factura",
    "importe total de la factura",
    "total con iva",
    "total general",
    "gran total",
    // Portuguese
    "total da fatura",
    "total fatura",
    "total geral",
    // Polish
    "razem",
    "należność ogółem",
    // Italian
    "totale",
    "totale fattura",
    "totale documento",
    "totale generale",
    "totale complessivo",
    // Korean
    "합계",
    "합계 금액",
    "합계금액",
    "총액",
    "총 금액",
    "청구 금액",
    "청구금액",
    // Polish, Russian, Turkish, Swedish, Danish/Norwegian, Finnish, Czech,
    // Portuguese, Vietnamese
    "razem brutto",
    "wartość brutto",
    "итого",
    "всего",
    "genel toplam",
    "toplam",
    "totalt",
    "i alt",
    "yhteensä",
    "celkem",
    "valor total",
    "tổng cộng",
];

/// Total labels that name what is left to pay: the total, unless a payment
/// or an applied credit stands before them (`Total  209.94`, `Applied
/// balance  -20.00`, `Amount due  189.94`), when they are the amount due
/// after it and the invoice total is the total before (see
/// `normalise::text`). Their kind is [`SummaryKind::Total`].
pub const DUE: &[&str] = &[
    // English
    "total due",
    "amount due",
    "balance due",
    "total amount due",
    // Chinese
    "本期应付",
    "本期应付金额",
    // German
    "zahlbetrag",
    "zu zahlen",
    "zu zahlender betrag",
    "rechnungsendbetrag",
    "endbetrag",
    // French
    "somme à payer",
    "net à payer",
    // Dutch
    "te betalen",
    // Polish, Russian, Turkish, Swedish, Danish, Norwegian, Finnish, Czech,
    // Portuguese, Italian
    "do zapłaty",
    "всего к оплате",
    "итого к оплате",
    "ödenecek tutar",
    "att betala",
    "at betale",
    "å betale",
    "maksettava",
    "k úhradě",
    "celkem k úhradě",
    "total a pagar",
    "totale da pagare",
];

/// Payments and balances applied to an invoice after its total: not
/// charges and not the total (`Applied balance`, `Betaald met iDeal`,
/// `现金支付`). Not a [`SummaryKind`]: a CSV never has them; the text reader
/// keeps them out of the items.
pub const PAYMENT: &[&str] = &[
    // English
    "applied balance",
    "amount paid",
    "paid",
    "payment",
    "payments",
    "payment received",
    "remaining balance",
    // Chinese
    "现金支付",
    "已支付",
    "账户余额",
    // German
    "bezahlt",
    // French
    "déjà payé",
    // Dutch
    "betaald",
    "betaald met ideal",
];

/// Money put into a prepaid account (a GPU cloud's ledger export lists its
/// top-ups among the charges: `充值`, `Top-up`): a payment, not a charge.
/// Matched as a whole cell, on a CSV row's classification texts (its
/// description or its type column: `类型 = 充值`), which the CSV reader
/// then keeps out of the items (`summary_row::top_up`). Not `payment` or
/// `paid`: those are the words of a status column beside charges.
pub const TOP_UP: &[&str] = &[
    // English
    "top-up",
    "top up",
    "account top-up",
    "balance top-up",
    "recharge",
    "account recharge",
    "add funds",
    "funds added",
    // Chinese
    "充值",
    "账户充值",
    "在线充值",
    "余额充值",
    "账户余额充值",
];

/// Sums carried from one page to the next: restated, not charged.
pub const CARRIED: &[&str] = &[
    // English
    "carried forward",
    "brought forward",
    "carry forward",
    // German
    "übertrag",
    // French (`report` alone is also an English word: not taken)
    "à reporter",
    "report à nouveau",
];

/// The tax already included in gross amounts, stated for information
/// (`Including VAT 20%`, `inkl. MwSt.`, `в том числе НДС`, `dont TVA`,
/// `其中税额`): not a charge, never added to the lines. Not a
/// [`SummaryKind`]: the text reader keeps these lines out of the items and
/// out of the totals.
pub const INCLUDED_TAX: &[&str] = &[
    // English
    "including vat",
    "incl. vat",
    "incl vat",
    "vat included",
    "including tax",
    "incl. tax",
    "tax included",
    "including gst",
    "incl. gst",
    "gst included",
    // German
    "inkl. mwst",
    "inkl. ust",
    "inkl mwst",
    "enthaltene mwst",
    "darin enthaltene mwst",
    "enthaltene ust",
    "darin enthaltene ust",
    "davon mwst",
    "davon ust",
    // Russian
    "в том числе ндс",
    "в т.ч. ндс",
    "в т. ч. ндс",
    "в том числе налог",
    // French
    "dont tva",
    "tva incluse",
    // Spanish, Italian, Portuguese
    "iva incluido",
    "iva inclusa",
    "iva incluído",
    // Dutch
    "inclusief btw",
    "waarvan btw",
    // Polish
    "w tym vat",
    // Chinese, Japanese
    "其中税额",
    "其中：税额",
    "含税额",
    "内消費税",
    "うち消費税",
];

/// The parts an indented sub-line of a charge names (`Charges`, then the
/// `Credits` and `VAT` of the same service): besides the tax and credit
/// labels above, these.
pub const BREAKDOWN: &[&str] = &["charges", "charge", "usage", "usage charges", "fees"];

/// True when a label names a sum carried between pages ([`CARRIED`]).
pub fn is_carried(label: &str) -> bool {
    label_in(&normalise(label), CARRIED)
}

/// True when a label states the tax already included in the amounts
/// ([`INCLUDED_TAX`]).
pub fn is_included_tax(label: &str) -> bool {
    label_in(&normalise(label), INCLUDED_TAX)
}

/// True when a label names a part of a charge ([`BREAKDOWN`]).
pub fn is_breakdown(label: &str) -> bool {
    label_in(&normalise(label), BREAKDOWN)
}

/// True when a label names an amount left to pay ([`DUE`]).
pub fn is_due(label: &str) -> bool {
    label_in(&normalise(label), DUE)
}

/// True when a label names money put into a prepaid account ([`TOP_UP`]),
/// compared trimmed and ASCII-case-insensitively: asked of every CSV
/// row's texts, so without the allocation of [`normalise`].
pub fn is_top_up(label: &str) -> bool {
    // Asked of every text of every row: ASCII spaces are trimmed byte by
    // byte, and `trim` (Unicode spaces, `　`) runs only on a text that
    // starts or ends with a byte that is not ASCII; a text of no label's
    // length (most texts) is then none of them, with no comparison. (The
    // trim and the comparisons were about 1% of a CSV audit's instructions.)
    let mut t = label.trim_ascii();
    let b = t.as_bytes();
    if b.first().is_some_and(|c| !c.is_ascii()) || b.last().is_some_and(|c| !c.is_ascii()) {
        t = t.trim();
    }
    let n = t.len();
    n < 64 && TOP_UP_LENGTHS >> n & 1 == 1 && TOP_UP.iter().any(|l| t.eq_ignore_ascii_case(l))
}

/// Bit `n` set when a label of [`TOP_UP`] is `n` bytes long (every one is
/// shorter than 64 bytes: a test keeps them so).
const TOP_UP_LENGTHS: u64 = {
    let mut mask = 0u64;
    let mut i = 0;
    while i < TOP_UP.len() {
        mask |= 1 << TOP_UP[i].len();
        i += 1;
    }
    mask
};

/// True when a label names a payment or applied balance ([`PAYMENT`]).
pub fn is_payment(label: &str) -> bool {
    label_in(&normalise(label), PAYMENT)
}

/// The tables in the order they are tried.
const KINDS: [(SummaryKind, &[&str]); 5] = [
    (SummaryKind::Subtotal, SUBTOTAL),
    (SummaryKind::Tax, TAX),
    (SummaryKind::Credit, CREDIT),
    (SummaryKind::Total, TOTAL),
    (SummaryKind::Total, DUE),
];

/// The longest normalised label looked up, in bytes: room for a bilingual
/// pair (`Promotional credits 代金券抵扣`, 35 bytes) of labels of at most
/// 32 bytes (a test keeps them within it; `всего к оплате` is 26). A
/// longer cell is not a summary label: the CSV reader asks about one cell
/// of every row, and long cells are turned away by their length alone.
const MAX_LABEL_BYTES: usize = 64;

/// Every label and its kind, for one lookup per question (every CSV row
/// asks: Fx, not SipHash, which was 0.5% of an audit's CPU).
fn table() -> &'static rustc_hash::FxHashMap<&'static str, SummaryKind> {
    static TABLE: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, SummaryKind>> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        KINDS
            .iter()
            .flat_map(|(k, set)| set.iter().map(move |l| (*l, *k)))
            .collect()
    })
}

/// Lowercase, single spaces, no trailing `:`, `：` or `.`.
pub fn normalise(label: &str) -> String {
    let t = label
        .trim()
        .trim_end_matches([':', '：', '.', ' ', '\u{3000}'])
        .to_lowercase();
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The parts of a bilingual label: its runs of ASCII and of other
/// characters (a space belongs to the run it is in), trimmed.
fn parts(label: &str) -> impl Iterator<Item = &str> {
    let mut rest = label;
    std::iter::from_fn(move || {
        let first = rest.trim_start().chars().next()?;
        let start = rest.len() - rest.trim_start().len();
        let ascii = first.is_ascii();
        let end = rest[start..]
            .char_indices()
            .find(|(_, c)| *c != ' ' && c.is_ascii() != ascii)
            .map_or(rest.len(), |(i, _)| start + i);
        let part = rest[start..end].trim();
        rest = &rest[end..];
        Some(part)
    })
}

/// True when a normalised label is in `set`, or is a bilingual label whose
/// ASCII and non-ASCII parts are all in it: `Subtotal 小计`, `VAT 增值税`.
pub fn label_in(label: &str, set: &[&str]) -> bool {
    set.contains(&label)
        || (parts(label).nth(1).is_some() && parts(label).all(|p| set.contains(&p)))
}

/// The kind a label names, `None` when it is not a summary label. The label
/// is normalised first (see [`normalise`]); a rate or a currency code
/// written with it must be removed before (see [`stated_kind`]). Allocates
/// nothing: the normalised label is built on the stack.
pub fn kind(label: &str) -> Option<SummaryKind> {
    let mut buf = [0u8; MAX_LABEL_BYTES];
    let mut n = 0;
    let mut space = false;
    let t = label
        .trim()
        .trim_end_matches([':', '：', '.', ' ', '\u{3000}']);
    for c in t.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space {
            if n + 1 > MAX_LABEL_BYTES {
                return None;
            }
            buf[n] = b' ';
            n += 1;
            space = false;
        }
        // Lowercase as `normalise` does: `Итого`, `ÖDENECEK` too, not only
        // ASCII (one character may lower to more than one).
        let mut push = |c: char| {
            let mut utf8 = [0u8; 4];
            let bytes = c.encode_utf8(&mut utf8).as_bytes();
            let fits = n + bytes.len() <= MAX_LABEL_BYTES;
            if fits {
                buf[n..n + bytes.len()].copy_from_slice(bytes);
                n += bytes.len();
            }
            fits
        };
        let fits = if c.is_ascii() {
            push(c.to_ascii_lowercase())
        } else {
            c.to_lowercase().all(&mut push)
        };
        if !fits {
            return None;
        }
    }
    // Whole characters were copied: the buffer is UTF-8.
    let l = std::str::from_utf8(&buf[..n]).ok()?;
    let table = table();
    if let Some(k) = table.get(l) {
        return Some(*k);
    }
    // A bilingual label: every part of one kind.
    let mut kinds = parts(l).map(|p| table.get(p).copied());
    let first = kinds.next()??;
    let mut count = 1;
    for k in kinds {
        if k != Some(first) {
            return None;
        }
        count += 1;
    }
    (count > 1).then_some(first)
}

/// The kind a label names, tolerating what a bill writes beside it: a group
/// in brackets (`Tax (8%)`, `税额（6%）`), a bare percentage (`VAT 20%`,
/// `Tax @ 8%`) and a last word that `is_currency` accepts (`Total USD`).
/// Allocates only for a label with a bracket, `%` or `@` in it.
pub fn stated_kind(label: &str, is_currency: impl Fn(&str) -> bool) -> Option<SummaryKind> {
    let t = label.trim();
    if t.len() > 2 * MAX_LABEL_BYTES {
        return None;
    }
    if let Some(k) = kind(t) {
        return Some(k);
    }
    let stripped;
    let t = if t.contains(['(', '[', '（', '【', '%', '@']) {
        stripped = strip_rate(t);
        if let Some(k) = kind(&stripped) {
            return Some(k);
        }
        stripped.as_str()
    } else {
        t
    };
    // `Total USD`: the label is asked about first, the currency only then.
    let (head, last) = t.trim_end().rsplit_once(char::is_whitespace)?;
    kind(head).filter(|_| is_currency(last))
}

/// The label without bracket groups, rates and `@`.
fn strip_rate(label: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in label.chars() {
        match c {
            '(' | '[' | '（' | '【' => depth += 1,
            ')' | ']' | '）' | '】' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    // A rate is `20%`, `%20` (Turkish), `21 %` (Czech, French) or `@`.
    let words: Vec<&str> = out.split_whitespace().collect();
    let number = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    };
    let rate = |i: usize| {
        let w = words[i];
        w.ends_with('%')
            || w == "@"
            || w.strip_prefix('%').is_some_and(number)
            || (number(w) && words.get(i + 1) == Some(&"%"))
    };
    (0..words.len())
        .filter(|&i| !rate(i))
        .map(|i| words[i])
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
