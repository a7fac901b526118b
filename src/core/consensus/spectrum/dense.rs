//! Eigenvalues by dense decomposition (nalgebra, O(p³)): the symmetric
//! eigen-decomposition of a symmetric or reversible W
//! ([`real_dense_eigenvalues`], what the pages use), and the real Schur form
//! of any other ([`dense_eigenvalues`], what the structured methods are
//! tested against).

use nalgebra::linalg::Schur;

use super::{Eigenvalue, SpectrumMethod};
use crate::core::consensus::{ConsensusError, MixingMatrix, CHECK_TOL};

/// Eigenvalues by dense decomposition (nalgebra): symmetric eigen for a
/// symmetric or reversible W, real Schur otherwise. Cost O(p³).
///
/// The pages never need the real Schur form: [`super::spectrum`] takes
/// [`real_dense_eigenvalues`], and every W the weight rules make is
/// symmetric, reversible or has a closed form. This function is what the
/// closed forms, the complex ones included, are tested against.
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when the decomposition does not converge.
pub fn dense_eigenvalues(
    m: &MixingMatrix,
) -> Result<(Vec<Eigenvalue>, SpectrumMethod), ConsensusError> {
    if let Some(real) = real_dense_eigenvalues(m)? {
        return Ok(real);
    }
    let p = m.p();
    let schur = Schur::try_new(m.dense().clone(), f64::EPSILON, 200 * p.max(10))
        .ok_or_else(|| did_not_converge(p))?;
    let eig = schur
        .complex_eigenvalues()
        .iter()
        .map(|c| Eigenvalue { re: c.re, im: c.im })
        .collect();
    Ok((eig, SpectrumMethod::Schur))
}

/// [`ConsensusError::EigenFailed`] for a p × p W.
fn did_not_converge(p: usize) -> ConsensusError {
    ConsensusError::EigenFailed(format!("the eigenvalues of the {p}×{p} W did not converge"))
}

/// Eigenvalues by nalgebra's symmetric eigen-decomposition of a symmetric
/// W ([`SpectrumMethod::SymmetricEigen`]) or of D^½ W D^−½ for a reversible
/// one (π_i W_ij = π_j W_ji, D = diag(π); [`SpectrumMethod::Symmetrised`]):
/// all real. `Ok(None)` for any other W, whose eigenvalues may be complex
/// ([`dense_eigenvalues`] takes the real Schur form for it). Cost O(p³).
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when the decomposition does not converge.
pub fn real_dense_eigenvalues(
    m: &MixingMatrix,
) -> Result<Option<(Vec<Eigenvalue>, SpectrumMethod)>, ConsensusError> {
    let p = m.p();
    let symmetric_of = |s: nalgebra::DMatrix<f64>| -> Result<Vec<Eigenvalue>, ConsensusError> {
        symmetric_eigenvalues(&s)
            .map(|v| v.into_iter().map(|re| Eigenvalue { re, im: 0.0 }).collect())
            .ok_or_else(|| did_not_converge(p))
    };
    if m.is_symmetric() {
        return Ok(Some((
            symmetric_of(m.dense().clone())?,
            SpectrumMethod::SymmetricEigen,
        )));
    }
    let Ok(pi) = m.stationary() else {
        return Ok(None);
    };
    let reversible = pi.iter().all(|&v| v > 0.0)
        && m.rows().iter().enumerate().all(|(i, row)| {
            row.iter()
                .all(|&(j, v)| (pi[i] * v - pi[j] * m.weight(j, i)).abs() <= CHECK_TOL)
        });
    if !reversible {
        return Ok(None);
    }
    let sq: Vec<f64> = pi.iter().map(|v| v.sqrt()).collect();
    let mut s = m.dense().clone();
    for i in 0..p {
        for j in 0..p {
            s[(i, j)] *= sq[i] / sq[j];
        }
    }
    // exact symmetry for the decomposition (it reads the lower triangle)
    let s = (&s + s.transpose()) * 0.5;
    Ok(Some((symmetric_of(s)?, SpectrumMethod::Symmetrised)))
}

/// Eigenvalues of a symmetric matrix, in no particular order, by nalgebra's
/// symmetric eigen-decomposition (Householder tridiagonalisation + implicit
/// QR; Golub & Van Loan 2013, §8.3). `None` for a non-square or non-finite
/// matrix.
pub fn symmetric_eigenvalues(m: &nalgebra::DMatrix<f64>) -> Option<Vec<f64>> {
    if !m.is_square() || m.iter().any(|v| !v.is_finite()) {
        return None;
    }
    Some(m.clone().symmetric_eigenvalues().iter().copied().collect())
}
