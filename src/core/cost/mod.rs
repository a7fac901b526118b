//! The α–β(–γ) cost model of all-reduce: closed forms, their building blocks,
//! exact crossovers and nccl-tests bandwidths. The time of an executed
//! schedule is in [`crate::core::timing`].
//!
//! # The model
//! Sending one message of `m` bytes between two ranks costs `α + m·β`
//! (Hockney's model as used by Thakur, Rabenseifner & Gropp 2005,
//! "Optimization of Collective Communication Operations in MPICH", IJHPCA
//! 19(1), §2):
//! - `α`: start-up latency per message, in seconds;
//! - `β`: transfer time per byte, in seconds per byte (the inverse of the
//!   usable byte bandwidth: 12.5 GB/s gives β = 0.08 ns/B);
//! - `γ`: reduction compute time per byte, in seconds per byte. Optional; it
//!   defaults to 0, as in the course's worked examples.
//!
//! All formulas take the tensor size `n` in **bytes** (an `f64`, so sizes
//! above 2⁵³ B lose exactness but never panic) and return seconds.
//!
//! # Assumptions (for every closed form)
//! - A rank can send one message and receive one message at the same time
//!   (full duplex); messages of one round proceed in parallel without
//!   contention, so a round costs its slowest message.
//! - Chunks are equal: `n/p` bytes for ring and recursive-halving blocks. An
//!   executed schedule whose `n` does not divide by `p` has one extra element
//!   in some chunks and is slightly slower (see [`crate::core::timing::executed_time`]).
//! - Recursive doubling, recursive halving and Rabenseifner's algorithm are
//!   defined for `p` a power of two. For other `p` the published adaptation is
//!   used and **labelled** ([`formulas::Formula::pow2_adapted`]): with
//!   `p′ = 2^⌊log₂ p⌋` and `r = p − p′` extra ranks, each extra rank first
//!   folds its whole tensor into a partner inside the power-of-two subset (one
//!   full-message step, `α + nβ + nγ`), the algorithm runs on the `p′` ranks,
//!   and the partners finally hand the whole result back (one more full-message
//!   step, `α + nβ`). This is the MPICH scheme of Thakur et al. 2005, §4
//!   (their Rabenseifner variant folds in only half-messages; we charge whole
//!   messages, as the schedule generators of this crate do).
//! - The binomial tree is a basic, unpipelined reduce to a root followed by a
//!   broadcast; it needs `⌈log₂ p⌉` levels for any `p` and no adaptation.
//! - The naive root is serialised at the root: the root receives one full
//!   tensor at a time and sends one full tensor at a time.
//!
//! `p ≤ 1` gives zero cost everywhere (there is nothing to communicate).

pub mod formulas;
pub mod nccl;
pub mod nccl_tune;
pub mod protocol;

/// Model constants: α (s), β (s/B) and γ (s/B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostParams {
    /// Start-up latency per message, seconds.
    pub alpha: f64,
    /// Transfer time per byte, seconds per byte.
    pub beta: f64,
    /// Reduction compute time per byte, seconds per byte (0 to ignore).
    pub gamma: f64,
}

impl CostParams {
    /// α and β with γ = 0.
    pub fn new(alpha: f64, beta: f64) -> Self {
        CostParams {
            alpha,
            beta,
            gamma: 0.0,
        }
    }

    /// The course's §9 example: α = 5 µs, β = 0.08 ns/B (100 Gb/s), γ = 0.
    pub fn course_example() -> Self {
        CostParams::new(5e-6, 0.08e-9)
    }

    /// The same parameters with reduction cost `gamma` (s/B).
    pub fn with_gamma(self, gamma: f64) -> Self {
        CostParams { gamma, ..self }
    }
}

#[cfg(test)]
mod tests;
