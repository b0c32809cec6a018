#!/usr/bin/env bash
# Whole-program benchmark: billaudit against DuckDB on the same job, same
# machine, same run, alternating. See docs/performance.md.
#
#   scripts/bench.sh                 # 1M rows, 5 runs each, plain and gzip
#   ROWS=10000000 RUNS=3 scripts/bench.sh
#
# The job: sum BilledCost per category with ~10 case-insensitive substring
# rules, and count rows whose PricingQuantity x ListUnitPrice differs from
# ListCost. Both sides must give the same exact totals, or the script fails.
# For plain CSV it also times the floor, the bare loop of that job
# (examples/floor.rs), which must agree too.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-5}
THREADS=${THREADS:-2}
DIR=${BENCH_DIR:-target/bench}
KINDS=${KINDS:-"csv gz"}

python3 -c 'import duckdb' 2>/dev/null || pip install --quiet duckdb
cargo build --quiet --release --bin billaudit --example gen_focus --example floor
mkdir -p "$DIR"
CSV="$DIR/focus-$ROWS.csv"
if [ ! -s "$CSV.expected.json" ]; then
  echo "generating $ROWS rows into $CSV" >&2
  target/release/examples/gen_focus --rows "$ROWS" --seed 42 --out "$CSV"
fi
if [[ " $KINDS " == *" gz "* && ! -s "$CSV.gz" ]]; then
  gzip -c -6 "$CSV" > "$CSV.gz"
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

printf '%-6s %-10s %10s %12s %12s\n' input tool wall_s peak_rss_MB MB/s
for kind in $KINDS; do
  input="$CSV"
  [ "$kind" = gz ] && input="$CSV.gz"
  size_mb=$(du -m "$input" | cut -f1)
  : > "$DIR/ba.times"; : > "$DIR/dd.times"; : > "$DIR/fl.times"
  # Both tools read the file from the page cache: the first to run must not
  # pay for the disk (a 10M-row file is 5.4 GB).
  cat "$input" > /dev/null
  for ((i = 1; i <= RUNS; i++)); do
    # billaudit exits 1 when the bill has failing findings: that is expected.
    # (/usr/bin/time then adds a "Command exited" line: only the figures count.)
    /usr/bin/time -f '%e %M' -o "$DIR/t" env RAYON_NUM_THREADS="$THREADS" \
      target/release/billaudit audit --format json "$input" > "$DIR/ba.json" || [ $? -eq 1 ]
    grep -E '^[0-9.]+ [0-9]+$' "$DIR/t" >> "$DIR/ba.times"
    /usr/bin/time -f '%e %M' -o "$DIR/t" \
      python3 scripts/bench_duckdb.py "$input" "$THREADS" > "$DIR/dd.json"
    grep -E '^[0-9.]+ [0-9]+$' "$DIR/t" >> "$DIR/dd.times"
    # The floor: the bare loop of the same job (examples/floor.rs), plain files only.
    if [ "$kind" = csv ]; then
      /usr/bin/time -f '%e %M' -o "$DIR/t" \
        target/release/examples/floor "$input" "$THREADS" > "$DIR/fl.json"
      grep -E '^[0-9.]+ [0-9]+$' "$DIR/t" >> "$DIR/fl.times"
    fi
  done
  [ "$kind" = csv ] || cp "$DIR/dd.json" "$DIR/fl.json"
  python3 - "$DIR/ba.json" "$DIR/dd.json" "$CSV.expected.json" "$DIR/fl.json" <<'EOF'
import json, sys
from decimal import Decimal
ba = json.load(open(sys.argv[1]))["bills"]
dd = json.load(open(sys.argv[2]))
ex = json.load(open(sys.argv[3]))
fl = json.load(open(sys.argv[4]))
assert len(ba) == 1, f"one bill expected, got {len(ba)}"
b = ba[0]
for cat, want in ex["totals"].items():
    got_ba = Decimal(b["totals"][cat])
    got_dd = Decimal(dd["totals"].get(cat, "0"))
    assert got_ba == Decimal(want), f"billaudit {cat}: {got_ba} != {want}"
    assert got_dd == Decimal(want), f"duckdb {cat}: {got_dd} != {want}"
    got_fl = Decimal(fl["totals"].get(cat, "0"))
    assert got_fl == Decimal(want), f"floor {cat}: {got_fl} != {want}"
assert Decimal(b["total"]) == Decimal(ex["total"])
assert b["line_items"] == ex["rows"], (b["line_items"], ex["rows"])
arith = sum(1 for f in b["findings"] if f["code"] == "line-arithmetic" and f["line"] is not None)
capped = [f for f in b["findings"] if f["code"] == "line-arithmetic" and f["line"] is None]
if capped:
    arith += int(capped[0]["message"].split()[0])
assert arith == ex["arithmetic_mismatches"] == dd["mismatches"] == fl["mismatches"], (arith, ex["arithmetic_mismatches"], dd["mismatches"], fl["mismatches"])
print(f"# {sys.argv[3]}: totals and {arith} arithmetic mismatches agree (billaudit, DuckDB, floor, generator)", file=sys.stderr)
EOF
  ba_wall=$(cut -d' ' -f1 "$DIR/ba.times" | median)
  ba_rss=$(cut -d' ' -f2 "$DIR/ba.times" | median)
  dd_wall=$(cut -d' ' -f1 "$DIR/dd.times" | median)
  dd_rss=$(cut -d' ' -f2 "$DIR/dd.times" | median)
  awk -v k="$kind" -v w="$ba_wall" -v r="$ba_rss" -v s="$size_mb" 'BEGIN {printf "%-6s %-10s %10.2f %12.1f %12.0f\n", k, "billaudit", w, r/1024, s/w}'
  awk -v k="$kind" -v w="$dd_wall" -v r="$dd_rss" -v s="$size_mb" 'BEGIN {printf "%-6s %-10s %10.2f %12.1f %12.0f\n", k, "duckdb", w, r/1024, s/w}'
  awk -v a="$ba_wall" -v b="$dd_wall" -v k="$kind" 'BEGIN {printf "%-6s ratio billaudit/duckdb wall: %.2f\n", k, a/b}'
  if [ "$kind" = csv ]; then
    fl_wall=$(cut -d' ' -f1 "$DIR/fl.times" | median)
    fl_rss=$(cut -d' ' -f2 "$DIR/fl.times" | median)
    awk -v k="$kind" -v w="$fl_wall" -v r="$fl_rss" -v s="$size_mb" 'BEGIN {printf "%-6s %-10s %10.2f %12.1f %12.0f\n", k, "floor", w, r/1024, s/w}'
    awk -v a="$ba_wall" -v b="$fl_wall" -v d="$dd_wall" -v k="$kind" 'BEGIN {printf "%-6s ratio billaudit/floor wall: %.2f, duckdb/floor: %.2f\n", k, a/b, d/b}'
  fi
done
