//! Comparing the all-reduce algorithms of the cost view: the fastest one at a
//! size, exact crossovers, sweeps over sizes and ranks, and the winner map.
//! The algorithms compared are [`Algorithm::compared`]: every flat all-reduce
//! of the registry, in registry order.

use super::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::protocol::{rendezvous_rounds, ProtocolTime, Rendezvous, Rounds};
use crate::core::cost::CostParams;
use crate::core::units;
use crate::core::units::{format_beta, format_bytes_exact, format_coeff, format_input_time};

/// Every compared algorithm at one size, in [`Algorithm::compared`] order.
pub fn all_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Vec<(Algorithm, Formula)> {
    Algorithm::compared()
        .iter()
        .map(|&a| (a, a.cost(p, n_bytes, c)))
        .collect()
}

/// A cost line `(entry, (A, B))`: `T(n) = A + B·n` seconds for `n` bytes.
/// The functions below that take `lines` work on any such lines (the
/// measure view builds them from fitted factors, [`Algorithm::flat_factors`]);
/// the others are them on the lines of [`Algorithm::compared`].
pub type Line<T> = (T, (f64, f64));

/// The cost lines of [`Algorithm::compared`] at `p` ranks ([`Algorithm::line`]).
fn compared_lines(p: usize, c: CostParams) -> Vec<Line<Algorithm>> {
    Algorithm::compared()
        .iter()
        .map(|&a| (a, a.line(p, c)))
        .collect()
}

/// The entry of `lines` with the lowest time at `n_bytes`; ties go to the
/// earlier one. `None` when `lines` is empty or every time is NaN.
pub fn best_of<T: Copy>(lines: &[Line<T>], n_bytes: f64) -> Option<T> {
    let mut best = None;
    let mut best_t = f64::INFINITY;
    for &(a, (a0, a1)) in lines {
        let t = a0 + a1 * n_bytes;
        if t < best_t {
            best_t = t;
            best = Some(a);
        }
    }
    best
}

/// The fastest algorithm at `n_bytes`. Ties go to the earlier algorithm in
/// [`Algorithm::compared`] order.
pub fn best_at(p: usize, n_bytes: f64, c: CostParams) -> Algorithm {
    best_of(&compared_lines(p, c), n_bytes).unwrap_or(Algorithm::RING)
}

// ---------------------------------------------------------------------------
// Crossovers.

/// Where two algorithms cost the same (`T` is [`Algorithm`] unless built
/// from other [`Line`]s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossover<T = Algorithm> {
    /// The algorithm that is faster below `n_bytes` (the one with fewer start-ups).
    pub below: T,
    /// The algorithm that is faster above `n_bytes`.
    pub above: T,
    /// Break-even message size, bytes.
    pub n_bytes: f64,
    /// The common time there, seconds.
    pub time: f64,
}

/// The break-even size of two cost lines `T = A + B·n`:
/// `n* = (A_b − A_a)/(B_a − B_b)`. `None` when the lines are parallel or
/// meet at `n ≤ 0` (one is never slower for any positive size).
pub fn crossover_of<T: Copy>(
    (a, (ia, sa)): Line<T>,
    (b, (ib, sb)): Line<T>,
) -> Option<Crossover<T>> {
    let ds = sa - sb;
    if ds == 0.0 || !ds.is_finite() {
        return None;
    }
    let n = (ib - ia) / ds;
    if !(n > 0.0 && n.is_finite()) {
        return None;
    }
    // Below n* the one with the smaller intercept wins.
    let (below, above) = if ia < ib { (a, b) } else { (b, a) };
    Some(Crossover {
        below,
        above,
        n_bytes: n,
        time: ia + sa * n,
    })
}

/// The break-even size of `a` and `b`: costs are lines `T = A + B·n`, so
/// `n* = (A_b − A_a)/(B_a − B_b)`. `None` when the lines are parallel or meet
/// at `n ≤ 0` (one algorithm is never slower for any positive size).
pub fn crossover(a: Algorithm, b: Algorithm, p: usize, c: CostParams) -> Option<Crossover> {
    crossover_of((a, a.line(p, c)), (b, b.line(p, c)))
}

