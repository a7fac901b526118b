//! Gossip consensus: graphs, mixing matrices, their spectrum, repeated
//! neighbour averaging and one decentralised SGD step.
//!
//! One gossip round replaces every node's value by a weighted average of its
//! own and its neighbours' values, x_{r+1} = W x_r (Boyd, Ghosh, Prabhakar &
//! Shah 2006, "Randomized gossip algorithms"; Xiao & Boyd 2004, "Fast linear
//! iterations for distributed averaging"). With W doubly stochastic and
//! normal, ‖x_r − x̄1‖₂ ≤ ρ^r ‖x_0 − x̄1‖₂ where ρ is the spectral radius of
//! W − 11ᵀ/p, so a factor-F reduction takes at most ⌈ln F / ln(1/ρ)⌉ rounds.
//! Unlike a ring all-reduce, no finite number of rounds gives every node the
//! exact mean (unless ρ = 0).
//!
//! Typical use (the SGD model mixes vectors the same way):
//! ```
//! use collective_lab::core::consensus::{mixing_matrix, spectrum, Graph, GraphKind, WeightRule};
//! let g = Graph::new(GraphKind::Ring, 4, 0).expect("valid graph");
//! let w = mixing_matrix(&g, WeightRule::Uniform).expect("rule fits graph");
//! assert_eq!(w.apply(&[0.0, 3.0, 6.0, 9.0]), vec![4.0, 3.0, 6.0, 5.0]);
//! let s = spectrum(&g, &w).expect("spectrum");
//! assert!((s.rho - 1.0 / 3.0).abs() < 1e-12);
//! ```

use std::fmt;

mod graph;
mod iterate;
mod spectrum;
mod weights;

pub use graph::{exponential_offsets, Graph, GraphKind, SplitMix64, MAX_NODES};
pub use iterate::{
    disagreement, dsgd_step, fmt_num, fmt_weight, iterate, mean, rounds_to_factor, DsgdStep,
    InitPattern, NodeUpdate, RoundState, UpdateTerm, MAX_MEASURED_ROUNDS,
};
pub use spectrum::{
    circulant_eigenvalues, dense_eigenvalues, hypercube_eigenvalues, predicted_rounds, spectrum,
    Eigenvalue, Spectrum, SpectrumMethod,
};
pub use weights::{mixing_matrix, Checks, MixingMatrix, WeightRule, CHECK_TOL};

/// Why a consensus computation could not be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsensusError {
    /// The graph cannot be built (size, power of two, torus shape).
    InvalidGraph(String),
    /// The weight rule does not apply to this graph.
    RuleNeedsGraph(String),
    /// A matrix is not square, is empty or has a non-finite entry.
    InvalidMatrix(String),
    /// A vector has the wrong length.
    LengthMismatch {
        /// Length required (usually p).
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// No unique stationary distribution π.
    NoStationary(String),
    /// An eigenvalue decomposition did not converge.
    EigenFailed(String),
}

impl fmt::Display for ConsensusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConsensusError::InvalidGraph(m)
            | ConsensusError::RuleNeedsGraph(m)
            | ConsensusError::InvalidMatrix(m)
            | ConsensusError::NoStationary(m)
            | ConsensusError::EigenFailed(m) => f.write_str(m),
            ConsensusError::LengthMismatch { expected, got } => {
                write!(f, "expected {expected} values, one per node (got {got})")
            }
        }
    }
}

impl std::error::Error for ConsensusError {}

/// Everything the gossip view shows, computed once for one parameter set.
#[derive(Clone, Debug, PartialEq)]
pub struct GossipRun {
    /// The graph.
    pub graph: Graph,
    /// The weight rule used.
    pub rule: WeightRule,
    /// Its mixing matrix W.
    pub matrix: MixingMatrix,
    /// Row/column sums, symmetry, connectivity, π.
    pub checks: Checks,
    /// Eigenvalues, ρ and the gap.
    pub spectrum: Spectrum,
    /// Rounds 0..=`rounds` (values, mean, disagreement, ρ^r bound).
    pub rounds: Vec<RoundState>,
    /// The value every node converges to: Σ π_i x_i(0) (the arithmetic mean
    /// for doubly stochastic W). `None` if π is unknown.
    pub limit: Option<f64>,
    /// The target reduction factor F.
    pub factor: f64,
    /// ⌈ln F / ln(1/ρ)⌉, `None` when ρ ≥ 1.
    pub predicted_rounds: Option<usize>,
    /// First r with ‖x_r − x̄1‖₂ ≤ ‖x_0 − x̄1‖₂/F (up to `max(rounds, 10·predicted, 1000)` rounds).
    pub measured_rounds: Option<usize>,
}

