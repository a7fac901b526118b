//! Lengths of unions, overlaps and differences of time intervals
//! (`(start, end)` pairs, any one unit), each in one sorted sweep; the
//! tests check them against a naive sweep over every end point.

/// The length of the union of `iv` (each `(start, end)`), in the same unit.
pub fn union_len(iv: &[(f64, f64)]) -> f64 {
    merged(iv).iter().map(|(a, b)| b - a).sum()
}

/// `iv` sorted and merged into disjoint intervals.
pub fn merged(iv: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = iv.iter().copied().filter(|(a, b)| b > a).collect();
    v.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// `x` without `y`, both disjoint and sorted (as [`merged`] gives them).
pub fn minus(x: &[(f64, f64)], y: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(x.len());
    let mut j = 0;
    for &(a, b) in x {
        let mut lo = a;
        while j < y.len() && y[j].1 <= lo {
            j += 1;
        }
        let mut k = j;
        while k < y.len() && y[k].0 < b {
            if y[k].0 > lo {
                out.push((lo, y[k].0));
            }
            lo = lo.max(y[k].1);
            k += 1;
        }
        if lo < b {
            out.push((lo, b));
        }
    }
    out
}

/// The length of (the union of `x`) ∩ (the union of `y`).
pub fn overlap_len(x: &[(f64, f64)], y: &[(f64, f64)]) -> f64 {
    let (x, y) = (merged(x), merged(y));
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < x.len() && j < y.len() {
        let lo = x[i].0.max(y[j].0);
        let hi = x[i].1.min(y[j].1);
        if hi > lo {
            sum += hi - lo;
        }
        if x[i].1 < y[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    sum
}
