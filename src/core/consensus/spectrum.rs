//! Eigenvalues of a mixing matrix, ρ and the spectral gap.
//!
//! For doubly stochastic W, the matrix J = 11ᵀ/p commutes with W (WJ = J = JW),
//! so the eigenvalues of W − J are those of W with one eigenvalue 1 replaced
//! by 0, and ρ = max |λ| over the remaining eigenvalues (Xiao & Boyd 2004,
//! "Fast linear iterations for distributed averaging", §2). The same holds
//! for a row-stochastic W with 1πᵀ in place of J.

use nalgebra::linalg::Schur;

use super::graph::{Graph, GraphKind};
use super::weights::{MixingMatrix, CHECK_TOL};
use super::ConsensusError;

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
    /// General real Schur decomposition (nalgebra), complex eigenvalues.
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
            SpectrumMethod::SymmetricEigen => "symmetric eigen-decomposition (nalgebra)",
            SpectrumMethod::Symmetrised => "symmetric eigen-decomposition of D^½ W D^−½ (nalgebra)",
            SpectrumMethod::Schur => "real Schur decomposition, complex eigenvalues (nalgebra)",
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
/// hypercube) and W has the matching translation symmetry, otherwise dense
/// nalgebra decompositions.
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when the iterative decomposition does
/// not converge; [`ConsensusError::LengthMismatch`] when `graph` and `m`
/// have different sizes.
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
        None => dense_eigenvalues(m)?,
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
    eig.sort_by(|a, b| b.re.total_cmp(&a.re).then(b.im.total_cmp(&a.im)));
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

/// Closed-form eigenvalues of a W invariant under translations of
/// Z_rows × Z_cols (node r·cols + c ↔ (r, c)); see [`SpectrumMethod::Circulant`].
/// O(p · non-zeros per row). `None` when rows·cols ≠ p or W lacks the symmetry.
pub fn circulant_eigenvalues(
    m: &MixingMatrix,
    rows: usize,
    cols: usize,
) -> Option<Vec<Eigenvalue>> {
    let p = m.p();
    if rows == 0 || cols == 0 || rows * cols != p {
        return None;
    }
    // stencil: offsets (a, b) with weight c_{a,b} = W_{0, a·cols + b}
    let row0 = m.row(0)?;
    let stencil: Vec<(usize, usize, f64)> =
        row0.iter().map(|&(j, v)| (j / cols, j % cols, v)).collect();
    // W = d·I + b·(J − I) is invariant under every permutation: no check
    // (and its other rows are never written)
    let verify = m.complete_form().is_none();
    let mut dense: Vec<Option<f64>> = vec![None; if verify { p } else { 0 }];
    let checked: &[Vec<(usize, f64)>] = if verify { m.rows() } else { &[] };
    for &(j, v) in row0.iter().filter(|_| verify) {
        *dense.get_mut(j)? = Some(v);
    }
    for (i, row) in checked.iter().enumerate() {
        if row.len() != stencil.len() {
            return None;
        }
        let (r, c) = (i / cols, i % cols);
        for &(j, v) in row {
            let a = (j / cols + rows - r) % rows;
            let b = (j % cols + cols - c) % cols;
            let s = (*dense.get(a * cols + b)?)?;
            if (s - v).abs() > 1e-15 {
                return None;
            }
        }
    }
    let tau = std::f64::consts::TAU;
    // cos and sin of every angle 2π(i/rows + j/cols) that occurs, computed
    // once (p pairs instead of p × non-zeros; the same expression, so the
    // same bits as evaluating them in the sum)
    let table: Vec<(f64, f64)> = (0..p)
        .map(|ij| {
            let ang = tau * ((ij / cols) as f64 / rows as f64 + (ij % cols) as f64 / cols as f64);
            (ang.cos(), ang.sin())
        })
        .collect();
    let mut out = Vec::with_capacity(p);
    // (a·k) mod rows and (b·l) mod cols of every stencil entry, stepped by
    // addition instead of two divisions per term (the same table entries)
    let mut ak = vec![0usize; stencil.len()];
    let mut bl = vec![0usize; stencil.len()];
    for _k in 0..rows {
        bl.iter_mut().for_each(|x| *x = 0);
        for _l in 0..cols {
            out.push(circulant_eigenvalue(&stencil, &ak, &mut bl, &table, cols)?);
        }
        for (x, &(a, _, _)) in ak.iter_mut().zip(&stencil) {
            *x += a;
            if *x >= rows {
                *x -= rows;
            }
        }
    }
    Some(out)
}

