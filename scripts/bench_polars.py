#!/usr/bin/env python3
"""The second peer of scripts/bench.sh: the same job as `billaudit audit` in
Polars, on its streaming engine. Sums BilledCost per category with the ten
case-insensitive substring rules of scripts/bench_duckdb.py (Decimal, never
floats) and counts rows whose PricingQuantity x ListUnitPrice differs from
ListCost (a row with either factor empty is not counted, as in SQL).
Prints the same JSON as scripts/bench_duckdb.py.

Threads: POLARS_MAX_THREADS (bench.sh sets it to 2; it must be set before
polars is imported). Money columns are Decimal(38, 18): FOCUS exports write
up to 15 decimals (focus-data-toolkit does), and a narrower scale would
round them; quantity and unit price are Decimal(38, 10).

A `.parquet` input (bench.sh's gen-parquet) is read with scan_parquet: its
money, quantity and price columns are already these Decimals
(scripts/bench_to_parquet.py); the casts are exact."""
import json
import sys
import time

import polars as pl

path = sys.argv[1]
MONEY = pl.Decimal(38, 18)
FACTOR = pl.Decimal(38, 10)
# The rules of scripts/bench_duckdb.py, in its order.
RULES = [
    ("storage_replica", ["snapshot", "replica", "backup"]),
    ("bandwidth", ["transfer", "egress"]),
    ("scheduling", ["cluster management", "control plane"]),
    ("storage", ["storage", "volume"]),
    ("compute", ["gpu", "instance"]),
]

TYPES = {
    "BilledCost": MONEY,
    "ListCost": MONEY,
    "PricingQuantity": FACTOR,
    "ListUnitPrice": FACTOR,
}
t0 = time.perf_counter()
if path.endswith(".parquet"):
    lf = pl.scan_parquet(path).with_columns(
        pl.col(c).cast(t) for c, t in TYPES.items()
    )
else:
    lf = pl.scan_csv(
        path,
        infer_schema=False,  # every other column is text, as DuckDB's all_varchar
        schema_overrides=TYPES,
    )
desc = pl.col("ChargeDescription").str.to_lowercase()
category = pl.when(pl.col("ChargeCategory") == "Tax").then(pl.lit("tax"))
category = category.when(pl.col("ChargeCategory") == "Credit").then(pl.lit("credit"))
for name, patterns in RULES:
    hit = pl.any_horizontal([desc.str.contains(p, literal=True) for p in patterns])
    category = category.when(hit).then(pl.lit(name))
category = category.otherwise(pl.lit("other"))
# Polars keeps the wider scale of the two factors: at scale 20 their product
# is exact (up to 10 decimals each), as DuckDB's DECIMAL(38, 20) is.
EXACT = pl.Decimal(38, 20)
mismatch = (
    pl.col("PricingQuantity").cast(EXACT) * pl.col("ListUnitPrice").cast(EXACT)
    != pl.col("ListCost")
)
result = (
    lf.select(
        category.alias("category"),
        pl.col("BilledCost").alias("cost"),
        mismatch.fill_null(False).alias("mismatch"),
    )
    .group_by("category")
    .agg(
        pl.col("cost").sum().alias("total"),
        pl.len().alias("n"),
        pl.col("mismatch").sum().alias("mismatches"),
    )
    .collect(engine="streaming")
)
elapsed = time.perf_counter() - t0
rows = result.rows()
print(json.dumps({
    "query_seconds": round(elapsed, 4),
    "rows": sum(n for _, _, n, _ in rows),
    "mismatches": sum(m for _, _, _, m in rows),
    "totals": {c: str(t) for c, t, _, _ in sorted(rows)},
}))
