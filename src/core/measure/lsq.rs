//! The measure fits' one weighted least-squares solver and Huber's weights.
//!
//! The joint fit ([`super::joint`], θ = (α, β, γ)) and the regime fit
//! ([`super::regime`], two regimes' α and β and a shared γ) both minimise
//! the relative error of a linear model t ≈ x·θ over rows (x, t):
//!
//!   Σ_rows w · ((x·θ − t)/t)²,
//!
//! over a subset of the columns (the others fixed at 0, so a fit can drop
//! γ or a regime's α). Each chosen column is scaled to unit weighted norm
//! first, so the normal matrix has a unit diagonal: its determinant (the
//! product of the pivots) lies in [0, 1], and a small pivot means a column
//! is, to that many digits, a combination of the others. The normal
//! equations are solved by Gaussian elimination with partial pivoting
//! (Golub and Van Loan, *Matrix Computations*, §3.4), generic over the
//! number of unknowns, so no matrix library is linked for it.
//!
//! Robustness is iteratively re-weighted least squares with Huber's
//! weight w(r) = min(1, k·s/|r|), k = 1.345 robust standard deviations
//! (Huber 1964; 95 % efficiency under Gaussian noise) and s = 1.4826 ×
//! the median |r| (the MAD, a consistent estimate of σ). The two fits
//! differ in their residual (the joint fit uses ln(t/model), the regime
//! fit (t − model)/t at a scale fixed across breakpoints) and say so.

/// Huber's tuning constant, in robust standard deviations.
pub const HUBER_K: f64 = 1.345;

/// When a solve counts as singular (columns scaled to unit norm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Singular {
    /// When any pivot falls below this (the regime fit: 1e-9, ring and
    /// Rabenseifner's γ at p = 4 are one column to 9 digits).
    Pivot(f64),
    /// When the determinant, the product of the pivots, falls below this
    /// (the joint fit: 1e-12).
    Determinant(f64),
}

/// Weighted least squares of Σ w·((x·θ − t)/t)² over the columns `cols`
/// of N unknowns (the others 0), columns scaled to unit norm; `None` when
/// a chosen column is empty or not finite, the system is singular by
/// `singular`, or the result is not finite. `w` has one weight per row.
pub fn relative_lsq<const N: usize>(
    rows: &[([f64; N], f64)],
    w: &[f64],
    cols: &[usize],
    singular: Singular,
) -> Option<[f64; N]> {
    let mut scale = [0.0f64; N];
    for ((x, t), w) in rows.iter().zip(w) {
        for &j in cols {
            scale[j] += w * (x[j] / t).powi(2);
        }
    }
    let mut m = [[0.0f64; N]; N];
    let mut v = [0.0f64; N];
    for (j, row) in m.iter_mut().enumerate() {
        row[j] = 1.0;
    }
    for &j in cols {
        scale[j] = scale[j].sqrt();
        if !(scale[j] > 0.0 && scale[j].is_finite()) {
            return None;
        }
        m[j][j] = 0.0;
    }
    for ((x, t), w) in rows.iter().zip(w) {
        for &i in cols {
            let zi = x[i] / t / scale[i];
            v[i] += w * zi;
            for &j in cols {
                m[i][j] += w * zi * x[j] / t / scale[j];
            }
        }
    }
    let th = gauss(m, v, singular)?;
    let mut out = [0.0; N];
    for &j in cols {
        out[j] = th[j] / scale[j];
    }
    out.iter().all(|x| x.is_finite()).then_some(out)
}