/// One eigenvalue of [`circulant_eigenvalues`]: the stencil's weights times
/// the table's cos and sin at `(a·k mod rows)·cols + (b·l mod cols)`,
/// summed in stencil order; then `bl` steps to the next l. `None` when an
/// index falls outside the table.
///
/// Not inlined, on purpose: the browser first runs WebAssembly from a quick
/// baseline compile and only later calls of a function get its optimised
/// code, so one call per eigenvalue (1 024 calls of 1 024 terms for the
/// complete graph at p = 1 024) speeds up after the first few, where one
/// long loop would run in baseline code to the end. The sums are the same.
#[inline(never)]
fn circulant_eigenvalue(
    stencil: &[(usize, usize, f64)],
    ak: &[usize],
    bl: &mut [usize],
    table: &[(f64, f64)],
    cols: usize,
) -> Option<Eigenvalue> {
    let (mut re, mut im) = (0.0, 0.0);
    for ((&(_, _, v), &x), &y) in stencil.iter().zip(ak).zip(bl.iter()) {
        let (c, s) = *table.get(x * cols + y)?;
        re += v * c;
        im += v * s;
    }
    for (y, &(_, b, _)) in bl.iter_mut().zip(stencil) {
        *y += b;
        if *y >= cols {
            *y -= cols;
        }
    }
    Some(Eigenvalue { re, im })
}

/// Closed-form eigenvalues of a W on the hypercube with W_{i, i⊕s} = c_s for
/// every i; see [`SpectrumMethod::Hypercube`]. `None` when p is not a power
/// of two or W lacks the symmetry.
pub fn hypercube_eigenvalues(m: &MixingMatrix) -> Option<Vec<Eigenvalue>> {
    let p = m.p();
    if !p.is_power_of_two() {
        return None;
    }
    let stencil = m.rows().first()?.clone();
    let mut dense: Vec<Option<f64>> = vec![None; p];
    for &(j, v) in &stencil {
        *dense.get_mut(j)? = Some(v);
    }
    for (i, row) in m.rows().iter().enumerate() {
        if row.len() != stencil.len() {
            return None;
        }
        for &(j, v) in row {
            let s = (*dense.get(i ^ j)?)?;
            if (s - v).abs() > 1e-15 {
                return None;
            }
        }
    }
    Some(
        (0..p)
            .map(|k| Eigenvalue {
                re: stencil
                    .iter()
                    .map(|&(s, v)| if (s & k).count_ones() % 2 == 0 { v } else { -v })
                    .sum(),
                im: 0.0,
            })
            .collect(),
    )
}

/// Closed-form eigenvalues of a W on the path 0–1–…–(p−1) of the form
/// I − c·L (every edge weight c, W_ii = 1 − c·deg i); see
/// [`SpectrumMethod::Path`]. `None` when W is not of that form (e.g. uniform
/// weights, whose rows differ at the ends).
pub fn path_eigenvalues(m: &MixingMatrix) -> Option<Vec<Eigenvalue>> {
    let p = m.p();
    if p < 2 {
        return None;
    }
    let c = m.weight(0, 1);
    for (i, row) in m.rows().iter().enumerate() {
        let deg = usize::from(i > 0) + usize::from(i + 1 < p);
        for &(j, v) in row {
            let want = if j == i {
                1.0 - c * deg as f64
            } else if j + 1 == i || i + 1 == j {
                c
            } else {
                return None;
            };
            if (v - want).abs() > 1e-15 {
                return None;
            }
        }
    }
    let pi = std::f64::consts::PI;
    Some(
        (0..p)
            .map(|k| Eigenvalue {
                re: 1.0 - 2.0 * c * (1.0 - (pi * k as f64 / p as f64).cos()),
                im: 0.0,
            })
            .collect(),
    )
}

/// Closed-form eigenvalues of a W on the star with hub 0 whose leaves all
/// have the same self weight, hub → leaf and leaf → hub weights; see
/// [`SpectrumMethod::Star`]. `None` when W lacks that structure.
pub fn star_eigenvalues(m: &MixingMatrix) -> Option<Vec<Eigenvalue>> {
    let p = m.p();
    if p < 2 {
        return None;
    }
    let (a, b, e, c) = (
        m.weight(0, 0),
        m.weight(0, 1),
        m.weight(1, 0),
        m.weight(1, 1),
    );
    let same = |x: f64, y: f64| (x - y).abs() <= 1e-15;
    for (i, row) in m.rows().iter().enumerate() {
        for &(j, v) in row {
            let want = match (i, j) {
                (0, 0) => a,
                (0, _) => b,
                (_, 0) => e,
                _ if i == j => c,
                _ => return None,
            };
            if !same(v, want) {
                return None;
            }
        }
    }
    // the 2 × 2 block [[a, (p − 1)b], [e, c]]: real, since (p − 1)·b·e ≥ 0
    let half_tr = 0.5 * (a + c);
    let disc = (0.25 * (a - c) * (a - c) + (p - 1) as f64 * b * e).max(0.0);
    let root = disc.sqrt();
    let mut out = vec![
        Eigenvalue {
            re: half_tr + root,
            im: 0.0,
        },
        Eigenvalue {
            re: half_tr - root,
            im: 0.0,
        },
    ];
    out.extend((2..p).map(|_| Eigenvalue { re: c, im: 0.0 }));
    Some(out)
}

