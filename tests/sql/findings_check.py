#!/usr/bin/env python3
"""Differential test of `billaudit sql --findings`: for each FILE:PROFILE,
the findings query's rows, per code, are the same (code, line) pairs as
the findings of `billaudit audit --format json` for the checks the query
carries.

    python3 tests/sql/findings_check.py --engine duckdb|spark [--billaudit BIN] \
        [--generated N] [--config billaudit.toml] FILE:PROFILE...

For `line-arithmetic`, `above-list-price` and `rate-above-reference` the
query's `difference` must also equal the figure the audit's message states
(`off by X`, `by X` above the list amount, `X over per unit`);
for `unused-commitment` the severity and the message (unused amount, cost,
share, level) must be the audit's. `--config` gives both commands the same
billaudit.toml (thresholds, severities, the price book).
`--generated N` adds N seeded FOCUS bills (tests/sql/gen_findings.py's
generator: duplicates, idle storage, monthly storage, block prices,
overcharges, surcharges above the list cost, inbound traffic, unclassified
rows, compute hours rounded up planted); `--generated-cur N` N seeded AWS
CUR bills (tests/sql/gen_findings_cur.py: legacy CUR on even seeds, CUR 2.0
on odd ones). For `billing-rounding` and
`billing-granularity` the query's figures must equal those the audit's
message states (FIG_CODES). The audit runs with `--max-findings-per-code
unlimited`, so no code is capped. Spark runs in one session for every query; it reads each
CSV with its own reader, numbers the rows in file order (zipWithIndex) and
gets the query written with `--header-from` and `--line-column`.
Prints one line per file; exits 1 on any difference.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
import re
from collections import Counter
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_findings import write_focus  # noqa: E402
from gen_findings_cur import write_cur, profile as cur_profile  # noqa: E402

# What the query carries: the per-line checks of src/sql/findings.rs and
# the share checks.
CODES = {"line-arithmetic", "duplicate-line", "idle-storage", "ingress-charged",
         "unclassified-items", "hidden-fee-share", "replica-share",
         "replica-redundancy", "scheduling-fee-share", "above-list-price",
         "above-contracted-price", "unused-commitment", "rate-above-reference",
         "billing-rounding", "billing-granularity", "plan-costlier-than-on-demand"}
# The codes whose per-line `difference` is compared with the figure the
# audit's message states.
DIFF_CODES = {"line-arithmetic", "above-list-price", "rate-above-reference"}
# The codes whose findings must also have the same severity and message
# (their figures are in the message: unused amount, cost, share, level).
MSG_CODES = {"unused-commitment"}
NATIVE_MSGS = Counter()
QUERY_MSGS = Counter()
# The codes whose figures (expected, actual, difference) are compared with
# those the audit's message states: `billed for E h elapsed ... X h more`
# (rounding) and `billed A, ... cost about E (D more` (granularity).
FIG_CODES = {
    "billing-rounding": (r"h billed for (-?[0-9.]+) h elapsed .* (-?[0-9.]+) h more", (0, 2)),
    # `... those hours cost E CUR: the plan cost D CUR more` (expected,
    # difference).
    "plan-costlier-than-on-demand": (r"those hours cost (-?[0-9.]+)\b[^:]*: the plan cost (-?[0-9.]+)\b[^:]* more$",
                                     (0, 2)),
    "billing-granularity": (r"lines were billed (-?[0-9.]+)\b.*cost about (-?[0-9.]+)\b.* \((-?[0-9.]+)\b",
                            (1, 0, 2)),
}
NATIVE_FIGS = {}
QUERY_FIGS = {}
LINE_COL = "__line"
# The native line-arithmetic differences of the file last audited, by line.
NATIVE_DIFFS = {}
QUERY_DIFFS = {}


# `--config FILE`: the billaudit.toml both commands read (thresholds,
# severities, the price book).
CONFIG = []


def native(bin_, path, profile):
    # Uncapped: every finding of a code listed, as the query lists them.
    out = subprocess.run([bin_, "audit", "--format", "json", "--profile", profile,
                          "--max-findings-per-code", "unlimited", *CONFIG, path],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"billaudit audit failed on {path}: {out.stderr}")
    found = Counter()
    diffs = {}
    msgs = Counter()
    for b in json.loads(out.stdout)["bills"]:
        for f in b["findings"]:
            if f["code"] in CODES:
                found[(f["code"], f["line"])] += 1
            if f["code"] in MSG_CODES:
                msgs[(f["code"], f["line"], f["severity"], f["message"])] += 1
            # line-arithmetic states the difference: `(off by X)` or `(by X)`.
            m = re.search(r"\((?:off )?by (-?[0-9.]+)\)", f["message"])
            # rate-above-reference: `X CUR over per unit`.
            if f["code"] == "rate-above-reference":
                m = re.search(r": (-?[0-9.]+)(?: \S+)? over per unit", f["message"])
            if f["code"] in DIFF_CODES and f["line"] is not None and m:
                diffs[(f["code"], f["line"])] = Decimal(m.group(1))
    NATIVE_DIFFS.clear()
    NATIVE_DIFFS.update(diffs)
    NATIVE_MSGS.clear()
    NATIVE_MSGS.update(msgs)
    # A capped audit ends a code with a closing finding: none may be left.
    for b in json.loads(out.stdout)["bills"]:
        for f in b["findings"]:
            if f["code"] in CODES and "findings not listed" in f["message"]:
                raise RuntimeError(f"{path}: the audit capped {f['code']}")
    NATIVE_FIGS.clear()
    for b in json.loads(out.stdout)["bills"]:
        for f in b["findings"]:
            if f["code"] in FIG_CODES:
                rx, order = FIG_CODES[f["code"]]
                m = re.search(rx, f["message"])
                figs = [None, None, None]
                for g, i in zip(m.groups(), order):
                    figs[i] = Decimal(g)
                NATIVE_FIGS[(f["code"], f["line"])] = tuple(figs)
    return found


def query(bin_, dialect, profile, table, extra):
    out = subprocess.run([bin_, "sql", "--findings", "--dialect", dialect, "--profile", profile,
                          "--table", table, *CONFIG, *extra], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"billaudit sql --findings failed: {out.stderr}")
    return out.stdout


def query_figs(rows):
    """The figures of the query's FIG_CODES rows, those the message states."""
    QUERY_FIGS.clear()
    for code, line, *figs in rows:
        if code in FIG_CODES:
            keep = FIG_CODES[code][1]
            QUERY_FIGS[(code, line)] = tuple(Decimal(f) if i in keep and f is not None else None
                                             for i, f in enumerate(figs))


