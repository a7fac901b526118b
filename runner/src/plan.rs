//! What one rank does in each round: the registry schedule turned into
//! per-rank lists of sends and receives with MPI tags, ready to post. Pure
//! (no MPI), so it is tested natively.

use std::collections::HashMap;
use std::ops::Range;

use collective_lab::core::collectives::Algorithm;
use collective_lab::core::schedule::{chunk_range, Computation, Op, Schedule};
use collective_lab::core::topology::Topology;

/// The largest tag the plan uses: MPI guarantees `MPI_TAG_UB ≥ 32767`.
pub const MAX_TAG: usize = 32767;

/// One message a rank posts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The other rank.
    pub peer: usize,
    /// Elements of the tensor that travel, `[lo, hi)`.
    pub range: Range<usize>,
    /// MPI tag: the message's index among the round's messages between the
    /// same sender and receiver (0 for the usual single message).
    pub tag: i32,
    /// What the receiver does with it (for a send, what the peer does).
    pub op: Op,
}

/// One rank's share of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPlan {
    /// Index of the round over the whole run (segments one after the other).
    pub round: usize,
    /// Messages this rank sends, in schedule order.
    pub sends: Vec<Message>,
    /// Messages this rank receives, in schedule order (applied in this order).
    pub recvs: Vec<Message>,
}

impl RoundPlan {
    /// Elements received in this round (the scratch space it needs).
    pub fn recv_elems(&self) -> usize {
        self.recvs.iter().map(|m| m.range.len()).sum()
    }
}

/// One rank's whole run: its rounds (only those where it sends or receives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankPlan {
    /// The rounds, in order.
    pub rounds: Vec<RoundPlan>,
    /// The largest number of elements received in one round.
    pub scratch: usize,
}

/// The schedules of one run: one per segment of the tensor, each shifted to
/// its segment's first element.
#[derive(Clone, Debug, PartialEq)]
pub struct Segmented {
    /// `(first element, schedule over the segment's elements)`.
    pub parts: Vec<(u64, Schedule)>,
    /// Elements of the whole tensor.
    pub n: u64,
    /// Ranks.
    pub p: usize,
}

impl Segmented {
    /// The registry schedule of `alg` on `topo` for `n` elements of
    /// `elem_bytes`, cut into `segments` nearly equal pieces of the tensor
    /// (empty pieces, when `n < segments`, are dropped), each generated as
    /// its own schedule.
    ///
    /// # Errors
    /// The generator's message (e.g. the layout does not fit the algorithm).
    pub fn generate(
        alg: Algorithm,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
        segments: usize,
    ) -> Result<Segmented, String> {
        let mut parts = Vec::new();
        for j in 0..segments.max(1) {
            let r = chunk_range(n, segments.max(1), j);
            if r.is_empty() {
                continue;
            }
            let s = alg
                .generate_on(topo, r.end - r.start, elem_bytes)
                .map_err(|e| e.to_string())?;
            parts.push((r.start, s));
        }
        Ok(Segmented {
            parts,
            n,
            p: topo.p(),
        })
    }

    /// Number of rounds over all segments.
    #[cfg(test)]
    pub fn num_rounds(&self) -> usize {
        self.parts.iter().map(|(_, s)| s.num_rounds()).sum()
    }

