//! Words and per-chunk summaries for animating any collective schedule: the
//! text the collectives view shows is built here from the executed
//! [`Trace`], so it is tested natively and the UI only renders it.

use std::ops::Range;

use super::{Algorithm, RoundFacts};
use crate::core::execute::Trace;
use crate::core::schedule::{chunk_range, recursive, Computation, Op, Phase, Round, Schedule};
use crate::core::units::format::{format_count_compact, format_value};
use crate::core::units::{capitalise, format_bytes_short};

/// Short label of what a transfer of `s` moves: for an all-to-all the
/// block `"b2→5"` (rank 2's block for rank 5) when the range is one block,
/// otherwise [`range_label`].
pub fn transfer_label(s: &Schedule, range: &Range<u64>) -> String {
    if s.collective == Computation::AllToAll && range.start < range.end {
        let b = crate::core::schedule::Chunks::new(s.n, s.p * s.p).index_of(range.start);
        if chunk_range(s.n, s.p * s.p, b) == *range {
            return format!("b{}→{}", b / s.p, b % s.p);
        }
    }
    range_label(s.n, s.p, range)
}

/// Short label of an element range for an arrow: `"all"` for the whole
/// tensor, `"c3"` for ring chunk 3, `"c4–7"` for chunks 4 to 7 (of `p`
/// chunks from [`chunk_range`]), `"∅"` when empty, otherwise the element
/// range `"[4M, 8M)"`.
pub fn range_label(n: u64, p: usize, range: &Range<u64>) -> String {
    if range.start >= range.end {
        return "∅".into();
    }
    if range.start == 0 && range.end == n {
        return "all".into();
    }
    let first = (0..p).find(|&c| {
        let r = chunk_range(n, p, c);
        r.start == range.start && r.start < r.end
    });
    let last = (0..p).rev().find(|&c| {
        let r = chunk_range(n, p, c);
        r.end == range.end && r.start < r.end
    });
    match (first, last) {
        (Some(a), Some(b)) if a == b => format!("c{a}"),
        (Some(a), Some(b)) if a < b => format!("c{a}–{b}"),
        _ => format!(
            "[{}, {})",
            format_count_compact(range.start),
            format_count_compact(range.end)
        ),
    }
}

/// Full description of an element range: `"elements [0, 8,000,000)"`.
pub fn range_text(range: &Range<u64>) -> String {
    format!(
        "elements [{}, {})",
        crate::core::units::group_thousands(range.start),
        crate::core::units::group_thousands(range.end)
    )
}

/// What rank `rank` holds on ring chunk `c` after `rounds` rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkState {
    /// The chunk has no elements (`n < p`).
    pub empty: bool,
    /// Every element of the chunk holds the same value and contributors.
    pub uniform: bool,
    /// The value held (of the chunk's first piece when not uniform).
    pub value: f64,
    /// Contributors label, e.g. "0,3", "all", "∅"; "mixed" when not uniform.
    pub who: String,
    /// Fewest contributors over the chunk's pieces, `0..=p`. For an
    /// all-gather a piece that holds its owner's data counts as `p`
    /// (it is final: nothing is ever added to it).
    pub count: usize,
    /// Tooltip: every piece with its range, value and contributors.
    pub detail: String,
}

/// The state of ring chunk `c` of rank `rank` after `rounds` rounds, or
/// `None` when that state was not kept or the indices are out of range.
pub fn chunk_state(trace: &Trace, rounds: usize, rank: usize, c: usize) -> Option<ChunkState> {
    let p = trace.schedule.p;
    if c >= p || rank >= p {
        return None;
    }
    let ctx = CellCtx::new(trace, rounds)?;
    let mut labels = vec![None; trace.segments.len()];
    ctx.cell(rank, c, &mut labels)
}

/// [`chunk_state`] for every rank and chunk: `states[rank][chunk]`, or `None`
/// when the state after `rounds` rounds was not kept. Contributor labels are
/// computed once per rank and segment, so p = 64 stays cheap.
pub fn chunk_states(trace: &Trace, rounds: usize) -> Option<Vec<Vec<ChunkState>>> {
    let p = trace.schedule.p;
    let ctx = CellCtx::new(trace, rounds)?;
    (0..p)
        .map(|r| {
            let mut labels = vec![None; trace.segments.len()];
            (0..p).map(|c| ctx.cell(r, c, &mut labels)).collect()
        })
        .collect()
}

