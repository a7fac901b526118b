//! A small synthetic linear least-squares problem split over unequal shards.
//!
//! Per-sample loss ℓ(w; x, y) = ½ (xᵀw − y)², with w, x ∈ ℝᵈ (d ≤ 10). The
//! local mean loss of shard k is a quadratic
//!
//! ```text
//! L_k(w) = (1/n_k) Σ_{i∈S_k} ½ (x_iᵀw − y_i)² = ½ wᵀA_k w − b_kᵀw + c_k,
//! A_k = (1/n_k) X_kᵀX_k,  b_k = (1/n_k) X_kᵀy_k,  c_k = (1/(2n_k)) ‖y_k‖²,
//! ```
//!
//! so every loss and full-shard gradient (∇L_k = A_k w − b_k) costs O(d²), and
//! the minimiser of any weighted objective Σ_k c_k L_k solves the normal
//! equations (Σ c_k A_k) w = Σ c_k b_k (Cholesky, LU as a fallback; nalgebra).
//!
//! Data are generated from a seed with [`SplitMix64`]:
//! - IID: x ~ N(0, I), y = xᵀw★ + σε on every shard, so the shards differ only by
//!   sampling noise.
//! - non-IID: shard k draws x ~ N(μ_k, s²I) around its own centre μ_k (a random
//!   direction at radius [`CENTRE_RADIUS`]) and labels from its own true
//!   weights w★_k = w★ + τ z_k. Local optima therefore differ, and the
//!   sample-weighted optimum differs from the equal-worker optimum.

use std::fmt;

use nalgebra::{DMatrix, DVector};

use super::rng::SplitMix64;

/// Largest number of workers (shards).
pub const MAX_WORKERS: usize = 32;
/// Largest parameter dimension d.
pub const MAX_DIM: usize = 10;
/// Largest total number of samples N.
pub const MAX_SAMPLES: usize = 200_000;
/// Distance ‖μ_k‖ of each non-IID shard's input centre from the origin.
pub const CENTRE_RADIUS: f64 = 1.5;
/// Per-coordinate standard deviation s of non-IID inputs around their centre.
pub const NON_IID_SPREAD: f64 = 0.6;
/// Standard deviation τ of each non-IID shard's true weights around w★.
pub const WEIGHT_SHIFT: f64 = 1.0;

/// How the synthetic problem is generated.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemConfig {
    /// n_k per shard (samples; each ≥ 1, m = length ≤ [`MAX_WORKERS`]).
    pub shard_sizes: Vec<usize>,
    /// Parameter dimension d, 1..=[`MAX_DIM`].
    pub d: usize,
    /// IID shards (true) or non-IID shards (false).
    pub iid: bool,
    /// Seed of the data generator.
    pub seed: u64,
    /// Label-noise standard deviation σ (≥ 0, finite).
    pub noise: f64,
}

impl Default for ProblemConfig {
    /// The course's shard sizes 600, 300, 100; d = 2; non-IID; seed 1; σ = 0.1.
    fn default() -> Self {
        ProblemConfig {
            shard_sizes: vec![600, 300, 100],
            d: 2,
            iid: false,
            seed: 1,
            noise: 0.1,
        }
    }
}

/// Why a problem cannot be generated or solved.
#[derive(Clone, Debug, PartialEq)]
pub enum ProblemError {
    /// No shards.
    NoShards,
    /// More than [`MAX_WORKERS`] shards.
    TooManyWorkers {
        /// Shards requested.
        m: usize,
    },
    /// A shard with no samples (its local mean loss is undefined).
    EmptyShard {
        /// Shard index (0-based).
        shard: usize,
    },
    /// d outside 1..=[`MAX_DIM`].
    Dimension {
        /// The dimension requested.
        d: usize,
    },
    /// N above [`MAX_SAMPLES`].
    TooManySamples {
        /// The total requested.
        total: usize,
    },
    /// σ negative or not finite.
    BadNoise,
    /// Objective weights of the wrong length, negative, non-finite or all zero.
    BadWeights,
    /// The normal equations are singular (the weighted data do not determine w).
    Singular,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemError::NoShards => write!(f, "the training problem needs at least one shard"),
            ProblemError::TooManyWorkers { m } => {
                write!(
                    f,
                    "at most {MAX_WORKERS} workers are supported (got {m} shards)"
                )
            }
            ProblemError::EmptyShard { shard } => write!(
                f,
                "shard {} has no samples; every training shard needs at least one",
                shard + 1
            ),
            ProblemError::Dimension { d } => {
                write!(f, "d must be from 1 to {MAX_DIM} parameters (got {d})")
            }
            ProblemError::TooManySamples { total } => write!(
                f,
                "at most {MAX_SAMPLES} samples in total are supported (got {total})"
            ),
            ProblemError::BadNoise => write!(f, "the label noise must be a finite number ≥ 0"),
            ProblemError::BadWeights => write!(
                f,
                "objective weights must be one finite, non-negative number per shard, not all zero"
            ),
            ProblemError::Singular => write!(
                f,
                "the normal equations are singular: the data do not determine a unique optimum"
            ),
        }
    }
}