    /// The ranges rank `r` owns at the end (reduce-scatter) or at the start
    /// (all-gather), over the whole tensor; empty for an all-reduce.
    pub fn owned(&self, r: usize) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        for (off, s) in &self.parts {
            if let Computation::ReduceScatter { owned } | Computation::AllGather { owned } =
                &s.collective
            {
                if let Some(o) = owned.get(r) {
                    out.push((off + o.start) as usize..(off + o.end) as usize);
                }
            }
        }
        out
    }

    /// Test-only damage: the first non-empty reducing transfer becomes a
    /// copy (its receiver loses what it held), or, in a schedule without
    /// reductions (all-gather), the first non-empty transfer is dropped.
    /// The self-check must then fail.
    pub fn break_reduce(&mut self) {
        if let Some(t) = self
            .parts
            .iter_mut()
            .flat_map(|(_, s)| s.rounds.iter_mut())
            .flat_map(|r| r.transfers.iter_mut())
            .find(|t| t.op == Op::Reduce && !t.is_empty())
        {
            t.op = Op::Copy;
            return;
        }
        for round in self.parts.iter_mut().flat_map(|(_, s)| s.rounds.iter_mut()) {
            if let Some(i) = round.transfers.iter().position(|t| !t.is_empty()) {
                round.transfers.remove(i);
                return;
            }
        }
    }

    /// What rank `me` sends and receives in each round. Empty transfers are
    /// left out on both sides; several messages between the same pair in
    /// one round get tags 0, 1, 2 … in schedule order.
    ///
    /// # Errors
    /// A transfer naming a rank `≥ p`, a rank sending to itself, a range
    /// outside the tensor, or more than [`MAX_TAG`] messages between one pair
    /// in a round.
    pub fn plan(&self, me: usize) -> Result<RankPlan, String> {
        let mut rounds = Vec::new();
        let mut index = 0usize;
        // Messages so far in the round per (sender, receiver): a map, not a
        // p × p table, so that a round at p = 1024 costs its transfers only.
        let mut pair_count: HashMap<(usize, usize), usize> = HashMap::new();
        for (off, s) in &self.parts {
            for (i, round) in s.rounds.iter().enumerate() {
                let mut rp = RoundPlan {
                    round: index,
                    ..RoundPlan::default()
                };
                index += 1;
                pair_count.clear();
                for t in &round.transfers {
                    if t.src >= self.p || t.dst >= self.p || t.src == t.dst {
                        return Err(format!(
                            "round {i}: transfer {} → {} at p = {}",
                            t.src, t.dst, self.p
                        ));
                    }
                    if t.range.start > t.range.end || t.range.end > s.n {
                        return Err(format!(
                            "round {i}: range {:?} outside {} elements",
                            t.range, s.n
                        ));
                    }
                    if t.is_empty() {
                        continue;
                    }
                    let k = pair_count.entry((t.src, t.dst)).or_insert(0);
                    if *k > MAX_TAG {
                        return Err(format!(
                            "round {i}: more than {MAX_TAG} messages {} → {}",
                            t.src, t.dst
                        ));
                    }
                    let tag = *k as i32;
                    *k += 1;
                    let range = (off + t.range.start) as usize..(off + t.range.end) as usize;
                    if t.src == me {
                        rp.sends.push(Message {
                            peer: t.dst,
                            range: range.clone(),
                            tag,
                            op: t.op,
                        });
                    }
                    if t.dst == me {
                        rp.recvs.push(Message {
                            peer: t.src,
                            range,
                            tag,
                            op: t.op,
                        });
                    }
                }
                if !rp.sends.is_empty() || !rp.recvs.is_empty() {
                    rounds.push(rp);
                }
            }
        }
        let scratch = rounds.iter().map(RoundPlan::recv_elems).max().unwrap_or(0);
        Ok(RankPlan { rounds, scratch })
    }
}

