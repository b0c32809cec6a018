//! The settle pass: what the whole invoice says about its lines once every
//! line is read (restated sub-lines, totals printed twice, VAT included).

use super::*;

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
                            // `period 2025-10-01 to 2025-10-31`: the item's own.
                            if item.start.is_none() {
                                if let Some((s, e)) = line::period_in(&text) {
                                    (item.start, item.end) = (Some(s), Some(e));
                                }
                            }
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
            // A continuation line of the item's description (`Service ID
            // svc-322699, period 2025-10-01 to 2025-10-31`) may stand
            // between the item and its sub-lines: it keeps the item open.
            LineKind::Header(HeaderField::Continuation) if parent.is_some() => {
                prev_line = l.line;
                continue;
            }
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
    // 3c. Charges printed several times, provably: the reading that
    // reconciles.
    reconcile::reconcile(inv);
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
pub(super) fn noted_currency(text: &str) -> Option<String> {
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

/// An item description starting with one of these, indented under an item,
/// is a part already included in it.
pub(super) const INCLUDED_PREFIXES: &[&str] =
    &["incl.", "incl ", "inkl.", "including ", "included "];
