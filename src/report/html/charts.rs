//! The hand-drawn SVG charts, as maud templates: the stacked bar of a
//! bill's categories, the hidden-share gauge, the overview's ranked bars
//! and the trend per month. Each is a picture only; the figure around it
//! carries the table of its figures.

use maud::{Markup, html};
use rust_decimal::Decimal;

use super::svg::{ABOVE, SERIES, W, WITHIN, colour, f, frac, label, marker, text_w};
use super::text::{D1, Text, above, bill_name, tail};
use crate::audit::{Bill, percent, share};
use crate::model::Category;

/// Characters of a bill's name in a chart label.
const LABEL_CHARS: usize = 36;

/// The order of the stacked bar: what was priced first, hidden fees last
/// and side by side, so one bracket can span them.
pub(super) const BAR_ORDER: [Category; 6] = [
    Category::Compute,
    Category::Storage,
    Category::Other,
    Category::StorageReplica,
    Category::Bandwidth,
    Category::Scheduling,
];

/// One drawn segment of the stacked bar.
struct Segment {
    c: Category,
    v: Decimal,
    x: f64,
    w: f64,
    pct: String,
}

/// Categories of the subtotal as a stacked bar, hidden ones hatched under a
/// bracket labelled with the hidden share, and a legend.
pub(super) fn category_bar(i: usize, b: &Bill) -> Markup {
    let positive: Decimal = BAR_ORDER
        .iter()
        .map(|c| b.totals.get(*c).max(Decimal::ZERO))
        .fold(Decimal::ZERO, |a, x| a.saturating_add(x));
    let (bar_y, bar_h) = (26.0, 40.0);
    let legend_y = bar_y + bar_h + 26.0;
    let h = legend_y + 2.0 * 24.0 + 4.0;
    let mut segments = Vec::new();
    let mut hidden_x: Option<(f64, f64)> = None;
    if positive > Decimal::ZERO {
        let mut x = 0.0;
        for c in BAR_ORDER {
            let v = b.totals.get(c);
            if v <= Decimal::ZERO {
                continue;
            }
            let w = frac(v, positive) * W;
            let pct = share(v, b.subtotal).map_or_else(String::new, percent);
            if c.is_hidden() {
                hidden_x = Some(match hidden_x {
                    Some((a, _)) => (a, x + w),
                    None => (x, x + w),
                });
            }
            segments.push(Segment { c, v, x, w, pct });
            x += w;
        }
    }
    let title_id = format!("b{i}-cat-t");
    html! {
        svg.chart viewBox={ "0 0 " (W) " " (h) } role="img" aria-labelledby=(title_id) {
            title #(title_id) {
                "Categories of the subtotal as a stacked bar; hidden categories are hatched. The table below has the figures."
            }
            @if positive <= Decimal::ZERO {
                rect x="0" y=(bar_y) width=(W) height=(bar_h) fill="#eeeeee" {}
                (label(W / 2.0, bar_y + 25.0, "middle", "600", "no positive amounts to draw"))
            }
            @for s in &segments {
                g {
                    title { (s.c) ": " (super::dec(s.v)) " (" (s.pct) ")" }
                    rect x=(D1(s.x)) y=(bar_y) width=(D1(s.w)) height=(bar_h) fill=(colour(s.c)) {}
                    @if s.c.is_hidden() {
                        rect x=(D1(s.x)) y=(bar_y) width=(D1(s.w)) height=(bar_h) fill="url(#hatch)" {}
                    }
                    @let text = format!("{} {}", s.c, s.pct);
                    @if text_w(&text) + 8.0 < s.w {
                        (label(s.x + s.w / 2.0, bar_y + 25.0, "middle", "600", &text))
                    } @else if text_w(&s.pct) + 6.0 < s.w {
                        (label(s.x + s.w / 2.0, bar_y + 25.0, "middle", "600", &s.pct))
                    }
                }
                // Separate adjacent segments.
                line x1=(D1(s.x + s.w)) x2=(D1(s.x + s.w)) y1=(bar_y) y2=(bar_y + bar_h)
                    stroke="#fff" stroke-width="1" {}
            }
            @if let Some((a, z)) = hidden_x {
                // A bracket over the hidden segments, labelled with the hidden share.
                @let hs = b.hidden_share.map_or_else(
                    || "hidden fees".to_string(),
                    |s| format!("hidden fees {}", percent(s)),
                );
                path d=(format!("M{a:.1},{} V{} H{z:.1} V{}", bar_y - 2.0, bar_y - 8.0, bar_y - 2.0))
                    fill="none" stroke="#000" stroke-width="1.5" {}
                @let mid = ((a + z) / 2.0).clamp(text_w(&hs) / 2.0, W - text_w(&hs) / 2.0);
                (label(mid, bar_y - 12.0, "middle", "600", &hs))
            }
            // The legend: swatch, name, share; hidden ones hatched and marked.
            @for (k, c) in BAR_ORDER.iter().enumerate() {
                @let lx = (k % 3) as f64 * (W / 3.0);
                @let ly = legend_y + (k / 3) as f64 * 24.0;
                @let pct = share(b.totals.get(*c), b.subtotal).map_or_else(|| "n/a".to_string(), percent);
                rect x=(D1(lx)) y=(D1(ly - 12.0)) width="16" height="16" fill=(colour(*c))
                    stroke="#333" stroke-width="0.5" {}
                @if c.is_hidden() {
                    rect x=(D1(lx)) y=(D1(ly - 12.0)) width="16" height="16" fill="url(#hatch)" {}
                }
                @let text = format!("{c}{} {pct}", if c.is_hidden() { " (hidden)" } else { "" });
                (label(lx + 22.0, ly + 1.0, "start", "normal", &text))
            }
        }
    }
}

