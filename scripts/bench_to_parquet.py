#!/usr/bin/env python3
"""Writes the generator's CSV (scripts/bench.sh, SETS=parquet) as Parquet,
typed as an export would be: the money columns DECIMAL(38, 18), quantity
and unit price DECIMAL(38, 10) (the peers' types in bench_duckdb.py and
bench_polars.py), the four period columns TIMESTAMP WITH TIME ZONE (UTC),
every other column VARCHAR, the generator's `NULL` a null; snappy, row
groups of 122,880 rows (DuckDB's default). The generator writes at most 10
decimals, so every value is exact and its expected totals hold.

Not DOUBLE (as CUR writes money): a double's shortest decimal drops the
CSV's trailing zeros (`0.5210` is `0.521`), and line-arithmetic allows for
the rounding of a figure by the decimals it is written with, so billaudit
then excuses a few of the generator's off-list rows (4,031 of 4,078 at 1M
rows are found) that the peers' exact comparison counts.

    python3 scripts/bench_to_parquet.py focus-1000000.csv focus-1000000.parquet
"""
import os
import sys

import duckdb

src, out = sys.argv[1:3]
TYPES = {
    **dict.fromkeys(["BilledCost", "ContractedCost", "EffectiveCost", "ListCost"], "DECIMAL(38, 18)"),
    **dict.fromkeys(
        ["ListUnitPrice", "ContractedUnitPrice", "PricingQuantity", "ConsumedQuantity"],
        "DECIMAL(38, 10)",
    ),
}
TIMESTAMP = {"BillingPeriodEnd", "BillingPeriodStart", "ChargePeriodEnd", "ChargePeriodStart"}


def q(c):
    return '"' + c.replace('"', '""') + '"'


con = duckdb.connect()
con.execute("SET threads = 2")
source = f"read_csv('{src}', header = true, all_varchar = true, nullstr = 'NULL')"
cols = [d[0] for d in con.execute(f"SELECT * FROM {source} LIMIT 0").description]
select = []
for c in cols:
    if c in TYPES:
        select.append(f"CAST({q(c)} AS {TYPES[c]}) AS {q(c)}")
    elif c in TIMESTAMP:
        select.append(f"CAST({q(c)} AS TIMESTAMPTZ) AS {q(c)}")
    else:
        select.append(q(c))
tmp = out + ".tmp"
con.execute(
    f"COPY (SELECT {', '.join(select)} FROM {source}) TO '{tmp}' "
    "(FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)"
)
os.replace(tmp, out)
