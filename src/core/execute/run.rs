//! Execution on segment-compressed per-rank buffers, with verification
//! against the element-wise reduction ([`execute`], [`Trace`]).

use std::borrow::Cow;
use std::ops::Range;

use super::grid::cumulative;
use super::stream::round_bytes;
use super::{
    validate, DoubleCount, ExecOptions, InitFn, MalformedSchedule, Mismatch, RankSet, State, Trace,
    Verification,
};
use crate::core::schedule::{chunk_range, Chunks, Computation, Op, Round, Schedule};

pub(super) fn segment_bounds(s: &Schedule) -> Vec<u64> {
    // Rounds repeat the same cut points (a ring at p = 1024: 1 025 distinct
    // cuts in 4 million range ends), so each cut is first looked up in the
    // sorted, deduplicated `cuts`; only unknown ones wait in `pending`, which
    // is merged in once it is large and at the end.
    let mut cuts: Vec<u64> = if s.n == 0 { vec![0] } else { vec![0, s.n] };
    let mut pending: Vec<u64> = Vec::new();
    for round in &s.rounds {
        for t in &round.transfers {
            for c in [t.range.start, t.range.end] {
                if cuts.binary_search(&c).is_err() {
                    pending.push(c);
                }
            }
        }
        if pending.len() > 1024 {
            cuts.append(&mut pending);
            crate::core::order::sort_u64(&mut cuts);
            cuts.dedup();
        }
    }
    cuts.append(&mut pending);
    match &s.collective {
        Computation::AllReduce => {}
        Computation::AllToAll => {
            let blocks = s.p * s.p;
            cuts.extend((0..blocks).map(|b| chunk_range(s.n, blocks, b).start));
        }
        Computation::ReduceScatter { owned } | Computation::AllGather { owned } => {
            for r in owned {
                cuts.push(r.start);
                cuts.push(r.end);
            }
        }
    }
    crate::core::order::sort_u64(&mut cuts);
    cuts.dedup();
    cuts
}

/// Segment index range covering element range `r` (which must lie on cuts).
pub(super) fn seg_span(bounds: &[u64], r: &Range<u64>) -> Range<usize> {
    let lo = bounds.partition_point(|&b| b < r.start);
    let hi = bounds.partition_point(|&b| b < r.end);
    lo..hi
}

/// Runs `schedule` on per-rank buffers initialised by `init` and verifies the
/// result against the element-wise sum.
///
/// For `AllGather`, rank `r` starts with `init` only on its owned range (zero
/// and no contributors elsewhere) and the expected final value of a segment is
/// its owner's input. For `AllToAll` the same holds with rank `r`'s row of
/// the block matrix as its range, and only the blocks addressed to `r`
/// (its column) are checked at `r`.
///
/// # Errors
/// [`MalformedSchedule`] if a transfer names a rank `≥ p` or an element range
/// outside `0..n`.
pub fn execute(
    schedule: &Schedule,
    init: InitFn<'_>,
    opts: ExecOptions,
) -> Result<Trace, MalformedSchedule> {
    execute_owned(schedule.clone(), init, opts)
}

/// As [`execute`], taking the schedule by value (no copy of a large
/// schedule, e.g. the 2 million transfers of a ring at p = 1024).
///
/// # Errors
/// [`MalformedSchedule`] as for [`execute`].
pub fn execute_owned(
    owned: Schedule,
    init: InitFn<'_>,
    opts: ExecOptions,
) -> Result<Trace, MalformedSchedule> {
    let every = usize::from(opts.keep_states);
    run(owned, init, opts.keep_states, every)
}

/// As [`execute_owned`] with contributor tracking, keeping the state only
/// after every `every`-th round (rounds 0, `every`, 2·`every`, …) and after
/// the last one: the memory and copying of per-round states shrink by a
/// factor `every`, and [`Trace::state_at`] rebuilds any other round by
/// replaying at most `every − 1` rounds from the nearest kept state. With
/// `every` = 1 the trace equals `execute_owned(.., keep_states: true)`;
/// `every` = 0 is taken as 1. A view that draws one step at a time can use
/// e.g. `every` = ⌈√rounds⌉ (11 states instead of 127 for a ring at p = 64).
///
/// # Errors
/// [`MalformedSchedule`] as for [`execute`].
pub fn execute_checkpointed(
    owned: Schedule,
    init: InitFn<'_>,
    every: usize,
) -> Result<Trace, MalformedSchedule> {
    run(owned, init, true, every.max(1))
}

