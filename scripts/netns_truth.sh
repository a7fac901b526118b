#!/usr/bin/env bash
# "Known truth" check of the MPI runner (needs root): two network namespaces
# joined by a veth pair, each end shaped to RATE (default 100mbit), one rank
# in each, Open MPI over TCP only. Where the kernel has netem, each end is
# `netem delay DELAY rate RATE` (DELAY default 100us); else tc's token
# bucket (tbf) shapes the rate alone. Prints each algorithm's measured time
# at SIZES beside the α–β model's n-dependent part (rounds × message /
# bandwidth). With LOG=PREFIX it also keeps each algorithm's raw output in
# PREFIX.ALG and writes the shaping used (netem or tbf) to PREFIX.shaping:
# runner/tests/netns_fit.rs feeds that log to the measure view's fit.
# BIN overrides the runner binary.
#
# Notes from the build VM (kernel 6.18, Firecracker): there is no netem
# qdisc (`tc ... netem` says "Specified qdisc kind is unknown"), so only the
# rate is shaped, not the delay. Open MPI's launcher serves PMIx on
# 127.0.0.1, which a rank in another namespace cannot reach, so
# scripts/netns_rank.py forwards it over the veth pair.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${RATE:-100mbit}"
SIZES="${SIZES:-2MiB:4MiB}"
ALGS="${ALGS:-naive rd ring}"
DELAY="${DELAY:-100us}"
BIN="${BIN:-${CARGO_TARGET_DIR:-$PWD/target}/release/collective-lab-run}"
[ -x "$BIN" ] || cargo build --release -p collective-lab-run
FWD="python3 $PWD/scripts/netns_rank.py"

cleanup() { ip netns del clt_a 2>/dev/null || true; ip netns del clt_b 2>/dev/null || true; }
trap cleanup EXIT
cleanup
ip netns add clt_a
ip netns add clt_b
ip link add clt_va type veth peer name clt_vb
ip link set clt_va netns clt_a
ip link set clt_vb netns clt_b
ip -n clt_a addr add 10.77.0.1/24 dev clt_va
ip -n clt_b addr add 10.77.0.2/24 dev clt_vb
for ns in clt_a clt_b; do ip -n "$ns" link set lo up; done
ip -n clt_a link set clt_va up
ip -n clt_b link set clt_vb up
shaping=tbf
if tc -n clt_a qdisc add dev clt_va root netem delay "$DELAY" rate "$RATE" 2>/dev/null; then
  tc -n clt_b qdisc add dev clt_vb root netem delay "$DELAY" rate "$RATE"
  shaping="netem delay $DELAY rate $RATE"
else
  tc -n clt_a qdisc add dev clt_va root tbf rate "$RATE" burst 64kb latency 100ms
  tc -n clt_b qdisc add dev clt_vb root tbf rate "$RATE" burst 64kb latency 100ms
  shaping="tbf rate $RATE (no netem here: the delay is not shaped)"
fi
echo "shaping: $shaping"
[ -z "${LOG:-}" ] || echo "$shaping" > "$LOG.shaping"

for alg in $ALGS; do
  args=(--alg "$alg" --sizes "$SIZES" --iters 5 --warmup 1)
  ip netns exec clt_a mpirun --oversubscribe --allow-run-as-root \
    --mca btl tcp,self --mca btl_tcp_if_include 10.77.0.0/24 \
    -n 1 $FWD serve 10.77.0.1 -- "$BIN" "${args[@]}" \
    : -n 1 ip netns exec clt_b $FWD reach 10.77.0.1 -- "$BIN" "${args[@]}" \
    | tee "${LOG:-/dev/null}${LOG:+.$alg}" \
    | RATE="$RATE" ALG="$alg" python3 -c '
import os, re, sys
rate = os.environ["RATE"]
m = re.fullmatch(r"(\d+(?:\.\d+)?)([kmg]?)bit", rate)
bps = float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)] / 8
# Bytes on the busiest direction per all-reduce at p = 2, as a multiple of n:
# naive and the binomial tree send n to the root and n back (one direction
# at a time, 2n);
# recursive doubling exchanges n both ways at once (n); the ring sends n/2
# both ways in each of 2 rounds (n).
alg = os.environ["ALG"]
factor = {"naive": 2.0, "tree": 2.0, "rd": 1.0, "ring": 1.0}.get(alg)
for line in sys.stdin:
    t = line.split()
    if line.startswith("#") or len(t) < 2:
        if "self-check" in line:
            print("   ", line.strip()[:90])
        continue
    n, us = int(t[0]), float(t[1])
    model = factor * n / bps * 1e6 if factor else float("nan")
    print(f"{alg:6} {n:9d} B  measured {us/1e3:9.1f} ms  model {model/1e3:9.1f} ms  ratio {us/model:5.2f}")
'
done
