#!/usr/bin/env bash
# Whole-program benchmark: billaudit against DuckDB and Polars (streaming)
# on the same job, same machine, same run, alternating. See
# docs/performance.md.
#
#   scripts/bench.sh                                # 1M rows, 3 runs each: generated CSV and gzip, toolkit AWS/Azure/GCP
#   ROWS=10000000 KINDS=csv SETS=gen scripts/bench.sh
#   ROWS=10000000 SETS=parquet scripts/bench.sh    # the gen set as Parquet
#   COMPARE="old=/path/to/billaudit-old" SETS=gen KINDS=csv scripts/bench.sh
#
# Data sets (SETS):
# - gen: crates/billgen (examples/gen_focus.rs), the FOCUS specification's
#   shape (`2025-10-01T00:00:00Z`, 44 columns, about 2,700 descriptions),
#   with its own expected totals; plain (csv) and gzip -6 (gz) (KINDS).
# - parquet: the gen set's CSV written once as Parquet by DuckDB
#   (scripts/bench_to_parquet.py: money DECIMAL(38,18), quantity and unit
#   price DECIMAL(38,10), periods TIMESTAMP, snappy, row groups of 122,880
#   rows); DuckDB reads it with read_parquet, Polars with scan_parquet.
#   Checked against the generator's totals as gen is.
# - toolkit: focus-data-toolkit's FOCUS 1.2 output for each of PROVIDERS
#   (57 columns), TOOLKIT_ROWS rows, plain.
#
# The job: sum BilledCost per category with ~10 case-insensitive substring
# rules, and count rows whose PricingQuantity x ListUnitPrice differs from
# ListCost. billaudit runs its whole audit; DuckDB (scripts/bench_duckdb.py)
# and Polars (scripts/bench_polars.py) run the job on THREADS threads with
# the money columns as decimals; the floor (examples/floor.rs) is the bare
# loop of the job, on plain files. The script fails unless they agree:
# - gen: every tool's total per category equals the generator's, and every
#   tool counts the generator's off-list rows;
# - toolkit: DuckDB, Polars and the floor agree per category and on the
#   mismatches; billaudit's total and row count equal theirs, and its
#   line-arithmetic findings number their mismatches.
# COMPARE="name=binary ..." times other billaudit binaries too (same
# checks), on the gen set's plain file and its Parquet file.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-1000000}
TOOLKIT_ROWS=${TOOLKIT_ROWS:-1000000}
RUNS=${RUNS:-3}
THREADS=${THREADS:-2}
DIR=${BENCH_DIR:-target/bench}
KINDS=${KINDS:-"csv gz"}
SETS=${SETS:-"gen toolkit"}
PROVIDERS=${PROVIDERS:-"aws azure gcp"}
COMPARE=${COMPARE:-}

python3 -c 'import duckdb' 2>/dev/null || pip install --quiet duckdb
python3 -c 'import polars' 2>/dev/null || pip install --quiet polars
cargo build --quiet --release --bin billaudit --example gen_focus --example floor
mkdir -p "$DIR"

# The inputs: "label path expected-json-or-none".
inputs=()
CSV="$DIR/focus-$ROWS.csv"
if [[ " $SETS " == *" gen "* || " $SETS " == *" parquet "* ]]; then
  if [ ! -s "$CSV.expected.json" ]; then
    echo "generating $ROWS rows into $CSV" >&2
    target/release/examples/gen_focus --rows "$ROWS" --seed 42 --out "$CSV"
  fi
fi
if [[ " $SETS " == *" parquet "* ]]; then
  PARQUET="$DIR/focus-$ROWS.parquet"
  if [ ! -s "$PARQUET" ]; then
    echo "writing $CSV as $PARQUET" >&2
    python3 scripts/bench_to_parquet.py "$CSV" "$PARQUET"
  fi
  inputs+=("gen-parquet $PARQUET $CSV.expected.json")
fi
if [[ " $SETS " == *" gen "* ]]; then
  for kind in $KINDS; do
    if [ "$kind" = gz ]; then
      [ -s "$CSV.gz" ] || gzip -c -6 "$CSV" > "$CSV.gz"
      inputs+=("gen-gz $CSV.gz $CSV.expected.json")
    else
      inputs+=("gen-csv $CSV $CSV.expected.json")
    fi
  done
fi
if [[ " $SETS " == *" toolkit "* ]]; then
  command -v focus-toolkit >/dev/null || pip install --quiet focus-data-toolkit==0.14.1
  for p in $PROVIDERS; do
    out="$DIR/toolkit-$p-$TOOLKIT_ROWS"
    f="$out/focus_1_2_cost_and_usage_$p.csv"
    if [ ! -s "$f" ]; then
      echo "generating $TOOLKIT_ROWS $p rows into $out" >&2
      focus-toolkit generate --provider "$p" --focus-version 1.2 --rows "$TOOLKIT_ROWS" --seed 42 --out "$out" >&2
    fi
    inputs+=("$p-csv $f none")
  done
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Times one command into $DIR/<tool>.times, its standard output into $DIR/<tool>.json.
timed() {
  local tool=$1
  shift
  # billaudit exits 1 when the bill has failing findings: that is expected.
  # (/usr/bin/time then adds a "Command exited" line: only the figures count.)
  /usr/bin/time -f '%e %M' -o "$DIR/t" "$@" > "$DIR/$tool.json" || [ $? -eq 1 ]
  grep -E '^[0-9.]+ [0-9]+$' "$DIR/t" >> "$DIR/$tool.times"
}

