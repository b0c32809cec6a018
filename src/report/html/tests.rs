use maud::html;

use super::text::{Text, cut_text, tail};

#[test]
fn bill_text_is_escaped_and_controls_become_replacement_characters() {
    let page =
        html! { p title=(Text("a\"b")) { (Text("<script>alert('x') & \"y\"</script>\u{0}\t\n")) } };
    assert_eq!(
        page.into_string(),
        "<p title=\"a&quot;b\">&lt;script&gt;alert('x') &amp; &quot;y&quot;&lt;/script&gt;\u{FFFD}\t\n</p>"
    );
}

#[test]
fn long_text_is_cut_visibly_with_the_full_text_in_title() {
    let s = "a".repeat(130);
    let c = cut_text(&s, 120, false).into_string();
    assert!(c.contains(&format!("title=\"{s}\"")));
    assert!(c.contains("… [+10 characters]"));
    assert_eq!(
        cut_text("short <b>", 120, false).into_string(),
        "short &lt;b&gt;"
    );
    assert_eq!(tail("abcdef", 4), "…def");
}

/// `PreEscaped` (maud's "do not escape this") appears once in the report's
/// sources: for the static stylesheet, never for text from a bill.
#[test]
fn only_the_stylesheet_is_spliced_unescaped() {
    let needle = concat!("PreEscaped", "(");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report/html");
    let mut uses: Vec<(String, String)> = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "tests.rs" || !name.ends_with(".rs") {
            continue;
        }
        files += 1;
        let src = std::fs::read_to_string(&path).unwrap();
        for l in src.lines().filter(|l| l.contains(needle)) {
            uses.push((name.clone(), l.trim().to_string()));
        }
    }
    assert!(files >= 8, "{files} files read in {}", dir.display());
    assert_eq!(
        uses,
        [(
            "mod.rs".to_string(),
            "style { (PreEscaped(style::CSS)) }".to_string()
        )],
        "{uses:?}"
    );
}

/// The page's "above threshold" comes from the figures, not from whether a
/// `hidden-fee-share` finding exists: with the check turned off, a bill
/// whose hidden share is 10.00 / 100.00 = 10% is still above 5%.
#[test]
fn above_threshold_comes_from_the_figures_not_the_findings() {
    use crate::model::Check;
    let bill = crate::report::test_bill;
    let on = bill("");
    assert!(on.findings.iter().any(|f| f.code == Check::HiddenFeeShare));
    assert!(super::text::above(&on));
    let off = bill(&format!(
        "[severity]\n{} = \"off\"\n",
        Check::HiddenFeeShare.code()
    ));
    assert!(off.findings.iter().all(|f| f.code != Check::HiddenFeeShare));
    assert!(super::text::above(&off));
    assert_eq!(super::text::status(&off), "above threshold");
    // At a 10% threshold, exactly 10% is within it.
    let within = bill(&format!(
        "[thresholds]\n{} = \"10%\"\n",
        Check::HiddenFeeShare.code()
    ));
    assert!(!super::text::above(&within));
}
