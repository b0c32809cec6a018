#!/usr/bin/env bash
# Installs the FinOps Foundation's focus-validator into its own virtualenv
# (default ~/.cache/billaudit/focus-validator; tests/integration/focus_export.rs
# looks there, or in $BILLAUDIT_FOCUS_VALIDATOR_VENV). Its own pins (sqlglot
# <19, numpy <2) clash with the project's tools, hence the virtualenv.
# 2.x needs Python 3.12+; on older Pythons 1.0.0 is the newest that installs,
# and its pandera 0.17 needs multimethod < 1.11 (newer ones lack `overload`).
set -euo pipefail
venv="${1:-${BILLAUDIT_FOCUS_VALIDATOR_VENV:-$HOME/.cache/billaudit/focus-validator}}"
python3 -m venv "$venv"
pip="$venv/bin/pip"
if python3 -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
    "$pip" install --quiet --disable-pip-version-check focus-validator
else
    "$pip" install --quiet --disable-pip-version-check focus-validator==1.0.0 "multimethod<1.11"
fi
"$venv/bin/focus-validator" --supported-versions >/dev/null
