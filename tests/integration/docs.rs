//! Generated docs must not drift from the code they describe.

use crate::common::root;

#[test]
fn docs_checks_md_is_generated_from_the_code() {
    let path = root().join("docs/checks.md");
    let want = billaudit::audit::checks_markdown();
    if std::env::var_os("BILLAUDIT_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/checks.md is out of date; regenerate with BILLAUDIT_BLESS=1 cargo test docs_checks"
    );
}

#[test]
fn docs_output_formats_states_the_html_limits_the_code_uses() {
    use billaudit::audit::{MAX_MONTHS, TOP_HIDDEN, hidden_items::MAX_KEPT_DESCRIPTION};
    use billaudit::report::html::*;
    let doc = std::fs::read_to_string(root().join("docs/output-formats.md")).unwrap();
    for want in [
        format!("the first {MAX_BILL_SECTIONS}, in input order"),
        format!("the {MAX_OVERVIEW_BARS} highest hidden shares"),
        format!("the {MAX_OVERVIEW_ROWS} highest hidden shares"),
        format!("the {TOP_HIDDEN} largest"),
        format!("the first {MAX_FINDINGS_SHOWN} (the JSON"),
        format!("the first {MAX_MONTHS} distinct months"),
        format!("the {MAX_TREND_SERIES} with the most months"),
        format!("| the first {MAX_ERRORS_SHOWN} |"),
        format!("cut at {DESCRIPTION_CHARS} characters"),
        format!("at most {MAX_KEPT_DESCRIPTION} characters"),
    ] {
        assert!(doc.contains(&want), "docs/output-formats.md lacks `{want}`");
    }
    assert!(root().join("docs/html-report.png").exists());
}

#[test]
fn docs_formats_lists_every_summary_label_of_the_shared_table() {
    use billaudit::vocab::summary::{CREDIT, DUE, SUBTOTAL, TAX, TOTAL};
    let doc = std::fs::read_to_string(root().join("docs/formats.md")).unwrap();
    for (kind, set) in [
        ("subtotal", SUBTOTAL),
        ("tax", TAX),
        ("credit", CREDIT),
        ("total", TOTAL),
        ("total", DUE),
    ] {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {kind} |")))
            .unwrap_or_else(|| panic!("docs/formats.md has no `{kind}` row of summary labels"));
        for label in set {
            assert!(
                row.contains(&format!("`{label}`")),
                "docs/formats.md: the {kind} row lacks `{label}`"
            );
        }
    }
}

/// The README's short tour is what `billaudit audit` prints on that fixture,
/// to the byte: a reader who runs the first of the two commands sees it.
#[test]
fn readme_tour_is_the_audit_output() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let cmd = "$ billaudit audit fixtures/csv/gpu-pod-en.csv\n";
    let start = readme.find(cmd).expect("the tour in README.md") + cmd.len();
    let end = start + readme[start..].find("```").unwrap();
    let out = crate::common::run(&["audit", "fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(crate::common::stdout(&out), &readme[start..end]);
}
