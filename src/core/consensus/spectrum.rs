//! Eigenvalues of a mixing matrix, ρ and the spectral gap.
//!
//! For doubly stochastic W, the matrix J = 11ᵀ/p commutes with W (WJ = J = JW),
//! so the eigenvalues of W − J are those of W with one eigenvalue 1 replaced
//! by 0, and ρ = max |λ| over the remaining eigenvalues (Xiao & Boyd 2004,
//! "Fast linear iterations for distributed averaging", §2). The same holds
//! for a row-stochastic W with 1πᵀ in place of J.
//!
//! This file holds the result types ([`Spectrum`], [`SpectrumMethod`]), the
//! dispatch that picks a method for a graph and its W ([`spectrum`],
//! [`spectrum_or_rho`]) and the rounds a factor-F reduction takes
//! ([`predicted_rounds`]). The methods live beside it: `closed_form`
//! (circulant, hypercube, path, star), `tridiagonal` (the O(p²) symmetric
//! tridiagonal solver), `dense` (nalgebra's O(p³) decompositions) and
//! `lanczos` (ρ alone).

use super::graph::{Graph, GraphKind};
use super::weights::MixingMatrix;
use super::ConsensusError;

mod closed_form;
mod dense;
mod lanczos;
mod tridiagonal;

pub use closed_form::{
    circulant_eigenvalues, hypercube_eigenvalues, path_eigenvalues, star_eigenvalues,
};
pub use dense::{dense_eigenvalues, real_dense_eigenvalues, symmetric_eigenvalues};
pub use lanczos::{rho_lanczos, RhoEstimate, LANCZOS_FULL_MAX_P};
pub use tridiagonal::{symmetric_tridiagonal_eigenvalues, tridiagonal_w_eigenvalues};

/// An eigenvalue `re + i·im`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eigenvalue {
    /// Real part.
    pub re: f64,
    /// Imaginary part (0 for symmetric W).
    pub im: f64,
}

impl Eigenvalue {
    /// Modulus |λ|.
    pub fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
}

/// How the eigenvalues were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpectrumMethod {
    /// Closed form for a matrix invariant under the translations of
    /// Z_rows × Z_cols (ring, complete, exponential graph: 1 × p; torus):
    /// λ_{k,l} = Σ_{(a,b)} c_{a,b} · exp(2πi(ak/rows + bl/cols)), with c the
    /// first row of W (Gray 2006, "Toeplitz and circulant matrices: a
    /// review", §3.1; the 2-D case is the Kronecker-sum form). For the ring
    /// with self weight a and neighbour weight b this is a + 2b·cos(2πk/p).
    Circulant,
    /// Closed form for the hypercube: λ_k = Σ_s c_s (−1)^{popcount(s ∧ k)}
    /// (W is diagonalised by the Walsh–Hadamard basis).
    Hypercube,
    /// nalgebra's symmetric eigen-decomposition of W (W = Wᵀ).
    SymmetricEigen,
    /// W is reversible (π_i W_ij = π_j W_ji) but not symmetric, e.g. uniform
    /// weights on a star: the symmetric matrix D^{1/2} W D^{−1/2}, D = diag(π),
    /// has the same eigenvalues and is decomposed instead.
    Symmetrised,
    /// General real Schur decomposition (nalgebra), complex eigenvalues:
    /// [`dense_eigenvalues`] only. [`spectrum`] never takes it: every W the
    /// weight rules make is symmetric, reversible or has a closed form (a
    /// test runs every graph and rule), so no page carries the Schur code
    /// (about 4.9 KB of the gossip page gzipped).
    Schur,
    /// Closed form for a path whose W = I − c·L (L the path Laplacian; the
    /// Metropolis–Hastings, lazy and max-degree rules): λ_k = 1 − 2c(1 −
    /// cos(πk/p)), k = 0 … p − 1, from the path Laplacian's eigenvalues
    /// 2 − 2cos(πk/p) (Brouwer & Haemers 2012, "Spectra of Graphs", §1.4.4).
    /// Used above [`DENSE_MAX_P`].
    Path,
    /// Closed form for a star whose leaves all carry the same weights (every
    /// weight rule): the differences of two leaves are eigenvectors with the
    /// leaves' self weight c (multiplicity p − 2); on span{hub, sum of leaves}
    /// W acts as the 2 × 2 matrix [[a, (p − 1)b], [e, c]] (a hub self weight,
    /// b hub → leaf, e leaf → hub), whose two eigenvalues complete the
    /// spectrum. Used above [`DENSE_MAX_P`].
    Star,
    /// A tridiagonal W (a path with, e.g., uniform weights) made symmetric by a
    /// diagonal similarity (off-diagonals √(W_{i,i+1} W_{i+1,i}); Wilkinson
    /// 1965, "The Algebraic Eigenvalue Problem", §5.11), then the rational
    /// QL method with implicit shifts on the tridiagonal matrix
    /// ([`symmetric_tridiagonal_eigenvalues`]: EISPACK `tqlrat`, Reinsch 1973;
    /// Golub & Van Loan 2013, §8.3): O(p²) instead of O(p³). Used above
    /// [`DENSE_MAX_P`].
    Tridiagonal,
    /// ρ alone by [`rho_lanczos`] (no eigenvalue list): chosen by
    /// [`spectrum_or_rho`] when only the dense decomposition would give every
    /// eigenvalue and p is above its limit.
    LanczosRho,
}

