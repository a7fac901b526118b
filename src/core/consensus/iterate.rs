//! Gossip rounds x_{r+1} = W x_r, disagreement norms against the ρ^r bound,
//! rounds to a target reduction, the narration of one node's update and one
//! decentralised SGD step.

use super::graph::SplitMix64;
use super::weights::MixingMatrix;
use super::ConsensusError;
use crate::core::units::format::{format_number, format_weight};

/// Most rounds [`rounds_to_factor`] will run before giving up.
pub const MAX_MEASURED_ROUNDS: usize = 1_000_000;

/// The state after round r.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundState {
    /// Round index r (0 = the initial values).
    pub r: usize,
    /// x_r, one value per node.
    pub values: Vec<f64>,
    /// Arithmetic mean x̄_r = (1/p) Σ_i x_i.
    pub mean: f64,
    /// Disagreement ‖x_r − x̄_r 1‖₂ (Euclidean norm of the deviations from the current mean).
    pub disagreement: f64,
    /// ρ^r ‖x_0 − x̄_0 1‖₂ when a ρ was supplied (Boyd, Ghosh, Prabhakar &
    /// Shah 2006; Xiao & Boyd 2004): an upper bound on `disagreement` for a
    /// doubly stochastic normal W, otherwise only the asymptotic rate.
    pub bound: Option<f64>,
}

/// Arithmetic mean (0 for an empty slice).
pub fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        0.0
    } else {
        x.iter().sum::<f64>() / x.len() as f64
    }
}

/// ‖x − x̄1‖₂ with x̄ the arithmetic mean of x.
pub fn disagreement(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>().sqrt()
}

/// Runs `rounds` gossip rounds from `x0` and records rounds 0..=rounds.
/// `rho` (e.g. [`super::Spectrum::rho`]) fills in the bound column.
///
/// # Errors
/// [`ConsensusError::LengthMismatch`] when `x0.len()` ≠ p.
pub fn iterate(
    m: &MixingMatrix,
    x0: &[f64],
    rounds: usize,
    rho: Option<f64>,
) -> Result<Vec<RoundState>, ConsensusError> {
    if x0.len() != m.p() {
        return Err(ConsensusError::LengthMismatch {
            expected: m.p(),
            got: x0.len(),
        });
    }
    let d0 = disagreement(x0);
    let mut out = Vec::with_capacity(rounds + 1);
    let mut x = x0.to_vec();
    for r in 0..=rounds {
        if r > 0 {
            x = m.apply(&x);
        }
        out.push(RoundState {
            r,
            mean: mean(&x),
            disagreement: disagreement(&x),
            bound: rho.map(|q| q.powi(r.min(i32::MAX as usize) as i32) * d0),
            values: x.clone(),
        });
    }
    Ok(out)
}

/// Measured number of rounds until ‖x_r − x̄1‖₂ ≤ ‖x_0 − x̄1‖₂ / `factor`
/// (Some(0) when x_0 is already in consensus or F ≤ 1). `None` when it takes
/// more than `max_rounds` rounds (capped at [`MAX_MEASURED_ROUNDS`]).
/// Compare with [`super::predicted_rounds`].
pub fn rounds_to_factor(
    m: &MixingMatrix,
    x0: &[f64],
    factor: f64,
    max_rounds: usize,
) -> Option<usize> {
    let d0 = disagreement(x0);
    if d0 == 0.0 || factor <= 1.0 {
        return Some(0);
    }
    if x0.len() != m.p() || !factor.is_finite() {
        return None;
    }
    let target = d0 / factor;
    let mut x = x0.to_vec();
    let mut next = Vec::with_capacity(x.len());
    for r in 1..=max_rounds.min(MAX_MEASURED_ROUNDS) {
        m.apply_into(&x, &mut next);
        std::mem::swap(&mut x, &mut next);
        // relative slack so an exact hit (e.g. 1/F reached exactly) counts
        if disagreement(&x) <= target * (1.0 + 1e-12) {
            return Some(r);
        }
    }
    None
}

/// Initial values of the nodes.
#[derive(Clone, Debug, PartialEq)]
pub enum InitPattern {
    /// Explicit values, one per node.
    List(Vec<f64>),
    /// x_i = 3i: 0, 3, 6, 9, … (the course's four-worker example for p = 4).
    Linear,
    /// Seeded uniform values in [0, 10), rounded to 0.1 (SplitMix64).
    Random(u64),
}