/// The hidden share as a bar against the dashed threshold line.
pub(super) fn gauge(i: usize, b: &Bill) -> Markup {
    let t = f(b.hidden_threshold);
    let s = b.hidden_share.map_or(0.0, f);
    let scale = (t * 2.0).max(s * 1.15).max(0.1);
    let (left, bw, y, bh, h) = (0.0, W - 215.0, 30.0, 26.0, 82.0);
    let is_above = above(b);
    let w = (s / scale).clamp(0.0, 1.0) * bw;
    let text = match b.hidden_share {
        Some(share_v) => format!(
            "{} hidden, {}",
            percent(share_v),
            if is_above { "above" } else { "within" }
        ),
        None => "no share: subtotal <= 0".to_string(),
    };
    let tx = left + (t / scale).clamp(0.0, 1.0) * bw;
    let tl = format!("threshold {}", percent(b.hidden_threshold));
    let tlx = tx.clamp(text_w(&tl) / 2.0, W - text_w(&tl) / 2.0);
    let title_id = format!("b{i}-g-t");
    html! {
        svg.chart viewBox={ "0 0 " (W) " " (h) } role="img" aria-labelledby=(title_id) {
            title #(title_id) {
                "Hidden share as a bar against the dashed threshold line. The table below has the figures."
            }
            rect x=(left) y=(y) width=(bw) height=(bh) fill="#eeeeee" {}
            @if b.hidden_share.is_some() {
                rect x=(left) y=(y) width=(D1(w)) height=(bh) fill=(if is_above { ABOVE } else { WITHIN }) {}
                @if is_above {
                    rect x=(left) y=(y) width=(D1(w)) height=(bh) fill="url(#hatch)" {}
                }
            }
            (label(bw + 8.0, y + 18.0, "start", "600", &text))
            line x1=(D1(tx)) x2=(D1(tx)) y1=(D1(y - 8.0)) y2=(D1(y + bh + 6.0))
                stroke="#000" stroke-width="2" stroke-dasharray="5 3" {}
            (label(tlx, y - 12.0, "middle", "600", &tl))
            (label(left, y + bh + 20.0, "start", "normal", "0%"))
            (label(left + bw, y + bh + 20.0, "end", "normal", &format!("{:.1}%", scale * 100.0)))
        }
    }
}