/// Only the [`ChunkState::count`] of every rank and chunk
/// (`counts[rank][chunk]`, 0 for an empty chunk): what a picture too small
/// for text needs, without the labels and tooltips of [`chunk_states`].
/// `None` when the state after `rounds` rounds was not kept.
pub fn chunk_counts(trace: &Trace, rounds: usize) -> Option<Vec<Vec<usize>>> {
    let p = trace.schedule.p;
    let ctx = CellCtx::new(trace, rounds)?;
    (0..p)
        .map(|r| (0..p).map(|c| ctx.count(r, c)).collect())
        .collect()
}

/// What every cell of one step shares: the state, chunk ranges and texts.
struct CellCtx<'a> {
    trace: &'a Trace,
    st: std::borrow::Cow<'a, crate::core::execute::State>,
    gather: bool,
    /// An all-to-all: the cells are the blocks addressed to each rank.
    a2a: bool,
    /// Per chunk (per block for an all-to-all): its range, its "size, elements [lo, hi)" text and its
    /// overlapping segments.
    chunks: Vec<(Range<u64>, String, Vec<usize>)>,
}

impl<'a> CellCtx<'a> {
    fn new(trace: &'a Trace, rounds: usize) -> Option<Self> {
        let s = &trace.schedule;
        let st = trace.state_at(rounds)?;
        if st.contributors.len() != s.p {
            return None;
        }
        // An all-to-all's cell (rank r, column c) is block (c, r), the one
        // rank c addressed to r: p² ranges, indexed c·p + r.
        let a2a = s.collective == Computation::AllToAll;
        let parts = if a2a { s.p * s.p } else { s.p };
        let chunks = (0..parts)
            .map(|c| {
                let range = chunk_range(s.n, parts, c);
                // Segments overlapping the chunk (a chunk need not lie on
                // segment cuts, e.g. Rabenseifner's p′ blocks when p is not a
                // power of two). Segments are sorted and contiguous.
                let lo = trace.segments.partition_point(|g| g.end <= range.start);
                let hi = trace.segments.partition_point(|g| g.start < range.end);
                let segs: Vec<usize> = (lo..hi.max(lo))
                    .filter(|&si| trace.segments[si].start < trace.segments[si].end)
                    .collect();
                let size = format!(
                    "{}, {}",
                    format_bytes_short(((range.end - range.start) * s.elem_bytes) as f64),
                    range_text(&range)
                );
                (range, size, segs)
            })
            .collect();
        Some(CellCtx {
            trace,
            st,
            gather: matches!(s.collective, Computation::AllGather { .. }) || a2a,
            a2a,
            chunks,
        })
    }

    /// The range, size text and segments of rank `rank`'s cell `c`.
    fn slot(&self, rank: usize, c: usize) -> Option<&(Range<u64>, String, Vec<usize>)> {
        if self.a2a {
            self.chunks.get(c * self.trace.schedule.p + rank)
        } else {
            self.chunks.get(c)
        }
    }

    /// [`ChunkState::count`] of rank `rank`'s chunk `c` (0 when empty).
    fn count(&self, rank: usize, c: usize) -> Option<usize> {
        let p = self.trace.schedule.p;
        let row_c = self.st.contributors.get(rank)?;
        let (range, _, segs) = self.slot(rank, c)?;
        if range.start >= range.end {
            return Some(0);
        }
        Some(
            segs.iter()
                .map(|&si| {
                    let k = row_c.get(si).map_or(0, |s| s.len());
                    if self.gather && k > 0 {
                        p
                    } else {
                        k
                    }
                })
                .min()
                .unwrap_or(0),
        )
    }