impl InitPattern {
    /// The p initial values.
    ///
    /// # Errors
    /// [`ConsensusError::LengthMismatch`] when a list does not have p values.
    pub fn values(&self, p: usize) -> Result<Vec<f64>, ConsensusError> {
        match self {
            InitPattern::List(v) if v.len() == p => Ok(v.clone()),
            InitPattern::List(v) => Err(ConsensusError::LengthMismatch {
                expected: p,
                got: v.len(),
            }),
            InitPattern::Linear => Ok((0..p).map(|i| 3.0 * i as f64).collect()),
            InitPattern::Random(seed) => {
                let mut rng = SplitMix64::new(*seed);
                Ok((0..p)
                    .map(|_| (rng.next_f64() * 100.0).floor() / 10.0)
                    .collect())
            }
        }
    }
}

/// One term W_ij · x_j of a node's update.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpdateTerm {
    /// The node j read from (j = i for the node's own value).
    pub from: usize,
    /// W_ij.
    pub weight: f64,
    /// x_j before the round.
    pub value: f64,
}

/// Node i's update in one round, term by term, ordered by ring position
/// (offsets j − i taken in (−p/2, p/2]): for the ring, left neighbour, self,
/// right neighbour.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeUpdate {
    /// The node.
    pub node: usize,
    /// Its terms.
    pub terms: Vec<UpdateTerm>,
    /// Σ W_ij x_j: the node's value after the round.
    pub result: f64,
}

impl NodeUpdate {
    /// Builds node `node`'s update from the values `x` before the round.
    /// `None` when `node` ≥ p or `x` has the wrong length.
    pub fn new(m: &MixingMatrix, x: &[f64], node: usize) -> Option<NodeUpdate> {
        let p = m.p();
        if x.len() != p {
            return None;
        }
        let row = m.row(node)?;
        let offset = |j: usize| {
            let d = (j + p - node) % p;
            if 2 * d > p {
                d as i64 - p as i64
            } else {
                d as i64
            }
        };
        let mut terms: Vec<UpdateTerm> = row
            .iter()
            .map(|&(j, w)| UpdateTerm {
                from: j,
                weight: w,
                value: x[j],
            })
            .collect();
        // signed offsets in order: shift by 2⁶³ so that −1 sorts before 0
        crate::core::order::sort_by_key(&mut terms, |t| (offset(t.from) as u64) ^ (1 << 63));
        let result = terms.iter().map(|t| t.weight * t.value).sum();
        Some(NodeUpdate {
            node,
            terms,
            result,
        })
    }

    /// The update as one line of arithmetic with node labels `x{i}`:
    /// equal weights 1/k give `x0 ← (9 + 0 + 3)/3 = 4`; otherwise
    /// `x0 ← 1/4·9 + 1/2·0 + 1/4·3 = 3`. Above `MAX_LISTED_TERMS` (16) terms
    /// (a node of the complete graph on 1024 nodes has 1024) the sum shows
    /// its first three and last two terms around "…", and says how many
    /// there are: `x0 ← (1 + 2 + 3 + … + 1023 + 1024)/1024 = 512.5`.
    /// The result is always the whole sum.
    pub fn text(&self) -> String {
        let k = self.terms.len();
        let equal = k > 0
            && self
                .terms
                .iter()
                .all(|t| (t.weight - 1.0 / k as f64).abs() <= 1e-12);
        let term = |t: &UpdateTerm| {
            if equal {
                format_number(t.value)
            } else {
                format!("{}·{}", format_weight(t.weight), format_number(t.value))
            }
        };
        let sum = if k > MAX_LISTED_TERMS {
            let head: Vec<String> = self.terms[..3].iter().map(term).collect();
            let tail: Vec<String> = self.terms[k - 2..].iter().map(term).collect();
            format!("{} + … + {}", head.join(" + "), tail.join(" + "))
        } else {
            self.terms.iter().map(term).collect::<Vec<_>>().join(" + ")
        };
        let rhs = match (equal, k > MAX_LISTED_TERMS) {
            (true, _) => format!("({sum})/{k}"),
            (false, true) => format!("{sum} ({k} terms)"),
            (false, false) => sum,
        };
        format!("x{} ← {} = {}", self.node, rhs, format_number(self.result))
    }
}

/// The most terms [`NodeUpdate::text`] writes out; a longer sum shows its
/// ends around "…".
pub const MAX_LISTED_TERMS: usize = 16;

