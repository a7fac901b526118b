//! Model comparison of annotated logs, and one α, β, γ fitted to several
//! algorithms at once.
//!
//! Every algorithm's closed form (Thakur, Rabenseifner & Gropp 2005, as the
//! registry states it: [`Algorithm::flat_factors`]) is linear in the machine
//! parameters: `T(n) = a·α + b·n·β + g·n·γ` with α the start-up (s), β the
//! transfer time (s/B) and γ the reduction time (s/B), `n` in bytes. One
//! log of one algorithm only pins down `a·α` and `b·β + g·γ`; two or more
//! algorithms with different `(a, b, g)` on the same machine and p separate
//! α, β and γ. [`joint_fit`] is linear least squares in **relative error**
//! (every row weighted by 1/t², so a 4 MiB time does not drown the 8 B
//! ones), made robust by Huber re-weighting (k = 1.345 robust standard
//! deviations of ln(t/model): a noisy row counts less), solved
//! through the 3×3 normal equations with columns scaled to unit norm. When the unconstrained γ comes out negative it is refitted
//! with γ = 0 and the result says so; a β ≤ 0 is an error.
//!
//! Units: sizes in bytes, times in seconds, β and γ in seconds per byte.

use super::fit::huber_line;
use super::lsq::{huber_weights, mad_scale, relative_lsq, Singular};
use crate::core::collectives::Algorithm;
use crate::core::units::decimal;

/// A measured time against its closed form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowModel {
    /// Size, bytes.
    pub n: f64,
    /// Measured time, s.
    pub measured: f64,
    /// Closed-form time at the fitted parameters, s.
    pub model: f64,
    /// measured / model (1 = the model is exact).
    pub ratio: f64,
}

/// One annotated log against its algorithm's closed form at the α, β
/// fitted to it (γ folded into β: a single log cannot separate them).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The algorithm of the annotation.
    pub alg: Algorithm,
    /// Ranks.
    pub p: usize,
    /// `[a, b, g]` of the closed form at `p`.
    pub factors: [f64; 3],
    /// Fitted α, s.
    pub alpha: f64,
    /// Fitted β, s/B (the slope over b: it includes any reduction cost).
    pub beta: f64,
    /// Size by size.
    pub rows: Vec<RowModel>,
}

/// Fits α, β to `pts` (`(n B, t s)`) through `alg`'s closed form at `p`
/// (Huber fit on relative residuals, [`huber_line`], on `t = a·α + b·n·β`)
/// and compares every row with the prediction.
///
/// # Errors
/// A sentence when the algorithm follows nodes (no flat closed form: see
/// [`Algorithm::flat_factors`]), its closed form has no start-up or byte term at `p`, or
/// fewer than two points have a positive size and time.
pub fn compare(alg: Algorithm, p: usize, pts: &[(f64, f64)]) -> Result<Comparison, String> {
    let Some(factors) = alg.flat_factors(p) else {
        return Err(format!(
            "{} follows the nodes of a topology: its closed form needs the node shape, which the annotation (alg, p) does not give",
            alg.label()
        ));
    };
    let [a, b, _] = factors;
    if !(a > 0.0 && b > 0.0) {
        return Err(format!(
            "{} at p = {p} has no start-up or byte term to fit",
            alg.label()
        ));
    }
    let good: Vec<(f64, f64)> = pts
        .iter()
        .copied()
        .filter(|&(n, t)| n > 0.0 && t > 0.0 && n.is_finite() && t.is_finite())
        .collect();
    let line: Vec<(f64, f64)> = good.iter().map(|&(n, t)| (b * n, t)).collect();
    let (c0, beta, _) = huber_line(&line).ok_or_else(|| {
        "fewer than two rows with a positive size and time: nothing to fit".to_string()
    })?;
    let alpha = c0 / a;
    let rows = good
        .iter()
        .map(|&(n, t)| {
            let model = a * alpha + b * n * beta;
            RowModel {
                n,
                measured: t,
                model,
                ratio: t / model,
            }
        })
        .collect();
    Ok(Comparison {
        alg,
        p,
        factors,
        alpha,
        beta,
        rows,
    })
}