/// The messages of one round, read before any is applied: `(destination,
/// segment, op, value, contributors)`; reused from round to round.
type Incoming = Vec<(usize, usize, Op, f64, Option<RankSet>)>;

/// Applies one validated round to `values` (and to `contributors` when it is
/// not empty): every message is read from the pre-round state, then all are
/// applied, since the transfers of one round are simultaneous. Returns the
/// `(rank, segment)` pairs where a `Reduce` met an overlapping contributor set.
pub(super) fn apply_round(
    round: &Round,
    bounds: &[u64],
    values: &mut [Vec<f64>],
    contributors: &mut [Vec<RankSet>],
    incoming: &mut Incoming,
) -> Vec<(usize, usize)> {
    let track = !contributors.is_empty();
    incoming.clear();
    for t in &round.transfers {
        for si in seg_span(bounds, &t.range) {
            let c = track.then(|| contributors[t.src][si].clone());
            incoming.push((t.dst, si, t.op, values[t.src][si], c));
        }
    }
    let mut doubled: Vec<(usize, usize)> = Vec::new();
    for (dst, si, op, v, c) in incoming.drain(..) {
        match op {
            Op::Reduce => {
                values[dst][si] += v;
                if let Some(c) = c {
                    if contributors[dst][si].intersects(&c) {
                        doubled.push((dst, si));
                    }
                    contributors[dst][si].union_with(&c);
                }
            }
            Op::Copy => {
                values[dst][si] = v;
                if let Some(c) = c {
                    contributors[dst][si] = c;
                }
            }
        }
    }
    doubled
}

/// Every rank's starting values per segment, their contributor sets (when
/// tracked; empty otherwise) and the expected final value of every segment.
pub(super) struct Start {
    values: Vec<Vec<f64>>,
    contributors: Vec<Vec<RankSet>>,
    expected: Vec<f64>,
}

/// The inputs of `schedule` on `segments`: every rank holds `init` on every
/// segment (for an all-gather, only on the segments it owns) and contributes
/// itself there; the expected value is the sum over ranks (for an
/// all-gather, the owner's input).
pub(super) fn start(
    schedule: &Schedule,
    segments: &[Range<u64>],
    init: InitFn<'_>,
    track: bool,
) -> Start {
    let p = schedule.p;
    let nseg = segments.len();
    let blocks = Chunks::new(schedule.n, p * p);
    let owner_of = |seg: &Range<u64>| -> Option<usize> {
        match &schedule.collective {
            Computation::AllGather { owned } => owned
                .iter()
                .position(|o| o.start <= seg.start && seg.end <= o.end && o.start < o.end),
            // the block's origin: its row of the block matrix
            Computation::AllToAll => (seg.start < seg.end).then(|| blocks.index_of(seg.start) / p),
            _ => None,
        }
    };
    // Data starts with one owner per segment and is copied, never added.
    let one_owner = matches!(
        schedule.collective,
        Computation::AllGather { .. } | Computation::AllToAll
    );

    let mut values = vec![vec![0.0; nseg]; p];
    let mut contributors = if track {
        vec![vec![RankSet::empty(p); nseg]; p]
    } else {
        Vec::new()
    };
    for (r, row) in values.iter_mut().enumerate() {
        for (si, seg) in segments.iter().enumerate() {
            let holds = !one_owner || owner_of(seg) == Some(r);
            if holds {
                row[si] = init(r, seg.start);
                if track {
                    contributors[r][si] = RankSet::single(p, r);
                }
            }
        }
    }
    let expected: Vec<f64> = segments
        .iter()
        .enumerate()
        .map(|(si, seg)| {
            if one_owner {
                owner_of(seg).map_or(0.0, |o| values[o][si])
            } else {
                (0..p).map(|r| values[r][si]).sum()
            }
        })
        .collect();
    Start {
        values,
        contributors,
        expected,
    }
}

/// The `Reduce` transfers of round `ri` that added into a segment already
/// counted at their destination (`doubled`, from [`apply_round`]).
pub(super) fn double_counts(
    round: &Round,
    ri: usize,
    bounds: &[u64],
    doubled: &[(usize, usize)],
) -> Vec<DoubleCount> {
    if doubled.is_empty() {
        return Vec::new();
    }
    round
        .transfers
        .iter()
        .filter(|t| {
            let span = seg_span(bounds, &t.range);
            t.op == Op::Reduce
                && doubled
                    .iter()
                    .any(|&(d, si)| d == t.dst && span.contains(&si))
        })
        .map(|t| DoubleCount {
            round: ri,
            rank: t.dst,
            range: t.range.clone(),
        })
        .collect()
}