/// One decentralised SGD step computed three ways from the same x and
/// gradients g (all evaluated at the current local models x).
#[derive(Clone, Debug, PartialEq)]
pub struct DsgdStep {
    /// Local models before the step.
    pub x: Vec<f64>,
    /// Local gradients g_i = ∇f_i(x_i).
    pub gradients: Vec<f64>,
    /// Learning rate η.
    pub eta: f64,
    /// Mixed models W x.
    pub mixed: Vec<f64>,
    /// The course's convention: x_i ← Σ_j W_ij x_j − η g_i (gradient at the
    /// current local model, mix, then subtract). This is D-PSGD (Lian, Zhang,
    /// Zhang, Hsieh, Zhang & Liu 2017, "Can decentralized algorithms
    /// outperform centralized algorithms?", Algorithm 1).
    pub mix_then_step: Vec<f64>,
    /// The alternative order: x_i ← Σ_j W_ij (x_j − η g_j) (local gradient
    /// step, then mix; "adapt-then-combine" in diffusion terms).
    pub step_then_mix: Vec<f64>,
    /// No communication: x_i − η g_i.
    pub local_only: Vec<f64>,
}

/// Computes one decentralised SGD step in both orders and without mixing.
///
/// # Errors
/// [`ConsensusError::LengthMismatch`] when `x` or `gradients` do not have p entries;
/// [`ConsensusError::InvalidMatrix`] when η is not finite.
pub fn dsgd_step(
    m: &MixingMatrix,
    x: &[f64],
    gradients: &[f64],
    eta: f64,
) -> Result<DsgdStep, ConsensusError> {
    let mixed = m.try_apply(x)?;
    if gradients.len() != x.len() {
        return Err(ConsensusError::LengthMismatch {
            expected: x.len(),
            got: gradients.len(),
        });
    }
    if !eta.is_finite() {
        return Err(ConsensusError::InvalidMatrix(
            "the learning rate η must be finite".into(),
        ));
    }
    let local_only: Vec<f64> = x.iter().zip(gradients).map(|(a, g)| a - eta * g).collect();
    Ok(DsgdStep {
        mix_then_step: mixed
            .iter()
            .zip(gradients)
            .map(|(a, g)| a - eta * g)
            .collect(),
        step_then_mix: m.apply(&local_only),
        mixed,
        local_only,
        x: x.to_vec(),
        gradients: gradients.to_vec(),
        eta,
    })
}

/// One node's D-SGD step written out with its numbers (see [`dsgd_explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DsgdExplanation {
    /// The node.
    pub node: usize,
    /// The mixing: `mix ← (3 + 6 + 12)/3 = 7`.
    pub mixed: String,
    /// The course's convention: `x1 ← 7 − 0.5 × 2 = 6`.
    pub mix_then_step: String,
    /// No mixing: `x1 ← 6 − 0.5 × 2 = 5`.
    pub local_only: String,
    /// The alternative order: `x1 ← ((3 − 0.5 × 0) + (6 − 0.5 × 2) + (12 − 0.5 × 1))/3 = (3 + 5 + 11.5)/3 = 6.5`.
    pub step_then_mix: String,
}

/// Writes node `node`'s part of a [`DsgdStep`] as arithmetic. `None` when
/// `node` ≥ p or the step does not belong to `m`.
pub fn dsgd_explain(m: &MixingMatrix, step: &DsgdStep, node: usize) -> Option<DsgdExplanation> {
    let mix = NodeUpdate::new(m, &step.x, node)?;
    let text = mix.text();
    let rhs = text.split_once(" ← ").map_or(text.as_str(), |(_, r)| r);
    let eta = format_number(step.eta);
    let g = |j: usize| step.gradients.get(j).copied().unwrap_or(0.0);
    let xk = *step.x.get(node)?;
    let mixed_k = *step.mixed.get(node)?;
    let k = mix.terms.len();
    let equal = mix
        .terms
        .iter()
        .all(|t| (t.weight - 1.0 / k as f64).abs() <= 1e-12);
    let stepped: Vec<String> = mix
        .terms
        .iter()
        .map(|t| {
            format!(
                "({} − {eta} × {})",
                format_number(t.value),
                format_number(g(t.from))
            )
        })
        .collect();
    let after: Vec<String> = mix
        .terms
        .iter()
        .map(|t| format_number(t.value - step.eta * g(t.from)))
        .collect();
    let result = format_number(*step.step_then_mix.get(node)?);
    let step_then_mix = if equal {
        format!(
            "x{node} ← ({})/{k} = ({})/{k} = {result}",
            stepped.join(" + "),
            after.join(" + ")
        )
    } else {
        let w: Vec<String> = mix
            .terms
            .iter()
            .zip(&after)
            .map(|(t, a)| format!("{}·{a}", format_weight(t.weight)))
            .collect();
        format!("x{node} ← {} = {result}", w.join(" + "))
    };
    Some(DsgdExplanation {
        node,
        mixed: format!("mix ← {rhs}"),
        mix_then_step: format!(
            "x{node} ← {} − {eta} × {} = {}",
            format_number(mixed_k),
            format_number(g(node)),
            format_number(*step.mix_then_step.get(node)?)
        ),
        local_only: format!(
            "x{node} ← {} − {eta} × {} = {}",
            format_number(xk),
            format_number(g(node)),
            format_number(*step.local_only.get(node)?)
        ),
        step_then_mix,
    })
}