/// Eigenvalues of a tridiagonal W (W_ij = 0 for |i − j| > 1) whose
/// off-diagonal pairs are non-negative, e.g. any rule on a path; see
/// [`SpectrumMethod::Tridiagonal`]. O(p²). `None` when W is not tridiagonal,
/// has a negative off-diagonal product, or the QL iteration does not
/// converge.
pub fn tridiagonal_w_eigenvalues(m: &MixingMatrix) -> Option<Vec<Eigenvalue>> {
    let p = m.p();
    if m.rows()
        .iter()
        .enumerate()
        .any(|(i, row)| row.iter().any(|&(j, _)| i.abs_diff(j) > 1))
    {
        return None;
    }
    let mut d: Vec<f64> = (0..p).map(|i| m.weight(i, i)).collect();
    let mut off = vec![0.0; p];
    for (i, o) in off.iter_mut().enumerate().take(p.saturating_sub(1)) {
        let prod = m.weight(i, i + 1) * m.weight(i + 1, i);
        if prod < 0.0 {
            return None;
        }
        *o = prod.sqrt();
    }
    symmetric_tridiagonal_eigenvalues(&mut d, &mut off)
        .then(|| d.into_iter().map(|re| Eigenvalue { re, im: 0.0 }).collect())
}

/// Eigenvalues of the symmetric tridiagonal matrix with diagonal `d` and
/// off-diagonal `e` (`e[i]` couples `i` and `i + 1`; `e` as long as `d`, its
/// last entry ignored), by the rational (root-free) QL method with implicit
/// shifts (Reinsch 1973, "A stable, rational QR algorithm for the computation
/// of the eigenvalues of an Hermitian, tridiagonal matrix"; EISPACK
/// `tqlrat`; Golub & Van Loan 2013, §8.3): it works on the squares e_i², so
/// each step of the sweep takes no square root. O(p²) for p eigenvalues,
/// about three times faster than the square-root QL (`tql1`) at p = 1024.
/// On return `d` holds the eigenvalues in ascending order and `e` is
/// overwritten. Returns false when `e` is shorter than `d` or an eigenvalue
/// needs more than 30 iterations.
pub fn symmetric_tridiagonal_eigenvalues(d: &mut [f64], e: &mut [f64]) -> bool {
    let n = d.len();
    let Some(e2) = e.get_mut(..n) else {
        return false;
    };
    e2.iter_mut().for_each(|x| *x *= *x);
    if let Some(last) = e2.last_mut() {
        *last = 0.0;
    }
    // f: the accumulated shift; c: the negligible size of e_i², (ε·t)²
    let (mut f, mut t, mut b, mut c) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for l in 0..n {
        let h = d[l].abs() + e2[l].sqrt();
        if t <= h {
            t = h;
            b = t * f64::EPSILON;
            c = b * b;
        }
        // the first negligible e_m² at or below l (e²[n − 1] = 0 ends the search)
        let mut m = l;
        while m + 1 < n && e2[m] > c {
            m += 1;
        }
        let mut iter = 0;
        if m > l {
            loop {
                iter += 1;
                if iter > 30 {
                    return false;
                }
                // Wilkinson-type shift from the leading 2 × 2 block
                let s = e2[l].sqrt();
                let g = d[l];
                let p = (d[l + 1] - g) / (2.0 * s);
                let r = fast_hypot(p, 1.0);
                d[l] = s / (p + r.copysign(p));
                let h = g - d[l];
                d[l + 1..].iter_mut().for_each(|x| *x -= h);
                f += h;
                // the rational QL sweep from m up to l
                let mut g = d[m];
                if g == 0.0 {
                    g = b;
                }
                let mut h = g;
                let mut s = 0.0;
                for i in (l..m).rev() {
                    let p = g * h;
                    let r = p + e2[i];
                    e2[i + 1] = s * r;
                    s = e2[i] / r;
                    d[i + 1] = h + s * (h + d[i]);
                    g = d[i] - e2[i] / g;
                    if g == 0.0 {
                        g = b;
                    }
                    h = g * p / r;
                }
                e2[l] = s * g;
                d[l] = h;
                // converged (with a guard against underflow in the test)
                if h == 0.0 || e2[l].abs() <= (c / h).abs() {
                    break;
                }
                e2[l] *= h;
                if e2[l] == 0.0 {
                    break;
                }
            }
        }
        // insert the eigenvalue into the sorted d[..l]
        let p = d[l] + f;
        let mut i = l;
        while i > 0 && p < d[i - 1] {
            d[i] = d[i - 1];
            i -= 1;
        }
        d[i] = p;
    }
    true
}