/// Largest p for which [`spectrum`] uses the dense nalgebra decomposition on
/// a path or star (under a millisecond); above it the structured methods
/// [`SpectrumMethod::Path`], [`SpectrumMethod::Star`] and
/// [`SpectrumMethod::Tridiagonal`] take over (tested equal to the dense
/// result to 1e-9 for every p ≤ 64).
pub const DENSE_MAX_P: usize = 64;

impl SpectrumMethod {
    /// Short description for the screen.
    pub fn describe(self) -> &'static str {
        match self {
            SpectrumMethod::Circulant => "closed-form circulant spectrum",
            SpectrumMethod::Hypercube => "closed-form hypercube (Walsh–Hadamard) spectrum",
            SpectrumMethod::SymmetricEigen => "symmetric eigen-decomposition, computed numerically",
            SpectrumMethod::Symmetrised => {
                "symmetric eigen-decomposition of D^½ W D^−½, computed numerically"
            }
            SpectrumMethod::Schur => {
                "real Schur decomposition, complex eigenvalues, computed numerically"
            }
            SpectrumMethod::Path => "closed-form path spectrum (1 − 2c(1 − cos πk/p))",
            SpectrumMethod::Star => "closed-form star spectrum (leaf differences + a 2 × 2 block)",
            SpectrumMethod::Tridiagonal => {
                "symmetrised tridiagonal W, rational QL with implicit shifts"
            }
            SpectrumMethod::LanczosRho => "ρ only, by the Lanczos method (no eigenvalue list)",
        }
    }
}

/// The spectrum of W and the rate of consensus.
#[derive(Clone, Debug, PartialEq)]
pub struct Spectrum {
    /// All p eigenvalues, sorted by real part (descending), then imaginary part.
    pub eigenvalues: Vec<Eigenvalue>,
    /// How they were computed.
    pub method: SpectrumMethod,
    /// ρ: the largest |λ| once one eigenvalue 1 is removed, i.e. the spectral
    /// radius of W − 11ᵀ/p (doubly stochastic W) or of W − 1πᵀ (row-stochastic W).
    pub rho: f64,
    /// Spectral gap 1 − ρ.
    pub gap: f64,
    /// True when every imaginary part is 0 (within 1e-12).
    pub real: bool,
    /// True when ‖x_r − x̄1‖₂ ≤ ρ^r ‖x_0 − x̄1‖₂ is guaranteed for every r: W
    /// doubly stochastic and normal (symmetric, or circulant).
    pub bound_guaranteed: bool,
}

/// Computes the spectrum of `m`, the mixing matrix of `graph`: the closed
/// form when the graph is a ring, torus, complete or exponential graph (or a
/// hypercube) and W has the matching translation symmetry, otherwise
/// nalgebra's symmetric eigen-decomposition of W, or of D^½ W D^−½ for a
/// reversible W ([`real_dense_eigenvalues`]). Every W the weight rules make
/// is one of these; the real Schur form a general W would need is
/// [`dense_eigenvalues`]'s, which no page links.
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when the iterative decomposition does
/// not converge, or when W has no closed form and is neither symmetric nor
/// reversible (only a W built with [`MixingMatrix::from_dense`] can be);
/// [`ConsensusError::LengthMismatch`] when `graph` and `m` have different
/// sizes.
pub fn spectrum(graph: &Graph, m: &MixingMatrix) -> Result<Spectrum, ConsensusError> {
    if graph.p != m.p() {
        return Err(ConsensusError::LengthMismatch {
            expected: graph.p,
            got: m.p(),
        });
    }
    let closed = match (graph.circulant_shape(), graph.kind) {
        (Some((rows, cols)), _) => {
            circulant_eigenvalues(m, rows, cols).map(|e| (e, SpectrumMethod::Circulant))
        }
        (None, GraphKind::Hypercube) => {
            hypercube_eigenvalues(m).map(|e| (e, SpectrumMethod::Hypercube))
        }
        (None, GraphKind::Path) if graph.p > DENSE_MAX_P => path_eigenvalues(m)
            .map(|e| (e, SpectrumMethod::Path))
            .or_else(|| tridiagonal_w_eigenvalues(m).map(|e| (e, SpectrumMethod::Tridiagonal))),
        (None, GraphKind::Star) if graph.p > DENSE_MAX_P => {
            star_eigenvalues(m).map(|e| (e, SpectrumMethod::Star))
        }
        _ => None,
    };
    let circulant = closed.is_some();
    let (eig, method) = match closed {
        Some(c) => c,
        None => real_dense_eigenvalues(m)?.ok_or_else(|| {
            ConsensusError::EigenFailed(format!(
                "this {p}×{p} W is neither symmetric nor reversible and has no closed-form spectrum; no weight rule makes such a W",
                p = m.p()
            ))
        })?,
    };
    let doubly = m.is_row_stochastic() && m.is_column_stochastic();
    let normal = m.is_symmetric() || circulant;
    Ok(finish(eig, method, doubly && normal))
}

