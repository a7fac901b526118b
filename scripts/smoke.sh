#!/usr/bin/env bash
# Serves dist/ under /course/lab/ on a loopback port and checks, in headless
# Chromium, that the ring view runs to its last step from there (relative
# asset paths), that every other view's own wasm binary loads and renders
# its page, that the ring's on-demand clock module loads and fills its
# panel, and that an unknown view falls back to the ring binary with its
# message. The views are the stems of src/bin/*.rs, the list that
# tests/build_config.rs checks index.html and the loader against. Prints the
# checked lines; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(mktemp -d)"
mkdir -p "$ROOT/course"
cp -r dist "$ROOT/course/lab"
PORT="${SMOKE_PORT:-8765}"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$ROOT"' EXIT
sleep 1
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
expect 'view=nosuch' 'class="view view-ring"' 'Unknown view'
echo "smoke: $views views (src/bin), each loaded from dist/ under /course/lab/"
[ "$views" -gt 1 ] || { echo "MISSING: no view in src/bin"; fail=1; }
exit $fail
