# Shared by .ci/run and the scripts it calls (source it; bash only).
#
# A step that needs a tool the machine may lack (PySpark, Chromium,
# cargo-fuzz, DuckDB, focus-data-toolkit, pdftotext) installs it with one of
# the `install_*` functions below. When the install fails, the function says
# what failed and why (the installer's exit code and its last lines of
# output), and returns 3. A script passes that on as its exit code 3:
# "a tool I need is unavailable". `ci_step` then decides:
#   - under CI (CI set, and not `false` or `0`): exit 3 FAILS the run, with
#     the reason; a promised step never passes as skipped;
#   - elsewhere: the step is reported as skipped, with the reason.
# Any other non-zero exit fails the step in both cases.

# True when running under CI (CI=true, CI=1, any value but false/0/empty).
in_ci() {
    case "${CI:-}" in '' | false | 0) return 1 ;; *) return 0 ;; esac
}

# logged WHAT COMMAND...: runs COMMAND with its output in a log; on failure
# prints what failed (WHAT), its exit code and its last lines, and returns 3.
logged() {
    local what="$1" log rc=0
    shift
    log=$(mktemp)
    "$@" >"$log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "install failed: $what exited with status $rc; its last lines:" >&2
        tail -n 8 "$log" | sed 's/^/    /' >&2
    fi
    rm -f "$log"
    [ "$rc" -eq 0 ] || return 3
}

# install_pip PACKAGE...: pip install, quietly; returns 3 with the reason on failure.
install_pip() {
    logged "pip install $*" python3 -m pip install --quiet --disable-pip-version-check "$@"
}

# install_apt PACKAGE...: apt-get install (as root, or with sudo); returns 3
# with the reason on failure: no apt-get, no root, an unreachable archive or
# a failed install each say so.
install_apt() {
    local sudo=()
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install failed: apt-get is not on this machine (install $* by hand)" >&2
        return 3
    fi
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            echo "install failed: $* needs root (or password-less sudo) to install with apt-get" >&2
            return 3
        fi
    fi
    local get=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
    # Try the cached package lists first; update them only when that fails.
    "${get[@]}" install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
    logged "apt-get update (the package archive)" timeout 300 "${get[@]}" update -qq || return 3
    logged "apt-get install $*" timeout 900 "${get[@]}" install -y -qq --no-install-recommends "$@"
}

# install_cargo CRATE: cargo install --locked; returns 3 with the reason on failure.
install_cargo() {
    logged "cargo install $1" cargo install --locked --quiet "$1"
}

# ci_step NAME COMMAND...: runs one step of .ci/run, timed. Exit 3 from the
# command is "a tool is unavailable": a failure under CI, a reported skip
# elsewhere. Any other failure fails.
ci_step() {
    local name="$1" start rc=0
    shift
    start=$SECONDS
    echo "== $name"
    "$@" || rc=$?
    local took=$((SECONDS - start))
    if [ "$rc" -eq 0 ]; then
        echo "== $name: passed in ${took}s"
        return 0
    fi
    if [ "$rc" -eq 3 ]; then
        if in_ci; then
            echo "== $name: FAILED in ${took}s: a tool it needs is unavailable (see the reason above); under CI a promised step may not be skipped" >&2
            return 1
        fi
        echo "== $name: SKIPPED in ${took}s: a tool it needs is unavailable (see the reason above); CI would fail here"
        return 0
    fi
    echo "== $name: FAILED in ${took}s (exit $rc)" >&2
    return "$rc"
}
