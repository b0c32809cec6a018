"""explain(), checks(), the wheel's `billaudit` command and the module's own doctest."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys

import billaudit
from conftest import ROOT, binary, run, wheel_command


def test_checks_are_the_cli_checks() -> None:
    checks = billaudit.checks()
    codes = [c["code"] for c in checks]
    # `billaudit explain` of an unknown code lists every code, in order.
    p = run(binary(), "explain", "no-such-check")
    assert p.returncode == 2
    listed = p.stderr.split("the checks are: ", 1)[1].strip().split(", ")
    assert codes == listed
    share = {c["code"]: (c["threshold"], c["keyword"]) for c in checks if c["threshold"]}
    # The defaults docs/checks.md states: 5%, 30%, 1.2x, 8%.
    assert share == {
        "hidden-fee-share": ("5%", "hidden_threshold"),
        "replica-share": ("30%", "replica_threshold"),
        "replica-redundancy": ("1.2", "redundancy_threshold"),
        "scheduling-fee-share": ("8%", "scheduling_threshold"),
    }


def test_explain_is_the_cli_explain() -> None:
    for c in billaudit.checks():
        p = run(binary(), "explain", c["code"])
        assert p.returncode == 0
        assert billaudit.explain(c["code"]) == p.stdout


def test_the_wheel_command_is_the_cli() -> None:
    cmd = wheel_command()
    for args, code in [
        # The README's first command: exit 1, the bill has an error-level finding.
        (["audit", "fixtures/csv/gpu-pod-en.csv"], 1),
        (["audit", "fixtures/csv/clean-bill.csv"], 0),
        (["audit", "fixtures/csv/no-such-bill.csv"], 2),
        (["lines", "--format", "csv", "fixtures/csv/gpu-pod-en.csv"], 0),
        (["--version"], 0),
        (["audit", "--no-such-flag"], 2),
    ]:
        wheel, rust = run(cmd, *args), run(binary(), *args)
        assert (wheel.returncode, rust.returncode) == (code, code), args
        assert wheel.stdout == rust.stdout, args
        assert wheel.stderr == rust.stderr, args


def test_a_panic_in_the_command_is_exit_2_not_a_crash() -> None:
    # Debug builds only (scripts/test-python builds the wheel with --profile dev).
    env = dict(os.environ, BILLAUDIT_TEST_PANIC="1")
    p = subprocess.run(
        [wheel_command(), "audit", "fixtures/csv/gpu-pod-en.csv"],
        cwd=ROOT, capture_output=True, text=True, env=env,
    )
    assert p.returncode == 2
    assert "internal error" in p.stderr and "This is a bug" in p.stderr


def test_the_module_docstring_example_holds() -> None:
    failures, tried = doctest.testmod(billaudit, report=True)
    assert tried >= 4 and failures == 0


def test_the_stubs_and_marker_are_installed() -> None:
    pkg = os.path.dirname(billaudit.__file__)
    for name in ("py.typed", "_native.pyi", "__init__.py"):
        assert os.path.isfile(os.path.join(pkg, name)), name
    assert sys.modules["billaudit._native"].__file__.endswith((".so", ".pyd"))