/// One log of a joint fit.
#[derive(Clone, Debug, PartialEq)]
pub struct JointLog {
    /// Display name (e.g. "log 1: ring").
    pub label: String,
    /// The algorithm whose closed form models it.
    pub alg: Algorithm,
    /// `(n B, t s)` points.
    pub points: Vec<(f64, f64)>,
}

/// A joint-fit log's residuals.
#[derive(Clone, Debug, PartialEq)]
pub struct JointResidual {
    /// The log's label.
    pub label: String,
    /// Its algorithm.
    pub alg: Algorithm,
    /// `[a, b, g]` at p.
    pub factors: [f64; 3],
    /// Root mean square of (t − model)/model over its rows (0.1 = 10 %).
    pub rms_rel: f64,
    /// Size by size.
    pub rows: Vec<RowModel>,
}

impl JointResidual {
    /// The residuals of `log` against `model` (seconds at a size of n
    /// bytes) over its usable rows ([`usable`]); `factors` are its `[a, b, g]`.
    pub(super) fn of(log: &JointLog, factors: [f64; 3], model: impl Fn(f64) -> f64) -> Self {
        let rows: Vec<RowModel> = log
            .points
            .iter()
            .filter(|x| usable(x))
            .map(|&(n, t)| {
                let model = model(n);
                RowModel {
                    n,
                    measured: t,
                    model,
                    ratio: t / model,
                }
            })
            .collect();
        let ss: f64 = rows.iter().map(|r| (r.ratio - 1.0).powi(2)).sum();
        JointResidual {
            label: log.label.clone(),
            alg: log.alg,
            factors,
            rms_rel: (ss / rows.len().max(1) as f64).sqrt(),
            rows,
        }
    }
}

/// A row a fit can use: a positive, finite size and time.
pub(super) fn usable(&(n, t): &(f64, f64)) -> bool {
    n > 0.0 && t > 0.0 && n.is_finite() && t.is_finite()
}

/// The crossover of two algorithms of a joint fit.
#[derive(Clone, Debug, PartialEq)]
pub struct PairCrossover {
    /// Index of the first log (into [`JointFit::logs`]).
    pub a: usize,
    /// Index of the second log.
    pub b: usize,
    /// Predicted break-even size at the joint α, β, γ (bytes), with the log
    /// faster below it; `None` when one is faster at every size up to
    /// [`MAX_CROSSOVER_BYTES`].
    pub predicted: Option<(f64, usize)>,
    /// Sizes (bytes) where the measured times cross, interpolated linearly
    /// in log size and log time between the common sizes on either side
    /// (at most [`MAX_CROSSINGS`]).
    pub measured: Vec<f64>,
}

/// Predicted crossovers above this size (1 TiB) are not reported: one
/// algorithm is faster at every practical size (and a γ fitted as ≈ 0
/// would put the break-even at an absurd size).
pub const MAX_CROSSOVER_BYTES: f64 = 1_099_511_627_776.0;

/// Most measured crossings listed per pair (noisy logs cross often).
pub const MAX_CROSSINGS: usize = 6;

/// One α, β, γ for several logs at the same p.
#[derive(Clone, Debug, PartialEq)]
pub struct JointFit {
    /// Ranks.
    pub p: usize,
    /// α, s.
    pub alpha: f64,
    /// β, s/B.
    pub beta: f64,
    /// γ, s/B.
    pub gamma: f64,
    /// The unconstrained γ (s/B) when it was negative and γ was refitted as 0.
    pub gamma_clamped: Option<f64>,
    /// Per log.
    pub logs: Vec<JointResidual>,
    /// Every pair of logs.
    pub crossovers: Vec<PairCrossover>,
}

/// Why there is no joint fit.
#[derive(Clone, Debug, PartialEq)]
pub enum JointError {
    /// Fewer than two logs or three usable points.
    TooFew,
    /// The log (its label) is of an algorithm that follows nodes: its
    /// closed form needs the node shape ([`Algorithm::flat_factors`]).
    NodeShape(String),
    /// The closed forms do not separate α, β and γ (e.g. the same algorithm
    /// twice, or algorithms whose factors are proportional).
    Degenerate,
    /// The fit gives β ≤ 0 (s/B): the times do not grow with size as the
    /// closed forms say.
    NonPositiveBeta(f64),
}

