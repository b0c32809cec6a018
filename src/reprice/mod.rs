//! `billaudit reprice`: what the GPU compute of a bill would cost at other
//! platforms, from a price book.
//!
//! The bill's usage ([`GpuUsage`]: GPU-hours per model, days used, the span
//! of the run) is priced at every platform of the book under each plan the
//! platform lists for that model (hourly, daily, monthly), and the cheapest
//! plan is kept. Money stays `Decimal` throughout; costs are rounded to
//! cents only for display. See `docs/reprice.md`.

pub mod human;
pub mod json;

use std::collections::BTreeMap;
use std::fmt;

use rust_decimal::Decimal;

use crate::audit::usage::gpu_model;
use crate::audit::{Bill, GpuUsage};

/// A billing plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Plan {
    Hourly,
    Daily,
    Monthly,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Hourly => "hourly",
            Plan::Daily => "daily",
            Plan::Monthly => "monthly",
        }
    }

    fn parse(s: &str) -> Option<Plan> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hourly" | "hour" | "per-hour" => Some(Plan::Hourly),
            "daily" | "day" | "per-day" => Some(Plan::Daily),
            "monthly" | "month" | "per-month" => Some(Plan::Monthly),
            _ => None,
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A month of a monthly plan, in days and in hours.
pub const MONTH_DAYS: i64 = 30;

/// One published price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Price {
    /// Canonical GPU model (`RTX 4090`).
    pub gpu: String,
    /// Which of the model's variants the price is for (`SXM 80 GB`), when
    /// the book says; printed with the price.
    pub variant: Option<String>,
    pub plan: Plan,
    /// Per GPU per hour, day or month.
    pub price: Decimal,
    pub source: String,
    pub date: String,
}

/// A fee the platform charges on top, when the book lists one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fee {
    pub name: String,
    /// `hour` (per GPU-hour), `day` (per day used), `month`, or `once`.
    pub per: String,
    pub price: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Platform {
    pub name: String,
    pub currency: String,
    pub prices: Vec<Price>,
    pub fees: Vec<Fee>,
}

/// A price book (`examples/platforms-2025.toml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceBook {
    pub platforms: Vec<Platform>,
}

/// A price book that cannot be used, with where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct BookError {
    pub path: String,
    pub message: String,
}

fn money(v: Option<&toml::Value>, what: &str) -> Result<Decimal, String> {
    match v {
        Some(toml::Value::String(s)) => s
            .trim()
            .parse::<Decimal>()
            .map_err(|_| format!("{what}: `{s}` is not a number")),
        Some(toml::Value::Integer(i)) => Ok(Decimal::from(*i)),
        Some(toml::Value::Float(f)) => Err(format!(
            "{what}: write the price as a string (`\"{f}\"`) so it is read exactly"
        )),
        Some(_) => Err(format!("{what}: not a number")),
        None => Err(format!("{what}: missing")),
    }
}

fn text(t: &toml::Table, key: &str) -> Option<String> {
    t.get(key)
        .and_then(|v| v.as_str())
        .map(|s| s.trim().to_string())
}