/// √(x² + y²): the square root (one instruction in wasm) when x² + y² is
/// a normal finite number, `f64::hypot` (software libm in wasm, several
/// times slower) only when it would overflow or underflow.
fn fast_hypot(x: f64, y: f64) -> f64 {
    let s = x * x + y * y;
    if s.is_finite() && s >= f64::MIN_POSITIVE {
        s.sqrt()
    } else {
        x.hypot(y)
    }
}

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

/// ρ alone, for when the chart of all p eigenvalues is not drawn (e.g. a
/// random graph at p = 1024, where the dense decomposition is O(p³)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RhoEstimate {
    /// ρ: the largest |λ| of W on the complement of its eigenvalue 1 (as
    /// [`Spectrum::rho`]).
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
/// on D^½ W D^−½ as in [`SpectrumMethod::Symmetrised`]). The extreme Ritz
/// values (eigenvalues of the tridiagonal Lanczos matrix, by
/// [`symmetric_tridiagonal_eigenvalues`]) converge monotonically to the
/// extreme eigenvalues from inside; the iteration stops when ρ changes by
/// at most 1e-13 over 10 steps, or exactly when the Krylov space is
/// invariant. O(steps · (non-zeros + p·steps)) per run instead of O(p³), and
/// O(steps · (non-zeros + p)) above [`LANCZOS_FULL_MAX_P`].
///
/// # Errors
/// [`ConsensusError::EigenFailed`] when W is neither symmetric nor
/// reversible (use [`spectrum`]) or the tridiagonal eigenvalues do not
/// converge.
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
    let mut rng = super::graph::SplitMix64::new(0x5eed_1a2c);
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
mod tests {
    use super::super::weights::{mixing_matrix, WeightRule};
    use super::*;

    fn spec(kind: GraphKind, p: usize, rule: WeightRule) -> Spectrum {
        let g = Graph::new(kind, p, 3).expect("graph");
        let m = mixing_matrix(&g, rule).expect("weights");
        spectrum(&g, &m).expect("spectrum")
    }

    #[test]
    fn ring_p4_uniform_has_rho_one_third() {
        // λ_k = (1 + 2cos(πk/2))/3 = 1, 1/3, −1/3, 1/3
        let s = spec(GraphKind::Ring, 4, WeightRule::Uniform);
        assert_eq!(s.method, SpectrumMethod::Circulant);
        let re: Vec<f64> = s.eigenvalues.iter().map(|e| e.re).collect();
        for (a, b) in re.iter().zip([1.0, 1.0 / 3.0, 1.0 / 3.0, -1.0 / 3.0]) {
            assert!((a - b).abs() < 1e-12, "{re:?}");
        }
        assert!((s.rho - 1.0 / 3.0).abs() < 1e-12 && (s.gap - 2.0 / 3.0).abs() < 1e-12);
        assert!(s.real && s.bound_guaranteed);
        assert_eq!(predicted_rounds(s.rho, 100.0), Some(5)); // ln100/ln3 = 4.19
    }

    #[test]
    fn ring_p8_uniform_rho() {
        // (1 + 2cos(π/4))/3 = (1 + √2)/3 = 0.80474
        let s = spec(GraphKind::Ring, 8, WeightRule::Uniform);
        assert!((s.rho - (1.0 + 2f64.sqrt()) / 3.0).abs() < 1e-12);
        assert!((s.rho - 0.8047).abs() < 5e-5);
        assert_eq!(predicted_rounds(s.rho, 100.0), Some(22)); // 4.605/0.2172 = 21.2
    }

    #[test]
    fn complete_uniform_reaches_consensus_in_one_round() {
        let s = spec(GraphKind::Complete, 6, WeightRule::Uniform);
        assert!(s.rho.abs() < 1e-12);
        // W = J/5 on the complete graph of 5: every other eigenvalue is 0,
        // exactly (the closed form's sums leave about 5.6e-17)
        let s = spec(GraphKind::Complete, 5, WeightRule::Uniform);
        assert_eq!((s.rho, s.gap), (0.0, 1.0));
        assert_eq!(predicted_rounds(0.0, 100.0), Some(1));
        assert_eq!(predicted_rounds(0.1, 100.0), Some(2));
        assert_eq!(predicted_rounds(1.0, 100.0), None);
        assert_eq!(predicted_rounds(0.5, 1.0), Some(0));
    }

    #[test]
    fn star_uniform_is_symmetrised_and_real() {
        // Star p=4 uniform: eigenvalues 1, 1/2, 1/2 (leaf differences), and
        // tr W − 2 = (1/4 + 3/2) − 2 = −1/4.
        let s = spec(GraphKind::Star, 4, WeightRule::Uniform);
        assert_eq!(s.method, SpectrumMethod::Symmetrised);
        let re: Vec<f64> = s.eigenvalues.iter().map(|e| e.re).collect();
        for (a, b) in re.iter().zip([1.0, 0.5, 0.5, -0.25]) {
            assert!((a - b).abs() < 1e-10, "{re:?}");
        }
        assert!((s.rho - 0.5).abs() < 1e-10 && !s.bound_guaranteed);
    }