impl std::fmt::Display for JointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JointError::TooFew => write!(f, "a joint fit needs two logs and three rows with a positive size and time"),
            JointError::NodeShape(l) => write!(f, "{l}: this algorithm follows the nodes of a topology, and the annotation (alg, p) does not give their shape: no closed form to fit"),
            JointError::Degenerate => write!(f, "these algorithms' closed forms do not separate α, β and γ (the same algorithm twice, or proportional factors): annotate logs of different algorithms"),
            JointError::NonPositiveBeta(b) => write!(f, "the joint fit gives β = {} s/B ≤ 0: the times do not grow with size as the closed forms say", decimal::sci(*b, 3)),
        }
    }
}

/// [`relative_lsq`] over the joint fit's three unknowns, singular when the
/// determinant of the unit-norm normal matrix is below 1e-12.
fn solve(rows: &[([f64; 3], f64)], w: &[f64], cols: &[usize]) -> Option<[f64; 3]> {
    relative_lsq(rows, w, cols, Singular::Determinant(1e-12))
}

/// [`solve`] re-weighted by Huber's ψ on the log residuals r = ln(t/model)
/// (20 iterations at most): a row further than k robust deviations from
/// the fit counts as k/|r| of a row, so one noisy size (a time 10× too
/// slow) does not move α, β, γ.
fn huber(rows: &[([f64; 3], f64)], cols: &[usize]) -> Option<[f64; 3]> {
    let mut w = vec![1.0; rows.len()];
    let mut th = solve(rows, &w, cols)?;
    for _ in 0..20 {
        let r: Vec<f64> = rows
            .iter()
            .map(|(x, t)| {
                let pred = x[0] * th[0] + x[1] * th[1] + x[2] * th[2];
                if pred > 0.0 {
                    (t / pred).ln()
                } else {
                    f64::INFINITY
                }
            })
            .collect();
        let s = mad_scale(&r);
        if s.is_nan() || s <= 1e-12 {
            break;
        }
        w = huber_weights(&r, s);
        let next = solve(rows, &w, cols)?;
        let done = (0..3).all(|j| (next[j] - th[j]).abs() <= 1e-9 * th[j].abs());
        th = next;
        if done {
            break;
        }
    }
    Some(th)
}

/// Where the measured times of `a` and `b` cross: at the common sizes
/// (in increasing order; a size listed twice counts once, with its first
/// times), d = ln(t_a / t_b) changes sign; the crossing is interpolated
/// linearly in ln n.
pub fn measured_crossings(a: &[(f64, f64)], b: &[(f64, f64)]) -> Vec<f64> {
    let at = |pts: &[(f64, f64)], n: f64| {
        pts.iter()
            .find(|(m, _)| (m - n).abs() <= 1e-9 * n)
            .map(|p| p.1)
    };
    // The sizes are sorted as plain numbers (the page's one f64 sort).
    let mut sizes: Vec<f64> = a.iter().map(|p| p.0).filter(|&n| n > 0.0).collect();
    crate::core::order::sort_f64(&mut sizes);
    sizes.dedup();
    let d: Vec<(f64, f64)> = sizes
        .into_iter()
        .filter_map(|n| {
            let (ta, tb) = (at(a, n)?, at(b, n)?);
            (ta > 0.0 && tb > 0.0).then(|| (n.ln(), (ta / tb).ln()))
        })
        .collect();
    d.windows(2)
        .filter(|w| w[0].1 * w[1].1 < 0.0 || (w[0].1 != 0.0 && w[1].1 == 0.0))
        .map(|w| {
            let (x0, d0, x1, d1) = (w[0].0, w[0].1, w[1].0, w[1].1);
            (x0 + (x1 - x0) * d0 / (d0 - d1)).exp()
        })
        .take(MAX_CROSSINGS)
        .collect()
}

