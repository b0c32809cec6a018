//! The overview of a batch: the hidden share per bill, ranked (chart and
//! table), and the hidden share per month summed per currency.

use std::collections::BTreeMap;

use maud::{Markup, html};
use rust_decimal::Decimal;

use super::bill::dating_notes;
use super::charts::{self, Series};
use super::text::{Text, bill_name, common_dir, cut_text, result_tag, status};
use super::{MAX_BILL_SECTIONS, MAX_OVERVIEW_BARS, MAX_OVERVIEW_ROWS, MAX_TREND_SERIES, dec};
use crate::audit::{Bill, percent, share};
use crate::expect::Report;

pub(super) fn section(report: &Report) -> Markup {
    let n = report.bills.len();
    let mut ranked: Vec<(usize, &Bill)> = report.bills.iter().enumerate().collect();
    // Highest share first; bills without a share last; input order on ties.
    ranked.sort_by(|(ia, a), (ib, b)| b.hidden_share.cmp(&a.hidden_share).then_with(|| ia.cmp(ib)));
    let dir = common_dir(&report.bills);
    let bars: Vec<&(usize, &Bill)> = ranked.iter().take(MAX_OVERVIEW_BARS).collect();
    html! {
        section #overview {
            h2 { "Overview" }
            figure {
                figcaption { "Hidden share per bill, highest first, against the threshold" }
                @if !dir.is_empty() {
                    p.muted { "Chart labels are paths under " code { (Text(dir)) } "." }
                }
                (charts::overview_bars(&bars, dir))
                @if n > MAX_OVERVIEW_BARS {
                    p.note {
                        "The chart shows the " (MAX_OVERVIEW_BARS) " highest of " (n) " bills; "
                        (n - MAX_OVERVIEW_BARS) " more not shown in the chart."
                    }
                }
                table #overview-table {
                    caption { "Hidden share per bill" }
                    thead {
                        tr {
                            th.num { "rank" } th { "bill" } th.num { "hidden fees" } th.num { "subtotal" }
                            th.num { "hidden share" } th.num { "threshold" } th { "hidden share is" } th { "result" }
                        }
                    }
                    tbody {
                        @for (rank, (i, b)) in ranked.iter().take(MAX_OVERVIEW_ROWS).enumerate() {
                            tr {
                                td.num { (rank + 1) }
                                td.text {
                                    @let name = cut_text(&bill_name(b), 90, false);
                                    @if *i < MAX_BILL_SECTIONS {
                                        a href={ "#bill-" (i + 1) } { (name) }
                                    } @else {
                                        (name)
                                    }
                                }
                                td.num { (dec(b.hidden)) }
                                td.num { (dec(b.subtotal)) }
                                td.num { (b.hidden_share.map_or_else(|| "n/a".to_string(), percent)) }
                                td.num { (percent(b.hidden_threshold)) }
                                td { (status(b)) }
                                td { (result_tag(b.passed)) }
                            }
                        }
                    }
                }
                @if n > MAX_OVERVIEW_ROWS {
                    p.note {
                        (n - MAX_OVERVIEW_ROWS) " more bills not shown in this table (only the "
                        (MAX_OVERVIEW_ROWS) " highest hidden shares are)."
                    }
                }
            }
            (trend(report))
        }
    }
}

/// `YYYY-MM` -> (hidden fees, subtotal).
type MonthSums = BTreeMap<String, (Decimal, Decimal)>;

/// Hidden fees and subtotal per month, summed over the bills of each
/// currency (sums across currencies would mean nothing).
fn trend(report: &Report) -> Markup {
    let mut by_cur: BTreeMap<String, MonthSums> = BTreeMap::new();
    let mut undated = 0u64;
    let mut untracked = 0u64;
    for b in &report.bills {
        undated += b.monthly.undated_items;
        untracked += b.monthly.untracked_items;
        if b.monthly.months.is_empty() {
            continue;
        }
        // A bill of unknown currency is a series of its own: two unknown
        // currencies may be two currencies.
        let cur = b
            .currency
            .clone()
            .unwrap_or_else(|| format!("currency unknown ({})", bill_name(b)));
        let series = by_cur.entry(cur).or_default();
        for m in &b.monthly.months {
            let slot = series.entry(m.month.clone()).or_default();
            slot.0 = slot.0.saturating_add(m.hidden);
            slot.1 = slot.1.saturating_add(m.subtotal);
        }
    }
    let caption = "Hidden share per month (line items' dates), per currency";
    if by_cur.is_empty() {
        return html! {
            figure {
                figcaption { (caption) }
                p.note { "No line item carries a date, so there is no trend per month." }
            }
        };
    }
    // The currencies with the most months are drawn; ties by name.
    let mut order: Vec<(&String, &MonthSums)> = by_cur.iter().collect();
    order.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(b.0)));
    let shown = &order[..order.len().min(MAX_TREND_SERIES)];
    let threshold = report
        .bills
        .first()
        .map_or(Decimal::new(5, 2), |b| b.hidden_threshold);
    let series: Vec<Series> = shown
        .iter()
        .map(|(name, months)| Series {
            name: (*name).clone(),
            points: months
                .iter()
                .map(|(m, (h, s))| (m.clone(), share(*h, *s)))
                .collect(),
        })
        .collect();
    let mut months: Vec<&String> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|(m, _)| m))
        .collect();
    months.sort();
    months.dedup();
    html! {
        figure {
            figcaption { (caption) }
            @if let [only] = months.as_slice() {
                p.note {
                    "Every dated line item falls in " (Text(only))
                    ": one month, so no trend to draw; the table has the figures."
                }
            } @else {
                (charts::trend("ov-trend", &series, threshold))
            }
            table #trend-table {
                caption { "Hidden share per month" }
                thead {
                    tr {
                        th { "currency" } th { "month" } th.num { "hidden fees" } th.num { "subtotal" }
                        th.num { "hidden share" }
                    }
                }
                tbody {
                    @for (name, months) in shown {
                        @for (m, (h, s)) in months.iter() {
                            tr {
                                td { (Text(name)) }
                                td { (Text(m)) }
                                td.num { (dec(*h)) }
                                td.num { (dec(*s)) }
                                td.num { (share(*h, *s).map_or_else(|| "n/a".to_string(), percent)) }
                            }
                        }
                    }
                }
            }
            @if order.len() > MAX_TREND_SERIES {
                p.note { (order.len() - MAX_TREND_SERIES) " more currencies not shown in this trend." }
            }
            (dating_notes(undated, untracked))
        }
    }
}