    #[test]
    fn exponential_graph_has_complex_eigenvalues() {
        // p=4: offsets 1, 2; W row 0 = 1/3 at 0, 2, 3. λ_k = (1 + ω^{2k} + ω^{3k})/3, ω = i:
        // k=1: (1 − 1 − i)/3 → |λ| = 1/3; k=2: (1 + 1 − 1)/3 = 1/3.
        let s = spec(GraphKind::Exponential, 4, WeightRule::Exponential);
        assert!(!s.real && s.bound_guaranteed);
        assert!((s.rho - 1.0 / 3.0).abs() < 1e-12);
        let g = Graph::new(GraphKind::Exponential, 4, 0).expect("exp");
        let m = mixing_matrix(&g, WeightRule::Exponential).expect("w");
        let (dense, method) = dense_eigenvalues(&m).expect("schur");
        assert_eq!(method, SpectrumMethod::Schur);
        let d = finish(dense, method, true);
        for (a, b) in d.eigenvalues.iter().zip(&s.eigenvalues) {
            assert!((a.re - b.re).abs() < 1e-9 && (a.im - b.im).abs() < 1e-9);
        }
    }

    #[test]
    fn hypercube_closed_form_matches_dense() {
        // p=8 uniform: λ = (1 + 3 − 2·popcount(k))/4 = 1, 1/2 (×3), 0 (×3), −1/2.
        let s = spec(GraphKind::Hypercube, 8, WeightRule::Uniform);
        assert_eq!(s.method, SpectrumMethod::Hypercube);
        assert!((s.rho - 0.5).abs() < 1e-12);
        let g = Graph::new(GraphKind::Hypercube, 8, 0).expect("cube");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
        let (d, _) = dense_eigenvalues(&m).expect("dense");
        let d = finish(d, SpectrumMethod::SymmetricEigen, true);
        for (a, b) in d.eigenvalues.iter().zip(&s.eigenvalues) {
            assert!((a.re - b.re).abs() < 1e-9);
        }
    }

    #[test]
    fn symmetric_eigenvalues_known_cases() {
        // a non-graph symmetric matrix with a known spectrum: [[2,1],[1,2]] → 1, 3
        let m = nalgebra::DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let mut v = symmetric_eigenvalues(&m).expect("2×2");
        v.sort_by(f64::total_cmp);
        assert!((v[0] - 1.0).abs() < 1e-14 && (v[1] - 3.0).abs() < 1e-14);
        assert!(symmetric_eigenvalues(&nalgebra::DMatrix::from_element(2, 2, f64::NAN)).is_none());
    }

    /// Sorted real parts.
    fn sorted_re(e: &[Eigenvalue]) -> Vec<f64> {
        let mut v: Vec<f64> = e.iter().map(|x| x.re).collect();
        v.sort_by(f64::total_cmp);
        v
    }

    #[test]
    fn path_and_star_structured_spectra_agree_with_nalgebra_up_to_p64() {
        let rules = [
            WeightRule::Uniform,
            WeightRule::Metropolis,
            WeightRule::Lazy,
            WeightRule::MaxDegree,
        ];
        let mut closed_path = 0;
        for p in 2..=64 {
            for kind in [GraphKind::Path, GraphKind::Star] {
                let g = Graph::new(kind, p, 0).expect("graph");
                for rule in rules {
                    let m = mixing_matrix(&g, rule).expect("w");
                    let (dense, _) = dense_eigenvalues(&m).expect("dense");
                    let dense = sorted_re(&dense);
                    let mut fast = Vec::new();
                    if kind == GraphKind::Path {
                        if let Some(e) = path_eigenvalues(&m) {
                            closed_path += 1;
                            fast.push(sorted_re(&e));
                        }
                        let t = tridiagonal_w_eigenvalues(&m).expect("tridiagonal");
                        fast.push(sorted_re(&t));
                    } else {
                        let e = star_eigenvalues(&m).expect("star");
                        fast.push(sorted_re(&e));
                    }
                    for f in fast {
                        assert_eq!(f.len(), p);
                        for (a, b) in f.iter().zip(&dense) {
                            assert!((a - b).abs() <= 1e-9, "{kind} p={p} {rule}: {a} vs {b}");
                        }
                    }
                }
            }
        }
        // Metropolis, lazy and max-degree are I − cL on every path (uniform
        // too at p = 2, where it equals Metropolis)
        assert_eq!(closed_path, 3 * 63 + 1);
    }

