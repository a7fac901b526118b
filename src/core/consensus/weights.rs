//! Weight rules, the mixing matrix W and its checks (row and column sums,
//! symmetry, connectivity, preserved mean, the limit's weighting π).

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;

use nalgebra::{DMatrix, DVector};

use super::graph::{exponential_offsets, Graph, GraphKind};
use super::ConsensusError;
use crate::core::units::format::format_weight;

/// Tolerance for "equals 1" and "equals W_ji" checks on f64 weights.
pub const CHECK_TOL: f64 = 1e-12;

/// How the weights W_ij of a gossip round are chosen from the graph.
///
/// In every rule W_ij > 0 only for j = i or j an in-neighbour of i, each row
/// sums to 1, and x_i ← Σ_j W_ij x_j.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightRule {
    /// W_ij = 1/(d_i + 1) for j ∈ N(i) ∪ {i}: each node averages itself and
    /// its neighbours equally (the course's "one-third" ring weights). Rows sum
    /// to 1, but columns sum to 1 only on regular graphs; on a star, path or
    /// random graph the values converge to a *weighted* mean instead.
    Uniform,
    /// Metropolis–Hastings weights W_ij = 1/(1 + max(d_i, d_j)) for edges,
    /// W_ii = 1 − Σ_j W_ij (Xiao & Boyd 2004, "Fast linear iterations for
    /// distributed averaging"; Boyd, Ghosh, Prabhakar & Shah 2006,
    /// "Randomized gossip algorithms"). Symmetric and doubly stochastic on
    /// every undirected graph, using only neighbours' degrees.
    Metropolis,
    /// Lazy Metropolis–Hastings: (I + W_MH)/2. Every eigenvalue λ moves to
    /// (1 + λ)/2 ≥ 0, which removes oscillation at the price of a smaller gap.
    Lazy,
    /// Max-degree weights W_ij = 1/(Δ + 1) for edges, W_ii = 1 − d_i/(Δ + 1),
    /// with Δ the largest degree. A variant of the maximum-degree weights of
    /// Xiao & Boyd 2004 (which use 1/Δ): the +1 keeps every diagonal entry
    /// positive, so an even ring does not get the eigenvalue −1.
    MaxDegree,
    /// The exponential graph's own weights (Ying et al. 2021): W_ij = 1/(τ + 1)
    /// for j = i and each of the τ in-neighbours i − 2^k (mod p). Only valid on
    /// [`GraphKind::Exponential`]; doubly stochastic (circulant), not symmetric.
    Exponential,
}

impl WeightRule {
    /// URL name: `uniform`, `metropolis`, `lazy`, `maxdegree`, `exp`.
    pub fn key(self) -> &'static str {
        match self {
            WeightRule::Uniform => "uniform",
            WeightRule::Metropolis => "metropolis",
            WeightRule::Lazy => "lazy",
            WeightRule::MaxDegree => "maxdegree",
            WeightRule::Exponential => "exp",
        }
    }

    /// Formula as shown on screen.
    pub fn formula(self) -> &'static str {
        match self {
            WeightRule::Uniform => "W_ij = 1/(d_i + 1) for j ∈ N(i) ∪ {i}",
            WeightRule::Metropolis => "W_ij = 1/(1 + max(d_i, d_j)), W_ii = 1 − Σ_j W_ij",
            WeightRule::Lazy => "W = (I + W_MH)/2",
            WeightRule::MaxDegree => "W_ij = 1/(Δ + 1), W_ii = 1 − d_i/(Δ + 1)",
            WeightRule::Exponential => "W_ij = 1/(τ + 1) for j = i and j = i − 2^k, τ = ⌈log₂ p⌉",
        }
    }
}

