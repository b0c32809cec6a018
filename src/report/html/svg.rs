//! The drawing kit shared by every chart: colours, the hatch pattern,
//! labels, markers, and the `f64` geometry (used only for drawing; every
//! figure shown as text is an exact decimal).
//!
//! SVG elements are written with an explicit end tag (`rect ... {}`): in
//! HTML's SVG content a start tag without `/>` is not closed by itself.

use maud::{Markup, html};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use unicode_width::UnicodeWidthStr;

use super::MAX_TREND_SERIES;
use super::text::{D1, Text};
use crate::model::Category;

/// Chart width in SVG user units; charts scale to the page width.
pub(super) const W: f64 = 720.0;

/// Okabe-Ito colours, which stay distinct for the common forms of colour
/// blindness. Hidden categories are also hatched and labelled.
pub(super) fn colour(c: Category) -> &'static str {
    match c {
        Category::Compute => "#0072B2",
        Category::Storage => "#56B4E9",
        Category::Other => "#BBBBBB",
        Category::StorageReplica => "#E69F00",
        Category::Bandwidth => "#D55E00",
        Category::Scheduling => "#CC79A7",
        Category::Tax => "#F0E442",
        Category::Credit => "#009E73",
    }
}
pub(super) const ABOVE: &str = "#D55E00";
pub(super) const WITHIN: &str = "#009E73";
pub(super) const SERIES: [&str; MAX_TREND_SERIES] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
];

/// Patterns shared by every chart on the page (`url(#hatch)`).
pub(super) fn defs() -> Markup {
    html! {
        svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false" {
            defs {
                pattern #hatch width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)" {
                    rect x="0" y="0" width="3" height="7" fill="#ffffff" fill-opacity="0.55" {}
                }
            }
        }
    }
}

/// part / whole as a drawing fraction in [0, 1].
pub(super) fn frac(part: Decimal, whole: Decimal) -> f64 {
    if whole <= Decimal::ZERO {
        return 0.0;
    }
    let f = part.to_f64().unwrap_or(0.0) / whole.to_f64().unwrap_or(1.0);
    if f.is_finite() {
        f.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

pub(super) fn f(d: Decimal) -> f64 {
    d.to_f64().filter(|x| x.is_finite()).unwrap_or(0.0)
}

/// Approximate drawn width of a label at 12px, for placing it.
pub(super) fn text_w(s: &str) -> f64 {
    s.width() as f64 * 7.6
}

/// SVG text with a white halo, readable on any fill.
pub(super) fn label(x: f64, y: f64, anchor: &str, weight: &str, text: &str) -> Markup {
    html! {
        text x=(D1(x)) y=(D1(y)) text-anchor=(anchor) font-size="12" font-weight=(weight)
            fill="#111" stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke" {
            (Text(text))
        }
    }
}

/// Marker shapes by series: circle, square, triangle, diamond, ...
pub(super) fn marker(k: usize, x: f64, y: f64, c: &str) -> Markup {
    match k % 4 {
        0 => html! { circle cx=(D1(x)) cy=(D1(y)) r="4.5" fill=(c) stroke="#fff" {} },
        1 => html! {
            rect x=(D1(x - 4.5)) y=(D1(y - 4.5)) width="9" height="9" fill=(c) stroke="#fff" {}
        },
        2 => {
            let points = format!(
                "{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                y - 6.0,
                x + 5.5,
                y + 4.0,
                x - 5.5,
                y + 4.0
            );
            html! { polygon points=(points) fill=(c) stroke="#fff" {} }
        }
        _ => {
            let points = format!(
                "{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}",
                y - 6.0,
                x + 6.0,
                y + 6.0,
                x - 6.0
            );
            html! { polygon points=(points) fill=(c) stroke="#fff" {} }
        }
    }
}
