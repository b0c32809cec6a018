#!/usr/bin/env bash
# Renders billaudit's HTML report in a real browser (Debian's headless
# Chromium) and checks what a person would see:
#   (a) a single bill, (b) a batch of bills, (c) a bill with hostile text.
# For each page: a screenshot is written and is a real PNG of the window size
# with content (not a blank page), the browser logged no console message at
# all (the page has no script, so any console line is an error: a CSP
# violation for something it tried to load, a parse or render complaint),
# and the DOM the browser built has no <script> element, shows hostile text
# as text and has one section per bill.
#
# How console errors are caught: Chromium writes every console message, CSP
# violations included, to stderr as `INFO:CONSOLE...` with
# `--enable-logging=stderr --v=0`. A canary page with a deliberate console
# error is run first; if its line does not show up, the check fails rather
# than pass blind. DNS is mapped to nowhere, so nothing could load anyway.
#
# Installs chromium with apt-get when it is missing (needs root or sudo).
# Exit codes: 0 passed; 1 a check failed; 3 chromium is missing and could
# not be installed (the reason is printed: no root, no apt-get, the archive
# unreachable, or the install failing).
#
# Usage: scripts/browser-check.sh [--update-docs]
#   --update-docs  copies the batch screenshot to docs/html-report.png
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/browser-check
update_docs=false
[ "${1:-}" = "--update-docs" ] && update_docs=true

find_chromium() {
    command -v chromium || command -v chromium-browser || true
}

. scripts/lib/steps.sh
chrome=$(find_chromium)
if [ -z "$chrome" ]; then
    echo "browser-check: chromium not found; installing Debian's chromium"
    install_apt chromium || exit 3
    chrome=$(find_chromium)
    [ -n "$chrome" ] || { echo "browser-check: chromium still missing after install" >&2; exit 1; }
fi
echo "browser-check: using $("$chrome" --version 2>/dev/null | head -1)"

cargo build --quiet --bin billaudit
bin=target/debug/billaudit
rm -rf "$out"
mkdir -p "$out"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# Runs chromium on one file: chrome NAME FILE MODE (screenshot|dom).
chrome_run() {
    local name=$1 file=$2 mode=$3 profile
    profile=$(mktemp -d)
    local args=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
        --disable-background-networking --disable-component-update --disable-sync
        --host-resolver-rules="MAP * ~NOTFOUND"
        --user-data-dir="$profile" --enable-logging=stderr --v=0)
    if [ "$mode" = screenshot ]; then
        timeout 120 "$chrome" "${args[@]}" --screenshot="$out/$name.png" --window-size=1280,2000 \
            "file://$PWD/$file" >"$out/$name.stdout" 2>"$out/$name.log" || true
    else
        timeout 120 "$chrome" "${args[@]}" --dump-dom "file://$PWD/$file" \
            >"$out/$name.dom.html" 2>"$out/$name.dom.log" || true
    fi
    rm -rf "$profile"
}

console_lines() {
    grep -h 'CONSOLE' "$@" 2>/dev/null || true
}

# The canary: proves console messages are observable with this chromium.
cat >"$out/canary.html" <<'EOF'
<!DOCTYPE html><html><head><title>canary</title></head><body><script>console.error("browser-check canary")</script></body></html>
EOF
chrome_run canary "$out/canary.html" screenshot
if ! console_lines "$out/canary.log" | grep -q 'browser-check canary'; then
    fail "the canary's console error was not logged: console errors cannot be detected with this chromium"
fi

# png_size FILE -> "WIDTH HEIGHT" from the IHDR chunk.
png_size() {
    local hex
    hex=$(od -An -tx1 -j16 -N8 "$1" | tr -d ' \n')
    echo "$((16#${hex:0:8})) $((16#${hex:8:8}))"
}

check_page() {
    local name=$1 bills=$2
    shift 2
    local page="$out/$name.html"
    local code=0
    "$bin" audit --format html "$@" >"$page" || code=$?
    # 0 passed, 1 findings: both render a report; 2 is an input error.
    if [ "$code" -gt 1 ]; then
        fail "$name: billaudit exited $code"
        return
    fi
    chrome_run "$name" "$page" screenshot
    chrome_run "$name" "$page" dom
    local png="$out/$name.png"
    if [ ! -s "$png" ]; then
        fail "$name: no screenshot"
    elif [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
        fail "$name: the screenshot is not a PNG"
    else
        local size bytes
        size=$(png_size "$png")
        bytes=$(stat -c %s "$png")
        [ "$size" = "1280 2000" ] || fail "$name: screenshot is $size, expected 1280 2000"
        # A blank 1280x2000 page compresses to a few KB; a report is far more.
        [ "$bytes" -gt 40000 ] || fail "$name: screenshot is only $bytes bytes: a blank page?"
        echo "browser-check: $name: $png ($size, $bytes bytes)"
    fi
    local console
    console=$(console_lines "$out/$name.log" "$out/$name.dom.log")
    if [ -n "$console" ]; then
        fail "$name: console messages:"
        echo "$console" >&2
    fi
    local dom="$out/$name.dom.html"
    if ! grep -q '<title>billaudit report' "$dom"; then
        fail "$name: the DOM dump has no report title"
    fi
    if grep -qi '<script' "$dom"; then
        fail "$name: the DOM has a <script> element"
    fi
    local sections
    sections=$(grep -o '<section class="bill"' "$dom" | wc -l)
    [ "$sections" -eq "$bills" ] || fail "$name: $sections bill sections in the DOM, expected $bills"
}

check_page single 1 fixtures/csv/gpu-pod-en.csv
batch_bills=$(($(find fixtures/csv -name '*.csv' | wc -l) + 1))
check_page batch "$batch_bills" fixtures/csv fixtures/html/gpu-cloud-2025h2.csv
check_page hostile 1 fixtures/html/hostile.csv
# Hostile text is in the DOM as text, never as markup.
for text in '&lt;script&gt;alert(1)&lt;/script&gt;' 'onerror=alert(2)&gt;' '&lt;svg onload=alert(3)&gt;'; do
    grep -qF "$text" "$out/hostile.dom.html" || fail "hostile: '$text' is not in the DOM as text"
done
if grep -q '<img\|<svg onload\|<style>body' "$out/hostile.dom.html"; then
    fail "hostile: bill text became markup"
fi

if [ "$failures" -gt 0 ]; then
    echo "browser-check: $failures check(s) failed; see $out/" >&2
    exit 1
fi
if $update_docs; then
    cp "$out/batch.png" docs/html-report.png
    echo "browser-check: docs/html-report.png updated"
fi
echo "browser-check: passed (single, batch, hostile): screenshots, no console messages, escaped DOM"