/// The (rank, segment) slots whose final value differs from the expected
/// one (relative 1e-9), among those the collective defines: every slot for
/// an all-reduce or all-gather, the owned range for a reduce-scatter, the
/// blocks addressed to the rank for an all-to-all.
pub(super) fn mismatches(
    schedule: &Schedule,
    segments: &[Range<u64>],
    values: &[Vec<f64>],
    expected: &[f64],
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let tolerance = |x: f64| 1e-9 * x.abs().max(1.0);
    for (r, row) in values.iter().enumerate() {
        for (si, seg) in segments.iter().enumerate() {
            if seg.start == seg.end {
                continue;
            }
            let checked = match &schedule.collective {
                Computation::AllReduce | Computation::AllGather { .. } => true,
                Computation::ReduceScatter { owned } => {
                    owned[r].start <= seg.start && seg.end <= owned[r].end
                }
                // rank r's column: the blocks addressed to it
                Computation::AllToAll => {
                    Chunks::new(schedule.n, schedule.p * schedule.p).index_of(seg.start)
                        % schedule.p
                        == r
                }
            };
            if checked && (row[si] - expected[si]).abs() > tolerance(expected[si]) {
                out.push(Mismatch {
                    rank: r,
                    range: seg.clone(),
                    expected: expected[si],
                    got: row[si],
                });
            }
        }
    }
    out
}

/// The executor behind [`execute_owned`] and [`execute_checkpointed`]:
/// `track` keeps contributor sets; with `track`, the state after round
/// counts that are multiples of `every` (and the final one) is kept.
pub(super) fn run(
    owned: Schedule,
    init: InitFn<'_>,
    track: bool,
    every: usize,
) -> Result<Trace, MalformedSchedule> {
    let schedule = &owned;
    let p = schedule.p;
    validate(schedule)?;
    let bounds = segment_bounds(schedule);
    let segments: Vec<Range<u64>> = bounds.windows(2).map(|w| w[0]..w[1]).collect();
    let Start {
        mut values,
        mut contributors,
        expected,
    } = start(schedule, &segments, init, track);

    let mut states = vec![State {
        values: values.clone(),
        contributors: contributors.clone(),
    }];
    let mut kept = vec![0];
    let mut sent = Vec::with_capacity(schedule.rounds.len());
    let mut recv = Vec::with_capacity(schedule.rounds.len());
    let mut double_counted = Vec::new();
    let mut incoming = Incoming::new();

    for (ri, round) in schedule.rounds.iter().enumerate() {
        // Read every message from the pre-round state, then apply them all:
        // transfers of one round are simultaneous.
        let (s_row, r_row, _) = round_bytes(round, p, schedule.elem_bytes);
        let doubled = apply_round(
            round,
            &bounds,
            &mut values,
            &mut contributors,
            &mut incoming,
        );
        double_counted.extend(double_counts(round, ri, &bounds, &doubled));
        sent.push(s_row);
        recv.push(r_row);
        let done = ri + 1;
        if track && (done % every == 0 || done == schedule.rounds.len()) {
            states.push(State {
                values: values.clone(),
                contributors: contributors.clone(),
            });
            kept.push(done);
        }
    }
    if !track {
        states.push(State {
            values: values.clone(),
            contributors: Vec::new(),
        });
        kept.push(schedule.rounds.len());
    }

    let mismatches = mismatches(schedule, &segments, &values, &expected);
    Ok(Trace {
        schedule: owned,
        segments,
        states,
        kept,
        sent,
        recv,
        expected,
        verification: Verification {
            mismatches,
            double_counts: double_counted,
        },
    })
}

impl Trace {
    /// Number of rounds executed.
    pub fn num_rounds(&self) -> usize {
        self.schedule.rounds.len()
    }