/// The overview's bars: hidden share per bill, highest first, against the
/// threshold (one dashed line when every bill has the same, else a tick each).
pub(super) fn overview_bars(shown: &[&(usize, &Bill)], dir: &str) -> Markup {
    let label_w = 280.0;
    let value_w = 140.0;
    let bar_w = W - label_w - value_w;
    let row = 22.0;
    let top = 24.0;
    let h: f64 = top + row * shown.len() as f64 + 24.0;
    let scale = shown
        .iter()
        .flat_map(|(_, b)| [b.hidden_share.map_or(0.0, f), f(b.hidden_threshold) * 1.5])
        .fold(0.1_f64, f64::max);
    let uniform = shown
        .first()
        .map(|(_, b)| b.hidden_threshold)
        .filter(|t| shown.iter().all(|(_, b)| b.hidden_threshold == *t));
    let x_of = |v: f64| label_w + (v / scale).clamp(0.0, 1.0) * bar_w;
    html! {
        svg.chart viewBox={ "0 0 " (W) " " (format!("{h:.0}")) } role="img" aria-labelledby="ov-t" {
            title #ov-t {
                "Hidden share per bill, highest first; the dashed line is the threshold. The table below has the figures."
            }
            @for (k, (_, b)) in shown.iter().enumerate() {
                @let y = top + row * k as f64;
                @let name = bill_name(b);
                @let short = name.strip_prefix(dir).unwrap_or(&name);
                g {
                    title { (Text(&name)) }
                    (label(label_w - 8.0, y + 15.0, "end", "normal", &tail(short, LABEL_CHARS)))
                    rect x=(label_w) y=(D1(y + 3.0)) width=(bar_w) height="16" fill="#eeeeee" {}
                    @let is_above = above(b);
                    @if let Some(s) = b.hidden_share {
                        @let w = (f(s) / scale).clamp(0.0, 1.0) * bar_w;
                        rect x=(label_w) y=(D1(y + 3.0)) width=(D1(w)) height="16"
                            fill=(if is_above { ABOVE } else { WITHIN }) {}
                        @if is_above {
                            rect x=(label_w) y=(D1(y + 3.0)) width=(D1(w)) height="16" fill="url(#hatch)" {}
                        }
                    }
                    @if uniform.is_none() {
                        @let tx = x_of(f(b.hidden_threshold));
                        line x1=(D1(tx)) x2=(D1(tx)) y1=(D1(y + 1.0)) y2=(D1(y + 21.0))
                            stroke="#000" stroke-width="2" {}
                    }
                    @let text = match b.hidden_share {
                        Some(s) => format!("{} {}", percent(s), if is_above { "above" } else { "within" }),
                        None => "no share".to_string(),
                    };
                    (label(label_w + bar_w + 6.0, y + 15.0, "start", "600", &text))
                }
            }
            @if let Some(t) = uniform {
                @let tx = x_of(f(t));
                line x1=(D1(tx)) x2=(D1(tx)) y1=(D1(top - 4.0)) y2=(D1(h - 20.0))
                    stroke="#000" stroke-width="1.5" stroke-dasharray="5 3" {}
                (label(tx, top - 8.0, "middle", "600", &format!("threshold {}", percent(t))))
            } @else {
                (label(label_w, top - 8.0, "start", "600", "thresholds differ: a black tick marks each bill's"))
            }
            // Axis: 0 and the end of the scale.
            (label(label_w, h - 6.0, "start", "normal", "0%"))
            (label(label_w + bar_w, h - 6.0, "end", "normal", &format!("{:.1}%", scale * 100.0)))
        }
    }
}

/// One line of a trend chart.
pub(super) struct Series {
    pub(super) name: String,
    /// (`YYYY-MM`, hidden share) in month order.
    pub(super) points: Vec<(String, Option<Decimal>)>,
}