    fn cell(&self, rank: usize, c: usize, labels: &mut [Option<String>]) -> Option<ChunkState> {
        let p = self.trace.schedule.p;
        let row_v = self.st.values.get(rank)?;
        let row_c = self.st.contributors.get(rank)?;
        let (range, size, segs) = self.slot(rank, c)?;
        let name = if self.a2a {
            format!("block {c} → {rank}")
        } else {
            format!("chunk {c}")
        };
        if range.start >= range.end {
            return Some(ChunkState {
                empty: true,
                uniform: true,
                value: 0.0,
                who: String::new(),
                count: 0,
                detail: format!("rank {rank}, {name}: no elements (n < p)"),
            });
        }
        let first = *segs.first()?;
        let uniform = segs
            .iter()
            .all(|&si| row_v[si] == row_v[first] && row_c[si] == row_c[first]);
        let count = self.count(rank, c)?;
        let mut label =
            |si: usize| -> String { labels[si].get_or_insert_with(|| row_c[si].label(p)).clone() };
        let detail = if uniform {
            format!(
                "rank {rank}, {name} ({size}): value {} from ranks {}",
                format_value(row_v[first]),
                label(first)
            )
        } else {
            let pieces: Vec<String> = segs
                .iter()
                .map(|&si| {
                    let g = &self.trace.segments[si];
                    format!(
                        "{}: value {} from ranks {}",
                        range_text(&(g.start.max(range.start)..g.end.min(range.end))),
                        format_value(row_v[si]),
                        label(si)
                    )
                })
                .collect();
            format!("rank {rank}, {name} ({size}): {}", pieces.join("; "))
        };
        Some(ChunkState {
            empty: false,
            uniform,
            value: row_v[first],
            who: if uniform {
                label(first)
            } else {
                "mixed".into()
            },
            count,
            detail,
        })
    }
}

/// Bytes sent per rank in each phase during the first `rounds` rounds, in
/// order of first appearance: `(phase, sent[rank])`. Fold-in and unfold
/// appear as phases of their own, so their cost is visible.
pub fn sent_by_phase(schedule: &Schedule, rounds: usize) -> Vec<(Phase, Vec<u64>)> {
    let mut out: Vec<(Phase, Vec<u64>)> = Vec::new();
    for round in schedule.rounds.iter().take(rounds) {
        let idx = match out.iter().position(|(ph, _)| *ph == round.phase) {
            Some(i) => i,
            None => {
                out.push((round.phase, vec![0; schedule.p]));
                out.len() - 1
            }
        };
        for t in &round.transfers {
            if let Some(x) = out[idx].1.get_mut(t.src) {
                *x += t.bytes(schedule.elem_bytes);
            }
        }
    }
    out
}

/// The phases of a schedule in order, each with its number of rounds.
pub fn phases(schedule: &Schedule) -> Vec<(Phase, usize)> {
    let mut out: Vec<(Phase, usize)> = Vec::new();
    for r in &schedule.rounds {
        match out.last_mut() {
            Some((ph, k)) if *ph == r.phase => *k += 1,
            _ => out.push((r.phase, 1)),
        }
    }
    out
}

/// The narration of a fold-in or unfold round (the MPICH non-power-of-two
/// adaptation), or `None` for any other phase.
pub fn fold_text(round: &RoundFacts<'_>) -> Option<String> {
    let k = round.senders.len();
    let s = if k == 1 { "s" } else { "" };
    let (senders, receivers) = (list_ranks(round.senders), list_ranks(round.receivers));
    let k = plural(k);
    match round.phase {
        Phase::FoldIn if round.reduce => Some(format!(
            "extra rank{k} {senders} hand{s} the whole tensor to rank{k} {receivers}, which add{s} it; they sit out the next rounds"
        )),
        Phase::FoldIn => Some(format!(
            "extra rank{k} {senders} copy their chunk to rank{k} {receivers}, which will stand in for them"
        )),
        Phase::FoldOut => Some(format!(
            "rank{k} {senders} copy the finished result back to extra rank{k} {receivers} (no addition)"
        )),
        _ => None,
    }
}

fn list_ranks(ranks: &[usize]) -> String {
    match ranks {
        [] => "none".into(),
        [a] => a.to_string(),
        [a, b] => format!("{a} and {b}"),
        [a, b, c] => format!("{a}, {b} and {c}"),
        [a, b, .., z] => format!("{a}, {b}, …, {z}"),
    }
}

/// The goal and set-up of a collective, shown before round 1.
pub fn goal(alg: Algorithm, schedule: &Schedule) -> String {
    let folds = schedule
        .rounds
        .iter()
        .any(|r| matches!(r.phase, Phase::FoldIn | Phase::FoldOut));
    goal_of(alg, schedule.p, &schedule.collective, folds)
}