/// All pairwise crossovers of `lines` at positive sizes, sorted by size.
pub fn crossovers_of<T: Copy>(lines: &[Line<T>]) -> Vec<Crossover<T>> {
    let mut out = Vec::new();
    for (i, &a) in lines.iter().enumerate() {
        for &b in &lines[i + 1..] {
            if let Some(x) = crossover_of(a, b) {
                out.push(x);
            }
        }
    }
    crate::core::order::sort_by_f64(&mut out, |x| x.n_bytes);
    out
}

/// All pairwise crossovers at positive sizes, sorted by size.
pub fn crossovers(p: usize, c: CostParams) -> Vec<Crossover> {
    crossovers_of(&compared_lines(p, c))
}

/// A range of message sizes with one fastest algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval<T = Algorithm> {
    /// Lower end, bytes (inclusive; 0 for the first interval).
    pub from: f64,
    /// Upper end, bytes (exclusive; `f64::INFINITY` for the last interval).
    pub to: f64,
    /// The fastest algorithm inside the interval.
    pub best: T,
}

/// The fastest entry on each interval of `n ∈ [0, ∞)`: the lower envelope
/// of `lines`. Adjacent intervals always have different winners, and each
/// boundary is an exact break-even size from [`crossover_of`].
pub fn best_intervals_of<T: Copy + PartialEq>(lines: &[Line<T>]) -> Vec<Interval<T>> {
    // The sizes of crossovers_of(lines), sorted as plain numbers.
    let mut cuts: Vec<f64> = Vec::new();
    for (i, &a) in lines.iter().enumerate() {
        for &b in &lines[i + 1..] {
            cuts.extend(crossover_of(a, b).map(|x| x.n_bytes));
        }
    }
    crate::core::order::sort_f64(&mut cuts);
    cuts.dedup();
    let mut bounds = vec![0.0];
    bounds.extend(cuts);
    let mut out: Vec<Interval<T>> = Vec::new();
    for (i, &lo) in bounds.iter().enumerate() {
        let hi = bounds.get(i + 1).copied().unwrap_or(f64::INFINITY);
        if hi <= lo {
            continue;
        }
        let probe = if hi.is_finite() {
            0.5 * (lo + hi)
        } else {
            2.0 * lo + 1.0
        };
        let Some(best) = best_of(lines, probe) else {
            continue;
        };
        match out.last_mut() {
            Some(last) if last.best == best => last.to = hi,
            _ => out.push(Interval {
                from: lo,
                to: hi,
                best,
            }),
        }
    }
    out
}

/// The fastest algorithm on each interval of `n ∈ [0, ∞)`: the lower envelope
/// of the cost lines of [`Algorithm::compared`]. Adjacent intervals always have different winners,
/// and each boundary is an exact break-even size from [`crossover`].
pub fn best_intervals(p: usize, c: CostParams) -> Vec<Interval> {
    best_intervals_of(&compared_lines(p, c))
}

/// Every compared algorithm at one size under MPI's eager/rendezvous rule
/// `proto` ([`Algorithm::rendezvous_cost`]), in [`Algorithm::compared`] order.
pub fn all_allreduce_rendezvous(
    p: usize,
    n_bytes: f64,
    c: CostParams,
    proto: &Rendezvous,
) -> Vec<(Algorithm, ProtocolTime)> {
    Algorithm::compared()
        .iter()
        .filter_map(|&a| Some((a, a.rendezvous_cost(p, n_bytes, c, proto)?)))
        .collect()
}

/// The fastest compared algorithm at `n_bytes` under `proto` (ties to the
/// earlier one).
pub fn best_at_rendezvous(p: usize, n_bytes: f64, c: CostParams, proto: &Rendezvous) -> Algorithm {
    let mut best = (Algorithm::RING, f64::INFINITY);
    for (a, t) in all_allreduce_rendezvous(p, n_bytes, c, proto) {
        if t.time < best.1 {
            best = (a, t.time);
        }
    }
    best.0
}

