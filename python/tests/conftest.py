"""The pytest suite of the wheel (docs/python.md). It tests the installed
`billaudit` package, as built by scripts/test-python into a fresh virtual
environment, against the Rust binary of the same checkout.

The binary is `$BILLAUDIT_BIN` (scripts/test-python sets it to
target/debug/billaudit); the tests run from the repository root, where the
fixtures are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Paths in the reports are as given, relative to the repository root.
    monkeypatch.chdir(ROOT)


def in_ci() -> bool:
    return os.environ.get("CI", "") not in ("", "0", "false")


def require(module: str) -> object:
    """Imports `module`; a missing one skips the tests that need it, except
    under CI (CI=true), where it fails them."""
    if in_ci():
        return __import__(module)
    return pytest.importorskip(module)


def binary() -> str:
    """The Rust binary: $BILLAUDIT_BIN, else target/debug/billaudit."""
    b = os.environ.get("BILLAUDIT_BIN") or str(ROOT / "target/debug/billaudit")
    if not Path(b).is_file():
        if in_ci():
            pytest.fail(f"the billaudit binary {b} is missing (cargo build --bin billaudit)")
        pytest.skip(f"the billaudit binary {b} is missing (cargo build --bin billaudit)")
    return b


def wheel_command() -> str:
    """The wheel's `billaudit` command, installed beside this Python."""
    import sys

    found = Path(sys.executable).with_name("billaudit")
    if found.is_file():
        return str(found)
    which = shutil.which("billaudit")
    assert which, "the wheel's billaudit command is not installed"
    return which


def run(cmd: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [cmd, *args], cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=600
    )


def cli_json(*args: str) -> object:
    """stdout of a `--format json` command of the binary, parsed."""
    p = run(binary(), *args, "--format", "json")
    assert p.returncode in (0, 1, 2), p.stderr
    return json.loads(p.stdout)


def bills() -> list[str]:
    """Every bundled bill under fixtures/ (not the expectation files, price books or READMEs)."""
    out = []
    for p in sorted((ROOT / "fixtures").rglob("*")):
        if not p.is_file():
            continue
        name = p.name
        if name.endswith((".toml", ".md")):
            continue
        out.append(str(p.relative_to(ROOT)))
    return out
