//! Row checks and the rank count.
//!
//! Definitions (NVIDIA nccl-tests, doc/PERFORMANCE.md): `algbw = S / t` and
//! `busbw = algbw × factor`, with factor 2(p−1)/p for all-reduce, (p−1)/p for
//! all-gather, reduce-scatter and all-to-all, and 1 for broadcast and reduce.
//!
//! A printed number stands for an interval (`49.96` means 49.955 … 49.965),
//! so every check compares intervals: a row is flagged only when the printed
//! value and the recomputed one disagree by more than the printed precision.

use super::model::p_from_ratio;
use super::{BwKind, CollectiveKind, Log, Points, Printed, RankCount, RankSource, Row};
use crate::core::units::{format_bandwidth, format_time, group_thousands, sig};

/// Rank count assumed when a log neither states nor implies one.
pub const ASSUMED_P: usize = 8;

/// Relative slack for interval comparisons (floating-point rounding only).
const SLACK: f64 = 1e-9;

/// The rank count and what a bandwidth column of unknown kind holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// p and its source.
    pub p: RankCount,
    /// The kind decided for a generic `bw` column (`None` if there is none).
    pub unknown_bw: Option<BwKind>,
    /// How the kind was decided.
    pub bw_note: Option<String>,
}

/// An interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    fn of(p: Printed) -> Interval {
        Interval {
            lo: p.lo(),
            hi: p.hi(),
        }
    }
    fn overlaps(self, o: Interval) -> bool {
        let s = SLACK * self.hi.abs().max(o.hi.abs());
        self.lo <= o.hi + s && o.lo <= self.hi + s
    }
    fn meet(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.max(o.lo),
            hi: self.hi.min(o.hi),
        }
    }
    fn scale(self, f: f64) -> Interval {
        Interval {
            lo: self.lo * f,
            hi: self.hi * f,
        }
    }
}

/// algbw = S / t over the printed intervals of S and t (B/s).
pub fn algbw_interval(r: &Row) -> Interval {
    let t_lo = r.time.lo().max(r.time.value * 1e-12);
    Interval {
        lo: r.size.lo().max(0.0) / r.time.hi(),
        hi: r.size.hi() / t_lo,
    }
}

fn ratio_interval(num: Interval, den: Interval) -> Option<Interval> {
    // A busbw printed as 0.00 stands for [0, 0.005]: its negative half is
    // not a bandwidth.
    (den.lo > 0.0 && num.hi > 0.0).then(|| Interval {
        lo: num.lo.max(0.0) / den.hi,
        hi: num.hi / den.lo,
    })
}

/// Rank count: the user's value, else the log's statement, else inferred
/// from busbw / algbw = factor(p) over every row (the intersection of the
/// rows' intervals), else [`ASSUMED_P`]. Also decides whether a generic `bw`
/// column of unknown kind is algbw (ratio 1) or busbw.
pub fn resolve(log: &Log, user_p: Option<usize>) -> Resolved {
    let rows: Vec<&Row> = log.series.iter().flat_map(|s| &s.rows).collect();
    let c = log.collective;
    // Ratio intervals of printed busbw (or unknown bw) over algbw.
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for r in &rows {
        let comp = algbw_interval(r);
        if let Some(b) = r.busbw {
            let a = r
                .algbw
                .map(|a| Interval::of(a).meet(comp))
                .filter(|a| a.lo <= a.hi)
                .unwrap_or(comp);
            known.extend(ratio_interval(Interval::of(b), a));
        }
        if let Some(b) = r.bw_unknown {
            unknown.extend(ratio_interval(Interval::of(b), comp));
        }
    }
    let has_unknown = rows.iter().any(|r| r.bw_unknown.is_some());
    let mut unknown_bw = None;
    let mut bw_note = None;
    if has_unknown {
        let all_one = unknown
            .iter()
            .all(|i| i.overlaps(Interval { lo: 1.0, hi: 1.0 }));
        if all_one || c == CollectiveKind::Broadcast || c == CollectiveKind::Reduce {
            unknown_bw = Some(BwKind::Alg);
            bw_note = Some(
                "the bandwidth column equals size / time on every row: it is algbw".to_string(),
            );
        } else {
            unknown_bw = Some(BwKind::Bus);
            bw_note = Some(format!(
                "the bandwidth column is not size / time (ratio ≈ {}): it is busbw = algbw × {}",
                sig(median_mid(&unknown), 4),
                c.factor_expression()
            ));
            known.extend(unknown.iter().copied());
        }
    }
    let p = if let Some(p) = user_p {
        RankCount {
            p,
            source: RankSource::User,
            note: format!("p = {p}, set by you"),
        }
    } else if let Some(s) = &log.stated_p {
        s.clone()
    } else {
        match infer_p(c, &known) {
            Some(Inference::One(p, note)) => RankCount {
                p,
                source: RankSource::Inferred,
                note,
            },
            Some(Inference::Range { lo, hi, note }) => RankCount {
                p: lo,
                source: RankSource::Undetermined { lo, hi },
                note,
            },
            None => RankCount {
                p: ASSUMED_P,
                source: RankSource::Assumed,
                note: format!("the log does not state p and has no busbw to infer it from: p = {ASSUMED_P} assumed; set the rank count"),
            },
        }
    };
    let mut p = p;
    let ann = log.annotation.as_ref().and_then(|a| Some((a.p?, a.line)));
    if let (Some((ap, line)), false) = (ann, p.source == RankSource::User) {
        let other = match p.source {
            RankSource::Assumed => "the log itself states no p".to_string(),
            _ if p.p == ap => format!("agrees with the log: {}", p.note),
            _ => format!("the log alone gives {}", p.note),
        };
        p = RankCount {
            p: ap,
            source: RankSource::Annotation { line },
            note: format!(
                "p = {ap} from the annotation on line {line} (the annotation wins; {other})"
            ),
        };
    }
    if let Some((hp, line)) = log.comment_p {
        if p.source != RankSource::User {
            if hp == p.p {
                p.note += &format!("; agrees with the command in the comment on line {line}");
            } else {
                p.note += &format!("; the comment on line {line} mentions {hp} ranks");
            }
        }
    }
    Resolved {
        p,
        unknown_bw,
        bw_note,
    }
}

