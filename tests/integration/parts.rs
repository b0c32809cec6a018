//! Split parts (`bill_1.csv`, `bill_2.csv`): which files are parts of one
//! bill (docs/formats.md, "Split parts"), and findings on a merged bill
//! located in the part their line comes from, in every report format.

use crate::common::{run_in, stderr, stdout};

const HEADER: &str = "Description,Quantity,Unit Price,Amount,Currency\n";

/// Two parts of one bill. Findings on lines:
/// - bill_1.csv:2: 10 x 2.00 = 20.00, billed 21.00 (line-arithmetic);
/// - bill_2.csv:3: 3 x 2.00 = 6.00, billed 7.00 (line-arithmetic);
/// - bill_2.csv:4: `Mystery item` matches no rule (unclassified-items).
fn two_parts() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bill_1.csv"),
        format!("{HEADER}GPU RTX 4090 hours,10,2.00,21.00,USD\nStorage 100 GB,1,5.00,5.00,USD\n"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bill_2.csv"),
        format!(
            "{HEADER}GPU RTX 4090 hours,5,2.00,10.00,USD\nGPU RTX 4090 hours,3,2.00,7.00,USD\nMystery item,1,1.00,1.00,USD\n"
        ),
    )
    .unwrap();
    dir
}

/// (code, path, line) of every finding, sorted.
fn locations(findings: &[billaudit::Finding]) -> Vec<(String, String, Option<u64>)> {
    let mut v: Vec<_> = findings
        .iter()
        .map(|f| (f.code.to_string(), f.path.clone(), f.line))
        .collect();
    v.sort();
    v
}

#[test]
fn findings_on_a_merged_bill_name_the_part_and_its_line() {
    let dir = two_parts();
    let args = ["bill_1.csv", "bill_2.csv"];

    let out = run_in(
        dir.path(),
        &[&["audit", "--format", "json"][..], &args].concat(),
    );
    let r: billaudit::report::json::JsonReport =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    assert_eq!(r.bills.len(), 1);
    let b = &r.bills[0];
    // The bill keeps its merged name; each finding names a real file.
    assert_eq!(b.path, "bill_1.csv + bill_2.csv");
    let s = |x: &str| x.to_string();
    assert_eq!(
        locations(&b.findings),
        vec![
            (s("line-arithmetic"), s("bill_1.csv"), Some(2)),
            (s("line-arithmetic"), s("bill_2.csv"), Some(3)),
            (s("unclassified-items"), s("bill_2.csv"), Some(4)),
        ]
    );

    // SARIF: every result's artifact is a file that exists.
    let out = run_in(
        dir.path(),
        &[&["audit", "--format", "sarif"][..], &args].concat(),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut got: Vec<(String, String, u64)> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap().to_string(),
                loc["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                loc["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            (s("line-arithmetic"), s("bill_1.csv"), 2),
            (s("line-arithmetic"), s("bill_2.csv"), 3),
            (s("unclassified-items"), s("bill_2.csv"), 4),
        ]
    );
    for (_, uri, _) in &got {
        assert!(dir.path().join(uri).is_file(), "{uri}");
    }

    // GitHub annotations, JUnit and the human report.
    let out = run_in(
        dir.path(),
        &[&["audit", "--format", "github"][..], &args].concat(),
    );
    let text = stdout(&out);
    assert!(
        text.contains("::error file=bill_2.csv,line=3,title=line-arithmetic::"),
        "{text}"
    );
    assert!(
        text.contains("::error file=bill_1.csv,line=2,title=line-arithmetic::"),
        "{text}"
    );
    assert!(!text.contains(" + "), "{text}");
    let out = run_in(
        dir.path(),
        &[&["audit", "--format", "junit"][..], &args].concat(),
    );
    assert!(
        stdout(&out).contains("bill_2.csv:3: error:"),
        "{}",
        stdout(&out)
    );
    let out = run_in(dir.path(), &[&["audit"][..], &args].concat());
    let text = stdout(&out);
    assert!(
        text.contains("bill_1.csv + bill_2.csv  [generic-csv, USD]"),
        "{text}"
    );
    assert!(text.contains("  bill_2.csv:3: 3 x 2.00 = 6.00"), "{text}");
    assert!(text.contains("  bill_2.csv:4: 1 item"), "{text}");
}

