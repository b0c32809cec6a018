//! Bill text never reaches a terminal raw: an ESC sequence, a bell or a
//! carriage return in a description is shown escaped (`\u{1b}`) by every
//! human-readable format, so a bill cannot recolour, clear or rewrite the
//! screen of whoever audits it.

use crate::common::run;

/// A bill whose descriptions hold an ANSI colour sequence, a bell, a
/// screen clear and a carriage return; line 2 is also an arithmetic error
/// (2 x 1.00 = 2.00, billed 3.00) so its description is in a finding.
fn hostile_bill(dir: &std::path::Path) -> String {
    let path = dir.join("esc.csv");
    std::fs::write(
        &path,
        "Item,Qty,Unit,Price,Cost,Currency\n\
         \"GPU \x1b[31mRED\x1b[0m hours\x07\",2,hours,1.00,3.00,USD\n\
         \"Data\rdisk\x1b[2J\",1,GB,1.00,1.00,USD\n",
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

/// Bytes below 0x20 other than the printer's own line feeds.
fn controls(out: &[u8]) -> Vec<u8> {
    out.iter()
        .copied()
        .filter(|b| *b < 0x20 && *b != b'\n')
        .collect()
}

#[test]
fn bill_text_is_escaped_in_every_human_format() {
    let dir = tempfile::tempdir().unwrap();
    let bill = hostile_bill(dir.path());
    for args in [
        vec!["audit", bill.as_str()],
        vec!["lines", bill.as_str()],
        vec!["audit", "--format", "markdown", bill.as_str()],
        vec!["audit", "--format", "github", bill.as_str()],
    ] {
        let out = run(&args);
        assert!(!out.stdout.is_empty(), "{args:?}: {out:?}");
        assert_eq!(controls(&out.stdout), b"", "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        // Shown, not dropped: the escape names the byte.
        assert!(text.contains("\\u{1b}"), "{args:?}: {text}");
        assert!(!text.contains('\x7f'), "{args:?}");
    }
    // `lines` shows every description, with the bell and the CR escaped.
    let out = run(&["lines", bill.as_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("GPU \\u{1b}[31mRED\\u{1b}[0m hours\\u{7}"),
        "{text}"
    );
    assert!(text.contains("Data\\u{d}disk\\u{1b}[2J"), "{text}");
    // The finding quotes the description escaped as well.
    let out = run(&["audit", bill.as_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(off by 1.00): GPU \\u{1b}[31mRED\\u{1b}[0m hours\\u{7}"),
        "{text}"
    );
}

// Machine formats keep the bill's text exactly: JSON escapes it by its own
// rules (`\u001b`), and the CSV of `lines` is data for other tools.
#[test]
fn machine_formats_keep_the_text_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let bill = hostile_bill(dir.path());
    let out = run(&["lines", "--format", "json", bill.as_str()]);
    assert_eq!(controls(&out.stdout), b"");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["description"], "GPU \x1b[31mRED\x1b[0m hours\x07");
    let out = run(&["lines", "--format", "csv", bill.as_str()]);
    assert!(out.stdout.contains(&0x1b), "CSV keeps the cell as written");
}

/// Error messages on stderr name the file, and the name is the user's or the
/// archive's: an ESC sequence in it is shown escaped there too.
#[test]
fn error_messages_escape_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bill\x1b[2J.csv");
    // Not a bill: no header, no invoice item (exit 2, an error naming the file).
    std::fs::write(&path, "hello\nworld\n").unwrap();
    let out = run(&["audit", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bill\\u{1b}[2J.csv"), "{err}");
    assert_eq!(controls(&out.stderr), Vec::<u8>::new(), "{err}");
}