impl PriceBook {
    /// Reads a price book. Every price must name its source and date, on
    /// the entry or inherited from its platform.
    pub fn parse(path: &str, src: &str) -> Result<PriceBook, BookError> {
        let err = |message: String| BookError {
            path: path.to_string(),
            message,
        };
        let doc: toml::Table = src
            .parse()
            .map_err(|e: toml::de::Error| err(e.to_string()))?;
        let default_currency = text(&doc, "currency");
        let Some(list) = doc.get("platform").and_then(|v| v.as_array()) else {
            return Err(err("no [[platform]] entries".into()));
        };
        let mut platforms = Vec::new();
        for (i, p) in list.iter().enumerate() {
            let Some(p) = p.as_table() else {
                return Err(err(format!("platform {}: not a table", i + 1)));
            };
            let name =
                text(p, "name").ok_or_else(|| err(format!("platform {}: no name", i + 1)))?;
            let at = |m: String| err(format!("platform `{name}`: {m}"));
            let currency = text(p, "currency")
                .or_else(|| default_currency.clone())
                .ok_or_else(|| {
                    at("no currency (set `currency` on the platform or the book)".into())
                })?
                .to_uppercase();
            let psource = text(p, "source");
            let pdate = text(p, "date");
            let mut prices = Vec::new();
            for (j, e) in tables(p, "price").map_err(at)?.into_iter().enumerate() {
                let what = format!("price {}", j + 1);
                let gpu_text = text(e, "gpu").ok_or_else(|| at(format!("{what}: no `gpu`")))?;
                let gpu = gpu_model(&gpu_text)
                    .map(str::to_string)
                    .unwrap_or(gpu_text.clone());
                let plan_text = text(e, "plan").unwrap_or_default();
                let plan = Plan::parse(&plan_text).ok_or_else(|| {
                    at(format!(
                        "{what}: plan `{plan_text}` (expected hourly, daily or monthly)"
                    ))
                })?;
                let price = money(e.get("price"), &what).map_err(at)?;
                if price.is_sign_negative() {
                    return Err(at(format!("{what}: negative price")));
                }
                let source = text(e, "source")
                    .or_else(|| psource.clone())
                    .ok_or_else(|| at(format!("{what}: no `source`")))?;
                let date = text(e, "date")
                    .or_else(|| pdate.clone())
                    .ok_or_else(|| at(format!("{what}: no `date`")))?;
                prices.push(Price {
                    gpu,
                    variant: text(e, "variant").filter(|v| !v.is_empty()),
                    plan,
                    price,
                    source,
                    date,
                });
            }
            let mut fees = Vec::new();
            for (j, e) in tables(p, "fee").map_err(at)?.into_iter().enumerate() {
                let what = format!("fee {}", j + 1);
                let per = text(e, "per").unwrap_or_default().to_ascii_lowercase();
                if !matches!(per.as_str(), "hour" | "day" | "month" | "once") {
                    return Err(at(format!(
                        "{what}: per `{per}` (expected hour, day, month or once)"
                    )));
                }
                fees.push(Fee {
                    name: text(e, "name").unwrap_or_else(|| what.clone()),
                    per,
                    price: money(e.get("price"), &what).map_err(at)?,
                });
            }
            platforms.push(Platform {
                name,
                currency,
                prices,
                fees,
            });
        }
        Ok(PriceBook { platforms })
    }

    /// The price book built into billaudit (`src/reprice/prices.toml`):
    /// list prices of the GPUs people rent on the platforms they compare,
    /// each with its pricing page and date. Used when no `--prices` is given.
    pub fn builtin() -> PriceBook {
        // The file is part of the binary and parsed by a unit test, so this
        // cannot fail at run time; an empty book is the safe fallback.
        PriceBook::parse(BUILTIN_NAME, BUILTIN).unwrap_or(PriceBook {
            platforms: Vec::new(),
        })
    }

    /// Adds another book's platforms after this one's (`--add-prices`).
    pub fn extend(&mut self, other: PriceBook) {
        self.platforms.extend(other.platforms);
    }
}

/// The built-in price book's text and the name its errors and sources use.
pub const BUILTIN: &str = include_str!("prices.toml");
pub const BUILTIN_NAME: &str = "built-in price book";

/// Whole units of size `per` needed to hold `x`: the ceiling, at least 1.
fn ceil_units(x: Decimal, per: Decimal) -> Decimal {
    x.checked_div(per)
        .map_or(Decimal::ONE, |q| q.ceil())
        .max(Decimal::ONE)
}

/// How one model was priced at one platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelQuote {
    pub gpu: String,
    pub variant: Option<String>,
    pub plan: Plan,
    /// Plan units bought per GPU card: hours, days or months.
    pub units: Decimal,
    /// GPU cards needed to hold the hours in those units (1 for hourly).
    pub cards: Decimal,
    pub price: Decimal,
    pub cost: Decimal,
    pub source: String,
    pub date: String,
}

/// One platform's price for the bill's GPU usage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    pub platform: String,
    pub currency: String,
    pub models: Vec<ModelQuote>,
    /// Listed fees, priced.
    pub fees: Vec<(String, Decimal)>,
    /// Models the platform has no price for.
    pub missing: Vec<String>,
    /// Sum of models and fees.
    pub cost: Decimal,
    /// What the bill paid for the models priced here.
    pub paid: Decimal,
    /// cost - paid, when the currencies agree (or the bill has none).
    pub difference: Option<Decimal>,
}