/// Applies received data: `Reduce` adds into the range, `Copy` overwrites,
/// in the order of `recvs` (`scratch` holds the messages back to back).
pub fn apply(buf: &mut [f32], recvs: &[Message], scratch: &[f32]) {
    let mut at = 0;
    for m in recvs {
        let len = m.range.len();
        let src = &scratch[at..at + len];
        let dst = &mut buf[m.range.clone()];
        match m.op {
            Op::Reduce => dst.iter_mut().zip(src).for_each(|(d, s)| *d += s),
            Op::Copy => dst.copy_from_slice(src),
        }
        at += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collective_lab::core::collectives::flat;
    use collective_lab::core::execute::default_init;

    /// Runs every rank's plan on local buffers, round by round, as the MPI
    /// executor does (receive into scratch, then apply).
    fn simulate(seg: &Segmented, init: &[Vec<f32>]) -> Vec<Vec<f32>> {
        let plans: Vec<RankPlan> = (0..seg.p).map(|r| seg.plan(r).expect("plan")).collect();
        let mut bufs = init.to_vec();
        let total = seg.num_rounds();
        for round in 0..total {
            let before = bufs.clone();
            for (r, plan) in plans.iter().enumerate() {
                let Some(rp) = plan.rounds.iter().find(|x| x.round == round) else {
                    continue;
                };
                let mut scratch = Vec::new();
                for m in &rp.recvs {
                    scratch.extend_from_slice(&before[m.peer][m.range.clone()]);
                }
                apply(&mut bufs[r], &rp.recvs, &scratch);
            }
        }
        bufs
    }

    fn inputs(p: usize, n: usize) -> Vec<Vec<f32>> {
        (0..p)
            .map(|r| (0..n).map(|i| default_init(r, i as u64) as f32).collect())
            .collect()
    }

    #[test]
    fn the_ring_at_three_ranks_sends_one_chunk_per_round() {
        // p = 3, n = 7: chunks 0..3, 3..5, 5..7; 2(p − 1) = 4 rounds, one
        // send and one receive per rank per round, all with tag 0.
        let seg = Segmented::generate(Algorithm::RING, &flat(3), 7, 4, 1).expect("ring");
        let plan = seg.plan(0).expect("plan");
        assert_eq!(plan.rounds.len(), 4);
        assert!(plan
            .rounds
            .iter()
            .all(|r| r.sends.len() == 1 && r.recvs.len() == 1 && r.sends[0].peer == 1));
        assert_eq!(plan.rounds[0].recvs[0].peer, 2);
        assert_eq!(plan.rounds[0].recvs[0].op, Op::Reduce);
        assert_eq!(plan.rounds[3].recvs[0].op, Op::Copy);
        assert_eq!(plan.scratch, 3);
    }

    #[test]
    fn a_ring_at_a_thousand_ranks_plans_one_neighbour_each_way() {
        // p = 1024: 2(p − 1) = 2046 rounds; rank 5 sends to 6, receives from 4.
        let seg = Segmented::generate(Algorithm::RING, &flat(1024), 4096, 4, 1).expect("ring");
        let plan = seg.plan(5).expect("plan");
        assert_eq!(plan.rounds.len(), 2046);
        assert!(plan.rounds.iter().all(|r| r.sends.len() == 1
            && r.recvs.len() == 1
            && r.sends[0].peer == 6
            && r.recvs[0].peer == 4));
        assert_eq!(plan.scratch, 4);
    }

    #[test]
    fn every_all_reduce_sums_to_p_times_p_plus_one_over_two() {
        // default_init: rank r holds r + 1, so the sum is p(p + 1)/2.
        for alg in Algorithm::all().filter(|a| a.is_all_reduce() && !a.needs_nodes()) {
            for (p, n, k) in [(2, 5, 1), (3, 7, 1), (4, 7, 2), (5, 28, 3), (4, 3, 5)] {
                let seg = Segmented::generate(alg, &flat(p), n, 4, k).expect("generate");
                let out = simulate(&seg, &inputs(p, n as usize));
                let want = (p * (p + 1) / 2) as f32;
                assert!(
                    out.iter().flatten().all(|&v| v == want),
                    "{} p={p} n={n} k={k}: {out:?}",
                    alg.key()
                );
            }
        }
    }

    #[test]
    fn segments_cover_the_tensor_with_shifted_schedules() {
        // 10 elements in 4 segments: 0..3, 3..6, 6..8, 8..10; 3 in 5: three
        // non-empty segments of one element.
        let seg = Segmented::generate(Algorithm::RING, &flat(2), 10, 4, 4).expect("ring");
        let offs: Vec<u64> = seg.parts.iter().map(|(o, _)| *o).collect();
        assert_eq!(offs, vec![0, 3, 6, 8]);
        assert_eq!(seg.num_rounds(), 4 * 2);
        let seg = Segmented::generate(Algorithm::RING, &flat(2), 3, 4, 5).expect("ring");
        assert_eq!(seg.parts.len(), 3);
    }

    #[test]
    fn reduce_scatter_owns_one_chunk_per_rank() {
        let seg = Segmented::generate(Algorithm::RS, &flat(3), 7, 4, 1).expect("rs");
        let owned: Vec<_> = (0..3).map(|r| seg.owned(r)).collect();
        let mut all: Vec<_> = owned.iter().flatten().cloned().collect();
        all.sort_by_key(|r| r.start);
        assert_eq!(all, vec![0..3, 3..5, 5..7]);
        let out = simulate(&seg, &inputs(3, 7));
        for (r, o) in owned.iter().enumerate() {
            for range in o {
                assert!(out[r][range.clone()].iter().all(|&v| v == 6.0));
            }
        }
    }

    #[test]
    fn a_broken_schedule_gives_a_wrong_sum() {
        let mut seg = Segmented::generate(Algorithm::RING, &flat(4), 8, 4, 1).expect("ring");
        seg.break_reduce();
        let out = simulate(&seg, &inputs(4, 8));
        assert!(out.iter().flatten().any(|&v| v != 10.0));
        let mut ag = Segmented::generate(Algorithm::AG, &flat(3), 6, 4, 1).expect("ag");
        let before = ag.num_rounds();
        ag.break_reduce();
        assert_eq!(ag.num_rounds(), before);
        assert_eq!(
            ag.parts[0].1.rounds[0].transfers.len(),
            2,
            "one of the three first-round transfers is dropped"
        );
    }

    #[test]
    fn repeated_messages_between_a_pair_get_distinct_tags() {
        use collective_lab::core::schedule::{Phase, Round, Transfer};
        let t = |range: Range<u64>| Transfer {
            src: 0,
            dst: 1,
            range,
            op: Op::Copy,
            chunk: None,
        };
        let s = Schedule {
            p: 2,
            n: 4,
            elem_bytes: 4,
            collective: Computation::AllReduce,
            rounds: vec![Round {
                phase: Phase::Exchange,
                note: String::new(),
                transfers: vec![t(0..1), t(1..1), t(2..4)],
            }],
        };
        let seg = Segmented {
            parts: vec![(0, s)],
            n: 4,
            p: 2,
        };
        let recv = &seg.plan(1).expect("plan").rounds[0].recvs;
        let tags: Vec<i32> = recv.iter().map(|m| m.tag).collect();
        assert_eq!(tags, vec![0, 1], "the empty transfer is skipped");
        assert_eq!(recv[1].range, 2..4);
    }
}
