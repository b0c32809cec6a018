//! `--format html`: structure, offline, escaping and size, checked by
//! parsing the page with an HTML5 parser (html5ever, through `scraper`), the
//! way a browser reads it.

use std::collections::BTreeMap;

use billaudit::audit::{Bill, BillState, MAX_MONTHS, TOP_HIDDEN};
use billaudit::model::{Category, LineItem};
use billaudit::report::html::{self, MAX_BILL_SECTIONS, MAX_FINDINGS_SHOWN, MAX_OVERVIEW_ROWS};
use billaudit::{Options, Policy, Report};
use proptest::prelude::*;
use rust_decimal::Decimal;
use scraper::{Html, Selector};

use crate::common::*;

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn render_paths(paths: &[&str]) -> (Report, String) {
    let paths: Vec<String> = paths
        .iter()
        .map(|p| root().join(p).display().to_string())
        .collect();
    let report = billaudit::audit_paths(&paths, &Options::default());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let page = html::render(&report);
    (report, page)
}

struct ItemSpec<'a> {
    description: &'a str,
    amount: &'a str,
    category: Category,
    /// `(year, month)` of the item's date.
    month: Option<(i32, u32)>,
}

fn item<'a>(description: &'a str, amount: &'a str, category: Category) -> ItemSpec<'a> {
    ItemSpec {
        description,
        amount,
        category,
        month: None,
    }
}

