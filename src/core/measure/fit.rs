//! Robust α–β fit of measured times.
//!
//! Under an algorithm model the time of one operation on `n` bytes is a line
//! in `n`: `T(n) = s·α + f·n·β` with `s` start-ups and byte factor `f` from
//! the closed forms ([`super::model::Model::factors`]; Thakur, Rabenseifner &
//! Gropp 2005). The line `T = a + b·n` is fitted, then `α = a / s` and
//! `β = b / f`.
//!
//! The fit minimises **relative** residuals `(T_i − a − b·n_i) / T_i`, because
//! benchmark noise is multiplicative and sizes span many orders of magnitude
//! (an absolute least-squares fit would ignore every small message). It is a
//! Huber M-estimator (Huber 1964, "Robust estimation of a location
//! parameter", Ann. Math. Stat. 35(1); tuning constant k = 1.345) computed by
//! iteratively reweighted least squares (Holland & Welsch 1977, Comm. Stat.
//! A6(9)), with the scale re-estimated each step as 1.4826 × the median
//! absolute residual. Outliers therefore get weight k·s/|r| instead of 1.
//! α and β are kept non-negative (a negative intercept is refitted through
//! the origin and reported).
//!
//! Breakpoints (protocol or algorithm switches): the best split of the sorted
//! sizes into 1, 2 or 3 segments by weighted least squares (exhaustive over
//! up to 120 candidate cuts, O(1) per segment from prefix sums), each segment
//! then refitted robustly. The suggested number of breaks minimises the
//! Bayesian information criterion (Schwarz 1978) with 3 parameters per break,
//! with each candidate's residual sum floored at what the printed precision
//! of the times alone explains (`rounding_floor`): a log that is a straight
//! line up to its last printed digit gets no breakpoint.

use nalgebra::{Matrix2, Vector2};

use super::model::{CollectiveKind, Model};
use crate::core::units::decimal;
use crate::core::units::format_exact_or_approx;

/// Huber's tuning constant (95 % efficiency at the normal distribution).
pub const HUBER_K: f64 = 1.345;
/// Most IRLS iterations.
const MAX_ITER: usize = 100;
/// Most candidate cut positions in the breakpoint search.
const MAX_CANDIDATES: usize = 120;
/// Fewest points per segment.
pub const MIN_SEGMENT: usize = 3;

/// What to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Algorithm model.
    pub model: Model,
    /// Collective of the log.
    pub collective: CollectiveKind,
    /// Rank count.
    pub p: usize,
    /// Smallest size included, bytes.
    pub min_size: f64,
    /// Largest size included, bytes.
    pub max_size: f64,
    /// Number of breakpoints (0, 1 or 2).
    pub breaks: usize,
}

/// One fitted segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Smallest size in the segment, bytes.
    pub from: f64,
    /// Largest size in the segment, bytes.
    pub to: f64,
    /// Fitted intercept `s·α`, seconds.
    pub intercept: f64,
    /// Fitted slope `f·β`, seconds per byte.
    pub slope: f64,
    /// α = intercept / start-ups, seconds.
    pub alpha: f64,
    /// β = slope / byte factor, seconds per byte.
    pub beta: f64,
    /// Points in the segment.
    pub points: usize,
    /// True when the unconstrained intercept was negative (α not identifiable
    /// from these sizes; refitted with α = 0).
    pub alpha_clamped: bool,
}

impl Segment {
    /// Predicted time at `n` bytes, seconds.
    pub fn time(&self, n: f64) -> f64 {
        self.intercept + self.slope * n
    }
}

/// One measured point against the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Residual {
    /// Size, bytes.
    pub n: f64,
    /// Measured time, seconds.
    pub t: f64,
    /// Fitted time, seconds.
    pub predicted: f64,
    /// `(t − predicted) / predicted` (dimensionless; 0.05 = 5 % slower).
    pub rel: f64,
    /// Index of the point in the input.
    pub index: usize,
}