/// The fastest algorithm on each interval of `n` under `proto`: between two
/// sizes where a message of some algorithm crosses the eager limit
/// (`n = limit/share`), every time is a line (the closed form plus its
/// handshakes there), so each stretch is [`best_intervals_of`] of those
/// lines; neighbours with the same winner merge. A boundary is a break-even
/// size or a size where a message goes rendezvous.
pub fn best_intervals_rendezvous(p: usize, c: CostParams, proto: &Rendezvous) -> Vec<Interval> {
    let algs: Vec<(Algorithm, (f64, f64), Rounds)> = Algorithm::compared()
        .iter()
        .filter_map(|&a| Some((a, a.line(p, c), a.flat_rounds(p)?)))
        .collect();
    let mut events: Vec<f64> = algs
        .iter()
        .flat_map(|(_, _, r)| r.iter().map(|&(_, share)| proto.limit / share))
        .filter(|e| e.is_finite() && *e > 0.0)
        .collect();
    events.push(0.0);
    events.push(f64::INFINITY);
    crate::core::order::sort_f64(&mut events);
    events.dedup();
    let h = proto.handshake_time(c.alpha);
    let mut out: Vec<Interval> = Vec::new();
    for w in events.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let mid = if hi.is_finite() {
            0.5 * (lo + hi)
        } else {
            2.0 * lo + 1.0
        };
        let lines: Vec<Line<Algorithm>> = algs
            .iter()
            .map(|(a, (i, s), r)| (*a, (i + h * rendezvous_rounds(r, mid, proto), *s)))
            .collect();
        for iv in best_intervals_of(&lines) {
            let (from, to) = (iv.from.max(lo), iv.to.min(hi));
            if to <= from {
                continue;
            }
            match out.last_mut() {
                Some(last) if last.best == iv.best => last.to = to,
                _ => out.push(Interval {
                    from,
                    to,
                    best: iv.best,
                }),
            }
        }
    }
    out
}

/// The crossovers that change the winner among `lines`: the boundaries of
/// [`best_intervals_of`], as `Crossover`s.
pub fn envelope_crossovers_of<T: Copy + PartialEq>(lines: &[Line<T>]) -> Vec<Crossover<T>> {
    let iv = best_intervals_of(lines);
    iv.windows(2)
        .map(|w| {
            let n = w[1].from;
            let (i0, s0) = lines
                .iter()
                .find(|l| l.0 == w[0].best)
                .map_or((f64::NAN, f64::NAN), |l| l.1);
            Crossover {
                below: w[0].best,
                above: w[1].best,
                n_bytes: n,
                time: i0 + s0 * n,
            }
        })
        .collect()
}

/// The crossovers that change the winner: the boundaries of
/// [`best_intervals`], as `Crossover`s.
pub fn envelope_crossovers(p: usize, c: CostParams) -> Vec<Crossover> {
    envelope_crossovers_of(&compared_lines(p, c))
}

