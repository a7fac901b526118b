//! The weight rules of a gossip round ([`WeightRule`]): how W_ij is chosen
//! from the graph.

use std::fmt;

/// How the weights W_ij of a gossip round are chosen from the graph.
///
/// In every rule W_ij > 0 only for j = i or j an in-neighbour of i, each row
/// sums to 1, and x_i ← Σ_j W_ij x_j.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightRule {
    /// W_ij = 1/(d_i + 1) for j ∈ N(i) ∪ {i}: each node averages itself and
    /// its neighbours equally (the course's "one-third" ring weights). Rows sum
    /// to 1, but columns sum to 1 only on regular graphs; on a star, path or
    /// random graph the values converge to a *weighted* mean instead.
    Uniform,
    /// Metropolis–Hastings weights W_ij = 1/(1 + max(d_i, d_j)) for edges,
    /// W_ii = 1 − Σ_j W_ij (Xiao & Boyd 2004, "Fast linear iterations for
    /// distributed averaging"; Boyd, Ghosh, Prabhakar & Shah 2006,
    /// "Randomized gossip algorithms"). Symmetric and doubly stochastic on
    /// every undirected graph, using only neighbours' degrees.
    Metropolis,
    /// Lazy Metropolis–Hastings: (I + W_MH)/2. Every eigenvalue λ moves to
    /// (1 + λ)/2 ≥ 0, which removes oscillation at the price of a smaller gap.
    Lazy,
    /// Max-degree weights W_ij = 1/(Δ + 1) for edges, W_ii = 1 − d_i/(Δ + 1),
    /// with Δ the largest degree. A variant of the maximum-degree weights of
    /// Xiao & Boyd 2004 (which use 1/Δ): the +1 keeps every diagonal entry
    /// positive, so an even ring does not get the eigenvalue −1.
    MaxDegree,
    /// The exponential graph's own weights (Ying et al. 2021): W_ij = 1/(τ + 1)
    /// for j = i and each of the τ in-neighbours i − 2^k (mod p). Only valid on
    /// [`GraphKind::Exponential`](crate::core::consensus::graph::GraphKind::Exponential); doubly stochastic (circulant), not symmetric.
    Exponential,
}

impl WeightRule {
    /// URL name: `uniform`, `metropolis`, `lazy`, `maxdegree`, `exp`.
    pub fn key(self) -> &'static str {
        match self {
            WeightRule::Uniform => "uniform",
            WeightRule::Metropolis => "metropolis",
            WeightRule::Lazy => "lazy",
            WeightRule::MaxDegree => "maxdegree",
            WeightRule::Exponential => "exp",
        }
    }

    /// Formula as shown on screen.
    pub fn formula(self) -> &'static str {
        match self {
            WeightRule::Uniform => "W_ij = 1/(d_i + 1) for j ∈ N(i) ∪ {i}",
            WeightRule::Metropolis => "W_ij = 1/(1 + max(d_i, d_j)), W_ii = 1 − Σ_j W_ij",
            WeightRule::Lazy => "W = (I + W_MH)/2",
            WeightRule::MaxDegree => "W_ij = 1/(Δ + 1), W_ii = 1 − d_i/(Δ + 1)",
            WeightRule::Exponential => "W_ij = 1/(τ + 1) for j = i and j = i − 2^k, τ = ⌈log₂ p⌉",
        }
    }
}

impl fmt::Display for WeightRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WeightRule::Uniform => "uniform 1/(deg+1)",
            WeightRule::Metropolis => "Metropolis–Hastings",
            WeightRule::Lazy => "lazy Metropolis–Hastings",
            WeightRule::MaxDegree => "max-degree",
            WeightRule::Exponential => "exponential-graph weights",
        })
    }
}
