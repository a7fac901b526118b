//! Question templates: the parameters of each kind of question, how they are
//! drawn from a seed, and how a [`Question`] is built from them.
//!
//! Every numeric answer is computed by [`super::compute`] from the
//! parameters (executed schedules, closed forms, spectra); the builders only
//! word the question and lay out the worked calculation.

use super::answer::Kind;
use super::compute::{self, CostAlgorithm, GraphKind, PracticeAllReduce, SplitMix64, WeightRule};
use super::mistakes as mk;
use super::mistakes::MistakeKind;
use super::question::{Answer, Mistake, Numeric, Question, Tolerance, Unit, ViewLink};
use crate::core::units::format::format_number;
use crate::core::units::{
    bandwidth_chain, format_bandwidth, format_binary, format_decimal, format_exact, format_time,
    group_thousands, Bandwidth, Prefix,
};

/// The kinds of generated question (`q=` in `set=drill`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Template {
    /// Weighted global loss from shards.
    Loss,
    /// Mix, then step (D-SGD).
    Dsgd,
    /// Rounds of a ring all-reduce.
    RingRounds,
    /// Bytes per rank in a ring all-reduce.
    RingBytes,
    /// Rounds and bytes of recursive doubling or Rabenseifner.
    Recursive,
    /// α–β time of a named algorithm, with mixed units.
    Time,
    /// Crossover size between two algorithms.
    Crossover,
    /// ρ and rounds to a target for a ring or complete graph.
    Rho,
    /// busbw from a measured time.
    Busbw,
    /// Ideal multi-lane inter-node time: payload / (L·B) (course §10).
    Multilane,
    /// Memory per rank for model states under ZeRO-1, -2 or -3.
    ZeroMemory,
    /// Bytes a rank sends per step: FSDP against DDP.
    FsdpTraffic,
}

impl Template {
    /// Every template, in menu order.
    pub const ALL: [Template; 12] = [
        Template::Loss,
        Template::Dsgd,
        Template::RingRounds,
        Template::RingBytes,
        Template::Recursive,
        Template::Time,
        Template::Crossover,
        Template::Rho,
        Template::Busbw,
        Template::Multilane,
        Template::ZeroMemory,
        Template::FsdpTraffic,
    ];

    /// The `q` URL value.
    pub fn key(self) -> &'static str {
        match self {
            Template::Loss => "loss",
            Template::Dsgd => "dsgd",
            Template::RingRounds => "ring-rounds",
            Template::RingBytes => "ring-bytes",
            Template::Recursive => "recursive",
            Template::Time => "time",
            Template::Crossover => "crossover",
            Template::Rho => "rho",
            Template::Busbw => "busbw",
            Template::Multilane => "multilane",
            Template::ZeroMemory => "zero-memory",
            Template::FsdpTraffic => "fsdp-traffic",
        }
    }

    /// Inverse of [`Template::key`] (case-insensitive).
    pub fn from_key(s: &str) -> Option<Template> {
        let s = s.trim().to_ascii_lowercase();
        Template::ALL.into_iter().find(|t| t.key() == s)
    }

    /// Menu title.
    pub fn label(self) -> &'static str {
        match self {
            Template::Loss => "Weighted global loss",
            Template::Dsgd => "Mix, then step (D-SGD)",
            Template::RingRounds => "Ring all-reduce rounds",
            Template::RingBytes => "Ring all-reduce bytes per rank",
            Template::Recursive => "Recursive doubling and Rabenseifner",
            Template::Time => "α–β time with mixed units",
            Template::Crossover => "Crossover size",
            Template::Rho => "Consensus rate ρ and rounds",
            Template::Busbw => "busbw from a measured time",
            Template::Multilane => "Multi-lane inter-node time",
            Template::ZeroMemory => "Memory per rank under ZeRO",
            Template::FsdpTraffic => "Traffic per rank: FSDP against DDP",
        }
    }

    /// Question `index` of the drill from `seed`: the same arguments always
    /// give the same question.
    pub fn generate(self, seed: u64, index: usize) -> Question {
        build(
            &self.params(seed, index),
            format!("{}-{seed}-{index}", self.key()),
        )
    }

    /// The parameters of question `index` of the drill from `seed`.
    pub fn params(self, seed: u64, index: usize) -> Params {
        let stream = (self as u64) << 32 | index as u64;
        self.draw(&mut SplitMix64::derived(seed, stream))
    }

    /// Draws parameters in sensible ranges.
    pub fn draw(self, rng: &mut SplitMix64) -> Params {
        match self {
            Template::Loss => draw_loss(rng),
            Template::Dsgd => {
                let k = 2 + rng.below(2);
                // Redraw until mixing moves worker 0 (otherwise mixing and
                // not mixing give the same answer).
                let mut values: Vec<f64> = vec![0.0, 3.0, 6.0];
                for _ in 0..50 {
                    values = (0..=k).map(|_| rng.below(21) as f64 - 5.0).collect();
                    let mean = values.iter().sum::<f64>() / values.len() as f64;
                    if (mean - values[0]).abs() > 0.05 {
                        break;
                    }
                }
                Params::Dsgd {
                    values,
                    g: (1 + rng.below(8)) as f64 * 0.5,
                    eta: pick(rng, &[0.1, 0.2, 0.25, 0.5]),
                }
            }
            Template::RingRounds => Params::RingRounds {
                p: 3 + rng.below(62),
            },
            Template::RingBytes => {
                let (p, n) = draw_p_and_size(rng);
                Params::RingBytes { p, n, added: true }
            }
            Template::Recursive => Params::Recursive {
                alg: if rng.below(2) == 0 {
                    PracticeAllReduce::RecursiveDoubling
                } else {
                    PracticeAllReduce::Rabenseifner
                },
                p: 1 << (2 + rng.below(5)),
                n: Size::mb(1 + rng.below(256) as u64),
            },
            Template::Time => Params::Time {
                alg: pick(
                    rng,
                    &[
                        CostAlgorithm::Ring,
                        CostAlgorithm::Tree,
                        CostAlgorithm::RecursiveDoubling,
                        CostAlgorithm::Rabenseifner,
                    ],
                ),
                p: 1 << (2 + rng.below(5)),
                alpha: draw_alpha(rng),
                link: draw_link(rng),
                n: pick(
                    rng,
                    &[
                        Size::kib(4),
                        Size::kib(8),
                        Size::kib(64),
                        Size::kib(256),
                        Size::mib(1),
                        Size::mib(16),
                        Size::mib(64),
                        Size::mb(1),
                        Size::mb(10),
                        Size::mb(100),
                    ],
                ),
            },
            Template::Crossover => Params::Crossover {
                ring: rng.below(2) == 0,
                p: 1 << (3 + rng.below(4)),
                alpha: draw_alpha(rng),
                link: draw_link(rng),
            },
            Template::Rho => {
                let graph = pick(
                    rng,
                    &[
                        RhoGraph::RingUniform,
                        RhoGraph::RingLazy,
                        RhoGraph::CompleteLazy,
                    ],
                );
                let p = match graph {
                    RhoGraph::CompleteLazy => 4 + rng.below(13),
                    _ => 5 + rng.below(20),
                };
                Params::Rho {
                    graph,
                    p,
                    factor: pick(rng, &[10, 100, 1000]),
                }
            }
            Template::Busbw => {
                let n = Size::mb(pick(rng, &[8, 16, 32, 64, 128, 256, 512, 1000]));
                // A measured algbw between 5 and 150 GB/s, as a whole number of µs.
                let algbw = (5 + rng.below(146)) as f64 * 1e9;
                let t_us = ((n.bytes as f64 / algbw) * 1e6).round().max(1.0) as u64;
                Params::Busbw {
                    p: 2 + rng.below(63),
                    n,
                    t_us,
                }
            }
            Template::Multilane => Params::Multilane {
                payload: if rng.below(2) == 0 {
                    Size::mb(pick(
                        rng,
                        &[100, 200, 250, 400, 500, 800, 1000, 1500, 2000, 4000],
                    ))
                } else {
                    Size::mib(pick(rng, &[128, 256, 512, 768, 1024, 2048, 4096]))
                },
                lanes: 2 + rng.below(7),
                link: if rng.below(2) == 0 {
                    Link::Bits(pick(rng, &[100.0, 200.0, 400.0]))
                } else {
                    Link::Bytes(pick(rng, &[12.5, 25.0, 50.0]))
                },
            },
            Template::ZeroMemory => Params::ZeroMemory {
                psi: pick(
                    rng,
                    &[
                        1_500_000_000,
                        3_000_000_000,
                        7_500_000_000,
                        13_000_000_000,
                        20_000_000_000,
                        40_000_000_000,
                        70_000_000_000,
                    ],
                ),
                n: pick(rng, &[8, 16, 32, 64, 128, 256]),
                stage: 1 + rng.below(3) as u8,
            },
            // Ψ a multiple of 50M and N a power of two up to 64: every chunk
            // of the ring's schedules is the same size
            Template::FsdpTraffic => Params::FsdpTraffic {
                psi: pick(
                    rng,
                    &[
                        350_000_000,
                        750_000_000,
                        1_300_000_000,
                        2_700_000_000,
                        6_700_000_000,
                        13_000_000_000,
                    ],
                ),
                n: pick(rng, &[4, 8, 16, 32, 64]),
            },
        }
    }
}