impl GossipRun {
    /// Builds graph, W, checks and spectrum, and runs `rounds` rounds from `init`.
    ///
    /// # Errors
    /// Any [`ConsensusError`] from the steps: bad graph, rule not fitting
    /// the graph, init of the wrong length, eigen-decomposition failure.
    pub fn new(
        kind: GraphKind,
        p: usize,
        seed: u64,
        rule: WeightRule,
        init: &InitPattern,
        rounds: usize,
        factor: f64,
    ) -> Result<GossipRun, ConsensusError> {
        let graph = Graph::new(kind, p, seed)?;
        let matrix = mixing_matrix(&graph, rule)?;
        let x0 = init.values(p)?;
        let checks = Checks::new(&graph, &matrix);
        let spectrum = spectrum(&graph, &matrix)?;
        let rs = iterate(&matrix, &x0, rounds, Some(spectrum.rho))?;
        let predicted = predicted_rounds(spectrum.rho, factor);
        let cap = rounds
            .max(predicted.map_or(0, |r| r.saturating_mul(10)))
            .max(1000);
        let measured = rounds_to_factor(&matrix, &x0, factor, cap);
        Ok(GossipRun {
            limit: checks.limit(&x0),
            graph,
            rule,
            matrix,
            checks,
            spectrum,
            rounds: rs,
            factor,
            predicted_rounds: predicted,
            measured_rounds: measured,
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn any_undirected() -> impl Strategy<Value = Graph> {
        (0usize..7, 2usize..40, any::<u64>()).prop_filter_map("valid graph", |(k, p, seed)| {
            let kind = match k {
                0 => GraphKind::Ring,
                1 => GraphKind::Path,
                2 => GraphKind::Star,
                3 => GraphKind::Complete,
                4 => GraphKind::Torus {
                    rows: 2.max(p / 6),
                    cols: 6,
                },
                5 => GraphKind::Hypercube,
                _ => GraphKind::Random,
            };
            let p = match kind {
                GraphKind::Torus { rows, cols } => rows * cols,
                GraphKind::Hypercube => 1 << (p % 6).max(1),
                _ => p,
            };
            Graph::new(kind, p, seed).ok()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn metropolis_is_symmetric_and_doubly_stochastic(g in any_undirected()) {
            prop_assert!(g.is_connected());
            let m = mixing_matrix(&g, WeightRule::Metropolis).expect("MH on undirected");
            let c = Checks::new(&g, &m);
            prop_assert!(c.symmetric && c.doubly_stochastic && c.nonnegative && c.connected);
            let s = spectrum(&g, &m).expect("spectrum");
            prop_assert!(s.rho < 1.0 - 1e-9, "connected graph with positive diagonal must have ρ < 1, got {}", s.rho);
        }

        #[test]
        fn doubly_stochastic_mixing_preserves_the_mean(
            g in any_undirected(),
            lazy in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let rule = if lazy { WeightRule::Lazy } else { WeightRule::MaxDegree };
            let m = mixing_matrix(&g, rule).expect("rule");
            let x0 = InitPattern::Random(seed).values(g.p).expect("values");
            let rs = iterate(&m, &x0, 12, None).expect("iterate");
            for s in &rs {
                prop_assert!((s.mean - rs[0].mean).abs() <= 1e-9 * (1.0 + rs[0].mean.abs()));
            }
        }

        #[test]
        fn disagreement_stays_under_the_rho_bound(
            g in any_undirected(),
            rule in prop::sample::select(vec![WeightRule::Metropolis, WeightRule::Lazy, WeightRule::MaxDegree]),
            seed in any::<u64>(),
        ) {
            let m = mixing_matrix(&g, rule).expect("rule");
            let s = spectrum(&g, &m).expect("spectrum");
            prop_assert!(s.bound_guaranteed);
            let x0 = InitPattern::Random(seed).values(g.p).expect("values");
            for st in iterate(&m, &x0, 30, Some(s.rho)).expect("iterate") {
                let b = st.bound.expect("bound");
                prop_assert!(st.disagreement <= b * (1.0 + 1e-9) + 1e-12, "r={} {} > {}", st.r, st.disagreement, b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gossip_run_bundles_the_seed_example() {
        let run = GossipRun::new(
            GraphKind::Ring,
            4,
            0,
            WeightRule::Uniform,
            &InitPattern::List(vec![0.0, 3.0, 6.0, 9.0]),
            3,
            100.0,
        )
        .expect("run");
        assert_eq!(run.rounds.len(), 4);
        assert_eq!(run.predicted_rounds, Some(5));
        assert_eq!(run.measured_rounds, Some(5));
        assert_eq!(run.limit, Some(4.5));
        assert!((run.spectrum.rho - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn gossip_run_star_uniform_limit_is_weighted() {
        let run = GossipRun::new(
            GraphKind::Star,
            4,
            0,
            WeightRule::Uniform,
            &InitPattern::Linear,
            60,
            100.0,
        )
        .expect("run");
        let lim = run.limit.expect("π");
        assert!((lim - 3.6).abs() < 1e-12);
        let last = run.rounds.last().expect("rounds");
        assert!(
            last.values.iter().all(|v| (v - 3.6).abs() < 1e-9),
            "{:?}",
            last.values
        );
        assert!((last.mean - 3.6).abs() < 1e-9 && (run.rounds[0].mean - 4.5).abs() < 1e-12);
    }

    #[test]
    fn errors_have_messages() {
        let e = GossipRun::new(
            GraphKind::Ring,
            4,
            0,
            WeightRule::Uniform,
            &InitPattern::List(vec![1.0, 2.0]),
            1,
            100.0,
        )
        .expect_err("2 values for 4 nodes");
        assert_eq!(e.to_string(), "expected 4 values, one per node (got 2)");
    }
}
