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
