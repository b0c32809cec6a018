#!/usr/bin/env python3
"""Checks the BigQuery query for the GCP billing export on the real GCP
files: each flattened CSV is loaded into DuckDB in the shape of the native
BigQuery export (`service`, `sku` and `invoice` as structs, `credits` as a
list of structs), the `--dialect bigquery` query is transpiled by sqlglot to
DuckDB and run, and the totals, line-item counts and check results must equal
`billaudit audit`. Shares are not compared here: the transpiled division is
DuckDB's, not BigQuery's (the exact share is checked in the DuckDB dialect).

    python3 tests/sql/gcp_bigquery_check.py [--billaudit BIN] FILE...
"""
import argparse
import ast
import csv
import json
import subprocess
import sys
from decimal import Decimal

import duckdb
import sqlglot

CATS = ["compute", "storage", "storage_replica", "bandwidth", "scheduling", "tax", "credit", "other"]
CHECKS = ["hidden-fee-share", "replica-share", "replica-redundancy", "scheduling-fee-share"]


def load(con, path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    con.execute("DROP TABLE IF EXISTS bill_lines")
    con.execute("""CREATE TABLE bill_lines (
        billing_account_id VARCHAR, service STRUCT(description VARCHAR),
        sku STRUCT(description VARCHAR), cost VARCHAR, currency VARCHAR,
        invoice STRUCT(month VARCHAR), cost_type VARCHAR,
        credits STRUCT(name VARCHAR, amount VARCHAR)[])""")
    for r in rows:
        credits = []
        raw = (r.get("credits") or "").strip()
        if raw and raw != "[]":
            # The amount's text as written (repr keeps `-5e-06`), as billaudit reads it.
            credits = [{"name": c.get("name"), "amount": repr(c["amount"])}
                       for c in ast.literal_eval(raw) if c.get("amount") is not None]
        con.execute("INSERT INTO bill_lines VALUES (?, {'description': ?}, {'description': ?}, ?, ?, {'month': ?}, ?, ?)",
                    [r["billing_account_id"], r["service.description"], r["sku.description"], r["cost"],
                     r["currency"], r["invoice.month"], r["cost_type"], credits])
    return len(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--billaudit", default="target/debug/billaudit")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    con = duckdb.connect()
    con.execute('SET enable_progress_bar = false')
    failed = 0
    for path in a.files:
        n = load(con, path)
        q = subprocess.run([a.billaudit, "sql", "--dialect", "bigquery", "--profile", "gcp", "--grain", "currency",
                            "--header-from", path], capture_output=True, text=True, check=True).stdout
        duck = sqlglot.transpile(q, read="bigquery", write="duckdb")[0]
        cur = con.execute(duck)
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
        report = json.loads(subprocess.run([a.billaudit, "audit", "--format", "json", "--profile", "gcp", path],
                                           capture_output=True, text=True).stdout)
        bills = {b["currency"]: b for b in report["bills"]}
        diffs = []
        if len(rows) != len(bills):
            diffs.append(f"{len(rows)} rows, {len(bills)} bills")
        for r in rows:
            b = bills.get(r["currency"])
            if b is None:
                diffs.append(f"currency {r['currency']} not in the audit")
                continue
            for c in CATS + ["subtotal", "total", "hidden"]:
                want = Decimal(b["totals"][c] if c in CATS else b[c])
                if Decimal(str(r[c])) != want:
                    diffs.append(f"{c}: sql {r[c]} audit {want}")
            if r["line_items"] != b["line_items"]:
                diffs.append(f"line_items: sql {r['line_items']} audit {b['line_items']}")
            codes = {f["code"] for f in b["findings"]}
            for c in CHECKS:
                if bool(r[c]) != (c in codes):
                    diffs.append(f"{c}: sql {r[c]} audit {c in codes}")
        status = "ok" if not diffs else "DIFFERS"
        print(f"{status:8} bigquery-via-duckdb gcp {path}: {n} rows, "
              + ", ".join(f"{b['currency']} items {b['line_items']} total {b['total']} credit {b['totals']['credit']}"
                          for b in report["bills"]))
        for d in diffs:
            print(f"         {d}")
        failed += bool(diffs)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