impl std::error::Error for ProblemError {}

/// One worker's data and the quadratic form of its mean loss.
#[derive(Clone, Debug)]
pub struct Shard {
    /// n_k × d inputs, row-major (sample i occupies `x[i*d .. (i+1)*d]`).
    pub x: Vec<f64>,
    /// n_k labels.
    pub y: Vec<f64>,
    /// Centre of this shard's inputs (zero for IID), length d.
    pub centre: Vec<f64>,
    /// The true weights that generated this shard's labels, length d.
    pub true_weights: Vec<f64>,
    /// A_k = (1/n_k) X_kᵀX_k, d × d.
    pub a: DMatrix<f64>,
    /// b_k = (1/n_k) X_kᵀy_k, length d.
    pub b: DVector<f64>,
    /// c_k = (1/(2n_k)) ‖y_k‖².
    pub c: f64,
}

impl Shard {
    /// n_k, samples.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// True when the shard has no samples (never for a generated problem).
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Input row i (length d).
    pub fn row(&self, i: usize) -> &[f64] {
        let d = self.centre.len();
        &self.x[i * d..(i + 1) * d]
    }
}

/// The generated problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The configuration it was generated from.
    pub config: ProblemConfig,
    /// One shard per worker.
    pub shards: Vec<Shard>,
    /// n_k / N per shard.
    pub sample_weights: Vec<f64>,
    /// The common initial model w⁰ (zeros), length d.
    pub initial: Vec<f64>,
    /// The shared true weights w★ (length d).
    pub base_weights: Vec<f64>,
    global_a: DMatrix<f64>,
    global_b: DVector<f64>,
    global_c: f64,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn quadratic(a: &DMatrix<f64>, b: &DVector<f64>, c: f64, w: &[f64]) -> f64 {
    let d = w.len();
    let mut quad = 0.0;
    for i in 0..d {
        let mut row = 0.0;
        for j in 0..d {
            row += a[(i, j)] * w[j];
        }
        quad += w[i] * row;
    }
    let lin: f64 = (0..d).map(|i| b[i] * w[i]).sum();
    0.5 * quad - lin + c
}

impl Problem {
    /// Generates the problem described by `config`.
    ///
    /// # Errors
    /// [`ProblemError::NoShards`], [`ProblemError::TooManyWorkers`],
    /// [`ProblemError::EmptyShard`], [`ProblemError::Dimension`],
    /// [`ProblemError::TooManySamples`], [`ProblemError::BadNoise`].
    pub fn generate(config: &ProblemConfig) -> Result<Problem, ProblemError> {
        let m = config.shard_sizes.len();
        let d = config.d;
        if m == 0 {
            return Err(ProblemError::NoShards);
        }
        if m > MAX_WORKERS {
            return Err(ProblemError::TooManyWorkers { m });
        }
        if let Some(shard) = config.shard_sizes.iter().position(|&n| n == 0) {
            return Err(ProblemError::EmptyShard { shard });
        }
        if d == 0 || d > MAX_DIM {
            return Err(ProblemError::Dimension { d });
        }
        let total: usize = config
            .shard_sizes
            .iter()
            .fold(0usize, |a, &n| a.saturating_add(n));
        if total > MAX_SAMPLES {
            return Err(ProblemError::TooManySamples { total });
        }
        if !config.noise.is_finite() || config.noise < 0.0 {
            return Err(ProblemError::BadNoise);
        }

        let mut rng = SplitMix64::new(config.seed);
        let base_weights: Vec<f64> = (0..d).map(|_| rng.normal()).collect();
        let mut shards = Vec::with_capacity(m);
        for &n in &config.shard_sizes {
            let (centre, spread, true_weights) = if config.iid {
                (vec![0.0; d], 1.0, base_weights.clone())
            } else {
                let mut dir: Vec<f64> = (0..d).map(|_| rng.normal()).collect();
                let norm = dot(&dir, &dir).sqrt();
                if norm > 1e-12 {
                    dir.iter_mut().for_each(|v| *v *= CENTRE_RADIUS / norm);
                } else {
                    dir = vec![0.0; d];
                    dir[0] = CENTRE_RADIUS;
                }
                let tw = base_weights
                    .iter()
                    .map(|w| w + WEIGHT_SHIFT * rng.normal())
                    .collect();
                (dir, NON_IID_SPREAD, tw)
            };
            let mut x = Vec::with_capacity(n * d);
            let mut y = Vec::with_capacity(n);
            for _ in 0..n {
                let start = x.len();
                for c in &centre {
                    x.push(c + spread * rng.normal());
                }
                let label = dot(&x[start..], &true_weights) + config.noise * rng.normal();
                y.push(label);
            }
            let nf = n as f64;
            let mut a = DMatrix::<f64>::zeros(d, d);
            let mut b = DVector::<f64>::zeros(d);
            let mut c = 0.0;
            for i in 0..n {
                let row = &x[i * d..(i + 1) * d];
                for p in 0..d {
                    b[p] += row[p] * y[i];
                    for q in 0..d {
                        a[(p, q)] += row[p] * row[q];
                    }
                }
                c += y[i] * y[i];
            }
            a /= nf;
            b /= nf;
            c /= 2.0 * nf;
            shards.push(Shard {
                x,
                y,
                centre,
                true_weights,
                a,
                b,
                c,
            });
        }
        let sample_weights: Vec<f64> = config
            .shard_sizes
            .iter()
            .map(|&n| n as f64 / total as f64)
            .collect();
        let (global_a, global_b, global_c) = combine(&shards, &sample_weights);
        Ok(Problem {
            config: config.clone(),
            shards,
            sample_weights,
            initial: vec![0.0; d],
            base_weights,
            global_a,
            global_b,
            global_c,
        })
    }

