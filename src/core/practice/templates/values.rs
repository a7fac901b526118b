//! The values a template draws: message sizes with their prefix family,
//! start-up latencies, links (β, GB/s or Gb/s) and the graphs of the ρ
//! questions, each with how it is drawn from a seed and how it is written.

use crate::core::practice::compute::{GraphKind, SplitMix64, WeightRule};
use crate::core::practice::question::Unit;
use crate::core::units::format::format_number;
use crate::core::units::{
    bandwidth_chain, format_binary, format_decimal, format_exact, Bandwidth, Prefix,
};

pub(super) fn pick<T: Copy>(rng: &mut SplitMix64, xs: &[T]) -> T {
    let i = rng.below(xs.len());
    xs[i.min(xs.len() - 1)]
}

/// A message size with the prefix family it is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Bytes.
    pub bytes: u64,
    /// How it is written.
    pub prefix: Prefix,
}

impl Size {
    /// `k` MB.
    pub fn mb(k: u64) -> Size {
        Size {
            bytes: k * 1_000_000,
            prefix: Prefix::Decimal,
        }
    }
    /// `k` MiB.
    pub fn mib(k: u64) -> Size {
        Size {
            bytes: k << 20,
            prefix: Prefix::Binary,
        }
    }
    /// `k` KiB.
    pub fn kib(k: u64) -> Size {
        Size {
            bytes: k << 10,
            prefix: Prefix::Binary,
        }
    }
    /// As written in the question: "64 MB", "8 KiB".
    pub fn text(self) -> String {
        fmt_size(self.bytes as f64, self.prefix)
    }
    /// URL form: "64MB", "8KiB".
    pub fn url(self) -> String {
        format_exact(self.bytes, self.prefix)
    }
    /// The answer unit in the same family: MB or MiB.
    pub fn unit(self) -> Unit {
        match self.prefix {
            Prefix::Binary => Unit {
                symbol: "MiB",
                factor: 1_048_576.0,
            },
            _ => Unit {
                symbol: "MB",
                factor: 1e6,
            },
        }
    }
}

pub(super) fn fmt_size(bytes: f64, prefix: Prefix) -> String {
    match prefix {
        Prefix::Binary => format_binary(bytes),
        _ => format_decimal(bytes),
    }
}

/// A start-up latency α, written in µs or in ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alpha {
    /// Nanoseconds.
    pub ns: u64,
    /// Written in ns rather than µs.
    pub in_ns: bool,
}

impl Alpha {
    /// Seconds.
    pub fn seconds(self) -> f64 {
        self.ns as f64 * 1e-9
    }
    /// "5 µs" or "1500 ns".
    pub fn text(self) -> String {
        if self.in_ns {
            format!("{} ns", self.ns)
        } else {
            format!("{} µs", format_number(self.ns as f64 / 1000.0))
        }
    }
    /// URL form: "5us", "1500ns".
    pub fn url(self) -> String {
        if self.in_ns {
            format!("{}ns", self.ns)
        } else {
            format!("{}us", format_number(self.ns as f64 / 1000.0))
        }
    }
}

pub(super) fn draw_alpha(rng: &mut SplitMix64) -> Alpha {
    if rng.below(3) == 0 {
        Alpha {
            ns: pick(rng, &[500, 1500, 2500, 800]),
            in_ns: true,
        }
    } else {
        Alpha {
            ns: 1000 * pick(rng, &[1, 2, 5, 10, 20]),
            in_ns: false,
        }
    }
}

/// How the per-byte cost is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Link {
    /// β directly, in ns/B.
    Beta(f64),
    /// A bandwidth in GB/s.
    Bytes(f64),
    /// A bandwidth in Gb/s.
    Bits(f64),
}

