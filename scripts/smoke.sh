#!/usr/bin/env bash
# Serves dist/ under /course/lab/ on a loopback port and checks, in headless
# Chromium, that the ring view runs to its last step from there (relative
# asset paths). Prints the checked lines; exits non-zero on failure.
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
URL="http://127.0.0.1:$PORT/course/lab/index.html?view=ring&p=4&size=100MB&step=6"
DOM="$(timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --disable-background-networking --no-first-run --user-data-dir="$ROOT/profile" \
  --virtual-time-budget=10000 --dump-dom "$URL" 2>/dev/null)"
fail=0
for want in 'id="sent-0"[^>]*>150 MB<' 'Verified: all 4 ranks' 'all-gather, round 3 of 3'; do
  if grep -Eq "$want" <<<"$DOM"; then echo "ok: $want"; else echo "MISSING: $want"; fail=1; fi
done
exit $fail
