//! billaudit.toml end to end: a new provider taught without Rust, user rules,
//! the price book, billing rounding, accepted findings, `init`, `rules`,
//! `lines`, and every config error message (snapshots).

use crate::common::{audit_json, codes, root, run, run_in, stderr, stdout};

const WOLKEN: &str = "tests/data/config/wolkengpu/abrechnung-2025-10.csv";
const WOLKEN_PROFILE: &str = "tests/data/config/wolkengpu/profile-only.toml";
const WOLKEN_CONFIG: &str = "tests/data/config/wolkengpu/billaudit.toml";

/// Step 0: without a config, the generic profile reads the German columns
/// (`Datum`, `Leistung`, `Menge`, `Einzelpreis`, `Betrag (EUR)`, ...: the
/// names of src/vocab/headers.rs), and the built-in rules know the common
/// German words (`Festplatte`, `Sicherungskopie`, `Datenübertragung`,
/// `Orchestrierungsgebühr`, `Mehrwertsteuer`, `Gutschrift`).
#[test]
fn new_provider_step0_generic_reads_the_columns_and_the_german_words() {
    let (r, out) = audit_json(&[WOLKEN]);
    // Hidden 10.00 + 6.00 + 4.00 = 20.00 of 33.39 + 35.00 + 20.00 = 88.39
    // (22.63%): above 5%, exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let b = &r.bills[0];
    assert_eq!(b.format, "generic-csv");
    assert_eq!(b.currency.as_deref(), Some("EUR"));
    assert_eq!(
        b.currency_note.as_deref(),
        Some("no currency column; assumed EUR from the header `Betrag (EUR)`")
    );
    assert_eq!(b.line_items, 8);
    // Compute 14.49 + 18.90 = 33.39; the other lines one category each.
    assert_eq!(
        b.totals.values(),
        [
            "33.39", "35.00", "10.00", "6.00", "4.00", "16.79", "-5.00", "0"
        ]
    );
    assert_eq!(b.hidden, "20.00");
    assert!(!codes(b).contains(&"unclassified-items".to_string()));
}

