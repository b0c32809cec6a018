#!/usr/bin/env python3
"""Times `billaudit sql --findings` on one large FOCUS CSV in DuckDB or in
PySpark local mode, and compares the per-code counts with the native
audit's (docs/at-scale.md, "At scale").

    python3 scripts/at_scale.py duckdb --billaudit BIN --native NATIVE.json \
        [--threads 2] [--memory-limit 6GB] [--temp-dir DIR] FILE.csv
    python3 scripts/at_scale.py spark --billaudit BIN --native NATIVE.json FILE.csv

NATIVE.json is `billaudit audit --profile focus --format json
--max-findings-per-code unlimited FILE.csv` (a capped audit is refused:
its counts are not the findings'). Prints one JSON line: rows, engine,
wall seconds, CPU seconds of this process (user + system), peak RSS, for
Spark also the JVM's own CPU seconds and peak RSS (`jvm_cpu_s`,
`jvm_peak_rss_mb`, read from /proc before the session stops), DuckDB's
spill (peak temporary-directory size), the 1-minute load average at start and end, and per code native and query
counts with `equal`. Spark: `planning` is the seconds until the findings
statement's plan was built (`queryExecution().executedPlan()`), `run` the
rest. Exits 1 when a count differs.
"""
import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def native_counts(path):
    counts = collections.Counter()
    for b in json.load(open(path))["bills"]:
        for f in b["findings"]:
            if "findings not listed" in f["message"]:
                sys.exit(f"{path}: the audit was capped ({f['code']}); rerun it with --max-findings-per-code unlimited")
            counts[f["code"]] += 1
    return counts


def query(bin_, dialect, csv_path, table, extra=()):
    return subprocess.run([bin_, "sql", "--findings", "--dialect", dialect, "--profile", "focus",
                           "--header-from", csv_path, "--table", table, *extra],
                          capture_output=True, text=True, check=True).stdout


def statements(sql):
    # `billaudit sql` ends each statement of a script with `;` and an empty
    # line (src/sql/findings_shape.rs STATEMENT_END).
    return [s.strip() for s in sql.split(";\n\n") if s.strip()]


def run_duckdb(a, out):
    import duckdb
    p = a.file.replace("'", "''")
    table = f"read_csv('{p}', all_varchar = true, header = true, null_padding = true)"
    sql = query(a.billaudit, "duckdb", a.file, table)
    con = duckdb.connect()
    prof = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    for s in ["SET enable_progress_bar = false", f"SET threads = {a.threads}",
              f"SET memory_limit = '{a.memory_limit}'", f"SET temp_directory = '{a.temp_dir}'",
              "PRAGMA enable_profiling = 'json'", f"PRAGMA profiling_output = '{prof}'"]:
        con.execute(s)
    out["engine"] = f"duckdb {duckdb.__version__}, threads {a.threads}, memory_limit {a.memory_limit}"
    t = time.time()
    rows = con.execute(sql).fetchall()
    out["wall_s"] = round(time.time() - t, 1)
    system = json.load(open(prof)).get("system", {})
    out["spill_peak_bytes"] = system.get("peak_temp_dir_size")
    out["spilled_bytes"] = system.get("total_bytes_spilled")
    os.unlink(prof)
    return collections.Counter(r[0] for r in rows)


def run_spark(a, out):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(f"local[{a.threads}]").appName("billaudit-at-scale")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.ansi.enabled", "true")
             .config("spark.driver.memory", a.memory_limit.replace("GB", "g"))
             .config("spark.local.dir", a.temp_dir)
             .config("spark.sql.codegen.wholeStage", os.environ.get("BILLAUDIT_SPARK_CODEGEN", "false"))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    out["engine"] = f"pyspark {spark.version} local[{a.threads}]"
    t = time.time()
    df = spark.read.option("header", "true").option("multiLine", "false").option("escape", '"').csv(a.file)
    spark.sql("SELECT 1")  # session warm
    df.createOrReplaceTempView("bill")
    sql = query(a.billaudit, "spark", a.file, "bill")
    st = statements(sql)
    for s in st[:-1]:
        spark.sql(s)
    out["before_s"] = round(time.time() - t, 1)
    t1 = time.time()
    final = spark.sql(st[-1])
    final._jdf.queryExecution().executedPlan()
    out["planning_s"] = round(time.time() - t1, 1)
    rows = final.collect()
    out["run_s"] = round(time.time() - t1 - out["planning_s"], 1)
    out["wall_s"] = round(time.time() - t, 1)
    out["line"] = "NULL (no line column: the per-code counts are compared)"
    # The JVM's own CPU seconds and peak RSS (it is not this process's
    # child that is waited for, so rusage misses it).
    pid = spark.sparkContext._jvm.ProcessHandle.current().pid()
    with open(f"/proc/{pid}/stat") as h:
        f = h.read().rsplit(")", 1)[1].split()
    out["jvm_cpu_s"] = round((int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"), 1)
    with open(f"/proc/{pid}/status") as h:
        hwm = next(line for line in h if line.startswith("VmHWM:"))
    out["jvm_peak_rss_mb"] = round(int(hwm.split()[1]) / 1024)
    spark.stop()
    return collections.Counter(r["code"] for r in rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", choices=["duckdb", "spark"])
    ap.add_argument("file")
    ap.add_argument("--billaudit", default="target/release/billaudit")
    ap.add_argument("--native", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--memory-limit", default="6GB")
    ap.add_argument("--temp-dir", default=tempfile.gettempdir())
    a = ap.parse_args()
    want = native_counts(a.native)
    with open(a.file, "rb") as h:
        rows = sum(1 for _ in h) - 1
    out = {"rows": rows, "load_start": os.getloadavg()[0]}
    got = run_duckdb(a, out) if a.engine == "duckdb" else run_spark(a, out)
    out["load_end"] = os.getloadavg()[0]
    ru = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    out["cpu_s"] = round(ru.ru_utime + ru.ru_stime + ch.ru_utime + ch.ru_stime, 1)
    out["peak_rss_mb"] = round(max(ru.ru_maxrss, ch.ru_maxrss) / 1024)
    codes = sorted(set(want) | set(got))
    out["counts"] = {c: [want.get(c, 0), got.get(c, 0)] for c in codes}
    out["equal"] = all(want.get(c, 0) == got.get(c, 0) for c in codes)
    print(json.dumps(out))
    sys.exit(0 if out["equal"] else 1)


if __name__ == "__main__":
    main()
