#!/usr/bin/env python3
"""Parses generated queries with sqlglot in their own dialect and transpiles
each to DuckDB, failing on any parse or unsupported-feature error.

    python3 tests/sql/parse_sqlglot.py DIALECT FILE.sql...   (athena|bigquery|spark|duckdb)
"""
import sys

import sqlglot
from sqlglot.errors import ErrorLevel

READ = {"athena": "trino", "bigquery": "bigquery", "spark": "spark", "duckdb": "duckdb"}


def main():
    dialect, files = sys.argv[1], sys.argv[2:]
    for f in files:
        sql = open(f, encoding="utf-8").read()
        trees = sqlglot.parse(sql, read=READ[dialect], error_level=ErrorLevel.RAISE)
        assert len(trees) == 1, f"{f}: {len(trees)} statements, expected one query"
        out = sqlglot.transpile(sql, read=READ[dialect], write="duckdb",
                                unsupported_level=ErrorLevel.RAISE)
        assert out and out[0].strip(), f"{f}: empty transpilation"
        print(f"ok {dialect} {f} ({len(sql)} chars)")


if __name__ == "__main__":
    main()
