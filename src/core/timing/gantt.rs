//! A [`Clock`] as a Gantt chart and as words at a moment: the bars of every
//! rank (sends, receives, reduce compute γ, waiting), the distinct event
//! times a cursor steps through, and who is moving or waiting at a time.
//! The timeline view draws these and computes nothing else.
//!
//! - Pieces of one rank-round (with segments) merge into one bar per kind
//!   and partner; when the chart would still hold more than [`BAR_BUDGET`]
//!   bars, touching bars of one kind on one rank merge across rounds too
//!   ([`Gantt::merged_rounds`]).
//! - Above [`MAX_ROWS`] ranks the rows are groups of ranks, each showing
//!   its busy share over [`SHARE_BINS`] time bins ([`Gantt::group`]).

use super::clock::{Clock, Message, Mode, Outcome};

/// Most rows drawn; above it, rows are groups of ranks.
pub const MAX_ROWS: usize = 64;
/// Most bars drawn in one chart before rounds merge.
pub const BAR_BUDGET: usize = 3000;
/// Time bins of a grouped row.
pub const SHARE_BINS: usize = 48;

/// What a bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// The rank sends (rendezvous to last byte).
    Send,
    /// The rank receives (rendezvous to last byte).
    Recv,
    /// The rank adds what it received (γ per byte).
    Reduce,
}

impl BarKind {
    /// Lower-case name.
    pub fn label(self) -> &'static str {
        match self {
            BarKind::Send => "send",
            BarKind::Recv => "receive",
            BarKind::Reduce => "reduce (γ)",
        }
    }
}

/// One bar of a rank's row, seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Send, receive or reduce.
    pub kind: BarKind,
    /// Start, seconds.
    pub start: f64,
    /// End, seconds.
    pub end: f64,
    /// The round (the first one, when rounds merged).
    pub round: usize,
    /// The other end (the first one, when merged).
    pub peer: usize,
    /// Message pieces in the bar.
    pub pieces: usize,
    /// On the critical path.
    pub critical: bool,
    /// Cut by a failure: it never arrived.
    pub cut: bool,
}

/// One row: a rank, or a group of ranks.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// First rank and one past the last.
    pub ranks: (usize, usize),
    /// Bars (empty for a group).
    pub bars: Vec<Bar>,
    /// Waiting intervals: in the collective with nothing under way.
    pub waits: Vec<(f64, f64)>,
    /// When the rank entered (late ranks enter after 0).
    pub entered: f64,
    /// When it failed (a group: its first failure).
    pub failed_at: Option<f64>,
    /// A group's busy share per time bin, 0 … 1.
    pub shares: Vec<f64>,
}

/// The chart of one clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Gantt {
    /// Rows, top to bottom.
    pub rows: Vec<Row>,
    /// The time axis ends here, seconds.
    pub end: f64,
    /// Ranks per row when grouped (`None`: one rank per row).
    pub group: Option<usize>,
    /// True when pieces of a rank-round were merged into one bar.
    pub merged_pieces: bool,
    /// True when touching bars merged across rounds to stay in budget.
    pub merged_rounds: bool,
}

fn busy_intervals(clock: &Clock) -> Vec<Vec<(f64, f64)>> {
    let mut per: Vec<Vec<(f64, f64)>> = vec![Vec::new(); clock.p];
    for m in &clock.messages {
        if let Some(v) = per.get_mut(m.src) {
            v.push((m.start, m.arrival));
        }
        if let Some(v) = per.get_mut(m.dst) {
            v.push((m.start, m.done.max(m.arrival)));
        }
    }
    for v in &mut per {
        union(v);
    }
    per
}