    /// Number of workers m.
    pub fn m(&self) -> usize {
        self.shards.len()
    }

    /// Parameter dimension d.
    pub fn d(&self) -> usize {
        self.initial.len()
    }

    /// N = Σ n_k.
    pub fn total(&self) -> usize {
        self.shards.iter().map(Shard::len).sum()
    }

    /// L_k(w), the mean loss of shard k at w (length d). O(d²).
    pub fn local_loss(&self, k: usize, w: &[f64]) -> f64 {
        let s = &self.shards[k];
        quadratic(&s.a, &s.b, s.c, w)
    }

    /// F(w) = Σ_k (n_k/N) L_k(w), the full-data mean loss. O(d²).
    pub fn global_loss(&self, w: &[f64]) -> f64 {
        quadratic(&self.global_a, &self.global_b, self.global_c, w)
    }

    /// Σ_k `weights[k]` · L_k(w) for arbitrary objective weights (length m).
    pub fn weighted_loss(&self, weights: &[f64], w: &[f64]) -> f64 {
        weights
            .iter()
            .enumerate()
            .map(|(k, c)| c * self.local_loss(k, w))
            .sum()
    }

    /// ∇L_k(w) = A_k w − b_k over the whole shard, written into `out` (length d).
    pub fn full_gradient_into(&self, k: usize, w: &[f64], out: &mut [f64]) {
        let s = &self.shards[k];
        let d = w.len();
        for (i, o) in out.iter_mut().enumerate().take(d) {
            let mut acc = -s.b[i];
            for (j, wj) in w.iter().enumerate() {
                acc += s.a[(i, j)] * wj;
            }
            *o = acc;
        }
    }

    /// Mean gradient over the samples `idx` of shard k:
    /// (1/|idx|) Σ_i (x_iᵀw − y_i) x_i, written into `out` (length d).
    /// An empty `idx` gives zeros.
    pub fn minibatch_gradient_into(&self, k: usize, w: &[f64], idx: &[usize], out: &mut [f64]) {
        let s = &self.shards[k];
        out.iter_mut().for_each(|o| *o = 0.0);
        if idx.is_empty() {
            return;
        }
        for &i in idx {
            let row = s.row(i);
            let r = dot(row, w) - s.y[i];
            for (o, xi) in out.iter_mut().zip(row) {
                *o += r * xi;
            }
        }
        let inv = 1.0 / idx.len() as f64;
        out.iter_mut().for_each(|o| *o *= inv);
    }

    /// argmin_w Σ_k `weights[k]` · L_k(w): solves (Σ c_k A_k) w = Σ c_k b_k.
    ///
    /// # Errors
    /// [`ProblemError::BadWeights`] for weights of the wrong length, negative,
    /// non-finite or all zero; [`ProblemError::Singular`] when the system has no
    /// unique solution.
    pub fn optimum(&self, weights: &[f64]) -> Result<Vec<f64>, ProblemError> {
        if weights.len() != self.m()
            || weights.iter().any(|c| !c.is_finite() || *c < 0.0)
            || weights.iter().all(|c| *c == 0.0)
        {
            return Err(ProblemError::BadWeights);
        }
        let (a, b, _) = combine(&self.shards, weights);
        solve_spd(a, b)
    }

