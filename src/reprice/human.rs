//! The reprice table for people.

use super::{Repriced, cents, usage_lines};

fn plan_text(q: &super::Quote) -> String {
    q.models
        .iter()
        .map(|m| {
            let cards = if m.cards > rust_decimal::Decimal::ONE {
                format!(" x {} cards", m.cards)
            } else {
                String::new()
            };
            let unit = match m.plan {
                super::Plan::Hourly => "h",
                super::Plan::Daily => "d",
                super::Plan::Monthly => "mo",
            };
            if q.models.len() > 1 {
                format!("{} {} {}{unit}{cards}", m.gpu, m.plan, m.units.normalize())
            } else {
                format!("{} {}{unit}{cards}", m.plan, m.units.normalize())
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn price_text(q: &super::Quote) -> String {
    q.models
        .iter()
        .map(|m| {
            let variant = m
                .variant
                .as_deref()
                .map(|v| format!(" ({v})"))
                .unwrap_or_default();
            format!(
                "{}{variant} {}/{} ({}, {})",
                m.gpu,
                m.price,
                match m.plan {
                    super::Plan::Hourly => "h",
                    super::Plan::Daily => "day",
                    super::Plan::Monthly => "month",
                },
                m.source,
                m.date
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

pub fn render(all: &[Repriced<'_>]) -> String {
    let mut s = String::new();
    for r in all {
        let b = r.bill;
        s.push_str(&format!(
            "{}  [{}{}]\n",
            b.path,
            b.format,
            b.currency
                .as_deref()
                .map(|c| format!(", {c}"))
                .unwrap_or_default()
        ));
        let usage = usage_lines(b);
        if usage.is_empty() {
            s.push_str("  no GPU compute recognised (no GPU model with hours in the bill)\n\n");
            continue;
        }
        for u in usage {
            s.push_str(&format!("  usage: {u}\n"));
        }
        if b.gpu_usage
            .iter()
            .all(|u| u.hours <= rust_decimal::Decimal::ZERO)
        {
            s.push_str("  no GPU-hours to reprice\n");
        } else if r.quotes.is_empty() {
            s.push_str("  no platform in the price book prices these GPU models\n");
        } else {
            let rows: Vec<[String; 5]> = r
                .quotes
                .iter()
                .map(|q| {
                    let mut cost = format!("{} {}", cents(q.cost), q.currency);
                    if !q.missing.is_empty() {
                        cost.push_str(&format!(" (no price for {})", q.missing.join(", ")));
                    }
                    let diff = match q.difference {
                        Some(d) => {
                            let d = cents(d);
                            if d.is_sign_positive() && !d.is_zero() {
                                format!("+{d}")
                            } else {
                                d.to_string()
                            }
                        }
                        None if b.currency.is_none() => "n/a (bill currency unknown)".into(),
                        None => "n/a (other currency)".into(),
                    };
                    [q.platform.clone(), plan_text(q), cost, diff, price_text(q)]
                })
                .collect();
            let head = [
                "platform",
                "plan",
                "cost",
                "vs paid",
                "price (source, date)",
            ];
            let mut w = head.map(|h| h.chars().count());
            for row in &rows {
                for (i, c) in row.iter().enumerate() {
                    w[i] = w[i].max(c.chars().count());
                }
            }
            let line = |cells: [&str; 5]| {
                let mut l = String::from("  ");
                for (i, c) in cells.iter().enumerate() {
                    if i == 4 {
                        l.push_str(c);
                    } else {
                        l.push_str(c);
                        l.push_str(&" ".repeat(w[i] - c.chars().count() + 2));
                    }
                }
                l.trim_end().to_string() + "\n"
            };
            s.push_str(&line(head));
            for (row, q) in rows.iter().zip(&r.quotes) {
                s.push_str(&line([&row[0], &row[1], &row[2], &row[3], &row[4]]));
                for (name, fee) in &q.fees {
                    s.push_str(&format!("    includes fee {name}: {}\n", cents(*fee)));
                }
            }
        }
        s.push_str("  assumptions:\n");
        for a in &r.assumptions {
            s.push_str(&format!("  - {a}\n"));
        }
        s.push('\n');
    }
    // Bill and price-book text (paths, model names, fee names) escaped for
    // the terminal; the table's own line feeds kept.
    crate::terminal::term_report(s)
}