/// The fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The options used.
    pub options: FitOptions,
    /// `(start-ups, byte factor)` of the model.
    pub factors: (f64, f64),
    /// Segments in size order (one without breakpoints).
    pub segments: Vec<Segment>,
    /// Headline α, seconds (the first segment's: small messages).
    pub alpha: f64,
    /// Headline β, seconds per byte (the last segment's: large messages).
    pub beta: f64,
    /// Residuals of the points in the size range, in size order.
    pub residuals: Vec<Residual>,
    /// R² of log T (the fit seen on the log–log chart).
    pub r2_log: f64,
    /// Indices into `residuals` of the (up to 5) largest |rel|, largest first.
    pub worst: Vec<usize>,
    /// Suggested number of breakpoints (BIC) and the cut sizes for it.
    pub suggested: (usize, Vec<f64>),
    /// Remarks (clamped α, fewer breaks than asked).
    pub notes: Vec<String>,
}

/// Below this R² of log T a fit is called poor (unless half its points lie
/// within [`GOOD_MEDIAN_REL`]).
pub const POOR_R2: f64 = 0.9;
/// A fit whose median |relative residual| is at most this (1 %) explains
/// the data, whatever its R²: a flat, latency-only log has a tiny spread of
/// log T, so R² says nothing there. The median, like the Huber fit itself,
/// is not moved by one outlier.
pub const GOOD_MEDIAN_REL: f64 = 0.01;
/// α is called extrapolated when, at the smallest size fitted, the start-up
/// term s·α is less than this share (half) of the fitted time: the β term
/// dominates there, so the intercept lies far outside the measured sizes.
pub const EXTRAPOLATED_SHARE: f64 = 0.5;

impl Fit {
    /// Largest |relative residual| of the fitted points (0.01 = 1 %).
    pub fn max_rel(&self) -> f64 {
        self.residuals
            .iter()
            .map(|r| r.rel.abs())
            .fold(0.0, f64::max)
    }

    /// Median |relative residual| of the fitted points (0.01 = 1 %; the
    /// upper median for an even count).
    pub fn median_rel(&self) -> f64 {
        let mut v: Vec<f64> = self.residuals.iter().map(|r| r.rel.abs()).collect();
        crate::core::order::sort_f64(&mut v);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    }

    /// A warning when the model does not explain the data: R² of log T below
    /// [`POOR_R2`], or β ≤ 0, unless the median |relative residual| is at
    /// most [`GOOD_MEDIAN_REL`] (a flat, latency-only log that fits within
    /// 1 % gets no warning: its β is unmeasured, which the bandwidth line
    /// says). `None` for a good fit.
    pub fn poor_fit_warning(&self) -> Option<String> {
        let good = self.median_rel() <= GOOD_MEDIAN_REL;
        let poor_r2 = !good && (self.r2_log.is_nan() || self.r2_log < POOR_R2);
        let flat = !good && (self.beta.is_nan() || self.beta <= 0.0);
        if !poor_r2 && !flat {
            return None;
        }
        let mut why = Vec::new();
        if poor_r2 {
            why.push(format!(
                "R² of log T is {}, below {}",
                format_exact_or_approx(self.r2_log),
                crate::core::units::decimal::shortest(POOR_R2)
            ));
        }
        if flat {
            why.push("β = 0: the times do not grow with the size in the fitted range".to_string());
        }
        Some(format!("The {} α–β model does not explain these data ({}; median deviation {} %), so α and β are not a measurement of this network. Try another algorithm model, a size range where the times grow with the size, or more rows.", self.options.model.label(), why.join("; "), decimal::fixed(self.median_rel() * 100.0, 1)))
    }

