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
        # The Spark findings query is a script (src/sql/findings_shape.rs):
        # statements ending with `;` and an empty line, the query last;
        # each parses, the query is transpiled.
        parts = [p for p in sql.split(";\n\n") if p.strip()]
        for p in parts[:-1]:
            assert dialect == "spark", f"{f}: {len(parts)} statements, expected one query"
            t = sqlglot.parse_one(p, read=READ[dialect], error_level=ErrorLevel.RAISE)
            assert isinstance(t, (sqlglot.exp.Drop, sqlglot.exp.Cache, sqlglot.exp.Create, sqlglot.exp.Set)), f"{f}: {type(t)}"
        sql = parts[-1]
        trees = sqlglot.parse(sql, read=READ[dialect], error_level=ErrorLevel.RAISE)
        assert len(trees) == 1, f"{f}: {len(trees)} statements, expected one query"
        out = sqlglot.transpile(sql, read=READ[dialect], write="duckdb",
                                unsupported_level=ErrorLevel.RAISE)
        assert out and out[0].strip(), f"{f}: empty transpilation"
        print(f"ok {dialect} {f} ({len(sql)} chars)")


if __name__ == "__main__":
    main()
