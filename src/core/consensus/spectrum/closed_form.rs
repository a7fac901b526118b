//! Closed-form spectra of structured mixing matrices, each O(p · non-zeros
//! per row) or less: circulant W (ring, torus, complete and exponential
//! graphs), the hypercube's, a path's W = I − c·L and a star's. Each
//! returns `None` when W lacks the structure its formula needs.

use super::Eigenvalue;
use crate::core::consensus::MixingMatrix;

/// Closed-form eigenvalues of a W invariant under translations of
/// Z_rows × Z_cols (node r·cols + c ↔ (r, c)); see
/// [`SpectrumMethod::Circulant`](super::SpectrumMethod::Circulant).
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
/// every i; see [`SpectrumMethod::Hypercube`](super::SpectrumMethod::Hypercube).
/// `None` when p is not a power of two or W lacks the symmetry.
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
/// [`SpectrumMethod::Path`](super::SpectrumMethod::Path). `None` when W is not
/// of that form (e.g. uniform weights, whose rows differ at the ends).
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
/// [`SpectrumMethod::Star`](super::SpectrumMethod::Star). `None` when W lacks
/// that structure.
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