fn pick<T: Copy>(rng: &mut SplitMix64, xs: &[T]) -> T {
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

fn fmt_size(bytes: f64, prefix: Prefix) -> String {
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

fn draw_alpha(rng: &mut SplitMix64) -> Alpha {
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
    fn beta_line(self) -> Option<String> {
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

fn draw_link(rng: &mut SplitMix64) -> Link {
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
    fn kind_and_rule(self) -> (GraphKind, WeightRule) {
        match self {
            RhoGraph::RingUniform => (GraphKind::Ring, WeightRule::Uniform),
            RhoGraph::RingLazy => (GraphKind::Ring, WeightRule::Lazy),
            RhoGraph::CompleteLazy => (GraphKind::Complete, WeightRule::Lazy),
        }
    }
}

/// The parameters of one question.
#[derive(Clone, Debug, PartialEq)]
pub enum Params {
    /// Memory per rank under ZeRO (mixed-precision Adam, K = 12).
    ZeroMemory {
        /// Ψ, parameters.
        psi: u64,
        /// N, ranks.
        n: usize,
        /// The ZeRO stage, 1 to 3.
        stage: u8,
    },
    /// Bytes a rank sends per step, DDP and FSDP (bf16, ring).
    FsdpTraffic {
        /// Ψ, parameters.
        psi: u64,
        /// N, ranks.
        n: usize,
    },
    /// Shard sizes n_k and mean losses L_k.
    Loss {
        /// Samples per shard.
        counts: Vec<i64>,
        /// Mean loss per shard.
        losses: Vec<f64>,
    },
    /// Worker 0's value first, then its neighbours'; gradient and η.
    Dsgd {
        /// Model values, worker 0 first.
        values: Vec<f64>,
        /// Worker 0's gradient.
        g: f64,
        /// Learning rate.
        eta: f64,
    },
    /// Ring ranks.
    RingRounds {
        /// Ranks.
        p: usize,
    },
    /// Ring ranks and tensor size.
    RingBytes {
        /// Ranks.
        p: usize,
        /// Tensor size.
        n: Size,
        /// Also ask how many bytes are added.
        added: bool,
    },
    /// Recursive doubling or Rabenseifner.
    Recursive {
        /// The algorithm.
        alg: PracticeAllReduce,
        /// Ranks (a power of two).
        p: usize,
        /// Tensor size.
        n: Size,
    },
    /// α–β time of one algorithm.
    Time {
        /// The algorithm.
        alg: CostAlgorithm,
        /// Ranks (a power of two).
        p: usize,
        /// Start-up latency.
        alpha: Alpha,
        /// Per-byte cost.
        link: Link,
        /// Message size.
        n: Size,
    },
    /// Crossover of recursive doubling with Rabenseifner (or the ring).
    Crossover {
        /// Against the ring instead of Rabenseifner.
        ring: bool,
        /// Ranks (a power of two).
        p: usize,
        /// Start-up latency.
        alpha: Alpha,
        /// Per-byte cost.
        link: Link,
    },
    /// ρ and rounds to a factor-F reduction.
    Rho {
        /// Graph and weights.
        graph: RhoGraph,
        /// Nodes.
        p: usize,
        /// Reduction factor F.
        factor: u32,
    },
    /// busbw from a measurement.
    Busbw {
        /// Ranks.
        p: usize,
        /// Tensor size.
        n: Size,
        /// Measured time in microseconds.
        t_us: u64,
    },
    /// Ideal multi-lane inter-node time.
    Multilane {
        /// Payload crossing between the nodes.
        payload: Size,
        /// Lanes (NICs), each with bandwidth `link`.
        lanes: usize,
        /// Bandwidth of one lane ([`Link::Bytes`] or [`Link::Bits`]).
        link: Link,
    },
}

fn draw_loss(rng: &mut SplitMix64) -> Params {
    let mut last = None;
    for _ in 0..50 {
        let m = 3 + rng.below(2);
        let counts: Vec<i64> = (0..m).map(|_| 100 * (1 + rng.below(10)) as i64).collect();
        let losses: Vec<f64> = (0..m).map(|_| (1 + rng.below(30)) as f64 / 20.0).collect();
        let apart = compute::weighted_loss(&counts, &losses)
            .is_some_and(|o| (o.plain_mean - o.global_mean).abs() > 0.02 * o.global_mean);
        let p = Params::Loss { counts, losses };
        if apart {
            return p;
        }
        last = Some(p);
    }
    last.unwrap_or(Params::Loss {
        counts: vec![600, 300, 100],
        losses: vec![0.2, 0.5, 0.9],
    })
}

/// p dividing the size exactly: divisors of 10⁶ with MB, powers of two with MiB.
fn draw_p_and_size(rng: &mut SplitMix64) -> (usize, Size) {
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

/// A list "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A value in parentheses when negative, for sums.
fn term(v: f64) -> String {
    if v < 0.0 {
        format!("({})", format_number(v))
    } else {
        format_number(v)
    }
}

fn mistakes(kind: MistakeKind, values: &[f64]) -> Vec<Mistake> {
    values
        .iter()
        .map(|&value| Mistake { kind, value })
        .collect()
}

fn number(label: &str, value: f64, tolerance: Tolerance, mistakes: Vec<Mistake>) -> Numeric {
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Number,
        unit: Unit::NONE,
        tolerance,
        shown: format_number(value),
        mistakes,
    }
}

fn size_part(label: &str, value: f64, n: Size, mut extra: Vec<Mistake>) -> Numeric {
    extra.extend(mistakes(
        MistakeKind::BitsAsBytes,
        &mk::bits_as_bytes(value),
    ));
    extra.extend(mistakes(MistakeKind::MbAsMib, &mk::mb_as_mib(value)));
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Size,
        unit: n.unit(),
        tolerance: Tolerance::HALF_PERCENT,
        shown: fmt_size(value, n.prefix),
        mistakes: extra,
    }
}

/// Builds the question for `params`, with id `id`.
pub fn build(params: &Params, id: String) -> Question {
    let mut q = match params {
        Params::Loss { counts, losses } => loss(counts, losses),
        Params::Dsgd { values, g, eta } => dsgd(values, *g, *eta),
        Params::RingRounds { p } => ring_rounds(*p),
        Params::RingBytes { p, n, added } => ring_bytes(*p, *n, *added),
        Params::Recursive { alg, p, n } => recursive(*alg, *p, *n),
        Params::Time {
            alg,
            p,
            alpha,
            link,
            n,
        } => time(*alg, *p, *alpha, *link, *n),
        Params::Crossover {
            ring,
            p,
            alpha,
            link,
        } => crossover(*ring, *p, *alpha, *link),
        Params::Rho { graph, p, factor } => rho(*graph, *p, *factor),
        Params::Busbw { p, n, t_us } => busbw(*p, *n, *t_us),
        Params::Multilane {
            payload,
            lanes,
            link,
        } => multilane(*payload, *lanes, *link),
        Params::ZeroMemory { psi, n, stage } => zero_memory(*psi, *n, *stage),
        Params::FsdpTraffic { psi, n } => fsdp_traffic(*psi, *n),
    };
    q.id = id;
    q
}

fn question(title: &str, text: String, parts: Vec<Numeric>, hint: &str) -> Question {
    Question {
        id: String::new(),
        title: title.into(),
        text,
        answer: Answer::Numeric(parts),
        hint: hint.into(),
        solution: Vec::new(),
        link: None,
    }
}

fn loss(counts: &[i64], losses: &[f64]) -> Question {
    let counts_t: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
    let losses_t: Vec<String> = losses.iter().map(|&l| format_number(l)).collect();
    let text = format!(
        "{} data shards hold {} samples, and the model's mean loss on them is {} respectively. \
         What is the mean loss over all the data?",
        counts.len(),
        and_list(&counts_t),
        and_list(&losses_t)
    );
    let Some(o) = compute::weighted_loss(counts, losses) else {
        return question("Weighted global loss", text, vec![], "");
    };
    let part = number(
        "full-data mean loss",
        o.global_mean,
        Tolerance::HALF_PERCENT,
        mistakes(MistakeKind::PlainMean, &[mk::plain_mean(losses)]),
    );
    let mut q = question(
        "Weighted global loss",
        text,
        vec![part],
        "Weight each shard's loss by its share n_k/N of all the samples.",
    );
    let weights: Vec<String> = counts
        .iter()
        .zip(&o.weights)
        .map(|(c, w)| format!("{c}/{} = {}", o.total, format_number(*w)))
        .collect();
    let products: Vec<String> = o
        .weights
        .iter()
        .zip(losses)
        .map(|(w, l)| format!("{} × {}", format_number(*w), format_number(*l)))
        .collect();
    let contributions: Vec<String> = o.contributions.iter().map(|c| format_number(*c)).collect();
    q.solution = vec![
        format!("N = {} = {} samples", counts_t.join(" + "), o.total),
        format!("weights n_k/N: {}", weights.join(", ")),
        format!("L = Σ (n_k/N)·L_k = {}", products.join(" + ")),
        format!(
            "  = {} = {}",
            contributions.join(" + "),
            format_number(o.global_mean)
        ),
        format!(
            "The plain average ({})/{} = {} would give every shard the same weight.",
            losses_t.join(" + "),
            losses.len(),
            format_number(o.plain_mean)
        ),
    ];
    q.link = Some(ViewLink {
        label: "see it in the SGD view with these shards".into(),
        query: format!(
            "view=sgd&shards={}&losses={}",
            counts_t.join(","),
            losses
                .iter()
                .map(|l| crate::core::units::decimal::shortest(*l))
                .collect::<Vec<_>>()
                .join(",")
        ),
    });
    q
}

fn dsgd(values: &[f64], g: f64, eta: f64) -> Question {
    let k = values.len().saturating_sub(1);
    let x0 = values.first().copied().unwrap_or(0.0);
    let neighbours: Vec<String> = values.iter().skip(1).map(|&v| format_number(v)).collect();
    let text = format!(
        "In decentralised SGD, worker 0 holds the value {}; its {k} neighbours hold {}. \
         Worker 0 and each neighbour get weight 1/{}. Worker 0's gradient, taken at its own value \
         before mixing, is {}, and the learning rate is η = {}. Using the course's order (mix, \
         then step), what is worker 0's mixed value, and what is its new value? Give two decimals.",
        format_number(x0),
        and_list(&neighbours),
        k + 1,
        format_number(g),
        format_number(eta)
    );
    let Some(d) = compute::dsgd(values, g, eta) else {
        return question("Mix, then step", text, vec![], "");
    };
    let tol = Tolerance {
        relative: 0.005,
        absolute: 0.0051,
    };
    let mut after = mistakes(
        MistakeKind::StepBeforeMix,
        &[mk::step_before_mix(values, g, eta)],
    );
    after.extend(mistakes(
        MistakeKind::NoMixing,
        &[mk::no_mixing(x0, g, eta)],
    ));
    after.extend(mistakes(MistakeKind::NoStep, &[d.mixed]));
    let parts = vec![
        number("mixed value", d.mixed, tol, vec![]),
        number("new value", d.updated, tol, after),
    ];
    let mut q = question(
        "Mix, then step (D-SGD)",
        text,
        parts,
        "First average worker 0 with its neighbours, then subtract η × gradient.",
    );
    let sum: Vec<String> = values.iter().map(|&v| term(v)).collect();
    let mut stepped: Vec<String> = sum.clone();
    if let Some(s) = stepped.first_mut() {
        *s = format!(
            "({} − {} × {})",
            format_number(x0),
            format_number(eta),
            format_number(g)
        );
    }
    q.solution = vec![
        format!(
            "mix: ({})/{} = {}",
            sum.join(" + "),
            k + 1,
            format_number(d.mixed)
        ),
        format!(
            "step: {} − {} × {} = {}",
            format_number(d.mixed),
            format_number(eta),
            format_number(g),
            format_number(d.updated)
        ),
        format!(
            "Stepping first, with only this node's gradient (its neighbours keep their values), would give ({})/{} = {}; no mixing at all gives {} − {} × {} = {}.",
            stepped.join(" + "),
            k + 1,
            format_number(d.step_then_mix),
            format_number(x0),
            format_number(eta),
            format_number(g),
            format_number(d.local_only)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!(
            "see the mixing in the gossip view on a complete graph of {} nodes",
            k + 1
        ),
        query: format!(
            "view=gossip&graph=complete&p={}&weights=uniform&init={}",
            k + 1,
            values
                .iter()
                .map(|v| crate::core::units::decimal::shortest(*v))
                .collect::<Vec<_>>()
                .join(",")
        ),
    });
    q
}

fn ring_rounds(p: usize) -> Question {
    let text = format!(
        "A ring all-reduce runs on p = {p} ranks. How many rounds does it take in all, \
         reduce-scatter and all-gather together?"
    );
    let rounds = compute::schedule_rounds(PracticeAllReduce::Ring, p).map_or(0.0, |r| r as f64);
    let mut m = mistakes(MistakeKind::PRounds, &[mk::p_rounds(p)]);
    m.extend(mistakes(MistakeKind::Log2Ring, &[mk::log2_ring_rounds(p)]));
    m.extend(mistakes(MistakeKind::OnePhase, &[mk::one_phase(rounds)]));
    let mut q = question(
        "Ring all-reduce rounds",
        text,
        vec![number("rounds", rounds, Tolerance::EXACT, m)],
        "Count the reduce-scatter and the all-gather separately: how many steps until a chunk has visited every rank?",
    );
    q.solution = vec![
        format!("reduce-scatter: p − 1 = {} rounds", p - 1),
        format!("all-gather: p − 1 = {} rounds", p - 1),
        format!(
            "total: 2(p − 1) = {} rounds (the generated schedule has {} rounds)",
            2 * (p - 1),
            crate::core::units::decimal::shortest(rounds)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!("see it in the ring view at p = {p}"),
        query: format!("view=ring&p={p}"),
    });
    q
}

fn ring_bytes(p: usize, n: Size, added: bool) -> Question {
    let text = format!(
        "A ring all-reduce of an n = {} tensor runs on p = {p} ranks. How many bytes does each rank \
         send, and how many does it receive{}? Answer in {}.",
        n.text(),
        if added {
            ", and how many of the received bytes does it add into its buffer"
        } else {
            ""
        },
        n.unit().symbol
    );
    let Some(e) = compute::execute_collective(PracticeAllReduce::Ring, p, n.bytes) else {
        return question("Ring all-reduce bytes per rank", text, vec![], "");
    };
    let nb = n.bytes as f64;
    let one_way = |v: f64| {
        let mut m = mistakes(MistakeKind::TwoN, &[mk::two_n(nb)]);
        m.extend(mistakes(
            MistakeKind::TwoPMinusOneN,
            &[mk::two_p_minus_one_n(p, nb)],
        ));
        m.extend(mistakes(
            MistakeKind::SentPlusReceived,
            &[mk::sent_plus_received(v)],
        ));
        m.extend(mistakes(MistakeKind::OnePhase, &[mk::one_phase(v)]));
        m
    };
    let sent = e.sent as f64;
    let received = e.received as f64;
    let mut parts = vec![
        size_part("bytes sent per rank", sent, n, one_way(sent)),
        size_part("bytes received per rank", received, n, one_way(received)),
    ];
    if added {
        parts.push(size_part(
            "bytes added per rank",
            e.reduced as f64,
            n,
            mistakes(
                MistakeKind::ReAddInAllGather,
                &[mk::re_add_in_all_gather(p, nb)],
            ),
        ));
    }
    let mut q = question(
        "Ring all-reduce bytes per rank",
        text,
        parts,
        "Each round a rank sends one chunk of n/p bytes; count the rounds of both phases.",
    );
    let chunk = nb / p as f64;
    let half = (p - 1) as f64 * chunk;
    let f = |v: f64| fmt_size(v, n.prefix);
    q.solution = vec![
        format!("chunk = n/p = {} / {p} = {}", n.text(), f(chunk)),
        format!(
            "reduce-scatter: p − 1 = {} rounds × {} = {} sent",
            p - 1,
            f(chunk),
            f(half)
        ),
        format!(
            "all-gather: {} rounds × {} = {} sent",
            p - 1,
            f(chunk),
            f(half)
        ),
        format!(
            "sent per rank: 2(p − 1)/p · n = 2 × {}/{p} × {} = {}",
            p - 1,
            n.text(),
            f(sent)
        ),
        format!(
            "received per rank: the same, {} (executed schedule: {} B sent and {} B received by the busiest rank)",
            f(received),
            group_thousands(e.sent),
            group_thousands(e.received)
        ),
    ];
    if added {
        q.solution.push(format!(
            "added: only the reduce-scatter adds, (p − 1)/p · n = {}; the all-gather copies",
            f(e.reduced as f64)
        ));
    }
    q.link = Some(ring_link(p, n));
    q
}

/// "see it in the ring view at p = 8, 64 MB".
pub fn ring_link(p: usize, n: Size) -> ViewLink {
    ViewLink {
        label: format!("see it in the ring view at p = {p}, {}", n.text()),
        query: format!("view=ring&p={p}&size={}", n.url()),
    }
}

fn recursive(alg: PracticeAllReduce, p: usize, n: Size) -> Question {
    let text = format!(
        "An all-reduce of an n = {} tensor runs on p = {p} ranks with {}. How many rounds \
         does it take, and how many bytes does each rank send? Answer the bytes in {}.",
        n.text(),
        alg.label(),
        n.unit().symbol
    );
    let Some(e) = compute::execute_collective(alg, p, n.bytes) else {
        return question("Recursive algorithms", text, vec![], "");
    };
    let nb = n.bytes as f64;
    let rounds = e.rounds as f64;
    let sent = e.sent as f64;
    let k = f64::from(compute::floor_log2(p));
    let (round_mistakes, byte_mistakes) = match alg {
        PracticeAllReduce::Rabenseifner => {
            let mut b = mistakes(MistakeKind::TwoN, &[mk::two_n(nb)]);
            b.extend(mistakes(
                MistakeKind::TwoPMinusOneN,
                &[mk::two_p_minus_one_n(p, nb)],
            ));
            b.extend(mistakes(MistakeKind::OnePhase, &[mk::one_phase(sent)]));
            (mistakes(MistakeKind::OnePhase, &[mk::one_phase(rounds)]), b)
        }
        _ => (vec![], vec![]),
    };
    let parts = vec![
        number("rounds", rounds, Tolerance::EXACT, round_mistakes),
        size_part("bytes sent per rank", sent, n, byte_mistakes),
    ];
    let f = |v: f64| fmt_size(v, n.prefix);
    let mut q = question(
        "Recursive doubling and Rabenseifner",
        text,
        parts,
        "Partners differ in one bit of the rank: log₂ p steps per phase. Which message size moves in each step?",
    );
    q.solution = match alg {
        PracticeAllReduce::Rabenseifner => {
            let halves: Vec<String> = (1..=k as u32)
                .map(|i| f(nb / f64::from(1u32 << i)))
                .collect();
            vec![
                format!(
                    "recursive-halving reduce-scatter: log₂ {p} = {k} rounds sending {} = {}",
                    halves.join(" + "),
                    f(sent / 2.0),
                    k = crate::core::units::decimal::shortest(k)
                ),
                format!(
                    "recursive-doubling all-gather: {k} rounds sending the same {} in reverse",
                    f(sent / 2.0),
                    k = crate::core::units::decimal::shortest(k)
                ),
                format!(
                    "total: 2 log₂ p = {rounds} rounds, 2(p − 1)/p · n = {} per rank (executed: {} B)",
                    f(sent),
                    group_thousands(e.sent),
                    rounds = crate::core::units::decimal::shortest(rounds)
                ),
            ]
        }
        _ => vec![
            format!(
                "log₂ {p} = {k} exchanges with partners rank XOR 1, XOR 2, …",
                k = crate::core::units::decimal::shortest(k)
            ),
            format!(
                "each exchange sends the full tensor: {k} × {} = {} per rank (executed: {} B)",
                n.text(),
                f(sent),
                group_thousands(e.sent),
                k = crate::core::units::decimal::shortest(k)
            ),
        ],
    };
    q.link = Some(ViewLink {
        label: format!(
            "see it in the collectives view: {} at p = {p}, {}",
            alg.label(),
            n.text()
        ),
        query: format!("view=collectives&alg={}&p={p}&size={}", alg.key(), n.url()),
    });
    q
}

/// The unit a time answer is asked in: µs below 1 ms, else ms.
fn time_unit(t: f64) -> Unit {
    if t < 1e-3 {
        Unit {
            symbol: "µs",
            factor: 1e-6,
        }
    } else {
        Unit {
            symbol: "ms",
            factor: 1e-3,
        }
    }
}

fn time(alg: CostAlgorithm, p: usize, alpha: Alpha, link: Link, n: Size) -> Question {
    let nb = n.bytes as f64;
    let beta = link.beta();
    let formula = compute::time(alg, p, nb, alpha.seconds(), beta);
    let unit = time_unit(formula.time);
    let text = format!(
        "In the α–β model with α = {}, {}, p = {p} ranks and an n = {} message, how long does \
         a {} all-reduce take? Answer in {}.",
        alpha.text(),
        link.text(),
        n.text(),
        alg.short_label(),
        unit.symbol
    );
    let (a, f) = compute::factors(alg, p);
    let a_part = a * alpha.seconds();
    let mut m = mistakes(
        MistakeKind::AlphaLeftOut,
        &[mk::alpha_left_out(f, nb, beta)],
    );
    match link {
        Link::Bytes(gb) => m.extend(mistakes(
            MistakeKind::BetaAsBandwidth,
            &[mk::beta_as_bandwidth(a, alpha.seconds(), f, nb, gb * 1e9)],
        )),
        Link::Bits(_) => m.extend(mistakes(
            MistakeKind::BitsAsBytes,
            &mk::bits_as_bytes(f * nb * beta).map(|b| a_part + b),
        )),
        Link::Beta(_) => {}
    }
    m.extend(mistakes(
        MistakeKind::MbAsMib,
        &mk::mb_as_mib(f * nb * beta).map(|b| a_part + b),
    ));
    let part = Numeric {
        label: "time".into(),
        value: formula.time,
        kind: Kind::Time,
        unit,
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_time(formula.time),
        mistakes: m,
    };
    let mut q = question(
        "α–β time",
        text,
        vec![part],
        "Convert everything to seconds and bytes first; β = 1 / bandwidth in seconds per byte, and 1 B = 8 b.",
    );
    q.solution = link.beta_line().into_iter().collect();
    q.solution
        .push(format!("n = {} = {} B", n.text(), group_thousands(n.bytes)));
    q.solution.extend(formula.substituted);
    q.link = Some(ViewLink {
        label: format!(
            "see it in the cost view at p = {p}, α = {}, {}",
            alpha.text(),
            n.text()
        ),
        query: format!(
            "view=cost&p={p}&alpha={}&{}&size={}",
            alpha.url(),
            link.url(),
            n.url()
        ),
    });
    q
}

fn crossover(ring: bool, p: usize, alpha: Alpha, link: Link) -> Question {
    let other = if ring {
        CostAlgorithm::Ring
    } else {
        CostAlgorithm::Rabenseifner
    };
    let text = format!(
        "With α = {}, {} and p = {p} ranks, from which message size on does {} beat recursive \
         doubling? Use the basic power-of-two α–β formulas and answer in kB.",
        alpha.text(),
        link.text(),
        if ring {
            "the ring all-reduce"
        } else {
            "Rabenseifner's algorithm"
        }
    );
    let beta = link.beta();
    let Some((n_star, lines)) = compute::crossover(
        CostAlgorithm::RecursiveDoubling,
        other,
        p,
        alpha.seconds(),
        beta,
    ) else {
        return question("Crossover size", text, vec![], "");
    };
    let mut m = mistakes(MistakeKind::BitsAsBytes, &mk::bits_as_bytes(n_star));
    m.extend(mistakes(MistakeKind::MbAsMib, &mk::mb_as_mib(n_star)));
    if ring {
        // Ring start-ups counted as 2 log₂ p: the Rabenseifner crossover.
        let (a_rd, b_rd) = compute::factors(CostAlgorithm::RecursiveDoubling, p);
        let (a_rab, b_ring) = compute::factors(CostAlgorithm::Rabenseifner, p);
        let wrong = (a_rab - a_rd) * alpha.seconds() / ((b_rd - b_ring) * beta);
        m.extend(mistakes(MistakeKind::Log2Ring, &[wrong]));
    }
    let part = Numeric {
        label: "crossover size".into(),
        value: n_star,
        kind: Kind::Size,
        unit: Unit {
            symbol: "kB",
            factor: 1e3,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format!("{} ({})", format_decimal(n_star), format_binary(n_star)),
        mistakes: m,
    };
    let mut q = question(
        "Crossover size",
        text,
        vec![part],
        "Write both times as A + B·n and solve A₁ + B₁·n = A₂ + B₂·n for n.",
    );
    q.solution = link.beta_line().into_iter().collect();
    q.solution.extend(lines);
    q.link = Some(ViewLink {
        label: format!(
            "see the crossover in the cost view at p = {p}, α = {}",
            alpha.text()
        ),
        query: format!(
            "view=cost&p={p}&alpha={}&{}&size={}B",
            alpha.url(),
            link.url(),
            crate::core::units::decimal::shortest(n_star.round().max(1.0))
        ),
    });
    q
}

fn rho(graph: RhoGraph, p: usize, factor: u32) -> Question {
    let setting = match graph {
        RhoGraph::RingUniform => format!(
            "A gossip ring of p = {p} nodes mixes with weight 1/3 on each node itself and on each of its two neighbours."
        ),
        RhoGraph::RingLazy => format!(
            "A gossip ring of p = {p} nodes uses lazy Metropolis–Hastings weights: 2/3 on each node itself and 1/6 on each of its two neighbours."
        ),
        RhoGraph::CompleteLazy => format!(
            "A complete graph of p = {p} nodes uses lazy Metropolis–Hastings weights: (1 + 1/p)/2 on each node itself and 1/(2p) on every other node."
        ),
    };
    let text = format!(
        "{setting} What is ρ, to three decimal places, and how many rounds guarantee that the \
         disagreement shrinks by a factor of F = {factor}?"
    );
    let (kind, rule) = graph.kind_and_rule();
    let rho = compute::rho(kind, p, rule).unwrap_or(f64::NAN);
    let f = f64::from(factor);
    let rounds = compute::rounds_to(rho, f).map_or(f64::NAN, |r| r as f64);
    let parts = vec![
        number(
            "ρ",
            rho,
            Tolerance::decimals(3),
            mistakes(MistakeKind::GapForRho, &[mk::gap_for_rho(rho)]),
        ),
        number(
            "rounds",
            rounds,
            Tolerance::EXACT,
            mistakes(MistakeKind::RoundedDown, &[mk::rounded_down(rho, f)]),
        ),
    ];
    let mut q = question(
        "Consensus rate ρ",
        text,
        parts,
        "ρ is the largest |λ| of the mixing matrix after setting aside the eigenvalue 1; then ρ^r ≤ 1/F.",
    );
    let eig = match graph {
        RhoGraph::RingUniform => format!("λ_k = 1/3 + 2/3·cos(2πk/{p}), k = 0 … {}", p - 1),
        RhoGraph::RingLazy => format!(
            "λ_k = 2/3 + 1/3·cos(2πk/{p}) (the lazy weights map each λ of the 1/3 ring to (1 + λ)/2)"
        ),
        RhoGraph::CompleteLazy => {
            "Metropolis–Hastings on a complete graph averages everything (eigenvalues 1, 0, …, 0); the lazy version has (1 + 0)/2 = 1/2".into()
        }
    };
    q.solution = vec![
        eig,
        format!("ρ = largest |λ_k| with k ≠ 0 = {}", format_number(rho)),
        format!(
            "rounds r ≥ ln F / ln(1/ρ) = ln {factor} / ln(1/{}) = {} → round up: {} rounds",
            format_number(rho),
            format_number(f.ln() / (1.0 / rho).ln()),
            format_number(rounds)
        ),
    ];
    let (gk, wr) = graph.kind_and_rule();
    let shape = match gk {
        GraphKind::Complete => "complete graph",
        _ => "ring",
    };
    q.link = Some(ViewLink {
        label: format!("see it in the gossip view: {shape} of p = {p} nodes"),
        query: format!(
            "view=gossip&graph={}&p={p}&weights={}&target={factor}",
            gk.key(),
            wr.key()
        ),
    });
    q
}

/// A measured time: "870 µs" below 1 ms, else "2.345 ms".
pub fn measured_time_text(t_us: u64) -> String {
    if t_us < 1000 {
        format!("{t_us} µs")
    } else {
        format!("{} ms", format_number(t_us as f64 / 1000.0))
    }
}

fn busbw(p: usize, n: Size, t_us: u64) -> Question {
    let t = t_us as f64 * 1e-6;
    let text = format!(
        "nccl-tests reports that an all-reduce of S = {} on p = {p} GPUs took t = {}. \
         What bus bandwidth (busbw) does it report? Answer in GB/s.",
        n.text(),
        measured_time_text(t_us)
    );
    let nb = n.bytes as f64;
    let bw = compute::nccl(nb, t, p);
    let mut m = mistakes(MistakeKind::AlgbwForBusbw, &[mk::algbw_for_busbw(nb, t)]);
    m.extend(mistakes(
        MistakeKind::BitsAsBytes,
        &mk::bits_as_bytes(bw.busbw),
    ));
    let part = Numeric {
        label: "busbw".into(),
        value: bw.busbw,
        kind: Kind::Bandwidth,
        unit: Unit {
            symbol: "GB/s",
            factor: 1e9,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_bandwidth(bw.busbw),
        mistakes: m,
    };
    let mut q = question(
        "busbw from a measured time",
        text,
        vec![part],
        "First algbw = S / t, then nccl-tests' all-reduce factor 2(p−1)/p.",
    );
    q.solution = bw.lines;
    q.link = Some(ViewLink {
        label: format!(
            "compare with the α–β model in the cost view at p = {p}, {}",
            n.text()
        ),
        query: format!("view=cost&p={p}&size={}&alg=ring", n.url()),
    });
    q
}

fn multilane(payload: Size, lanes: usize, link: Link) -> Question {
    let rate = link.rate_text();
    let text = format!(
        "A payload of {} crosses between two nodes over L = {lanes} lanes (NICs) of {rate} each, \
         split evenly. Ideally (no start-ups, the lanes run at full speed at the same time), how \
         many bytes does each lane carry, in {}, and how long does the transfer take, in ms?",
        payload.text(),
        payload.unit().symbol
    );
    let bw = link.bytes_per_second().unwrap_or(f64::NAN);
    let pb = payload.bytes as f64;
    let Some(s) = compute::multilane(pb, lanes, bw) else {
        return question("Multi-lane inter-node time", text, vec![], "");
    };
    let bytes_part = size_part(
        "bytes per lane",
        s.per_lane_bytes,
        payload,
        mistakes(
            MistakeKind::NotSplitOverLanes,
            &[mk::not_split_over_lanes(s.per_lane_bytes, lanes)],
        ),
    );
    let mut m = mistakes(
        MistakeKind::NotSplitOverLanes,
        &[mk::not_split_over_lanes(s.time, lanes)],
    );
    if let Link::Bits(_) = link {
        m.extend(mistakes(
            MistakeKind::BitsAsBytes,
            &mk::bits_as_bytes(s.time),
        ));
    }
    m.extend(mistakes(MistakeKind::MbAsMib, &mk::mb_as_mib(s.time)));
    let time_part = Numeric {
        label: "time".into(),
        value: s.time,
        kind: Kind::Time,
        unit: Unit {
            symbol: "ms",
            factor: 1e-3,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_time(s.time),
        mistakes: m,
    };
    let mut q = question(
        "Multi-lane inter-node time",
        text,
        vec![bytes_part, time_part],
        "Each lane carries payload / L at the same time; time = (payload / L) / B, with B in bytes per second (1 B = 8 b).",
    );
    let f = |v: f64| fmt_size(v, payload.prefix);
    let bw_text = format_bandwidth(bw);
    q.solution = Vec::new();
    if let Link::Bits(_) = link {
        q.solution
            .push(format!("B = {rate} ÷ 8 = {bw_text} per lane"));
    }
    q.solution.push(format!(
        "payload = {} = {} B",
        payload.text(),
        group_thousands(payload.bytes)
    ));
    q.solution.push(format!(
        "per lane: payload / L = {} / {lanes} = {}",
        payload.text(),
        f(s.per_lane_bytes)
    ));
    q.solution.push(format!(
        "time = (payload / L) / B = {} / {bw_text} = {}",
        f(s.per_lane_bytes),
        format_time(s.time)
    ));
    q.solution.push(format!(
        "one lane would take payload / B = {} / {bw_text} = {}: {lanes} lanes are {lanes}× faster \
         (ideal: no start-ups, no intra-node collectives, lanes sustain their bandwidth concurrently)",
        payload.text(),
        format_time(s.one_lane_time)
    ));
    q.link = Some(ViewLink {
        label: format!(
            "see it in the topology view: multi-lane, 2 nodes × {lanes} GPUs, {lanes} lanes of {rate}, {}",
            payload.text()
        ),
        query: format!(
            "view=topology&alg=multilane&nodes=2&gpus={lanes}&lanes={lanes}&size={}&inter_bw={}&inter_alpha=0us",
            payload.url(),
            rate.replace(' ', "")
        ),
    });
    q
}

/// K of the ZeRO questions: mixed-precision Adam's bytes of optimizer
/// state per parameter (Rajbhandari et al. 2020, §3.1).
const ADAM_K: f64 = 12.0;

/// A size in GB (the memory and traffic questions' unit).
fn gb_part(label: &str, value: f64, mut extra: Vec<Mistake>) -> Numeric {
    extra.extend(mistakes(
        MistakeKind::BitsAsBytes,
        &mk::bits_as_bytes(value),
    ));
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Size,
        unit: Unit {
            symbol: "GB",
            factor: 1e9,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_decimal(value),
        mistakes: extra,
    }
}

fn zero_memory(psi: u64, n: usize, stage: u8) -> Question {
    let count = compute::format_count(psi);
    let sharded = match stage {
        1 => "ZeRO-1 (the optimizer state sharded over the GPUs)",
        2 => "ZeRO-2 (the optimizer state and the gradients sharded)",
        _ => "ZeRO-3 (FSDP: the optimizer state, the gradients and the parameters sharded)",
    };
    let text = format!(
        "A model of Ψ = {count} parameters is trained with mixed-precision Adam: per parameter, 2 bytes \
         of fp16 parameters, 2 bytes of fp16 gradients and K = 12 bytes of optimizer state. With {sharded} \
         on N = {n} GPUs, how much memory do these model states take on each GPU, in GB? Leave out \
         {}.",
        if stage == 3 {
            "activations, buffers and the layer FSDP gathers while it computes"
        } else {
            "activations and buffers"
        }
    );
    let m = compute::zero_memory(psi, n, ADAM_K);
    let value = match stage {
        1 => m.zero1,
        2 => m.zero2,
        _ => m.zero3,
    };
    let p = psi as f64;
    let mut wrong = mistakes(
        MistakeKind::ForgotOptimizerState,
        &[mk::forgot_optimizer_state(stage, p, n)],
    );
    if stage < 3 {
        wrong.extend(mistakes(
            MistakeKind::ShardedEverything,
            &[mk::sharded_everything(p, n, ADAM_K)],
        ));
    }
    wrong.extend(mistakes(
        MistakeKind::NotSharded,
        &[mk::not_sharded(p, ADAM_K)],
    ));
    let part = gb_part("memory per GPU", value, wrong);
    let mut q = question(
        "Memory per rank under ZeRO",
        text,
        vec![part],
        "Count 2 + 2 + K bytes per parameter, then divide by N only the states this stage shards.",
    );
    let gb = |b: f64| format_decimal(b);
    let (formula, worked) = match stage {
        1 => (
            "4Ψ + KΨ/N",
            format!(
                "4 B × {count} + 12 B × {count} / {n} = {} + {}",
                gb(4.0 * p),
                gb(ADAM_K * p / n as f64)
            ),
        ),
        2 => (
            "2Ψ + (2 + K)Ψ/N",
            format!(
                "2 B × {count} + 14 B × {count} / {n} = {} + {}",
                gb(2.0 * p),
                gb((2.0 + ADAM_K) * p / n as f64)
            ),
        ),
        _ => ("(2 + 2 + K)Ψ/N", format!("16 B × {count} / {n}")),
    };
    q.solution = vec![
        format!(
            "per parameter: 2 B of parameters + 2 B of gradients + K = 12 B of optimizer state (an fp32 copy of the \
             parameters, the momentum and the variance) = 16 B; without ZeRO (DDP) every GPU holds 16 B × {count} = {}",
            gb(m.ddp)
        ),
        format!("ZeRO-{stage} per GPU: {formula} = {worked} = {}", gb(value)),
        format!(
            "side by side on N = {n}: DDP {}, ZeRO-1 {}, ZeRO-2 {}, ZeRO-3 {} (Rajbhandari et al. 2020, §5)",
            gb(m.ddp),
            gb(m.zero1),
            gb(m.zero2),
            gb(m.zero3)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!("see the memory per rank in the training-step view at N = {n}, Ψ = {count}"),
        query: format!(
            "view=step&p={n}&layers=1&params={count}&dtype=bf16&mode={}",
            if stage == 3 { "fsdp" } else { "zero2" }
        ),
    });
    q
}

fn fsdp_traffic(psi: u64, n: usize) -> Question {
    let count = compute::format_count(psi);
    let model = 2.0 * psi as f64;
    let text = format!(
        "A model of Ψ = {count} bf16 parameters ({}) is trained on N = {n} GPUs with ring collectives. In one \
         training step, how many bytes does each GPU send with DDP (one all-reduce of the gradients), and how \
         many with FSDP (ZeRO-3: every layer's parameters all-gathered before its forward and again before its \
         backward, its gradients reduce-scattered)? Answer in GB.",
        format_decimal(model)
    );
    let Some(t) = compute::sharded_traffic(n, psi) else {
        return question("Traffic per rank: FSDP against DDP", text, vec![], "");
    };
    let mut ddp_wrong = mistakes(MistakeKind::TwoN, &[mk::two_n(model)]);
    ddp_wrong.extend(mistakes(
        MistakeKind::OnePhase,
        &[mk::one_phase(t.ddp as f64)],
    ));
    let fsdp_wrong = mistakes(
        MistakeKind::ForgotSecondAllGather,
        &[mk::forgot_second_all_gather(n, model)],
    );
    let parts = vec![
        gb_part("DDP: bytes a GPU sends per step", t.ddp as f64, ddp_wrong),
        gb_part(
            "FSDP: bytes a GPU sends per step",
            t.fsdp as f64,
            fsdp_wrong,
        ),
    ];
    let mut q = question(
        "Traffic per rank: FSDP against DDP",
        text,
        parts,
        "A ring reduce-scatter and a ring all-gather each send (N − 1)/N of the tensor per GPU; an all-reduce is one of each.",
    );
    let share = t.ddp as f64 / 2.0;
    q.solution = vec![
        format!("M = Ψ × 2 B = {count} × 2 B = {}", format_decimal(model)),
        format!(
            "one ring reduce-scatter or all-gather: (N − 1)/N · M = {}/{n} × {} = {} per GPU",
            n - 1,
            format_decimal(model),
            format_decimal(share)
        ),
        format!(
            "DDP: an all-reduce is a reduce-scatter then an all-gather: 2 × {} = {}",
            format_decimal(share),
            format_decimal(t.ddp as f64)
        ),
        format!(
            "FSDP: an all-gather before forward, another before backward, and a reduce-scatter: 3 × {} = {}, {} × DDP",
            format_decimal(share),
            format_decimal(t.fsdp as f64),
            format_number(t.fsdp as f64 / t.ddp.max(1) as f64)
        ),
        format!(
            "ZeRO-2 sends what DDP sends ({}): a reduce-scatter of the gradients and an all-gather of the updated parameters",
            format_decimal(t.zero2 as f64)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!("see FSDP's step and traffic in the training-step view at N = {n}"),
        query: format!(
            "view=step&p={n}&alg=ring&layers=1&params={count}&dtype=bf16&fwd=20ms&bwd=40ms&mode=fsdp"
        ),
    });
    q
}
