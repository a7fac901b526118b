//! The mixing matrix W: sparse rows, the dense form built on first use,
//! products, sums and the stationary distribution.

use std::borrow::Cow;
use std::cell::OnceCell;

use nalgebra::{DMatrix, DVector};

use super::complete::{complete_row, complete_sums};
use crate::core::consensus::error::ConsensusError;

/// Tolerance for "equals 1" and "equals W_ji" checks on f64 weights.
pub const CHECK_TOL: f64 = 1e-12;

/// A p × p mixing matrix: one gossip round is x ← W x.
///
/// [`MixingMatrix::rows`] holds the non-zeros, `(j, W_ij)` sorted by j (row
/// i = the weights node i gives to the values it reads), so
/// [`MixingMatrix::apply`] costs O(number of edges); the dense matrix
/// ([`MixingMatrix::dense`]) is built on first use only (8 MB at p = 1 024,
/// which the rounds and the Lanczos estimate never need). A matrix of the
/// form W = d·I + b·(J − I) (the complete graph under every weight rule)
/// records its two weights instead (see [`MixingMatrix::complete_form`]):
/// it applies in O(p), its checks and spectrum read the two weights, and its
/// p² rows are written only when something asks for all of them (16 MB at
/// p = 1 024, which the gossip view's first paint never needs).
#[derive(Clone, Debug)]
pub struct MixingMatrix {
    /// Number of nodes p.
    p: usize,
    /// Dense W (p × p), once asked for.
    w: OnceCell<DMatrix<f64>>,
    /// Sparse rows: `rows[i]` = `(j, W_ij)` for W_ij ≠ 0, sorted by j;
    /// for W = d·I + b·(J − I), written on first use.
    pub(in crate::core::consensus) rows: OnceCell<Vec<Vec<(usize, f64)>>>,
    /// `(d, b)` when every diagonal entry is d and every off-diagonal entry b.
    complete: Option<(f64, f64)>,
}

/// Equal when the weights are equal, whether or not the dense form or the
/// rows of W = d·I + b·(J − I) were built.
impl PartialEq for MixingMatrix {
    fn eq(&self, other: &Self) -> bool {
        self.p == other.p
            && self.complete == other.complete
            && (self.complete.is_some() || self.rows() == other.rows())
    }
}

impl MixingMatrix {
    /// Wraps a dense square matrix.
    ///
    /// # Errors
    /// [`ConsensusError::InvalidMatrix`] when `w` is not square, is empty or
    /// holds a non-finite entry.
    pub fn from_dense(w: DMatrix<f64>) -> Result<MixingMatrix, ConsensusError> {
        if w.nrows() != w.ncols() || w.nrows() == 0 {
            return Err(ConsensusError::InvalidMatrix(format!(
                "a mixing matrix must be square and non-empty (got {}×{})",
                w.nrows(),
                w.ncols()
            )));
        }
        if w.iter().any(|v| !v.is_finite()) {
            return Err(ConsensusError::InvalidMatrix(
                "a mixing matrix entry is not finite".into(),
            ));
        }
        let rows: Vec<Vec<(usize, f64)>> = (0..w.nrows())
            .map(|i| {
                (0..w.ncols())
                    .filter(|&j| w[(i, j)] != 0.0)
                    .map(|j| (j, w[(i, j)]))
                    .collect()
            })
            .collect();
        Ok(MixingMatrix {
            p: rows.len(),
            w: OnceCell::from(w),
            rows: OnceCell::from(rows),
            complete: None,
        })
    }

    pub(super) fn from_rows(rows: Vec<Vec<(usize, f64)>>) -> MixingMatrix {
        MixingMatrix {
            p: rows.len(),
            w: OnceCell::new(),
            rows: OnceCell::from(rows),
            complete: None,
        }
    }

    /// The sparse rows: `rows()[i]` = `(j, W_ij)` for W_ij ≠ 0, sorted by j
    /// (for W = d·I + b·(J − I) every entry, d and b included, written on
    /// the first call).
    pub fn rows(&self) -> &[Vec<(usize, f64)>] {
        self.rows.get_or_init(|| match self.complete {
            Some((d, b)) => (0..self.p).map(|i| complete_row(self.p, d, b, i)).collect(),
            // every other constructor sets the rows
            None => Vec::new(),
        })
    }

