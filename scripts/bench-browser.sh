#!/usr/bin/env bash
# In-browser measurements: serves the release dist/ on a loopback port, opens
# ?view=bench in headless Chromium through chromedriver (plain WebDriver HTTP
# calls, no extra packages), waits until the page says "done" and prints the
# table of medians it measured with performance.now(). Not a test: it asserts
# nothing about speed.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
[ -f dist/index.html ] || trunk build --release
PORT="${BENCH_PORT:-8767}"
DPORT="${BENCH_DRIVER_PORT:-9517}"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
SERVER=$!
"$CHROMEDRIVER" --port="$DPORT" >/dev/null 2>&1 &
DRIVER=$!
trap 'kill $SERVER $DRIVER 2>/dev/null || true' EXIT
sleep 1
python3 - "$PORT" "$DPORT" <<'PY'
import json, sys, time, urllib.request
port, dport = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{dport}"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read() or b"{}")
caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--no-first-run", "--window-size=1280,900"]}}}}
sid = call("POST", "/session", caps)["value"]["sessionId"]
try:
    call("POST", f"/session/{sid}/url", {"url": f"http://127.0.0.1:{port}/index.html?view=bench"})
    script = "const s=document.getElementById('bench-status');return s?s.textContent:'';"
    deadline = time.time() + 600
    while time.time() < deadline:
        if call("POST", f"/session/{sid}/execute/sync", {"script": script, "args": []})["value"] == "done":
            break
        time.sleep(2)
    rows = call("POST", f"/session/{sid}/execute/sync", {"script":
        "return [...document.querySelectorAll('tr.bench-row')].map(r=>[...r.children].map(c=>c.textContent));",
        "args": []})["value"]
    ua = call("POST", f"/session/{sid}/execute/sync", {"script": "return navigator.userAgent", "args": []})["value"]
finally:
    call("DELETE", f"/session/{sid}")
print(f"# {ua}")
if not rows:
    print("no measurements found (page did not finish)"); sys.exit(1)
for what, ms, runs in rows:
    print(f"{what:<64} {ms:>10} ms  (median of {runs})")
PY
