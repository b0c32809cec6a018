//! Declares the module of each stateful check that registers its state
//! (a line `register!(..)`, `src/audit/accumulator.rs`) in a file of
//! `src/audit/` not named in `src/audit/mod.rs`: a new stateful check is its
//! file and its row in `src/vocab/checks.rs`, with no list to edit
//! (docs/architecture.md, "Where to add"). The checks already declared in
//! `mod.rs` stay there, so that `cargo fmt` (which follows `mod` lines)
//! reaches them.

// A build script that cannot read the sources should stop the build.
#![allow(clippy::expect_used)]

use std::fs;
use std::path::Path;

fn main() {
    // The package's folder when the script runs, not when it was compiled
    // (`env!`): a build script compiled for one copy of the package (the
    // pre-commit check's temporary clone) is reused by cargo for another
    // copy with the same sources (the action check's `cargo install`), and
    // a path baked in at compile time then names a folder that is gone.
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let audit = Path::new(&root).join("src/audit");
    println!("cargo:rerun-if-changed=src/audit");
    let declared: Vec<String> = fs::read_to_string(audit.join("mod.rs"))
        .expect("read src/audit/mod.rs")
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.split_once("mod ")?.1.strip_suffix(';')?;
            (!l.starts_with("//")).then(|| rest.trim().to_string())
        })
        .collect();
    let mut files: Vec<_> = fs::read_dir(&audit)
        .expect("read src/audit")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut out = String::new();
    let mut declared_here = Vec::new();
    for path in files {
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if declared.iter().any(|d| d == name) {
            continue;
        }
        let text = fs::read_to_string(&path).expect("read a file of src/audit");
        if text.lines().any(|l| l.starts_with("register!(")) {
            out.push_str(&format!(
                "#[path = {:?}]\npub(crate) mod {name};\n",
                path.display()
            ));
            declared_here.push(format!("{:?}", path.display().to_string()));
        }
    }
    // `cargo fmt` does not reach these files: a test checks them with rustfmt.
    out.push_str(&format!(
        "/// The files declared here, for the test that formats them.\n#[cfg(test)]\npub(crate) const DECLARED_BY_BUILD: &[&str] = &[{}];\n",
        declared_here.join(", ")
    ));
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("stateful_checks.rs");
    fs::write(dest, out).expect("write the stateful checks' modules");
}
