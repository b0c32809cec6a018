//! Item lines: a description with a leader (`Storage ..... $20.00`) or in
//! columns (description, quantity, unit, rate, amount).

use super::*;

/// `Filesystem storage 1 TB ........ $20.00`.
pub(super) fn leader_item(line_no: u64, line: &str) -> Option<Result<TextItem, Unparsed>> {
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
        return Some(Ok(described_item(line_no, line, desc, amount_text, amount)));
    }
    None
}

/// An item of a description and an amount alone (a leader line, an amount
/// after a single space); an `N unit @ rate` in the description is read.
fn described_item(
    line_no: u64,
    line: &str,
    desc: &str,
    amount_text: &str,
    amount: Money,
) -> TextItem {
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
    item
}

pub(super) fn apply_at_rate(item: &mut TextItem) {
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
pub(super) fn column_item(
    line_no: u64,
    line: &str,
    bare_ok: bool,
) -> Option<Result<TextItem, Unparsed>> {
    let (_, cells) = grammar::cells(line).ok()?;
    let mut cells = join_marks(line, cells);
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

/// An amount after a single space (`Item purchase $80.80`), read as the
/// line's amount where the column heading's amount column puts it, or where
/// it is the line's only money and carries a currency mark. The label before
/// it is the description (an `N unit @ rate` in it is read as for a leader
/// line). `None` for any other line.
pub(super) fn single_space_item(line_no: u64, line: &str, inv: &Invoice) -> Option<TextItem> {
    let (label, amount_text, amount) = grammar::trailing_amount(line)?;
    // Only a space between them: `Key: $5.00` and leaders are read elsewhere.
    let between =
        line.get(column_offset(line, label) + label.len()..column_offset(line, amount_text))?;
    if between.is_empty() || !between.chars().all(|c| c == ' ') {
        return None;
    }
    if !label.chars().any(char::is_alphabetic) || amount.value.is_zero() {
        return None;
    }
    let start = column_of(line, amount_text);
    let end = start + amount_text.chars().count() - 1;
    let under_heading = inv
        .amount_heading
        .is_some_and(|(h0, h1)| start <= h1 && end >= h0);
    let only_money = amount.currency.is_some()
        && label.split_whitespace().all(|w| {
            all_consuming(grammar::amount).parse(w).is_err()
                && !w.chars().any(crate::vocab::currency::is_symbol_char)
        });
    if !(under_heading || only_money) {
        return None;
    }
    Some(described_item(line_no, line, label, amount_text, amount))
}

fn column_offset(line: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize)
}

/// The cells of a line with a currency mark printed in a column of its own
/// joined to the number beside it (`$   5.10` is `$ 5.10`, `5.10   EUR` is
/// `5.10 EUR`), as `pdftotext -layout` writes a right-aligned amount whose
/// symbol is left-aligned. The joined cell is a sub-slice of `line`.
pub(super) fn join_marks<'a>(line: &'a str, cells: Vec<&'a str>) -> Vec<&'a str> {
    let offset = |c: &str| (c.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    let span = |a: &str, b: &str| line.get(offset(a)..offset(b) + b.len());
    let number = |c: &str| {
        c.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-' || ch == '(')
            && all_consuming(grammar::money).parse(c).is_ok()
    };
    let mut out: Vec<&'a str> = Vec::with_capacity(cells.len());
    let mut i = 0;
    while i < cells.len() {
        let c = cells[i];
        let joined = match cells.get(i + 1) {
            Some(next) if grammar::is_currency_mark(c) && number(next) => span(c, next),
            _ => None,
        }
        .filter(|j| all_consuming(grammar::money).parse(j).is_ok());
        if let Some(j) = joined {
            out.push(j);
            i += 2;
            continue;
        }
        // `5.10   EUR`: the mark after the number, as the last column.
        let after = match (out.last(), i + 1 == cells.len()) {
            (Some(prev), true) if grammar::is_currency_mark(c) && number(prev) => span(prev, c),
            _ => None,
        }
        .filter(|j| all_consuming(grammar::money).parse(j).is_ok());
        match after {
            Some(j) => {
                out.pop();
                out.push(j);
            }
            None => out.push(c),
        }
        i += 1;
    }
    out
}