/// [`goal`] from its parts: `p` ranks computing `collective`, `folds` when
/// the schedule has fold rounds (a run that does not hold its schedule).
pub fn goal_of(alg: Algorithm, p: usize, collective: &Computation, folds: bool) -> String {
    let total: u64 = (1..=p as u64).sum();
    let what = match collective {
        Computation::AllReduce => format!(
            "Each of the {p} ranks holds its own tensor (rank r holds the value r + 1 in every element). \
             Goal: every rank ends with the element-wise sum 1 + … + {p} = {total}."
        ),
        Computation::ReduceScatter { .. } => format!(
            "Each of the {p} ranks holds its own tensor (rank r holds r + 1). Goal of a reduce-scatter: \
             each rank ends with the sum {total} on its own chunk only."
        ),
        Computation::AllGather { .. } => "Rank r starts with only its own chunk (value r + 1). Goal of an \
             all-gather: every rank ends with every chunk, copied, never added."
            .to_string(),
        Computation::AllToAll => format!(
            "Rank r starts with row r of a {p} × {p} block matrix (value r + 1). Goal of an \
             all-to-all: rank r ends with column r, copied, never added."
        ),
    };
    let fold = recursive::Fold::new(p);
    let fold_text = if alg.folds() && folds {
        let extra: Vec<usize> = (0..fold.extra).map(|i| 2 * i).collect();
        let partners: Vec<usize> = (0..fold.extra).map(|i| 2 * i + 1).collect();
        format!(
            " p = {p} is not a power of two, so {} uses the MPICH adaptation: ranks {} first fold into \
             ranks {}, the {} remaining ranks run the power-of-two algorithm, and the result is copied back.",
            alg.label(),
            list_ranks(&extra),
            list_ranks(&partners),
            fold.core
        )
    } else {
        String::new()
    };
    format!("{what}{fold_text}")
}

/// A sentence on what happens at `step` (0 = before round 1, `k` = round `k`
/// just ran), with the facts taken from the trace: the one narration of a
/// round, whichever view shows it ([`round_sentence`]).
pub fn narrate(alg: Algorithm, trace: &Trace, step: usize) -> String {
    let s = &trace.schedule;
    if step == 0 {
        return goal(alg, s);
    }
    let Some(round) = s.rounds.get(step - 1) else {
        return String::new();
    };
    let complete = if matches!(s.collective, Computation::AllReduce) {
        trace.complete_fraction(step)
    } else {
        None
    };
    let done = (step == s.rounds.len()).then(|| trace.verification.ok());
    let title = super::round_title(alg, s, step - 1);
    round_sentence(alg, s.p, round, &title, s.elem_bytes, complete, done)
}

/// The sentence of a round of `alg` at `p` ranks that just ran, titled
/// `title` ([`super::round_title`]): what the round does in the algorithm's
/// own words ([`Algorithm::describe`]), how many transfers run at once and
/// the largest; `complete` is the fraction of rank-held elements that hold
/// the complete sum after it, when known; `done` is `Some(verified)` after
/// the last round. [`narrate`] builds it from a trace; a run that never
/// holds its whole schedule (the ring view at thousands of ranks) builds it
/// from the round alone.
pub fn round_sentence(
    alg: Algorithm,
    p: usize,
    round: &Round,
    title: &str,
    elem_bytes: u64,
    complete: Option<f64>,
    done: Option<bool>,
) -> String {
    let k = round.transfers.len();
    let max_bytes = round.largest_bytes(elem_bytes);
    let reduce = round.transfers.first().map(|t| t.op) == Some(Op::Reduce);
    let senders: Vec<usize> = round.transfers.iter().map(|t| t.src).collect();
    let receivers: Vec<usize> = round.transfers.iter().map(|t| t.dst).collect();
    let what = alg.describe(&RoundFacts {
        phase: round.phase,
        reduce,
        senders: &senders,
        receivers: &receivers,
    });
    let progress = complete
        .map(|f| format!(" Now {}", crate::core::execute::complete_share(f)))
        .unwrap_or_default();
    let done = match done {
        Some(true) => " Done: the result is verified on every rank.",
        Some(false) => " Done, but the result does NOT match the element-wise sum.",
        None => "",
    };
    let fold = recursive::Fold::new(p);
    let renumbered = if alg.folds()
        && !fold.is_power_of_two()
        && matches!(
            round.phase,
            Phase::Exchange | Phase::ReduceScatter | Phase::AllGather
        ) {
        format!(
            " Core rank i is rank 2i + 1 for i < {r}, and rank i + {r} otherwise.",
            r = fold.extra
        )
    } else {
        String::new()
    };
    format!(
        "{}: {what}.{renumbered} {k} transfer{} at once, the largest {}.{progress}{done}",
        capitalise(title),
        plural(k),
        format_bytes_short(max_bytes as f64)
    )
}

