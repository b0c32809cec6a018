//! `.ci/run` means what it says: a step whose tool cannot be installed fails
//! under CI and is a reported skip elsewhere, and the reason printed is the
//! installer's, not a guess (scripts/lib/steps.sh).
//!
//! The tool is made unavailable by shadowing `python3` on PATH with a
//! script that fails as pip does when PyPI cannot be reached.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::root;

const FAKE_PYTHON: &str = "#!/bin/sh\n\
echo 'ERROR: Could not find a version that satisfies the requirement (simulated: index unreachable)' >&2\n\
exit 1\n";

fn shadowed(dir: &Path, name: &str, script: &str) {
    let p = dir.join(name);
    std::fs::write(&p, script).unwrap();
    let mut perm = std::fs::metadata(&p).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&p, perm).unwrap();
}

fn ci_run(step: &str, ci: Option<&str>, shadow: &Path) -> Output {
    let path = format!("{}:{}", shadow.display(), std::env::var("PATH").unwrap());
    let mut cmd = Command::new("bash");
    cmd.arg(root().join(".ci/run"))
        .arg(step)
        .current_dir(root())
        .env("PATH", path)
        .env_remove("CI");
    if let Some(v) = ci {
        cmd.env("CI", v);
    }
    cmd.output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn under_ci_a_step_whose_tool_cannot_be_installed_fails_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    shadowed(dir.path(), "python3", FAKE_PYTHON);
    let out = ci_run("spark", Some("true"), dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("install failed: pip install pyspark exited with status 1"),
        "{t}"
    );
    assert!(t.contains("simulated: index unreachable"), "{t}");
    assert!(t.contains("== spark: FAILED"), "{t}");
    assert!(!t.contains("SKIPPED"), "{t}");
    assert!(!t.contains("no network"), "{t}");
}

#[test]
fn outside_ci_the_same_step_is_a_reported_skip() {
    let dir = tempfile::tempdir().unwrap();
    shadowed(dir.path(), "python3", FAKE_PYTHON);
    for ci in [None, Some("false")] {
        let out = ci_run("spark", ci, dir.path());
        let t = text(&out);
        assert_eq!(out.status.code(), Some(0), "{t}");
        assert!(t.contains("== spark: SKIPPED"), "{t}");
        assert!(t.contains("simulated: index unreachable"), "{t}");
    }
}

#[test]
fn a_failing_step_fails_and_an_unknown_step_is_a_usage_error() {
    // A step that fails for another reason than a missing tool fails in
    // and out of CI: `ci_step` passes its exit code on.
    let lib = root().join("scripts/lib/steps.sh");
    for ci in ["true", ""] {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                ". '{}'; ci_step demo bash -c 'exit 4'",
                lib.display()
            ))
            .env("CI", ci)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "{}", text(&out));
        assert!(text(&out).contains("== demo: FAILED"));
    }
    let dir = tempfile::tempdir().unwrap();
    let out = ci_run("nope", Some("true"), dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// `install_apt chromium` from scripts/lib/steps.sh with `apt-get`
/// shadowed by the script `fake`.
fn install_apt_with(fake: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    shadowed(dir.path(), "apt-get", fake);
    let lib = root().join("scripts/lib/steps.sh");
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap()
    );
    Command::new("bash")
        .arg("-c")
        .arg(format!(". '{}'; install_apt chromium", lib.display()))
        .env("PATH", path)
        .output()
        .unwrap()
}

#[test]
fn apt_install_failures_say_which_part_failed() {
    // apt-get whose install fails and whose update cannot reach the archive.
    let out =
        install_apt_with("#!/bin/sh\necho \"E: simulated failure of apt-get $1\" >&2\nexit 100\n");
    let t = text(&out);
    if running_as_root() {
        assert_eq!(out.status.code(), Some(3), "{t}");
        assert!(
            t.contains("apt-get update (the package archive) exited with status 100"),
            "{t}"
        );
        assert!(t.contains("E: simulated failure of apt-get update"), "{t}");
    } else {
        assert_eq!(out.status.code(), Some(3), "{t}");
        assert!(t.contains("needs root"), "{t}");
    }
}

/// Whether the tests run as root (CI and this machine do).
fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn apt_install_failing_after_a_good_update_names_the_install() {
    let out = install_apt_with(
        "#!/bin/sh\n[ \"$1\" = update ] && exit 0\necho \"E: Unable to locate package $*\" >&2\nexit 100\n",
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(3), "{t}");
    if running_as_root() {
        assert!(
            t.contains("apt-get install chromium exited with status 100"),
            "{t}"
        );
        assert!(t.contains("Unable to locate package"), "{t}");
    }
}

