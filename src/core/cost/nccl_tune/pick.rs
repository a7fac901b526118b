//! NCCL's pick for one call from a communicator's tables ([`Tuning`]):
//! `ncclTopoGetAlgoTime`'s per-call time with its two corrections, the
//! strict minimum over algorithm × protocol in NCCL's order, the sizes
//! where the pick switches, a grid of picks, and a sentence saying why it
//! switches (v2.19.3 `src/graph/tuning.cc:400-427`, `src/enqueue.cc:1151-1240`;
//! v2.30.7 `tuning.cc:630-655`, `src/enqueue.cc:1989-2117`). The tables
//! themselves come from [`super::tune`].

use std::fmt;

use super::{log2i, tune, Algo, Cell, Func, Inputs, Pick, Proto, Tuning, Version};

impl Tuning {
    /// `ncclTopoGetAlgoTime` for one call of `n_bytes` (NCCL's model size:
    /// the whole buffer, for AllGather and ReduceScatter the per-rank
    /// count × type size × ranks), µs; `None` when the cell is disabled.
    pub fn time(&self, f: Func, a: Algo, p: Proto, n_bytes: u64) -> Option<f64> {
        let c = self.cells[f.index()][a.index()][p.index()];
        self.time_of(c, f, a, p, n_bytes)
    }

    fn time_of(&self, c: Cell, f: Func, a: Algo, p: Proto, n: u64) -> Option<f64> {
        let inp = &self.inputs;
        let v = inp.version;
        let mut bw = c.bw;
        let mut lat = c.lat;
        if bw == 0.0 {
            return None;
        }
        let log = log2i(n >> 6, v);
        let tree_fix = a == Algo::Tree && (v == Version::V2_19 || f == Func::AllReduce);
        if tree_fix && (0..23).contains(&log) {
            bw *= self.inputs.version.constants().tree_correction[p.index()][log as usize];
        }
        let per = (u64::from(inp.coll_channels.max(1)) * inp.ranks as u64).max(1);
        if a == Algo::Ring
            && p == Proto::Simple
            && inp.nodes > 1
            && f == Func::AllReduce
            && n / per >= 64
        {
            lat = (f64::from(lat) * if inp.cc < 80 { 1.9 } else { 1.4 }) as f32;
        }
        Some(f64::from(lat + n as f32 / (1000.0 * bw)))
    }

    /// Every cell's time at `n_bytes`, `[algo][proto]`, µs (`None`: disabled).
    pub fn times(&self, f: Func, n_bytes: u64) -> [[Option<f64>; 3]; 2] {
        Algo::ALL.map(|a| Proto::ALL.map(|p| self.time(f, a, p, n_bytes)))
    }

    /// NCCL's pick at `n_bytes`: the strictly lowest time in the order
    /// Tree, Ring × LL, LL128, Simple; under v2.19, when nothing is
    /// enabled, the Ring cell with the lowest backup time. `None` when no
    /// cell this port models is enabled.
    pub fn pick(&self, f: Func, n_bytes: u64) -> Option<Pick> {
        let mut best: Option<Pick> = None;
        for a in Algo::ALL {
            for p in Proto::ALL {
                if let Some(t) = self.time(f, a, p, n_bytes) {
                    if best.is_none_or(|b| t < b.time) {
                        best = Some(Pick {
                            algo: a,
                            proto: p,
                            time: t,
                            backup: false,
                        });
                    }
                }
            }
        }
        best.or_else(|| {
            let mut b: Option<Pick> = None;
            for p in Proto::ALL {
                let mut c = self.cells[f.index()][1][p.index()];
                c.bw = self.ring_backup[f.index()][p.index()];
                if let Some(t) = self.time_of(c, f, Algo::Ring, p, n_bytes) {
                    if b.is_none_or(|x| t < x.time) {
                        b = Some(Pick {
                            algo: Algo::Ring,
                            proto: p,
                            time: t,
                            backup: true,
                        });
                    }
                }
            }
            b
        })
    }