fn median_mid(v: &[Interval]) -> f64 {
    let mut m: Vec<f64> = v.iter().map(|i| 0.5 * (i.lo + i.hi)).collect();
    crate::core::order::sort_f64(&mut m);
    m.get(m.len() / 2).copied().unwrap_or(f64::NAN)
}

/// What busbw / algbw says about p.
#[derive(Clone, Debug, PartialEq)]
pub enum Inference {
    /// One rank count fits every row (or the rows disagree and the median
    /// was taken): `(p, note)`.
    One(usize, String),
    /// Several rank counts fit the printed digits, or none can: the user
    /// must set p. `hi = None` when every p ≥ `lo` fits.
    Range {
        /// Smallest p that fits.
        lo: usize,
        /// Largest p that fits (`None`: unbounded).
        hi: Option<usize>,
        /// One sentence for the page, asking for p.
        note: String,
    },
}

/// Largest p reported as a bound (a wider interval is "every p ≥ lo").
const P_BOUND: f64 = 1e6;

/// Infers p from the busbw / algbw intervals of the rows (`ratios`, one per
/// printed busbw): each row allows `p ∈ [p(r.lo), p(r.hi)]` with `p(r)` the
/// inverse of the collective's factor ([`p_from_ratio`]: `p = 2/(2−r)` for
/// all-reduce, `1/(1−r)` for the (p−1)/p collectives). The rows'
/// intersection gives the integers that fit:
/// - exactly one: [`Inference::One`];
/// - several (bandwidths printed to too few digits, e.g. 0.00–0.11 GB/s):
///   [`Inference::Range`] listing them;
/// - a ratio entirely above the factor's supremum (2 for all-reduce, since
///   2(p−1)/p < 2; 1 for all-gather): impossible for this collective,
///   [`Inference::Range`] asking for p and the collective;
/// - rows that disagree (empty intersection): the median row's p, as
///   [`Inference::One`] with a note saying so.
///
/// `None` when no row has a busbw, or the factor does not depend on p.
pub fn infer_p(c: CollectiveKind, ratios: &[Interval]) -> Option<Inference> {
    if ratios.is_empty() {
        return None;
    }
    p_from_ratio(c, 1.5)?; // the factor depends on p for this collective
    let sup = if c == CollectiveKind::AllReduce {
        2.0
    } else {
        1.0
    };
    let mean_ratio = median_mid(ratios);
    let impossible = ratios.iter().filter(|r| r.lo >= sup).count();
    if impossible > 0 {
        return Some(Inference::Range {
            lo: 2,
            hi: None,
            note: format!(
                "p is undetermined: busbw / algbw ≈ {} is above {sup} on {impossible} row{}, impossible for {} ({} < {sup}). Set the rank count p (or the collective)",
                sig(mean_ratio, 4),
                if impossible == 1 { "" } else { "s" },
                c.label(),
                c.factor_expression(),
                sup = crate::core::units::decimal::shortest(sup)
            ),
        });
    }
    let mut lo: f64 = 2.0;
    let mut hi = f64::INFINITY;
    let mut points = Vec::new();
    for r in ratios {
        let a = p_from_ratio(c, r.lo).unwrap_or(1.0).max(1.0);
        let b = p_from_ratio(c, r.hi).unwrap_or(f64::INFINITY);
        lo = lo.max(a);
        hi = hi.min(b);
        if let Some(m) = p_from_ratio(c, 0.5 * (r.lo + r.hi)) {
            points.push(m);
        }
    }
    let (first, last) = (lo.ceil(), hi.floor());
    if first <= last {
        let first = first as usize;
        if first == last as usize {
            return Some(Inference::One(
                first,
                format!(
                    "p = {first} inferred from busbw / algbw ≈ {} = {} (the only p that fits every row's printed digits)",
                    sig(mean_ratio, 4),
                    c.factor_expression()
                ),
            ));
        }
        let hi_p = (last < P_BOUND).then_some(last as usize);
        let which = match hi_p {
            Some(h) => format!("every p from {first} to {h} fits"),
            None => format!("every p ≥ {first} fits"),
        };
        return Some(Inference::Range {
            lo: first,
            hi: hi_p,
            note: format!(
                "p is undetermined: {which} busbw / algbw = {} to the printed digits. Set the rank count p (rows checked at p = {first}; no fit until then)",
                c.factor_expression()
            ),
        });
    }
    crate::core::order::sort_f64(&mut points);
    let mid = points.get(points.len() / 2).copied()?;
    let p = mid.round() as usize;
    if p < 2 {
        return None;
    }
    Some(Inference::One(
        p,
        format!(
            "p = {p} inferred from busbw / algbw ≈ {} = {} (rows disagree slightly; the median was taken); the log does not state p",
            sig(mean_ratio, 4),
            c.factor_expression()
        ),
    ))
}

