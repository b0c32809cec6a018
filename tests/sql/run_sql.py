#!/usr/bin/env python3
"""Runs `billaudit sql` queries on bill files and compares every figure and
check with `billaudit audit --format json`, exactly (decimal.Decimal).

    python3 tests/sql/run_sql.py --engine duckdb [--billaudit BIN] FILE:PROFILE...
    python3 tests/sql/run_sql.py --engine spark  [--billaudit BIN] FILE:PROFILE...

Each file is queried with `--grain currency` (one row per currency, as
`billaudit audit` reports a file), which must equal the audit in every total,
subtotal, total, hidden, both shares, the line-item count and the four check
results, and with `--grain bill` (account, currency, period), whose rows must
add up to the same totals per currency. DuckDB runs the queries written
without `--header-from` (they find the columns as they run), and the
currency query written with it; Spark, which cannot, runs those written
with it. Prints one line per file; exits 1 on any difference.
"""
import argparse
import json
import subprocess
import sys
import time
from collections import defaultdict
from decimal import Decimal

CATS = ["compute", "storage", "storage_replica", "bandwidth", "scheduling", "tax", "credit", "other"]
CHECKS = ["hidden-fee-share", "replica-share", "replica-redundancy", "scheduling-fee-share"]


def dec(v):
    return None if v is None else Decimal(str(v))


CONFIG = []


def audit(bin_, path, profile):
    out = subprocess.run([bin_, "audit", "--format", "json", "--profile", profile, *CONFIG, path],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"billaudit audit failed on {path}: {out.stderr}")
    return json.loads(out.stdout)


def query(bin_, dialect, profile, table, header_from, grain):
    header = ["--header-from", header_from] if header_from else []
    out = subprocess.run([bin_, "sql", "--dialect", dialect, "--profile", profile, "--grain", grain,
                          *header, "--table", table, *CONFIG],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"billaudit sql failed: {out.stderr}")
    return out.stdout


class DuckDb:
    def __init__(self):
        import duckdb
        self.con = duckdb.connect()
        self.con.execute('SET enable_progress_bar = false')

    def table(self, path):
        p = path.replace("'", "''")
        return f"read_csv('{p}', all_varchar = true, header = true, null_padding = true)"

    def run(self, sql):
        cur = self.con.execute(sql)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]


class Spark:
    def __init__(self):
        from pyspark.sql import SparkSession
        self.spark = (SparkSession.builder.master("local[2]").appName("billaudit-sql")
                      .config("spark.ui.enabled", "false")
                      .config("spark.ui.showConsoleProgress", "false")
                      .config("spark.sql.ansi.enabled", "true")
                      .getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")
        self.n = 0

    def table(self, path):
        self.n += 1
        name = f"bill_{self.n}"
        df = (self.spark.read.option("header", "true").option("multiLine", "true")
              .option("escape", '"').option("inferSchema", "false").csv(path))
        df.createOrReplaceTempView(name)
        return name

    def run(self, sql):
        rows = self.spark.sql(sql).collect()
        return [r.asDict() for r in rows]


def compare(bin_, engine, dialect, path, profile):
    report = audit(bin_, path, profile)
    bills = {b["currency"]: b for b in report["bills"]}
    table = engine.table(path)
    diffs = []
    # DuckDB: the query that finds its columns, and the one written for the header.
    headers = [None, path] if dialect == "duckdb" else [path]
    for header in headers:
        rows = engine.run(query(bin_, dialect, profile, table, header, "currency"))
        how = "with --header-from" if header else "without --header-from"
        diffs.extend(f"{how}: {d}" for d in compare_currency(rows, bills))
    by_bill = engine.run(query(bin_, dialect, profile, table, headers[0], "bill"))
    sums = defaultdict(lambda: defaultdict(Decimal))
    for r in by_bill:
        for k in CATS + ["total"]:
            sums[r["currency"]][k] += dec(r[k])
    for cur, s in sums.items():
        b = bills.get(cur)
        for k in CATS + ["total"]:
            want = dec(b["totals"][k] if k in CATS else b[k]) if b else None
            if s[k] != want:
                diffs.append(f"grain bill, {cur} {k}: sql {s[k]} audit {want}")
    summary = ", ".join(
        f"{b['currency']}: total {b['total']} hidden {b['hidden']} share {b['hidden_share']} "
        f"checks {sorted(c for c in {f['code'] for f in b['findings']} if c in CHECKS)}"
        for b in report["bills"])
    return diffs, f"{len(by_bill)} bill rows; {summary}"


def compare_currency(rows, bills):
    """Differences between the `--grain currency` rows and the audit's bills."""
    diffs = []
    if len(rows) != len(bills):
        diffs.append(f"{len(rows)} SQL rows, {len(bills)} bills")
    for r in rows:
        b = bills.get(r["currency"])
        if b is None:
            diffs.append(f"currency {r['currency']!r} not in the audit")
            continue
        want = {c: dec(b["totals"][c]) for c in CATS}
        for k in ["subtotal", "total", "hidden", "hidden_share", "replica_share"]:
            want[k] = dec(b[k])
        want["line_items"] = b["line_items"]
        codes = {f["code"] for f in b["findings"]}
        for c in CHECKS:
            want[c] = c in codes
        for k, v in want.items():
            got = r[k]
            got = dec(got) if isinstance(v, Decimal) and got is not None else got
            if got != v:
                diffs.append(f"{r['currency']} {k}: sql {got} audit {v}")
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb")
    ap.add_argument("--billaudit", default="target/debug/billaudit")
    ap.add_argument("--config", help="billaudit.toml for both the audit and the query")
    ap.add_argument("files", nargs="+", help="FILE:PROFILE")
    a = ap.parse_args()
    if a.config:
        CONFIG.extend(["--config", a.config])
    engine = DuckDb() if a.engine == "duckdb" else Spark()
    failed = 0
    for spec in a.files:
        path, profile = spec.rsplit(":", 1)
        t0 = time.time()
        try:
            diffs, summary = compare(a.billaudit, engine, a.engine, path, profile)
        except Exception as e:  # a query that fails is a failure, not a skip
            diffs, summary = [f"error: {e}"], ""
        status = "ok" if not diffs else "DIFFERS"
        print(f"{status:8} {a.engine} {profile:8} {path} ({time.time() - t0:.1f}s) {summary}")
        for d in diffs[:20]:
            print(f"         {d}")
        failed += bool(diffs)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