/// The usage pattern plans are sized on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    pub hours: Decimal,
    /// Distinct days with use (from dates; else hours / 24 rounded up).
    pub days: Decimal,
    /// Days from the first start to the last end (rounded up; else hours / 24).
    pub span_days: Decimal,
}

impl Pattern {
    pub fn of(u: &GpuUsage) -> Pattern {
        let by_hours = ceil_units(u.hours, Decimal::from(24));
        // Lines dated by one day only (no end time) can hold more hours
        // than that day: size them as one card running the hours.
        let open = u.timed_lines < u.lines;
        let days = if u.days == 0 {
            by_hours
        } else if open {
            Decimal::from(u.days).max(by_hours)
        } else {
            Decimal::from(u.days)
        };
        let span_days = match (u.first, u.last) {
            (Some(a), Some(b)) if b > a => {
                ceil_units(Decimal::from((b - a).num_seconds()), Decimal::from(86_400))
            }
            (Some(_), Some(_)) => Decimal::ONE,
            _ => by_hours,
        };
        let span_days = if open { span_days.max(days) } else { span_days };
        Pattern {
            hours: u.hours,
            days,
            span_days,
        }
    }

    /// Units and cards of a plan: hourly buys the hours; daily buys the days
    /// used, with as many cards as it takes to fit the hours in them;
    /// monthly buys 30-day months over the span, likewise.
    pub fn size(&self, plan: Plan) -> (Decimal, Decimal) {
        match plan {
            Plan::Hourly => (self.hours, Decimal::ONE),
            Plan::Daily => {
                let cards = ceil_units(self.hours, self.days.saturating_mul(Decimal::from(24)));
                (self.days, cards)
            }
            Plan::Monthly => {
                let months = ceil_units(self.span_days, Decimal::from(MONTH_DAYS));
                let cards = ceil_units(
                    self.hours,
                    months.saturating_mul(Decimal::from(MONTH_DAYS * 24)),
                );
                (months, cards)
            }
        }
    }
}

/// Prices one bill's GPU usage at every platform, cheapest first. Platforms
/// that price none of the bill's models are left out.
pub fn quote(usage: &[GpuUsage], bill_currency: Option<&str>, book: &PriceBook) -> Vec<Quote> {
    let mut quotes = Vec::new();
    for p in &book.platforms {
        let mut models = Vec::new();
        let mut missing = Vec::new();
        let mut paid = Decimal::ZERO;
        let mut months = Decimal::ZERO;
        let mut days = Decimal::ZERO;
        let mut hours = Decimal::ZERO;
        for u in usage.iter().filter(|u| u.hours > Decimal::ZERO) {
            let pattern = Pattern::of(u);
            let best = p
                .prices
                .iter()
                .filter(|pr| pr.gpu == u.model)
                .filter_map(|pr| {
                    let (units, cards) = pattern.size(pr.plan);
                    let cost = pr.price.checked_mul(units)?.checked_mul(cards)?;
                    Some(ModelQuote {
                        gpu: u.model.clone(),
                        variant: pr.variant.clone(),
                        plan: pr.plan,
                        units,
                        cards,
                        price: pr.price,
                        cost,
                        source: pr.source.clone(),
                        date: pr.date.clone(),
                    })
                })
                .min_by(|a, b| a.cost.cmp(&b.cost).then(a.plan.cmp(&b.plan)));
            match best {
                Some(q) => {
                    paid = paid.saturating_add(u.paid);
                    hours = hours.saturating_add(u.hours);
                    days = days.max(pattern.days);
                    months = months.max(pattern.size(Plan::Monthly).0);
                    models.push(q);
                }
                None => missing.push(u.model.clone()),
            }
        }
        if models.is_empty() {
            continue;
        }
        let fees: Vec<(String, Decimal)> = p
            .fees
            .iter()
            .map(|f| {
                let n = match f.per.as_str() {
                    "hour" => hours,
                    "day" => days,
                    "month" => months,
                    _ => Decimal::ONE,
                };
                (f.name.clone(), f.price.saturating_mul(n))
            })
            .collect();
        let cost = models
            .iter()
            .map(|m| m.cost)
            .chain(fees.iter().map(|f| f.1))
            .fold(Decimal::ZERO, Decimal::saturating_add);
        // A bill of unknown currency is compared with no platform: its
        // money may be in any currency (`--currency` says which).
        let same_currency = bill_currency.is_some_and(|c| c.eq_ignore_ascii_case(&p.currency));
        quotes.push(Quote {
            platform: p.name.clone(),
            currency: p.currency.clone(),
            models,
            fees,
            missing,
            cost,
            paid,
            difference: same_currency.then(|| cost.saturating_sub(paid)),
        });
    }
    quotes.sort_by(|a, b| {
        a.missing
            .len()
            .cmp(&b.missing.len())
            .then(a.cost.cmp(&b.cost))
            .then(a.platform.cmp(&b.platform))
    });
    quotes
}

