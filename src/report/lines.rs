//! `billaudit lines`: one row per line item, with the rule that classified
//! it, streamed as items go by (nothing is stored).

use serde::Serialize;

use std::fmt::Write;

use super::csv::safe_cell;
use super::paint::{Paint, Styled, Tone};
use super::term_text;
use crate::model::LineItem;

/// Output formats of `billaudit lines`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinesFormat {
    #[default]
    Human,
    Csv,
    /// One JSON array, written item by item.
    Json,
}

#[derive(Serialize)]
struct JsonLine<'a> {
    path: &'a str,
    line: u64,
    category: &'a str,
    amount: String,
    currency: Option<&'a str>,
    rule: &'a str,
    description: &'a str,
}

/// What comes before the first item.
pub fn header(format: LinesFormat) -> String {
    match format {
        LinesFormat::Human => String::new(),
        LinesFormat::Csv => "path,line,category,amount,currency,rule,description\n".into(),
        LinesFormat::Json => "[".into(),
    }
}

/// One item; `first` is true for the first item written. In the human
/// format with [`Paint::Ansi`], a hidden-fee category is in the caution
/// colour; CSV and JSON are never painted.
pub fn item(format: LinesFormat, path: &str, item: &LineItem, first: bool, paint: Paint) -> String {
    match format {
        // Bill text is escaped for the terminal (`\u{1b}`); CSV and JSON
        // keep it as the bill wrote it.
        LinesFormat::Human => {
            let loc = format!("{}:{}", term_text(path), item.line);
            let amount = match &item.currency {
                Some(c) => format!("{} {}", item.amount, term_text(c)),
                None => item.amount.to_string(),
            };
            let mut out = Styled::new();
            let category = item.category.as_str();
            let _ = write!(out, "{loc:<28} ");
            if item.category.is_hidden() {
                out.tone(Tone::Caution, category);
            } else {
                out.push(category);
            }
            let _ = writeln!(
                out,
                "{} {amount:>14}  {:<28} {}",
                " ".repeat(15usize.saturating_sub(category.len())),
                term_text(&item.rule),
                term_text(&item.description)
            );
            out.finish(paint)
        }
        LinesFormat::Csv => {
            let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
            let cells = [
                path.to_string(),
                item.line.to_string(),
                item.category.as_str().to_string(),
                item.amount.to_string(),
                item.currency.clone().unwrap_or_default(),
                item.rule.to_string(),
                item.description.clone(),
            ];
            let _ = w.write_record(cells.iter().map(|c| safe_cell(c)));
            w.into_inner()
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default()
        }
        LinesFormat::Json => {
            let j = JsonLine {
                path,
                line: item.line,
                category: item.category.as_str(),
                amount: item.amount.to_string(),
                currency: item.currency.as_deref(),
                rule: &item.rule,
                description: &item.description,
            };
            let body = serde_json::to_string(&j).unwrap_or_default();
            format!("{}\n  {body}", if first { "" } else { "," })
        }
    }
}

/// What comes after the last item.
pub fn footer(format: LinesFormat, any: bool) -> String {
    match format {
        LinesFormat::Json if any => "\n]\n".into(),
        LinesFormat::Json => "]\n".into(),
        _ => String::new(),
    }
}
