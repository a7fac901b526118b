//! Distributed SGD: the sample-weighted global objective, and a small training
//! problem on which all-reduce SGD, decentralised SGD (D-PSGD) and local SGD
//! run side by side.
//!
//! - [`objective`](mod@objective): F = Σ (n_k/N) L_k versus the plain mean (1/m) Σ L_k, and the
//!   weighting of one synchronous mini-batch step's gradients.
//! - [`rng`]: SplitMix64 + Box–Muller, so runs are reproducible from a seed.
//! - [`problem`]: synthetic linear least squares (d ≤ 10) over unequal IID or
//!   non-IID shards, with closed-form optima of the sample-weighted and the
//!   equal-worker objectives (normal equations).
//! - [`setup`]: one run of the three strategies from validated settings
//!   ([`LabSetup`]).
//! - [`train`]: the three strategies from one start with one sampling seed,
//!   recording losses, consensus distance and bytes per worker per step.
//!
//! The objective trap (course §3; Lian et al. 2017): with a doubly stochastic
//! mixing matrix, D-PSGD's average model follows the *equal-worker* gradient
//! (1/m) Σ ∇L_k, so on unequal non-IID shards it approaches argmin (1/m) Σ L_k,
//! while all-reduce SGD with sample weights approaches argmin Σ (n_k/N) L_k.

pub mod narrate;
pub mod objective;
pub mod problem;
pub mod rng;
pub mod setup;
pub mod train;

pub use objective::{
    combine_gradients, objective, sample_weights, GradientCombination, Objective, ObjectiveError,
};
pub use problem::{Problem, ProblemConfig, ProblemError};
pub use setup::LabSetup;
pub use train::{run_lab, run_strategy, Lab, StepRecord, StrategyTrace, TrainConfig, TrainError};

/// A training strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Synchronous SGD whose global gradient is formed by a ring all-reduce:
    /// one common update, identical models.
    AllReduce,
    /// Decentralised parallel SGD (Lian et al. 2017): local models mixed with
    /// neighbours through the mixing matrix.
    Gossip,
    /// Local SGD: no communication (baseline), or with `h` a model average
    /// every h steps.
    Local,
}

impl Strategy {
    /// All strategies, in display order.
    pub const ALL: [Strategy; 3] = [Strategy::AllReduce, Strategy::Gossip, Strategy::Local];

    /// The URL key: `allreduce`, `gossip`, `local`.
    pub fn key(self) -> &'static str {
        match self {
            Strategy::AllReduce => "allreduce",
            Strategy::Gossip => "gossip",
            Strategy::Local => "local",
        }
    }

    /// A short human label.
    pub fn label(self) -> &'static str {
        match self {
            Strategy::AllReduce => "all-reduce SGD",
            Strategy::Gossip => "D-PSGD (gossip)",
            Strategy::Local => "local SGD (no communication)",
        }
    }

    /// Parses a URL key (case-insensitive); also accepts `dpsgd`/`decentralised`.
    pub fn parse(s: &str) -> Option<Strategy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "allreduce" | "all-reduce" | "ar" => Some(Strategy::AllReduce),
            "gossip" | "dpsgd" | "d-psgd" | "decentralised" | "decentralized" => {
                Some(Strategy::Gossip)
            }
            "local" | "none" => Some(Strategy::Local),
            _ => None,
        }
    }

    /// Position in [`Strategy::ALL`].
    pub fn index(self) -> usize {
        match self {
            Strategy::AllReduce => 0,
            Strategy::Gossip => 1,
            Strategy::Local => 2,
        }
    }
}

#[cfg(test)]
mod tests;