    /// Row `i` as [`MixingMatrix::rows`] gives it, without writing the other
    /// rows of W = d·I + b·(J − I). `None` when `i ≥ p`.
    pub fn row(&self, i: usize) -> Option<Cow<'_, [(usize, f64)]>> {
        match (self.complete, self.rows.get()) {
            (Some((d, b)), None) => (i < self.p).then(|| Cow::Owned(complete_row(self.p, d, b, i))),
            _ => self.rows().get(i).map(|r| Cow::Borrowed(r.as_slice())),
        }
    }

    /// Multiply-adds of one round ([`MixingMatrix::apply`]): one per
    /// non-zero, or 2p for W = d·I + b·(J − I) (the sum Σ b·x_j, then
    /// t + (d − b)·x_i per node). The work budgets of a run count these.
    pub fn round_cost(&self) -> usize {
        if self.complete.is_some() {
            return self.p.saturating_mul(2);
        }
        self.rows().iter().map(Vec::len).sum()
    }

    /// The dense W (p × p), built from the rows on the first call.
    pub fn dense(&self) -> &DMatrix<f64> {
        self.w.get_or_init(|| {
            let p = self.p();
            let mut w = DMatrix::zeros(p, p);
            for (i, row) in self.rows().iter().enumerate() {
                for &(j, v) in row {
                    if let Some(e) = w.get_mut((i, j)) {
                        *e = v;
                    }
                }
            }
            w
        })
    }

    /// W = d·I + b·(J − I) on p nodes: the two weights; the rows are
    /// written on first use ([`MixingMatrix::rows`]).
    pub(super) fn complete(p: usize, d: f64, b: f64) -> MixingMatrix {
        MixingMatrix {
            p,
            w: OnceCell::new(),
            rows: OnceCell::new(),
            complete: Some((d, b)),
        }
    }

    /// `(d, b)` when W = d·I + b·(J − I) with J the all-ones matrix: every
    /// diagonal entry d, every off-diagonal entry b (the complete graph under
    /// every weight rule; b = 1/p and d = 1 − (p − 1)/p for uniform,
    /// Metropolis–Hastings and max-degree weights, (d + 1)/2 and b/2 for the
    /// lazy rule). Its eigenvalues are d + (p − 1)b (consensus, eigenvector 1)
    /// and d − b (p − 1 times), since J has eigenvalues p and 0 (Xiao & Boyd
    /// 2004, §2). `None` for any other W.
    pub fn complete_form(&self) -> Option<(f64, f64)> {
        self.complete
    }

    /// Number of nodes p.
    pub fn p(&self) -> usize {
        self.p
    }

    /// W_ij (0 when out of range).
    pub fn weight(&self, i: usize, j: usize) -> f64 {
        if let Some((d, b)) = self.complete {
            return match (i < self.p && j < self.p, i == j) {
                (false, _) => 0.0,
                (true, true) => d,
                (true, false) => b,
            };
        }
        let Some(row) = self.rows().get(i) else {
            return 0.0;
        };
        row.binary_search_by_key(&j, |&(k, _)| k)
            .ok()
            .and_then(|k| row.get(k))
            .map_or(0.0, |&(_, v)| v)
    }

    /// One gossip round on scalar values: returns W x (length p). Entries of
    /// `x` beyond p are ignored and missing ones count as 0; use
    /// [`MixingMatrix::try_apply`] to have a length mismatch reported.
    ///
    /// O(non-zeros of W); O(p) when W = d·I + b·(J − I)
    /// ([`MixingMatrix::complete_form`]): y_i = t + (d − b)·x_i with
    /// t = Σ_j b·x_j summed in the order of a sparse row, so when d = b (uniform
    /// weights at any p; every rule but the lazy one when p is a power of two)
    /// the result is bit for bit the sparse product, and otherwise within a
    /// few units in the last place of it.
    pub fn apply(&self, x: &[f64]) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.p());
        self.apply_into(x, &mut out);
        out
    }

    /// [`MixingMatrix::apply`] writing W x into `out` (cleared first), so a
    /// loop of rounds reuses two buffers instead of allocating one per round.
    pub fn apply_into(&self, x: &[f64], out: &mut Vec<f64>) {
        let at = |j: usize| x.get(j).copied().unwrap_or(0.0);
        out.clear();
        if let Some((d, b)) = self.complete {
            let p = self.p();
            let t: f64 = (0..p).map(|j| b * at(j)).sum();
            out.extend((0..p).map(|i| t + (d - b) * at(i)));
            return;
        }
        out.extend(
            self.rows()
                .iter()
                .map(|row| row.iter().map(|&(j, v)| v * at(j)).sum::<f64>()),
        );
    }

    /// [`MixingMatrix::apply`] with a length check.
    ///
    /// # Errors
    /// [`ConsensusError::LengthMismatch`] when `x.len()` ≠ p.
    pub fn try_apply(&self, x: &[f64]) -> Result<Vec<f64>, ConsensusError> {
        if x.len() != self.p() {
            return Err(ConsensusError::LengthMismatch {
                expected: self.p(),
                got: x.len(),
            });
        }
        Ok(self.apply(x))
    }

    /// One gossip round on vector values (e.g. model parameters):
    /// `models[i]` is node i's vector; returns `out[i] = Σ_j W_ij models[j]`.
    ///
    /// # Errors
    /// [`ConsensusError::LengthMismatch`] when there are not p models or the
    /// models have different lengths.
    pub fn apply_vectors(&self, models: &[Vec<f64>]) -> Result<Vec<Vec<f64>>, ConsensusError> {
        if models.len() != self.p() {
            return Err(ConsensusError::LengthMismatch {
                expected: self.p(),
                got: models.len(),
            });
        }
        let d = models.first().map_or(0, Vec::len);
        if let Some(bad) = models.iter().find(|m| m.len() != d) {
            return Err(ConsensusError::LengthMismatch {
                expected: d,
                got: bad.len(),
            });
        }
        Ok(self
            .rows()
            .iter()
            .map(|row| {
                let mut acc = vec![0.0; d];
                for &(j, v) in row {
                    for (a, m) in acc.iter_mut().zip(&models[j]) {
                        *a += v * m;
                    }
                }
                acc
            })
            .collect())
    }

    /// The lazy version (I + W)/2.
    pub fn lazy(&self) -> MixingMatrix {
        let p = self.p();
        if let Some((d, b)) = self.complete {
            // the same operations as on the rows below: v/2, then + 0.5 on the diagonal
            return MixingMatrix::complete(p, d / 2.0 + 0.5, b / 2.0);
        }
        let rows = self
            .rows()
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let mut r: Vec<(usize, f64)> = row.iter().map(|&(j, v)| (j, v / 2.0)).collect();
                match r.iter_mut().find(|(j, _)| *j == i) {
                    Some(e) => e.1 += 0.5,
                    None => {
                        r.push((i, 0.5));
                        crate::core::order::sort_by_key(&mut r, |e| by_node(e) as u64);
                    }
                }
                r
            })
            .collect();
        MixingMatrix::from_rows(rows)
    }

    /// Row sums Σ_j W_ij (each 1 for a row-stochastic W).
    pub fn row_sums(&self) -> Vec<f64> {
        if let Some((d, b)) = self.complete {
            return complete_sums(self.p(), d, b);
        }
        self.rows()
            .iter()
            .map(|r| r.iter().map(|e| e.1).sum())
            .collect()
    }

    /// Column sums Σ_i W_ij (each 1 when W preserves the arithmetic mean).
    pub fn col_sums(&self) -> Vec<f64> {
        if let Some((d, b)) = self.complete {
            // W is symmetric and column j is added in row order, exactly as row j
            return complete_sums(self.p(), d, b);
        }
        let mut s = vec![0.0; self.p()];
        for row in self.rows() {
            for &(j, v) in row {
                if let Some(c) = s.get_mut(j) {
                    *c += v;
                }
            }
        }
        s
    }

    /// Largest |W_ij − W_ji|.
    pub fn symmetry_error(&self) -> f64 {
        if self.complete.is_some() {
            // every entry is d or b, bit for bit: W = Wᵀ exactly
            return 0.0;
        }
        let mut e: f64 = 0.0;
        for (i, row) in self.rows().iter().enumerate() {
            for &(j, v) in row {
                e = e.max((v - self.weight(j, i)).abs());
            }
        }
        e
    }

    /// True when no entry of W is negative. O(p) for W = d·I + b·(J − I).
    pub fn is_nonnegative(&self) -> bool {
        match self.complete {
            Some((d, b)) => d >= 0.0 && b >= 0.0,
            None => self.rows().iter().flatten().all(|e| e.1 >= 0.0),
        }
    }

    /// True when |W_ij − W_ji| ≤ [`CHECK_TOL`] everywhere.
    pub fn is_symmetric(&self) -> bool {
        self.symmetry_error() <= CHECK_TOL
    }

    /// True when every column sums to 1 (within [`CHECK_TOL`]) — together
    /// with unit row sums this is double stochasticity.
    pub fn is_column_stochastic(&self) -> bool {
        self.col_sums().iter().all(|s| (s - 1.0).abs() <= CHECK_TOL)
    }

    /// True when every row sums to 1 (within [`CHECK_TOL`]).
    pub fn is_row_stochastic(&self) -> bool {
        self.row_sums().iter().all(|s| (s - 1.0).abs() <= CHECK_TOL)
    }

    /// The left Perron vector π: πᵀW = πᵀ, Σπ_i = 1. Repeated mixing with a
    /// row-stochastic, connected, aperiodic W drives every value to the
    /// π-weighted mean Σ π_i x_i(0), because πᵀx is preserved by every round.
    ///
    /// Uniform 1/p when W is column stochastic. Otherwise the reversible
    /// candidate π_i ∝ 1/W_ii is tried first (exact for uniform weights on an
    /// undirected graph, where it is π_i ∝ d_i + 1 by detailed balance
    /// π_i W_ij = π_j W_ji); failing that, the linear system (Wᵀ − I)π = 0,
    /// Σπ = 1 is solved by LU decomposition.
    ///
    /// # Errors
    /// [`ConsensusError::NoStationary`] when the system is singular (for
    /// example W of a disconnected graph) or the solution is not a probability vector.
    pub fn stationary(&self) -> Result<Vec<f64>, ConsensusError> {
        let p = self.p();
        if self.is_column_stochastic() {
            return Ok(vec![1.0 / p as f64; p]);
        }
        let residual = |pi: &[f64]| {
            let mut left = vec![0.0; p];
            for (i, row) in self.rows().iter().enumerate() {
                for &(j, v) in row {
                    if let Some(l) = left.get_mut(j) {
                        *l += pi[i] * v;
                    }
                }
            }
            left.iter()
                .zip(pi)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max)
        };
        let diag: Vec<f64> = (0..p).map(|i| self.weight(i, i)).collect();
        if diag.iter().all(|&d| d > 0.0) {
            let raw: Vec<f64> = diag.iter().map(|d| 1.0 / d).collect();
            let total: f64 = raw.iter().sum();
            let pi: Vec<f64> = raw.iter().map(|v| v / total).collect();
            if residual(&pi) <= 1e-12 {
                return Ok(pi);
            }
        }
        let pi = solve_stationary(self.dense())
            .ok_or_else(|| ConsensusError::NoStationary("(Wᵀ − I)π = 0 is singular".into()))?;
        let pi: Vec<f64> = pi.iter().copied().collect();
        if pi.iter().any(|v| !v.is_finite() || *v < -1e-9) || residual(&pi) > 1e-8 {
            return Err(ConsensusError::NoStationary(
                "no unique probability vector with πᵀW = πᵀ".into(),
            ));
        }
        Ok(pi)
    }
}

/// The linear solve behind every stationary distribution: (Wᵀ − I)π = 0
/// with its last equation replaced by Σπ = 1, by LU decomposition, for a
/// square row-stochastic `w` (p × p, p ≥ 1). `None` when the system is
/// singular. The callers check the answer (non-negative, really
/// stationary): the replaced equation is implied only when π is unique.
pub fn solve_stationary(w: &DMatrix<f64>) -> Option<DVector<f64>> {
    let p = w.nrows();
    let mut a = w.transpose() - DMatrix::identity(p, p);
    for j in 0..p {
        a[(p - 1, j)] = 1.0;
    }
    let mut b = DVector::zeros(p);
    b[p - 1] = 1.0;
    a.lu().solve(&b)
}

/// Sort key of a sparse row entry `(node, weight)`: the node. One named
/// function for every row sort, so the sort code is compiled once.
pub(crate) fn by_node(e: &(usize, f64)) -> usize {
    e.0
}