impl fmt::Display for WeightRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WeightRule::Uniform => "uniform 1/(deg+1)",
            WeightRule::Metropolis => "Metropolis–Hastings",
            WeightRule::Lazy => "lazy Metropolis–Hastings",
            WeightRule::MaxDegree => "max-degree",
            WeightRule::Exponential => "exponential-graph weights",
        })
    }
}

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
    rows: OnceCell<Vec<Vec<(usize, f64)>>>,
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

    fn from_rows(rows: Vec<Vec<(usize, f64)>>) -> MixingMatrix {
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
    fn complete(p: usize, d: f64, b: f64) -> MixingMatrix {
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
                        r.sort_by_key(by_node);
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
fn by_node(e: &(usize, f64)) -> usize {
    e.0
}

/// Whether `rule` fits `graph`, without building the matrix (O(1)): the
/// check [`mixing_matrix`] makes first, for validating parameters.
///
/// # Errors
/// As [`mixing_matrix`].
pub fn check_rule(graph: &Graph, rule: WeightRule) -> Result<(), ConsensusError> {
    match rule {
        WeightRule::Metropolis | WeightRule::Lazy if graph.directed => {
            Err(ConsensusError::RuleNeedsGraph(format!(
                "{rule} weights need an undirected graph; the exponential graph is directed (use exp or uniform weights)"
            )))
        }
        WeightRule::Exponential if graph.kind != GraphKind::Exponential => {
            Err(ConsensusError::RuleNeedsGraph(format!(
                "exponential-graph weights need graph=exp (got the {})",
                graph.kind
            )))
        }
        _ => Ok(()),
    }
}

/// Builds the mixing matrix of `graph` under `rule`.
///
/// # Errors
/// [`ConsensusError::RuleNeedsGraph`] when Metropolis–Hastings or lazy
/// weights are asked for on the directed exponential graph, or the
/// exponential-graph weights on any other graph.
pub fn mixing_matrix(graph: &Graph, rule: WeightRule) -> Result<MixingMatrix, ConsensusError> {
    check_rule(graph, rule)?;
    if graph.kind == GraphKind::Complete && graph.p >= 2 {
        return Ok(complete_matrix(graph.p, rule));
    }
    general_matrix(graph, rule)
}

/// Row `i` of W = d·I + b·(J − I) on `p` nodes: `(j, d)` for j = i and
/// `(j, b)` for every other j, in order.
fn complete_row(p: usize, d: f64, b: f64, i: usize) -> Vec<(usize, f64)> {
    (0..p).map(|j| (j, if i == j { d } else { b })).collect()
}

/// W of the complete graph on p ≥ 2 nodes under `rule` (not the exponential
/// rule): every node has degree p − 1, so every rule gives one off-diagonal
/// weight b and one diagonal weight d. The floating-point operations are those
/// of [`general_matrix`] (tested bit for bit), in O(p) plus writing W.
fn complete_matrix(p: usize, rule: WeightRule) -> MixingMatrix {
    let deg = (p - 1) as f64;
    // W_ii = 1 − Σ_j W_ij, summed in row order as `row_with_diag` does
    let diag = |b: f64| 1.0 - (1..p).map(|_| b).sum::<f64>();
    let (d, b) = match rule {
        WeightRule::Uniform | WeightRule::Exponential => {
            let w = 1.0 / (deg + 1.0);
            (w, w)
        }
        // Metropolis–Hastings 1/(1 + max(d_i, d_j)) and max-degree 1/(Δ + 1)
        // are both 1/(p − 1 + 1) here (IEEE addition commutes: the same bits)
        WeightRule::Metropolis | WeightRule::Lazy | WeightRule::MaxDegree => {
            let b = 1.0 / (deg + 1.0);
            (diag(b), b)
        }
    };
    let m = MixingMatrix::complete(p, d, b);
    if rule == WeightRule::Lazy {
        m.lazy()
    } else {
        m
    }
}

/// W from the graph's neighbour lists, any graph.
pub(super) fn general_matrix(
    graph: &Graph,
    rule: WeightRule,
) -> Result<MixingMatrix, ConsensusError> {
    let p = graph.p;
    let deg = |i: usize| graph.degree(i) as f64;
    let row_with_diag = |i: usize, off: Vec<(usize, f64)>| {
        let s: f64 = off.iter().map(|e| e.1).sum();
        let mut r = off;
        r.push((i, 1.0 - s));
        r.sort_by_key(by_node);
        r
    };
    let rows: Vec<Vec<(usize, f64)>> = match rule {
        WeightRule::Uniform => (0..p)
            .map(|i| {
                let w = 1.0 / (deg(i) + 1.0);
                let mut r: Vec<(usize, f64)> =
                    graph.in_neighbours()[i].iter().map(|&j| (j, w)).collect();
                r.push((i, w));
                r.sort_by_key(by_node);
                r
            })
            .collect(),
        WeightRule::Metropolis | WeightRule::Lazy => {
            check_rule(graph, rule)?;
            (0..p)
                .map(|i| {
                    let off = graph.in_neighbours()[i]
                        .iter()
                        .map(|&j| (j, 1.0 / (1.0 + deg(i).max(deg(j)))))
                        .collect();
                    row_with_diag(i, off)
                })
                .collect()
        }
        WeightRule::MaxDegree => {
            let w = 1.0 / (graph.max_degree() as f64 + 1.0);
            (0..p)
                .map(|i| {
                    let off = graph.in_neighbours()[i].iter().map(|&j| (j, w)).collect();
                    row_with_diag(i, off)
                })
                .collect()
        }
        WeightRule::Exponential => {
            check_rule(graph, rule)?;
            let w = 1.0 / (exponential_offsets(p).len() as f64 + 1.0);
            (0..p)
                .map(|i| {
                    let mut r: Vec<(usize, f64)> =
                        graph.in_neighbours()[i].iter().map(|&j| (j, w)).collect();
                    r.push((i, w));
                    r.sort_by_key(by_node);
                    r
                })
                .collect()
        }
    };
    let m = MixingMatrix::from_rows(rows);
    Ok(if rule == WeightRule::Lazy {
        m.lazy()
    } else {
        m
    })
}

/// Row sums of W = d·I + b·(J − I) (equal to its column sums), each added in
/// row order like [`MixingMatrix::row_sums`]: O(p) when d = b, otherwise p
/// sums of p terms without reading W.
fn complete_sums(p: usize, d: f64, b: f64) -> Vec<f64> {
    if d.to_bits() == b.to_bits() {
        return vec![(0..p).map(|_| b).sum(); p];
    }
    (0..p)
        .map(|i| (0..p).map(|j| if j == i { d } else { b }).sum())
        .collect()
}

/// The checks shown next to a mixing matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Checks {
    /// Σ_j W_ij for every row i.
    pub row_sums: Vec<f64>,
    /// Σ_i W_ij for every column j.
    pub col_sums: Vec<f64>,
    /// Every row sums to 1: each new value is a weighted average.
    pub row_stochastic: bool,
    /// Every column sums to 1: Σ_i x_i, hence the arithmetic mean, is preserved.
    pub column_stochastic: bool,
    /// Both of the above.
    pub doubly_stochastic: bool,
    /// W = Wᵀ.
    pub symmetric: bool,
    /// No negative weight.
    pub nonnegative: bool,
    /// The graph is (strongly) connected.
    pub connected: bool,
    /// The weights π of the mean the values converge to (1/p each when the
    /// arithmetic mean is preserved); `None` when it could not be found.
    pub stationary: Option<Vec<f64>>,
    /// Plain-language remarks, e.g. why uniform weights on a star are not
    /// doubly stochastic.
    pub notes: Vec<String>,
}

impl Checks {
    /// Runs all checks on `m` for `graph`.
    pub fn new(graph: &Graph, m: &MixingMatrix) -> Checks {
        let row_sums = m.row_sums();
        let col_sums = m.col_sums();
        let row_stochastic = row_sums.iter().all(|s| (s - 1.0).abs() <= CHECK_TOL);
        let column_stochastic = col_sums.iter().all(|s| (s - 1.0).abs() <= CHECK_TOL);
        let symmetric = m.is_symmetric();
        let nonnegative = m.is_nonnegative();
        let connected = graph.is_connected();
        let stationary = m.stationary().ok();
        let mut notes = Vec::new();
        if !column_stochastic {
            let (jmin, smin) = extreme(&col_sums, |a, b| a < b);
            let (jmax, smax) = extreme(&col_sums, |a, b| a > b);
            notes.push(format!(
                "Columns do not all sum to 1 (node {jmax}: {}, node {jmin}: {}), so W is not doubly stochastic and the arithmetic mean is not preserved; the values converge to the π-weighted mean instead.",
                format_weight(smax),
                format_weight(smin)
            ));
            if graph
                .in_neighbours()
                .iter()
                .any(|n| n.len() != graph.degree(0))
            {
                notes.push(
                    "Uniform 1/(deg+1) weights are doubly stochastic only on regular graphs; this graph's degrees differ. Metropolis–Hastings weights fix this."
                        .into(),
                );
            }
        }
        if !connected {
            notes.push(
                "The graph is not connected, so the values cannot reach one consensus.".into(),
            );
        }
        Checks {
            row_sums,
            col_sums,
            row_stochastic,
            column_stochastic,
            doubly_stochastic: row_stochastic && column_stochastic,
            symmetric,
            nonnegative,
            connected,
            stationary,
            notes,
        }
    }

    /// The value the iteration converges to: Σ π_i x_i (the arithmetic mean
    /// when W is doubly stochastic). `None` without π or on a length mismatch.
    pub fn limit(&self, x0: &[f64]) -> Option<f64> {
        let pi = self.stationary.as_ref()?;
        (pi.len() == x0.len()).then(|| pi.iter().zip(x0).map(|(a, b)| a * b).sum())
    }
}

fn extreme(v: &[f64], better: impl Fn(f64, f64) -> bool) -> (usize, f64) {
    let mut best = (0, v.first().copied().unwrap_or(0.0));
    for (i, &x) in v.iter().enumerate() {
        if better(x, best.1) {
            best = (i, x);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn weights_come_from_the_rows_and_the_dense_form_is_built_on_demand() {
        // star on 4 nodes, Metropolis–Hastings: hub degree 3, leaves 1, so
        // every edge weighs 1/(1 + 3) = 1/4; the hub keeps 1 − 3/4 = 1/4 and
        // each leaf 1 − 1/4 = 3/4
        let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
        let m = mixing_matrix(&g, WeightRule::Metropolis).expect("W");
        let fresh = m.clone();
        assert_eq!(m.weight(0, 0), 0.25);
        assert_eq!(m.weight(0, 3), 0.25);
        assert_eq!(m.weight(2, 2), 0.75);
        assert_eq!(m.weight(2, 3), 0.0, "leaves are not neighbours");
        assert_eq!(m.weight(4, 0), 0.0, "out of range");
        let dense = m.dense();
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(dense[(i, j)], m.weight(i, j), "({i}, {j})");
            }
        }
        // equal whether or not the dense form exists
        assert_eq!(m, fresh);
    }

    #[test]
    fn uniform_ring_p4_is_one_third_everywhere_it_can_be() {
        let g = Graph::new(GraphKind::Ring, 4, 0).expect("ring");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("uniform");
        assert!(close(m.weight(0, 3), 1.0 / 3.0) && close(m.weight(0, 0), 1.0 / 3.0));
        assert_eq!(m.weight(0, 2), 0.0);
        let c = Checks::new(&g, &m);
        assert!(c.doubly_stochastic && c.symmetric && c.connected && c.notes.is_empty());
        assert_eq!(m.apply(&[0.0, 3.0, 6.0, 9.0]), vec![4.0, 3.0, 6.0, 5.0]);
    }

    #[test]
    fn uniform_star_converges_to_a_weighted_mean() {
        // Star p=4: hub degree 3 → weights 1/4; leaves degree 1 → weights 1/2.
        // Column sums: hub 1/4 + 3·1/2 = 7/4; leaf 1/4 + 1/2 = 3/4.
        let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("uniform");
        let c = Checks::new(&g, &m);
        assert!(c.row_stochastic && !c.column_stochastic && !c.symmetric);
        assert!(close(c.col_sums[0], 1.75) && close(c.col_sums[1], 0.75));
        // π ∝ d + 1 = (4, 2, 2, 2)/10
        let pi = c.stationary.clone().expect("π");
        for (a, b) in pi.iter().zip([0.4, 0.2, 0.2, 0.2]) {
            assert!(close(*a, b), "{pi:?}");
        }
        // init (0,3,6,9) with the hub at 0: 0.2·18 = 3.6, not the mean 4.5
        let lim = c.limit(&[0.0, 3.0, 6.0, 9.0]).expect("limit");
        assert!(close(lim, 3.6));
        assert!(c.notes.iter().any(|n| n.contains("only on regular graphs")));
    }

    #[test]
    fn lu_stationary_agrees_with_the_detailed_balance_formula() {
        // Lazy uniform on a path: W_ii ≠ 1/(d+1), so the 1/W_ii shortcut fails
        // unless the chain is reversible with π ∝ 1/W_ii; (I+W)/2 keeps the same
        // π ∝ d+1 = (2,3,3,2)/10 while 1/W_ii ∝ (4/3, 3/2, 3/2, 4/3) does not.
        let g = Graph::new(GraphKind::Path, 4, 0).expect("path");
        let m = mixing_matrix(&g, WeightRule::Uniform)
            .expect("uniform")
            .lazy();
        let pi = m.stationary().expect("π");
        for (a, b) in pi.iter().zip([0.2, 0.3, 0.3, 0.2]) {
            assert!((a - b).abs() < 1e-12, "{pi:?}");
        }
    }

    #[test]
    fn metropolis_on_a_star_is_doubly_stochastic() {
        // Star p=4: every edge has max degree 3 → 1/4; hub diag 1 − 3/4 = 1/4, leaf diag 3/4.
        let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
        let m = mixing_matrix(&g, WeightRule::Metropolis).expect("mh");
        assert!(close(m.weight(0, 1), 0.25) && close(m.weight(0, 0), 0.25));
        assert!(close(m.weight(2, 2), 0.75));
        let c = Checks::new(&g, &m);
        assert!(c.doubly_stochastic && c.symmetric);
        let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("lazy");
        assert!(close(lazy.weight(0, 0), 0.625) && close(lazy.weight(0, 1), 0.125));
    }

    #[test]
    fn max_degree_and_exponential_weights() {
        let g = Graph::new(GraphKind::Path, 3, 0).expect("path");
        let m = mixing_matrix(&g, WeightRule::MaxDegree).expect("maxdeg");
        // Δ = 2 → edge weight 1/3; end node diag 2/3, middle diag 1/3.
        assert!(close(m.weight(0, 1), 1.0 / 3.0) && close(m.weight(0, 0), 2.0 / 3.0));
        assert!(close(m.weight(1, 1), 1.0 / 3.0));
        let e = Graph::new(GraphKind::Exponential, 8, 0).expect("exp");
        let w = mixing_matrix(&e, WeightRule::Exponential).expect("exp weights");
        assert!(close(w.weight(0, 7), 0.25) && close(w.weight(0, 4), 0.25));
        assert_eq!(w.weight(0, 1), 0.0);
        let c = Checks::new(&e, &w);
        assert!(c.doubly_stochastic && !c.symmetric);
        assert!(mixing_matrix(&e, WeightRule::Metropolis).is_err());
        assert!(mixing_matrix(&g, WeightRule::Exponential).is_err());
    }

    const CLOSED_RULES: [WeightRule; 4] = [
        WeightRule::Uniform,
        WeightRule::Metropolis,
        WeightRule::Lazy,
        WeightRule::MaxDegree,
    ];

    #[test]
    fn complete_graph_w_is_the_general_construction_bit_for_bit() {
        for p in 2..=40 {
            let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
            for rule in CLOSED_RULES {
                let fast = mixing_matrix(&g, rule).expect("w");
                let slow = general_matrix(&g, rule).expect("w");
                assert!(slow.complete_form().is_none());
                let (d, b) = fast.complete_form().expect("d·I + b·(J − I)");
                assert_eq!(fast.rows(), slow.rows(), "p={p} {rule}");
                assert_eq!(fast.dense(), slow.dense(), "p={p} {rule}");
                assert_eq!((fast.weight(0, 0), fast.weight(p - 1, 0)), (d, b));
                // the checks read the same numbers as from the sparse rows
                assert_eq!(fast.row_sums(), slow.row_sums(), "p={p} {rule}");
                assert_eq!(fast.col_sums(), slow.col_sums(), "p={p} {rule}");
                assert_eq!(fast.symmetry_error(), slow.symmetry_error());
                assert!(fast.is_nonnegative() && slow.is_nonnegative());
                assert_eq!(Checks::new(&g, &fast), Checks::new(&g, &slow));
            }
        }
        // by hand, p = 4: uniform and Metropolis–Hastings give 1/4 everywhere;
        // lazy: d = 1/4·1/2 + 1/2 = 5/8, b = 1/8
        let g = Graph::new(GraphKind::Complete, 4, 0).expect("complete");
        let w = |rule| mixing_matrix(&g, rule).expect("w").complete_form();
        assert_eq!(w(WeightRule::Uniform), Some((0.25, 0.25)));
        assert_eq!(w(WeightRule::Metropolis), Some((0.25, 0.25)));
        assert_eq!(w(WeightRule::Lazy), Some((0.625, 0.125)));
        let ring = Graph::new(GraphKind::Ring, 4, 0).expect("ring");
        let m = mixing_matrix(&ring, WeightRule::Uniform).expect("w");
        assert!(m.complete_form().is_none() && m.lazy().complete_form().is_none());
    }

    #[test]
    fn the_complete_graph_writes_its_rows_only_when_all_are_asked_for() {
        // the gossip view's whole run at p = 1024 never needs the 1024² entries
        let run = super::super::GossipRun::with_dense_limit(
            GraphKind::Complete,
            1024,
            1,
            WeightRule::Uniform,
            &super::super::InitPattern::Linear,
            (10, 100.0),
            super::super::DENSE_LIST_MAX_P,
        )
        .expect("run");
        let m = &run.matrix;
        assert!(m.rows.get().is_none(), "rows written");
        assert_eq!((m.p(), m.round_cost()), (1024, 2 * 1024));
        // one row on its own: 1/1024 everywhere (d = b for uniform weights)
        let row = m.row(5).expect("row 5");
        assert_eq!(row.len(), 1024);
        assert_eq!((row[5], row[6]), ((5, 1.0 / 1024.0), (6, 1.0 / 1024.0)));
        assert!(m.row(1024).is_none());
        assert_eq!(m.weight(3, 3), 1.0 / 1024.0);
        assert_eq!(m.weight(3, 1024), 0.0);
        assert!(m.rows.get().is_none(), "a row or a weight writes no rows");
        // equal to a copy whose rows were written, and to the dense form
        let written = m.clone();
        assert_eq!(written.rows()[5].as_slice(), &row[..]);
        assert_eq!(&written, m);
        // lazy weights on 6 nodes (d ≠ b): a row on its own is the written row
        let g = Graph::new(GraphKind::Complete, 6, 0).expect("complete");
        let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("w");
        let row = lazy.row(2).expect("row 2");
        assert_eq!(row.as_ref(), lazy.rows()[2].as_slice());
        assert_eq!(row[2].1, lazy.complete_form().expect("form").0);
    }

    #[test]
    fn complete_graph_rounds_equal_the_sparse_and_dense_products() {
        for p in [2, 3, 5, 7, 16, 31, 64, 100, 257] {
            let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
            let x = crate::core::consensus::InitPattern::Random(p as u64)
                .values(p)
                .expect("x");
            for rule in CLOSED_RULES {
                let fast = mixing_matrix(&g, rule).expect("w");
                let slow = general_matrix(&g, rule).expect("w");
                let (d, b) = fast.complete_form().expect("complete form");
                let dense = slow.dense() * nalgebra::DVector::from_column_slice(&x);
                let (mut xf, mut xs) = (x.clone(), x.clone());
                for round in 1..=5 {
                    xf = fast.apply(&xf);
                    xs = slow.apply(&xs);
                    if d.to_bits() == b.to_bits() {
                        // uniform weights (any p), or d = b exactly: bit for bit
                        assert_eq!(xf, xs, "p={p} {rule} round {round}");
                    }
                    for (a, c) in xf.iter().zip(&xs) {
                        assert!(
                            (a - c).abs() <= 1e-13 * (1.0 + c.abs()),
                            "p={p} {rule}: {a} vs {c}"
                        );
                    }
                    if round == 1 {
                        for (a, c) in xf.iter().zip(dense.iter()) {
                            assert!((a - c).abs() <= 1e-13 * (1.0 + c.abs()));
                        }
                    }
                }
                let mut into = vec![7.0; 3];
                fast.apply_into(&x, &mut into);
                assert_eq!(into, fast.apply(&x));
            }
        }
        // p = 4, x = (0, 3, 6, 9): uniform averages in one round to 4.5;
        // lazy: 5/8·x_i + 1/8·(18 − x_i) = x_i/2 + 2.25
        let g = Graph::new(GraphKind::Complete, 4, 0).expect("complete");
        let x = [0.0, 3.0, 6.0, 9.0];
        let uniform = mixing_matrix(&g, WeightRule::Uniform).expect("w");
        assert_eq!(uniform.apply(&x), vec![4.5; 4]);
        let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("w");
        assert_eq!(lazy.apply(&x), vec![2.25, 3.75, 5.25, 6.75]);
    }

    #[test]
    fn vector_mixing_and_length_errors() {
        let g = Graph::new(GraphKind::Ring, 3, 0).expect("ring");
        let m = mixing_matrix(&g, WeightRule::Uniform).expect("uniform");
        let out = m
            .apply_vectors(&[vec![3.0, 0.0], vec![6.0, 3.0], vec![12.0, 6.0]])
            .expect("vectors");
        assert!(close(out[1][0], 7.0) && close(out[1][1], 3.0));
        assert!(m
            .apply_vectors(&[vec![1.0], vec![1.0, 2.0], vec![1.0]])
            .is_err());
        assert!(m.try_apply(&[1.0]).is_err());
    }
}
