#!/usr/bin/env python3
"""Unclassified money on provider-realistic FOCUS 1.2 data, per provider.

Generates AWS, Azure and GCP FOCUS 1.2 exports with focus-data-toolkit
(installed from PyPI when missing, pinned below), audits each with
`billaudit audit --format json`, and computes the unclassified share
independently of billaudit's totals:

- the subtotal is the sum of `BilledCost` of every row of the raw CSV whose
  `ChargeCategory` is neither `Tax` nor `Credit` (CONTEXT.md: the subtotal is
  every category but tax and credit), read with `csv` and `decimal`;
- the unclassified money is the sum of `BilledCost`, read from the raw CSV,
  of the rows that `billaudit lines --format csv --unclassified` names by
  line number (only which rows; their amounts come from the raw file).

It also classifies every row with `scripts/validate_real.py`'s own regular
expressions (written apart from `src/classify/rules.rs`) and compares each
category total with billaudit's.

Prints a table and exits 1 when a provider's share is above 1%, or when a
subtotal or a category total differs.

Usage: python3 scripts/focus_toolkit_validation.py [--rows N] [--seed S]
       [--billaudit PATH] [--keep DIR]
"""
import argparse
import csv
import json
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

TOOLKIT = "focus-data-toolkit"
TOOLKIT_VERSION = "0.14.1"
PROVIDERS = ["aws", "azure", "gcp"]
LIMIT = Decimal("0.01")
ROOT = Path(__file__).resolve().parent.parent


def ensure_toolkit():
    if shutil.which("focus-toolkit"):
        return
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", f"{TOOLKIT}=={TOOLKIT_VERSION}"],
        check=True,
    )
    if not shutil.which("focus-toolkit"):
        sys.exit("focus-toolkit is not on PATH after installing it")


def toolkit_version():
    out = subprocess.run(["focus-toolkit", "version"], check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()[0].strip() if out else "?"


def billaudit_cmd(path):
    if path:
        return [path]
    built = ROOT / "target" / "debug" / "billaudit"
    if not built.exists():
        subprocess.run(["cargo", "build", "--quiet"], cwd=ROOT, check=True)
    return [str(built)]


def generate(provider, rows, seed, out):
    subprocess.run(
        ["focus-toolkit", "generate", "--provider", provider,
         "--focus-version", "1.2", "--rows", str(rows), "--seed", str(seed),
         "--out", str(out)],
        check=True, capture_output=True,
    )
    files = sorted(out.glob("*.csv"))
    if len(files) != 1:
        sys.exit(f"{provider}: expected one CSV in {out}, found {files}")
    return files[0]


def independent_totals(path):
    """Category totals from validate_real.py's classification of the raw rows."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import validate_real  # noqa: E402  (a sibling script, not a package)

    _, _, _, _, totals = validate_real.audit(Path(path), "focus")
    return totals


def measure(ba, path):
    """(rows, subtotal, unclassified, billaudit's bill) of one export."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader)
        cost = header.index("BilledCost")
        charge = header.index("ChargeCategory")
        # Line numbers as billaudit counts them: the header is line 1.
        by_line = {}
        for row in reader:
            by_line[reader.line_num] = row
    subtotal = sum(
        (Decimal(r[cost]) for r in by_line.values()
         if r[charge].strip().lower() not in ("tax", "credit")),
        Decimal(0),
    )
    listed = subprocess.run(
        ba + ["lines", "--format", "csv", "--unclassified", str(path)],
        check=True, capture_output=True, text=True,
    ).stdout
    unclassified = Decimal(0)
    for item in csv.DictReader(listed.splitlines()):
        unclassified += Decimal(by_line[int(item["line"])][cost])
    report = subprocess.run(
        ba + ["audit", "--format", "json", str(path)],
        capture_output=True, text=True,
    )
    bill = json.loads(report.stdout)["bills"][0]
    return len(by_line), subtotal, unclassified, bill


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--billaudit", help="the billaudit binary (default: target/debug)")
    ap.add_argument("--keep", help="write the generated exports here")
    args = ap.parse_args()

    ensure_toolkit()
    ba = billaudit_cmd(args.billaudit)
    print(f"{toolkit_version()}, FOCUS 1.2, --rows {args.rows} --seed {args.seed}")
    print()
    print("| provider | rows | subtotal (raw CSV) | billaudit subtotal | unclassified | share |")
    print("|---|---|---|---|---|---|")
    failed = False
    mismatches = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        for p in PROVIDERS:
            path = generate(p, args.rows, args.seed, base / p)
            rows, subtotal, unclassified, bill = measure(ba, path)
            ba_subtotal = Decimal(bill["subtotal"])
            share = unclassified / subtotal if subtotal else Decimal(0)
            failed |= share > LIMIT or ba_subtotal != subtotal
            print(f"| {p} | {rows} | {subtotal.normalize():f} | {ba_subtotal.normalize():f} "
                  f"| {unclassified.normalize():f} | {share * 100:.4f}% |")
            mine = independent_totals(path)
            for cat, got in bill["totals"].items():
                want = mine.get(cat, Decimal(0))
                if Decimal(got) != want:
                    failed = True
                    mismatches.append(f"{p} {cat}: billaudit {got}, validate_real.py {want}")
    for m in mismatches:
        print(f"category total differs: {m}")
    if not mismatches:
        print("\nEvery category total equals validate_real.py's independent classification.")
    if failed:
        print(f"\nFAIL: a share above {LIMIT * 100}%, or a subtotal or category total that differs")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