    /// Minimiser of the sample-weighted objective F = Σ (n_k/N) L_k.
    ///
    /// # Errors
    /// [`ProblemError::Singular`] if the data do not determine w.
    pub fn sample_weighted_optimum(&self) -> Result<Vec<f64>, ProblemError> {
        solve_spd(self.global_a.clone(), self.global_b.clone())
    }

    /// Minimiser of the equal-worker objective (1/m) Σ L_k.
    ///
    /// # Errors
    /// [`ProblemError::Singular`] if the data do not determine w.
    pub fn equal_worker_optimum(&self) -> Result<Vec<f64>, ProblemError> {
        let m = self.m() as f64;
        self.optimum(&vec![1.0 / m; self.m()])
    }

    /// Minimiser of shard k's own loss L_k.
    ///
    /// # Errors
    /// [`ProblemError::Singular`] if shard k alone does not determine w
    /// (fewer than d independent samples).
    pub fn local_optimum(&self, k: usize) -> Result<Vec<f64>, ProblemError> {
        let s = &self.shards[k];
        solve_spd(s.a.clone(), s.b.clone())
    }

    /// The largest curvature max_k λ_max(A_k) (symmetric eigenvalues,
    /// nalgebra). Plain gradient steps on any L_k, and on any convex
    /// combination of them, are stable for η < 2 / this value (the standard
    /// bound for gradient descent on a quadratic).
    pub fn max_curvature(&self) -> f64 {
        self.shards
            .iter()
            .map(|s| {
                s.a.clone()
                    .symmetric_eigenvalues()
                    .iter()
                    .copied()
                    .fold(0.0, f64::max)
            })
            .fold(0.0, f64::max)
    }
}

fn combine(shards: &[Shard], weights: &[f64]) -> (DMatrix<f64>, DVector<f64>, f64) {
    let d = shards.first().map_or(0, |s| s.centre.len());
    let mut a = DMatrix::<f64>::zeros(d, d);
    let mut b = DVector::<f64>::zeros(d);
    let mut c = 0.0;
    for (s, w) in shards.iter().zip(weights) {
        a += &s.a * *w;
        b += &s.b * *w;
        c += s.c * w;
    }
    (a, b, c)
}