    #[test]
    fn star_and_path_closed_forms_by_hand() {
        // Star p = 5, Metropolis: W = I − L/5, L's spectrum 0, 1, 1, 1, 5
        // → 1, 4/5 (×3), 0.
        let g = Graph::new(GraphKind::Star, 5, 0).expect("star");
        let m = mixing_matrix(&g, WeightRule::Metropolis).expect("w");
        let e = sorted_re(&star_eigenvalues(&m).expect("star"));
        for (a, b) in e.iter().zip([0.0, 0.8, 0.8, 0.8, 1.0]) {
            assert!((a - b).abs() < 1e-15, "{e:?}");
        }
        // Star p = 4, uniform: 1, 1/2, 1/2, 1/4 − 1/2 (the test above).
        let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
        let e = sorted_re(&star_eigenvalues(&m).expect("star"));
        for (a, b) in e.iter().zip([-0.25, 0.5, 0.5, 1.0]) {
            assert!((a - b).abs() < 1e-15, "{e:?}");
        }
        // Path p = 3, Metropolis: c = 1/3, λ = 1 − (2/3)(1 − cos(πk/3)) = 1, 2/3, 0.
        let g = Graph::new(GraphKind::Path, 3, 0).expect("path");
        let m = mixing_matrix(&g, WeightRule::Metropolis).expect("w");
        let e = sorted_re(&path_eigenvalues(&m).expect("path"));
        for (a, b) in e.iter().zip([0.0, 2.0 / 3.0, 1.0]) {
            assert!((a - b).abs() < 1e-15, "{e:?}");
        }
        // the fast √(x² + y²) falls back to hypot at the extremes
        assert_eq!(fast_hypot(3.0, 4.0), 5.0);
        assert!((fast_hypot(3e300, 4e300) / 5e300 - 1.0).abs() < 1e-15);
        assert!((fast_hypot(3e-300, 4e-300) / 5e-300 - 1.0).abs() < 1e-15);
        // rational QL on [[2, 1], [1, 2]] → 1, 3 (ascending); a bad length is refused.
        let (mut d, mut off) = (vec![2.0, 2.0], vec![1.0, 0.0]);
        assert!(symmetric_tridiagonal_eigenvalues(&mut d, &mut off));
        d.sort_by(f64::total_cmp);
        assert!((d[0] - 1.0).abs() < 1e-15 && (d[1] - 3.0).abs() < 1e-15);
        assert!(!symmetric_tridiagonal_eigenvalues(
            &mut [1.0, 2.0],
            &mut [0.0]
        ));
        // path p = 3, Metropolis (W is already symmetric): 0, 2/3, 1, ascending
        let (mut d, mut off) = (vec![2.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0], vec![1.0 / 3.0; 3]);
        assert!(symmetric_tridiagonal_eigenvalues(&mut d, &mut off));
        for (a, b) in d.iter().zip([0.0, 2.0 / 3.0, 1.0]) {
            assert!((a - b).abs() < 1e-15, "{d:?}");
        }
        // split blocks (zero couplings) come out sorted too
        let (mut d, mut off) = (vec![3.0, 1.0, 2.0, -1.0], vec![0.0; 4]);
        assert!(symmetric_tridiagonal_eigenvalues(&mut d, &mut off));
        assert_eq!(d, vec![-1.0, 1.0, 2.0, 3.0]);
        // a seeded 40 × 40 tridiagonal matrix against nalgebra's dense eigenvalues
        let mut rng = crate::core::rng::SplitMix64::new(9);
        let n = 40;
        let diag: Vec<f64> = (0..n).map(|_| rng.next_f64() - 0.5).collect();
        let mut cpl: Vec<f64> = (0..n).map(|_| rng.next_f64() - 0.5).collect();
        cpl[17] = 0.0;
        let dense = nalgebra::DMatrix::from_fn(n, n, |i, j| match i.abs_diff(j) {
            0 => diag[i],
            1 => cpl[i.min(j)],
            _ => 0.0,
        });
        let mut want = symmetric_eigenvalues(&dense).expect("nalgebra");
        want.sort_by(f64::total_cmp);
        let mut got = diag.clone();
        assert!(symmetric_tridiagonal_eigenvalues(&mut got, &mut cpl));
        for (a, b) in got.iter().zip(&want) {
            assert!((a - b).abs() < 1e-13, "{a} vs {b}");
        }
    }

