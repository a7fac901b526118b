//! The joint fit with protocol regimes: one eager and one rendezvous
//! regime, each with its own α (s) and β (s/B), a shared γ (s/B) and one
//! breakpoint `b` (bytes per message) shared by every log at the same p
//! ([`crate::core::cost::protocol::Regimes`]).
//!
//! Every log's algorithm gives its critical path as rounds (`count`
//! messages of `share · n` bytes, [`Algorithm::flat_rounds`]); at a
//! breakpoint `b` the time of a row is linear in the parameters,
//! `T(n) = Σ_eager count·(α_e + m·β_e) + Σ_rendezvous count·(α_r + m·β_r) +
//! g·n·γ` ([`protocol::features`]), so for each candidate `b` the fit is
//! linear least squares in relative error (weights 1/t², as the joint fit
//! of [`super::joint`]), made robust by Huber's weights at one scale
//! (k = 1.345 × 1.4826 × the median |relative residual| of the best
//! plain fit), and `b` is the candidate with the lowest Huber objective.
//!
//! Candidates: between every two neighbouring message sizes of the logs,
//! with at least [`MIN_SIDE`] rows on each side. The breakpoint's 95 %
//! interval is every candidate whose deviance `2(H(b) − H(b̂))` (H in units
//! of the scale) stays within 3.84, the χ²₁ quantile (a profile-likelihood
//! interval: Hinkley 1970, "Inference about the change-point in a sequence
//! of random variables", Biometrika 57(1)). A breakpoint can also be given
//! (`eager=`): then it is not searched.
//!
//! The predicted crossover of two algorithms is where their regime times
//! cross: inside a stretch of sizes where no message changes regime the
//! difference is a line (its root), and where a message of one of them
//! crosses `b` the difference can jump sign (the crossover is that size).

use super::joint::{measured_crossings, usable, JointError, JointLog, JointResidual};
use super::lsq::{huber_weights, relative_lsq, Singular, HUBER_K};
use crate::core::collectives::Algorithm;
use crate::core::cost::protocol::{self, Regime, Regimes, Rounds};

/// Fewest rows with a message in each regime for a candidate breakpoint.
pub const MIN_SIDE: usize = 3;
/// The χ²₁ 95 % quantile of the profile-likelihood interval.
pub const CHI2_95: f64 = 3.84;
/// The breakpoint and how well the data pin it down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Breakpoint {
    /// Messages of at least this many bytes are in the second regime (the
    /// upper end of the bracket when searched; the given limit otherwise).
    pub limit: f64,
    /// Largest message size in the first regime and smallest in the second
    /// (bytes): the data cannot place `b` more finely. Equal to `limit`
    /// when given.
    pub bracket: (f64, f64),
    /// The 95 % interval of message sizes (profile likelihood).
    pub interval: (f64, f64),
    /// True when given (`eager=`) rather than found.
    pub given: bool,
}

impl Breakpoint {
    /// The estimate, bytes: the geometric middle of the bracket.
    pub fn estimate(&self) -> f64 {
        (self.bracket.0 * self.bracket.1).sqrt()
    }
}

/// Where two fitted algorithms cross.
#[derive(Clone, Debug, PartialEq)]
pub struct RegimeCrossover {
    /// Index of the first log (into [`RegimeFit::logs`]).
    pub a: usize,
    /// Index of the second.
    pub b: usize,
    /// Sizes (bytes of the tensor) where the regime model's times cross,
    /// inside the common measured sizes.
    pub predicted: Vec<f64>,
    /// Sizes where the measured times cross ([`measured_crossings`]).
    pub measured: Vec<f64>,
}

impl RegimeCrossover {
    /// First predicted / first measured crossover, when both exist.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.predicted.first()? / self.measured.first()?)
    }
}

/// The regime fit of several logs at one p.
#[derive(Clone, Debug, PartialEq)]
pub struct RegimeFit {
    /// Ranks.
    pub p: usize,
    /// The two regimes and their breakpoint (`limit`).
    pub regimes: Regimes,
    /// The breakpoint.
    pub breakpoint: Breakpoint,
    /// Reduction time, s/B.
    pub gamma: f64,
    /// The unconstrained γ when it came out negative and was refitted as 0.
    pub gamma_clamped: Option<f64>,
    /// False when these algorithms' reduced bytes are a fixed share of
    /// their sent bytes, so γ cannot be told from β: γ = 0 and β includes it.
    pub gamma_separable: bool,
    /// Per log, against the regime model.
    pub logs: Vec<JointResidual>,
    /// Every pair of logs.
    pub crossovers: Vec<RegimeCrossover>,
    /// Bayesian information criterion of this fit and of one regime
    /// (`2H + params·ln rows`, H the Huber objective at the same scale):
    /// the regimes are worth their 3 extra parameters when the first is lower.
    pub bic: (f64, f64),
}

