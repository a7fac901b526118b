//! nccl-tests bandwidths: algbw, and busbw with the factor of each collective
//! (NVIDIA nccl-tests, doc/PERFORMANCE.md).

use crate::core::units;
use crate::core::units::{format_bytes_exact, format_coeff, format_time};

/// The collectives nccl-tests measures, each with its busbw factor (the
/// measure view's name for a log's collective too; the tool names it is
/// read from are given per variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollectiveKind {
    /// Every rank ends with the element-wise sum: factor `2(p−1)/p`
    /// (`all_reduce_perf`, `osu_allreduce`).
    AllReduce,
    /// Rank `r` ends with the sum on its own chunk: factor `(p−1)/p`
    /// (`reduce_scatter_perf`, `osu_reduce_scatter`).
    ReduceScatter,
    /// Every rank ends with every rank's chunk: factor `(p−1)/p`
    /// (`all_gather_perf`, `osu_allgather`).
    AllGather,
    /// One root's tensor reaches every rank: factor 1 (`broadcast_perf`,
    /// `osu_bcast`).
    Broadcast,
    /// The sum reaches one root: factor 1 (`reduce_perf`, `osu_reduce`).
    Reduce,
    /// Every rank sends a distinct chunk to every other: factor `(p−1)/p`
    /// (`alltoall_perf`, `osu_alltoall`).
    AllToAll,
}

impl CollectiveKind {
    /// Every kind, in nccl-tests' order of the PERFORMANCE.md sections.
    pub const ALL: [CollectiveKind; 6] = [
        CollectiveKind::AllReduce,
        CollectiveKind::ReduceScatter,
        CollectiveKind::AllGather,
        CollectiveKind::Broadcast,
        CollectiveKind::Reduce,
        CollectiveKind::AllToAll,
    ];

    /// Every kind, in the measure view's menu order: all-reduce, all-gather,
    /// reduce-scatter, broadcast, reduce, all-to-all.
    pub const MENU: [CollectiveKind; 6] = [
        CollectiveKind::AllReduce,
        CollectiveKind::AllGather,
        CollectiveKind::ReduceScatter,
        CollectiveKind::Broadcast,
        CollectiveKind::Reduce,
        CollectiveKind::AllToAll,
    ];

    /// The field's name: "all-reduce", "reduce-scatter", "all-gather",
    /// "broadcast", "reduce", "all-to-all".
    pub fn label(self) -> &'static str {
        match self {
            CollectiveKind::AllReduce => "all-reduce",
            CollectiveKind::ReduceScatter => "reduce-scatter",
            CollectiveKind::AllGather => "all-gather",
            CollectiveKind::Broadcast => "broadcast",
            CollectiveKind::Reduce => "reduce",
            CollectiveKind::AllToAll => "all-to-all",
        }
    }

    /// Short key ("allreduce"): the measure view's menu values, read back by
    /// [`CollectiveKind::from_name`].
    pub fn key(self) -> &'static str {
        match self {
            CollectiveKind::AllReduce => "allreduce",
            CollectiveKind::AllGather => "allgather",
            CollectiveKind::ReduceScatter => "reducescatter",
            CollectiveKind::Broadcast => "broadcast",
            CollectiveKind::Reduce => "reduce",
            CollectiveKind::AllToAll => "alltoall",
        }
    }

    /// Parses a collective's name as people and nccl-tests write it,
    /// ignoring case, `-`, `_`, blanks and a trailing `_perf`: `all-reduce`,
    /// `AllReduce`, `all_reduce_perf`, `reducescatter`, `alltoall`, `bcast`, ….
    /// `None` for anything else.
    pub fn from_name(s: &str) -> Option<CollectiveKind> {
        let t: String = s
            .trim()
            .to_ascii_lowercase()
            .trim_end_matches("_perf")
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        match t.as_str() {
            "allreduce" => Some(CollectiveKind::AllReduce),
            "reducescatter" => Some(CollectiveKind::ReduceScatter),
            "allgather" => Some(CollectiveKind::AllGather),
            "broadcast" | "bcast" => Some(CollectiveKind::Broadcast),
            "reduce" => Some(CollectiveKind::Reduce),
            "alltoall" => Some(CollectiveKind::AllToAll),
            _ => None,
        }
    }

    /// The busbw factor written symbolically: "2(p−1)/p", "(p−1)/p" or "1".
    pub fn factor_expression(self) -> &'static str {
        match self {
            CollectiveKind::AllReduce => "2(p−1)/p",
            CollectiveKind::ReduceScatter
            | CollectiveKind::AllGather
            | CollectiveKind::AllToAll => "(p−1)/p",
            CollectiveKind::Broadcast | CollectiveKind::Reduce => "1",
        }
    }

    /// busbw / algbw at `p` ranks, as nccl-tests defines it ([`busbw_factor`]).
    pub fn busbw_factor(self, p: usize) -> f64 {
        busbw_factor(self, p)
    }
}