/// `v` as the union of its intervals: disjoint, sorted by start.
pub(crate) fn union(v: &mut Vec<(f64, f64)>) {
    // the union does not depend on the order of equal starts
    crate::core::order::sort_by_f64(v, |a| a.0);
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(v.len());
    for &(s, e) in v.iter() {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    *v = out;
}

/// When rank `r` stops being in the collective: its finish, its failure, or
/// the stall.
fn rank_end(clock: &Clock, r: usize) -> f64 {
    let c = &clock.ranks[r];
    match (c.finish, c.failed_at) {
        (Some(f), _) => f,
        (None, Some(t)) => t.min(clock.end),
        (None, None) => clock.end,
    }
}

pub(crate) fn gaps(busy: &[(f64, f64)], from: f64, to: f64) -> Vec<(f64, f64)> {
    let eps = 1e-12 + 1e-9 * to.abs();
    let mut out = Vec::new();
    let mut at = from;
    for &(s, e) in busy {
        if s > at + eps && s <= to {
            out.push((at, s.min(to)));
        }
        at = at.max(e);
    }
    if to > at + eps {
        out.push((at, to));
    }
    out
}

fn push_bar(bars: &mut Vec<Bar>, kind: BarKind, m: &Message, peer: usize, (s, e): (f64, f64)) {
    if let Some(b) = bars
        .iter_mut()
        .rev()
        .take(32)
        .find(|b| b.kind == kind && b.round == m.round && b.peer == peer)
    {
        b.start = b.start.min(s);
        b.end = b.end.max(e);
        b.pieces += 1;
        b.critical |= m.critical;
        b.cut |= !m.delivered;
        return;
    }
    bars.push(Bar {
        kind,
        start: s,
        end: e,
        round: m.round,
        peer,
        pieces: 1,
        critical: m.critical,
        cut: !m.delivered,
    });
}

fn rank_bars(clock: &Clock) -> Vec<Vec<Bar>> {
    let mut per: Vec<Vec<Bar>> = vec![Vec::new(); clock.p];
    let mut ordered: Vec<&Message> = clock.messages.iter().collect();
    crate::core::order::sort_by_f64(&mut ordered, |m| m.start);
    for m in ordered {
        if let Some(v) = per.get_mut(m.src) {
            push_bar(v, BarKind::Send, m, m.dst, (m.start, m.arrival));
        }
        if let Some(v) = per.get_mut(m.dst) {
            push_bar(v, BarKind::Recv, m, m.src, (m.start, m.arrival));
            if m.reduce && m.delivered && m.done > m.arrival {
                push_bar(v, BarKind::Reduce, m, m.src, (m.arrival, m.done));
            }
        }
    }
    per
}

/// Merges touching bars of one kind (and one criticality) on a row.
pub(crate) fn merge_rounds(bars: &mut Vec<Bar>, eps: f64) {
    // By kind, then by start: two stable passes, the second key first.
    crate::core::order::sort_by_f64(bars, |b| b.start);
    crate::core::order::sort_by_key(bars, |b| b.kind as u64);
    let mut out: Vec<Bar> = Vec::with_capacity(bars.len());
    for b in bars.drain(..) {
        match out.last_mut() {
            Some(l)
                if l.kind == b.kind
                    && l.critical == b.critical
                    && l.cut == b.cut
                    && b.start <= l.end + eps =>
            {
                l.end = l.end.max(b.end);
                l.pieces += b.pieces;
            }
            _ => out.push(b),
        }
    }
    *bars = out;
}

/// The chart of `clock` (see the module doc).
pub fn gantt(clock: &Clock) -> Gantt {
    let p = clock.p;
    let busy = busy_intervals(clock);
    let end = clock.end.max(1e-12);
    if p > MAX_ROWS {
        return grouped(clock, &busy, end);
    }
    let mut bars = rank_bars(clock);
    let total: usize = bars.iter().map(Vec::len).sum();
    let merged_rounds = total > BAR_BUDGET;
    if merged_rounds {
        for b in &mut bars {
            merge_rounds(b, 1e-9 * end);
        }
    }
    let rows = bars
        .into_iter()
        .enumerate()
        .map(|(r, bars)| {
            let c = &clock.ranks[r];
            Row {
                ranks: (r, r + 1),
                bars,
                waits: gaps(&busy[r], c.entered, rank_end(clock, r)),
                entered: c.entered,
                failed_at: c.failed_at,
                shares: Vec::new(),
            }
        })
        .collect();
    Gantt {
        rows,
        end,
        group: None,
        merged_pieces: clock.segments > 1,
        merged_rounds,
    }
}

fn grouped(clock: &Clock, busy: &[Vec<(f64, f64)>], end: f64) -> Gantt {
    let p = clock.p;
    let size = p.div_ceil(MAX_ROWS);
    let bin = end / SHARE_BINS as f64;
    let mut rows = Vec::new();
    for lo in (0..p).step_by(size) {
        let hi = (lo + size).min(p);
        let mut shares = vec![0.0; SHARE_BINS];
        for iv in &busy[lo..hi] {
            for &(s, e) in iv {
                let (b0, b1) = ((s / bin) as usize, ((e / bin) as usize).min(SHARE_BINS - 1));
                for (b, share) in shares.iter_mut().enumerate().take(b1 + 1).skip(b0) {
                    let (x0, x1) = (b as f64 * bin, (b + 1) as f64 * bin);
                    *share += (e.min(x1) - s.max(x0)).max(0.0);
                }
            }
        }
        let n = (hi - lo) as f64;
        for s in &mut shares {
            *s = crate::core::units::clamp(*s / (n * bin), 0.0, 1.0);
        }
        let failed_at = clock.ranks[lo..hi]
            .iter()
            .filter_map(|c| c.failed_at)
            .min_by(f64::total_cmp);
        rows.push(Row {
            ranks: (lo, hi),
            bars: Vec::new(),
            waits: Vec::new(),
            entered: 0.0,
            failed_at,
            shares,
        });
    }
    Gantt {
        rows,
        end,
        group: Some(size),
        merged_pieces: clock.segments > 1,
        merged_rounds: false,
    }
}

/// The distinct times at which something happens (0, entries, rendezvous,
/// arrivals, ends of reduces, failures, the end), sorted.
pub fn event_times(clock: &Clock) -> Vec<f64> {
    let mut v: Vec<f64> = vec![0.0, clock.end];
    v.extend(clock.ranks.iter().map(|r| r.entered));
    v.extend(clock.ranks.iter().filter_map(|r| r.failed_at));
    for m in &clock.messages {
        v.extend([m.start, m.arrival, m.done]);
    }
    v.retain(|t| t.is_finite() && *t <= clock.end);
    // equal keys are equal values: an unstable sort gives the same list
    crate::core::order::sort_f64(&mut v);
    let eps = 1e-12 + 1e-9 * clock.end.abs();
    v.dedup_by(|a, b| (*a - *b).abs() <= eps);
    v
}

/// The index of the event time nearest to `t`.
pub fn nearest(times: &[f64], t: f64) -> usize {
    let mut best = 0;
    for (i, x) in times.iter().enumerate() {
        if (x - t).abs() < (times[best] - t).abs() {
            best = i;
        }
    }
    best
}

/// What is happening at one moment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Moment {
    /// Messages (pieces) moving: `(src, dst, round)`, in arrival order.
    pub moving: Vec<(usize, usize, usize)>,
    /// Reduces under way: `(rank, round)`.
    pub reducing: Vec<(usize, usize)>,
    /// Ranks waiting, with whom they wait for.
    pub waiting: Vec<(usize, Vec<usize>)>,
    /// Ranks not yet entered (late).
    pub not_entered: Vec<usize>,
    /// Ranks finished.
    pub finished: usize,
    /// Ranks failed by then.
    pub failed: Vec<usize>,
}

