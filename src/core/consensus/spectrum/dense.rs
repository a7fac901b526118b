//! Eigenvalues by dense decomposition (nalgebra, O(p³)): the symmetric
//! eigen-decomposition of a symmetric or reversible W, the real Schur form
//! of any other. The method the structured ones are tested against.

use nalgebra::linalg::Schur;

use super::{Eigenvalue, SpectrumMethod};
use crate::core::consensus::{ConsensusError, MixingMatrix, CHECK_TOL};

/// Eigenvalues by dense decomposition (nalgebra): symmetric eigen for a
/// symmetric or reversible W, real Schur otherwise. Cost O(p³).
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when the decomposition does not converge.
pub fn dense_eigenvalues(
    m: &MixingMatrix,
) -> Result<(Vec<Eigenvalue>, SpectrumMethod), ConsensusError> {
    let p = m.p();
    let max_iter = 200 * p.max(10);
    let failed = || {
        ConsensusError::EigenFailed(format!("the eigenvalues of the {p}×{p} W did not converge"))
    };
    let symmetric_of = |s: nalgebra::DMatrix<f64>| -> Result<Vec<Eigenvalue>, ConsensusError> {
        symmetric_eigenvalues(&s)
            .map(|v| v.into_iter().map(|re| Eigenvalue { re, im: 0.0 }).collect())
            .ok_or_else(failed)
    };
    if m.is_symmetric() {
        return Ok((
            symmetric_of(m.dense().clone())?,
            SpectrumMethod::SymmetricEigen,
        ));
    }
    if let Ok(pi) = m.stationary() {
        let reversible = pi.iter().all(|&v| v > 0.0)
            && m.rows().iter().enumerate().all(|(i, row)| {
                row.iter()
                    .all(|&(j, v)| (pi[i] * v - pi[j] * m.weight(j, i)).abs() <= CHECK_TOL)
            });
        if reversible {
            let sq: Vec<f64> = pi.iter().map(|v| v.sqrt()).collect();
            let mut s = m.dense().clone();
            for i in 0..p {
                for j in 0..p {
                    s[(i, j)] *= sq[i] / sq[j];
                }
            }
            // exact symmetry for the decomposition (it reads the lower triangle)
            let s = (&s + s.transpose()) * 0.5;
            return Ok((symmetric_of(s)?, SpectrumMethod::Symmetrised));
        }
    }
    let schur = Schur::try_new(m.dense().clone(), f64::EPSILON, max_iter).ok_or_else(failed)?;
    let eig = schur
        .complex_eigenvalues()
        .iter()
        .map(|c| Eigenvalue { re: c.re, im: c.im })
        .collect();
    Ok((eig, SpectrumMethod::Schur))
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
