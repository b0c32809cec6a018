#!/usr/bin/env bash
# Mutation testing with the fast selection of .cargo/mutants.toml (the
# library's unit tests). With no argument, the three modules whose score
# docs/reliability.md records; or name files or globs:
#   scripts/mutants.sh                          # src/audit, src/normalise (text reader included)
#   scripts/mutants.sh src/audit/line_arithmetic.rs
# Extra cargo-mutants flags go after `--` (e.g. `-- -j 2 --shard 1/4`). With
# -j above 1, do not set CARGO_TARGET_DIR: the jobs would share one library
# artifact and test mutants against each other's builds.
# Results: target/mutants-out/mutants.out/{caught,missed,unviable,timeout}.txt
# (or where `-- -o DIR` says).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null 2>&1 || cargo install cargo-mutants --locked --quiet
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do files+=("-f" "$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ${#files[@]} -eq 0 ]; then
    files=(-f 'src/audit/**/*.rs' -f 'src/normalise/**/*.rs')
fi
case " $* " in
    *" -o "* | *" --output "*) out=() ;;
    *) out=(-o target/mutants-out) ;;
esac
exec cargo mutants "${files[@]}" "${out[@]}" "$@"
