//! `sql --findings` on AWS CUR bills (issue 28 item 3): the defects the
//! seeded CUR bills found, each on a bill of its shape.

use std::process::Command;

use crate::common::{audit_json, python_has, root};

/// `N` of `'code': N` in a findings_check.py `ok` line, 0 when absent.
fn count(line: &str, code: &str) -> u32 {
    let key = format!("'{code}': ");
    line.find(&key).map_or(0, |i| {
        line[i + key.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap()
    })
}

/// A CUR row charged again under a fresh line-item id is a duplicate, in
/// legacy CUR (`identity/LineItemId`) and in CUR 2.0
/// (`identity_line_item_id`) alike: the id numbers the rows, it does not
/// make another charge (docs/checks.md `duplicate-line`). Both fixtures:
/// line 3 is line 2 with another id (duplicate); line 4 another resource,
/// line 5 another `Operation` (other charges). So one finding, at line 3.
#[test]
fn cur_repeat_under_a_fresh_line_item_id_is_a_duplicate_in_both_headers() {
    for (file, profile) in [
        ("aws-cur-repeat-fresh-id.csv", "aws-cur"),
        ("aws-cur2-repeat-fresh-id.csv", "aws-cur2"),
    ] {
        let path = root().join("tests/sql/fixtures").join(file);
        let path = path.to_str().unwrap();
        let (report, _) = audit_json(&["--profile", profile, path]);
        let lines: Vec<Option<u64>> = report.bills[0]
            .findings
            .iter()
            .filter(|f| f.code == "duplicate-line")
            .map(|f| f.line)
            .collect();
        assert_eq!(lines, [Some(3)], "{file}");
        if !python_has(&["duckdb"]) {
            continue;
        }
        let out = Command::new("python3")
            .arg(root().join("tests/sql/findings_check.py"))
            .args(["--engine", "duckdb"])
            .args(["--billaudit", env!("CARGO_BIN_EXE_billaudit")])
            .arg(format!("{path}:{profile}"))
            .current_dir(root())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "findings differ:\n{text}");
        assert_eq!(count(&text, "duplicate-line"), 1, "{text}");
    }
}
