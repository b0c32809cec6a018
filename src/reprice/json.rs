//! The reprice result as JSON (`--format json`): a documented contract,
//! money as decimal strings (docs/reprice.md).

use serde::Serialize;

use super::{Repriced, cents};

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct JsonReprice {
    pub schema_version: u32,
    pub bills: Vec<JsonBill>,
}

#[derive(Debug, Serialize)]
pub struct JsonBill {
    pub path: String,
    pub currency: Option<String>,
    pub usage: Vec<JsonUsage>,
    pub quotes: Vec<JsonQuote>,
    pub assumptions: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct JsonUsage {
    pub gpu: String,
    pub hours: String,
    pub days: u64,
    pub first: Option<String>,
    pub last: Option<String>,
    pub lines: u64,
    pub paid: String,
}

#[derive(Debug, Serialize)]
pub struct JsonQuote {
    pub platform: String,
    pub currency: String,
    /// Rounded to cents.
    pub cost: String,
    pub paid: String,
    /// cost - paid, rounded to cents; null when the currencies differ.
    pub difference: Option<String>,
    pub models: Vec<JsonModel>,
    pub fees: Vec<JsonFee>,
    pub missing: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct JsonModel {
    pub gpu: String,
    /// The variant the price is for (`SXM 80 GB`), `null` when the book
    /// names none.
    pub variant: Option<String>,
    pub plan: String,
    pub units: String,
    pub cards: String,
    pub price: String,
    pub cost: String,
    pub source: String,
    pub date: String,
}

#[derive(Debug, Serialize)]
pub struct JsonFee {
    pub name: String,
    pub cost: String,
}

pub fn to_json(all: &[Repriced<'_>]) -> JsonReprice {
    JsonReprice {
        schema_version: SCHEMA_VERSION,
        bills: all
            .iter()
            .map(|r| JsonBill {
                path: r.bill.path.clone(),
                currency: r.bill.currency.clone(),
                usage: r
                    .bill
                    .gpu_usage
                    .iter()
                    .map(|u| JsonUsage {
                        gpu: u.model.clone(),
                        hours: u.hours.normalize().to_string(),
                        days: u.days,
                        first: u.first.map(|d| d.format("%Y-%m-%dT%H:%M:%S").to_string()),
                        last: u.last.map(|d| d.format("%Y-%m-%dT%H:%M:%S").to_string()),
                        lines: u.lines,
                        paid: u.paid.to_string(),
                    })
                    .collect(),
                quotes: r
                    .quotes
                    .iter()
                    .map(|q| JsonQuote {
                        platform: q.platform.clone(),
                        currency: q.currency.clone(),
                        cost: cents(q.cost).to_string(),
                        paid: q.paid.to_string(),
                        difference: q.difference.map(|d| cents(d).to_string()),
                        models: q
                            .models
                            .iter()
                            .map(|m| JsonModel {
                                gpu: m.gpu.clone(),
                                variant: m.variant.clone(),
                                plan: m.plan.as_str().into(),
                                units: m.units.normalize().to_string(),
                                cards: m.cards.normalize().to_string(),
                                price: m.price.to_string(),
                                cost: m.cost.to_string(),
                                source: m.source.clone(),
                                date: m.date.clone(),
                            })
                            .collect(),
                        fees: q
                            .fees
                            .iter()
                            .map(|(n, c)| JsonFee {
                                name: n.clone(),
                                cost: c.to_string(),
                            })
                            .collect(),
                        missing: q.missing.clone(),
                    })
                    .collect(),
                assumptions: r.assumptions.clone(),
            })
            .collect(),
    }
}

pub fn render(all: &[Repriced<'_>]) -> String {
    let mut s = serde_json::to_string_pretty(&to_json(all)).unwrap_or_default();
    s.push('\n');
    s
}
