//! ρ alone, by the Lanczos method: for when the list of all p eigenvalues
//! is not drawn and the dense decomposition would cost O(p³).

use super::tridiagonal::symmetric_tridiagonal_eigenvalues;
use crate::core::consensus::{ConsensusError, MixingMatrix, SplitMix64, CHECK_TOL};

/// ρ alone, for when the chart of all p eigenvalues is not drawn (e.g. a
/// random graph at p = 1024, where the dense decomposition is O(p³)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RhoEstimate {
    /// ρ: the largest |λ| of W on the complement of its eigenvalue 1 (as
    /// [`Spectrum::rho`](super::Spectrum::rho)).
    pub rho: f64,
    /// Spectral gap 1 − ρ.
    pub gap: f64,
    /// Lanczos steps taken (the size of the tridiagonal matrix).
    pub steps: usize,
}

/// ρ of a symmetric or reversible W by the Lanczos method with full
/// reorthogonalization up to [`LANCZOS_FULL_MAX_P`] ranks and local
/// reorthogonalization above (Golub & Van Loan 2013, §10.1 and §10.3.1), run on
/// W restricted to the complement of its eigenvector for 1: the Krylov
/// basis is kept orthogonal to 1/√p (symmetric W) or to √π (reversible W,
/// on D^½ W D^−½ as in
/// [`SpectrumMethod::Symmetrised`](super::SpectrumMethod::Symmetrised)). The
/// extreme Ritz values (eigenvalues of the tridiagonal Lanczos matrix, by
/// [`symmetric_tridiagonal_eigenvalues`]) converge monotonically to the
/// extreme eigenvalues from inside; the iteration stops when ρ changes by
/// at most 1e-13 over 10 steps, or exactly when the Krylov space is
/// invariant. O(steps · (non-zeros + p·steps)) per run instead of O(p³), and
/// O(steps · (non-zeros + p)) above [`LANCZOS_FULL_MAX_P`].
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when W is neither symmetric nor
/// reversible (use [`spectrum`](super::spectrum())) or the tridiagonal
/// eigenvalues do not converge.
pub fn rho_lanczos(m: &MixingMatrix) -> Result<RhoEstimate, ConsensusError> {
    let p = m.p();
    let failed =
        |why: &str| ConsensusError::EigenFailed(format!("Lanczos on the {p}×{p} W: {why}"));
    if p < 2 {
        return Ok(RhoEstimate {
            rho: 0.0,
            gap: 1.0,
            steps: 0,
        });
    }
    // scale[i] = √π_i (1 for symmetric W): the operator is x ↦ D^½ W D^−½ x
    let scale: Vec<f64> = if m.is_symmetric() {
        vec![1.0; p]
    } else {
        let pi = m
            .stationary()
            .map_err(|_| failed("W has no stationary distribution"))?;
        let reversible = pi.iter().all(|&v| v > 0.0)
            && m.rows().iter().enumerate().all(|(i, row)| {
                row.iter()
                    .all(|&(j, v)| (pi[i] * v - pi[j] * m.weight(j, i)).abs() <= CHECK_TOL)
            });
        if !reversible {
            return Err(failed("W is neither symmetric nor reversible"));
        }
        pi.iter().map(|v| v.sqrt()).collect()
    };
    let apply = |x: &[f64]| -> Vec<f64> {
        m.rows()
            .iter()
            .enumerate()
            .map(|(i, row)| scale[i] * row.iter().map(|&(j, v)| v * x[j] / scale[j]).sum::<f64>())
            .collect()
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let norm = |a: &[f64]| dot(a, a).sqrt();
    let top_norm = norm(&scale);
    let mut basis: Vec<Vec<f64>> = vec![scale.iter().map(|v| v / top_norm).collect()];
    // orthogonalize against the whole basis; a second pass only when the
    // first removed more than 1 − 1/√2 of the norm, i.e. cancellation may
    // have left a component behind (Kahan's "twice is enough" test; Parlett
    // 1998, "The Symmetric Eigenvalue Problem", §6.9)
    let reorth = |w: &mut Vec<f64>, basis: &[Vec<f64>]| {
        for _ in 0..2 {
            let before = norm(w);
            for q in basis {
                let c = dot(w, q);
                w.iter_mut().zip(q).for_each(|(x, y)| *x -= c * y);
            }
            if norm(w) >= std::f64::consts::FRAC_1_SQRT_2 * before {
                break;
            }
        }
    };
    let mut rng = SplitMix64::new(0x5eed_1a2c);
    let mut w: Vec<f64> = (0..p).map(|_| rng.next_f64() - 0.5).collect();
    reorth(&mut w, &basis);
    let w_norm = norm(&w);
    if w_norm == 0.0 {
        return Err(failed("no start vector"));
    }
    basis.push(w.iter().map(|v| v / w_norm).collect());
    let (mut alpha, mut beta): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    let mut history: Vec<f64> = Vec::new();
    let ritz_rho = |alpha: &[f64], beta: &[f64]| -> Option<f64> {
        let mut d = alpha.to_vec();
        let mut e = beta.to_vec();
        e.resize(d.len(), 0.0);
        symmetric_tridiagonal_eigenvalues(&mut d, &mut e)
            .then(|| d.iter().fold(0.0, |a: f64, v| a.max(v.abs())))
    };
    loop {
        let k = alpha.len();
        let q = basis.last().cloned().unwrap_or_default();
        let mut w = apply(&q);
        let a = dot(&w, &q);
        alpha.push(a);
        // the three-term recurrence first, so that the full reorthogonalization
        // only removes rounding errors (and rarely needs a second pass)
        let b_prev = beta.last().copied().unwrap_or(0.0);
        let prev = basis.len().checked_sub(2).and_then(|i| basis.get(i));
        for (i, x) in w.iter_mut().enumerate() {
            *x -= a * q[i] + prev.map_or(0.0, |v| b_prev * v[i]);
        }
        reorth(&mut w, &basis);
        let b = norm(&w);
        let invariant = b <= 1e-12 || alpha.len() + 1 >= p;
        let rho = ritz_rho(&alpha, &beta).ok_or_else(|| failed("QL did not converge"))?;
        history.push(rho);
        let stalled = k >= 20 && history.get(k - 10).is_some_and(|old| rho - old <= 1e-13);
        if invariant || stalled {
            return Ok(RhoEstimate {
                rho,
                gap: 1.0 - rho,
                steps: alpha.len(),
            });
        }
        beta.push(b);
        basis.push(w.iter().map(|v| v / b).collect());
        if p > LANCZOS_FULL_MAX_P && basis.len() > 3 {
            // keep the consensus direction and the last two Lanczos vectors
            basis.remove(1);
        }
    }
}

/// Largest p for which [`rho_lanczos`] reorthogonalizes each new Lanczos
/// vector against all earlier ones (O(p·k) per step). Above it, each vector
/// is orthogonalized only against the consensus direction and the two
/// previous vectors (O(p) per step): orthogonality among the Lanczos vectors
/// is then lost as Ritz values converge, which only repeats converged Ritz
/// values ("ghosts") and never moves the extreme ones outside the spectrum
/// (Paige 1980, "Accuracy and effectiveness of the Lanczos algorithm for the
/// symmetric eigenproblem"; Golub & Van Loan 2013, §10.3.1), so ρ converges
/// as before. Tested against the dense spectrum at p = 300 and 400.
pub const LANCZOS_FULL_MAX_P: usize = 256;
