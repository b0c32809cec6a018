#!/usr/bin/env python3
"""Times the Spark findings query of each BIN on one FOCUS CSV by phase, in
one PySpark local[2] session (docs/ci.md, the shape table):

    python3 scripts/at_scale_plan.py FILE.csv BIN...

Per BIN: the statements before the last (views, caches), then the last
statement's analysis (`spark.sql`), optimisation and physical planning
(`queryExecution().executedPlan()`) and run (`collect`). The rows are
numbered in file order as tests/sql/findings_check.py numbers them.
"""
import sys, time, os, csv, tempfile, subprocess
from pyspark.sql import SparkSession
from pyspark.sql.types import StructType, StructField, LongType
path = sys.argv[1]
bins = sys.argv[2:]
spark = (SparkSession.builder.master("local[2]").appName("plan").config("spark.ui.enabled","false")
         .config("spark.ui.showConsoleProgress","false").config("spark.sql.ansi.enabled","true")
         .config("spark.sql.shuffle.partitions","1").config("spark.sql.codegen.wholeStage","false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
df = spark.read.option("header","true").option("multiLine","true").option("escape",'"').csv(path)
schema = StructType(df.schema.fields + [StructField("__line", LongType())])
numbered = df.rdd.zipWithIndex().map(lambda r: tuple(r[0]) + (r[1] + 2,))
spark.createDataFrame(numbered, schema).createOrReplaceTempView("bill")
h = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False); csv.writer(h).writerow(df.columns + ["__line"]); h.close()
for b in bins:
    sql = subprocess.run([b, "sql", "--findings", "--dialect", "spark", "--profile", "focus", "--table", "bill",
                          "--header-from", h.name, "--line-column", "__line"], capture_output=True, text=True, check=True).stdout
    st = [s.strip() for s in sql.split(";\n\n") if s.strip()]
    t0 = time.time()
    for s in st[:-1]:
        spark.sql(s)
    t1 = time.time()
    q = spark.sql(st[-1])
    t2 = time.time()
    q._jdf.queryExecution().executedPlan()
    t3 = time.time()
    n = len(q.collect())
    t4 = time.time()
    print(f"{os.path.basename(b)}: {len(st)} statements; before-statements {t1-t0:.1f} s, analysis {t2-t1:.1f} s, optimise+plan {t3-t2:.1f} s, run {t4-t3:.1f} s, total {t4-t0:.1f} s, {n} rows, load {os.getloadavg()[0]:.1f}", flush=True)