/// Recomputed values and flags of one row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowCheck {
    /// 1-based line.
    pub line: usize,
    /// size / time, B/s.
    pub algbw: f64,
    /// algbw × factor(p), B/s.
    pub busbw: f64,
    /// What is wrong (empty when the row is fine).
    pub flags: Vec<String>,
}

/// The `# Avg bus bandwidth` recomputed.
#[derive(Clone, Debug, PartialEq)]
pub struct AvgCheck {
    /// Line of the trailer.
    pub line: usize,
    /// Printed value, B/s.
    pub printed: f64,
    /// Mean of the printed busbw values of every row of every table, B/s.
    pub recomputed: f64,
    /// Number of busbw values averaged.
    pub count: usize,
    /// True when they agree within the printed precision.
    pub matches: bool,
    /// One sentence for the page.
    pub note: String,
}

/// The result of [`check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Checks {
    /// Per series, per row (parallel to `log.series[i].rows`).
    pub rows: Vec<Vec<RowCheck>>,
    /// The trailer check, when the log has one.
    pub avg: Option<AvgCheck>,
    /// Explanation when some busbw exceeds the line rate (this log's numbers).
    pub line_rate_note: Option<String>,
    /// Number of flagged rows over all series.
    pub flagged: usize,
}

fn gbs(x: f64) -> String {
    format_bandwidth(x)
}