    #[test]
    fn large_path_and_star_use_the_structured_methods() {
        // p = 100, Metropolis on the path: ρ = 1 − (2/3)(1 − cos(π/100)).
        let s = spec(GraphKind::Path, 100, WeightRule::Metropolis);
        assert_eq!(s.method, SpectrumMethod::Path);
        let want = 1.0 - 2.0 / 3.0 * (1.0 - (std::f64::consts::PI / 100.0).cos());
        assert!((s.rho - want).abs() < 1e-12);
        let s = spec(GraphKind::Path, 100, WeightRule::Uniform);
        assert_eq!(s.method, SpectrumMethod::Tridiagonal);
        assert_eq!(s.eigenvalues.len(), 100);
        // star p = 100 uniform: ρ = 1/2 (the leaf differences); the last
        // eigenvalue is 1/100 − 1/2.
        let s = spec(GraphKind::Star, 100, WeightRule::Uniform);
        assert_eq!(s.method, SpectrumMethod::Star);
        assert!((s.rho - 0.5).abs() < 1e-15);
        assert!((s.eigenvalues[99].re - (0.01 - 0.5)).abs() < 1e-15);
    }

    #[test]
    fn lanczos_rho_agrees_with_the_dense_spectrum() {
        let rules = [
            WeightRule::Metropolis,
            WeightRule::Uniform,
            WeightRule::Lazy,
        ];
        let mut cases: Vec<(GraphKind, usize, u64)> = Vec::new();
        for p in [2, 3, 5, 10, 17, 33, 64, 150] {
            for seed in 0..3 {
                cases.push((GraphKind::Random, p, seed));
            }
            cases.push((GraphKind::Path, p, 0));
            cases.push((GraphKind::Star, p, 0));
        }
        cases.push((GraphKind::Hypercube, 64, 0));
        cases.push((GraphKind::Ring, 40, 0));
        // ρ (and the gap) from Lanczos within 1e-9 of the dense spectrum's
        let agrees = |kind: GraphKind, p: usize, seed: u64, rule: WeightRule| {
            let g = Graph::new(kind, p, seed).expect("graph");
            let m = mixing_matrix(&g, rule).expect("w");
            let (dense, method) = dense_eigenvalues(&m).expect("dense");
            let want = finish(dense, method, true).rho;
            let got = rho_lanczos(&m).expect("lanczos");
            assert!(
                (got.rho - want).abs() <= 1e-9,
                "{kind} p={p} seed={seed} {rule}: {} vs {want} after {} steps",
                got.rho,
                got.steps
            );
            assert!((got.gap - (1.0 - want)).abs() <= 1e-9);
        };
        for (kind, p, seed) in cases {
            for rule in rules {
                agrees(kind, p, seed, rule);
            }
        }
        // above LANCZOS_FULL_MAX_P: local reorthogonalization only
        for (p, seed, rule) in [
            (300, 0, WeightRule::Metropolis),
            (300, 1, WeightRule::Uniform),
            (300, 2, WeightRule::Lazy),
            (400, 3, WeightRule::Metropolis),
        ] {
            agrees(GraphKind::Random, p, seed, rule);
        }
        // a star's Krylov space is tiny: leaf differences and one 2 × 2 block
        let g = Graph::new(GraphKind::Star, 150, 0).expect("star");
        let m = mixing_matrix(&g, WeightRule::Metropolis).expect("w");
        let r = rho_lanczos(&m).expect("lanczos");
        assert!(r.steps <= 3 && (r.rho - (1.0 - 1.0 / 150.0)).abs() < 1e-12);
        // the directed exponential graph is neither symmetric nor reversible
        let g = Graph::new(GraphKind::Exponential, 8, 0).expect("exp");
        let m = mixing_matrix(&g, WeightRule::Exponential).expect("w");
        assert!(rho_lanczos(&m).is_err());
    }

    #[test]
    fn spectrum_or_rho_switches_only_for_dense_cases_above_the_limit() {
        for seed in 0..3 {
            let g = Graph::new(GraphKind::Random, 80, seed).expect("graph");
            for rule in [WeightRule::Metropolis, WeightRule::Uniform] {
                let m = mixing_matrix(&g, rule).expect("w");
                let full = spectrum(&g, &m).expect("full");
                let fast = spectrum_or_rho(&g, &m, 64).expect("fast");
                assert_eq!(fast.method, SpectrumMethod::LanczosRho);
                assert!(fast.eigenvalues.is_empty());
                assert!(
                    (fast.rho - full.rho).abs() <= 1e-9,
                    "{} vs {}",
                    fast.rho,
                    full.rho
                );
                assert_eq!(fast.bound_guaranteed, full.bound_guaranteed);
                assert_eq!(fast.real, full.real);
                // at or under the limit: the full spectrum, unchanged
                assert_eq!(spectrum_or_rho(&g, &m, 80).expect("full"), full);
            }
        }
        // structured graphs keep their closed forms at any p
        let g = Graph::new(GraphKind::Ring, 100, 0).expect("ring");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
        let s = spectrum_or_rho(&g, &m, 2).expect("ring");
        assert_eq!(
            (s.method, s.eigenvalues.len()),
            (SpectrumMethod::Circulant, 100)
        );
    }