/// nccl-tests' bus-bandwidth factor of `kind` at `p` ranks (`p` of 0 is
/// taken as 1): `busbw = algbw × factor`. All-reduce `2(p−1)/p`;
/// reduce-scatter, all-gather and all-to-all `(p−1)/p`; broadcast and reduce 1.
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md ("Bus bandwidth").
pub fn busbw_factor(kind: CollectiveKind, p: usize) -> f64 {
    let p = p.max(1) as f64;
    match kind {
        CollectiveKind::AllReduce => 2.0 * (p - 1.0) / p,
        CollectiveKind::ReduceScatter | CollectiveKind::AllGather | CollectiveKind::AllToAll => {
            (p - 1.0) / p
        }
        CollectiveKind::Broadcast | CollectiveKind::Reduce => 1.0,
    }
}

/// The size S that nccl-tests divides by ([`algbw`]) for the lab's tensor of
/// `n` bytes at `p` ranks: `n` for every collective but all-to-all. The
/// lab's all-to-all tensor is the whole p × p block matrix
/// ([`crate::core::collectives::all_to_all`]), while `alltoall_perf`'s size
/// is one rank's buffer, its row: `n/p`. With it, a bandwidth-optimal
/// all-to-all's busbw is the link's 1/β, as for the other collectives.
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md and `src/alltoall.cu`
/// (the count is per rank).
pub fn nccl_tests_size(kind: CollectiveKind, n_bytes: f64, p: usize) -> f64 {
    match kind {
        CollectiveKind::AllToAll => n_bytes / p.max(1) as f64,
        _ => n_bytes,
    }
}

/// Algorithm bandwidth as nccl-tests defines it: `algbw = S / t`, bytes per
/// second, for a tensor of `S` bytes and a time of `t` seconds. 0 when `t ≤ 0`.
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md.
pub fn algbw(size_bytes: f64, t: f64) -> f64 {
    if t > 0.0 {
        size_bytes / t
    } else {
        0.0
    }
}

/// Bus bandwidth of an all-reduce as nccl-tests defines it:
/// `busbw = algbw · 2(p−1)/p`, bytes per second. It is comparable with the
/// link speed: a bandwidth-optimal all-reduce has `busbw → 1/β`. Other
/// collectives: [`busbw_of`].
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md.
pub fn busbw(algbw: f64, p: usize) -> f64 {
    busbw_of(CollectiveKind::AllReduce, algbw, p)
}

/// Bus bandwidth of collective `kind`: `algbw × busbw_factor(kind, p)`,
/// bytes per second.
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md.
pub fn busbw_of(kind: CollectiveKind, algbw: f64, p: usize) -> f64 {
    algbw * busbw_factor(kind, p)
}

/// algbw and busbw of one collective, with the calculation written out.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclBandwidths {
    /// `S / t`, bytes per second.
    pub algbw: f64,
    /// `algbw × factor` (2(p−1)/p for all-reduce), bytes per second.
    pub busbw: f64,
    /// The two calculations with numbers and units, e.g.
    /// "algbw = S / t = 100,000,000 B / 12.00 ms = 8.333 GB/s".
    pub lines: Vec<String>,
}