/// One ring all-reduce against one gossip round on the same ring (course §6),
/// from the inputs `x_r = r + 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct GossipContrast {
    /// Inputs, `x_r = r + 1`.
    pub inputs: Vec<f64>,
    /// Every rank's value after one ring all-reduce and the division by `p`:
    /// the exact mean `(p + 1)/2`, identical everywhere.
    pub mean: f64,
    /// Values after ONE gossip round `x ← W x` on the ring with uniform
    /// weights 1/3 (self and both neighbours; 1/2 each when p = 2).
    pub after_one_round: Vec<f64>,
    /// `max − min` of the inputs.
    pub spread_before: f64,
    /// `max − min` after the gossip round (0 after the all-reduce).
    pub spread_after: f64,
}

/// Builds the contrast with the consensus core's ring graph and uniform
/// weights, or `None` if the graph cannot be built for this `p`.
#[cfg(feature = "views")]
pub fn gossip_contrast(p: usize) -> Option<GossipContrast> {
    use crate::core::consensus::{mixing_matrix, Graph, GraphKind, WeightRule};
    let graph = Graph::new(GraphKind::Ring, p, 0).ok()?;
    let w = mixing_matrix(&graph, WeightRule::Uniform).ok()?;
    let inputs: Vec<f64> = (0..p).map(|r| r as f64 + 1.0).collect();
    let after = w.try_apply(&inputs).ok()?;
    let spread = |v: &[f64]| {
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        max - min
    };
    Some(GossipContrast {
        mean: inputs.iter().sum::<f64>() / p as f64,
        spread_before: spread(&inputs),
        spread_after: spread(&after),
        inputs,
        after_one_round: after,
    })
}

