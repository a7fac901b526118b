//! Everything the gossip view computes for one parameter set
//! ([`GossipRun`]), and ring all-reduce against the same number of gossip
//! rounds ([`AllReduceContrast`]).

use super::error::ConsensusError;
use super::graph::{Graph, GraphKind};
use super::iterate::{disagreement, iterate, mean, rounds_to_factor, InitPattern, RoundState};
use super::spectrum::{predicted_rounds, spectrum_or_rho, Spectrum};
use super::weights::{mixing_matrix, Checks, MixingMatrix, WeightRule};

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
    /// First r with ‖x_r − x̄1‖₂ ≤ ‖x_0 − x̄1‖₂/F; `None` when not reached
    /// within `measured_cap` rounds.
    pub measured_rounds: Option<usize>,
    /// How many rounds were tried for `measured_rounds`: max(rounds,
    /// 10·predicted, 1000), but at most [`MEASURE_BUDGET`] / [`MixingMatrix::round_cost`]
    /// so the view stays responsive (ring p = 1024: 1627 rounds).
    pub measured_cap: usize,
}

/// Work budget, in multiply-adds, for measuring the rounds to the target in
/// [`GossipRun::new`].
pub const MEASURE_BUDGET: usize = 5_000_000;

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
        Self::with_dense_limit(kind, p, seed, rule, init, (rounds, factor), usize::MAX)
    }

    /// As [`GossipRun::new`] for `(rounds, factor)`, but above
    /// `dense_max_p` ranks (the app passes [`DENSE_LIST_MAX_P`](crate::core::consensus::spectrum::DENSE_LIST_MAX_P)) a graph whose
    /// spectrum needs the dense O(p³) decomposition (a random graph) gets ρ
    /// alone, by Lanczos ([`spectrum_or_rho`]): `spectrum.eigenvalues` is
    /// then empty and `spectrum.method` is [`SpectrumMethod::LanczosRho`](crate::core::consensus::spectrum::SpectrumMethod::LanczosRho).
    /// Every other field is as [`GossipRun::new`] computes it (ρ to 1e-9).
    ///
    /// # Errors
    /// As [`GossipRun::new`].
    pub fn with_dense_limit(
        kind: GraphKind,
        p: usize,
        seed: u64,
        rule: WeightRule,
        init: &InitPattern,
        (rounds, factor): (usize, f64),
        dense_max_p: usize,
    ) -> Result<GossipRun, ConsensusError> {
        let graph = Graph::new(kind, p, seed)?;
        let matrix = mixing_matrix(&graph, rule)?;
        let x0 = init.values(p)?;
        let checks = Checks::new(&graph, &matrix);
        let spectrum = spectrum_or_rho(&graph, &matrix, dense_max_p)?;
        let rs = iterate(&matrix, &x0, rounds, Some(spectrum.rho))?;
        let predicted = predicted_rounds(spectrum.rho, factor);
        let per_round = matrix.round_cost().max(1);
        let cap = rounds
            .max(predicted.map_or(0, |r| r.saturating_mul(10)))
            .max(1000)
            .min((MEASURE_BUDGET / per_round).max(rounds).max(1));
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
            measured_cap: cap,
        })
    }
}

impl GossipRun {
    /// A round horizon for stepping and plotting: about 1.2× the predicted
    /// rounds to the target, between 10 and 200 (200 when ρ ≥ 1).
    pub fn suggested_horizon(&self) -> usize {
        self.predicted_rounds
            .map_or(200, |r| r.saturating_mul(6) / 5 + 2)
            .clamp(10, 200)
    }

    /// Runs more rounds so that `rounds` holds rounds 0..=`last` (no-op when
    /// it already does). The bound column continues with the same ρ.
    pub fn extend_to(&mut self, last: usize) {
        let d0 = self.rounds.first().map_or(0.0, |s| s.disagreement);
        while self.rounds.len() <= last {
            let Some(prev) = self.rounds.last() else {
                return;
            };
            let values = self.matrix.apply(&prev.values);
            let r = prev.r + 1;
            self.rounds.push(RoundState {
                r,
                mean: mean(&values),
                disagreement: disagreement(&values),
                bound: Some(self.spectrum.rho.powi(r.min(i32::MAX as usize) as i32) * d0),
                values,
            });
        }
    }

