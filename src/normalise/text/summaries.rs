//! Summary lines (`Subtotal`, `VAT 21%`, `Total EUR`): their labels, kinds
//! and rates.

use super::*;

/// A label without a currency code after it: `Übertrag EUR` is `Übertrag`.
pub(super) fn strip_code(label: &str) -> &str {
    match label.trim_end().rsplit_once(' ') {
        Some((head, last)) if currency_code(last).is_some() => head,
        _ => label,
    }
}

/// Lowercase, single spaces, no trailing `:`.
pub(super) fn norm_label(s: &str) -> String {
    let s = s.trim().trim_end_matches([':', '.', ' ']).to_lowercase();
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Removes bracket groups and a bare percentage; returns the rate they held.
pub(super) fn strip_brackets(label: &str) -> (String, Option<Decimal>) {
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

pub(super) fn find_percent(s: &str) -> Option<Decimal> {
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
pub(super) fn label_is(label: &str, set: &[&str]) -> bool {
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
pub(super) fn summary(line_no: u64, line: &str) -> Option<Summary> {
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