#[cfg(test)]
mod tests {
    use super::super::graph::{Graph, GraphKind};
    use super::super::weights::{mixing_matrix, WeightRule};
    use super::super::{predicted_rounds, spectrum};
    use super::*;

    fn ring(p: usize) -> MixingMatrix {
        let g = Graph::new(GraphKind::Ring, p, 0).expect("ring");
        mixing_matrix(&g, WeightRule::Uniform).expect("uniform")
    }

    #[test]
    fn course_four_worker_ring() {
        let m = ring(4);
        let x0 = [0.0, 3.0, 6.0, 9.0];
        let rs = iterate(&m, &x0, 5, Some(1.0 / 3.0)).expect("iterate");
        assert_eq!(rs[1].values, vec![4.0, 3.0, 6.0, 5.0]);
        // round 2 by hand: (5+4+3)/3, (4+3+6)/3, (3+6+5)/3, (6+5+4)/3
        let r2 = [4.0, 13.0 / 3.0, 14.0 / 3.0, 5.0];
        for (a, b) in rs[2].values.iter().zip(r2) {
            assert!((a - b).abs() < 1e-12);
        }
        // ‖x0 − 4.5·1‖ = √45 = 6.708; ‖(−.5,−1.5,1.5,.5)‖ = √5 = 2.236; √5/3 = 0.745
        assert!((rs[0].disagreement - 45f64.sqrt()).abs() < 1e-12);
        assert!((rs[1].disagreement - 5f64.sqrt()).abs() < 1e-12);
        assert!((rs[2].disagreement - 5f64.sqrt() / 3.0).abs() < 1e-12);
        assert_eq!(
            [rs[0].disagreement, rs[1].disagreement, rs[2].disagreement]
                .map(|d| (d * 1000.0).round() / 1000.0),
            [6.708, 2.236, 0.745]
        );
        assert!(rs.iter().all(|s| (s.mean - 4.5).abs() < 1e-12));
        // the bound: ρ^1·√45 = 2.236 — tight from round 1 on here
        let b1 = rs[1].bound.expect("bound");
        assert!((b1 - 45f64.sqrt() / 3.0).abs() < 1e-12 && rs[1].disagreement <= b1 + 1e-12);
        assert_eq!(rounds_to_factor(&m, &x0, 100.0, 1000), Some(5));
        assert_eq!(predicted_rounds(1.0 / 3.0, 100.0), Some(5));
    }

    #[test]
    fn course_narration() {
        let m = ring(4);
        let u = NodeUpdate::new(&m, &[0.0, 3.0, 6.0, 9.0], 0).expect("node 0");
        assert_eq!(u.text(), "x0 ← (9 + 0 + 3)/3 = 4");
        assert_eq!(
            u.terms.iter().map(|t| t.from).collect::<Vec<_>>(),
            vec![3, 0, 1]
        );
        let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
        let mh = mixing_matrix(&g, WeightRule::Metropolis).expect("mh");
        let u = NodeUpdate::new(&mh, &[0.0, 3.0, 6.0, 9.0], 1).expect("leaf");
        assert_eq!(u.text(), "x1 ← 1/4·0 + 3/4·3 = 2.25");
        assert!(NodeUpdate::new(&m, &[0.0; 4], 9).is_none());
    }

    #[test]
    fn long_sums_show_their_ends() {
        // complete graph, uniform weights 1/p; x_i = i + 1. Node 0's terms
        // run by offset −(p−1)/2 … +(p−1)/2: nodes p/2+1 … p−1, 0, 1 … p/2.
        let values = |p: usize| (1..=p).map(|v| v as f64).collect::<Vec<_>>();
        let complete = |p| {
            let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
            mixing_matrix(&g, WeightRule::Uniform).expect("uniform")
        };
        // 16 terms are listed: 10 … 16, 1 … 9 (node 9 … 15, 0 … 8); 136/16
        let u = NodeUpdate::new(&complete(16), &values(16), 0).expect("node 0");
        assert_eq!(
            u.text(),
            "x0 ← (10 + 11 + 12 + 13 + 14 + 15 + 16 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9)/16 = 8.5"
        );
        // 17: 10 … 17, 1 … 9, summed whole: 153/17 = 9
        let u = NodeUpdate::new(&complete(17), &values(17), 0).expect("node 0");
        assert_eq!(u.text(), "x0 ← (10 + 11 + 12 + … + 8 + 9)/17 = 9");
        // unequal weights say how many terms there are: lazy Metropolis on
        // the complete graph of 17 keeps (1 + 1/17)/2 = 9/17 and gives each
        // other node 1/34: 9/17 · 1 + (2 + … + 17)/34 = (18 + 152)/34 = 5
        let g = Graph::new(GraphKind::Complete, 17, 0).expect("complete");
        let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("lazy");
        let u = NodeUpdate::new(&lazy, &values(17), 0).expect("node 0");
        assert_eq!(
            u.text(),
            "x0 ← 1/34·10 + 1/34·11 + 1/34·12 + … + 1/34·8 + 1/34·9 (17 terms) = 5"
        );
    }