    /// The contrast with one ring all-reduce (Patarasuk & Yuan 2009): ring
    /// all-reduce takes 2(p − 1) rounds and leaves every rank with the exact
    /// mean; this reports where the same number of gossip rounds leaves the
    /// values. The gossip part is skipped (`None`) when it would cost more
    /// than [`MEASURE_BUDGET`] multiply-adds ([`MixingMatrix::round_cost`]
    /// per round; e.g. the ring at p = 1024: 2 046 rounds × 3 072).
    pub fn all_reduce_contrast(&self) -> AllReduceContrast {
        let p = self.graph.p;
        let ring_rounds = 2 * (p - 1);
        let x0 = self
            .rounds
            .first()
            .map(|s| s.values.clone())
            .unwrap_or_default();
        let per_round = self.matrix.round_cost();
        let gossip = if let Some(s) = self.rounds.get(ring_rounds) {
            Some(s.values.clone())
        } else if per_round.saturating_mul(ring_rounds) <= MEASURE_BUDGET {
            let mut x = x0.clone();
            for _ in 0..ring_rounds {
                x = self.matrix.apply(&x);
            }
            Some(x)
        } else {
            None
        };
        AllReduceContrast {
            ring_rounds,
            exact_mean: mean(&x0),
            gossip_spread: gossip.as_ref().map(|x| spread(x)),
            gossip_disagreement: gossip.as_ref().map(|x| disagreement(x)),
            initial_spread: spread(&x0),
        }
    }
}

/// Ring all-reduce versus the same number of gossip rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct AllReduceContrast {
    /// 2(p − 1): rounds of one ring all-reduce (reduce-scatter + all-gather).
    pub ring_rounds: usize,
    /// The arithmetic mean every rank holds after the all-reduce (sum / p).
    pub exact_mean: f64,
    /// max − min of the initial values.
    pub initial_spread: f64,
    /// max − min after `ring_rounds` gossip rounds (`None` if not computed).
    pub gossip_spread: Option<f64>,
    /// ‖x − x̄1‖₂ after `ring_rounds` gossip rounds (`None` if not computed).
    pub gossip_disagreement: Option<f64>,
}

/// max − min of the values (0 for an empty slice).
pub fn spread(x: &[f64]) -> f64 {
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if x.is_empty() {
        0.0
    } else {
        hi - lo
    }
}

