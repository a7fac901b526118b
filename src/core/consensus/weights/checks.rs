//! The checks shown next to a mixing matrix (row and column sums,
//! symmetry, non-negative weights, connectivity, the limit's weighting π)
//! and the plain-language notes when one fails.

use super::{MixingMatrix, CHECK_TOL};
use crate::core::consensus::Graph;
use crate::core::units::format::format_weight;

/// The checks shown next to a mixing matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Checks {
    /// Σ_j W_ij for every row i.
    pub row_sums: Vec<f64>,
    /// Σ_i W_ij for every column j.
    pub col_sums: Vec<f64>,
    /// Every row sums to 1: each new value is a weighted average.
    pub row_stochastic: bool,
    /// Every column sums to 1: Σ_i x_i, hence the arithmetic mean, is preserved.
    pub column_stochastic: bool,
    /// Both of the above.
    pub doubly_stochastic: bool,
    /// W = Wᵀ.
    pub symmetric: bool,
    /// No negative weight.
    pub nonnegative: bool,
    /// The graph is (strongly) connected.
    pub connected: bool,
    /// The weights π of the mean the values converge to (1/p each when the
    /// arithmetic mean is preserved); `None` when it could not be found.
    pub stationary: Option<Vec<f64>>,
    /// Plain-language remarks, e.g. why uniform weights on a star are not
    /// doubly stochastic.
    pub notes: Vec<String>,
}

impl Checks {
    /// Runs all checks on `m` for `graph`.
    pub fn new(graph: &Graph, m: &MixingMatrix) -> Checks {
        let row_sums = m.row_sums();
        let col_sums = m.col_sums();
        let row_stochastic = row_sums.iter().all(|s| (s - 1.0).abs() <= CHECK_TOL);
        let column_stochastic = col_sums.iter().all(|s| (s - 1.0).abs() <= CHECK_TOL);
        let symmetric = m.is_symmetric();
        let nonnegative = m.is_nonnegative();
        let connected = graph.is_connected();
        let stationary = m.stationary().ok();
        let mut notes = Vec::new();
        if !column_stochastic {
            let (jmin, smin) = extreme(&col_sums, |a, b| a < b);
            let (jmax, smax) = extreme(&col_sums, |a, b| a > b);
            notes.push(format!(
                "Columns do not all sum to 1 (node {jmax}: {}, node {jmin}: {}), so W is not doubly stochastic and the arithmetic mean is not preserved; the values converge to the π-weighted mean instead.",
                format_weight(smax),
                format_weight(smin)
            ));
            if graph
                .in_neighbours()
                .iter()
                .any(|n| n.len() != graph.degree(0))
            {
                notes.push(
                    "Uniform 1/(deg+1) weights are doubly stochastic only on regular graphs; this graph's degrees differ. Metropolis–Hastings weights fix this."
                        .into(),
                );
            }
        }
        if !connected {
            notes.push(
                "The graph is not connected, so the values cannot reach one consensus.".into(),
            );
        }
        Checks {
            row_sums,
            col_sums,
            row_stochastic,
            column_stochastic,
            doubly_stochastic: row_stochastic && column_stochastic,
            symmetric,
            nonnegative,
            connected,
            stationary,
            notes,
        }
    }

    /// The value the iteration converges to: Σ π_i x_i (the arithmetic mean
    /// when W is doubly stochastic). `None` without π or on a length mismatch.
    pub fn limit(&self, x0: &[f64]) -> Option<f64> {
        let pi = self.stationary.as_ref()?;
        (pi.len() == x0.len()).then(|| pi.iter().zip(x0).map(|(a, b)| a * b).sum())
    }
}

fn extreme(v: &[f64], better: impl Fn(f64, f64) -> bool) -> (usize, f64) {
    let mut best = (0, v.first().copied().unwrap_or(0.0));
    for (i, &x) in v.iter().enumerate() {
        if better(x, best.1) {
            best = (i, x);
        }
    }
    best
}