    /// A warning when α is an intercept extrapolated far below the measured
    /// sizes: at the smallest size `n₀` of the first segment the start-up
    /// term `s·α` is less than [`EXTRAPOLATED_SHARE`] of the fitted time
    /// `s·α + f·n₀·β`, i.e. the β term dominates every measured time and α
    /// is not measured by these sizes. `None` otherwise (and when α was
    /// clamped to 0, which a note already reports).
    pub fn alpha_extrapolated_warning(&self) -> Option<String> {
        let seg = self.segments.first()?;
        if seg.alpha_clamped {
            return None;
        }
        let t0 = seg.time(seg.from);
        if t0.is_nan() || t0 <= 0.0 {
            return None;
        }
        let share = seg.intercept / t0;
        (share < EXTRAPOLATED_SHARE).then(|| {
            format!("α is extrapolated, not measured: at the smallest size fitted ({} B) the start-up term is {} µs of {} µs ({} %), so α is an intercept far below the sizes measured. Add small sizes to measure it.", crate::core::units::group_thousands(seg.from as u64), crate::core::units::sig(seg.intercept * 1e6, 4), crate::core::units::sig(t0 * 1e6, 4), decimal::fixed(share * 100.0, 1))
        })
    }
}

/// Why no fit was made.
#[derive(Clone, Debug, PartialEq)]
pub enum FitError {
    /// Fewer than [`MIN_SEGMENT`] points (or one distinct size) in the range.
    TooFewPoints(usize),
    /// The model has no closed form for this collective, or p < 2.
    NoModel(String),
    /// The rank count is undetermined: the user must set it first.
    RankCountUnknown(String),
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FitError::TooFewPoints(n) => write!(
                f,
                "{n} usable points in the size range: the fit needs at least {MIN_SEGMENT} with two different sizes"
            ),
            FitError::NoModel(s) | FitError::RankCountUnknown(s) => f.write_str(s),
        }
    }
}

