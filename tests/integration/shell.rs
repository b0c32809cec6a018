//! Where people run billaudit: shell completions, the man page, colour on
//! a terminal (and never elsewhere), and a reader that closes the pipe.

use std::process::{Command, Output, Stdio};

use crate::common::*;

/// Every command of `billaudit --help`, written out here by hand.
const COMMANDS: [&str; 11] = [
    "audit",
    "check",
    "explain",
    "profiles",
    "init",
    "rules",
    "lines",
    "reprice",
    "sql",
    "completions",
    "man",
];

/// The binary from the project root, with the colour variables of the
/// machine removed and `vars` set.
fn run_env(args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_billaudit"));
    cmd.args(args).current_dir(root());
    for v in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM"] {
        cmd.env_remove(v);
    }
    cmd.envs(vars.iter().copied());
    cmd.output().expect("run billaudit")
}

// ANSI SGR codes (ECMA-48): ESC [ 1 m bold, 31 red, 32 green, 33 yellow, 0 reset.
const RED: &str = "\x1b[1m\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const GREEN: &str = "\x1b[32m";
const RESET: &str = "\x1b[0m";

#[test]
fn completions_name_every_command_and_bash_accepts_its_script() {
    let out = run(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let bash = stdout(&out);
    for c in COMMANDS {
        assert!(bash.contains(c), "bash completion lacks {c}");
    }
    assert!(bash.contains("--format"));
    assert!(bash.contains("--color"));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("billaudit.bash");
    std::fs::write(&script, &bash).unwrap();
    let check = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", stderr(&check));
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(stdout(&out).contains("audit"), "{shell}");
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

/// groff's plain-text rendering of a roff page, or None where groff is missing.
fn groff(roff: &[u8]) -> Option<(String, String)> {
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    use std::io::Write;
    child.stdin.take().unwrap().write_all(roff).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Bold and underline are overstrikes (`X\bX`); keep the last character.
    let text = String::from_utf8_lossy(&out.stdout);
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\x08' {
            plain.pop();
            continue;
        }
        plain.push(c);
    }
    let plain = plain.replace(['\u{2010}', '\u{2212}'], "-");
    Some((plain, stderr(&out)))
}

#[test]
fn the_man_page_renders_and_lists_every_command() {
    let out = run(&["man"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let roff = stdout(&out);
    assert!(roff.contains(".TH BILLAUDIT 1"), "{roff}");
    for c in COMMANDS {
        assert!(roff.contains(c), "the man page lacks {c}");
    }
    match groff(&out.stdout) {
        Some((text, warnings)) => {
            assert!(warnings.is_empty(), "groff: {warnings}");
            assert!(text.contains("NAME"), "{text}");
            assert!(text.contains("billaudit - Audit cloud"), "{text}");
            for c in COMMANDS {
                assert!(text.contains(c), "rendered page lacks {c}");
            }
        }
        None => eprintln!("groff is not installed: the roff text was checked only"),
    }
    // A command's own page has its flags.
    let out = run(&["man", "audit"]);
    assert_eq!(out.status.code(), Some(0));
    let roff = stdout(&out);
    assert!(roff.contains(".TH BILLAUDIT-AUDIT 1"), "{roff}");
    assert!(roff.contains("format"), "{roff}");
    if let Some((text, warnings)) = groff(&out.stdout) {
        assert!(warnings.is_empty(), "groff: {warnings}");
        assert!(text.contains("--fail-on"), "{text}");
        assert!(text.contains("--color"), "{text}");
    }
    let out = run(&["man", "no-such-command"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("audit"));
}

#[test]
fn color_always_paints_severities_verdicts_and_the_threshold() {
    let failing = fixture("csv/arithmetic-error.csv");
    let over = fixture("csv/hidden-share-over-5pct.csv");
    let clean = fixture("csv/clean-bill.csv");
    let (failing, over, clean) = (
        failing.to_str().unwrap(),
        over.to_str().unwrap(),
        clean.to_str().unwrap(),
    );
    let out = run_env(&["audit", "--color", "always", failing, over, clean], &[]);
    let text = stdout(&out);
    assert!(text.contains(&format!("{RED}FAILED{RESET}")), "{text}");
    assert!(
        text.contains(&format!("    {RED}error{RESET}    ")),
        "{text}"
    );
    assert!(
        text.contains(&format!("[{RED}ABOVE THRESHOLD{RESET}]")),
        "{text}"
    );
    assert!(text.contains(&format!("{GREEN}PASSED{RESET}")), "{text}");
    // The exit code is the same as uncoloured: 1, a bill failed.
    assert_eq!(out.status.code(), Some(1));

    // Without colour (flag, or auto on a pipe) the report is exactly the
    // coloured one without its codes: nothing else moved.
    let strip = |s: &str| {
        [RED, YELLOW, GREEN, RESET, "\x1b[36m"]
            .iter()
            .fold(s.to_string(), |t, code| t.replace(code, ""))
    };
    let never = run_env(&["audit", "--color", "never", failing, over, clean], &[]);
    let auto = run_env(&["audit", failing, over, clean], &[]);
    assert_eq!(stdout(&never), strip(&text));
    assert_eq!(never.stdout, auto.stdout);
    assert!(!never.stdout.contains(&0x1b));

    // NO_COLOR wins in auto, even over CLICOLOR_FORCE; CLICOLOR_FORCE
    // colours a pipe; CLICOLOR=0 does not.
    let args = ["audit", failing];
    for (vars, coloured) in [
        (vec![("NO_COLOR", "1")], false),
        (vec![("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], false),
        (vec![("CLICOLOR_FORCE", "1")], true),
        (vec![("CLICOLOR_FORCE", "0")], false),
        (vec![("CLICOLOR", "0")], false),
    ] {
        let out = run_env(&args, &vars);
        assert_eq!(
            out.stdout.contains(&0x1b),
            coloured,
            "{vars:?}: {}",
            stdout(&out)
        );
    }
    // `--color never` beats CLICOLOR_FORCE; `--color always` beats NO_COLOR.
    let out = run_env(
        &["audit", "--color", "never", failing],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(!out.stdout.contains(&0x1b));
    let out = run_env(
        &["audit", "--color", "always", failing],
        &[("NO_COLOR", "1")],
    );
    assert!(out.stdout.contains(&0x1b));
}

#[test]
fn machine_formats_are_never_coloured() {
    let failing = fixture("csv/arithmetic-error.csv");
    let failing = failing.to_str().unwrap();
    for format in [
        "json", "jsonl", "csv", "markdown", "junit", "sarif", "github", "html",
    ] {
        let out = run_env(
            &["audit", "--color", "always", "--format", format, failing],
            &[("CLICOLOR_FORCE", "1")],
        );
        assert!(!out.stdout.is_empty(), "{format}");
        assert!(!out.stdout.contains(&0x1b), "{format}: {}", stdout(&out));
    }
    let out = run_env(
        &["lines", "--color", "always", "--format", "csv", failing],
        &[],
    );
    assert!(!out.stdout.contains(&0x1b));
}

#[test]
fn check_and_lines_are_coloured_too() {
    let dir = tempfile::tempdir().unwrap();
    let bill = dir.path().join("clean-bill.csv");
    std::fs::copy(fixture("csv/clean-bill.csv"), &bill).unwrap();
    std::fs::write(dir.path().join("clean-bill.csv.expect.toml"), "not [toml").unwrap();
    let d = dir.path().to_str().unwrap();
    let out = run_env(&["check", "--color", "always", d], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!(": {RED}BROKEN{RESET}\n")),
        "{}",
        stdout(&out)
    );
    // clean-bill.csv line 5 is bandwidth (its expectation's oracle says so).
    let out = run_env(&["lines", "--color", "always", d], &[]);
    assert!(
        stdout(&out).contains(&format!("{YELLOW}bandwidth{RESET}")),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains(" compute "), "{}", stdout(&out));
    let plain = run_env(&["lines", "--color", "never", d], &[]);
    let coloured = stdout(&out).replace(YELLOW, "").replace(RESET, "");
    assert_eq!(stdout(&plain), coloured);
}

/// Runs billaudit with its stdout a pipe whose reading end is closed at once.
fn closed_pipe(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_billaudit"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_never_turns_a_failing_result_into_0() {
    // check: one expectation file is broken (not TOML), so the result is 1.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("csv/clean-bill.csv"), dir.path().join("a.csv")).unwrap();
    std::fs::write(dir.path().join("a.csv.expect.toml"), "not [toml").unwrap();
    let d = dir.path().to_str().unwrap();
    for format in ["human", "json", "jsonl"] {
        let out = closed_pipe(&["check", "--format", format, d]);
        assert_eq!(out.status.code(), Some(1), "check {format}");
        assert!(stderr(&out).is_empty(), "quiet: {}", stderr(&out));
    }
    // audit: arithmetic-error.csv has error findings, so the result is 1;
    // clean-bill.csv passes, so 0.
    for (bill, code) in [("csv/arithmetic-error.csv", 1), ("csv/clean-bill.csv", 0)] {
        let path = fixture(bill);
        for format in ["human", "json", "jsonl"] {
            let out = closed_pipe(&["audit", "--format", format, path.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(code), "audit {bill} {format}");
            assert!(stderr(&out).is_empty(), "quiet: {}", stderr(&out));
        }
    }
    // The shell's view: `set -o pipefail` and a reader that stops after one byte.
    let bin = env!("CARGO_BIN_EXE_billaudit");
    let script = format!(
        "set -o pipefail; '{bin}' check '{d}' | head -c1 >/dev/null; echo \"${{PIPESTATUS[0]}}\""
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(stdout(&out).trim(), "1", "{}", stderr(&out));
}

#[test]
fn colour_codes_are_only_ours_bill_text_is_still_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let bill = dir.path().join("esc.csv");
    // An ESC colour sequence and a bell in a description; line 2 is also
    // an arithmetic error (2 x 1.00 = 2.00, billed 3.00), so it is quoted
    // in an error finding.
    std::fs::write(
        &bill,
        "Item,Qty,Unit,Price,Cost,Currency\n\
         \"GPU \x1b[31mRED\x1b[0m hours\x07\",2,hours,1.00,3.00,USD\n",
    )
    .unwrap();
    let bill = bill.to_str().unwrap();
    for args in [
        vec!["audit", "--color", "always", bill],
        vec!["lines", "--color", "always", bill],
    ] {
        let out = run_env(&args, &[]);
        let text = stdout(&out);
        assert!(
            text.contains("GPU \\u{1b}[31mRED\\u{1b}[0m hours\\u{7}"),
            "{text}"
        );
        let ours = [RED, YELLOW, GREEN, RESET, "\x1b[36m"]
            .iter()
            .fold(text.clone(), |t, code| t.replace(code, ""));
        assert!(
            !ours.bytes().any(|b| b < 0x20 && b != b'\n'),
            "{args:?}: {ours}"
        );
    }
}
