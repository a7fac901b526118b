//! The seeded generator of the SGD runs: [`crate::core::rng::SplitMix64`]
//! (SplitMix64 + Box–Muller), shared with the gossip graphs.

pub use crate::core::rng::SplitMix64;