fn plural(k: usize) -> &'static str {
    if k == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collectives::generate;
    use crate::core::execute::{default_init, execute, ExecOptions};

    fn trace(alg: Algorithm, p: usize, n: u64) -> Trace {
        let s = generate(alg, p, n, 4).expect("valid");
        execute(&s, &default_init, ExecOptions::default()).expect("runs")
    }

    #[test]
    fn chunk_counts_are_the_counts_of_chunk_states() {
        // rab at p = 6 has mixed chunks; n = 3 < p = 8 has empty ones
        for (alg, p, n) in [
            (Algorithm::RAB, 6, 12),
            (Algorithm::RING, 5, 17),
            (Algorithm::RD, 8, 3),
            (Algorithm::RING, 8, 3),
        ] {
            let t = trace(alg, p, n);
            for k in 0..=t.num_rounds() {
                let full = chunk_states(&t, k).expect("kept");
                let counts = chunk_counts(&t, k).expect("kept");
                let want: Vec<Vec<usize>> = full
                    .iter()
                    .map(|row| row.iter().map(|c| c.count).collect())
                    .collect();
                assert_eq!(counts, want, "{} p={p} n={n} k={k}", alg.key());
            }
        }
        // ring p = 4 after round 1: rank 0's chunk 3 holds ranks {0, 3}
        let t = trace(Algorithm::RING, 4, 4);
        assert_eq!(chunk_counts(&t, 1).expect("kept")[0], vec![1, 1, 1, 2]);
    }

    #[test]
    fn gossip_round_only_mixes_neighbours() {
        // p = 4, x = 1, 2, 3, 4; weights 1/3: rank 0 → (4 + 1 + 2)/3 = 7/3,
        // rank 1 → (1 + 2 + 3)/3 = 2, rank 2 → 3, rank 3 → (3 + 4 + 1)/3 = 8/3.
        let g = gossip_contrast(4).expect("ring of 4");
        assert_eq!(g.mean, 2.5);
        let want = [7.0 / 3.0, 2.0, 3.0, 8.0 / 3.0];
        for (a, b) in g.after_one_round.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
        assert_eq!(g.spread_before, 3.0);
        assert!((g.spread_after - 1.0).abs() < 1e-12);
    }

    #[test]
    fn labels_of_ranges() {
        assert_eq!(range_label(80, 8, &(0..80)), "all");
        assert_eq!(range_label(80, 8, &(30..40)), "c3");
        assert_eq!(range_label(80, 8, &(40..80)), "c4–7");
        assert_eq!(range_label(80, 8, &(5..5)), "∅");
        // p = 6, n = 12 (chunks of 2): a p′ = 4 block of 3 elements is not a chunk.
        assert_eq!(range_label(12, 6, &(3..6)), "[3, 6)");
        assert_eq!(
            range_label(16_000_000, 6, &(4_000_000..8_000_000)),
            "[4M, 8M)"
        );
        assert_eq!(format_count_compact(2500), "2500");
        assert_eq!(format_count_compact(25_000), "25k");
        assert_eq!(format_count_compact(2_666_667), "2.667M");
    }

    #[test]
    fn rabenseifner_chunks_after_halving() {
        // p = 4, n = 8: after the 2 halving rounds rank r owns chunk r complete
        // (1 + 2 + 3 + 4 = 10), and still holds a partial sum elsewhere.
        let t = trace(Algorithm::RAB, 4, 8);
        let own = chunk_state(&t, 2, 2, 2).expect("kept");
        assert_eq!((own.value, own.who.as_str(), own.count), (10.0, "all", 4));
        // Rank 0's chunk 2 after round 1 (partner 2): only its own 1 (it sent c2–3 away).
        let c = chunk_state(&t, 1, 0, 2).expect("kept");
        assert_eq!((c.value, c.who.as_str()), (1.0, "0"));
        // Rank 0's chunk 0 after round 1: 1 + 3 from rank 2.
        let c = chunk_state(&t, 1, 0, 0).expect("kept");
        assert_eq!((c.value, c.who.as_str()), (4.0, "0,2"));
    }

    #[test]
    fn mixed_chunks_when_blocks_straddle() {
        // rab at p = 6, n = 12: blocks of 3 elements over the 4 core ranks,
        // ring chunks of 2. After round 3 (fold-in, halving XOR 2, halving
        // XOR 1) rank 1 (core 0) holds the complete sum 21 on elements 0..3
        // but only ranks 0, 1, 4 (1 + 2 + 5 = 8) on 3..6, so chunk 1
        // (elements 2..4) straddles the cut and is mixed.
        let t = trace(Algorithm::RAB, 6, 12);
        let c = chunk_state(&t, 3, 1, 1).expect("kept");
        let all = chunk_states(&t, 3).expect("kept");
        assert_eq!(all[1][1], c);
        assert_eq!(all.len(), 6);
        assert!(!c.uniform);
        assert_eq!(c.who, "mixed");
        assert_eq!(c.count, 3);
        assert!(c
            .detail
            .contains("elements [2, 3): value 21 from ranks all"));
        assert!(c
            .detail
            .contains("elements [3, 4): value 8 from ranks 0,1,4"));
    }

    #[test]
    fn fold_phases_are_counted_apart() {
        // rd at p = 6, n = 10 elements of 4 B: fold-in 40 B from ranks 0, 2;
        // two exchanges of 40 B from the 4 core ranks; unfold 40 B from 1, 3.
        let s = generate(Algorithm::RD, 6, 10, 4).expect("valid");
        let by = sent_by_phase(&s, 4);
        assert_eq!(by.len(), 3);
        assert_eq!(by[0], (Phase::FoldIn, vec![40, 0, 40, 0, 0, 0]));
        assert_eq!(by[1], (Phase::Exchange, vec![0, 80, 0, 80, 80, 80]));
        assert_eq!(by[2], (Phase::FoldOut, vec![0, 40, 0, 40, 0, 0]));
        assert_eq!(
            phases(&s),
            vec![
                (Phase::FoldIn, 1),
                (Phase::Exchange, 2),
                (Phase::FoldOut, 1)
            ]
        );
    }

    #[test]
    fn narration_names_fold_and_partners() {
        let t = trace(Algorithm::RD, 6, 12);
        let g = narrate(Algorithm::RD, &t, 0);
        assert!(g.contains("sum 1 + … + 6 = 21"));
        assert!(g.contains("ranks 0 and 2 first fold into ranks 1 and 3"));
        let n2 = narrate(Algorithm::RD, &t, 2);
        assert!(n2.contains("Core rank i is rank 2i + 1 for i < 2, and rank i + 2 otherwise."));
        let n1 = narrate(Algorithm::RD, &t, 1);
        assert!(n1.starts_with("Fold-in"));
        assert!(n1.contains("hand the whole tensor to ranks 1 and 3"));
        let n4 = narrate(Algorithm::RD, &t, 4);
        assert!(n4.starts_with("Unfold"));
        assert!(n4.contains("100%"));
        assert!(n4.contains("verified"));
        let t = trace(Algorithm::RAB, 8, 64);
        let n2 = narrate(Algorithm::RAB, &t, 2);
        assert!(n2.starts_with(
            "Reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2"
        ));
        assert!(n2.contains("the largest 64 B"));
    }
}