    /// The sizes from `lo` to `hi` bytes where the pick changes: each entry
    /// is the first byte count with a new pick, found on a 1/16-octave grid
    /// and then to the byte by bisection.
    pub fn switches(&self, f: Func, lo: u64, hi: u64) -> Vec<(u64, Pick)> {
        let key = |n: u64| self.pick(f, n).map(|p| (p.algo, p.proto));
        let (lo, hi) = (lo.max(1), hi.max(lo.max(1)));
        let mut out = Vec::new();
        let mut prev_n = lo;
        let mut prev = key(lo);
        let steps = ((hi as f64 / lo as f64).log2() * 16.0).ceil() as u32;
        for i in 1..=steps {
            let n = ((lo as f64) * 2f64.powf(f64::from(i) / 16.0))
                .round()
                .min(hi as f64) as u64;
            if n <= prev_n {
                continue;
            }
            let k = key(n);
            if k != prev {
                let (mut a, mut b) = (prev_n, n);
                while b - a > 1 {
                    let m = a + (b - a) / 2;
                    if key(m) == prev {
                        a = m;
                    } else {
                        b = m;
                    }
                }
                if let Some(p) = self.pick(f, b) {
                    out.push((b, p));
                }
                prev = key(b);
                if key(n) != prev {
                    // Two changes inside one grid step: keep the later one.
                    prev = key(n);
                }
            }
            prev_n = n;
        }
        out
    }
}

/// NCCL's pick of `f` at every size of `sizes` (bytes) for every rank count
/// of `ranks`, with `inputs_at(p)` the model's inputs at p ranks: rows by
/// rank count, each cell the (algorithm, protocol) index `3·algo + proto`
/// (Tree/LL = 0 … Ring/Simple = 5), `None` where nothing is enabled or the
/// inputs are refused.
pub fn pick_grid(
    inputs_at: &dyn Fn(usize) -> Inputs,
    f: Func,
    sizes: &[f64],
    ranks: &[usize],
) -> Vec<Vec<Option<usize>>> {
    ranks
        .iter()
        .map(|&p| {
            let t = tune(&inputs_at(p)).ok();
            sizes
                .iter()
                .map(|&n| {
                    let pick = t.as_ref()?.pick(f, n.round().max(1.0) as u64)?;
                    Some(3 * pick.algo.index() + pick.proto.index())
                })
                .collect()
        })
        .collect()
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.algo.name(), self.proto.name())
    }
}

/// Why the pick changes from `from` to `to` at `n_bytes`, in words, from the
/// two cells' latencies and bandwidths (and Tree's correction factor).
pub fn switch_reason(t: &Tuning, f: Func, from: Pick, to: Pick, n_bytes: u64) -> String {
    use crate::core::units::{format_bandwidth, format_decimal, format_time};
    let cell = |p: Pick| t.cells[f.index()][p.algo.index()][p.proto.index()];
    let (a, b) = (cell(from), cell(to));
    let gbs = |x: f32| format_bandwidth(f64::from(x) * 1e9);
    let us = |x: f32| format_time(f64::from(x) * 1e-6);
    let line = |p: Proto| match p {
        Proto::LL => "LL's half-width lines (8 data bytes in every 16)",
        Proto::LL128 => "LL128's lines (120 data bytes in every 128)",
        Proto::Simple => "Simple",
    };
    let size = format_decimal(n_bytes as f64);
    if b.lat > a.lat && b.bw > a.bw {
        format!(
            "{} ({} algbw) costs more than {}'s lower latency ({} against {}) saves above {size}: {} takes over.",
            if from.algo == to.algo { line(from.proto).to_string() } else { format!("{from}'s bandwidth") },
            gbs(a.bw),
            from,
            us(a.lat),
            us(b.lat),
            to
        )
    } else if from.algo == Algo::Tree || to.algo == Algo::Tree {
        format!(
            "At {size} Tree's bandwidth is scaled by NCCL's correction factor for this size (treeCorrectionFactor), which moves the pick from {from} to {to}."
        )
    } else {
        format!("{to} is faster than {from} from {size} on.")
    }
}