/// [`algbw`] and [`busbw`] for a tensor of `size_bytes` bytes all-reduced in
/// `t` seconds over `p` ranks (nccl-tests, doc/PERFORMANCE.md).
pub fn nccl_bandwidths(size_bytes: f64, t: f64, p: usize) -> NcclBandwidths {
    nccl_bandwidths_of(CollectiveKind::AllReduce, size_bytes, t, p)
}

/// [`algbw`] and [`busbw_of`] for collective `kind` on a tensor of
/// `size_bytes` bytes (nccl-tests' `S`) in `t` seconds over `p` ranks.
pub fn nccl_bandwidths_of(
    kind: CollectiveKind,
    size_bytes: f64,
    t: f64,
    p: usize,
) -> NcclBandwidths {
    let a = algbw(size_bytes, t);
    let b = busbw_of(kind, a, p);
    let pp = p.max(1);
    let expr = kind.factor_expression();
    let substituted = expr.replace('p', &pp.to_string());
    NcclBandwidths {
        algbw: a,
        busbw: b,
        lines: vec![
            format!(
                "algbw = S / t = {} / {} = {}",
                format_bytes_exact(size_bytes),
                format_time(t),
                units::format_bandwidth(a)
            ),
            format!(
                "busbw = algbw × {expr} = {} × {substituted} = {} × {} = {}",
                units::format_bandwidth(a),
                units::format_bandwidth(a),
                format_coeff(busbw_factor(kind, p)),
                units::format_bandwidth(b)
            ),
        ],
    }
}

/// A time in µs printed as nccl-tests prints it (src/common.cu): 0 decimals
/// from 10 000 µs, 1 from 100 µs, else 2, right-aligned in 7 columns.
pub fn nccl_time_str(us: f64) -> String {
    let digits = if us >= 10000.0 {
        0
    } else if us >= 100.0 {
        1
    } else {
        2
    };
    format!("{:>7}", crate::core::units::decimal::fixed(us, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_per_collective() {
        // p = 4: all-reduce 2·3/4 = 1.5; reduce-scatter, all-gather and
        // all-to-all 3/4; broadcast and reduce 1.
        let f: Vec<f64> = CollectiveKind::ALL
            .iter()
            .map(|&k| busbw_factor(k, 4))
            .collect();
        assert_eq!(f, vec![1.5, 0.75, 0.75, 1.0, 1.0, 0.75]);
        assert_eq!(busbw_factor(CollectiveKind::AllGather, 0), 0.0);
        for k in CollectiveKind::ALL {
            assert_eq!(CollectiveKind::from_name(k.label()), Some(k));
        }
        assert_eq!(
            CollectiveKind::from_name("reduce_scatter_perf"),
            Some(CollectiveKind::ReduceScatter)
        );
        assert_eq!(
            CollectiveKind::from_name("AllToAll"),
            Some(CollectiveKind::AllToAll)
        );
        assert_eq!(CollectiveKind::from_name("gather"), None);
    }

    #[test]
    fn reduce_scatter_and_all_gather_busbw_written_out() {
        // 8 ranks, 64 MB in 10 ms: algbw 6.4 GB/s; busbw × 7/8 = 5.6 GB/s
        // (an all-reduce would report × 1.75 = 11.2 GB/s).
        for kind in [CollectiveKind::ReduceScatter, CollectiveKind::AllGather] {
            let b = nccl_bandwidths_of(kind, 64e6, 0.01, 8);
            assert!((b.algbw - 6.4e9).abs() < 1.0);
            assert!((b.busbw - 5.6e9).abs() < 1.0);
            assert_eq!(
                b.lines[1],
                "busbw = algbw × (p−1)/p = 6.4 GB/s × (8−1)/8 = 6.4 GB/s × 0.875 = 5.6 GB/s"
            );
        }
        let b = nccl_bandwidths(64e6, 0.01, 8);
        assert!((b.busbw - 11.2e9).abs() < 1.0);
    }
}
