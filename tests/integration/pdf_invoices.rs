//! PDF invoices: recognised by `%PDF-`, their text extracted with poppler's
//! `pdftotext -layout` and audited as a text invoice. The `.txt` beside each
//! PDF in the corpora was made by `pdftotext -layout` (poppler 22.12.0; see
//! the SOURCES.md files), so auditing the PDF must give what auditing the
//! `.txt` gives: the same items, totals, findings and line numbers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{real_invoices, root, run, run_with_stdin, stderr, stdout};

/// Whether `pdftotext` can be run. Missing, the PDF tests are skipped, but
/// under `CI=true` (where scripts/test installs poppler-utils) they fail.
fn have_pdftotext() -> bool {
    let ok = Command::new("pdftotext")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "pdftotext (poppler-utils) not found; required when CI=true (scripts/test installs it)"
        );
        eprintln!("pdftotext not found: PDF test skipped (apt-get install poppler-utils)");
    }
    ok
}

fn pdfs() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("tests/data/invoices")];
    dirs.extend(real_invoices());
    let mut out = Vec::new();
    for d in dirs {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pdf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The JSON report with every mention of the input's path replaced, and
/// without the notes (the PDF's bill carries one more: where its lines are).
fn comparable(out: &Output, path: &str) -> (Option<i32>, Value, Vec<Value>) {
    let text = stdout(out).replace(path, "FILE");
    let mut v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}: {text}{}", stderr(out)));
    let mut notes = Vec::new();
    for b in v["bills"].as_array_mut().unwrap() {
        if let Some(n) = b.as_object_mut().unwrap().remove("notes") {
            notes.extend(n.as_array().unwrap().iter().cloned());
        }
    }
    (out.status.code(), v, notes)
}

const NOTE: &str = "read from a PDF: lines refer to the text `pdftotext -layout` extracted";

/// Every PDF of both corpora audits exactly as its `.txt` does. With
/// poppler 22.12.0 (the version that made the `.txt` files) the extracted
/// text is the `.txt` byte for byte; another poppler version may space
/// columns differently, and this test then says which file differs.
#[test]
fn every_pdf_audits_as_the_text_pdftotext_made_of_it() {
    if !have_pdftotext() {
        return;
    }
    let pdfs = pdfs();
    // 4 in tests/data/invoices (+ 7 real ones when present).
    assert!(pdfs.len() >= 4, "{pdfs:?}");
    let mut audited = 0;
    for pdf in &pdfs {
        let txt = pdf.with_extension("txt");
        let (p, t) = (pdf.display().to_string(), txt.display().to_string());
        let from_pdf = run(&["audit", "--format", "json", &p]);
        let from_txt = run(&["audit", "--format", "json", &t]);
        if from_txt.status.code() == Some(2) {
            // The parser finds no item in this layout: the PDF fails the same way.
            assert_eq!(
                from_pdf.status.code(),
                Some(2),
                "{p}: {}",
                stderr(&from_pdf)
            );
            assert_eq!(
                stderr(&from_pdf).replace(&p, "FILE"),
                stderr(&from_txt).replace(&t, "FILE"),
                "{p}"
            );
            continue;
        }
        let (code_p, json_p, notes_p) = comparable(&from_pdf, &p);
        let (code_t, json_t, notes_t) = comparable(&from_txt, &t);
        assert_eq!(code_p, code_t, "{p}: exit status");
        assert_eq!(
            json_p, json_t,
            "{p}: the audit of the PDF differs from that of {t} (another poppler version than 22.12.0?)"
        );
        assert!(!notes_t.iter().any(|n| n == NOTE), "{t}: {notes_t:?}");
        assert!(notes_p.iter().any(|n| n == NOTE), "{p}: {notes_p:?}");
        // The bill is a text invoice with items.
        assert_eq!(json_p["bills"][0]["format"], "text-invoice", "{p}");
        assert!(
            json_p["bills"][0]["line_items"].as_u64().unwrap() > 0,
            "{p}"
        );
        audited += 1;
    }
    // At least the 4 synthetic PDFs give bills (their .txt parse).
    assert!(audited >= 4, "{audited}");
}

