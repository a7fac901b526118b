#!/usr/bin/env bash
# Takes headless-Chromium screenshots of every view at 1440 px and 375 px
# from the release dist/ (run `trunk build --release` first).
# Usage: scripts/screenshots.sh [out-dir]   (default: screenshots/tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-screenshots/tmp}"
mkdir -p "$OUT"
PORT="${SHOT_PORT:-8766}"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
SERVER=$!
PROFILE="$(mktemp -d)"
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$PROFILE"' EXIT
sleep 1
shot() { # name width height query [extra flags]
  local name="$1" w="$2" h="$3" q="$4"; shift 4
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-background-networking --no-first-run --hide-scrollbars --user-data-dir="$PROFILE" \
    --virtual-time-budget=8000 --window-size="$w,$h" "$@" \
    --screenshot="$OUT/$name.png" "http://127.0.0.1:$PORT/index.html?$q" >/dev/null 2>&1 || echo "failed: $name"
}
views=(
  "ring|view=ring&p=4&size=100MB&step=2"
  "ring-end|view=ring&p=4&size=100MB&step=6"
  "ring-p16|view=ring&p=16&size=64MB&step=20"
  "ring-p128|view=ring&p=128&size=64MB&step=70"
  "collectives-p64|view=collectives&alg=rab&p=64&size=64MB&step=3"
  "collectives|view=collectives&alg=rab&p=8&size=64MB&step=2"
  "collectives-rd6|view=collectives&alg=rd&p=6&size=64MB&step=1"
  "cost|view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB"
  "gossip|view=gossip&graph=ring&p=4&weights=uniform&init=0,3,6,9&round=1"
  "sgd|view=sgd&shards=600,300,100&losses=0.2,0.5,0.9&mode=allreduce&iid=0&steps=200"
  "collectives-hier|view=collectives&alg=hier&p=8&gpus=4&size=64MB&step=3"
  "topology|view=topology&alg=multilane&nodes=2&gpus=4&lanes=4&size=1GB&inter_bw=12.5GB/s&inter_alpha=0us&step=2"
  "topology-flex|view=topology&alg=flex&groups=2,3&n=12&step=2"
  "topology-rat|view=topology&alg=rat&racks=2&gpus=4"
  "topology-8x8|view=topology&nodes=8&gpus=8"
  "practice|view=practice&set=course&reveal=1"
  "practice-drill|view=practice&set=drill&seed=7"
  "measure|view=measure&example=outliers"
  "trace|view=trace&alg=ring&p=4&size=16MiB&alpha=5.429us&bw=1.085GB/s"
  "hang|view=hang"
  "timeline|view=timeline"
  "step-a|view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms&straggler=3:0.5"
  "step-b|view=step&p=16&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms"
  "step-fsdp|view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms&mode=fsdp"
  "step-zero2|view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms&mode=zero2"
  "timeline-late|view=timeline&alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us&late=2:5ms&t=3ms"
  "timeline-fail|view=timeline&alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us&fail=2@3ms"
  "ring-bad|view=ring&p=abc&size=12parsecs"
)
for v in "${views[@]}"; do
  name="${v%%|*}"; q="${v#*|}"
  shot "$name-1440" 1440 2600 "$q"
  shot "$name-375" 375 3200 "$q"
done
shot "ring-dark-1440" 1440 1800 "view=ring&p=8&size=64MB&step=9" --force-dark-mode --blink-settings=preferredColorScheme=0
# The course-page example (dist/embed-example.html; README: docs/embed-example-*.png).
page() { # name width height page
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-background-networking --no-first-run --hide-scrollbars --user-data-dir="$PROFILE" \
    --virtual-time-budget=10000 --window-size="$2,$3" \
    --screenshot="$OUT/$1.png" "http://127.0.0.1:$PORT/$4" >/dev/null 2>&1 || echo "failed: $1"
}
page "embed-example-1280" 1280 1300 "embed-example.html"
page "embed-example-390" 390 1500 "embed-example.html"
echo "screenshots in $OUT"