fn solve_spd(a: DMatrix<f64>, b: DVector<f64>) -> Result<Vec<f64>, ProblemError> {
    // A is symmetric positive semi-definite; treat it as singular when its
    // condition number exceeds 1e12 (the solution would be noise).
    let eig = a.clone().symmetric_eigenvalues();
    let hi = eig.iter().copied().fold(0.0, f64::max);
    let lo = eig.iter().copied().fold(f64::INFINITY, f64::min);
    if hi.is_nan() || lo.is_nan() || hi <= 0.0 || lo <= hi * 1e-12 {
        return Err(ProblemError::Singular);
    }
    let sol = match a.clone().cholesky() {
        Some(ch) => Some(ch.solve(&b)),
        None => a.lu().solve(&b),
    };
    match sol {
        Some(x) if x.iter().all(|v| v.is_finite()) => Ok(x.iter().copied().collect()),
        _ => Err(ProblemError::Singular),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Problem {
        Problem::generate(&ProblemConfig::default()).expect("default config is valid")
    }

    #[test]
    fn generates_unequal_shards_deterministically() {
        let p = small();
        assert_eq!(p.m(), 3);
        assert_eq!(p.d(), 2);
        assert_eq!(p.total(), 1000);
        assert_eq!(p.shards[2].len(), 100);
        assert_eq!(p.sample_weights, vec![0.6, 0.3, 0.1]);
        let q = small();
        assert_eq!(p.shards[1].x, q.shards[1].x);
        assert_eq!(p.shards[1].y, q.shards[1].y);
        let other = Problem::generate(&ProblemConfig {
            seed: 2,
            ..ProblemConfig::default()
        })
        .expect("valid");
        assert_ne!(p.shards[0].y, other.shards[0].y);
    }

    #[test]
    fn quadratic_form_matches_direct_sums() {
        let p = small();
        let w = [0.3, -1.2];
        for k in 0..p.m() {
            let s = &p.shards[k];
            let direct: f64 = (0..s.len())
                .map(|i| 0.5 * (dot(s.row(i), &w) - s.y[i]).powi(2))
                .sum::<f64>()
                / s.len() as f64;
            assert!((p.local_loss(k, &w) - direct).abs() < 1e-10);
            let all: Vec<usize> = (0..s.len()).collect();
            let mut g1 = [0.0; 2];
            let mut g2 = [0.0; 2];
            p.full_gradient_into(k, &w, &mut g1);
            p.minibatch_gradient_into(k, &w, &all, &mut g2);
            assert!((g1[0] - g2[0]).abs() < 1e-10 && (g1[1] - g2[1]).abs() < 1e-10);
        }
        let f = p.global_loss(&w);
        let g = p.weighted_loss(&p.sample_weights, &w);
        assert!((f - g).abs() < 1e-12);
    }

    #[test]
    fn optima_are_stationary_and_differ_when_non_iid() {
        let p = small();
        let ws = p.sample_weighted_optimum().expect("well posed");
        let we = p.equal_worker_optimum().expect("well posed");
        // ∇F(ws) = Σ (n_k/N)(A_k ws − b_k) = 0
        let mut grad = [0.0; 2];
        for k in 0..p.m() {
            let mut g = [0.0; 2];
            p.full_gradient_into(k, &ws, &mut g);
            grad[0] += p.sample_weights[k] * g[0];
            grad[1] += p.sample_weights[k] * g[1];
        }
        assert!(grad[0].abs() < 1e-10 && grad[1].abs() < 1e-10);
        // each optimum is the best point of its own objective
        assert!(p.global_loss(&ws) < p.global_loss(&we));
        let eq = [1.0 / 3.0; 3];
        assert!(p.weighted_loss(&eq, &we) < p.weighted_loss(&eq, &ws));
        let gap = ((ws[0] - we[0]).powi(2) + (ws[1] - we[1]).powi(2)).sqrt();
        assert!(gap > 0.1, "non-IID optima should differ visibly, gap {gap}");
        // local optima near each shard's true weights (σ = 0.1 noise)
        for k in 0..p.m() {
            let wl = p.local_optimum(k).expect("n_k ≫ d");
            let tw = &p.shards[k].true_weights;
            assert!((wl[0] - tw[0]).abs() < 0.1 && (wl[1] - tw[1]).abs() < 0.1);
        }
    }

    #[test]
    fn iid_optima_nearly_agree() {
        let p = Problem::generate(&ProblemConfig {
            iid: true,
            ..ProblemConfig::default()
        })
        .expect("valid");
        let ws = p.sample_weighted_optimum().expect("well posed");
        let we = p.equal_worker_optimum().expect("well posed");
        assert!((ws[0] - we[0]).abs() < 0.03 && (ws[1] - we[1]).abs() < 0.03);
        assert!((ws[0] - p.base_weights[0]).abs() < 0.03);
    }

    #[test]
    fn bad_configs_give_typed_errors() {
        let bad = |f: fn(&mut ProblemConfig)| {
            let mut c = ProblemConfig::default();
            f(&mut c);
            Problem::generate(&c)
                .map(|_| ())
                .expect_err("invalid config")
        };
        assert_eq!(bad(|c| c.shard_sizes.clear()), ProblemError::NoShards);
        assert_eq!(
            bad(|c| c.shard_sizes = vec![5; 33]),
            ProblemError::TooManyWorkers { m: 33 }
        );
        assert_eq!(
            bad(|c| c.shard_sizes = vec![5, 0]),
            ProblemError::EmptyShard { shard: 1 }
        );
        assert_eq!(bad(|c| c.d = 0), ProblemError::Dimension { d: 0 });
        assert_eq!(bad(|c| c.d = 11), ProblemError::Dimension { d: 11 });
        assert_eq!(
            bad(|c| c.shard_sizes = vec![150_000, 60_000]),
            ProblemError::TooManySamples { total: 210_000 }
        );
        assert_eq!(bad(|c| c.noise = f64::NAN), ProblemError::BadNoise);
        let p = small();
        assert_eq!(p.optimum(&[1.0, 0.0]), Err(ProblemError::BadWeights));
        assert_eq!(p.optimum(&[0.0, 0.0, 0.0]), Err(ProblemError::BadWeights));
        assert_eq!(p.optimum(&[1.0, -1.0, 1.0]), Err(ProblemError::BadWeights));
    }

    #[test]
    fn singular_shard_is_reported() {
        // one sample in d = 2: A_k has rank 1
        let p = Problem::generate(&ProblemConfig {
            shard_sizes: vec![1, 50],
            ..ProblemConfig::default()
        })
        .expect("valid");
        assert_eq!(p.local_optimum(0), Err(ProblemError::Singular));
        assert!(p.sample_weighted_optimum().is_ok());
    }
}