/// A log's rounds and reduction factor at p.
struct Shape {
    rounds: Rounds,
    gamma: f64,
}

fn shape(alg: Algorithm, p: usize) -> Option<Shape> {
    let rounds = alg.flat_rounds(p)?;
    let [_, _, g] = alg.flat_factors(p)?;
    Some(Shape { rounds, gamma: g })
}

/// The design rows at breakpoint `b`: `[α_e, β_e, α_r, β_r, γ]` features and t.
fn design(shapes: &[Shape], logs: &[JointLog], b: f64) -> Vec<([f64; 5], f64)> {
    let mut rows = Vec::new();
    for (s, l) in shapes.iter().zip(logs) {
        for &(n, t) in l.points.iter().filter(|x| usable(x)) {
            let [a, c, d, e] = protocol::features(&s.rounds, n, b);
            rows.push(([a, c, d, e, s.gamma * n], t));
        }
    }
    rows
}

/// [`relative_lsq`] over the regime fit's five unknowns, singular when a
/// pivot of the unit-norm normal matrix is below 1e-9.
fn solve(rows: &[([f64; 5], f64)], w: &[f64], cols: &[usize]) -> Option<[f64; 5]> {
    relative_lsq(rows, w, cols, Singular::Pivot(1e-9))
}

fn predict(x: &[f64; 5], th: &[f64; 5]) -> f64 {
    x.iter().zip(th).map(|(a, b)| a * b).sum()
}

/// Relative residuals `(t − model)/t` (the fit's own measure).
fn residuals(rows: &[([f64; 5], f64)], th: &[f64; 5]) -> Vec<f64> {
    rows.iter().map(|(x, t)| (t - predict(x, th)) / t).collect()
}

/// Huber's objective of residuals `r` at scale `s` (in units of `s`).
fn objective(r: &[f64], s: f64) -> f64 {
    let c = HUBER_K;
    r.iter()
        .map(|v| {
            let u = (v / s).abs();
            if u <= c {
                0.5 * u * u
            } else {
                c * u - 0.5 * c * c
            }
        })
        .sum()
}

/// IRLS with Huber weights at the fixed scale `s`.
fn huber(rows: &[([f64; 5], f64)], cols: &[usize], s: f64) -> Option<[f64; 5]> {
    let mut w = vec![1.0; rows.len()];
    let mut th = solve(rows, &w, cols)?;
    for _ in 0..30 {
        let r = residuals(rows, &th);
        w = huber_weights(&r, s);
        let next = solve(rows, &w, cols)?;
        let done = (0..5).all(|j| (next[j] - th[j]).abs() <= 1e-10 * th[j].abs().max(1e-30));
        th = next;
        if done {
            break;
        }
    }
    Some(th)
}

/// The robust scale: [`lsq::mad_scale`](super::lsq::mad_scale), at least 1e-6.
fn mad_scale(r: &[f64]) -> f64 {
    super::lsq::mad_scale(r).max(1e-6)
}

/// Fits γ when it comes out non-negative, else refits without it (also
/// when γ cannot be told from β: two algorithms whose reduced bytes are
/// the same share of their sent bytes, as ring and Rabenseifner at p = 4);
/// a negative α of a regime is refitted as 0 too. Returns the parameters,
/// the clamped γ, and whether γ was separable.
fn fit_at(rows: &[([f64; 5], f64)], s: f64) -> Option<([f64; 5], Option<f64>, bool)> {
    let mut cols = vec![0, 1, 2, 3, 4];
    let mut clamped = None;
    let (mut th, separable) = match huber(rows, &cols, s) {
        Some(th) => (th, true),
        None => {
            cols.retain(|&c| c != 4);
            (huber(rows, &cols, s)?, false)
        }
    };
    if th[4] < 0.0 {
        clamped = Some(th[4]);
        cols.retain(|&c| c != 4);
        th = huber(rows, &cols, s)?;
    }
    for a in [0, 2] {
        if th[a] < 0.0 {
            cols.retain(|&c| c != a);
            th = huber(rows, &cols, s)?;
        }
    }
    Some((th, clamped, separable))
}