/// The assumptions every reprice table states.
pub fn assumptions(bill: &Bill) -> Vec<String> {
    let mut a = vec![
        "Only GPU compute is repriced: storage, traffic, scheduling and other hidden fees are not included unless the price book lists them as fees.".to_string(),
        "GPU-hours are the bill's quantities converted from their units (hours, days); a line billed per instance counts one GPU per instance unless its quantity says otherwise.".to_string(),
        "Each platform gets the cheapest of its plans for the usage: hourly pays the hours; daily pays each day used (with as many cards as the hours need); monthly pays 30-day months over the span of the run.".to_string(),
        "Prices are as published on the date shown; price books age, so check the platform before deciding.".to_string(),
    ];
    if bill.currency.is_none() {
        a.push("The bill states no currency, so no difference from what was paid is given: pass --currency CODE (or set `currency` in billaudit.toml).".into());
    }
    let unpriced: u64 = bill.gpu_usage.iter().map(|u| u.unpriced_lines).sum();
    if unpriced > 0 {
        a.push(format!(
            "{unpriced} GPU line(s) have no quantity in a time unit and are not repriced (their amounts are not in `paid`)."
        ));
    }
    let open = bill
        .gpu_usage
        .iter()
        .any(|u| u.timed_lines < u.lines && u.hours > Decimal::ZERO);
    if open {
        a.push("Some GPU lines have no start and end time: their days are taken as at least the hours on one card (24 hours a day), and a monthly plan as 30 such days.".into());
    }
    a
}

/// One bill repriced.
#[derive(Debug, Clone)]
pub struct Repriced<'b> {
    pub bill: &'b Bill,
    pub quotes: Vec<Quote>,
    pub assumptions: Vec<String>,
}

pub fn reprice<'b>(bills: &'b [Bill], book: &PriceBook) -> Vec<Repriced<'b>> {
    bills
        .iter()
        .map(|b| {
            let quotes = quote(&b.gpu_usage, b.currency.as_deref(), book);
            let mut assumptions = assumptions(b);
            if quotes.iter().any(|q| !q.missing.is_empty()) {
                assumptions.push("A platform without a price for one of the bill's GPU models is compared on the models it prices: its cost and what was paid for them.".into());
            }
            Repriced {
                bill: b,
                quotes,
                assumptions,
            }
        })
        .collect()
}

/// Money for the table: rounded half away from zero to cents.
pub fn cents(d: Decimal) -> Decimal {
    let mut r = d.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    r.rescale(2);
    r
}

/// Usage totals of one bill, for the header of the table.
pub fn usage_lines(bill: &Bill) -> Vec<String> {
    let mut out = Vec::new();
    let by_model: BTreeMap<&str, &GpuUsage> = bill
        .gpu_usage
        .iter()
        .map(|u| (u.model.as_str(), u))
        .collect();
    for (model, u) in by_model {
        let span = match (u.first, u.last) {
            (Some(a), Some(b)) => format!(
                ", {} to {}",
                a.format("%Y-%m-%d %H:%M"),
                b.format("%Y-%m-%d %H:%M")
            ),
            _ => String::new(),
        };
        if u.lines == 0 {
            out.push(format!(
                "{model}: {} line(s) without a quantity in hours or days, not repriced",
                u.unpriced_lines
            ));
            continue;
        }
        // The days the plans are sized on, not only the dated ones: lines
        // without an end time (or without dates) hold at least the hours on
        // one card, and the line says so.
        let pattern = Pattern::of(u);
        let days = if pattern.days == Decimal::from(u.days) {
            format!("{} day(s)", u.days)
        } else if u.days == 0 {
            format!(
                "{} day(s) (no dates: at least {} h on one card, 24 h a day)",
                pattern.days,
                u.hours.normalize()
            )
        } else {
            format!(
                "{} day(s) ({} dated; at least {} h on one card, 24 h a day)",
                pattern.days,
                u.days,
                u.hours.normalize()
            )
        };
        out.push(format!(
            "{model}: {} GPU-hours on {days}{span} ({} line(s)); paid {}",
            u.hours.normalize(),
            u.lines,
            crate::audit::money(u.paid, bill.currency.as_deref())
        ));
    }
    out
}