/// Solves `m·x = v` by Gaussian elimination with partial pivoting; `None`
/// when singular by `singular` (or a pivot is NaN).
fn gauss<const N: usize>(
    mut m: [[f64; N]; N],
    mut v: [f64; N],
    singular: Singular,
) -> Option<[f64; N]> {
    let mut det = 1.0f64;
    for c in 0..N {
        let r = (c..N).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        m.swap(c, r);
        v.swap(c, r);
        let (top, rest) = m.split_at_mut(c + 1);
        let pivot_row = &top[c];
        let piv = pivot_row[c];
        if piv.is_nan() || matches!(singular, Singular::Pivot(min) if piv.abs() < min) {
            return None;
        }
        det *= piv.abs();
        let vc = v[c];
        for (row, vr) in rest.iter_mut().zip(v[c + 1..].iter_mut()) {
            let f = row[c] / piv;
            for (x, y) in row[c..].iter_mut().zip(&pivot_row[c..]) {
                *x -= f * y;
            }
            *vr -= f * vc;
        }
    }
    if matches!(singular, Singular::Determinant(min) if det < min) {
        return None;
    }
    let mut x = [0.0; N];
    for c in (0..N).rev() {
        let s: f64 = (c + 1..N).map(|k| m[c][k] * x[k]).sum();
        x[c] = (v[c] - s) / m[c][c];
    }
    Some(x)
}

/// Huber's weight of each residual at scale `s`: min(1, k·s/|r|).
pub fn huber_weights(r: &[f64], s: f64) -> Vec<f64> {
    r.iter().map(|v| (HUBER_K * s / v.abs()).min(1.0)).collect()
}

/// The robust scale 1.4826 × the median |r| (the upper median of an even
/// count); 0 for no residuals.
pub fn mad_scale(r: &[f64]) -> f64 {
    let mut a: Vec<f64> = r.iter().map(|v| v.abs()).collect();
    crate::core::order::sort_f64(&mut a);
    1.4826 * a.get(a.len() / 2).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_line_is_recovered_and_a_dropped_column_stays_zero() {
        // t = 2·x0 + 3·x1 on three rows: exact, so every weight gives it.
        let rows = [
            ([1.0, 1.0, 5.0], 5.0),
            ([1.0, 2.0, 1.0], 8.0),
            ([2.0, 1.0, 3.0], 7.0),
        ];
        let th = relative_lsq(&rows, &[1.0; 3], &[0, 1], Singular::Pivot(1e-9)).expect("solves");
        assert!(
            (th[0] - 2.0).abs() < 1e-12 && (th[1] - 3.0).abs() < 1e-12,
            "{th:?}"
        );
        assert_eq!(th[2], 0.0);
        let th = relative_lsq(
            &rows,
            &[1.0, 0.5, 2.0],
            &[0, 1],
            Singular::Determinant(1e-12),
        )
        .expect("solves");
        assert!(
            (th[0] - 2.0).abs() < 1e-12 && (th[1] - 3.0).abs() < 1e-12,
            "{th:?}"
        );
    }

    #[test]
    fn two_equal_columns_are_singular_by_either_rule() {
        let rows = [([1.0, 1.0], 2.0), ([2.0, 2.0], 4.0), ([3.0, 3.0], 6.0)];
        assert_eq!(
            relative_lsq(&rows, &[1.0; 3], &[0, 1], Singular::Pivot(1e-9)),
            None
        );
        assert_eq!(
            relative_lsq(&rows, &[1.0; 3], &[0, 1], Singular::Determinant(1e-12)),
            None
        );
        // An empty column cannot be scaled.
        let zero = [([0.0, 1.0], 2.0)];
        assert_eq!(
            relative_lsq(&zero, &[1.0], &[0], Singular::Pivot(1e-9)),
            None
        );
    }

    #[test]
    fn huber_weights_cap_the_far_residuals() {
        // |r| = 0.1, 0.2, 0.3, 10: median (upper) 0.3, s = 0.44478; k·s =
        // 0.59823, so the first three keep weight 1 and 10 gets 0.0598.
        let r = [0.1, -0.2, 0.3, 10.0];
        let s = mad_scale(&r);
        assert!((s - 1.4826 * 0.3).abs() < 1e-12);
        let w = huber_weights(&r, s);
        assert_eq!(&w[..3], &[1.0, 1.0, 1.0]);
        assert!((w[3] - HUBER_K * s / 10.0).abs() < 1e-15);
        assert_eq!(mad_scale(&[]), 0.0);
    }
}