printf '%-10s %-16s %8s %12s %8s %10s %10s\n' input tool wall_s peak_rss_MB MB/s x_polars x_duckdb
for spec in "${inputs[@]}"; do
  read -r label input expected <<< "$spec"
  size_mb=$(du -m "$input" | cut -f1)
  tools=(billaudit duckdb polars)
  [[ "$label" == *-csv ]] && tools+=(floor)
  extra=()
  if [ "$label" = gen-csv ] || [ "$label" = gen-parquet ]; then
    for c in $COMPARE; do extra+=("$c"); tools+=("${c%%=*}"); done
  fi
  for t in "${tools[@]}"; do : > "$DIR/$t.times"; done
  # Every tool reads the file from the page cache: the first to run must
  # not pay for the disk (a 10M-row file is 5 GB).
  cat "$input" > /dev/null
  for ((i = 1; i <= RUNS; i++)); do
    timed billaudit env RAYON_NUM_THREADS="$THREADS" target/release/billaudit audit --format json "$input"
    timed duckdb python3 scripts/bench_duckdb.py "$input" "$THREADS"
    timed polars env POLARS_MAX_THREADS="$THREADS" python3 scripts/bench_polars.py "$input"
    [[ "$label" == *-csv ]] && timed floor target/release/examples/floor "$input" "$THREADS"
    for c in "${extra[@]}"; do
      timed "${c%%=*}" env RAYON_NUM_THREADS="$THREADS" "${c#*=}" audit --format json "$input"
    done
  done
  [[ "$label" == *-csv ]] || cp "$DIR/duckdb.json" "$DIR/floor.json"
  billaudits="$DIR/billaudit.json"
  for c in "${extra[@]}"; do billaudits="$billaudits,$DIR/${c%%=*}.json"; done
  python3 - "$input" "$expected" "$billaudits" "$DIR/duckdb.json" "$DIR/polars.json" "$DIR/floor.json" <<'EOF'
import json, sys
from decimal import Decimal
path, expected, billaudits, *peers = sys.argv[1:]
peers = {name: json.load(open(f)) for name, f in zip(["duckdb", "polars", "floor"], peers)}
def totals(d):
    return {c: Decimal(v) for c, v in d["totals"].items() if Decimal(v) != 0}
if expected != "none":
    ex = json.load(open(expected))
    want = {c: Decimal(v) for c, v in ex["totals"].items()}
    want_rows, want_mismatches = ex["rows"], ex["arithmetic_mismatches"]
    for name, d in peers.items():
        for cat, w in want.items():
            got = Decimal(d["totals"].get(cat, "0"))
            assert got == w, f"{name} {cat}: {got} != {w}"
else:
    want = None
    ref = peers["duckdb"]
    want_rows, want_mismatches = ref["rows"], ref["mismatches"]
    for name, d in peers.items():
        assert totals(d) == totals(ref), f"{name} totals {d['totals']} != duckdb {ref['totals']}"
want_total = sum(Decimal(v) for v in peers["duckdb"]["totals"].values())
for name, d in peers.items():
    assert d["mismatches"] == want_mismatches, f"{name} mismatches {d['mismatches']} != {want_mismatches}"
    assert d["rows"] == want_rows, f"{name} rows {d['rows']} != {want_rows}"
for f in billaudits.split(","):
    bills = json.load(open(f))["bills"]
    assert len(bills) == 1, f"{f}: one bill expected, got {len(bills)}"
    b = bills[0]
    if want is not None:
        for cat, w in want.items():
            assert Decimal(b["totals"][cat]) == w, f"{f} {cat}: {b['totals'][cat]} != {w}"
    assert Decimal(b["total"]) == want_total, f"{f} total {b['total']} != {want_total}"
    assert b["line_items"] == want_rows, (f, b["line_items"], want_rows)
    arith = sum(1 for x in b["findings"] if x["code"] == "line-arithmetic" and x["line"] is not None)
    capped = [x for x in b["findings"] if x["code"] == "line-arithmetic" and x["line"] is None]
    if capped:
        arith += int(capped[0]["message"].split()[0])
    assert arith == want_mismatches, f"{f}: {arith} line-arithmetic findings, {want_mismatches} mismatches"
print(f"# {path}: totals, {want_rows} rows and {want_mismatches} arithmetic mismatches agree "
      f"(billaudit, DuckDB, Polars, floor{', generator' if want is not None else ''})", file=sys.stderr)
EOF
  pl_wall=$(cut -d' ' -f1 "$DIR/polars.times" | median)
  dd_wall=$(cut -d' ' -f1 "$DIR/duckdb.times" | median)
  for t in "${tools[@]}"; do
    wall=$(cut -d' ' -f1 "$DIR/$t.times" | median)
    rss=$(cut -d' ' -f2 "$DIR/$t.times" | median)
    awk -v l="$label" -v t="$t" -v w="$wall" -v r="$rss" -v s="$size_mb" -v p="$pl_wall" -v d="$dd_wall" \
      'BEGIN {printf "%-10s %-16s %8.2f %12.1f %8.0f %10.2f %10.2f\n", l, t, w, r/1024, s/w, w/p, w/d}'
  done
done