/// The entries of an array of tables (`[[platform.price]]`), in order; `key`
/// absent is no entries, an entry that is not a table is an error.
fn tables<'a>(parent: &'a toml::Table, key: &str) -> Result<Vec<&'a toml::Table>, String> {
    parent
        .get(key)
        .and_then(|v| v.as_array())
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(j, e)| {
            e.as_table()
                .ok_or_else(|| format!("{key} {}: not a table", j + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_sized_on_the_pattern() {
        let p = Pattern {
            hours: Decimal::from(720),
            days: Decimal::from(30),
            span_days: Decimal::from(30),
        };
        assert_eq!(p.size(Plan::Hourly), (Decimal::from(720), Decimal::ONE));
        assert_eq!(p.size(Plan::Daily), (Decimal::from(30), Decimal::ONE));
        assert_eq!(p.size(Plan::Monthly), (Decimal::ONE, Decimal::ONE));
        // Two cards' worth of hours in one day.
        let p = Pattern {
            hours: Decimal::from(40),
            days: Decimal::ONE,
            span_days: Decimal::ONE,
        };
        assert_eq!(p.size(Plan::Daily), (Decimal::ONE, Decimal::from(2)));
    }

    #[test]
    fn the_built_in_book_parses_and_every_price_is_sourced_and_dated() {
        let b = PriceBook::parse(BUILTIN_NAME, BUILTIN).unwrap();
        assert_eq!(PriceBook::builtin(), b);
        assert!(b.platforms.iter().any(|p| p.currency == "USD"));
        assert!(b.platforms.iter().any(|p| p.currency == "CNY"));
        for p in &b.platforms {
            for pr in &p.prices {
                assert!(!pr.source.is_empty() && !pr.date.is_empty(), "{}", p.name);
            }
        }
        // CoreWeave's HGX H100: 49.24 per hour for 8 GPUs = 6.155 each.
        let cw = b.platforms.iter().find(|p| p.name == "CoreWeave").unwrap();
        let h100 = cw.prices.iter().find(|p| p.gpu == "H100").unwrap();
        assert_eq!(
            h100.price,
            "49.24".parse::<Decimal>().unwrap() / Decimal::from(8)
        );
        // Every model the book names is one the bills are read for.
        for p in &b.platforms {
            for pr in &p.prices {
                assert_eq!(gpu_model(&pr.gpu), Some(pr.gpu.as_str()), "{}", pr.gpu);
            }
        }
    }

    #[test]
    fn books_need_source_date_and_exact_prices() {
        let ok = "currency = \"CNY\"\n[[platform]]\nname = \"x\"\nsource = \"s\"\ndate = \"2025\"\n[[platform.price]]\ngpu = \"RTX 4090\"\nplan = \"hourly\"\nprice = \"1.70\"\n";
        let b = PriceBook::parse("b.toml", ok).unwrap();
        assert_eq!(b.platforms[0].prices[0].gpu, "RTX 4090");
        assert_eq!(b.platforms[0].prices[0].price, Decimal::new(170, 2));
        let float = ok.replace("\"1.70\"", "1.70");
        assert!(
            PriceBook::parse("b.toml", &float)
                .unwrap_err()
                .message
                .contains("string")
        );
        let undated = ok.replace("date = \"2025\"\n", "");
        assert!(
            PriceBook::parse("b.toml", &undated)
                .unwrap_err()
                .message
                .contains("date")
        );
        assert!(PriceBook::parse("b.toml", "x = [").is_err());
        assert!(PriceBook::parse("b.toml", "").is_err());
    }
}