/// A bill built the way the pipeline builds one, without a file.
fn bill(path: &str, currency: Option<&str>, items: &[ItemSpec<'_>], policy: &Policy) -> Bill {
    let mut b = BillState::new(path, "generic-csv", currency.map(str::to_string), policy);
    for (i, spec) in items.iter().enumerate() {
        let mut it = LineItem::new(
            i as u64 + 2,
            spec.description,
            spec.amount.parse::<Decimal>().unwrap(),
        );
        it.category = spec.category;
        it.start = spec.month.map(|(y, m)| {
            chrono::NaiveDate::from_ymd_opt(y, m, 1)
                .unwrap()
                .and_hms_opt(0, 0, 0)
                .unwrap()
        });
        b.add_item(&it);
    }
    b.finish()
}

/// Nothing on the page may load anything: no script, no external element,
/// no URL in any attribute or style but a same-page `#fragment`.
fn assert_offline(doc: &Html, page: &str) {
    for tag in [
        "script",
        "link",
        "img",
        "iframe",
        "object",
        "embed",
        "image",
        "use",
        "video",
        "audio",
        "source",
        "base",
        "form",
        "foreignObject",
    ] {
        assert_eq!(doc.select(&sel(tag)).count(), 0, "<{tag}> on the page");
    }
    for el in doc.select(&sel("*")) {
        for (name, value) in el.value().attrs() {
            let v = value.trim().to_ascii_lowercase();
            assert!(
                !name.starts_with("on"),
                "event handler attribute {name}={value:?}"
            );
            match name {
                "href" | "xlink:href" => assert!(v.starts_with('#'), "{name}={value:?}"),
                "src" | "srcset" | "action" | "formaction" | "poster" | "data" | "background" => {
                    panic!("{name}={value:?} on <{}>", el.value().name())
                }
                _ => {}
            }
            if name == "style" || name == "fill" || name == "stroke" {
                assert!(
                    !v.contains("url(") || v.starts_with("url(#"),
                    "{name}={value:?}"
                );
            }
        }
    }
    // Our own stylesheet: one block, and no url() or @import in it.
    let styles: Vec<String> = doc.select(&sel("style")).map(|s| s.inner_html()).collect();
    assert_eq!(styles.len(), 1, "one <style> block, ours");
    assert!(!styles[0].contains("url(") && !styles[0].contains("@import"));
    // And the page says so to the browser.
    let csp = doc
        .select(&sel("meta[http-equiv=\"Content-Security-Policy\"]"))
        .next()
        .expect("a CSP meta tag");
    assert!(
        csp.value()
            .attr("content")
            .unwrap()
            .contains("default-src 'none'")
    );
    assert!(page.starts_with("<!DOCTYPE html>"));
}

#[test]
fn a_batch_of_fixtures_has_an_overview_and_a_section_per_bill() {
    let (report, page) = render_paths(&["fixtures/csv", "fixtures/html/gpu-cloud-2025h2.csv"]);
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    assert_offline(&doc, &page);
    // No external URL anywhere in the text either: these fixtures carry none.
    for bad in ["http://", "https://", "//cdn", "src=\"//"] {
        assert!(!page.contains(bad), "{bad} in the page");
    }
    let n = report.bills.len();
    assert!(n >= 14, "{n}");
    assert_eq!(doc.select(&sel("section.bill")).count(), n);
    assert_eq!(doc.select(&sel("#overview")).count(), 1);
    // Every chart sits in a figure with the table of its figures.
    let charts = doc.select(&sel("svg.chart")).count();
    assert!(charts >= 2 * n + 2, "{charts} charts");
    for fig in doc.select(&sel("figure")) {
        if fig.select(&sel("svg.chart")).next().is_some() {
            assert!(
                fig.select(&sel("table")).next().is_some(),
                "a chart without a table: {}",
                fig.html().chars().take(200).collect::<String>()
            );
        }
        for svg in fig.select(&sel("svg.chart")) {
            assert!(svg.value().attr("role") == Some("img"));
            assert!(svg.select(&sel("title")).next().is_some());
            // Labels are on the chart, not only colours.
            assert!(svg.select(&sel("text")).count() >= 3);
        }
    }
    // Every SVG shape is closed where it is written: in HTML's SVG content
    // a `<rect>` without an end tag would swallow the next shape, which the
    // browser then does not draw.
    let nested = doc
        .select(&sel(
            "svg rect *, svg line *, svg circle *, svg polygon *, svg polyline *, svg path *",
        ))
        .count();
    assert_eq!(nested, 0, "SVG shapes nested in shapes");
    assert!(doc.select(&sel("svg.chart rect")).count() > 10 * n);
    // Anchors of the overview point at sections that exist.
    let ids: Vec<String> = doc
        .select(&sel("section.bill"))
        .map(|s| s.value().attr("id").unwrap().to_string())
        .collect();
    for a in doc.select(&sel("a[href]")) {
        let target = &a.value().attr("href").unwrap()[1..];
        assert!(ids.iter().any(|i| i == target), "dangling #{target}");
    }
    // The overview ranks by hidden share, highest first.
    let shares: Vec<f64> = doc
        .select(&sel("#overview-table tbody tr td:nth-child(5)"))
        .filter_map(|td| {
            td.text()
                .collect::<String>()
                .trim_end_matches('%')
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(shares.len(), n);
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
    // The trend per month is drawn from the dated items.
    assert!(page.contains("Hidden share per month"));
    for month in ["2025-07", "2025-09", "2025-12"] {
        assert!(page.contains(month), "{month}");
    }
    // Exact figures as text, shown as the bills state them.
    assert!(page.contains("<td class=\"num\">233.52</td>"));
    assert!(page.contains("8.56%"));
}

#[test]
fn a_single_bill_has_no_overview_and_lists_hidden_items_with_lines() {
    let (_, page) = render_paths(&["fixtures/csv/gpu-pod-en.csv"]);
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    assert_offline(&doc, &page);
    assert_eq!(doc.select(&sel("#overview")).count(), 0);
    assert_eq!(doc.select(&sel("section.bill")).count(), 1);
    let text: String = doc.root_element().text().collect();
    for want in [
        "threshold 5.00%",
        "8.56% hidden, above",
        "Volume snapshot",
        "fixtures/csv/gpu-pod-en.csv:9",
        "fixtures/csv/gpu-pod-en.csv:10",
        "hidden-fee-share",
        "replica-redundancy",
        "storage_replica (hidden) 4.28%",
    ] {
        assert!(text.contains(want), "missing {want:?}");
    }
    // Findings carry severity, code and location.
    let row = doc
        .select(&sel("section.bill table tbody tr"))
        .find(|r| r.text().any(|t| t == "hidden-fee-share"))
        .unwrap();
    assert_eq!(
        row.select(&sel("span.tag.error"))
            .next()
            .unwrap()
            .text()
            .collect::<String>(),
        "error"
    );
}

#[test]
fn hostile_text_is_shown_as_text_never_as_markup() {
    let (_, page) = render_paths(&["fixtures/html/hostile.csv"]);
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    assert_offline(&doc, &page);
    let text: String = doc.root_element().text().collect();
    for want in [
        "Egress <script>alert(1)</script> data transfer out",
        "Snapshot \"quoted\" 'single' </td></tr></table><img src=x onerror=alert(2)>",
        "Platform fee --><svg onload=alert(3)> https://evil.example/x.js",
        "NAT gateway <style>body{display:none}</style>",
    ] {
        assert!(text.contains(want), "missing as text: {want}");
    }
    // The long description is cut visibly; the title holds what was kept.
    let cut = doc
        .select(&sel("span[title^=\"Inter-region data transfer out\"]"))
        .next()
        .expect("a cut description with a title");
    assert!(cut.value().attr("title").unwrap().len() > 1900);
    assert!(
        cut.text()
            .collect::<String>()
            .contains("characters, and more not kept")
    );
}

#[test]
fn hostile_paths_currencies_and_descriptions_from_a_library_caller_are_escaped() {
    let policy = Policy::default();
    let evil = "x\"'><script>alert(1)</script>&amp;\u{0}";
    let b1 = bill(
        &format!("/tmp/{evil}.csv"),
        Some(evil),
        &[
            item("GPU", "100", Category::Compute),
            item(evil, "30", Category::Bandwidth),
        ],
        &policy,
    );
    let b2 = bill(evil, None, &[item("disk", "1", Category::Storage)], &policy);
    let report = Report {
        bills: vec![b1, b2],
        errors: vec![billaudit::Error::input(evil, evil)],
        ..Report::default()
    };
    let page = html::render(&report);
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    assert_offline(&doc, &page);
    assert!(!page.contains("<script>"));
    assert!(!page.contains('\u{0}'));
    let text: String = doc.root_element().text().collect();
    assert!(text.contains("x\"'><script>alert(1)</script>&amp;\u{FFFD}"));
}

/// The element names of a page and how often each occurs.
fn shape(page: &str) -> BTreeMap<String, usize> {
    let doc = Html::parse_document(page);
    let mut m = BTreeMap::new();
    for el in doc.select(&sel("*")) {
        *m.entry(el.value().name().to_string()).or_insert(0) += 1;
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Whatever a bill's text is, the page has exactly the elements it has
    /// for plain text of the same length: text never becomes markup.
    #[test]
    fn any_text_leaves_the_page_structure_unchanged(s in "\\PC{0,100}|[<>&\"' a-z/=]{0,100}") {
        let policy = Policy::default();
        let plain = "x".repeat(s.chars().count());
        let render = |t: &str| {
            let b = bill(t, Some(t), &[item(t, "5", Category::Bandwidth), item("c", "10", Category::Compute)], &policy);
            html::render(&Report { bills: vec![b], ..Report::default() })
        };
        prop_assert_eq!(shape(&render(&s)), shape(&render(&plain)));
    }
}

#[test]
fn ten_thousand_bills_stay_bounded_and_every_cut_is_announced() {
    let policy = Policy::default();
    let mut bills = Vec::new();
    // One bill that overflows every per-bill list.
    let long = "very long description ".repeat(500);
    let mut big: Vec<ItemSpec<'_>> = Vec::new();
    for i in 0..300 {
        big.push(ItemSpec {
            description: &long,
            amount: "1.50",
            category: Category::Bandwidth,
            month: Some((2000 + i / 12, (i % 12) as u32 + 1)),
        });
    }
    big.push(item("compute", "100", Category::Compute));
    bills.push(bill("big.csv", Some("USD"), &big, &policy));
    // Many findings: line-arithmetic fires per line.
    let mut b = BillState::new("arith.csv", "generic-csv", Some("USD".into()), &policy);
    for i in 0..300u64 {
        let mut it = LineItem::new(i + 2, "gpu", Decimal::new(10, 0));
        it.quantity = Some(Decimal::new(2, 0));
        it.unit_price = Some(Decimal::new(3, 0));
        it.category = Category::Compute;
        b.add_item(&it);
    }
    let arith = b.finish();
    assert!(
        arith.findings.len() > MAX_FINDINGS_SHOWN,
        "{}",
        arith.findings.len()
    );
    bills.push(arith);
    for i in 0..9_998 {
        let hidden = format!("{}.{:02}", i % 20, i % 100);
        bills.push(bill(
            &format!("bills/{i:05}.csv"),
            Some(if i % 2 == 0 { "USD" } else { "CNY" }),
            &[
                item("gpu", "100", Category::Compute),
                ItemSpec {
                    description: "egress",
                    amount: &hidden,
                    category: Category::Bandwidth,
                    month: Some((2025, (i % 12) as u32 + 1)),
                },
            ],
            &policy,
        ));
    }
    let report = Report {
        bills,
        ..Report::default()
    };
    let page = html::render(&report);
    assert!(
        page.len() < 4_000_000,
        "{} bytes for 10,000 bills",
        page.len()
    );
    for want in [
        format!(
            "{} more bills not shown in detail",
            10_000 - MAX_BILL_SECTIONS
        ),
        format!(
            "{} more bills not shown in this table",
            10_000 - MAX_OVERVIEW_ROWS
        ),
        "more not shown in the chart".to_string(),
        format!(
            "{} more hidden-fee line items not shown (the {TOP_HIDDEN} largest of 300 are)",
            300 - TOP_HIDDEN
        ),
        "more findings not shown".to_string(),
        format!("beyond the first {MAX_MONTHS} tracked per bill"),
        "characters, and more not kept".to_string(),
    ] {
        assert!(page.contains(&want), "not announced: {want}");
    }
    let doc = Html::parse_document(&page);
    assert!(
        doc.errors.is_empty(),
        "parse errors: {:?}",
        doc.errors.first()
    );
    assert_eq!(doc.select(&sel("section.bill")).count(), MAX_BILL_SECTIONS);
    assert_eq!(
        doc.select(&sel("#overview-table tbody tr")).count(),
        MAX_OVERVIEW_ROWS
    );
    // The summary still counts every bill.
    assert!(page.contains("<b>10000</b> bills audited"));
}

#[test]
fn cli_writes_html_to_stdout() {
    let out = run(&["audit", "--format", "html", "fixtures/csv/clean-bill.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(page.trim_end().ends_with("</html>"));
    assert!(stderr(&out).is_empty());
}

#[test]
fn extreme_amounts_render_without_panicking() {
    let policy = Policy::default();
    let huge = bill(
        "huge.csv",
        Some("USD"),
        &[
            item("GPU", "-99999999999999999999999999.9", Category::Compute),
            item("egress", "100000000000000000000000000", Category::Bandwidth),
        ],
        &policy,
    );
    let negative = bill(
        "negative.csv",
        None,
        &[
            item("refund", "-5", Category::Compute),
            item("egress refund", "-1", Category::Bandwidth),
        ],
        &policy,
    );
    let empty = bill("empty.csv", None, &[], &policy);
    let page = html::render(&Report {
        bills: vec![huge, negative, empty],
        ..Report::default()
    });
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    assert!(page.contains("times"), "a share beyond any percentage");
    assert!(page.contains("no positive amounts to draw"));
    // No coordinate became NaN or infinite.
    for bad in ["NaN", "\"inf", "\"-inf"] {
        assert!(!page.contains(bad), "{bad}");
    }
}