/// What happens at time `t` in `clock`.
pub fn moment(clock: &Clock, t: f64) -> Moment {
    let p = clock.p;
    let eps = 1e-12 + 1e-9 * clock.end.abs();
    let mut m = Moment::default();
    let mut active = vec![false; p];
    // The partner of each rank's next message that has not started yet.
    let mut next: Vec<Option<(f64, usize)>> = vec![None; p];
    for x in &clock.messages {
        if x.start <= t + eps && t + eps < x.arrival {
            m.moving.push((x.src, x.dst, x.round));
            active[x.src] = true;
            active[x.dst] = true;
        } else if x.reduce && x.arrival <= t + eps && t + eps < x.done {
            m.reducing.push((x.dst, x.round));
            active[x.dst] = true;
        }
        if x.start > t + eps {
            for (me, other) in [(x.src, x.dst), (x.dst, x.src)] {
                if next[me].is_none_or(|(s, _)| x.start < s) {
                    next[me] = Some((x.start, other));
                }
            }
        }
    }
    let blocked = match &clock.outcome {
        Outcome::Stalled { blocked, .. } => blocked.as_slice(),
        Outcome::Complete => &[],
    };
    let holders: Vec<usize> = (0..p)
        .filter(|&r| {
            let c = &clock.ranks[r];
            let alive = c.failed_at.is_none_or(|f| f > t + eps);
            let not_done = c.finish.is_none_or(|f| f > t + eps);
            alive && not_done && (active[r] || c.entered > t + eps)
        })
        .collect();
    for (r, c) in clock.ranks.iter().enumerate() {
        if c.failed_at.is_some_and(|f| f <= t + eps) {
            m.failed.push(r);
        } else if c.entered > t + eps {
            m.not_entered.push(r);
        } else if c.finish.is_some_and(|f| f <= t + eps) {
            m.finished += 1;
        } else if !active[r] {
            let whom = match next[r] {
                // Lock-step: every rank waits at the barrier for the ranks
                // still busy or not yet entered.
                Some(_) if clock.mode == Mode::LockStep && !holders.is_empty() => holders.clone(),
                Some((_, o)) => vec![o],
                None => blocked
                    .iter()
                    .find(|b| b.rank == r)
                    .map(|b| b.waits_for.clone())
                    .unwrap_or_default(),
            };
            m.waiting.push((r, whom));
        }
    }
    m
}