/// Weighted least squares of `t = a + b·x` minimising Σ w (residual / t)²,
/// with a, b ≥ 0. `None` when the points do not determine a line.
fn wls(pts: &[(f64, f64)], w: &[f64]) -> Option<(f64, f64, bool)> {
    let (mut s0, mut s1, mut s2, mut t0, mut t1) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (&(x, t), &wi) in pts.iter().zip(w) {
        let v = wi / (t * t);
        s0 += v;
        s1 += v * x;
        s2 += v * x * x;
        t0 += v * t;
        t1 += v * x * t;
    }
    let m = Matrix2::new(s0, s1, s1, s2);
    let sol = m.try_inverse().map(|inv| inv * Vector2::new(t0, t1));
    match sol {
        Some(s) if s[0] >= 0.0 && s[1] >= 0.0 && s[0].is_finite() && s[1].is_finite() => {
            Some((s[0], s[1], false))
        }
        Some(s) if s[0] < 0.0 && s2 > 0.0 => Some((0.0, (t1 / s2).max(0.0), true)),
        _ if s0 > 0.0 => Some((t0 / s0, 0.0, false)),
        _ => None,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let m = v.len() / 2;
    let even = m * 2 == v.len();
    let (lo, mid, _) = v.select_nth_unstable_by(m, f64::total_cmp);
    let mid = *mid;
    if even {
        let below = lo.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        0.5 * (below + mid)
    } else {
        mid
    }
}

/// Huber IRLS fit of `t = a + b·x` on relative residuals (see module docs).
/// Returns `(a, b, intercept_clamped)`.
pub fn huber_line(pts: &[(f64, f64)]) -> Option<(f64, f64, bool)> {
    if pts.len() < 2 {
        return None;
    }
    let xmax = pts.iter().map(|p| p.0).fold(0.0, f64::max);
    if xmax.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    // Scale sizes to [0, 1] for conditioning.
    let scaled: Vec<(f64, f64)> = pts.iter().map(|&(x, t)| (x / xmax, t)).collect();
    let mut w = vec![1.0; pts.len()];
    let (mut a, mut b, mut clamped) = wls(&scaled, &w)?;
    for _ in 0..MAX_ITER {
        let r: Vec<f64> = scaled.iter().map(|&(x, t)| (t - a - b * x) / t).collect();
        let s = 1.4826 * median(r.iter().map(|v| v.abs()).collect());
        if s.is_nan() || s <= 1e-12 {
            break;
        }
        for (wi, ri) in w.iter_mut().zip(&r) {
            let u = ri.abs() / s;
            *wi = if u <= HUBER_K { 1.0 } else { HUBER_K / u };
        }
        let (na, nb, nc) = wls(&scaled, &w)?;
        let done = (na - a).abs() <= 1e-12 * na.abs().max(1e-300)
            && (nb - b).abs() <= 1e-12 * nb.abs().max(1e-300);
        a = na;
        b = nb;
        clamped = nc;
        if done {
            break;
        }
    }
    Some((a, b / xmax, clamped))
}

/// Prefix sums for O(1) weighted-least-squares segment costs.
struct Prefix {
    s: Vec<[f64; 6]>,
}

impl Prefix {
    fn new(pts: &[(f64, f64)], xmax: f64) -> Prefix {
        let mut s = vec![[0.0; 6]; pts.len() + 1];
        for (i, &(n, t)) in pts.iter().enumerate() {
            let x = n / xmax;
            let v = 1.0 / (t * t);
            let add = [v, v * x, v * x * x, v * t, v * x * t, 1.0];
            let mut row = s[i];
            for (r, a) in row.iter_mut().zip(add) {
                *r += a;
            }
            s[i + 1] = row;
        }
        Prefix { s }
    }

    /// Sum of squared relative residuals of the LS line over points `i..j`.
    fn sse(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (self.s[i], self.s[j]);
        let d: Vec<f64> = (0..6).map(|k| b[k] - a[k]).collect();
        let m = Matrix2::new(d[0], d[1], d[1], d[2]);
        let rhs = Vector2::new(d[3], d[4]);
        match m.try_inverse() {
            Some(inv) => (d[5] - rhs.dot(&(inv * rhs))).max(0.0),
            None => f64::INFINITY,
        }
    }
}

/// Largest sum of squared relative residuals, Σ (rᵢ / tᵢ)² (dimensionless),
/// that rounding the times to their printed digits can cause on its own:
/// `Σ (hᵢ / tᵢ)²` with `hᵢ` the half-unit in the last printed digit of time
/// `tᵢ` (seconds, [`super::Printed::half_ulp`]; nccl-tests prints the time
/// in µs with 2 decimals below 100 µs, 1 below 10 ms and none above, so `hᵢ`
/// is 0.005, 0.05 or 0.5 µs).
///
/// Why it bounds the residual: if the true times lie exactly on a line (or
/// on one line per segment), the printed `tᵢ` differ from them by
/// `eᵢ` with `|eᵢ| ≤ hᵢ`. The least-squares residual is the projection of
/// `e` onto the complement of the fitted lines (in the weighted norm
/// `Σ (·/tᵢ)²` that [`Prefix`] uses), and a projection does not lengthen a
/// vector, so its SSE is at most `Σ (eᵢ/tᵢ)² ≤ Σ (hᵢ/tᵢ)²`. An SSE below
/// this floor therefore says nothing about the data, and the BIC compares
/// `max(SSE, floor)`: extra segments that only fit the rounding tie with
/// one line and lose on the penalty. Sizes are taken as exact (nccl-tests
/// and OSU print whole bytes). `half_ulp` missing or shorter than `pts`
/// counts as 0 (exact times).
fn rounding_floor(pts: &[(f64, f64)], half_ulp: &[f64]) -> f64 {
    pts.iter()
        .zip(half_ulp.iter().chain(std::iter::repeat(&0.0)))
        .map(|(&(_, t), &h)| (h.max(0.0) / t).powi(2))
        .filter(|v| v.is_finite())
        .sum()
}

/// Best cut positions (indices where a new segment starts) for `k` breaks,
/// with their total SSE.
fn best_cuts(pre: &Prefix, cands: &[usize], n: usize, k: usize) -> Option<(Vec<usize>, f64)> {
    let ok = |i: usize, j: usize| j >= i + MIN_SEGMENT;
    match k {
        0 => Some((vec![], pre.sse(0, n))),
        1 => cands
            .iter()
            .filter(|&&c| ok(0, c) && ok(c, n))
            .map(|&c| (vec![c], pre.sse(0, c) + pre.sse(c, n)))
            .min_by(|a, b| a.1.total_cmp(&b.1)),
        _ => {
            let mut best: Option<(Vec<usize>, f64)> = None;
            for (ia, &c1) in cands.iter().enumerate() {
                if !ok(0, c1) {
                    continue;
                }
                let first = pre.sse(0, c1);
                for &c2 in &cands[ia + 1..] {
                    if !(ok(c1, c2) && ok(c2, n)) {
                        continue;
                    }
                    let e = first + pre.sse(c1, c2) + pre.sse(c2, n);
                    if best.as_ref().is_none_or(|b| e < b.1) {
                        best = Some((vec![c1, c2], e));
                    }
                }
            }
            best
        }
    }
}

/// `(breaks k, cut indices, BIC)` of the best split for k = 0, 1, 2 (those
/// the point count allows). BIC = n·ln(max(SSE, floor) / n) + (3k + 2)·ln n
/// (Schwarz 1978; 2 parameters per line, 3 more per break) with `floor` the
/// rounding bound of the printed times ([`rounding_floor`]; `half_ulp` in
/// seconds, parallel to `pts`), and SSE / n at least 1e-14 (a relative rms of
/// 1e-7 per point: the f64 round-off of the prefix-sum SSE for exact times).
fn break_options(
    pts: &[(f64, f64)],
    half_ulp: &[f64],
    pre: &Prefix,
    cands: &[usize],
) -> Vec<(usize, Vec<usize>, f64)> {
    let n = pts.len();
    let floor = rounding_floor(pts, half_ulp);
    let nf = n as f64;
    (0..=2)
        .filter_map(|k| {
            let (cuts, sse) = best_cuts(pre, cands, n, k)?;
            let bic = nf * (sse.max(floor) / nf).max(1e-14).ln() + (3.0 * k as f64 + 2.0) * nf.ln();
            Some((k, cuts, bic))
        })
        .collect()
}

/// Fits α and β to `points` = `(size in bytes, time in seconds)` taken as
/// exact (see the module docs and [`fit_printed`]). Points outside
/// `[min_size, max_size]`, or with a non-positive or non-finite size or time,
/// are left out.
///
/// # Errors
/// [`FitError::NoModel`] when the model has no closed form for the
/// collective (or p < 2); [`FitError::TooFewPoints`] with fewer than
/// [`MIN_SEGMENT`] usable points or a single distinct size.
pub fn fit(points: &[(f64, f64)], o: FitOptions) -> Result<Fit, FitError> {
    fit_printed(points, &[], o)
}

/// Why options `o` allow no fit: p < 2, or no closed form of the model (or
/// of any model) for the collective.
fn no_model(o: FitOptions) -> FitError {
    FitError::NoModel(if o.p < 2 {
        "the fit needs p ≥ 2 ranks".to_string()
    } else if Model::all()
        .iter()
        .all(|m| m.factors(o.collective, o.p).is_none())
    {
        format!(
            "no model here has a closed form for {}: no α–β fit",
            o.collective.label()
        )
    } else {
        format!(
            "the {} model has no closed form for {}; choose another model",
            o.model.label(),
            o.collective.label()
        )
    })
}

/// [`fit`] of times read from a log: `time_half_ulp[i]` is the half-unit in
/// the last printed digit of `points[i].1`, seconds. It sets the floor below
/// which a smaller residual is not evidence for a breakpoint
/// (`rounding_floor`: Σ (half-unit / time)²); missing entries count as 0.
///
/// # Errors
/// As [`fit`].
pub fn fit_printed(
    points: &[(f64, f64)],
    time_half_ulp: &[f64],
    o: FitOptions,
) -> Result<Fit, FitError> {
    let factors = o
        .model
        .factors(o.collective, o.p)
        .ok_or_else(|| no_model(o))?;
    let mut idx: Vec<usize> = (0..points.len())
        .filter(|&i| {
            let (n, t) = points[i];
            n.is_finite()
                && t.is_finite()
                && n > 0.0
                && t > 0.0
                && n >= o.min_size
                && n <= o.max_size
        })
        .collect();
    crate::core::order::sort_by_f64(&mut idx, |&a| points[a].0);
    let pts: Vec<(f64, f64)> = idx.iter().map(|&i| points[i]).collect();
    let distinct =
        pts.windows(2).filter(|w| w[1].0 > w[0].0).count() + usize::from(!pts.is_empty());
    if pts.len() < MIN_SEGMENT || distinct < 2 {
        return Err(FitError::TooFewPoints(pts.len()));
    }
    let n = pts.len();
    let xmax = pts[n - 1].0;
    let pre = Prefix::new(&pts, xmax);
    let all_cuts: Vec<usize> = (1..n).filter(|&i| pts[i].0 > pts[i - 1].0).collect();
    let stride = all_cuts.len().div_ceil(MAX_CANDIDATES).max(1);
    let cands: Vec<usize> = all_cuts.iter().copied().step_by(stride).collect();
    let halves: Vec<f64> = idx
        .iter()
        .map(|&i| time_half_ulp.get(i).copied().unwrap_or(0.0))
        .collect();
    let options = break_options(&pts, &halves, &pre, &cands);
    let suggested = options
        .iter()
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(k, cuts, _)| (*k, cuts.iter().map(|&c| pts[c].0).collect()))
        .unwrap_or((0, vec![]));
    let mut notes = Vec::new();
    let want = o.breaks.min(2);
    let chosen = (0..=want)
        .rev()
        .find_map(|k| options.iter().find(|(kk, _, _)| *kk == k))
        .map(|(k, c, _)| (*k, c.clone()))
        .unwrap_or((0, vec![]));
    if chosen.0 < want {
        notes.push(format!(
            "{want} breakpoints asked, but {n} points allow only {} (≥ {MIN_SEGMENT} points per segment)",
            chosen.0
        ));
    }
    let mut bounds = vec![0];
    bounds.extend(&chosen.1);
    bounds.push(n);
    let (s, f) = factors;
    let mut segments = Vec::new();
    for w in bounds.windows(2) {
        let seg = &pts[w[0]..w[1]];
        let (a, b, clamped) = huber_line(seg).ok_or(FitError::TooFewPoints(seg.len()))?;
        if clamped {
            notes.push(format!(
                "sizes {}–{} B: the fitted intercept was negative, so α is not identifiable there (refitted with α = 0); include smaller sizes",
                crate::core::units::decimal::shortest(seg[0].0),
                crate::core::units::decimal::shortest(seg[seg.len() - 1].0)
            ));
        }
        segments.push(Segment {
            from: seg[0].0,
            to: seg[seg.len() - 1].0,
            intercept: a,
            slope: b,
            alpha: a / s,
            beta: b / f,
            points: seg.len(),
            alpha_clamped: clamped,
        });
    }
    let seg_of = |k: usize| {
        bounds
            .windows(2)
            .position(|w| k >= w[0] && k < w[1])
            .unwrap_or(0)
    };
    let residuals: Vec<Residual> = pts
        .iter()
        .enumerate()
        .map(|(k, &(n, t))| {
            let pred = segments
                .get(seg_of(k))
                .map(|sg| sg.time(n))
                .unwrap_or(f64::NAN);
            Residual {
                n,
                t,
                predicted: pred,
                rel: (t - pred) / pred,
                index: idx[k],
            }
        })
        .collect();
    let logs: Vec<(f64, f64)> = residuals
        .iter()
        .filter(|r| r.predicted > 0.0)
        .map(|r| (r.t.ln(), r.predicted.ln()))
        .collect();
    let mean = logs.iter().map(|l| l.0).sum::<f64>() / logs.len().max(1) as f64;
    let ss_tot: f64 = logs.iter().map(|l| (l.0 - mean).powi(2)).sum();
    let ss_res: f64 = logs.iter().map(|l| (l.0 - l.1).powi(2)).sum();
    let r2_log = if ss_tot > 0.0 {
        1.0 - ss_res / ss_tot
    } else {
        f64::NAN
    };
    let mut order: Vec<usize> = (0..residuals.len()).collect();
    // largest |rel| first (descending, ties in index order)
    crate::core::order::sort_by_key(&mut order, |&a| {
        !crate::core::order::f64_key(residuals[a].rel.abs())
    });
    order.truncate(5);
    let first = segments.first().copied();
    let last = segments.last().copied();
    if segments.len() > 1 {
        notes.push(
            "α is the first segment's (small messages) and β the last segment's (large messages)"
                .into(),
        );
    }
    Ok(Fit {
        options: o,
        factors,
        alpha: first.map(|s| s.alpha).unwrap_or(0.0),
        beta: last.map(|s| s.beta).unwrap_or(0.0),
        segments,
        residuals,
        r2_log,
        worst: order,
        suggested,
        notes,
    })
}