impl Link {
    /// β in seconds per byte.
    pub fn beta(self) -> f64 {
        match self {
            Link::Beta(ns) => ns * 1e-9,
            Link::Bytes(gb) => 1.0 / (gb * 1e9),
            Link::Bits(gbit) => 8.0 / (gbit * 1e9),
        }
    }
    /// "β = 0.08 ns/B", "a 12.5 GB/s link", "a 100 Gb/s link".
    pub fn text(self) -> String {
        match self {
            Link::Beta(ns) => format!("β = {} ns/B", format_number(ns)),
            Link::Bytes(gb) => format!("a {} GB/s link", format_number(gb)),
            Link::Bits(gbit) => format!("a {} Gb/s link", format_number(gbit)),
        }
    }
    /// The cost view's pair: ("beta", "0.08ns/B") or ("bw", "100Gb/s").
    pub fn url(self) -> String {
        match self {
            Link::Beta(ns) => format!("beta={}ns/B", format_number(ns)),
            Link::Bytes(gb) => format!("bw={}GB/s", format_number(gb)),
            Link::Bits(gbit) => format!("bw={}Gb/s", format_number(gbit)),
        }
    }
    /// The bandwidth in bytes per second (`None` for [`Link::Beta`]).
    pub fn bytes_per_second(self) -> Option<f64> {
        match self {
            Link::Beta(_) => None,
            Link::Bytes(gb) => Some(gb * 1e9),
            Link::Bits(gbit) => Some(gbit * 1e9 / 8.0),
        }
    }
    /// The rate as written: "12.5 GB/s", "100 Gb/s" (β: "β = 0.08 ns/B").
    pub fn rate_text(self) -> String {
        match self {
            Link::Beta(ns) => format!("β = {} ns/B", format_number(ns)),
            Link::Bytes(gb) => format!("{} GB/s", format_number(gb)),
            Link::Bits(gbit) => format!("{} Gb/s", format_number(gbit)),
        }
    }
    /// The line deriving β, when a bandwidth was given.
    pub(super) fn beta_line(self) -> Option<String> {
        let bw = match self {
            Link::Beta(_) => return None,
            Link::Bytes(gb) => Bandwidth {
                bytes_per_second: gb * 1e9,
                typed_bits: false,
            },
            Link::Bits(gbit) => Bandwidth {
                bytes_per_second: gbit * 1e9 / 8.0,
                typed_bits: true,
            },
        };
        Some(bandwidth_chain(&bw))
    }
}

pub(super) fn draw_link(rng: &mut SplitMix64) -> Link {
    match rng.below(3) {
        0 => Link::Beta(pick(rng, &[0.02, 0.04, 0.08, 0.1, 0.2])),
        1 => Link::Bytes(pick(rng, &[12.5, 25.0, 50.0, 100.0])),
        _ => Link::Bits(pick(rng, &[100.0, 200.0, 400.0, 800.0])),
    }
}

/// Graph and weights of a ρ question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RhoGraph {
    /// Ring, weight 1/3 on self and each neighbour.
    RingUniform,
    /// Ring, lazy Metropolis–Hastings: 2/3 on self, 1/6 per neighbour.
    RingLazy,
    /// Complete graph, lazy Metropolis–Hastings.
    CompleteLazy,
}

impl RhoGraph {
    pub(super) fn kind_and_rule(self) -> (GraphKind, WeightRule) {
        match self {
            RhoGraph::RingUniform => (GraphKind::Ring, WeightRule::Uniform),
            RhoGraph::RingLazy => (GraphKind::Ring, WeightRule::Lazy),
            RhoGraph::CompleteLazy => (GraphKind::Complete, WeightRule::Lazy),
        }
    }
}

/// p dividing the size exactly: divisors of 10⁶ with MB, powers of two with MiB.
pub(super) fn draw_p_and_size(rng: &mut SplitMix64) -> (usize, Size) {
    if rng.below(3) == 0 {
        (
            1 << (1 + rng.below(6)),
            Size::mib(1 + rng.below(512) as u64),
        )
    } else {
        let p = pick(rng, &[2, 4, 5, 8, 10, 16, 20, 25, 32, 40, 50, 64]);
        (p, Size::mb(1 + rng.below(512) as u64))
    }
}
