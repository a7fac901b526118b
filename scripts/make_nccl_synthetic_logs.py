#!/usr/bin/env python3
"""Writes the two SYNTHETIC NCCL fixtures of the measure view (no public log
has these shapes; see tests/fixtures/logs/README.md):

  nccl-synthetic-2.30-8xa100-ll-ll128-switch.txt
      all_reduce_perf on 8 A100s of one NVSwitch node, 8 B to 1 GiB, with
      NCCL_DEBUG=INFO GRAPH/TUNING lines: every time is NCCL's own v2.30.7
      model prediction (Ring/LL below ~2 MiB, Ring/LL128 to ~24 MB, then
      Ring/Simple), so busbw steps up where the protocol switches.
  nccl-synthetic-2.30-8xa100-proto-ll128.txt
      the same run with NCCL_PROTO=LL128: the env line, the enable matrix,
      LL128 per-call picks and LL128 times at every size.
  nccl-synthetic-2.30-8xa100-ring-vs-tree.txt
      two sweeps, NCCL_ALGO=Ring then NCCL_ALGO=Tree; Ring at the model's
      times, Tree at HALF its model time from 64 KiB to 1 MiB (a made-up
      "measurement" in which the tree beats NCCL's pick, Ring/LL there), so
      the measure view has a loss to report and a tuner row to offer.

Times are computed in double precision from the constants of NVIDIA/nccl
v2.30.7-1 src/graph/tuning.cc (Ring: base latency LL 6.6, LL128 14.0,
Simple 8.4 us; NVLink latency 0.6, 1.9, 3.4 us; Ampere llMaxBw 87.7 GB/s;
perChMaxRingLL128Bw 20 GB/s) for 12 channels of 20 GB/s; the lines are
printed in NCCL's and nccl-tests' formats. Nothing here was measured.

    python3 scripts/make_nccl_synthetic_logs.py [OUT_DIR]
"""
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/logs"
P, CH, BW = 8, 12, 20.0
NSTEPS = 2 * (P - 1)
RATIO = P / NSTEPS
BUS = CH * BW
CELLS = {  # (algorithm, protocol): (latency us, algbw GB/s)
    ("RING", "LL"): (6.6 + NSTEPS * 0.6, min(87.7, BUS * 0.5) * RATIO),
    ("RING", "LL128"): (14.0 + NSTEPS * 1.9, min(BUS * 0.92, CH * 20.0) * RATIO),
    ("RING", "SIMPLE"): (8.4 + NSTEPS * 3.4, BUS * RATIO),
    # Tree: busBw min(240 x 0.92, 12 x 24) = 220.8, then LL /3.8, LL128 x 7/9; x 0.5.
    ("TREE", "LL"): (6.8 + 2 * 7 * 0.6, min(220.8 / 3.8, 87.7) * 0.5),
    ("TREE", "LL128"): (14.0 + 2 * 7 * 1.25, min(220.8 * 7 / 9, CH * 20.0) * 0.5),
    ("TREE", "SIMPLE"): (8.4 + 2 * 7 * 4.0, 220.8 * 0.5),
}
# treeCorrectionFactor (tuning.cc:623-627), by log2(nBytes / 64).
TCF = {
    "LL": [1, 1, 1, 1, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1, 1, 1, 1],
    "LL128": [1, 1, 1, 1, 1, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1, 1],
    "SIMPLE": [.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9],
}
PREFIX = "node0:1234:1234 [0] NCCL INFO "


def t_us(cell, n):
    lat, bw = CELLS[cell]
    log = (n >> 6).bit_length() - 1
    if cell[0] == "TREE" and 0 <= log < 23:
        bw *= TCF[cell[1]][log]
    return lat + n / (1000.0 * bw)


def time_str(us):
    if us >= 10000.0:
        return "%7.0f" % us
    if us >= 100.0:
        return "%7.1f" % us
    return "%7.2f" % us


