#!/usr/bin/env bash
# Makes the measure view's protocol fixtures: the runner (release build)
# beside Open MPI's own MPI_Allreduce with the tuned component forced to one
# algorithm (coll_tuned_allreduce_algorithm K: 3 recursive doubling, 4 ring,
# 6 Rabenseifner), 4 B to 16 MiB, the eager limit asked of Open MPI
# (--eager-limit auto). Each log starts with comment lines saying how it
# was made (command, Open MPI version, load average before the run).
#
#   bash scripts/make_protocol_logs.sh [OUT_DIR] [LOGS…]   (default tests/fixtures/logs, all four)
#
# LOGS picks some of ring-p2 rd-p2 ring-p4 rab-p4. NO_BUILD=1 skips the
# release build (when it is up to date).
#
# p = 2: ring (K = 4) and recursive doubling (K = 3);
# p = 4: ring (K = 4) and Rabenseifner (K = 6).
# Timings depend on how quiet the machine is: run it when nothing else runs
# (`uptime` should show a load average well below the number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-tests/fixtures/logs}"
shift $(( $# > 0 ? 1 : 0 ))
WANT=("$@")
[ "${#WANT[@]}" -gt 0 ] || WANT=(ring-p2 rd-p2 ring-p4 rab-p4)
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release -p collective-lab-run
BIN="${CARGO_TARGET_DIR:-target}/release/collective-lab-run"
mkdir -p "$OUT"

run() {
  local p="$1" alg="$2" k="$3" out="$4"
  [[ " ${WANT[*]} " == *" $alg-p$p "* ]] || return 0
  local cmd=(mpirun --oversubscribe --allow-run-as-root -n "$p"
    --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm "$k"
    "$BIN" --alg "$alg" --sizes 4B:16MiB --baseline --eager-limit auto)
  local load
  load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
  {
    echo "# fixture: made by scripts/make_protocol_logs.sh on $(date -u +%Y-%m-%d) with $(mpirun --version 2>&1 | head -n1)"
    echo "# command: ${cmd[*]}"
    echo "# load average before the run: $load on $(nproc) cores (a shared machine: times are noisy)"
    "${cmd[@]}"
  } >"$OUT/$out.tmp"
  mv "$OUT/$out.tmp" "$OUT/$out"
  echo "wrote $OUT/$out"
}

run 2 ring 4 ompi-tuned-ring-p2.txt
run 2 rd 3 ompi-tuned-rd-p2.txt
run 4 ring 4 ompi-tuned-ring-p4.txt
run 4 rab 6 ompi-tuned-rab-p4.txt
