//! The complete graph's fast path: under every weight rule its W is
//! d·I + b·(J − I), so the matrix keeps the two weights d and b, applies in
//! O(p) and writes its p² entries only when something asks for all of them
//! ([`MixingMatrix::complete_form`]).

use super::{MixingMatrix, WeightRule};

/// Row `i` of W = d·I + b·(J − I) on `p` nodes: `(j, d)` for j = i and
/// `(j, b)` for every other j, in order.
pub(super) fn complete_row(p: usize, d: f64, b: f64, i: usize) -> Vec<(usize, f64)> {
    (0..p).map(|j| (j, if i == j { d } else { b })).collect()
}

/// W of the complete graph on p ≥ 2 nodes under `rule` (not the exponential
/// rule): every node has degree p − 1, so every rule gives one off-diagonal
/// weight b and one diagonal weight d. The floating-point operations are those
/// of [`general_matrix`](super::general_matrix) (tested bit for bit), in O(p)
/// plus writing W.
pub(super) fn complete_matrix(p: usize, rule: WeightRule) -> MixingMatrix {
    let deg = (p - 1) as f64;
    // W_ii = 1 − Σ_j W_ij, summed in row order as `row_with_diag` does
    let diag = |b: f64| 1.0 - (1..p).map(|_| b).sum::<f64>();
    let (d, b) = match rule {
        WeightRule::Uniform | WeightRule::Exponential => {
            let w = 1.0 / (deg + 1.0);
            (w, w)
        }
        // Metropolis–Hastings 1/(1 + max(d_i, d_j)) and max-degree 1/(Δ + 1)
        // are both 1/(p − 1 + 1) here (IEEE addition commutes: the same bits)
        WeightRule::Metropolis | WeightRule::Lazy | WeightRule::MaxDegree => {
            let b = 1.0 / (deg + 1.0);
            (diag(b), b)
        }
    };
    let m = MixingMatrix::complete(p, d, b);
    if rule == WeightRule::Lazy {
        m.lazy()
    } else {
        m
    }
}

/// Row sums of W = d·I + b·(J − I) (equal to its column sums), each added in
/// row order like [`MixingMatrix::row_sums`]: O(p) when d = b, otherwise p
/// sums of p terms without reading W.
pub(super) fn complete_sums(p: usize, d: f64, b: f64) -> Vec<f64> {
    if d.to_bits() == b.to_bits() {
        return vec![(0..p).map(|_| b).sum(); p];
    }
    (0..p)
        .map(|i| (0..p).map(|j| if j == i { d } else { b }).sum())
        .collect()
}
