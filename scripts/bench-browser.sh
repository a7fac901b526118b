#!/usr/bin/env bash
# In-browser measurements: builds the release app if needed, serves dist/ on a
# loopback port and opens ?view=bench in headless Chromium, then prints the
# table of medians the page measured with performance.now().
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
[ -f dist/index.html ] || trunk build --release
PORT="${BENCH_PORT:-8767}"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
SERVER=$!
PROFILE="$(mktemp -d)"
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$PROFILE"' EXIT
sleep 1
# Real time, not virtual time: the page awaits timers between steps.
timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --disable-background-networking --no-first-run --user-data-dir="$PROFILE" \
  --remote-debugging-port=0 --virtual-time-budget=120000 \
  --dump-dom "http://127.0.0.1:$PORT/index.html?view=bench" 2>/dev/null \
  | python3 -c '
import sys, re, html
dom = sys.stdin.read()
rows = re.findall(r"<tr class=\"bench-row\"><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", dom)
if not rows:
    print("no measurements found (page did not finish)"); sys.exit(1)
for what, ms, runs in rows:
    print(f"{html.unescape(what):<62} {ms:>10} ms  (median of {runs})")
'