/// Step 1: a profile in TOML maps the German columns, semicolons and
/// decimal commas, with the same classification.
#[test]
fn new_provider_step1_profile_reads_the_csv() {
    let (r, out) = audit_json(&["--config", WOLKEN_PROFILE, WOLKEN]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let b = &r.bills[0];
    assert_eq!(b.format, "wolkengpu");
    assert_eq!(b.currency.as_deref(), Some("EUR"));
    assert_eq!(b.line_items, 8);
    assert_eq!(b.totals.compute, "33.39");
    assert_eq!(b.totals.other, "0");
    assert!(!codes(b).contains(&"unclassified-items".to_string()));
}

/// Step 2: rules for the German fee names give a correct audit, exactly.
#[test]
fn new_provider_step2_rules_classify_every_fee() {
    let (r, out) = audit_json(&["--config", WOLKEN_CONFIG, WOLKEN]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let b = &r.bills[0];
    assert_eq!(
        b.totals.values(),
        [
            "33.39", "35.00", "10.00", "6.00", "4.00", "16.79", "-5.00", "0"
        ]
    );
    assert_eq!(b.subtotal, "88.39");
    assert_eq!(b.hidden, "20.00");
    assert_eq!(b.hidden_share.as_deref(), Some("0.226270"));
    assert_eq!(b.total, "100.18");
    assert_eq!(
        codes(b),
        vec![
            "billing-rounding",
            "hidden-fee-share",
            "rate-above-reference",
            "replica-redundancy",
            "scheduling-fee-share"
        ]
    );
}

/// Naming the user profile forces it, with its delimiter.
#[test]
fn new_provider_forced_user_profile() {
    let (r, out) = audit_json(&["--config", WOLKEN_CONFIG, "--profile", "wolkengpu", WOLKEN]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(r.bills[0].format, "wolkengpu");
    assert_eq!(r.bills[0].total, "100.18");
    let out = run(&["profiles", "--config", WOLKEN_CONFIG]);
    assert!(stdout(&out).starts_with("wolkengpu"), "{}", stdout(&out));
}

/// Step 3: `lines` shows which rule decided each line.
#[test]
fn new_provider_step3_lines_show_the_user_rules() {
    let out = run(&[
        "lines",
        "--format",
        "csv",
        "--config",
        WOLKEN_CONFIG,
        WOLKEN,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("wolkengpu_lines", stdout(&out));
}

/// Step 4: the price book and the rounding check name the overcharge.
#[test]
fn new_provider_step4_price_book_and_rounding() {
    let (r, _) = audit_json(&["--config", WOLKEN_CONFIG, WOLKEN]);
    let f = &r.bills[0].findings;
    let rate = f.iter().find(|f| f.code == "rate-above-reference").unwrap();
    assert_eq!(rate.line, Some(5));
    assert!(rate.message.contains("0.69 EUR"), "{}", rate.message);
    assert!(rate.message.contains("0.50 EUR"), "{}", rate.message);
    assert!(
        rate.message.contains("overcharge of 3.99 EUR on 21 h"),
        "{}",
        rate.message
    );
    let round = f.iter().find(|f| f.code == "billing-rounding").unwrap();
    assert_eq!(round.line, Some(5));
    assert!(
        round.message.contains("overcharge of 0.63 EUR"),
        "{}",
        round.message
    );
}

#[test]
fn user_rule_overrides_a_builtin_rule() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("billaudit.toml");
    std::fs::write(
        &cfg,
        "[[rule]]\nlabel = \"serverless-is-compute\"\ncategory = \"compute\"\ncontains = \"serverless platform fee\"\n",
    )
    .unwrap();
    let (before, _) = audit_json(&["fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(before.bills[0].totals.scheduling, "4.00");
    let (after, _) = audit_json(&[
        "--config",
        cfg.to_str().unwrap(),
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    let b = &after.bills[0];
    assert_eq!(b.totals.scheduling, "0");
    assert_eq!(b.totals.compute, "177.52");
    assert_eq!(b.hidden, "16.00");
    let out = run(&[
        "lines",
        "--config",
        cfg.to_str().unwrap(),
        "--category",
        "compute",
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    let text = stdout(&out);
    assert!(text.contains("user:serverless-is-compute"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
}

#[test]
fn billing_rounding_fires_on_hourly_round_up_and_not_on_per_second_billing() {
    let (r, _) = audit_json(&["tests/data/config/billing-rounding.csv"]);
    let hits: Vec<_> = r.bills[0]
        .findings
        .iter()
        .filter(|f| f.code == "billing-rounding")
        .collect();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].line, Some(2));
    assert!(
        hits[0]
            .message
            .contains("21 h billed for 20.0833 h elapsed"),
        "{}",
        hits[0].message
    );
    assert!(
        hits[0].message.contains("overcharge of 0.63 USD"),
        "{}",
        hits[0].message
    );
}

#[test]
fn accepted_finding_does_not_fail_the_run_but_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("billaudit.toml");
    std::fs::write(
        &cfg,
        "[[accept]]\ncode = \"hidden-fee-share\"\npath = \"fixtures/csv/gpu-pod-*.csv\"\nreason = \"egress agreed with finance\"\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let (before, out) = audit_json(&["fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        before.bills[0]
            .findings
            .iter()
            .all(|f| f.accepted.is_none())
    );
    let (r, out) = audit_json(&["--config", cfg, "fixtures/csv/gpu-pod-en.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(r.passed && r.bills[0].passed);
    let f = r.bills[0]
        .findings
        .iter()
        .find(|f| f.code == "hidden-fee-share")
        .unwrap();
    assert_eq!(f.accepted.as_deref(), Some("egress agreed with finance"));
    let json = stdout(&out);
    assert_eq!(
        json.matches("\"accepted\"").count(),
        1,
        "only set findings carry it"
    );
    let out = run(&["audit", "--config", cfg, "fixtures/csv/gpu-pod-en.csv"]);
    assert!(
        stdout(&out).contains("[accepted: egress agreed with finance]"),
        "{}",
        stdout(&out)
    );
    // A line-scoped acceptance for another line accepts nothing.
    let dir2 = tempfile::tempdir().unwrap();
    let cfg2 = dir2.path().join("b.toml");
    std::fs::write(
        &cfg2,
        "[[accept]]\ncode = \"hidden-fee-share\"\npath = \"gpu-pod-en.csv\"\nline = 7\nreason = \"x\"\n",
    )
    .unwrap();
    let (_, out) = audit_json(&[
        "--config",
        cfg2.to_str().unwrap(),
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn config_keys_thresholds_severity_fail_on_and_flag_precedence() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("billaudit.toml");
    std::fs::write(
        &cfg,
        "fail-on = \"warning\"\n[thresholds]\nhidden-fee-share = \"10%\"\nscheduling-fee-share = \"50%\"\nreplica-redundancy = \"2\"\n[severity]\nunclassified-items = \"off\"\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    // 8.56% hidden: within 10%; fail-on warning, but no warnings are left.
    let (r, out) = audit_json(&["--config", cfg, "fixtures/csv/gpu-pod-en.csv"]);
    assert!(r.bills[0].findings.is_empty(), "{:?}", r.bills[0].findings);
    assert_eq!(out.status.code(), Some(0));
    // A flag wins over the file.
    let (r, out) = audit_json(&[
        "--config",
        cfg,
        "--hidden-threshold",
        "5%",
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    assert_eq!(codes(&r.bills[0]), vec!["hidden-fee-share"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn config_is_found_in_parent_directories() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("billaudit.toml"),
        "[severity]\nhidden-fee-share = \"off\"\n",
    )
    .unwrap();
    let sub = dir.path().join("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    let bill = root().join("fixtures/csv/gpu-pod-en.csv");
    let out = run_in(&sub, &["audit", bill.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn init_writes_a_default_that_parses_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["init"]);
    assert_eq!(out.status.code(), Some(0));
    let written = std::fs::read_to_string(dir.path().join("billaudit.toml")).unwrap();
    assert_eq!(written, billaudit::config::default_toml());
    assert!(billaudit::config::load(&dir.path().join("billaudit.toml")).is_ok());
    let out = run_in(dir.path(), &["init"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--force"));
    assert_eq!(
        run_in(dir.path(), &["init", "--force"]).status.code(),
        Some(0)
    );
}

#[test]
fn example_price_book_parses() {
    let c = billaudit::config::load(&root().join("examples/price-book.toml")).unwrap();
    assert!(c.price_book.entries.len() >= 4);
}

#[test]
fn rules_lists_user_rules_then_builtins_in_order() {
    let out = run(&["rules"]);
    let text = stdout(&out);
    let ids: Vec<&str> = billaudit::classify::rules::BUILTIN
        .iter()
        .map(|r| r.id)
        .collect();
    let mut at = 0;
    for id in ids {
        let p = text[at..].find(&format!("builtin:{id}")).expect(id);
        at += p;
    }
    let out = run(&["rules", "--config", WOLKEN_CONFIG]);
    let text = stdout(&out);
    let user = text.find("user:sicherungskopie").unwrap();
    assert!(user < text.find("builtin:tax").unwrap());
    assert!(text.contains("only profile wolkengpu"));
}

#[test]
fn lines_formats_and_filters() {
    let out = run(&["lines", "--format", "json", "fixtures/csv/gpu-pod-en.csv"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 9);
    assert_eq!(items[0]["line"], 5);
    assert_eq!(items[0]["rule"], "builtin:compute");
    assert_eq!(items[0]["amount"], "82.80");
    let out = run(&[
        "lines",
        "--format",
        "json",
        "--unclassified",
        "fixtures/csv/gpu-pod-en.csv",
    ]);
    assert_eq!(stdout(&out), "[]\n");
    // Of the eight positions of the Japanese invoice, only the domain
    // renewal (line 36) matches no rule; the load balancer (line 23) is
    // `other` by the rule `load-balancer` since issue 26.
    let out = run(&[
        "lines",
        "--unclassified",
        "tests/data/invoices/hoshizora_cloud_ja.txt",
    ]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(lines[0].contains(".txt:36 other"), "{text}");
    let out = run(&["lines", "fixtures/csv/nope.csv"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Every config error: file:line:column, the offending TOML, a hint, exit 2.
#[test]
fn config_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "unknown_top_level_key",
            "[treshold]\nhidden-fee-share = \"5%\"\n",
        ),
        (
            "unknown_threshold",
            "[thresholds]\nhiden-fee-share = \"5%\"\n",
        ),
        ("bad_share", "[thresholds]\nreplica-share = \"lots\"\n"),
        (
            "unknown_check_in_severity",
            "[severity]\nline-arithmetc = \"off\"\n",
        ),
        (
            "bad_severity_level",
            "[severity]\nline-arithmetic = \"fatal\"\n",
        ),
        ("bad_fail_on", "fail-on = \"sometimes\"\n"),
        (
            "rule_without_matcher",
            "[[rule]]\nlabel = \"x\"\ncategory = \"storage\"\n",
        ),
        (
            "rule_bad_category",
            "[[rule]]\ncategory = \"storage-replicas\"\ncontains = \"x\"\n",
        ),
        (
            "rule_bad_regex",
            "[[rule]]\ncategory = \"storage\"\nregex = \"disk(\"\n",
        ),
        (
            "rule_unknown_key",
            "[[rule]]\ncategory = \"storage\"\ncontain = \"disk\"\n",
        ),
        (
            "rule_bad_glob",
            "[[rule]]\ncategory = \"storage\"\ncontains = \"x\"\npaths = [\"bills/[.csv\"]\n",
        ),
        (
            "profile_unknown_role",
            "[[profile]]\nname = \"p\"\ncost = \"Betrag\"\ncolumns = { descripton = \"Leistung\" }\n",
        ),
        (
            "profile_bad_encoding",
            "[[profile]]\nname = \"p\"\ncost = \"Betrag\"\nencoding = \"latin-99\"\n",
        ),
        (
            "profile_bad_decimal_mark",
            "[[profile]]\nname = \"p\"\ncost = \"Betrag\"\ndecimal-mark = \"'\"\n",
        ),
        ("profile_missing_cost", "[[profile]]\nname = \"p\"\n"),
        (
            "price_bad_max",
            "[[price]]\nmatch = \"RTX 4090\"\nmax = \"two\"\n",
        ),
        (
            "accept_unknown_code",
            "[[accept]]\ncode = \"hidden-fees\"\npath = \"*.csv\"\nreason = \"ok\"\n",
        ),
        (
            "accept_empty_reason",
            "[[accept]]\ncode = \"hidden-fee-share\"\npath = \"*.csv\"\nreason = \" \"\n",
        ),
        ("syntax_error", "[thresholds\nhidden-fee-share = \"5%\"\n"),
    ];
    for (name, text) in cases {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("billaudit.toml");
        std::fs::write(&cfg, text).unwrap();
        let out = run(&[
            "audit",
            "--config",
            cfg.to_str().unwrap(),
            "fixtures/csv/clean-bill.csv",
        ]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}");
        let err = stderr(&out).replace(cfg.to_str().unwrap(), "billaudit.toml");
        insta::assert_snapshot!(format!("config_error_{name}"), err);
    }
}

/// docs/config.md's cheat-sheet names every key the parser accepts: the
/// parser's own "expected one of" list for each table is the source.
#[test]
fn docs_config_md_names_every_key() {
    let doc = std::fs::read_to_string(root().join("docs/config.md")).unwrap();
    for table in [
        "bogus-key = 1\n",
        "[thresholds]\nbogus-key = 1\n",
        "[[rule]]\ncategory = \"other\"\nbogus-key = 1\n",
        "[[profile]]\nname = \"p\"\ncost = \"c\"\nbogus-key = 1\n",
        "[[price]]\nmatch = \"m\"\nmax = 1\nbogus-key = 1\n",
        "[[accept]]\ncode = \"c\"\npath = \"p\"\nreason = \"r\"\nbogus-key = 1\n",
    ] {
        let e = billaudit::config::parse("t.toml", table)
            .unwrap_err()
            .message;
        let list = e
            .split("expected one of")
            .nth(1)
            .unwrap_or_else(|| panic!("{e}"));
        for key in list.split('`').skip(1).step_by(2) {
            let listed = [
                format!("| `{key}` |"),
                format!("`[{key}]`"),
                format!("`[[{key}]]`"),
            ]
            .iter()
            .any(|k| doc.contains(k.as_str()));
            assert!(listed, "docs/config.md lacks `{key}`");
        }
    }
    for role in billaudit::normalise::profile::Role::ALL {
        assert!(
            doc.contains(&format!("`{}`", role.as_str())),
            "role {}",
            role.as_str()
        );
    }
    let rows = billaudit::normalise::HEADER_SEARCH_ROWS;
    assert!(doc.contains(&format!("the first {rows} rows")));
}

/// A user profile's `date-formats` reads German times (so `billing-rounding`
/// can see 20h05m billed as 21 h), and `skip` keeps a preview row that looks
/// like the header from being taken for it.
#[test]
fn user_profile_date_formats_and_skip() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("rechnung.csv"),
        "Leistung;Typ;Menge;Einheit;Betrag (EUR);Beginn;Ende\n\
         (Vorschau, nicht abgerechnet)\n\
         Leistung;Typ;Menge;Einheit;Betrag (EUR);Beginn;Ende\n\
         GPU-Instanz RTX 4090;Rechenzeit;21;h;14,49;01.10.2025 00:00;01.10.2025 20:05\n\
         GPU-Instanz RTX 4090;Rechenzeit;3,5;h;2,42;02.10.2025 09:00;02.10.2025 12:30\n",
    )
    .unwrap();
    let base = "[[profile]]\nname = \"wolken-de\"\ncost = \"Betrag\"\n\
                columns = { description = \"Leistung\", quantity = \"Menge\", unit = \"Einheit\", start = \"Beginn\", end = \"Ende\" }\n\
                decimal-mark = \",\"\n";
    let audit = |extra: &str| {
        std::fs::write(dir.path().join("billaudit.toml"), format!("{base}{extra}")).unwrap();
        let out = run_in(dir.path(), &["audit", "--format", "json", "rechnung.csv"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        v["bills"][0].clone()
    };

    // Without `skip`, the preview row is taken for the header: the real
    // header and the preview line become rows that cannot be read.
    let b = audit("");
    assert_eq!(b["line_items"], 2);
    assert_eq!(b["skipped_rows"], 2, "{b:#}");

    // With `skip = 2`, the third row is the header and both charges are read;
    // without date formats the German times stay unread: no rounding finding.
    let b = audit("skip = 2\n");
    assert_eq!(b["line_items"], 2);
    assert_eq!(b["skipped_rows"], 0, "{b:#}");
    assert_eq!(b["total"], "16.91");
    let rounding = |b: &serde_json::Value| {
        b["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "billing-rounding")
            .map(|f| f["line"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert!(rounding(&b).is_empty(), "{b:#}");

    // With `date-formats`, 20h05m billed as 21 h is found (line 4); 3.5 h for
    // 3h30m is exact and passes.
    let b = audit("skip = 2\ndate-formats = [\"%d.%m.%Y %H:%M\"]\n");
    assert_eq!(rounding(&b), vec![4], "{b:#}");

    // A format chrono cannot read is a config error with its place.
    std::fs::write(
        dir.path().join("billaudit.toml"),
        format!("{base}date-formats = [\"%Q.%m\"]\n"),
    )
    .unwrap();
    let out = run_in(dir.path(), &["audit", "rechnung.csv"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("billaudit.toml:6:"), "{err}");
    assert!(err.contains("is not a date format"), "{err}");
}

/// The billaudit.toml of `tests/data/config/everywhere/`: a user profile
/// (gpuhaus, headers no built-in knows) and two user rules, one overriding a
/// built-in rule (standby hours of an RTX 4090 are a fee, not compute).
const EVERYWHERE: &str = "tests/data/config/everywhere";

/// The same bill through audit, check, lines, reprice and sql, each run in
/// the config's directory (the config is found, not named): each command
/// reads the bill with the user profile and classifies it with the user
/// rules before the built-in ones.
#[test]
fn config_applies_to_audit_check_lines_reprice_and_sql() {
    let dir = root().join(EVERYWHERE);
    let bill = "gpuhaus-2025-11.csv";

    // audit: line 3 (2.00) and line 5 (1.00) are scheduling by the user
    // rules: 2.00 + 1.00 = 3.00; compute is line 2 alone, 4.00.
    let out = run_in(&dir, &["audit", "--format", "json", bill]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r: billaudit::report::json::JsonReport = serde_json::from_slice(&out.stdout).unwrap();
    let b = &r.bills[0];
    assert_eq!(b.format, "gpuhaus");
    assert_eq!(b.totals.compute, "4.00");
    assert_eq!(b.totals.scheduling, "3.00");
    assert_eq!(b.total, "17.00");

    // check: the expectation beside the bill (hand arithmetic inside).
    let out = run_in(&dir, &["check", "--require-expectations", bill]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 matched"), "{}", stdout(&out));

    // lines: the rule that decided each line, user rules first.
    let out = run_in(&dir, &["lines", "--format", "csv", bill]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let rule_of = |line: &str| {
        text.lines()
            .find(|l| l.contains(&format!(",{line},")))
            .unwrap_or_else(|| panic!("line {line} in {text}"))
            .to_string()
    };
    assert!(rule_of("2").contains("builtin:compute"), "{text}");
    assert!(rule_of("3").contains("user:standby-is-a-fee"), "{text}");
    assert!(rule_of("5").contains("user:queue-fee"), "{text}");

    // reprice: only line 2 is GPU usage, 10 h (the 5 standby hours are a
    // fee by the user rule); 10 x 0.30 = 3.00 USD against 4.00 paid: -1.00.
    let out = run_in(
        &dir,
        &[
            "reprice",
            "--format",
            "json",
            "--prices",
            "prices.toml",
            bill,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rb = &v["bills"][0];
    assert_eq!(rb["usage"][0]["gpu"], "RTX 4090");
    assert_eq!(rb["usage"][0]["hours"], "10");
    assert_eq!(rb["usage"][0]["paid"], "4.00");
    assert_eq!(rb["quotes"][0]["cost"], "3.00");
    assert_eq!(rb["quotes"][0]["difference"], "-1.00");
    // The user profile named with --profile is forced, as for audit.
    let out = run_in(
        &dir,
        &[
            "reprice",
            "--profile",
            "gpuhaus",
            "--prices",
            "prices.toml",
            bill,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("RTX 4090: 10 GPU-hours"),
        "{}",
        stdout(&out)
    );
    // Without the user profile no built-in profile reads the bill: its
    // columns are inferred from the content (issue 26), not refused.
    let empty = tempfile::tempdir().unwrap();
    let none = empty.path().join("billaudit.toml");
    std::fs::write(&none, "").unwrap();
    let out = run_in(
        &dir,
        &[
            "reprice",
            "--config",
            none.to_str().unwrap(),
            "--prices",
            "prices.toml",
            bill,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The amount's header `Due (USD)` names the currency.
    assert!(
        stdout(&out).contains("[inferred-csv, USD]"),
        "{}",
        stdout(&out)
    );

    // sql: the user rules, in file order, before the profile's markers and
    // the built-in rules, each labelled once.
    let out = run_in(&dir, &["sql", "--dialect", "duckdb", "--profile", "focus"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let q = stdout(&out);
    let standby = q.find("THEN 'scheduling'  -- user:standby-is-a-fee\n");
    let queue = q.find("THEN 'scheduling'  -- user:queue-fee\n");
    let marker = q.find("-- profile:focus-charge-category");
    assert!(
        standby.is_some() && queue.is_some() && marker.is_some(),
        "{q}"
    );
    assert!(standby < queue && queue < marker, "{q}");
    // A query for the user profile cannot be written: refused, by name.
    let out = run_in(
        &dir,
        &["sql", "--dialect", "duckdb", "--profile", "gpuhaus"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).contains("profile `gpuhaus` is a user profile"),
        "{}",
        stderr(&out)
    );
}

/// A user rule scoped to a path applies to that part of a split bill when
/// the parts are audited as one bill, as when the part is read alone.
#[test]
fn user_rule_scoped_to_a_path_applies_to_that_part_of_a_merged_bill() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("billaudit.toml"),
        "[[rule]]\nlabel = \"second-account-fee\"\ncategory = \"scheduling\"\n\
         contains = \"support plan\"\npaths = [\"*_2.csv\"]\n",
    )
    .unwrap();
    let header = "Description,Quantity,Unit,Unit Price,Amount,Currency\n";
    std::fs::write(
        dir.path().join("bill_1.csv"),
        format!(
            "{header}GPU RTX 4090 hours,10,h,2.00,20.00,USD\nSupport plan,1,month,3.00,3.00,USD\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bill_2.csv"),
        format!(
            "{header}GPU RTX 4090 hours,5,h,2.00,10.00,USD\nSupport plan,1,month,4.00,4.00,USD\n"
        ),
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["audit", "--format", "json", "bill_1.csv", "bill_2.csv"],
    );
    let r: billaudit::report::json::JsonReport = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    assert_eq!(r.bills.len(), 1, "the parts are one bill");
    // Only bill_2.csv's support plan (4.00) is scheduling; bill_1.csv's
    // (3.00) is not matched by the rule.
    assert_eq!(r.bills[0].totals.scheduling, "4.00");
    let out = run_in(
        dir.path(),
        &["lines", "--format", "csv", "bill_1.csv", "bill_2.csv"],
    );
    let text = stdout(&out);
    let rule_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("user:second-account-fee"))
        .collect();
    assert_eq!(rule_lines.len(), 1, "{text}");
    assert!(rule_lines[0].starts_with("bill_2.csv,3,"), "{text}");
}

/// User rules classify the lines of a text invoice as they classify CSV
/// rows: first, before the built-in rules (the defect: only the built-in
/// classifier ran on text invoices, so `Sicherungskopie` stayed storage).
#[test]
fn user_rules_classify_text_invoice_lines() {
    let dir = root().join("tests/data/config/text-rule");
    // billaudit.toml is found in the working directory.
    let out = run_in(&dir, &["audit", "--format", "json", "rechnung-2025-10.txt"]);
    let r: billaudit::report::json::JsonReport = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    let b = &r.bills[0];
    assert_eq!(b.format, "text-invoice");
    // compute 15.00 (line 7); storage 40.00 (line 9, built-in);
    // storage_replica 10.00 (line 8, the user rule; built-in says storage).
    assert_eq!(b.totals.compute, "15.00");
    assert_eq!(b.totals.storage, "40.00");
    assert_eq!(b.totals.storage_replica, "10.00");
    // 15.00 + 10.00 + 40.00 = 65.00; hidden 10.00 / 65.00 = 0.1538461... -> 0.153846.
    assert_eq!(b.subtotal, "65.00");
    assert_eq!(b.hidden, "10.00");
    assert_eq!(b.hidden_share.as_deref(), Some("0.153846"));
    assert!(codes(b).contains(&"hidden-fee-share".to_string()));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = run_in(&dir, &["lines", "--format", "csv", "rechnung-2025-10.txt"]);
    let text = stdout(&out);
    let rules: Vec<(&str, &str)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            let line = cells[1];
            let rule = cells
                .iter()
                .find(|c| c.starts_with("user:") || c.starts_with("builtin:"));
            (line, *rule.unwrap_or(&""))
        })
        .collect();
    // Line 7 by the `column = "Description"` rule, line 8 by the keyword
    // rule, line 9 by the built-in rules.
    assert_eq!(
        rules,
        [
            ("7", "user:gpu-stunden"),
            ("8", "user:sicherungskopie"),
            ("9", "builtin:storage")
        ],
        "{text}"
    );
}
