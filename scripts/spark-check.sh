#!/usr/bin/env bash
# Runs `billaudit sql --dialect spark` under PySpark in local mode on every
# real FOCUS, CUR, Azure and OCI export (tests/sql/real_files.txt) and the SQL
# fixtures, and compares each result with `billaudit audit` exactly
# (tests/sql/run_sql.py). Installs pyspark from PyPI and a Java runtime from
# Debian when missing; exit 3, with the installer's reason, when it cannot
# (.ci/run fails on that under CI, and reports a skip elsewhere). About 13 minutes on 2 loaded cores (docs/ci.md), most of it Spark planning the findings script.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/steps.sh
if ! command -v java >/dev/null; then
    echo "spark check: java is missing; installing Debian's default-jre-headless"
    install_apt default-jre-headless || exit 3
fi
if ! python3 -c "import pyspark" 2>/dev/null; then
    echo "spark check: pyspark is missing; installing it from PyPI"
    install_pip pyspark || exit 3
fi
real="${BILLAUDIT_REAL_DATA:-../shared/data/real}"
files=()
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    files+=("$real/$line")
done < tests/sql/real_files.txt
files+=(
    tests/sql/fixtures/focus-hidden-at-5pct.csv:focus
    tests/sql/fixtures/focus-x-columns-scheduling.csv:focus
    fixtures/cloud/aws-cur2-2024-11.csv:aws-cur2
)
cargo build --quiet --bin billaudit
python3 tests/sql/run_sql.py --engine spark --billaudit target/debug/billaudit "${files[@]}" 2> >(grep -v -E 'WARN|log4j|setLogLevel|incubator' >&2)
# `billaudit sql --findings` in the same engine: per code the same findings
# and lines as the audit (tests/sql/findings_check.py, one Spark session
# for every query), on the real FOCUS sample, the real CUR export with
# findings, the CUR and Azure commitment fixtures (unused-commitment from
# their own columns), one seeded FOCUS bill (every other per-line check
# planted: duplicates, idle storage, block prices, overcharges, contracts,
# reservations, rounded hours), one seeded legacy CUR bill
# (tests/sql/gen_findings_cur.py seed 0) and, with its billaudit.toml, the price-book
# fixture (rate-above-reference) and the GPU-plan fixture with its book
# (plan-costlier-than-on-demand). Every check with a per-line finding runs
# here at least once.
python3 tests/sql/findings_check.py --engine spark --billaudit target/debug/billaudit --generated 1 --generated-cur 1 \
    "$real/focus/focus_sample.csv:focus" \
    "$real/aws-cur/koku_test_cur.csv.gz:aws-cur" \
    fixtures/commitments/aws-cur-unused-reservation.csv:aws-cur \
    fixtures/commitments/azure-amortized-unused-reservation.csv:azure \
    2> >(grep -v -E 'WARN|log4j|setLogLevel|incubator' >&2)
python3 tests/sql/findings_check.py --engine spark --billaudit target/debug/billaudit \
    --config tests/sql/fixtures/focus-price-book.toml tests/sql/fixtures/focus-price-book.csv:focus \
    2> >(grep -v -E 'WARN|log4j|setLogLevel|incubator' >&2)
# plan-costlier-than-on-demand against a [[price]] book (and one more
# rate-above-reference), the GPU plans of tests/sql/fixtures.
python3 tests/sql/findings_check.py --engine spark --billaudit target/debug/billaudit \
    --config tests/sql/fixtures/focus-gpu-monthly-plan.toml tests/sql/fixtures/focus-gpu-plans-mixed.csv:focus \
    2> >(grep -v -E 'WARN|log4j|setLogLevel|incubator' >&2)