    #[test]
    fn course_dsgd_example() {
        // Node 1 of a 3-ring holds 6, neighbours 3 and 12, weights 1/3, g = 2, η = 0.5.
        let m = ring(3);
        let s = dsgd_step(&m, &[3.0, 6.0, 12.0], &[0.0, 2.0, 1.0], 0.5).expect("step");
        assert!((s.mixed[1] - 7.0).abs() < 1e-12);
        assert!((s.mix_then_step[1] - 6.0).abs() < 1e-12);
        assert!((s.local_only[1] - 5.0).abs() < 1e-12);
        // gradient step first: (3 − 0 + 6 − 1 + 12 − 0.5)/3 = 19.5/3 = 6.5
        assert!((s.step_then_mix[1] - 6.5).abs() < 1e-12);
        assert!(dsgd_step(&m, &[1.0, 2.0, 3.0], &[1.0], 0.5).is_err());
        let e = dsgd_explain(&m, &s, 1).expect("node 1");
        assert_eq!(e.mixed, "mix ← (3 + 6 + 12)/3 = 7");
        assert_eq!(e.mix_then_step, "x1 ← 7 − 0.5 × 2 = 6");
        assert_eq!(e.local_only, "x1 ← 6 − 0.5 × 2 = 5");
        assert_eq!(
            e.step_then_mix,
            "x1 ← ((3 − 0.5 × 0) + (6 − 0.5 × 2) + (12 − 0.5 × 1))/3 = (3 + 5 + 11.5)/3 = 6.5"
        );
        assert!(dsgd_explain(&m, &s, 3).is_none());
    }

    #[test]
    fn ring_p8_measured_rounds_follow_the_prediction() {
        let g = Graph::new(GraphKind::Ring, 8, 0).expect("ring");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
        let s = spectrum(&g, &m).expect("spectrum");
        let x0 = InitPattern::Linear.values(8).expect("linear");
        let measured = rounds_to_factor(&m, &x0, 100.0, 1000).expect("converges");
        let predicted = predicted_rounds(s.rho, 100.0).expect("ρ < 1");
        assert_eq!(predicted, 22);
        // the bound guarantees measured ≤ predicted
        assert!(measured <= predicted && measured >= 15, "{measured}");
    }

    #[test]
    fn init_patterns() {
        assert_eq!(
            InitPattern::Linear.values(4).expect("p4"),
            vec![0.0, 3.0, 6.0, 9.0]
        );
        let a = InitPattern::Random(1).values(5).expect("random");
        assert_eq!(a, InitPattern::Random(1).values(5).expect("random"));
        assert!(a.iter().all(|v| (0.0..10.0).contains(v)));
        assert!(InitPattern::List(vec![1.0]).values(2).is_err());
    }

    #[test]
    fn number_formats() {
        use crate::core::units::format::{format_rate, format_small};
        assert_eq!(format_number(4.0), "4");
        assert_eq!(format_number(4.5), "4.5");
        assert_eq!(format_number(0.74535599), "0.7454");
        assert_eq!(format_number(-1.25), "−1.25");
        assert_eq!(format_number(-0.00001), "0");
        assert_eq!(format_weight(1.0 / 3.0), "1/3");
        assert_eq!(format_weight(5.0 / 12.0), "5/12");
        assert_eq!(format_weight(1.0), "1");
        assert_eq!(format_weight(0.123456789), "≈ 0.1235");
        assert_eq!(format_rate(1.0 / 3.0), "≈ 0.3333 = 1/3");
        assert_eq!(format_rate(1.0 - 2.5114e-5), "1 − 2.511e-5");
        assert_eq!(format_rate(0.8047378541), "≈ 0.8047");
        assert_eq!(format_small(2.5114e-5), "2.511e-5");
        assert_eq!(format_small(0.4), "0.4");
    }
}