/// A whole-bill finding on a merged bill names the first part; an
/// `[[accept]]` entry for a part's line covers that line only.
#[test]
fn whole_bill_findings_name_the_first_part_and_accepts_match_the_part() {
    let dir = two_parts();
    std::fs::write(
        dir.path().join("billaudit.toml"),
        "[[accept]]\ncode = \"line-arithmetic\"\npath = \"bill_2.csv\"\nline = 3\nreason = \"credit note 7\"\n\n\
         [thresholds]\nhidden-fee-share = \"1%\"\n\n[[rule]]\ncontains = \"mystery\"\ncategory = \"scheduling\"\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["audit", "--format", "json", "bill_1.csv", "bill_2.csv"],
    );
    let r: billaudit::report::json::JsonReport =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    let f = &r.bills[0].findings;
    // scheduling 1.00 of subtotal 21.00 + 5.00 + 10.00 + 7.00 + 1.00 = 44.00:
    // 2.27% > 1%.
    let share = f.iter().find(|f| f.code == "hidden-fee-share").unwrap();
    assert_eq!((share.path.as_str(), share.line), ("bill_1.csv", None));
    let arith: Vec<(&str, Option<u64>, bool)> = f
        .iter()
        .filter(|f| f.code == "line-arithmetic")
        .map(|f| (f.path.as_str(), f.line, f.accepted.is_some()))
        .collect();
    assert_eq!(
        arith,
        vec![
            ("bill_1.csv", Some(2), false),
            ("bill_2.csv", Some(3), true)
        ]
    );
}

/// A year or a date at the end of a name is not a part number: one bill per
/// year, not one bill of two years. Zero-padded parts after `-part-` are.
#[test]
fn years_and_dates_are_not_part_numbers() {
    let dir = tempfile::tempdir().unwrap();
    for (name, amount) in [
        ("cost_2024.csv", "10.00"),
        ("cost_2025.csv", "12.00"),
        ("cost-2024-11.csv", "3.00"),
        ("cost-2024-12.csv", "4.00"),
        ("bill-part-0001.csv", "1.00"),
        ("bill-part-0002.csv", "2.00"),
    ] {
        std::fs::write(
            dir.path().join(name),
            format!("{HEADER}GPU RTX 4090 hours,1,{amount},{amount},USD\n"),
        )
        .unwrap();
    }
    let out = run_in(dir.path(), &["audit", "--format", "json", "."]);
    let r: billaudit::report::json::JsonReport =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    let mut bills: Vec<(String, String)> = r
        .bills
        .iter()
        .map(|b| (b.path.trim_start_matches("./").to_string(), b.total.clone()))
        .collect();
    bills.sort();
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        bills,
        vec![
            // 1.00 + 2.00 = 3.00
            s("bill-part-0001.csv + bill-part-0002.csv", "3.00"),
            s("cost-2024-11.csv", "3.00"),
            s("cost-2024-12.csv", "4.00"),
            s("cost_2024.csv", "10.00"),
            s("cost_2025.csv", "12.00"),
        ]
    );
}

/// The HTML report's largest hidden items, and a repeated row, name the part
/// their line is in.
#[test]
fn hidden_items_and_repeats_on_a_merged_bill_name_the_part() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bill_1.csv"),
        format!(
            "{HEADER}GPU RTX 4090 hours,10,2.00,20.00,USD\nInternet egress 5 GB,5,0.10,0.50,USD\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bill_2.csv"),
        format!(
            "{HEADER}Internet egress 90 GB,90,0.10,9.00,USD\nGPU RTX 4090 hours,10,2.00,20.00,USD\n"
        ),
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["audit", "--format", "html", "bill_1.csv", "bill_2.csv"],
    );
    let html = stdout(&out);
    assert!(
        html.contains(">bill_2.csv:2<"),
        "largest hidden item: {html}"
    );
    assert!(
        html.contains(">bill_1.csv:3<"),
        "second hidden item: {html}"
    );
    assert!(!html.contains("+ bill_2.csv:2"), "{html}");
    // bill_2.csv line 3 repeats bill_1.csv line 2 exactly.
    let out = run_in(
        dir.path(),
        &["audit", "--format", "json", "bill_1.csv", "bill_2.csv"],
    );
    let r: billaudit::report::json::JsonReport = serde_json::from_slice(&out.stdout).unwrap();
    let dup = r.bills[0]
        .findings
        .iter()
        .find(|f| f.code == "duplicate-line")
        .unwrap_or_else(|| panic!("{:#?}", r.bills[0].findings));
    assert_eq!((dup.path.as_str(), dup.line), ("bill_2.csv", Some(3)));
    assert!(
        dup.message.starts_with("repeats line 2 of bill_1.csv "),
        "{}",
        dup.message
    );
}
