//! The real public exports never crash the tool: every file gives a report
//! or a clear input error (exit 0, 1 or 2), never a panic.

use crate::common::*;

fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "csv" || x == "gz") {
            out.push(p);
        }
    }
}

#[test]
fn real_exports_do_not_crash() {
    let Some(dir) = real_data() else { return };
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    assert!(
        all.len() >= 20,
        "expected the real exports, found {}",
        all.len()
    );
    for p in all {
        let out = run(&["audit", "--format", "json", p.to_str().unwrap()]);
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{}: exit {code:?}",
            p.display()
        );
        let err = stderr(&out);
        assert!(!err.contains("internal error"), "{}: {err}", p.display());
        let _: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: JSON: {e}", p.display()));
        if code == Some(2) {
            assert!(
                err.contains(p.file_name().unwrap().to_str().unwrap()),
                "{}: {err}",
                p.display()
            );
        }
    }
}
