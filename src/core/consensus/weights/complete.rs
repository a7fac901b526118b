//! The complete graph's fast path: under every weight rule its W is
//! d·I + b·(J − I), so the matrix keeps the two weights d and b, applies in
//! O(p) and writes its p² entries only when something asks for all of them
//! (`MixingMatrix::complete_form`); the matrix itself is built by
//! `complete_matrix` in the parent.

/// Row `i` of W = d·I + b·(J − I) on `p` nodes: `(j, d)` for j = i and
/// `(j, b)` for every other j, in order.
pub(crate) fn complete_row(p: usize, d: f64, b: f64, i: usize) -> Vec<(usize, f64)> {
    (0..p).map(|j| (j, if i == j { d } else { b })).collect()
}

/// Row sums of W = d·I + b·(J − I) (equal to its column sums), each added in
/// row order like [`MixingMatrix::row_sums`]: O(p) when d = b, otherwise p
/// sums of p terms without reading W.
pub(crate) fn complete_sums(p: usize, d: f64, b: f64) -> Vec<f64> {
    if d.to_bits() == b.to_bits() {
        return vec![(0..p).map(|_| b).sum(); p];
    }
    (0..p)
        .map(|i| (0..p).map(|j| if j == i { d } else { b }).sum())
        .collect()
}
