#!/usr/bin/env bash
# Write every report format of every bundled bill (fixtures/, tests/data/,
# and the real exports in ../shared/data/real when present) to OUTDIR, one
# file per input and format, with the exit code on the last line.
#
# Used to prove that a refactor changes no output:
#   scripts/snapshot-outputs.sh /path/to/old/billaudit /tmp/before
#   scripts/snapshot-outputs.sh target/release/billaudit /tmp/after
#   diff -r /tmp/before /tmp/after
set -euo pipefail
bin=${1:?usage: snapshot-outputs.sh BINARY OUTDIR}
out=${2:?usage: snapshot-outputs.sh BINARY OUTDIR}
real=${BILLAUDIT_REAL_DATA:-../shared/data/real}
mkdir -p "$out"
inputs=$(
  { find fixtures tests/data -type f ! -name '*.toml' ! -name '*.md' ! -name 'LICENSE*' ! -name '*.expected*';
    [ -d "$real" ] && find "$real" -type f \( -name '*.csv' -o -name '*.gz' -o -name '*.zip' \); } | LC_ALL=C sort
)
formats="json human csv markdown junit sarif github gitlab html"
for f in $inputs; do
  key=$(printf '%s' "$f" | tr '/' '_')
  for fmt in $formats; do
    set +e
    "$bin" audit --format "$fmt" "$f" >"$out/$key.$fmt" 2>"$out/$key.$fmt.stderr"
    echo "exit=$?" >>"$out/$key.$fmt"
    set -e
  done
done
# Directories are bills too (split parts merge): audit each fixture folder.
for d in fixtures/*/; do
  key=$(printf '%s' "$d" | tr '/' '_')
  set +e
  "$bin" audit --format json "$d" >"$out/dir$key.json" 2>"$out/dir$key.json.stderr"
  echo "exit=$?" >>"$out/dir$key.json"
  "$bin" check --format json "$d" >"$out/check$key.json" 2>"$out/check$key.json.stderr"
  echo "exit=$?" >>"$out/check$key.json"
  set -e
done
echo "$(ls "$out" | wc -l) files in $out"
