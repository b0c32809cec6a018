//! A GCP credits cell read into its credits (moved out of
//! `normalise/mod.rs`, which holds the row normaliser).

use rust_decimal::Decimal;

use super::number::{self, Cell, DecimalMark, parse_number};

/// Reads a credits cell: `[]`, JSON `[{"name": "x", "amount": -1.23}]` or the
/// Python-style `[{'name': 'x', 'amount': -5e-06, 'full_name': None}]` that
/// flattened GCP exports carry. Returns `(name, amount)` per credit.
pub fn parse_credit_list(cell: &str, mark: DecimalMark) -> Result<Vec<(String, Decimal)>, String> {
    let t = cell.trim();
    if number::is_placeholder(t) || t == "[]" {
        return Ok(Vec::new());
    }
    if !(t.starts_with('[') && t.ends_with(']')) {
        return Err(format!(
            "`{}` is not a list of credits",
            t.chars().take(60).collect::<String>()
        ));
    }
    let mut out = Vec::new();
    for object in t.split('{').skip(1) {
        let amount = key_value(object, "amount")
            .ok_or_else(|| "a credit without an `amount`".to_string())?;
        let amount = match parse_number(amount, mark) {
            Ok(Cell::Value(d)) => d,
            Ok(Cell::Missing) => continue,
            Err(e) => return Err(format!("credit amount: {e}")),
        };
        let name = key_value(object, "name")
            .map(|n| n.trim_matches(['\'', '"']).to_string())
            .unwrap_or_else(|| "credit".into());
        out.push((name, amount));
    }
    Ok(out)
}

/// The raw value after `'key':` or `"key":` in one object of a credits list,
/// up to the next `,` or `}` outside quotes.
fn key_value<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    let mut rest = object;
    loop {
        let i = rest.find(key)?;
        let before = rest[..i].chars().last();
        let after = &rest[i + key.len()..];
        let quoted = matches!(before, Some('\'' | '"'))
            && after.starts_with(['\'', '"'])
            && after[1..].trim_start().starts_with(':');
        if quoted {
            let value = after[1..].trim_start()[1..].trim_start();
            let end = match value.chars().next() {
                Some(q @ ('\'' | '"')) => value[1..].find(q).map(|j| j + 2)?,
                _ => value.find([',', '}']).unwrap_or(value.len()),
            };
            return Some(value[..end].trim());
        }
        rest = after;
    }
}