/// Fits one α (s), β (s/B), γ (s/B) to every log at `p` ranks, each through
/// its own algorithm's closed form `[a, b, g] = alg.flat_factors(p)`: linear
/// least squares in relative error (weights 1/t²); γ < 0 is refitted as
/// γ = 0 (reported in [`JointFit::gamma_clamped`]).
///
/// # Errors
/// [`JointError::TooFew`] for fewer than two logs or three usable rows;
/// [`JointError::Degenerate`] when the factors do not separate the
/// parameters; [`JointError::NonPositiveBeta`] when β ≤ 0.
pub fn joint_fit(p: usize, logs: &[JointLog]) -> Result<JointFit, JointError> {
    let mut rows = Vec::new();
    let mut all_factors = Vec::with_capacity(logs.len());
    for l in logs {
        let [a, b, g] = l
            .alg
            .flat_factors(p)
            .ok_or_else(|| JointError::NodeShape(l.label.clone()))?;
        all_factors.push([a, b, g]);
        for &(n, t) in l.points.iter().filter(|x| usable(x)) {
            rows.push(([a, b * n, g * n], t));
        }
    }
    if logs.len() < 2 || rows.len() < 3 {
        return Err(JointError::TooFew);
    }
    let mut th = huber(&rows, &[0, 1, 2]).ok_or(JointError::Degenerate)?;
    let mut gamma_clamped = None;
    if th[2] < 0.0 {
        gamma_clamped = Some(th[2]);
        th = huber(&rows, &[0, 1]).ok_or(JointError::Degenerate)?;
    }
    let [alpha, beta, gamma] = th;
    if beta <= 0.0 {
        return Err(JointError::NonPositiveBeta(beta));
    }
    let res: Vec<JointResidual> = logs
        .iter()
        .zip(&all_factors)
        .map(|(l, &factors)| {
            let [a, b, g] = factors;
            JointResidual::of(l, factors, |n| a * alpha + n * (b * beta + g * gamma))
        })
        .collect();
    let mut crossovers = Vec::new();
    for i in 0..logs.len() {
        for j in i + 1..logs.len() {
            let ([ai, bi, gi], [aj, bj, gj]) = (res[i].factors, res[j].factors);
            // T_i − T_j = Δa·α + (Δb·β + Δg·γ)·n = 0.
            let (da, ds) = ((ai - aj) * alpha, (bi - bj) * beta + (gi - gj) * gamma);
            let n = -da / ds;
            let predicted =
                (n > 0.0 && n <= MAX_CROSSOVER_BYTES).then_some((n, if da < 0.0 { i } else { j }));
            crossovers.push(PairCrossover {
                a: i,
                b: j,
                predicted,
                measured: measured_crossings(&logs[i].points, &logs[j].points),
            });
        }
    }
    Ok(JointFit {
        p,
        alpha,
        beta,
        gamma,
        gamma_clamped,
        logs: res,
        crossovers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Noise-free times of `alg` at `p` for α (s), β, γ (s/B), 8 B … 4 MiB.
    fn times(alg: Algorithm, p: usize, (al, be, ga): (f64, f64, f64)) -> Vec<(f64, f64)> {
        let [a, b, g] = alg.flat_factors(p).expect("a flat entry");
        (3..=22)
            .map(|k| {
                let n = f64::from(1u32 << k);
                (n, a * al + b * n * be + g * n * ga)
            })
            .collect()
    }

    fn log(alg: Algorithm, pts: Vec<(f64, f64)>) -> JointLog {
        JointLog {
            label: alg.key().into(),
            alg,
            points: pts,
        }
    }

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol * want.abs(), "{got} vs {want}");
    }

    #[test]
    fn the_registry_factors_at_p2_are_the_hand_derived_ones() {
        // ring: 2(p−1) start-ups, 2(p−1)/p·n bytes, (p−1)/p·n reduced;
        // recursive doubling: log₂p of each (Thakur, Rabenseifner & Gropp 2005).
        assert_eq!(Algorithm::RING.flat_factors(2), Some([2.0, 1.0, 0.5]));
        assert_eq!(Algorithm::RD.flat_factors(2), Some([1.0, 1.0, 1.0]));
        assert_eq!(Algorithm::RING.flat_factors(4), Some([6.0, 1.5, 0.75]));
        assert_eq!(Algorithm::RD.flat_factors(4), Some([2.0, 2.0, 2.0]));
    }

    #[test]
    fn a_joint_fit_recovers_alpha_beta_gamma_within_one_percent() {
        // α = 5 µs, β = 0.1 ns/B (10 GB/s), γ = 0.02 ns/B.
        let m = (5e-6, 0.1e-9, 0.02e-9);
        for (p, algs) in [
            (2, vec![Algorithm::RING, Algorithm::RD]),
            (4, vec![Algorithm::RING, Algorithm::RD, Algorithm::RAB]),
            (8, vec![Algorithm::RD, Algorithm::RING, Algorithm::RAB]),
        ] {
            let logs: Vec<JointLog> = algs.iter().map(|&a| log(a, times(a, p, m))).collect();
            let f = joint_fit(p, &logs).expect("a fit");
            close(f.alpha, 5e-6, 0.01);
            close(f.beta, 0.1e-9, 0.01);
            close(f.gamma, 0.02e-9, 0.01);
            assert_eq!(f.gamma_clamped, None);
            assert!(f.logs.iter().all(|l| l.rms_rel < 1e-9));
        }
    }

    #[test]
    fn gamma_explains_a_ring_win_at_p2_and_the_crossover_is_two_alpha_over_gamma() {
        // p = 2: T_ring − T_rd = (2 − 1)·α + (0.5 − 1)·n·γ = 0 at n = 2α/γ;
        // α = 5 µs, γ = 1 ns/B → 10,000 B, rd faster below, ring above.
        let m = (5e-6, 0.1e-9, 1e-9);
        let logs = vec![
            log(Algorithm::RING, times(Algorithm::RING, 2, m)),
            log(Algorithm::RD, times(Algorithm::RD, 2, m)),
        ];
        let f = joint_fit(2, &logs).expect("a fit");
        let x = &f.crossovers[0];
        let (n, below) = x.predicted.expect("a crossover");
        close(n, 10_000.0, 1e-6);
        assert_eq!(below, 1, "rd is faster below");
        // The measured crossing lies between 8 KiB and 16 KiB, interpolated
        // on log size: within 5 % of 10,000 B.
        assert_eq!(x.measured.len(), 1);
        close(x.measured[0], 10_000.0, 0.05);
        // Without γ (pure α–β) the ring never wins: no crossover.
        let ab = vec![
            log(
                Algorithm::RING,
                times(Algorithm::RING, 2, (5e-6, 1e-9, 0.0)),
            ),
            log(Algorithm::RD, times(Algorithm::RD, 2, (5e-6, 1e-9, 0.0))),
        ];
        let f = joint_fit(2, &ab).expect("a fit");
        assert!(f.crossovers[0].predicted.is_none());
        assert!(f.crossovers[0].measured.is_empty());
    }

    #[test]
    fn a_negative_gamma_is_refitted_as_zero_and_said() {
        // Times made with γ = −0.01 ns/B: γ is clamped to 0 and reported.
        let m = (5e-6, 0.1e-9, -0.01e-9);
        let logs = vec![
            log(Algorithm::RING, times(Algorithm::RING, 4, m)),
            log(Algorithm::RD, times(Algorithm::RD, 4, m)),
        ];
        let f = joint_fit(4, &logs).expect("a fit");
        assert_eq!(f.gamma, 0.0);
        let g = f.gamma_clamped.expect("clamped");
        close(g, -0.01e-9, 0.01);
    }

    #[test]
    fn the_same_algorithm_twice_cannot_separate_the_parameters() {
        let m = (5e-6, 0.1e-9, 0.02e-9);
        let t = times(Algorithm::RING, 4, m);
        let logs = vec![log(Algorithm::RING, t.clone()), log(Algorithm::RING, t)];
        assert_eq!(joint_fit(4, &logs), Err(JointError::Degenerate));
        assert_eq!(joint_fit(4, &logs[..1]), Err(JointError::TooFew));
    }

    #[test]
    fn a_comparison_fits_its_own_closed_form_exactly() {
        // ring p = 4, α = 5 µs, β = 0.1 ns/B, no γ: ratio 1 at every size.
        let t = times(Algorithm::RING, 4, (5e-6, 0.1e-9, 0.0));
        let c = compare(Algorithm::RING, 4, &t).expect("a comparison");
        close(c.alpha, 5e-6, 1e-6);
        close(c.beta, 0.1e-9, 1e-6);
        assert!(c.rows.iter().all(|r| (r.ratio - 1.0).abs() < 1e-6));
        assert_eq!(c.rows.len(), 20);
        // 8 B: 6·5 µs + 1.5·8·0.1 ns = 30.0012 µs.
        close(c.rows[0].model, 30.0012e-6, 1e-9);
    }
}