def header(title, extra):
    lines = [
        "# SYNTHETIC fixture (Collective Lab): NOT a measured log. " + title,
        "# Made by scripts/make_nccl_synthetic_logs.py from NCCL v2.30.7-1's tuning model (src/graph/tuning.cc)",
        "# for 8 A100s on one NVSwitch node (ring and tree graphs: 12 channels of 20 GB/s, NVL/PIX, as the",
        "# public p4d log prints them); every time is the model's prediction; formats are NCCL's and nccl-tests'.",
        PREFIX + "NCCL version 2.30.7+cuda12.9",
        PREFIX + "=== System : maxBw 240.0 totalBw 240.0 ===",
        PREFIX + "CPU/0-0 (1/1/2)",
        PREFIX + "Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/PIX, sameChannels 1",
        PREFIX + "Pattern 1, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/PIX, sameChannels 1",
        PREFIX + "comm 0x7f00 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0",
    ]
    lines += extra
    lines += [
        PREFIX + "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer",
        "# nThread 1 nGpus 8 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
        "#",
        "# Using devices",
    ]
    for r in range(P):
        lines.append("#  Rank %2d Group  0 Pid   1234 on      node0 device  %d [0x%02x] NVIDIA A100-SXM4-40GB" % (r, r, 0x10 + r))
    lines += [
        "#",
        "#                                                              out-of-place                       in-place          ",
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ",
    ]
    return lines


def rows(protos, algos=("TREE", "RING"), scale=lambda n: 1.0):
    out, buses = [], []
    n = 8
    while n <= 1 << 30:
        # NCCL's order: Tree before Ring, LL before LL128 before Simple; strict <.
        cands = [c for c in CELLS if c[1] in protos and c[0] in algos]
        pick = min(sorted(cands, key=lambda c: (c[0] != "TREE", ["LL", "LL128", "SIMPLE"].index(c[1]))),
                   key=lambda c: t_us(c, n))
        us = t_us(pick, n) * scale(n)
        ts = time_str(us)
        shown = float(ts)
        algbw = n / shown / 1000.0
        busbw = algbw * 2 * (P - 1) / P
        buses += [busbw, busbw]
        out.append(PREFIX + "AllReduce: %d Bytes -> Algo %s proto %s channel{Lo..Hi}={0..23}" % (n, pick[0], pick[1]))
        cell = "%s %7.2f %7.2f  %6d" % (ts, algbw, busbw, 0)
        out.append("%12d  %12d     float     sum      -1  %s  %s" % (n, n // 4, cell, cell))
        n *= 2
    out.append("# Out of bounds values : 0 OK")
    out.append("# Avg bus bandwidth    : %.4f " % (sum(round(b, 2) for b in buses) / len(buses)))
    return out


def write(name, lines):
    with open("%s/%s" % (OUT, name), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/%s" % (OUT, name))


write(
    "nccl-synthetic-2.30-8xa100-ll-ll128-switch.txt",
    header("all_reduce_perf whose busbw steps up where NCCL switches LL -> LL128 (~2 MiB) and LL128 -> Simple (~24 MB).", [])
    + rows(["LL", "LL128", "SIMPLE"]),
)
matrix = [
    PREFIX + "NCCL_PROTO set by environment to LL128",
    PREFIX + "Enabled NCCL Func/Proto/Algo Matrix:",
    "     Function |       LL     LL128    Simple   |          Tree           Ring  CollNetDirect   CollNetChain           NVLS       NVLSTree            PAT  ",
]
for f in ["Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"]:
    matrix.append("%13s |        0         1         0   |             1              1              1              1              1              1              1  " % f)
matrix.append("")
write(
    "nccl-synthetic-2.30-8xa100-proto-ll128.txt",
    header("The same run with NCCL_PROTO=LL128 set: LL128 at every size (Tree/LL128 while its lower latency wins).", matrix) + rows(["LL128"]),
)

COLUMNS = [
    "#",
    "#                                                              out-of-place                       in-place          ",
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ",
]
ring = rows(["LL", "LL128", "SIMPLE"], ("RING",))
tree = rows(["LL", "LL128", "SIMPLE"], ("TREE",), lambda n: 0.5 if 65536 <= n <= 1 << 20 else 1.0)
head = header("Two sweeps, NCCL_ALGO=Ring then NCCL_ALGO=Tree; the Tree times from 64 KiB to 1 MiB are HALF the model's (made up).", [])
cut = head.index("#                                                              out-of-place                       in-place          ") - 1
write(
    "nccl-synthetic-2.30-8xa100-ring-vs-tree.txt",
    head[:cut] + [PREFIX + "NCCL_ALGO set by environment to Ring"] + head[cut:] + ring
    + [PREFIX + "NCCL_ALGO set by environment to Tree"] + COLUMNS + tree,
)
