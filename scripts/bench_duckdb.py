#!/usr/bin/env python3
"""The peer's side of scripts/bench.sh: the same job as `billaudit audit` in
DuckDB. Sums BilledCost per category with ~10 case-insensitive substring
rules (DECIMAL, never floats) and counts rows whose
PricingQuantity x ListUnitPrice differs from ListCost. Prints JSON.

Money columns are DECIMAL(38, 18): FOCUS exports write up to 15 decimals
(focus-data-toolkit does), and a narrower scale would round them. Quantity
and unit price are DECIMAL(38, 10); their product is exact (scale 20).

A `.parquet` input (bench.sh's gen-parquet) is read with read_parquet: its
money, quantity and price columns are already these DECIMALs
(scripts/bench_to_parquet.py); the casts are exact."""
import json
import sys
import time

import duckdb

path = sys.argv[1]
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
con = duckdb.connect()
con.execute(f"SET threads = {threads}")
QUERY = """
WITH rows AS (
  SELECT
    CAST(BilledCost AS DECIMAL(38, 18)) AS cost,
    CASE
      WHEN ChargeCategory = 'Tax' THEN 'tax'
      WHEN ChargeCategory = 'Credit' THEN 'credit'
      WHEN contains(lower(ChargeDescription), 'snapshot')
        OR contains(lower(ChargeDescription), 'replica')
        OR contains(lower(ChargeDescription), 'backup') THEN 'storage_replica'
      WHEN contains(lower(ChargeDescription), 'transfer')
        OR contains(lower(ChargeDescription), 'egress') THEN 'bandwidth'
      WHEN contains(lower(ChargeDescription), 'cluster management')
        OR contains(lower(ChargeDescription), 'control plane') THEN 'scheduling'
      WHEN contains(lower(ChargeDescription), 'storage')
        OR contains(lower(ChargeDescription), 'volume') THEN 'storage'
      WHEN contains(lower(ChargeDescription), 'gpu')
        OR contains(lower(ChargeDescription), 'instance') THEN 'compute'
      ELSE 'other'
    END AS category,
    CAST(PricingQuantity AS DECIMAL(38, 10)) * CAST(ListUnitPrice AS DECIMAL(38, 10))
      <> CAST(ListCost AS DECIMAL(38, 18)) AS mismatch
  FROM {source}
)
SELECT category, SUM(cost) AS total, COUNT(*) AS n, COUNT(*) FILTER (WHERE mismatch) AS mismatches
FROM rows GROUP BY category ORDER BY category
""".replace(
    "{source}",
    "read_parquet(?)" if path.endswith(".parquet") else "read_csv(?, header = true, all_varchar = true)",
)
t0 = time.perf_counter()
result = con.execute(QUERY, [path]).fetchall()
elapsed = time.perf_counter() - t0
totals = {c: str(t) for c, t, _, _ in result}
print(json.dumps({
    "query_seconds": round(elapsed, 4),
    "rows": sum(n for _, _, n, _ in result),
    "mismatches": sum(m for _, _, _, m in result),
    "totals": totals,
}))
