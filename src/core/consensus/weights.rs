//! Weight rules and the mixing matrix W they build: the rules
//! ([`WeightRule`], `rule.rs`), W's storage, products and sums
//! ([`MixingMatrix`], [`solve_stationary`], `matrix.rs`), and the builders
//! here ([`check_rule`], [`mixing_matrix`]). Beside them: `complete` (the
//! complete graph's rows and sums of W = d·I + b·(J − I), kept as two
//! weights) and `checks` (the checks shown next to W, [`Checks`]).

use super::error::ConsensusError;
use super::graph::{exponential_offsets, Graph, GraphKind};

mod checks;
mod complete;
mod matrix;
mod rule;

pub use checks::Checks;
pub(crate) use matrix::by_node;
pub use matrix::{solve_stationary, MixingMatrix, CHECK_TOL};
pub use rule::WeightRule;

/// Whether `rule` fits `graph`, without building the matrix (O(1)): the
/// check [`mixing_matrix`] makes first, for validating parameters.
///
/// # Errors
/// As [`mixing_matrix`].
pub fn check_rule(graph: &Graph, rule: WeightRule) -> Result<(), ConsensusError> {
    match rule {
        WeightRule::Metropolis | WeightRule::Lazy if graph.directed => {
            Err(ConsensusError::RuleNeedsGraph(format!(
                "{rule} weights need an undirected graph; the exponential graph is directed (use exp or uniform weights)"
            )))
        }
        WeightRule::Exponential if graph.kind != GraphKind::Exponential => {
            Err(ConsensusError::RuleNeedsGraph(format!(
                "exponential-graph weights need graph=exp (got the {})",
                graph.kind
            )))
        }
        _ => Ok(()),
    }
}

/// Builds the mixing matrix of `graph` under `rule`.
///
/// # Errors
/// [`ConsensusError::RuleNeedsGraph`] when Metropolis–Hastings or lazy
/// weights are asked for on the directed exponential graph, or the
/// exponential-graph weights on any other graph.
pub fn mixing_matrix(graph: &Graph, rule: WeightRule) -> Result<MixingMatrix, ConsensusError> {
    check_rule(graph, rule)?;
    if graph.kind == GraphKind::Complete && graph.p >= 2 {
        return Ok(complete_matrix(graph.p, rule));
    }
    general_matrix(graph, rule)
}

/// W from the graph's neighbour lists, any graph.
pub(super) fn general_matrix(
    graph: &Graph,
    rule: WeightRule,
) -> Result<MixingMatrix, ConsensusError> {
    let p = graph.p;
    let deg = |i: usize| graph.degree(i) as f64;
    let row_with_diag = |i: usize, off: Vec<(usize, f64)>| {
        let s: f64 = off.iter().map(|e| e.1).sum();
        let mut r = off;
        r.push((i, 1.0 - s));
        crate::core::order::sort_by_key(&mut r, |e| by_node(e) as u64);
        r
    };
    let rows: Vec<Vec<(usize, f64)>> = match rule {
        WeightRule::Uniform => (0..p)
            .map(|i| {
                let w = 1.0 / (deg(i) + 1.0);
                let mut r: Vec<(usize, f64)> =
                    graph.in_neighbours()[i].iter().map(|&j| (j, w)).collect();
                r.push((i, w));
                crate::core::order::sort_by_key(&mut r, |e| by_node(e) as u64);
                r
            })
            .collect(),
        WeightRule::Metropolis | WeightRule::Lazy => {
            check_rule(graph, rule)?;
            (0..p)
                .map(|i| {
                    let off = graph.in_neighbours()[i]
                        .iter()
                        .map(|&j| (j, 1.0 / (1.0 + deg(i).max(deg(j)))))
                        .collect();
                    row_with_diag(i, off)
                })
                .collect()
        }
        WeightRule::MaxDegree => {
            let w = 1.0 / (graph.max_degree() as f64 + 1.0);
            (0..p)
                .map(|i| {
                    let off = graph.in_neighbours()[i].iter().map(|&j| (j, w)).collect();
                    row_with_diag(i, off)
                })
                .collect()
        }
        WeightRule::Exponential => {
            check_rule(graph, rule)?;
            let w = 1.0 / (exponential_offsets(p).len() as f64 + 1.0);
            (0..p)
                .map(|i| {
                    let mut r: Vec<(usize, f64)> =
                        graph.in_neighbours()[i].iter().map(|&j| (j, w)).collect();
                    r.push((i, w));
                    crate::core::order::sort_by_key(&mut r, |e| by_node(e) as u64);
                    r
                })
                .collect()
        }
    };
    let m = MixingMatrix::from_rows(rows);
    Ok(if rule == WeightRule::Lazy {
        m.lazy()
    } else {
        m
    })
}

/// W of the complete graph on p ≥ 2 nodes under `rule` (not the exponential
/// rule): every node has degree p − 1, so every rule gives one off-diagonal
/// weight b and one diagonal weight d. The floating-point operations are those
/// of [`general_matrix`](super::general_matrix) (tested bit for bit), in O(p)
/// plus writing W.
fn complete_matrix(p: usize, rule: WeightRule) -> MixingMatrix {
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

#[cfg(test)]
mod tests;