/// The break-even size of `a` and `b` written out the way a student solves
/// it, e.g. for p = 16, α = 5 µs, β = 0.08 ns/B:
/// `["T_rd = 4α + 4·nβ", "T_rab = 8α + 1.875·nβ",
///   "T_rd = T_rab when n = (8 − 4)α / ((4 − 1.875)β)",
///   "  = 4 × 5 µs / (2.125 × 0.08 ns/B)",
///   "  = 117,647 B (117.6 kB = 114.9 KiB)"]`.
/// `None` when the two never cross at a positive size (see [`crossover`]).
pub fn crossover_calculation(
    a: Algorithm,
    b: Algorithm,
    p: usize,
    c: CostParams,
) -> Option<Vec<String>> {
    let x = crossover(a, b, p, c)?;
    let (lo, hi) = (Coefficients::of(x.below, p), Coefficients::of(x.above, p));
    let with_gamma = c.gamma != 0.0;
    let line = |alg: Algorithm, t: &Coefficients| {
        let mut s = format!(
            "T_{} = {}α + {}·nβ",
            alg.key(),
            format_coeff(t.startups),
            format_coeff(t.byte_factor)
        );
        if with_gamma {
            s += &format!(" + {}·nγ", format_coeff(t.gamma_factor));
        }
        s
    };
    let da = hi.startups - lo.startups;
    let db = lo.byte_factor - hi.byte_factor;
    let dg = lo.gamma_factor - hi.gamma_factor;
    let (den_sym, den_num) = if with_gamma {
        (
            format!(
                "(({} − {})β + ({} − {})γ)",
                format_coeff(lo.byte_factor),
                format_coeff(hi.byte_factor),
                format_coeff(lo.gamma_factor),
                format_coeff(hi.gamma_factor)
            ),
            format!(
                "({} × {} + {} × {})",
                format_coeff(db),
                format_beta(c.beta),
                format_coeff(dg),
                format_beta(c.gamma)
            ),
        )
    } else {
        (
            format!(
                "(({} − {})β)",
                format_coeff(lo.byte_factor),
                format_coeff(hi.byte_factor)
            ),
            format!("({} × {})", format_coeff(db), format_beta(c.beta)),
        )
    };
    let n = x.n_bytes;
    let exact = if n < 1e15 {
        format!("{} B", units::group_thousands(n.round() as u64))
    } else {
        format_bytes_exact(n)
    };
    let approx = if n.fract() == 0.0 { "" } else { "≈ " };
    let dec = units::format_decimal(n);
    let bin = units::format_binary(n);
    let systems = if dec == bin {
        dec
    } else {
        format!("{dec} = {bin}")
    };
    Some(vec![
        line(x.below, &lo),
        line(x.above, &hi),
        format!(
            "T_{} = T_{} when n = ({} − {})α / {den_sym}",
            x.below.key(),
            x.above.key(),
            format_coeff(hi.startups),
            format_coeff(lo.startups)
        ),
        format!(
            "  = {} × {} / {den_num}",
            format_coeff(da),
            format_input_time(c.alpha)
        ),
        format!(
            "  {}{approx}{exact} ({systems})",
            if approx.is_empty() { "= " } else { "" }
        ),
    ])
}

// ---------------------------------------------------------------------------
// Sweeps.

/// Times (seconds) of every algorithm at every size: `out[i][a]` is
/// algorithm `Algorithm::compared()[a]` at `sizes[i]` bytes.
pub fn sweep_sizes(p: usize, sizes: &[f64], c: CostParams) -> Vec<Vec<f64>> {
    let lines: Vec<(f64, f64)> = Algorithm::compared().iter().map(|a| a.line(p, c)).collect();
    sizes
        .iter()
        .map(|&n| lines.iter().map(|(i, s)| i + s * n).collect())
        .collect()
}

/// Times (seconds) of every algorithm at one size over several `p`:
/// `out[i][a]` is algorithm `a` at `ps[i]` ranks.
pub fn sweep_ranks(ps: &[usize], n_bytes: f64, c: CostParams) -> Vec<Vec<f64>> {
    let algs = Algorithm::compared();
    ps.iter()
        .map(|&p| {
            algs.iter()
                .map(|a| {
                    let (i, s) = a.line(p, c);
                    i + s * n_bytes
                })
                .collect()
        })
        .collect()
}

/// The fastest algorithm on a grid: `out[j][i]` is the winner at `ps[j]` ranks
/// and `sizes[i]` bytes.
pub fn winner_map(sizes: &[f64], ps: &[usize], c: CostParams) -> Vec<Vec<Algorithm>> {
    ps.iter()
        .map(|&p| {
            let lines = compared_lines(p, c);
            sizes
                .iter()
                .map(|&n| best_of(&lines, n).unwrap_or(Algorithm::RING))
                .collect()
        })
        .collect()
}

/// `count` sizes spaced evenly in log scale from `lo` to `hi` bytes (both
/// included; `count ≥ 2`, else just `[lo]`).
pub fn log_sizes(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if count < 2 || !(lo > 0.0 && hi > lo) {
        return vec![lo];
    }
    let (a, b) = (lo.ln(), hi.ln());
    (0..count)
        .map(|i| (a + (b - a) * i as f64 / (count - 1) as f64).exp())
        .collect()
}

/// The multipliers of α, nβ and nγ of one algorithm at `p` ranks.
struct Coefficients {
    startups: f64,
    byte_factor: f64,
    gamma_factor: f64,
}

impl Coefficients {
    fn of(a: Algorithm, p: usize) -> Self {
        let [startups, byte_factor, gamma_factor] = a.factors(p);
        Coefficients {
            startups,
            byte_factor,
            gamma_factor,
        }
    }
}