    /// Bytes each rank has sent after the first `rounds` rounds.
    pub fn sent_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.sent, rounds, self.schedule.p)
    }

    /// Bytes each rank has received after the first `rounds` rounds.
    pub fn recv_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.recv, rounds, self.schedule.p)
    }

    /// Largest number of bytes any rank sends over the whole schedule.
    pub fn max_sent_per_rank(&self) -> u64 {
        self.sent_after(self.num_rounds())
            .into_iter()
            .max()
            .unwrap_or(0)
    }

    /// The state after `rounds` rounds, if it was kept.
    pub fn state_after(&self, rounds: usize) -> Option<&State> {
        let i = self.kept.binary_search(&rounds).ok()?;
        self.states.get(i)
    }

    /// The state after `rounds` rounds: the kept one, or else rebuilt by
    /// replaying the rounds after the nearest kept state before it (at most
    /// `every − 1` rounds for [`execute_checkpointed`]). Contributor sets are
    /// present when that kept state has them. `None` when `rounds` exceeds
    /// the number of rounds, and for a round not kept by
    /// `execute(.., keep_states: false)` (numbers only: never replayed).
    pub fn state_at(&self, rounds: usize) -> Option<Cow<'_, State>> {
        if rounds > self.num_rounds() {
            return None;
        }
        let i = match self.kept.binary_search(&rounds) {
            Ok(i) => return self.states.get(i).map(Cow::Borrowed),
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let (from, base) = (*self.kept.get(i)?, self.states.get(i)?);
        if base.contributors.is_empty() {
            // `keep_states = false`: numbers only, no replay
            return None;
        }
        let mut st = base.clone();
        let mut bounds: Vec<u64> = self.segments.iter().map(|g| g.start).collect();
        bounds.push(self.segments.last().map_or(0, |g| g.end));
        let mut incoming = Incoming::new();
        for round in self.schedule.rounds.get(from..rounds)? {
            apply_round(
                round,
                &bounds,
                &mut st.values,
                &mut st.contributors,
                &mut incoming,
            );
        }
        Some(Cow::Owned(st))
    }

    /// Segment indices that make up element range `r`.
    pub fn segments_in(&self, r: &Range<u64>) -> Range<usize> {
        let lo = self.segments.partition_point(|s| s.start < r.start);
        let hi = self.segments.partition_point(|s| s.start < r.end);
        lo..hi
    }

    /// The final buffers divided by `p`: the explicit "mean" step after a sum
    /// all-reduce (1 + 2 + 3 = 6, then 6 / 3 = 2).
    pub fn final_mean(&self) -> Vec<Vec<f64>> {
        let p = self.schedule.p as f64;
        self.states
            .last()
            .map(|s| {
                s.values
                    .iter()
                    .map(|row| row.iter().map(|v| v / p).collect())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Runs `schedule` element by element on the given per-rank buffers
/// (`bufs[rank]` has `schedule.n` values), with the same semantics as
/// [`execute`]: every transfer of a round reads the state from before the
/// round; `Reduce` adds, `Copy` overwrites. No trace is kept. This is the
/// executor for real per-element data such as SGD gradients, where every
/// element differs (the segment-compressed [`execute`] keeps one value per
/// segment).
///
/// Returns the bytes each rank sent.
///
/// # Errors
/// [`MalformedSchedule`] when `bufs` does not hold `p` buffers of `n` values,
/// or a transfer names a rank or range outside them.
pub fn run_on_buffers(
    schedule: &Schedule,
    bufs: &mut [Vec<f64>],
) -> Result<Vec<u64>, MalformedSchedule> {
    let p = schedule.p;
    let n = usize::try_from(schedule.n).map_err(|_| MalformedSchedule("tensor too long".into()))?;
    if bufs.len() != p || bufs.iter().any(|b| b.len() != n) {
        return Err(MalformedSchedule(format!(
            "expected {p} buffers of {n} values, got {} buffers",
            bufs.len()
        )));
    }
    let mut sent = vec![0u64; p];
    let mut incoming: Vec<(usize, Op, usize, Vec<f64>)> = Vec::new();
    for (i, round) in schedule.rounds.iter().enumerate() {
        incoming.clear();
        for t in &round.transfers {
            let (lo, hi) = (t.range.start as usize, t.range.end as usize);
            if t.src >= p || t.dst >= p || lo > hi || hi > n {
                return Err(MalformedSchedule(format!(
                    "round {i}: transfer {} → {} of {:?} outside {p} ranks × {n} values",
                    t.src, t.dst, t.range
                )));
            }
            sent[t.src] += t.bytes(schedule.elem_bytes);
            incoming.push((t.dst, t.op, lo, bufs[t.src][lo..hi].to_vec()));
        }
        for (dst, op, lo, vals) in incoming.drain(..) {
            let target = &mut bufs[dst][lo..lo + vals.len()];
            match op {
                Op::Reduce => target.iter_mut().zip(&vals).for_each(|(x, v)| *x += v),
                Op::Copy => target.copy_from_slice(&vals),
            }
        }
    }
    Ok(sent)
}
