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

/// Three bills that state no currency (one in yuan, two in dollars, as the
/// issue found them): 1000.00 + 26.64 = 1026.64, 300.00 + 20.00 = 320.00,
/// 80.00.
fn three_unknown_bills() -> (tempfile::TempDir, Vec<String>) {
    let d = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (name, body) in [
        (
            "yuan.csv",
            "日期,项目,金额\n2025-10-03,GPU instance RTX 4090,1000.00\n2025-10-03,Data transfer out,26.64\n",
        ),
        (
            "d1.csv",
            "Date,Description,Amount\n2025-10-04,GPU instance A100,300.00\n2025-10-04,Snapshot storage,20.00\n",
        ),
        (
            "d2.csv",
            "Date,Description,Amount\n2025-11-05,GPU instance H100,80.00\n",
        ),
    ] {
        let p = d.path().join(name);
        std::fs::write(&p, body).unwrap();
        paths.push(p.display().to_string());
    }
    (d, paths)
}

#[test]
fn bills_of_unknown_currency_are_never_summed() {
    let (_d, paths) = three_unknown_bills();
    let args: Vec<&str> = std::iter::once("audit")
        .chain(paths.iter().map(String::as_str))
        .collect();
    let text = stdout(&run(&args));
    // 1000.00 + 26.64 + 300.00 + 20.00 + 80.00 = 1426.64: never printed.
    assert!(!text.contains("1426.64"), "{text}");
    assert!(!text.contains("3 bills, total"), "{text}");
    for want in ["total 1026.64", "total 320.00", "total 80.00"] {
        assert!(
            text.lines()
                .any(|l| l.contains("currency unknown (") && l.contains(want)),
            "`{want}` not on its own summary line:\n{text}"
        );
    }
    // Each bill says its currency is unknown and how to give it.
    assert_eq!(
        text.matches("give it with --currency CODE").count(),
        3,
        "{text}"
    );

    let mut json_args = args.clone();
    json_args.extend(["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&run(&json_args).stdout).unwrap();
    let summary = v["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 3, "{summary:?}");
    let mut totals: Vec<&str> = summary
        .iter()
        .map(|s| s["total"].as_str().unwrap())
        .collect();
    totals.sort_unstable();
    assert_eq!(totals, ["1026.64", "320.00", "80.00"]);
    assert!(
        summary
            .iter()
            .all(|s| s["currency"].is_null() && s["bill"].is_string())
    );

    // The HTML trend draws one series per bill of unknown currency.
    let mut html_args = args.clone();
    html_args.extend(["--format", "html"]);
    let html = stdout(&run(&html_args));
    for path in &paths {
        assert!(
            html.contains(&format!("currency unknown ({path})")),
            "no series of its own for {path}"
        );
    }
    assert!(html.contains("give it with --currency CODE"));
}

#[test]
fn currency_flag_sets_the_currency_and_says_so() {
    let (_d, paths) = three_unknown_bills();
    let out = run(&["audit", "--currency", "usd", &paths[1], &paths[2]]);
    let text = stdout(&out);
    // 320.00 + 80.00 = 400.00 USD, both bills now in USD.
    assert!(text.contains("USD: 2 bills, total 400.00"), "{text}");
    assert_eq!(
        text.matches("currency USD from --currency").count(),
        2,
        "{text}"
    );
    // A bill that states its currency keeps it.
    let out = run(&["audit", "--currency", "CNY", "fixtures/csv/clean-bill.csv"]);
    let text = stdout(&out);
    assert!(text.contains("[generic-csv, USD]"), "{text}");
    // A code that is not ISO 4217 is a usage error naming the flag.
    for bad in ["XYZ", "dollars", "$"] {
        let out = run(&["audit", "--currency", bad, &paths[0]]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = stderr(&out);
        assert!(
            err.contains("--currency") && err.contains("ISO 4217"),
            "{err}"
        );
    }
}

#[test]
fn currency_in_billaudit_toml_and_in_a_profile() {
    let (d, paths) = three_unknown_bills();
    let cfg = d.path().join("billaudit.toml");
    std::fs::write(
        &cfg,
        "currency = \"USD\"\n\n[[profile]]\nname = \"yuan-export\"\ncost = \"金额\"\ncurrency = \"CNY\"\n\
         signature = [\"项目\", \"金额\"]\ncolumns = { description = \"项目\", date = \"日期\" }\n",
    )
    .unwrap();
    // The config's key: the bill says where its currency came from.
    let out = run_in(d.path(), &["audit", &paths[1]]);
    let text = stdout(&out);
    assert!(text.contains("[generic-csv, USD]"), "{text}");
    assert!(text.contains("currency USD from `currency` in"), "{text}");
    // A profile's currency wins over the config's key.
    let out = run_in(d.path(), &["audit", &paths[0]]);
    let text = stdout(&out);
    assert!(text.contains("[yuan-export, CNY]"), "{text}");
    assert!(
        text.contains("the `currency` of profile `yuan-export`"),
        "{text}"
    );
    // The flag wins over both.
    let out = run_in(
        d.path(),
        &[
            "audit",
            "--profile",
            "yuan-export",
            "--currency",
            "EUR",
            &paths[0],
        ],
    );
    assert!(
        stdout(&out).contains("[yuan-export, EUR]"),
        "{}",
        stdout(&out)
    );
    // An unknown code in the file is an input error naming the key.
    for (text, key) in [
        ("currency = \"dollars\"\n", "currency"),
        (
            "[[profile]]\nname = \"p\"\ncost = \"Amount\"\ncurrency = \"XYZ\"\n",
            "profile `p`: currency",
        ),
    ] {
        std::fs::write(&cfg, text).unwrap();
        let out = run_in(d.path(), &["audit", &paths[1]]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = stderr(&out);
        assert!(
            err.contains("billaudit.toml:") && err.contains(key),
            "{err}"
        );
        assert!(err.contains("ISO 4217"), "{err}");
    }
}