/// `scripts/fuzz.sh smoke` fails when `cargo fuzz run` fails without
/// leaving a crash artifact (a build or libFuzzer error), instead of hiding
/// it behind `|| true`. `cargo fuzz` is shadowed by a fake `cargo-fuzz`
/// whose build succeeds and whose run fails.
#[test]
fn fuzz_smoke_fails_when_cargo_fuzz_run_fails() {
    let dir = tempfile::tempdir().unwrap();
    shadowed(
        dir.path(),
        "cargo-fuzz",
        "#!/bin/sh\ncase \"$2\" in build) exit 0 ;; esac\necho 'error: simulated libFuzzer failure' >&2\nexit 77\n",
    );
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap()
    );
    let out = Command::new("bash")
        .arg(root().join("scripts/fuzz.sh"))
        .args(["smoke", "1"])
        .current_dir(root())
        .env("PATH", path)
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("cargo fuzz run failed with status 77"), "{t}");
    assert!(t.contains("simulated libFuzzer failure"), "{t}");
}

/// `python3` that passes scripts/test-python's venv check and makes a venv
/// whose pip fails as it does when PyPI cannot be reached.
const FAKE_VENV_PYTHON: &str = "#!/bin/sh\n\
case \"$1\" in\n\
  -c) exit 0 ;;\n\
  -m) if [ \"$2\" = venv ]; then mkdir -p \"$3/bin\"; \
printf '#!/bin/sh\\necho \"ERROR: No matching distribution found for pyarrow (simulated: index unreachable)\" >&2\\nexit 1\\n' > \"$3/bin/python\"; \
chmod +x \"$3/bin/python\"; exit 0; fi ;;\n\
esac\n\
exit 1\n";

#[test]
fn the_python_step_fails_under_ci_when_maturin_or_pyarrow_cannot_be_installed() {
    let dir = tempfile::tempdir().unwrap();
    shadowed(dir.path(), "python3", FAKE_VENV_PYTHON);
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap()
    );
    for (ci, code, verdict) in [
        (Some("true"), 1, "== python: FAILED"),
        (None, 0, "== python: SKIPPED"),
    ] {
        let mut cmd = Command::new("bash");
        cmd.arg(root().join(".ci/run"))
            .arg("python")
            .current_dir(root())
            .env("PATH", &path)
            // Never the checkout's own target/py-venv.
            .env("BILLAUDIT_PY_VENV", dir.path().join("venv"))
            .env_remove("CI");
        if let Some(v) = ci {
            cmd.env("CI", v);
        }
        let out = cmd.output().unwrap();
        let t = text(&out);
        assert_eq!(out.status.code(), Some(code), "{t}");
        assert!(
            t.contains(
                "install failed: pip install maturin==1.16.0 pytest pyarrow exited with status 1"
            ),
            "{t}"
        );
        assert!(t.contains("simulated: index unreachable"), "{t}");
        assert!(t.contains(verdict), "{t}");
    }
}

/// The precommit and action steps build billaudit at opt-level 0: in
/// target/ itself that build would replace target/release/billaudit, and
/// the next benchmark would time an unoptimised binary.
#[test]
fn the_quick_release_build_has_its_own_target_dir() {
    let run = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let line = run
        .lines()
        .find(|l| l.starts_with("quick_release=("))
        .expect("quick_release in .ci/run");
    assert!(line.contains("OPT_LEVEL=0"), "{line}");
    let dir = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("CARGO_TARGET_DIR="))
        .expect("the quick build names its CARGO_TARGET_DIR");
    let dir = dir.trim_matches(['"', ')']);
    let rel = dir.strip_prefix("$PWD/").unwrap_or(dir);
    assert!(
        rel.starts_with("target/") && rel.len() > "target/".len(),
        "the quick build shares target/: {dir}"
    );
    // The action check passes the step's target dir on instead of
    // forcing target/.
    let action = std::fs::read_to_string(root().join("scripts/action-check.py")).unwrap();
    assert!(
        !action.contains("\"CARGO_TARGET_DIR\": os.path.join(REPO, \"target\")"),
        "scripts/action-check.py forces CARGO_TARGET_DIR=target"
    );
}