/// The synthetic GPU invoice's hand figures (tests/data/invoices/expected.toml,
/// `tensorforge_gpu_en.txt`), read from the PDF: the human report says
/// where its line numbers come from.
#[test]
fn a_pdf_invoice_is_read_with_its_figures_and_the_note() {
    if !have_pdftotext() {
        return;
    }
    let pdf = "tests/data/invoices/tensorforge_gpu_en.pdf";
    let out = run(&["audit", pdf]);
    let text = stdout(&out);
    assert!(text.contains(&format!("note: {NOTE}")), "{text}");
    let out = run(&["audit", "--format", "json", pdf]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = &v["bills"][0];
    assert_eq!(b["currency"], "USD");
    // expected.toml: items 1,736.67 (the printed subtotal), a -98.67
    // discount, total 1,736.67 - 98.67 = 1,638.00; the 250.00 credit applied
    // after it gives the amount due 1,388.00, which is not the invoice total.
    assert_eq!(b["stated_subtotal"], "1736.67");
    assert_eq!(b["stated_total"], "1638.00");
    assert_eq!(b["total"], "1638.00");
    // The same PDF on standard input (piped to pdftotext) gives the same bill.
    let bytes = std::fs::read(root().join(pdf)).unwrap();
    let piped = run_with_stdin(&["audit", "--format", "json", "-"], &bytes);
    let w: Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(w["bills"][0]["totals"], b["totals"]);
    assert_eq!(
        w["bills"][0]["findings"].as_array().unwrap().len(),
        b["findings"].as_array().unwrap().len()
    );
    // `lines` numbers the lines of the extracted text, as in the .txt.
    let lines_pdf = stdout(&run(&["lines", "--format", "csv", pdf]));
    let lines_txt = stdout(&run(&[
        "lines",
        "--format",
        "csv",
        "tests/data/invoices/tensorforge_gpu_en.txt",
    ]));
    assert_eq!(
        lines_pdf.replace(".pdf,", ".txt,"),
        lines_txt,
        "lines of the PDF"
    );
    assert!(lines_pdf.lines().count() > 1, "{lines_pdf}");
}

/// A directory walk picks up `.pdf` files; the content, not the name,
/// decides: a text invoice named `.pdf` is read as text (no extractor),
/// binary content named `.pdf` is refused naming the file, and a truncated
/// PDF is refused with pdftotext's own words.
#[test]
fn pdf_names_and_broken_pdfs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let txt = root().join("tests/data/invoices/quillstack_saas_en.txt");
    std::fs::copy(&txt, d.join("text-named.pdf")).unwrap();
    let run_on = |p: &Path, env: Option<(&str, &str)>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_billaudit"));
        c.args(["audit", "--format", "json"]).arg(p);
        if let Some((k, v)) = env {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    // Not a PDF, though named one: read as the text invoice it is, even
    // without any extractor.
    let out = run_on(
        &d.join("text-named.pdf"),
        Some(("BILLAUDIT_PDFTOTEXT", "/nonexistent/pdftotext")),
    );
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    assert_eq!(v["bills"][0]["format"], "text-invoice");
    // (`notes` is left out of the JSON when empty.)
    let notes = v["bills"][0]["notes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!notes.iter().any(|n| n == NOTE), "{notes:?}");
    // Binary, named .pdf.
    let bin = d.join("image.pdf");
    std::fs::write(&bin, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01").unwrap();
    let out = run_on(&bin, None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("image.pdf"), "{}", stderr(&out));
    // No extractor: exit 2 and how to get one.
    let pdf = root().join("tests/data/invoices/tensorforge_gpu_en.pdf");
    let out = run_on(
        &pdf,
        Some(("BILLAUDIT_PDFTOTEXT", "/nonexistent/pdftotext")),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(e.contains("tensorforge_gpu_en.pdf"), "{e}");
    assert!(e.contains("apt-get install poppler-utils"), "{e}");
    assert!(e.contains("brew install poppler"), "{e}");
    if !have_pdftotext() {
        return;
    }
    // Truncated: the first 3,000 of its 15,569 bytes.
    let bytes = std::fs::read(&pdf).unwrap();
    let cut = d.join("cut-short.pdf");
    std::fs::write(&cut, &bytes[..3000]).unwrap();
    let out = run_on(&cut, None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(e.contains("cut-short.pdf"), "{e}");
    assert!(e.contains("pdftotext could not read this PDF"), "{e}");
    // pdftotext's standard error is in the message.
    assert!(e.contains("xref"), "{e}");
    // A directory walk finds the PDF (and the text named .pdf).
    std::fs::remove_file(&cut).unwrap();
    std::fs::remove_file(&bin).unwrap();
    std::fs::copy(&pdf, d.join("gpu.pdf")).unwrap();
    let out = run(&["audit", "--format", "json", d.to_str().unwrap()]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths: Vec<&str> = v["bills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert!(paths[0].ends_with("gpu.pdf"), "{paths:?}");
    assert!(paths[1].ends_with("text-named.pdf"), "{paths:?}");
}