/// The fitted (piecewise) time at `n` bytes, seconds: the segment whose size
/// range holds `n`; between two segments the boundary is their geometric
/// midpoint; outside the data the nearest segment is extended.
pub fn fitted_time(fit: &Fit, n: f64) -> f64 {
    let seg = fit
        .segments
        .iter()
        .enumerate()
        .find(|(i, s)| {
            fit.segments
                .get(i + 1)
                .is_none_or(|next| n < (s.to * next.from).sqrt())
        })
        .map(|(_, s)| *s);
    seg.map(|s| s.time(n)).unwrap_or(f64::NAN)
}

/// Curves for the time chart, each `(size B, time s)` at `count` log-spaced
/// sizes from `lo` to `hi` bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Curves {
    /// The fitted model (piecewise when there are breakpoints).
    pub fitted: Vec<(f64, f64)>,
    /// Every model's prediction at the headline α and β.
    pub models: Vec<(Model, Vec<(f64, f64)>)>,
    /// Breakpoint sizes (geometric midpoints between segments), bytes.
    pub breaks: Vec<f64>,
    /// Where the fastest model changes at the fitted α, β (all-reduce only).
    pub crossovers: Vec<super::model::ModelCrossover>,
}

/// The curves of [`Curves`] for `fit` between `lo` and `hi` bytes.
pub fn curves(fit: &Fit, lo: f64, hi: f64, count: usize) -> Curves {
    let o = fit.options;
    let count = count.clamp(2, 2000);
    let (lo, hi) = (lo.max(1.0), hi.max(lo.max(1.0) * 2.0));
    let sizes: Vec<f64> = (0..count)
        .map(|i| (lo.ln() + (hi.ln() - lo.ln()) * i as f64 / (count - 1) as f64).exp())
        .collect();
    let fitted = sizes.iter().map(|&n| (n, fitted_time(fit, n))).collect();
    let models = Model::all()
        .into_iter()
        .filter_map(|m| {
            let pts: Option<Vec<(f64, f64)>> = sizes
                .iter()
                .map(|&n| {
                    m.time(o.collective, o.p, n, fit.alpha, fit.beta)
                        .map(|t| (n, t))
                })
                .collect();
            pts.map(|p| (m, p))
        })
        .collect();
    let breaks = fit
        .segments
        .windows(2)
        .map(|w| (w[0].to * w[1].from).sqrt())
        .collect();
    Curves {
        fitted,
        models,
        breaks,
        crossovers: super::model::crossovers(o.collective, o.p, fit.alpha, fit.beta),
    }
}
