//! One bill's section: where the money went (chart and table), the hidden
//! share against the threshold, the largest hidden-fee line items, the
//! findings, and the hidden share per month.

use maud::{Markup, html};

use super::charts::{self, Series};
use super::findings::findings;
use super::text::{Text, cut_text, location, plural, result_tag, status};
use super::{DESCRIPTION_CHARS, dec};
use crate::audit::{Bill, MAX_MONTHS, TOP_HIDDEN, percent, share};
use crate::model::Category;
use rust_decimal::Decimal;

pub(super) fn section(i: usize, b: &Bill) -> Markup {
    let cur = b.currency.as_deref().unwrap_or("currency unknown");
    html! {
        section.bill #{ "bill-" (i) } {
            h2 { (cut_text(&b.path, 160, false)) " " (result_tag(b.passed)) }
            p.muted {
                (Text(&b.format)) " · " (Text(cur)) " · "
                (plural(b.line_items as usize, "line item", "line items")) " · "
                (plural(b.skipped_rows() as usize, "row skipped", "rows skipped"))
            }
            // Where the currency came from (a flag, the config, a profile,
            // the file), or that it is unknown.
            @if let Some(note) = &b.currency_note {
                p.note.currency { (Text(note)) }
            }
            (categories(i, b))
            (gauge(i, b))
            (top_hidden(b))
            (findings(b))
            @if !b.monthly.months.is_empty() {
                (trend(i, b))
            }
        }
    }
}

fn categories(i: usize, b: &Bill) -> Markup {
    let negatives = charts::BAR_ORDER
        .iter()
        .any(|c| b.totals.get(*c) < rust_decimal::Decimal::ZERO);
    html! {
        figure {
            figcaption { "Where the money went: categories of the subtotal (hidden fees hatched)" }
            (charts::category_bar(i, b))
            @if negatives {
                p.note {
                    "Negative category totals (refunds, corrections) cannot be stacked and are not drawn; the table has them."
                }
            }
            table {
                caption { "Categories" }
                thead {
                    tr {
                        th { "category" } th.num { "amount" } th.num { "share of subtotal" } th { "kind" }
                    }
                }
                tbody {
                    @for c in Category::ALL.into_iter().filter(|c| c.in_subtotal()) {
                        @let v = b.totals.get(c);
                        tr {
                            td { (c) }
                            td.num { (dec(v)) }
                            td.num { (share(v, b.subtotal).map_or_else(String::new, percent)) }
                            td { @if c.is_hidden() { span.tag.hidden { "hidden" } } }
                        }
                    }
                    tr.sum {
                        td { "subtotal" }
                        td.num { (dec(b.subtotal)) }
                        td.num { (share(b.subtotal, b.subtotal).map_or_else(String::new, percent)) }
                        td {}
                    }
                    @if let Some(st) = b.stated_subtotal {
                        tr.stated { td { "stated subtotal" } td.num { (dec(st)) } td {} td { (stated_verdict(st, b.subtotal)) } }
                    }
                    @for c in [Category::Tax, Category::Credit] {
                        tr { td { (c) } td.num { (dec(b.totals.get(c))) } td {} td {} }
                    }
                    tr.sum { td { "total" } td.num { (dec(b.total)) } td {} td {} }
                    @if let Some(st) = b.stated_total {
                        tr.stated { td { "stated total" } td.num { (dec(st)) } td {} td { (stated_verdict(st, b.total)) } }
                    }
                }
            }
        }
    }
}

/// What the bill states against what its lines add up to, said either way
/// (as the human report does): a stated figure shown bare reads as agreement.
fn stated_verdict(stated: Decimal, computed: Decimal) -> String {
    if crate::audit::agrees(stated, computed) {
        "agrees with the lines".to_string()
    } else {
        format!(
            "differs from the lines by {}",
            dec(stated.saturating_sub(computed))
        )
    }
}

fn gauge(i: usize, b: &Bill) -> Markup {
    html! {
        figure {
            figcaption { "Hidden share against the threshold" }
            (charts::gauge(i, b))
            table.keep {
                caption { "Hidden share" }
                thead {
                    tr {
                        th.num { "hidden fees" } th.num { "subtotal" } th.num { "hidden share" }
                        th.num { "threshold" } th { "hidden share is" }
                    }
                }
                tbody {
                    tr {
                        td.num { (dec(b.hidden)) }
                        td.num { (dec(b.subtotal)) }
                        td.num { (b.hidden_share.map_or_else(|| "n/a".to_string(), percent)) }
                        td.num { (percent(b.hidden_threshold)) }
                        td { (status(b)) }
                    }
                }
            }
        }
    }
}

fn top_hidden(b: &Bill) -> Markup {
    let shown = b.top_hidden.len() as u64;
    html! {
        h3 { "Largest hidden-fee line items" }
        @if b.top_hidden.is_empty() {
            p.muted { "No hidden-fee line items." }
        } @else {
            table {
                thead {
                    tr {
                        th.num { "#" } th.num { "amount" } th.num { "share of subtotal" }
                        th { "category" } th { "description" } th { "source" }
                    }
                }
                tbody {
                    @for (k, h) in b.top_hidden.iter().enumerate() {
                        tr {
                            td.num { (k + 1) }
                            td.num { (dec(h.amount)) }
                            td.num { (share(h.amount, b.subtotal).map_or_else(String::new, percent)) }
                            td { (h.category) }
                            td.text { (cut_text(&h.description, DESCRIPTION_CHARS, h.description_cut)) }
                            td.mono.code { (location(&h.path, Some(h.line))) }
                        }
                    }
                }
            }
            @if b.hidden_items > shown {
                p.note {
                    (b.hidden_items - shown) " more hidden-fee line items not shown (the "
                    (TOP_HIDDEN) " largest of " (b.hidden_items) " are)."
                }
            }
        }
    }
}

fn trend(i: usize, b: &Bill) -> Markup {
    let m = &b.monthly;
    html! {
        figure {
            figcaption { "Hidden share per month (line items' dates)" }
            @if m.months.len() > 1 {
                @let series = [Series {
                    name: "hidden share".to_string(),
                    points: m.months.iter().map(|x| (x.month.clone(), x.hidden_share())).collect(),
                }];
                (charts::trend(&format!("b{i}-trend"), &series, b.hidden_threshold))
            }
            table {
                caption { "Per month" }
                thead {
                    tr {
                        th { "month" } th.num { "hidden fees" } th.num { "subtotal" } th.num { "hidden share" }
                    }
                }
                tbody {
                    @for x in &m.months {
                        tr {
                            td { (Text(&x.month)) }
                            td.num { (dec(x.hidden)) }
                            td.num { (dec(x.subtotal)) }
                            td.num { (x.hidden_share().map_or_else(|| "n/a".to_string(), percent)) }
                        }
                    }
                }
            }
            (dating_notes(m.undated_items, m.untracked_items))
        }
    }
}

/// What a trend per month leaves out: undated items, months beyond the cap.
pub(super) fn dating_notes(undated: u64, untracked: u64) -> Markup {
    html! {
        @if undated > 0 {
            p.note { (undated) " line items carry no readable date and are not in the trend." }
        }
        @if untracked > 0 {
            p.note {
                (untracked) " line items fall in months beyond the first " (MAX_MONTHS)
                " tracked per bill and are not in the trend."
            }
        }
    }
}