/// Largest p for which [`spectrum_or_rho`] runs a dense O(p³)
/// decomposition (a random graph at p = 256: about 40 ms natively).
pub const DENSE_LIST_MAX_P: usize = 256;

/// [`spectrum`], except that when only the dense O(p³) decomposition would
/// give the eigenvalues (e.g. a random graph) and `p > dense_max_p`, ρ alone
/// is computed by [`rho_lanczos`]: the result then has an **empty**
/// `eigenvalues` list and method [`SpectrumMethod::LanczosRho`]; `rho`,
/// `gap`, `real` and `bound_guaranteed` keep their meaning. Closed forms
/// (ring, torus, complete, exponential, hypercube, path, star) are always
/// used in full. Pass [`DENSE_LIST_MAX_P`] for the default.
///
/// # Errors
/// As [`spectrum`]; [`ConsensusError::EigenFailed`] also when W is neither
/// symmetric nor reversible above `dense_max_p`.
pub fn spectrum_or_rho(
    graph: &Graph,
    m: &MixingMatrix,
    dense_max_p: usize,
) -> Result<Spectrum, ConsensusError> {
    let structured = graph.circulant_shape().is_some()
        || matches!(
            graph.kind,
            GraphKind::Hypercube | GraphKind::Path | GraphKind::Star
        );
    if structured || graph.p <= dense_max_p || graph.p != m.p() {
        return spectrum(graph, m);
    }
    let r = rho_lanczos(m)?;
    let doubly = m.is_row_stochastic() && m.is_column_stochastic();
    Ok(Spectrum {
        eigenvalues: Vec::new(),
        method: SpectrumMethod::LanczosRho,
        rho: r.rho,
        gap: r.gap,
        real: true,
        bound_guaranteed: doubly && m.is_symmetric(),
    })
}

/// Sorts the eigenvalues, finds ρ and the gap. A real or imaginary part of
/// at most 1e-12 is rounding error (every |λ| ≤ 1 here, and the sums that
/// give λ carry errors of about p · 2⁻⁵³) and is set to 0: W = J/p then
/// has ρ = 0, not 5.6e-17.
fn finish(mut eig: Vec<Eigenvalue>, method: SpectrumMethod, bound_guaranteed: bool) -> Spectrum {
    for e in &mut eig {
        if e.im.abs() <= 1e-12 {
            e.im = 0.0;
        }
        if e.re.abs() <= 1e-12 {
            e.re = 0.0;
        }
    }
    // Real part descending, then imaginary part descending: two stable
    // passes, the second key first.
    crate::core::order::sort_by_key(&mut eig, |e| !crate::core::order::f64_key(e.im));
    crate::core::order::sort_by_key(&mut eig, |e| !crate::core::order::f64_key(e.re));
    let one = eig
        .iter()
        .enumerate()
        .map(|(i, e)| (i, (e.re - 1.0).hypot(e.im)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i);
    let rho = eig
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != one)
        .map(|(_, e)| e.abs())
        .fold(0.0, f64::max);
    Spectrum {
        real: eig.iter().all(|e| e.im == 0.0),
        eigenvalues: eig,
        method,
        rho,
        gap: 1.0 - rho,
        bound_guaranteed,
    }
}

/// Rounds predicted for a `factor`-fold reduction of the disagreement:
/// ⌈ln F / ln(1/ρ)⌉ (from ρ^r ≤ 1/F). `Some(0)` for F ≤ 1, `Some(1)` for
/// ρ = 0 (exact consensus after one round), `None` when ρ ≥ 1 (no consensus)
/// or an input is not finite.
pub fn predicted_rounds(rho: f64, factor: f64) -> Option<usize> {
    if !rho.is_finite() || !factor.is_finite() || !(0.0..1.0).contains(&rho) {
        return None;
    }
    if factor <= 1.0 {
        return Some(0);
    }
    if rho == 0.0 {
        return Some(1);
    }
    let r = factor.ln() / (1.0 / rho).ln();
    // tolerate rounding when the ratio is an integer, e.g. ρ = 0.1, F = 100
    Some((r - 1e-9).ceil().max(1.0) as usize)
}

#[cfg(test)]
mod tests;