class DuckDb:
    name = "duckdb"

    def __init__(self):
        import duckdb
        self.con = duckdb.connect()

    def findings(self, bin_, path, profile):
        p = path.replace("'", "''")
        table = f"read_csv('{p}', all_varchar = true, header = true, null_padding = true)"
        rows = self.con.execute(query(bin_, "duckdb", profile, table, [])).fetchall()
        QUERY_DIFFS.clear()
        QUERY_DIFFS.update({(r[0], r[2]): Decimal(r[10]) for r in rows
                            if r[0] in DIFF_CODES and r[2] is not None})
        QUERY_MSGS.clear()
        QUERY_MSGS.update((r[0], r[2], r[1], r[11]) for r in rows if r[0] in MSG_CODES)
        query_figs((r[0], r[2], r[8], r[9], r[10]) for r in rows)
        return Counter((r[0], r[2]) for r in rows)


class Spark:
    name = "spark"

    def __init__(self):
        self.spark = self.session()
        self.n = 0

    @staticmethod
    def session():
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[2]").appName("billaudit-findings")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.ansi.enabled", "true")
                 .config("spark.sql.shuffle.partitions", "1")
                 # The script's cached views of each bill (freed after it).
                 .config("spark.driver.memory", os.environ.get("BILLAUDIT_SPARK_MEMORY", "2g"))
                 # Whole-stage code generation of this query fails to
                 # compile and falls back after minutes (docs/at-scale.md).
                 .config("spark.sql.codegen.wholeStage", os.environ.get("BILLAUDIT_SPARK_CODEGEN", "false"))
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        return spark

    def heap_mb(self):
        """The driver's heap in use after a full collection, and its maximum."""
        jvm = self.spark.sparkContext._jvm
        jvm.System.gc()
        rt = jvm.java.lang.Runtime.getRuntime()
        return (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20

    def free(self):
        """Frees what one bill's script left in the session. Its views and
        caches go, but the driver's heap after a full collection still
        grows by 150-300 MB a bill on these scripts (a heap histogram shows
        Catalyst trees and the SQL parser's DFA cache), so the sixth bill
        of `scripts/spark-check.sh` found no memory for a broadcast or an
        aggregation (CI of 2026-12-02). A new SparkContext in the same JVM
        gave back only part of it (1097 MB to 706, 1382 to 1141). So when
        more than half the heap is still in use after a bill, the session
        and its JVM are stopped and the next bill starts a new JVM."""
        from pyspark import SparkContext
        self.spark.catalog.clearCache()
        for t in self.spark.catalog.listTables():
            if t.isTemporary:
                self.spark.catalog.dropTempView(t.name)
        used, most = self.heap_mb()
        if used * 2 <= most:
            return
        self.spark.stop()
        gateway = SparkContext._gateway
        proc = getattr(gateway, "proc", None)
        gateway.shutdown()
        if proc is not None:
            proc.stdin.close()  # the JVM of PySpark ends when its stdin does
            proc.wait(timeout=120)
        SparkContext._gateway = None
        SparkContext._jvm = None
        self.spark = self.session()
        print(f"spark: {used} MB of the driver's {most} MB heap in use after a bill; "
              f"a new JVM ({self.heap_mb()[0]} MB in use)", file=sys.stderr)

    def findings(self, bin_, path, profile):
        from pyspark.sql.types import StructType, StructField, StringType, LongType
        df = (self.spark.read.option("header", "true").option("multiLine", "true")
              .option("escape", '"').csv(path))
        # File order: zipWithIndex numbers the rows as the reader yields them.
        schema = StructType(df.schema.fields + [StructField(LINE_COL, LongType())])
        numbered = df.rdd.zipWithIndex().map(lambda r: tuple(r[0]) + (r[1] + 2,))
        self.n += 1
        view = f"bill_{self.n}"
        self.spark.createDataFrame(numbered, schema).createOrReplaceTempView(view)
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as h:
            csv.writer(h).writerow(df.columns + [LINE_COL])
        sql = query(bin_, "spark", profile, view, ["--header-from", h.name, "--line-column", LINE_COL])
        os.unlink(h.name)
        # A script for Spark: `nums` cached as a view, then the findings
        # query (statements end with `;` and an empty line).
        *before, last = [st.strip() for st in sql.split(";\n\n") if st.strip()]
        for st in before:
            self.spark.sql(st)
        rows = self.spark.sql(last).collect()
        # One session for bills while the driver's heap allows.
        self.free()
        QUERY_DIFFS.clear()
        QUERY_DIFFS.update({(r["code"], r["line"]): Decimal(r["difference"]) for r in rows
                            if r["code"] in DIFF_CODES and r["line"] is not None})
        QUERY_MSGS.clear()
        QUERY_MSGS.update((r["code"], r["line"], r["severity"], r["message"]) for r in rows
                          if r["code"] in MSG_CODES)
        query_figs((r["code"], r["line"], r["expected"], r["actual"], r["difference"]) for r in rows)
        return Counter((r["code"], r["line"]) for r in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", choices=["duckdb", "spark"], required=True)
    ap.add_argument("--billaudit", default="target/debug/billaudit")
    ap.add_argument("--generated", type=int, default=0)
    # `--generated-cur N`: N seeded AWS CUR bills (gen_findings_cur.py:
    # legacy headers on even seeds, CUR 2.0 on odd ones).
    ap.add_argument("--generated-cur", type=int, default=0)
    ap.add_argument("--config")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.config:
        CONFIG.extend(["--config", a.config])
    engine = DuckDb() if a.engine == "duckdb" else Spark()
    files = [tuple(f.rsplit(":", 1)) for f in a.files]
    tmp = tempfile.mkdtemp(prefix="billaudit-findings-")
    for seed in range(a.generated):
        path = os.path.join(tmp, f"focus-generated-{seed}.csv")
        write_focus(path, seed)
        files.append((path, "focus"))
    for seed in range(a.generated_cur):
        path = os.path.join(tmp, f"cur-generated-{seed}.csv")
        write_cur(path, seed)
        files.append((path, cur_profile(seed)))
    bad = 0
    for path, profile in files:
        t = time.time()
        want = native(a.billaudit, path, profile)
        try:
            got = engine.findings(a.billaudit, path, profile)
        except Exception as e:  # noqa: BLE001 - reported per file
            print(f"ERROR    {engine.name} {profile:8} {path}: {str(e)[:400]}")
            bad += 1
            continue
        per_code = Counter(c for c, _ in want)
        # The figures of FIG_CODES, then the per-line differences of DIFF_CODES.
        mismatch = next(((what, q, n) for what, q, n in
                         (("figures", QUERY_FIGS, NATIVE_FIGS),
                          ("per-line differences", QUERY_DIFFS, NATIVE_DIFFS)) if q != n), None)
        if got == want and mismatch:
            what, q, n = mismatch
            bad += 1
            print(f"DIFFERS  {engine.name} {profile:8} {path}: {what}")
            for k in sorted(set(q) | set(n), key=str):
                if q.get(k) != n.get(k):
                    print(f"  {k}: native {n.get(k)} query {q.get(k)}")
        elif got == want and QUERY_MSGS != NATIVE_MSGS:
            bad += 1
            print(f"DIFFERS  {engine.name} {profile:8} {path}: severities or messages")
            print(f"  native only: {sorted(NATIVE_MSGS - QUERY_MSGS, key=str)[:5]}")
            print(f"  query only:  {sorted(QUERY_MSGS - NATIVE_MSGS, key=str)[:5]}")
        elif got == want:
            print(f"ok       {engine.name} {profile:8} {path} {dict(sorted(per_code.items()))} ({time.time() - t:.1f} s)")
        else:
            bad += 1
            print(f"DIFFERS  {engine.name} {profile:8} {path}")
            print(f"  native only: {sorted(want - got, key=str)[:20]}")
            print(f"  query only:  {sorted(got - want, key=str)[:20]}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
