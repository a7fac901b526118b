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

mod error;
mod graph;
mod iterate;
mod run;
mod spectrum;
mod weights;

pub use graph::{exponential_offsets, torus_shape, Graph, GraphKind, SplitMix64, MAX_NODES};
pub use iterate::{
    disagreement, dsgd_explain, dsgd_step, iterate, mean, rounds_to_factor, DsgdExplanation,
    DsgdStep, InitPattern, NodeUpdate, RoundState, UpdateTerm, MAX_MEASURED_ROUNDS,
};
pub use spectrum::{
    circulant_eigenvalues, dense_eigenvalues, hypercube_eigenvalues, path_eigenvalues,
    predicted_rounds, real_dense_eigenvalues, rho_lanczos, spectrum, spectrum_or_rho,
    star_eigenvalues, symmetric_eigenvalues, symmetric_tridiagonal_eigenvalues,
    tridiagonal_w_eigenvalues, Eigenvalue, RhoEstimate, Spectrum, SpectrumMethod, DENSE_LIST_MAX_P,
    DENSE_MAX_P, LANCZOS_FULL_MAX_P,
};
pub use weights::{
    check_rule, mixing_matrix, solve_stationary, Checks, MixingMatrix, WeightRule, CHECK_TOL,
};

pub use error::ConsensusError;
pub use run::{course_ring_run, spread, AllReduceContrast, GossipRun, MEASURE_BUDGET};