/// The course's gossip example, for tests: a ring of 4 ranks with uniform
/// weights 1/3, initial values 0, 3, 6, 9, run for 2 rounds (disagreement
/// √45 ≈ 6.708, √5 ≈ 2.236, √5/3 ≈ 0.7454). A fixture of the native and
/// in-browser tests.
pub fn course_ring_run() -> GossipRun {
    GossipRun::new(
        GraphKind::Ring,
        4,
        0,
        WeightRule::Uniform,
        &InitPattern::List(vec![0.0, 3.0, 6.0, 9.0]),
        2,
        100.0,
    )
    .expect("the course's ring")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use crate::core::consensus::*;
    use proptest::prelude::*;

    #[test]
    fn dense_limit_changes_only_the_random_graph_eigenvalue_list() {
        let init = InitPattern::Random(7);
        let ring = |dense_max_p| {
            GossipRun::with_dense_limit(
                GraphKind::Ring,
                300,
                1,
                WeightRule::Uniform,
                &init,
                (20, 100.0),
                dense_max_p,
            )
        };
        let (a, b) = (ring(usize::MAX), ring(DENSE_LIST_MAX_P));
        assert_eq!(a.expect("new"), b.expect("fast"));
        let full = GossipRun::new(
            GraphKind::Random,
            300,
            3,
            WeightRule::Metropolis,
            &init,
            20,
            100.0,
        )
        .expect("new");
        let fast = GossipRun::with_dense_limit(
            GraphKind::Random,
            300,
            3,
            WeightRule::Metropolis,
            &init,
            (20, 100.0),
            DENSE_LIST_MAX_P,
        )
        .expect("fast");
        assert_eq!(fast.spectrum.method, SpectrumMethod::LanczosRho);
        assert!((fast.spectrum.rho - full.spectrum.rho).abs() <= 1e-9);
        assert_eq!(fast.predicted_rounds, full.predicted_rounds);
        assert_eq!(fast.measured_rounds, full.measured_rounds);
        assert_eq!(fast.rounds.len(), full.rounds.len());
    }

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
    use crate::core::consensus::*;

    #[test]
    fn gossip_run_bundles_the_course_example() {
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
        assert_eq!(run.measured_cap, 1000);
        assert_eq!(run.limit, Some(4.5));
        assert!((run.spectrum.rho - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn the_complete_graph_is_measured_at_its_o_p_cost_per_round() {
        // lazy weights on 1024 nodes: W = (I + J/1024)/2 has eigenvalues 1
        // and 1/2, so every round halves the disagreement exactly:
        // predicted ⌈ln 100 / ln 2⌉ = 7, and (1/2)^7 = 1/128 ≤ 1/100 < 1/64
        let run = GossipRun::new(
            GraphKind::Complete,
            1024,
            1,
            WeightRule::Lazy,
            &InitPattern::Linear,
            0,
            100.0,
        )
        .expect("run");
        assert!((run.spectrum.rho - 0.5).abs() < 1e-12);
        assert_eq!(run.predicted_rounds, Some(7));
        // a round costs 2 · 1024 multiply-adds, not 1024²: the cap is the
        // usual 1000 rounds (5,000,000 / 2048 = 2441 would allow more)
        assert_eq!(run.matrix.round_cost(), 2048);
        assert_eq!(run.measured_cap, 1000);
        assert_eq!(run.measured_rounds, Some(7));
        // 2046 gossip rounds (4,190,208 multiply-adds) fit the budget: after
        // them only rounding is left of the initial disagreement (≈ 2.8e4)
        let c = run.all_reduce_contrast();
        assert_eq!(c.ring_rounds, 2046);
        assert!(c.gossip_disagreement.is_some_and(|d| d < 1e-9), "{c:?}");
        assert!(c.gossip_spread.is_some_and(|s| s < 1e-9), "{c:?}");
    }

    #[test]
    fn horizon_extension_and_contrast() {
        let mut run = GossipRun::new(
            GraphKind::Ring,
            4,
            0,
            WeightRule::Uniform,
            &InitPattern::Linear,
            0,
            100.0,
        )
        .expect("run");
        assert_eq!(run.rounds.len(), 1);
        assert_eq!(run.suggested_horizon(), 10); // 5·1.2 + 2 = 8 → at least 10
        run.extend_to(3);
        assert_eq!(run.rounds.len(), 4);
        assert_eq!(run.rounds[1].values, vec![4.0, 3.0, 6.0, 5.0]);
        assert!((run.rounds[2].disagreement - 5f64.sqrt() / 3.0).abs() < 1e-12);
        assert!((run.rounds[3].bound.expect("bound") - 45f64.sqrt() / 27.0).abs() < 1e-12);
        // ring all-reduce p=4: 6 rounds → exact 4.5; gossip after 6 rounds: the
        // slow modes shrink by (1/3)^6, so ‖·‖ = √5/3^5 = 0.0092
        let c = run.all_reduce_contrast();
        assert_eq!(
            (c.ring_rounds, c.exact_mean, c.initial_spread),
            (6, 4.5, 9.0)
        );
        let d = c.gossip_disagreement.expect("computed");
        assert!((d - 5f64.sqrt() / 243.0).abs() < 1e-12, "{d}");
        assert!(c.gossip_spread.expect("computed") > 0.0);
        assert_eq!(spread(&[]), 0.0);
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
