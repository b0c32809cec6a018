#!/usr/bin/env bash
# Fuzzing with cargo-fuzz (libFuzzer) on the stable toolchain.
#
#   scripts/fuzz.sh seed               # fill fuzz/corpus/<target>/ from fixtures/ and ../shared/data/real/
#   scripts/fuzz.sh run TARGET SECS    # one target, one job, for SECS seconds
#   scripts/fuzz.sh smoke [SECS]       # build all targets, run each briefly (CI)
#
# cargo-fuzz needs nightly-only flags (-Zsanitizer=address); RUSTC_BOOTSTRAP=1
# lets the stable compiler accept them. See docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
TARGETS=(ingest csv_header csv_split text_invoice number date parquet)
REAL="${BILLAUDIT_REAL_DATA:-../shared/data/real}"

# seed [DIR]: fills DIR/<target>/ (default fuzz/corpus) with seeds.
seed() {
    local dir="${1:-fuzz/corpus}"
    for t in "${TARGETS[@]}"; do mkdir -p "$dir/$t"; done
    # Whole files: every fixture and real export (never committed: corpus is git-ignored).
    local files=()
    while IFS= read -r -d '' f; do files+=("$f"); done < <(
        find fixtures "$REAL" -type f \( -name '*.csv' -o -name '*.tsv' -o -name '*.txt' -o -name '*.gz' -o -name '*.zip' \) -size -1024k -print0 2>/dev/null)
    local i=0
    for f in "${files[@]}"; do
        i=$((i + 1))
        cp "$f" "$dir/ingest/seed-$i"
        case "$f" in
            *.gz|*.zip) ;;
            *.txt) cp "$f" "$dir/text_invoice/seed-$i" ;;
            *) head -c 65536 "$f" > "$dir/csv_header/seed-$i"
               head -c 65536 "$f" > "$dir/csv_split/seed-$i" ;;
        esac
    done
    # Cells: the numbers and dates that real files carry, one per seed file.
    python3 - "$dir" "${files[@]}" <<'PY'
import csv, io, re, sys, os
out_dir = sys.argv.pop(1)
nums, dates = set(), set()
for f in sys.argv[1:]:
    if f.endswith(('.gz', '.zip')):
        continue
    try:
        text = open(f, encoding='utf-8', errors='replace').read(200000)
    except OSError:
        continue
    for row in csv.reader(io.StringIO(text)):
        for c in row:
            c = c.strip()
            if not c or len(c) > 60:
                continue
            if re.search(r'\d{4}[-/]\d{1,2}|\d{1,2}/\d{1,2}/\d{4}', c):
                dates.add(c)
            elif re.search(r'\d', c):
                nums.add(c)
for name, vals in (('number', nums), ('date', dates)):
    for i, v in enumerate(sorted(vals)[:400]):
        with open(os.path.join(out_dir, name, f'seed-{i}'), 'w') as out:
            out.write(v)
PY
    # Parquet: small files written by DuckDB (when python3 has it) from a
    # few fixtures, typed, all-text with DECIMAL costs, and each codec.
    python3 - "$dir/parquet" "$REAL" <<'PY' || echo "fuzz: no Parquet seeds (python3 cannot import duckdb)"
import os, sys
import duckdb
out, real = sys.argv[1], sys.argv[2]
src = os.path.join(real, 'focus', 'focus_sample.csv')
if not os.path.exists(src):
    sys.exit(0)
con = duckdb.connect()
con.execute('SET enable_progress_bar = false')
con.execute(f"CREATE TABLE t AS SELECT * FROM read_csv_auto('{src}') LIMIT 20")
con.execute(f"CREATE TABLE s AS SELECT * FROM read_csv('{src}', all_varchar=true) LIMIT 20")
for codec in ('snappy', 'zstd', 'gzip', 'uncompressed'):
    con.execute(f"COPY t TO '{out}/typed-{codec}.parquet' (FORMAT parquet, COMPRESSION {codec}, ROW_GROUP_SIZE 8)")
con.execute(f"COPY (SELECT * REPLACE (CAST(BilledCost AS DECIMAL(38,10)) AS BilledCost) FROM s) TO '{out}/decimal.parquet' (FORMAT parquet)")
con.execute(f"COPY (SELECT 1::INT AS i, 2::BIGINT AS l, 1.5::FLOAT AS f, NULL::DOUBLE AS d, true AS b, DATE '2024-01-02' AS dt, TIMESTAMP_NS '2024-01-02 03:04:05.123456789' AS ns, 'x'::VARCHAR AS s, {{'a': 1}} AS st, [1,2] AS li, MAP {{'k': 'v'}} AS m, 12.5::DECIMAL(4,1) AS d4, 12.5::DECIMAL(18,3) AS d18) TO '{out}/types.parquet' (FORMAT parquet)")
PY
    for t in "${TARGETS[@]}"; do echo "seeded $t: $(ls "$dir/$t" | wc -l) files"; done
}

# run TARGET SECS [CORPUS]: one target, in this process (no -jobs fork).
run() {
    local t="$1" secs="$2" corpus="${3:-corpus}"
    [ -d "fuzz/$corpus/$t" ] || seed "fuzz/$corpus"
    mkdir -p "fuzz/artifacts/$t"
    (cd fuzz && cargo fuzz run -O "$t" "$corpus/$t" -- \
        -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1)
}

case "${1:-}" in
    seed) seed ;;
    run) run "$2" "$3" ;;
    smoke)
        # Exit 3 when cargo-fuzz is missing and cannot be installed (with
        # the reason); exit 1 on a crash or on any other failure of `cargo
        # fuzz build` or `cargo fuzz run`.
        secs="${2:-5}"
        . scripts/lib/steps.sh
        if ! command -v cargo-fuzz >/dev/null 2>&1; then
            echo "fuzz: cargo-fuzz is missing; installing it from crates.io"
            install_cargo cargo-fuzz || exit 3
        fi
        (cd fuzz && cargo fuzz build -O)
        # A small fresh corpus (seeds only), so the initial pass stays short.
        rm -rf fuzz/corpus-smoke
        seed fuzz/corpus-smoke >/dev/null
        for t in "${TARGETS[@]}"; do
            echo "-- fuzz $t for ${secs}s"
            log="fuzz/fuzz-$t.log"
            rc=0
            run "$t" "$secs" corpus-smoke >"$log" 2>&1 || rc=$?
            grep -E '^(stat::(number_of_executed_units|peak_rss_mb)|SUMMARY|Done)|panicked|ERROR' "$log" || true
            if [ -n "$(ls fuzz/artifacts/"$t" 2>/dev/null)" ]; then
                echo "fuzz $t: crash artifacts in fuzz/artifacts/$t" >&2
                exit 1
            fi
            if [ "$rc" -ne 0 ]; then
                echo "fuzz $t: cargo fuzz run failed with status $rc; the end of $log:" >&2
                tail -n 30 "$log" >&2
                exit 1
            fi
        done
        ;;
    *) sed -n 2,10p "$0"; exit 2 ;;
esac