fn list(items: &[String], most: usize) -> String {
    let shown: Vec<&str> = items.iter().take(most).map(String::as_str).collect();
    match items.len().saturating_sub(most) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// The moment in one or two sentences.
pub fn narrate(m: &Moment) -> String {
    let mut parts = Vec::new();
    if m.moving.is_empty() && m.reducing.is_empty() {
        parts.push("No message is moving.".to_string());
    } else {
        let moving: Vec<String> = m
            .moving
            .iter()
            .map(|(s, d, r)| format!("{s} → {d} (round {})", r + 1))
            .collect();
        let mut s = format!(
            "{} moving: {}",
            if moving.len() == 1 {
                "1 message"
            } else {
                "Messages"
            },
            list(&moving, 6)
        );
        if !m.reducing.is_empty() {
            let red: Vec<String> = m
                .reducing
                .iter()
                .map(|(r, _)| format!("rank {r}"))
                .collect();
            s.push_str(&format!("; reducing (γ): {}", list(&red, 4)));
        }
        s.push('.');
        parts.push(s);
    }
    if !m.waiting.is_empty() {
        let w: Vec<String> = m
            .waiting
            .iter()
            .map(|(r, whom)| {
                if whom.is_empty() {
                    format!("rank {r}")
                } else {
                    let who: Vec<String> = whom.iter().map(usize::to_string).collect();
                    format!("rank {r} for rank {}", who.join(" and "))
                }
            })
            .collect();
        parts.push(format!("Waiting: {}.", list(&w, 6)));
    }
    if !m.not_entered.is_empty() {
        let n: Vec<String> = m.not_entered.iter().map(usize::to_string).collect();
        parts.push(format!("Not entered yet (late): rank {}.", list(&n, 6)));
    }
    if !m.failed.is_empty() {
        let n: Vec<String> = m.failed.iter().map(usize::to_string).collect();
        parts.push(format!("Failed: rank {}.", list(&n, 6)));
    }
    if m.finished > 0 {
        parts.push(format!(
            "{} rank{} finished.",
            m.finished,
            if m.finished == 1 { "" } else { "s" }
        ));
    }
    parts.join(" ")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::collectives::Algorithm;
    use crate::core::timing::clock::{ClockOptions, Faults, Mode};
    use crate::core::timing::run;
    use crate::core::topology::Topology;

    const MS: f64 = 1e-3;

    fn ring4(mode: Mode, faults: Faults) -> Clock {
        crate::core::timing::fixtures::ring4(mode, &faults)
    }

    #[test]
    fn the_ring_has_six_sends_and_six_receives_per_rank_and_no_wait() {
        let g = gantt(&ring4(Mode::Dataflow, Faults::default()));
        assert_eq!(g.rows.len(), 4);
        for row in &g.rows {
            let sends: Vec<&Bar> = row
                .bars
                .iter()
                .filter(|b| b.kind == BarKind::Send)
                .collect();
            assert_eq!(sends.len(), 6);
            assert!(sends
                .iter()
                .all(|b| ((b.end - b.start) - 2.0 * MS).abs() < 1e-12));
            assert!(row.waits.is_empty(), "{:?}", row.waits);
        }
        assert!(!g.merged_pieces && !g.merged_rounds && g.group.is_none());
    }

    #[test]
    fn a_late_rank_shows_the_waits_of_the_clock() {
        let late = Faults {
            late: vec![(2, 5.0 * MS)],
            ..Faults::default()
        };
        let c = ring4(Mode::Dataflow, late);
        let g = gantt(&c);
        let waited: Vec<f64> = g
            .rows
            .iter()
            .map(|r| r.waits.iter().map(|(a, b)| b - a).sum::<f64>() / MS)
            .collect();
        for (got, want) in waited.iter().zip([5.0, 3.0, 0.0, 3.0]) {
            assert!((got - want).abs() < 1e-9, "{waited:?}");
        }
        // at 3 ms: 0 → 1 has not started; rank 0 waits for rank 1, rank 2 is not in
        let m = moment(&c, 3.0 * MS);
        assert!(m.moving.is_empty());
        assert_eq!(m.not_entered, vec![2]);
        assert!(m.waiting.contains(&(0, vec![1])), "{m:?}");
        assert!(narrate(&m).contains("Not entered yet (late): rank 2."));
        // lock-step: at 3 ms ranks 0, 1 and 3 wait at the barrier for rank 2
        let ls = ring4(
            Mode::LockStep,
            Faults {
                late: vec![(2, 5.0 * MS)],
                ..Faults::default()
            },
        );
        let m = moment(&ls, 3.0 * MS);
        assert_eq!(m.waiting, vec![(0, vec![2]), (1, vec![2]), (3, vec![2])]);
        let times = event_times(&c);
        assert_eq!(times.first(), Some(&0.0));
        assert!((times[nearest(&times, 5.1 * MS)] - 5.0 * MS).abs() < 1e-12);
    }

    #[test]
    fn a_failure_cuts_messages_and_names_whom_the_blocked_wait_for() {
        let fail = Faults {
            fail: vec![(2, 3.0 * MS)],
            ..Faults::default()
        };
        let c = ring4(Mode::Dataflow, fail);
        let g = gantt(&c);
        assert_eq!(g.rows[2].failed_at, Some(3.0 * MS));
        assert!(g.rows.iter().flat_map(|r| &r.bars).any(|b| b.cut));
        let m = moment(&c, c.end);
        assert_eq!(m.failed, vec![2]);
        assert!(m.waiting.contains(&(1, vec![2])), "{m:?}");
    }

    #[test]
    fn many_ranks_are_grouped_and_segments_merge() {
        let topo = Topology::flat(128, 0.0, 1e-9);
        let s = Algorithm::RING
            .generate_on(&topo, 128 * 100, 4)
            .expect("valid");
        let c = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
        let g = gantt(&c);
        assert_eq!((g.rows.len(), g.group), (64, Some(2)));
        // the ring is busy all the time on every rank
        assert!(g.rows.iter().all(|r| r.shares.iter().all(|s| *s > 0.99)));
        let topo = Topology::flat(4, 0.0, 1e-9);
        let s = Algorithm::RING.generate_on(&topo, 4000, 4).expect("valid");
        let opts = ClockOptions {
            segments: 8,
            ..ClockOptions::new(Mode::Dataflow)
        };
        let c = run(&s, &topo, &opts).expect("runs");
        let g = gantt(&c);
        assert!(g.merged_pieces);
        let sends = g.rows[0]
            .bars
            .iter()
            .filter(|b| b.kind == BarKind::Send)
            .count();
        assert_eq!(sends, 6);
    }
}
