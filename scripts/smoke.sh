#!/usr/bin/env bash
# Serves dist/ under /course/lab/ on a loopback port and checks, in headless
# Chromium, that the ring view runs to its last step from there (relative
# asset paths), that every other view's own wasm binary loads and renders
# its page, that the ring's on-demand clock module and the step view's
# time-to-quality module load and fill their panels, and that an unknown
# view falls back to the ring binary with its message, and that the page
# with no view= is the start page. The views are the stems of src/bin/*.rs, the list that
# tests/build_config.rs checks index.html and the loader against. Prints the
# checked lines; exits non-zero on failure.
#
#   bash scripts/smoke.sh [folder]   # default dist/; CI also passes the
#                                    # unzipped release (scripts/package.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
DIST="${1:-dist}"
[ -f "$DIST/index.html" ] || { echo "smoke: no $DIST/index.html" >&2; exit 1; }
ROOT="$(mktemp -d)"
mkdir -p "$ROOT/course"
cp -r "$DIST" "$ROOT/course/lab"
# Port 0: the system picks a free loopback port and the server prints it
# ("Serving HTTP on 127.0.0.1 port N"), so a server already listening on
# some port (another checkout's, a teacher's) is never the one read. No
# line within 10 s: the server did not start, and the script says so.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$ROOT" >"$ROOT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$ROOT"' EXIT
PORT=""
for _ in $(seq 100); do
  PORT="$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$ROOT/server.log")"
  [ -n "$PORT" ] && break
  kill -0 "$SERVER" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$PORT" ]; then
  echo "smoke: the test server (python3 -m http.server) did not start:" >&2
  cat "$ROOT/server.log" >&2
  exit 1
fi
echo "smoke: serving $DIST/ under /course/lab/ on 127.0.0.1:$PORT"
dom() {
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-background-networking --no-first-run --user-data-dir="$ROOT/profile" \
    --virtual-time-budget=10000 --dump-dom "http://127.0.0.1:$PORT/course/lab/index.html?$1" 2>/dev/null
}
fail=0
expect() { # expect <query> <regex>...
  local query="$1" page
  shift
  page="$(dom "$query")"
  for want in "$@"; do
    if grep -Eq "$want" <<<"$page"; then echo "ok ($query): $want"; else echo "MISSING ($query): $want"; fail=1; fi
  done
}
expect 'view=ring&p=4&size=100MB&step=6' 'id="sent-0"[^>]*>150 MB<' 'Verified: all 4 ranks' 'all-gather, round 3 of 3'
views=0
for bin in src/bin/*.rs; do
  view="$(basename "$bin" .rs)"
  views=$((views + 1))
  [ "$view" = ring ] && continue # checked above, to its last step
  expect "view=$view" "class=\"view view-$view\""
done
# Above the drawn size the ring's clock numbers come from a module the page
# loads on demand (modules/ringclock, the loader's labModule).
expect 'view=ring&p=128&size=1MB' 'id="ring-clock-dataflow"' 'Dataflow finishes at'
# The step view's time-to-quality rows come from modules/quality.
expect 'view=step' 'id="quality-allreduce"' 'id="quality-order"'
expect 'view=nosuch' 'class="view view-ring"' 'Unknown view'
# No view=: the start page, from the ring binary, with the lab sheet beside it.
expect '' 'class="view view-start"' 'href="lab.md"'
[ -f "$DIST/lab.md" ] && echo "ok: $DIST/lab.md ships" || { echo "MISSING: $DIST/lab.md"; fail=1; }
echo "smoke: $views views (src/bin), each loaded from $DIST/ under /course/lab/"
[ "$views" -gt 1 ] || { echo "MISSING: no view in src/bin"; fail=1; }
exit $fail
