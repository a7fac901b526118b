//! Question templates: the parameters of each kind of question, how they are
//! drawn from a seed, and how a [`Question`] is built from them.
//!
//! Every numeric answer is computed by [`super::compute`] from the
//! parameters (executed schedules, closed forms, spectra); the builders only
//! word the question and lay out the worked calculation.

use super::compute::{self, CostAlgorithm, PracticeAllReduce, SplitMix64};
use super::question::Question;

mod comm;
mod params;
mod parts;
mod training;
mod values;

use comm::*;
use training::*;
use values::*;

pub use comm::{measured_time_text, ring_link};
pub use params::Params;
pub use values::{Alpha, Link, RhoGraph, Size};

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