/// Every candidate breakpoint: `(largest eager message, limit)` pairs
/// between neighbouring message sizes with [`MIN_SIDE`] rows on each side.
fn candidates(shapes: &[Shape], logs: &[JointLog]) -> Vec<(f64, f64)> {
    let mut sizes: Vec<f64> = Vec::new();
    for (s, l) in shapes.iter().zip(logs) {
        for &(n, _) in l.points.iter().filter(|x| usable(x)) {
            sizes.extend(s.rounds.iter().map(|&(_, share)| share * n));
        }
    }
    crate::core::order::sort_f64(&mut sizes);
    sizes.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
    sizes
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&(_, b)| {
            let rows = design(shapes, logs, b);
            let eager = rows.iter().filter(|(x, _)| x[0] > 0.0).count();
            let rndv = rows.iter().filter(|(x, _)| x[2] > 0.0).count();
            eager >= MIN_SIDE && rndv >= MIN_SIDE
        })
        .collect()
}

/// The regime time of a log's algorithm at `n` bytes with the regime of
/// each round taken at `at` bytes (so the difference of two algorithms is
/// one line between two regime changes).
fn time_at(s: &Shape, r: &Regimes, gamma: f64, n: f64, at: f64) -> f64 {
    s.rounds
        .iter()
        .map(|&(count, share)| {
            let g = r.of(share * at);
            count * (g.alpha + share * n * g.beta)
        })
        .sum::<f64>()
        + s.gamma * n * gamma
}

/// Where the regime times of `a` and `b` cross between `lo` and `hi`
/// bytes (module doc), in increasing order.
fn predicted_crossings(
    a: &Shape,
    b: &Shape,
    r: &Regimes,
    gamma: f64,
    lo: f64,
    hi: f64,
) -> Vec<f64> {
    let mut ev: Vec<f64> = a
        .rounds
        .iter()
        .chain(&b.rounds)
        .map(|&(_, share)| r.limit / share)
        .filter(|&e| e > lo && e < hi)
        .collect();
    ev.push(lo);
    ev.push(hi);
    crate::core::order::sort_f64(&mut ev);
    ev.dedup();
    let d = |n: f64, at: f64| time_at(a, r, gamma, n, at) - time_at(b, r, gamma, n, at);
    let mut out = Vec::new();
    for (k, w) in ev.windows(2).enumerate() {
        let (x0, x1) = (w[0], w[1]);
        let mid = (x0 * x1).sqrt();
        let (d0, d1) = (d(x0, mid), d(x1, mid));
        // A jump at x0: the left piece ends with the other sign.
        if k > 0 {
            let left = d(x0, (ev[k - 1] * x0).sqrt());
            if left * d0 < 0.0 {
                out.push(x0);
            }
        }
        if d0 * d1 < 0.0 {
            out.push(x0 + (x1 - x0) * d0 / (d0 - d1));
        }
    }
    out
}

/// Every pair of logs: the regime model's crossovers inside their common
/// measured sizes, and the measured ones.
fn pair_crossovers(
    logs: &[JointLog],
    shapes: &[Shape],
    regimes: &Regimes,
    gamma: f64,
) -> Vec<RegimeCrossover> {
    let mut crossovers = Vec::new();
    for i in 0..logs.len() {
        for j in i + 1..logs.len() {
            let measured = measured_crossings(&logs[i].points, &logs[j].points);
            let common = |f: fn(f64, f64) -> f64, init: f64| {
                logs[i]
                    .points
                    .iter()
                    .filter(|x| usable(x))
                    .filter(|(n, _)| {
                        logs[j]
                            .points
                            .iter()
                            .any(|(m, _)| (m - n).abs() <= 1e-9 * n)
                    })
                    .map(|x| x.0)
                    .fold(init, f)
            };
            let (lo, hi) = (common(f64::min, f64::INFINITY), common(f64::max, 0.0));
            let predicted = if lo < hi {
                predicted_crossings(&shapes[i], &shapes[j], regimes, gamma, lo, hi)
            } else {
                Vec::new()
            };
            crossovers.push(RegimeCrossover {
                a: i,
                b: j,
                predicted,
                measured,
            });
        }
    }
    crossovers
}