    #[test]
    fn complete_graph_spectrum_is_the_closed_form_a_i_plus_b_j() {
        // W = d·I + b·(J − I): eigenvalues d + (p − 1)b (once) and d − b
        // (p − 1 times), because J = 11ᵀ has eigenvalues p and 0.
        for p in [2, 3, 4, 9, 16, 33, 64] {
            let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
            for rule in [
                WeightRule::Uniform,
                WeightRule::Metropolis,
                WeightRule::Lazy,
                WeightRule::MaxDegree,
            ] {
                let fast = mixing_matrix(&g, rule).expect("w");
                let (d, b) = fast.complete_form().expect("complete form");
                let slow = super::super::weights::general_matrix(&g, rule).expect("w");
                // skipping the symmetry check changes no bit of the result
                assert_eq!(
                    spectrum(&g, &fast).expect("fast"),
                    spectrum(&g, &slow).expect("slow")
                );
                let s = spectrum(&g, &fast).expect("fast");
                let top = d + (p - 1) as f64 * b;
                assert!((s.eigenvalues[0].re - top).abs() < 1e-12);
                for e in &s.eigenvalues[1..] {
                    assert!((e.re - (d - b)).abs() < 1e-12 && e.im == 0.0);
                }
                assert!((s.rho - (d - b).abs()).abs() < 1e-12);
                let mut dense = symmetric_eigenvalues(fast.dense()).expect("nalgebra");
                dense.sort_by(|a, b| b.total_cmp(a));
                for (e, x) in s.eigenvalues.iter().zip(&dense) {
                    assert!((e.re - x).abs() < 1e-9, "p={p} {rule}: {} vs {x}", e.re);
                }
            }
        }
        // by hand, p = 4 lazy: d = 5/8, b = 1/8 → 1 and 1/2 (×3), ρ = 1/2
        let s = spec(GraphKind::Complete, 4, WeightRule::Lazy);
        assert!((s.rho - 0.5).abs() < 1e-15 && (s.eigenvalues[0].re - 1.0).abs() < 1e-15);
    }

    #[test]
    fn circulant_agrees_with_nalgebra_up_to_p64() {
        // On regular graphs uniform, Metropolis–Hastings and max-degree weights
        // coincide, so uniform and lazy cover every distinct matrix.
        let rules = [WeightRule::Uniform, WeightRule::Lazy];
        let mut kinds: Vec<(GraphKind, usize)> = Vec::new();
        for p in 2..=64 {
            kinds.push((GraphKind::Ring, p));
            kinds.push((GraphKind::Exponential, p));
            if p <= 16 {
                kinds.push((GraphKind::Complete, p));
            }
        }
        for rows in 1..=8 {
            for cols in 1..=8 {
                if rows * cols >= 2 {
                    kinds.push((GraphKind::Torus { rows, cols }, rows * cols));
                }
            }
        }
        let mut checked = 0;
        for (kind, p) in kinds {
            let g = Graph::new(kind, p, 0).expect("graph");
            let rs: Vec<WeightRule> = if g.directed {
                vec![WeightRule::Exponential]
            } else {
                rules.to_vec()
            };
            for rule in rs {
                let m = mixing_matrix(&g, rule).expect("w");
                let fast = spectrum(&g, &m).expect("fast");
                assert_eq!(
                    fast.method,
                    SpectrumMethod::Circulant,
                    "{kind} p={p} {rule}"
                );
                // nalgebra itself: symmetric eigenvalues, or the Schur form for directed W
                let dense: Vec<Eigenvalue> = if m.is_symmetric() {
                    m.dense()
                        .clone()
                        .symmetric_eigenvalues()
                        .iter()
                        .map(|&re| Eigenvalue { re, im: 0.0 })
                        .collect()
                } else {
                    m.dense()
                        .complex_eigenvalues()
                        .iter()
                        .map(|c| Eigenvalue { re: c.re, im: c.im })
                        .collect()
                };
                let slow = finish(dense, SpectrumMethod::Schur, true);
                assert!(
                    (fast.rho - slow.rho).abs() <= 1e-9,
                    "{kind} p={p} {rule}: ρ {} vs {}",
                    fast.rho,
                    slow.rho
                );
                // match every fast eigenvalue to a distinct dense one
                let mut used = vec![false; p];
                for e in &fast.eigenvalues {
                    let best = slow
                        .eigenvalues
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| !used[*i])
                        .map(|(i, d)| (i, (d.re - e.re).hypot(d.im - e.im)))
                        .min_by(|a, b| a.1.total_cmp(&b.1))
                        .expect("an unused eigenvalue");
                    assert!(
                        best.1 <= 1e-9,
                        "{kind} p={p} {rule}: {e:?} off by {}",
                        best.1
                    );
                    used[best.0] = true;
                }
                checked += 1;
            }
        }
        assert!(checked > 250, "{checked}");
    }
}
