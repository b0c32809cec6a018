#!/usr/bin/env bash
# Checks the pre-commit hooks of .pre-commit-hooks.yaml as a user meets them:
#   1. `pre-commit validate-manifest` accepts the manifest;
#   2. `pre-commit try-repo` (which builds billaudit with cargo, as a user's
#      first run does) runs `billaudit-check` on a scratch repository holding
#      a fixture bill and its expectation: it passes;
#   3. the same with the expectation broken: the hook fails and names it;
#   4. `billaudit-audit` fails on a bill whose hidden fees are over 5%.
# Installs pre-commit from PyPI when missing; exit 3, with the reason, when
# it cannot (.ci/run fails on that under CI). About 2 minutes, most of it
# pre-commit's own release build of billaudit.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/steps.sh
if ! command -v pre-commit >/dev/null 2>&1; then
    echo "pre-commit check: pre-commit is missing; installing it from PyPI"
    install_pip pre-commit || exit 3
fi
repo=$(pwd)
pre-commit validate-manifest .pre-commit-hooks.yaml
echo "pre-commit check: manifest valid"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export PRE_COMMIT_HOME="${PRE_COMMIT_HOME:-$repo/target/pre-commit-home}"
# pre-commit's `cargo install` of the hook reuses this checkout's build of
# the dependencies (only billaudit itself is compiled again).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
cd "$scratch"
git init -q .
git config user.email ci@example.invalid
git config user.name ci
mkdir bills
cp "$repo/fixtures/csv/clean-bill.csv" "$repo/fixtures/csv/clean-bill.csv.expect.toml" bills/
git add -A && git commit -qm bills

try() { pre-commit try-repo "$repo" "$1" --all-files --color never; }

echo "pre-commit check: billaudit-check on a bill that meets its expectation"
try billaudit-check > out.txt 2>&1 || { cat out.txt; echo "pre-commit check: billaudit-check failed on a good bill" >&2; exit 1; }
grep -q 'billaudit check.*Passed' out.txt || { cat out.txt; echo "pre-commit check: no Passed line" >&2; exit 1; }

echo "pre-commit check: billaudit-check on a broken expectation"
sed -i 's/^total = .*/total = "0.01"/' bills/clean-bill.csv.expect.toml
git commit -qam "break the expectation"
if try billaudit-check > out.txt 2>&1; then
    cat out.txt; echo "pre-commit check: billaudit-check passed a broken expectation" >&2; exit 1
fi
grep -q 'Failed' out.txt && grep -q 'clean-bill.csv' out.txt || { cat out.txt; exit 1; }

echo "pre-commit check: billaudit-audit on a bill over the hidden-fee threshold"
cp "$repo/fixtures/csv/hidden-share-over-5pct.csv" bills/
git add -A && git commit -qm "over 5%"
if try billaudit-audit > out.txt 2>&1; then
    cat out.txt; echo "pre-commit check: billaudit-audit passed a bill over 5% hidden" >&2; exit 1
fi
grep -q 'hidden-fee-share' out.txt || { cat out.txt; exit 1; }
echo "pre-commit check: passed"