/// Fits two regimes with a shared breakpoint to every log at `p`
/// (module doc); `given` fixes the breakpoint (bytes per message).
///
/// # Errors
/// [`JointError::TooFew`] for fewer than two logs, too few rows, or no
/// candidate with [`MIN_SIDE`] rows in each regime;
/// [`JointError::NodeShape`] for an algorithm that follows nodes;
/// [`JointError::Degenerate`] when no candidate separates the parameters;
/// [`JointError::NonPositiveBeta`] when a regime's β ≤ 0.
pub fn regime_fit(
    p: usize,
    logs: &[JointLog],
    given: Option<f64>,
) -> Result<RegimeFit, JointError> {
    let shapes: Vec<Shape> = logs
        .iter()
        .map(|l| shape(l.alg, p).ok_or_else(|| JointError::NodeShape(l.label.clone())))
        .collect::<Result<_, _>>()?;
    if logs.len() < 2 {
        return Err(JointError::TooFew);
    }
    let cands: Vec<(f64, f64)> = match given {
        Some(b) if b > 0.0 && b.is_finite() => vec![(b, b)],
        _ => candidates(&shapes, logs),
    };
    // The scale: the best plain least-squares candidate's residuals.
    let ones = |rows: &[([f64; 5], f64)]| vec![1.0; rows.len()];
    let mut scale = None::<(f64, f64)>;
    for &(_, b) in &cands {
        let rows = design(&shapes, logs, b);
        let th = solve(&rows, &ones(&rows), &[0, 1, 2, 3, 4])
            .or_else(|| solve(&rows, &ones(&rows), &[0, 1, 2, 3]));
        if let Some(th) = th {
            let r = residuals(&rows, &th);
            let sse: f64 = r.iter().map(|v| v * v).sum();
            if scale.is_none_or(|(best, _)| sse < best) {
                scale = Some((sse, mad_scale(&r)));
            }
        }
    }
    let s = scale
        .ok_or(if cands.is_empty() {
            JointError::TooFew
        } else {
            JointError::Degenerate
        })?
        .1;
    type Scored = ((f64, f64), f64, [f64; 5], Option<f64>, bool);
    let mut scored: Vec<Scored> = Vec::new();
    for &c in &cands {
        let rows = design(&shapes, logs, c.1);
        if let Some((th, clamped, sep)) = fit_at(&rows, s) {
            scored.push((c, objective(&residuals(&rows, &th), s), th, clamped, sep));
        }
    }
    let best = scored
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .ok_or(JointError::Degenerate)?;
    let ((m_lo, limit), h_min, th, gamma_clamped, gamma_separable) = best;
    for b in [th[1], th[3]] {
        if b <= 0.0 {
            return Err(JointError::NonPositiveBeta(b));
        }
    }
    let inside: Vec<&Scored> = scored
        .iter()
        .filter(|x| 2.0 * (x.1 - h_min) <= CHI2_95)
        .collect();
    let interval = (
        inside.iter().map(|x| x.0 .0).fold(m_lo, f64::min),
        inside.iter().map(|x| x.0 .1).fold(limit, f64::max),
    );
    let regimes = Regimes {
        limit,
        eager: Regime {
            alpha: th[0],
            beta: th[1],
        },
        rendezvous: Regime {
            alpha: th[2],
            beta: th[3],
        },
    };
    let gamma = th[4];
    let rows = design(&shapes, logs, limit);
    let single = design(&shapes, logs, f64::INFINITY);
    let h_single = huber(&single, &[0, 1, 4], s)
        .or_else(|| huber(&single, &[0, 1], s))
        .map(|t1| objective(&residuals(&single, &t1), s))
        .unwrap_or(f64::INFINITY);
    let ln_n = (rows.len().max(1) as f64).ln();
    let bic = (2.0 * h_min + 6.0 * ln_n, 2.0 * h_single + 3.0 * ln_n);
    let res: Vec<JointResidual> = logs
        .iter()
        .zip(&shapes)
        .map(|(l, sh)| {
            JointResidual::of(l, l.alg.flat_factors(p).unwrap_or([0.0; 3]), |n| {
                regimes.time(&sh.rounds, n, sh.gamma, gamma)
            })
        })
        .collect();
    let crossovers = pair_crossovers(logs, &shapes, &regimes, gamma);
    Ok(RegimeFit {
        p,
        regimes,
        breakpoint: Breakpoint {
            limit,
            bracket: (m_lo, limit),
            interval,
            given: given.is_some(),
        },
        gamma,
        gamma_clamped,
        gamma_separable,
        logs: res,
        crossovers,
        bic,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::cost::protocol::Rendezvous;

    /// Times of `alg` at p under α = 1 µs, β = 0.25 ns/B, γ = 0.05 ns/B and
    /// Open MPI's 4 KiB rule (h = 2α), 4 B … 16 MiB.
    fn times(alg: Algorithm, p: usize) -> Vec<(f64, f64)> {
        let r = Rendezvous::default().regimes(1e-6, 0.25e-9);
        let rounds = alg.flat_rounds(p).expect("flat");
        let g = alg.flat_factors(p).expect("flat")[2];
        (2..=24)
            .map(|k| {
                let n = f64::from(1u32 << k);
                (n, r.time(&rounds, n, g, 0.05e-9))
            })
            .collect()
    }

    fn log(alg: Algorithm, p: usize) -> JointLog {
        JointLog {
            label: alg.key().into(),
            alg,
            points: times(alg, p),
        }
    }

    #[test]
    fn exact_regime_times_give_back_the_regimes_and_the_breakpoint() {
        for (p, algs) in [
            (2, [Algorithm::RING, Algorithm::RD]),
            (4, [Algorithm::RING, Algorithm::RAB]),
        ] {
            let logs: Vec<JointLog> = algs.iter().map(|&a| log(a, p)).collect();
            let f = regime_fit(p, &logs, None).expect("a fit");
            // Message sizes are powers of two: 4096 B is the first in the
            // rendezvous regime, 2048 B the last eager one.
            assert_eq!(f.breakpoint.bracket, (2048.0, 4096.0), "p = {p}");
            assert!((f.regimes.eager.alpha - 1e-6).abs() < 1e-12);
            assert!((f.regimes.rendezvous.alpha - 3e-6).abs() < 1e-12);
            // At p = 4 ring and Rabenseifner both reduce half the bytes they
            // send (0.75n of 1.5n): γ folds into β, 0.25 + 0.05/2 ns/B.
            let (beta, gamma) = if p == 2 {
                (0.25e-9, 0.05e-9)
            } else {
                (0.275e-9, 0.0)
            };
            assert_eq!(f.gamma_separable, p == 2);
            assert!((f.regimes.rendezvous.beta - beta).abs() < 1e-18);
            assert!((f.gamma - gamma).abs() < 1e-18);
            assert!(f.logs.iter().all(|l| l.rms_rel < 1e-9));
            assert!(f.bic.0 < f.bic.1);
        }
    }

    #[test]
    fn ring_overtakes_recursive_doubling_where_rd_goes_rendezvous_first() {
        // p = 2: rd sends one message of n bytes, the ring two of n/2. With
        // α = 1 µs, β = 0.25 ns/B, γ = 0.05 ns/B: below 4096 B both are
        // eager and rd (α + nβ + nγ) beats the ring (2α + nβ + nγ/2) by
        // α − nγ/2 > 0; at n = 4096 rd goes rendezvous (+2α) while the
        // ring's 2048-byte messages stay eager: the ring wins from 4096 B,
        // a jump. At n = 8192 the ring pays two handshakes (+4α) against
        // rd's one: rd wins again, until the ring's halved reduction wins:
        // 2·3α + nβ + nγ/2 = 3α + nβ + nγ at n = 6α/γ = 120 000 B.
        let logs = vec![log(Algorithm::RING, 2), log(Algorithm::RD, 2)];
        let f = regime_fit(2, &logs, Some(4096.0)).expect("a fit");
        assert!(f.breakpoint.given && f.gamma_separable);
        let x = &f.crossovers[0];
        assert_eq!(x.predicted.len(), 3);
        assert_eq!(x.predicted[..2], [4096.0, 8192.0]);
        assert!(
            (x.predicted[2] - 120_000.0).abs() < 1e-6,
            "{:?}",
            x.predicted
        );
        // Measured (the same exact times on powers of two): interpolated
        // in log size between 2 and 4 KiB, 4 and 8 KiB, 64 and 128 KiB.
        assert_eq!(x.measured.len(), 3);
        assert!(x.measured[0] > 2048.0 && x.measured[0] < 4096.0);
        let r = x.ratio().expect("both");
        assert!((1.0..2.0).contains(&r), "{r}");
    }
}
