//! What a newcomer trips over (issue 30), each at the process level: the
//! currency of a bill, thresholds out of range, `explain` without a code,
//! the messages, the HTML subtotal and the README's first command.

use crate::common::*;

#[test]
fn explain_without_a_code_lists_every_check() {
    let out = run(&["explain"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for code in [
        "hidden-fee-share",
        "replica-share",
        "line-arithmetic",
        "unclassified-items",
    ] {
        assert!(text.contains(code), "`{code}` missing from:\n{text}");
    }
    // One line per check after the heading, each with its default severity.
    let listed = text.lines().filter(|l| l.starts_with("  ")).count();
    assert_eq!(listed, billaudit::audit::CHECKS.len(), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("hidden-fee-share") && l.contains("error")),
        "{text}"
    );
}

#[test]
fn the_top_level_help_names_every_input_and_convert_its_outputs() {
    let help = stdout(&run(&["--help"]));
    for word in ["CSV", "Parquet", "PDF", "plain-text invoices"] {
        assert!(help.contains(word), "`{word}` missing from --help:\n{help}");
    }
    assert!(help.contains("(CSV or Parquet)"), "{help}");
}

#[test]
fn explain_and_rules_state_no_figure_without_a_source() {
    // CONTEXT.md gives "about 23% of platforms" and "about 60% of hidden
    // fees" as gathered from public documentation, naming none: dropped.
    let all = stdout(&run(&["explain", "--all"]));
    let rules = stdout(&run(&["rules"]));
    for text in [&all, &rules] {
        for figure in [
            "About a quarter",
            "about a quarter",
            "about 60%",
            "About 60%",
        ] {
            assert!(!text.contains(figure), "`{figure}` in:\n{text}");
        }
    }
}

#[test]
fn a_broken_expectation_file_prints_its_toml_error_on_lines() {
    let dir = tempfile::tempdir().unwrap();
    let bill = dir.path().join("bill.csv");
    std::fs::copy(root().join("fixtures/csv/clean-bill.csv"), &bill).unwrap();
    // An unclosed table header on line 2, and an ESC that must stay escaped.
    std::fs::write(
        dir.path().join("bill.csv.expect.toml"),
        "total = \"1\"\n[x\u{1b}[2J\n",
    )
    .unwrap();
    let out = run(&["check", &bill.display().to_string()]);
    let text = stdout(&out);
    assert!(text.contains("BROKEN"), "{text}");
    assert!(!text.contains("\\u{a}"), "line feeds escaped:\n{text}");
    assert!(text.contains("\\u{1b}"), "ESC not escaped:\n{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    // The TOML snippet's lines are lines of the report, indented.
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("2 | [x")),
        "{text}"
    );
}

#[test]
fn bless_prints_what_it_blessed_not_the_audits() {
    let dir = tempfile::tempdir().unwrap();
    let bill = dir.path().join("bill.csv");
    std::fs::copy(root().join("fixtures/csv/gpu-pod-en.csv"), &bill).unwrap();
    let out = run(&["check", "--bless", &bill.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("blessed"), "{text}");
    assert!(text.contains("wrote "), "{text}");
    assert!(text.contains("bill.csv.expect.toml"), "{text}");
    // No category table, no findings: the audit is in the file written.
    for audit_line in ["category", "hidden fees 20.00", "findings:"] {
        assert!(!text.contains(audit_line), "`{audit_line}` in:\n{text}");
    }
    assert!(dir.path().join("bill.csv.expect.toml").exists());
}

#[test]
fn the_html_report_shows_the_stated_subtotal() {
    // Lines 36.00 + 4.00 + 2.00 = 42.00; the bill states a subtotal of
    // 45.00: 45.00 - 42.00 = 3.00 apart.
    let out = run(&[
        "audit",
        "--format",
        "html",
        "fixtures/csv/summary-rows-mismatch.csv",
    ]);
    let html = stdout(&out);
    assert!(html.contains("stated subtotal"), "no stated subtotal");
    let at = html.find("stated subtotal").unwrap();
    let row = &html[at..at + 300.min(html.len() - at)];
    assert!(row.contains("45.00"), "{row}");
    assert!(row.contains("differs from the lines by 3.00"), "{row}");
    // The agreeing bill says so: 36.00 + 4.00 + 2.00 = 42.00 stated 42.00.
    let html = stdout(&run(&[
        "audit",
        "--format",
        "html",
        "fixtures/csv/summary-rows-en.csv",
    ]));
    let at = html.find("stated subtotal").expect("stated subtotal");
    assert!(html[at..].contains("agrees with the lines"));
}

#[test]
fn the_readme_says_its_first_command_exits_1() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block_start = readme.find("## Two commands").unwrap();
    let block = &readme[block_start..];
    let cmd_at = block.find("cargo run --release -- audit ").unwrap();
    let cmd_line = block[cmd_at..].lines().next().unwrap();
    let path = cmd_line.split_whitespace().last().unwrap();
    // What the README promises next to the command...
    let before = &block[..cmd_at];
    let comment = &before[before.rfind("```sh").unwrap()..];
    assert!(comment.contains("exits with code 1"), "{comment}");
    // ... is what the command does.
    let out = run(&["audit", path]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn a_share_threshold_above_100_percent_is_an_input_error_naming_the_flag() {
    // `--hidden-threshold 50` meant 5000% and passed every bill.
    for (value, says) in [("50", "5000%"), ("150%", "above 100%"), ("1.5", "150%")] {
        let out = run(&[
            "audit",
            "--hidden-threshold",
            value,
            "fixtures/csv/clean-bill.csv",
        ]);
        assert_eq!(out.status.code(), Some(2), "{value}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains("--hidden-threshold"), "{err}");
        assert!(err.contains(says), "{value}: {err}");
    }
    for flag in ["--replica-threshold", "--scheduling-threshold"] {
        let out = run(&["audit", flag, "30", "fixtures/csv/clean-bill.csv"]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(stderr(&out).contains(flag));
    }
    // `50%` is half: clean-bill's hidden 10.00 of 576.00 = 1.74% is within.
    let out = run(&[
        "audit",
        "--hidden-threshold",
        "50%",
        "fixtures/csv/clean-bill.csv",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("threshold 50.00%"));
    // 100% and 1 are the largest shares; the redundancy is a ratio, not a
    // share: 2.5 is allowed.
    for (flag, v) in [
        ("--hidden-threshold", "100%"),
        ("--hidden-threshold", "1"),
        ("--redundancy-threshold", "2.5"),
    ] {
        let out = run(&["audit", flag, v, "fixtures/csv/clean-bill.csv"]);
        assert_eq!(out.status.code(), Some(0), "{flag} {v}: {}", stderr(&out));
    }
    // --help says which forms are accepted.
    let help = stdout(&run(&["audit", "--help"]));
    assert!(help.contains("at most 100%"), "{help}");
}

#[test]
fn a_share_threshold_above_100_percent_in_billaudit_toml_names_the_key() {
    for value in ["50", "\"5000%\""] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("billaudit.toml"),
            format!("[thresholds]\nhidden-fee-share = {value}\n"),
        )
        .unwrap();
        let bill = root().join("fixtures/csv/clean-bill.csv");
        let out = run_in(dir.path(), &["audit", &bill.display().to_string()]);
        assert_eq!(out.status.code(), Some(2), "{value}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains("billaudit.toml"), "{err}");
        assert!(err.contains("hidden-fee-share"), "{err}");
        assert!(err.contains("5000%"), "{err}");
    }
}