/// Checks every row of `log` at `p` ranks (see the module docs). A generic
/// `bw` column is read as `unknown_bw`. `line_rate` (B/s), when given, flags
/// every busbw above it.
pub fn check(log: &Log, p: usize, unknown_bw: Option<BwKind>, line_rate: Option<f64>) -> Checks {
    let c = log.collective;
    let f = c.busbw_factor(p);
    let mut flagged = 0;
    let mut above: Vec<(f64, f64)> = Vec::new();
    let mut all_busbw: Vec<Printed> = Vec::new();
    let rows: Vec<Vec<RowCheck>> = log
        .series
        .iter()
        .map(|s| {
            s.rows
                .iter()
                .map(|r| {
                    let comp = algbw_interval(r);
                    let alg = r.size.value / r.time.value;
                    let bus = alg * f;
                    let mut flags = Vec::new();
                    let (p_alg, p_bus) = match (unknown_bw, r.bw_unknown) {
                        (Some(BwKind::Alg), Some(b)) => (Some(b), r.busbw),
                        (Some(BwKind::Bus), Some(b)) => (r.algbw, Some(b)),
                        _ => (r.algbw, r.busbw),
                    };
                    let mut a_iv = comp;
                    if let Some(a) = p_alg {
                        if Interval::of(a).overlaps(comp) {
                            a_iv = comp.meet(Interval::of(a));
                        } else {
                            flags.push(format!(
                                "algbw printed {} but size / time = {} B / {} = {} (printed to ±{})",
                                gbs(a.value),
                                group_thousands(r.size.value as u64),
                                format_time(r.time.value),
                                gbs(alg),
                                gbs(a.half_ulp)
                            ));
                        }
                    }
                    if let Some(b) = p_bus {
                        all_busbw.push(b);
                        let want = a_iv.scale(f);
                        if !Interval::of(b).overlaps(want) {
                            flags.push(format!(
                                "busbw printed {} but algbw × {} = {} × {} = {} at p = {p} (printed to ±{})",
                                gbs(b.value),
                                c.factor_expression(),
                                gbs(alg),
                                sig(f, 4),
                                gbs(bus),
                                gbs(b.half_ulp)
                            ));
                        }
                    }
                    if let Some(w) = r.wrong.filter(|w| *w > 0.0) {
                        flags.push(format!("#wrong = {}: nccl-tests found wrong results in this row", crate::core::units::decimal::shortest(w)));
                    }
                    let shown_bus = p_bus.map(|b| b.value).unwrap_or(bus);
                    if let Some(rate) = line_rate {
                        if shown_bus > rate * (1.0 + SLACK) {
                            flags.push(format!("busbw {} is above the line rate {}", gbs(shown_bus), gbs(rate)));
                            above.push((r.size.value, shown_bus));
                        }
                    }
                    if !flags.is_empty() {
                        flagged += 1;
                    }
                    RowCheck { line: r.line, algbw: alg, busbw: bus, flags }
                })
                .collect()
        })
        .collect();
    let avg = log.avg_busbw.map(|(pr, line)| {
        let count = all_busbw.len();
        let n = count.max(1) as f64;
        let mean = all_busbw.iter().map(|b| b.value).sum::<f64>() / n;
        let half = all_busbw.iter().map(|b| b.half_ulp).sum::<f64>() / n;
        let matches = count > 0
            && Interval { lo: mean - half, hi: mean + half }.overlaps(Interval::of(pr));
        let note = if matches {
            format!(
                "# Avg bus bandwidth {} = the mean of the {count} busbw values ({}): matches",
                gbs(pr.value),
                gbs(mean)
            )
        } else {
            format!(
                "# Avg bus bandwidth {} but the {count} busbw values shown average {}: nccl-tests averages every row of the run, so the table is probably partial (rows missing)",
                gbs(pr.value),
                gbs(mean)
            )
        };
        AvgCheck { line, printed: pr.value, recomputed: mean, count, matches, note }
    });
    let line_rate_note = line_rate.filter(|_| !above.is_empty()).map(|rate| {
        let (n, top) = above.iter().copied().fold((0.0, 0.0), |acc, x| if x.1 > acc.1 { x } else { acc });
        format!(
            "{} of this log's rows have busbw above the line rate {} (highest: {} at {} B). busbw = algbw × {} is a wire bandwidth only when every rank moves that many bytes over its own link, as a ring does. Above the line rate the bytes took a shorter path — a tree across nodes, reduction inside the switch (NVLink SHARP, InfiniBand SHARP), or several links per rank — so here busbw is an algorithm-normalised figure, not the speed of a wire.",
            above.len(),
            gbs(rate),
            gbs(top),
            group_thousands(n as u64),
            c.factor_expression()
        )
    });
    Checks {
        rows,
        avg,
        line_rate_note,
        flagged,
    }
}

impl Log {
    /// Every series as `(size B, value)` points, the value taken by `value`
    /// from the row's recomputed check (`checks.rows` runs parallel to the
    /// series and their rows), e.g. `|c| c.algbw` for algbw in B/s.
    pub fn check_points(&self, checks: &Checks, value: fn(&RowCheck) -> f64) -> Vec<Points> {
        self.series
            .iter()
            .zip(&checks.rows)
            .map(|(sr, rc)| {
                let pts = sr
                    .rows
                    .iter()
                    .zip(rc)
                    .map(|(r, c)| (r.size.value, value(c)));
                (sr.label.clone(), pts.collect())
            })
            .collect()
    }
}
