#!/usr/bin/env bash
# Runs the MPI runner (runner/, collective-lab-run) under mpirun for P = 2, 3,
# 4, 5 and every registry algorithm, at three small sizes (28 B, 56 B, 112 B:
# 7, 14 and 28 floats, so at least one size does not divide by each P), and
# fails when any result does not verify against the matching MPI collective.
# Node-following algorithms run on this machine's one node and again as nodes
# of 2 ranks (--ranks-per-node 2); a layout they do not fit is skipped with
# the runner's reason. Expects the debug build (cargo build -p collective-lab-run).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CARGO_TARGET_DIR:-target}/debug/collective-lab-run"
MPIRUN=(mpirun --oversubscribe --allow-run-as-root)
SIZES=(--sizes 28B:112B --iters 3 --warmup 1)

ran=0 skipped=0 failed=0
check() {
  local p="$1"; shift
  local out rc=0
  out="$("${MPIRUN[@]}" -n "$p" "$BIN" "$@" 2>&1)" || rc=$?
  if [ "$rc" -eq 0 ] && grep -q '^# self-check .*: all 3 sizes agree' <<<"$out"; then
    ran=$((ran + 1))
    printf 'ok    p=%s %s\n' "$p" "$*"
  elif [ "$rc" -eq 2 ] && grep -q 'does not fit' <<<"$out"; then
    skipped=$((skipped + 1))
    printf 'skip  p=%s %s: %s\n' "$p" "$*" "$(grep -m1 'does not fit' <<<"$out" | sed 's/^collective-lab-run: //')"
  else
    failed=$((failed + 1))
    printf 'FAIL  p=%s %s (exit %s)\n%s\n' "$p" "$*" "$rc" "$out"
  fi
}

mapfile -t ALGS < <("$BIN" --list)
for p in 2 3 4 5; do
  for line in "${ALGS[@]}"; do
    read -r key _collective layout _nccl <<<"$line"
    check "$p" --alg "$key" "${SIZES[@]}"
    if [ "$layout" = nodes ]; then
      check "$p" --alg "$key" "${SIZES[@]}" --ranks-per-node 2
    fi
  done
  # Segments: every message in 3 pieces, one schedule per piece.
  check "$p" --alg ring "${SIZES[@]}" --segments 3
  check "$p" --alg rab "${SIZES[@]}" --segments 3 --format nccl --baseline
done
printf '\nmpirun sweep: %s verified, %s skipped (layout does not fit), %s failed\n' "$ran" "$skipped" "$failed"
[ "$failed" -eq 0 ]