/// A line chart of hidden share per month with the threshold dashed. Each
/// series has its own colour, marker shape and a name at its last point.
pub(super) fn trend(id: &str, series: &[Series], threshold: Decimal) -> Markup {
    let months: Vec<&String> = {
        let mut all: Vec<&String> = series
            .iter()
            .flat_map(|s| s.points.iter().map(|(m, _)| m))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let (left, right, top, bottom) = (56.0, 84.0, 34.0, 30.0);
    // Points sit inside the frame, so the first and last month labels fit.
    let inset = 30.0;
    let h = 240.0;
    let pw = W - left - right;
    let ph = h - top - bottom;
    let scale = series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(|(_, v)| v.map(f)))
        .chain([f(threshold) * 1.5])
        .fold(0.1_f64, f64::max)
        * 1.1;
    let x_of = |m: &String| -> f64 {
        let i = months.iter().position(|x| *x == m).unwrap_or(0);
        if months.len() <= 1 {
            left + pw / 2.0
        } else {
            left + inset + (pw - 2.0 * inset) * i as f64 / (months.len() - 1) as f64
        }
    };
    let y_of = |v: f64| top + ph * (1.0 - (v / scale).clamp(0.0, 1.0));
    let ty = y_of(f(threshold));
    // The legend's x positions: each name after the one before.
    let mut legend = Vec::new();
    let mut lx = left;
    for s in series {
        let name = tail(&s.name, 20);
        let next = lx + 34.0 + text_w(&name);
        legend.push((lx, name));
        lx = next;
    }
    // x axis labels: at most 12.
    let step = months.len().div_ceil(12).max(1);
    let show_values = months.len() <= 12 && series.len() <= 2;
    let title_id = format!("{id}-t");
    html! {
        svg.chart viewBox={ "0 0 " (W) " " (h) } role="img" aria-labelledby=(title_id) {
            title #(title_id) {
                "Hidden share per month; the dashed line is the threshold. The table below has the figures."
            }
            rect x=(left) y=(top) width=(pw) height=(ph) fill="#fafafa" stroke="#999" {}
            // y axis: 0, the middle, the top of the scale.
            @for v in [0.0, scale / 2.0, scale] {
                @let y = y_of(v);
                line x1=(left) x2=(D1(left + pw)) y1=(D1(y)) y2=(D1(y)) stroke="#ddd" {}
                (label(left - 4.0, y + 4.0, "end", "normal", &format!("{:.1}%", v * 100.0)))
            }
            line x1=(left) x2=(D1(left + pw)) y1=(D1(ty)) y2=(D1(ty))
                stroke="#000" stroke-width="1.5" stroke-dasharray="5 3" {}
            (label(left + pw + 6.0, ty - 2.0, "start", "600", "threshold"))
            (label(left + pw + 6.0, ty + 12.0, "start", "600", &percent(threshold)))
            // The legend: marker and name, so colour is never the only key.
            @for (k, (lx, name)) in legend.iter().enumerate() {
                (marker(k, lx + 6.0, 14.0, SERIES[k % SERIES.len()]))
                (label(lx + 16.0, 18.0, "start", "600", name))
            }
            @for (i, m) in months.iter().enumerate() {
                @if i % step == 0 || i + 1 == months.len() {
                    (label(x_of(m), h - bottom + 18.0, "middle", "normal", m))
                }
            }
            @for (k, s) in series.iter().enumerate() {
                @let c = SERIES[k % SERIES.len()];
                @let pts: Vec<(f64, f64, Decimal)> = s
                    .points
                    .iter()
                    .filter_map(|(m, v)| v.map(|v| (x_of(m), y_of(f(v)), v)))
                    .collect();
                @if pts.len() > 1 {
                    @let path: Vec<String> = pts.iter().map(|(x, y, _)| format!("{x:.1},{y:.1}")).collect();
                    polyline points=(path.join(" ")) fill="none" stroke=(c) stroke-width="2.5" {}
                }
                @for (x, y, v) in &pts {
                    (marker(k, *x, *y, c))
                    @if show_values {
                        (label(*x, y - 9.0, "middle", "normal", &percent(*v)))
                    }
                }
            }
        }
    }
}
