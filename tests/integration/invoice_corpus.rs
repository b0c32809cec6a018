//! The invoice corpus: every `.txt` of `tests/data/invoices/` and of the
//! real invoices in `../shared/data/invoices/` (or `$BILLAUDIT_REAL_INVOICES`)
//! is read by billaudit and compared with its hand-read figures in the
//! folder's `expected.toml` (read by hand from the text, added up with
//! Python `decimal`; see `scripts/check_invoice_corpus.py`, which never runs
//! billaudit). No figure below comes from billaudit's output.
//!
//! What is compared (docs/text-invoices.md, "The invoice corpus"):
//! - items: the sum of the amounts of the lines read as item lines equals
//!   `items_total`, on the invoice's own `items_basis` (the amount column
//!   the vendor prints: gross or net);
//! - the stated total billaudit checks equals `stated_total` (the invoice
//!   total including VAT, not the amount due after a payment);
//! - the bill's computed total (items, taxes and credits) equals
//!   `stated_total` too: on a net invoice the VAT line is a tax item and an
//!   invoice-level discount a credit item; on a gross invoice the VAT is
//!   included in the items and is not added again;
//! - the currency equals `currency`;
//! - no `subtotal-mismatch` or `total-mismatch` is raised (the invoices are
//!   correct, so a mismatch means a figure was misread).
//!
//! Every mismatch of every invoice is reported in one failure message.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use rust_decimal::Decimal;

use crate::common::*;

/// Invoices billaudit does not read right yet, with the reason. The test
/// checks that each of them still FAILS, so a fix has to move it out of
/// this list (and the list cannot go stale).
const KNOWN_FAILING: &[(&str, &str)] = &[];

struct Expected {
    name: String,
    path: PathBuf,
    currency: String,
    items_total: Decimal,
    stated_total: Decimal,
}

fn read_expected(dir: &Path) -> Vec<Expected> {
    let text = std::fs::read_to_string(dir.join("expected.toml")).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let money = |t: &toml::Table, k: &str, name: &str| {
        let s = t
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_else(|| panic!("{name}: `{k}` missing"));
        Decimal::from_str(s).unwrap_or_else(|e| panic!("{name}: `{k}` = {s:?}: {e}"))
    };
    table
        .iter()
        .map(|(name, v)| {
            let t = v.as_table().unwrap();
            Expected {
                name: name.clone(),
                path: dir.join(name),
                currency: t["currency"].as_str().unwrap().to_string(),
                items_total: money(t, "items_total", name),
                stated_total: money(t, "stated_total", name),
            }
        })
        .collect()
}

/// The mismatches of one invoice, empty when it is read right.
fn mismatches(e: &Expected) -> Vec<String> {
    let mut out = Vec::new();
    let text = std::fs::read_to_string(&e.path).unwrap();
    let invoice = billaudit::normalise::text::parse(&text);
    let items: Decimal = invoice.items().map(|i| i.amount.value).sum();
    if items != e.items_total {
        let lines: Vec<String> = invoice
            .items()
            .map(|i| format!("{}:{}", i.line, i.amount.value))
            .collect();
        out.push(format!(
            "items {items} != {} (item lines {})",
            e.items_total,
            lines.join(" ")
        ));
    }
    let report = billaudit::audit_paths(
        &[e.path.display().to_string()],
        &billaudit::Options::default(),
    );
    if !report.errors.is_empty() {
        out.push(format!("audit error: {:?}", report.errors));
        return out;
    }
    let json = billaudit::report::json::to_json(&report);
    if json.bills.len() != 1 {
        out.push(format!("{} bills, expected one", json.bills.len()));
    }
    let Some(b) = json.bills.first() else {
        return out;
    };
    let stated = b
        .stated_total
        .as_deref()
        .map(|s| Decimal::from_str(s).unwrap());
    if stated != Some(e.stated_total) {
        out.push(format!("stated total {stated:?} != {}", e.stated_total));
    }
    let total = Decimal::from_str(&b.total).unwrap();
    if total != e.stated_total {
        out.push(format!(
            "computed total {total} (tax {}, credit {}) != stated total {}",
            b.totals.tax, b.totals.credit, e.stated_total
        ));
    }
    // A correct invoice read right states figures that match its lines.
    for f in &b.findings {
        if f.code == "subtotal-mismatch" || f.code == "total-mismatch" {
            out.push(format!("{} at line {:?}: {}", f.code, f.line, f.message));
        }
    }
    if b.currency.as_deref() != Some(e.currency.as_str()) {
        out.push(format!("currency {:?} != {}", b.currency, e.currency));
    }
    out
}

#[test]
fn every_invoice_of_the_corpus_gives_its_hand_read_figures() {
    let mut all = read_expected(&root().join("tests/data/invoices"));
    if let Some(dir) = real_invoices() {
        all.extend(read_expected(&dir));
    }
    // 7 in tests/data/invoices, 7 in the shared folder when present.
    assert!(all.len() >= 7, "{} invoices", all.len());
    for (name, _) in KNOWN_FAILING {
        assert!(
            all.iter().any(|e| e.name == *name),
            "KNOWN_FAILING names `{name}`, which is not in the corpus"
        );
    }
    let mut report = Vec::new();
    for e in &all {
        let m = mismatches(e);
        let known = KNOWN_FAILING.iter().any(|(n, _)| *n == e.name);
        match (known, m.is_empty()) {
            (false, false) => report.push(format!("{}:\n  {}", e.name, m.join("\n  "))),
            (true, true) => report.push(format!(
                "{}: now passes; remove it from KNOWN_FAILING",
                e.name
            )),
            _ => {}
        }
    }
    assert!(
        report.is_empty(),
        "{} of {} invoices wrong:\n{}",
        report.len(),
        all.len(),
        report.join("\n")
    );
}
