//! Tests of execution, counting, streaming, narration and the chunk grid.

use super::narrate::complete_sentence;
use super::{
    chunk_grid, count_only, count_rounds, count_streamed, default_init, execute,
    execute_checkpointed, execute_streamed, run_on_buffers, CellChange, ChunkGrid, ExecOptions,
    LogValues, RankSet,
};
use crate::core::collectives::{naive_root_schedule, Algorithm};
use crate::core::schedule::ring::{
    ring_all_gather_schedule, ring_all_reduce_schedule, ring_reduce_scatter_schedule,
};
use crate::core::schedule::{Op, Phase};
use crate::core::schedule::{Round, Transfer};

const MB: u64 = 1_000_000;

#[test]
fn the_complete_share_is_exact_or_marked() {
    assert_eq!(
        complete_sentence(Some(0.125)),
        " After it, 12.5% of all rank-held elements hold the complete sum."
    );
    assert_eq!(
        complete_sentence(Some(0.75)),
        " After it, 75% of all rank-held elements hold the complete sum."
    );
    assert_eq!(
        complete_sentence(Some(1.0 / 3.0)),
        " After it, ≈ 33.33% of all rank-held elements hold the complete sum."
    );
    assert_eq!(complete_sentence(None), "");
}

#[test]
fn course_ring_p4_100mb() {
    // 100 MB of bytes (elem_bytes = 1): 25 MB chunks, 6 rounds, 150 MB sent.
    let s = ring_all_reduce_schedule(4, 100 * MB, 1).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert_eq!(t.num_rounds(), 6);
    assert!(t.sent[0].iter().all(|&b| b == 25 * MB));
    assert_eq!(t.sent_after(6), vec![150 * MB; 4]);
    assert_eq!(t.recv_after(6), vec![150 * MB; 4]);
    assert!(t.verification.ok());
    // 1 + 2 + 3 + 4 = 10 everywhere.
    assert!(t.states[6].values.iter().flatten().all(|&v| v == 10.0));
}

#[test]
fn course_ring_p8_64mb() {
    let s = ring_all_reduce_schedule(8, 64 * MB, 1).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert_eq!(t.num_rounds(), 14);
    assert_eq!(t.max_sent_per_rank(), 112 * MB);
    assert!(t.verification.ok());
}

#[test]
fn sum_and_mean_of_1_2_3() {
    let s = ring_all_reduce_schedule(3, 3, 1).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert!(t.verification.ok());
    assert!(t.states[4].values.iter().flatten().all(|&v| v == 6.0));
    assert!(t.final_mean().iter().flatten().all(|&v| v == 2.0));
}

#[test]
fn contributors_after_reduce_scatter() {
    let s = ring_all_reduce_schedule(4, 4, 1).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    // After round 1 rank 0's chunk 3 holds ranks {0, 3}: 1 + 4 = 5.
    let st = &t.states[1];
    assert_eq!(st.contributors[0][3].ranks(), vec![0, 3]);
    assert_eq!(st.values[0][3], 5.0);
    // After reduce-scatter rank r holds the full chunk (r + 1) mod 4.
    let st = &t.states[3];
    for r in 0..4 {
        assert_eq!(st.contributors[r][(r + 1) % 4].len(), 4);
    }
}

#[test]
fn unequal_chunks_are_counted_honestly() {
    // 10 elements of 4 bytes over 4 ranks: chunks 3,3,2,2 elements.
    let s = ring_all_reduce_schedule(4, 10, 4).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert!(t.verification.ok());
    // Round 1: rank r sends chunk r: 12, 12, 8, 8 bytes.
    assert_eq!(t.sent[0], vec![12, 12, 8, 8]);
    // Each rank sends every chunk except one per phase: 40 − own(rs) + 40 − own(ag).
    // Rank 0 skips chunk 1 (rs) and chunk 2 (ag): 2·40 − 12 − 8 = 60.
    assert_eq!(t.sent_after(6)[0], 60);
    let total: u64 = t.sent_after(6).iter().sum();
    assert_eq!(total, 2 * 3 * 40);
}

#[test]
fn re_adding_in_all_gather_is_caught() {
    let mut s = ring_all_reduce_schedule(4, 8, 1).expect("valid");
    for round in s.rounds.iter_mut().filter(|r| r.phase == Phase::AllGather) {
        for t in &mut round.transfers {
            t.op = Op::Reduce;
        }
    }
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert!(!t.verification.ok());
    assert!(!t.verification.mismatches.is_empty());
    assert!(!t.verification.double_counts.is_empty());
    // Also caught by values alone when contributor tracking is off.
    let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
    assert!(!t.verification.mismatches.is_empty());
}

#[test]
fn reduce_scatter_and_all_gather_alone_verify() {
    let rs = ring_reduce_scatter_schedule(5, 17, 2).expect("valid");
    let t = execute(
        &rs,
        &|r, e| (r * 31 + e as usize) as f64,
        ExecOptions::default(),
    )
    .expect("runs");
    assert!(t.verification.ok());
    assert_eq!(t.num_rounds(), 4);
    let ag = ring_all_gather_schedule(5, 17, 2).expect("valid");
    let t = execute(
        &ag,
        &|r, e| (r * 31 + e as usize) as f64,
        ExecOptions::default(),
    )
    .expect("runs");
    assert!(t.verification.ok());
    assert!(t.verification.double_counts.is_empty());
}

#[test]
fn transfer_log_shows_the_addition() {
    let s = ring_all_reduce_schedule(4, 100 * MB, 1).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    let log = t.round_log(0);
    // rank 3 → rank 0: chunk 3, 25 MB, 4 + 1 = 5.
    let l = &log[3];
    assert_eq!((l.src, l.dst, l.chunk, l.bytes), (3, 0, Some(3), 25 * MB));
    assert_eq!(
        l.values,
        Some(LogValues {
            sent: 4.0,
            before: 1.0,
            after: 5.0
        })
    );
    // first all-gather round copies: rank 0 sends its full chunk 1 (sum 10) over
    // rank 1’s own, untouched value 2.
    let l = &t.round_log(3)[0];
    assert_eq!(
        (l.op, l.values),
        (
            Op::Copy,
            Some(LogValues {
                sent: 10.0,
                before: 2.0,
                after: 10.0
            })
        )
    );
    assert_eq!(t.complete_fraction(3), Some(0.25));
    assert_eq!(t.complete_fraction(6), Some(1.0));
    // The one narration of a round (the registry's, as both views show it).
    let narrate = |k| crate::core::collectives::narrate::narrate(Algorithm::RING, &t, k);
    assert!(narrate(1).starts_with("Reduce-scatter around the ring, round 1 of 3"));
    assert!(narrate(6).contains("verified on every rank"));
}

#[test]
fn element_wise_run_matches_the_sum_and_the_trace_bytes() {
    // Every element differs: rank r, element e holds 10r + e.
    let s = ring_all_reduce_schedule(4, 10, 4).expect("valid");
    let mut bufs: Vec<Vec<f64>> = (0..4)
        .map(|r| (0..10).map(|e| (10 * r + e) as f64).collect())
        .collect();
    let sent = run_on_buffers(&s, &mut bufs).expect("runs");
    // Σ_r (10r + e) = 60 + 4e on every rank.
    for b in &bufs {
        for (e, v) in b.iter().enumerate() {
            assert_eq!(*v, 60.0 + 4.0 * e as f64);
        }
    }
    // Chunks of 3,3,2,2 elements: ranks skip chunk r+1 (reduce-scatter) and
    // r+2 (all-gather): 60, 64, 60, 56 bytes, as the trace counts them.
    assert_eq!(sent, vec![60, 64, 60, 56]);
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert_eq!(t.sent_after(6), sent);
    // Wrong shapes are errors, not panics.
    assert!(run_on_buffers(&s, &mut bufs[..3].to_vec()).is_err());
}

#[test]
fn naive_root_p4() {
    let s = naive_root_schedule(4, 100 * MB, 1).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    assert_eq!(t.num_rounds(), 6);
    assert!(t.verification.ok());
    assert_eq!(
        t.sent_after(6),
        vec![300 * MB, 100 * MB, 100 * MB, 100 * MB]
    );
    assert_eq!(
        t.recv_after(6),
        vec![300 * MB, 100 * MB, 100 * MB, 100 * MB]
    );
}

#[test]
fn count_only_equals_the_executed_counters() {
    use crate::core::collectives::{flat, nodes_of, Algorithm};
    let mut shapes: Vec<_> = (2..=24).map(flat).collect();
    shapes.extend([64, 48, 33].map(flat));
    for (nodes, gpus) in [(2, 2), (2, 4), (4, 2), (3, 4), (4, 8), (8, 8)] {
        shapes.push(nodes_of(nodes, gpus).expect("shape"));
    }
    for topo in &shapes {
        for alg in Algorithm::all() {
            let Ok(s) = alg.generate_on(topo, 1000, 4) else {
                continue;
            };
            let c = count_only(&s).expect("counts");
            let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
            assert_eq!(c.sent, t.sent, "{} p={}", alg.key(), topo.p());
            assert_eq!(c.recv, t.recv, "{} p={}", alg.key(), topo.p());
            assert_eq!(c.num_rounds(), t.num_rounds());
            assert_eq!(c.max_sent_per_rank(), t.max_sent_per_rank());
            for (i, r) in s.rounds.iter().enumerate() {
                let max = r.transfers.iter().map(|t| t.bytes(4)).max().unwrap_or(0);
                assert_eq!(c.round_max_bytes[i], max);
                assert_eq!(c.transfers[i], r.transfers.len());
            }
        }
    }
}

#[test]
fn checkpointed_states_replay_to_the_full_trace() {
    use crate::core::collectives::narrate::{chunk_states, narrate};
    use crate::core::collectives::{flat, nodes_of, Algorithm};
    let shapes = [flat(4), flat(7), flat(16), nodes_of(2, 4).expect("shape")];
    for topo in &shapes {
        for alg in Algorithm::all() {
            let Ok(s) = alg.generate_on(topo, 50, 4) else {
                continue;
            };
            let full = execute(&s, &default_init, ExecOptions::default()).expect("runs");
            for every in [1, 3, 5] {
                let cp = execute_checkpointed(s.clone(), &default_init, every).expect("runs");
                assert_eq!(cp.sent, full.sent);
                assert_eq!(cp.verification, full.verification);
                let rounds = full.num_rounds();
                // kept: 0, every, 2·every, …, and the last round
                assert_eq!(cp.kept.first(), Some(&0));
                assert_eq!(cp.kept.last(), Some(&rounds));
                assert_eq!(cp.states.len(), cp.kept.len());
                for k in 0..=rounds {
                    let want = full.state_after(k).expect("kept");
                    assert_eq!(cp.state_at(k).as_deref(), Some(want), "{} k={k}", alg.key());
                    assert_eq!(cp.state_after(k).is_some(), k % every == 0 || k == rounds);
                    assert_eq!(cp.complete_fraction(k), full.complete_fraction(k));
                    assert_eq!(narrate(alg, &cp, k), narrate(alg, &full, k));
                    assert_eq!(chunk_states(&cp, k), chunk_states(&full, k));
                    if k < rounds {
                        assert_eq!(cp.round_log(k), full.round_log(k));
                    }
                }
                assert!(cp.state_at(rounds + 1).is_none());
            }
        }
    }
    // ring p = 64 every 12 rounds: 0, 12, …, 120 and 126 = 12 states
    let s = ring_all_reduce_schedule(64, 64 * 10, 4).expect("valid");
    let cp = execute_checkpointed(s, &default_init, 12).expect("runs");
    assert_eq!(cp.states.len(), 12);
    // numbers-only traces are not replayed
    let s = ring_all_reduce_schedule(8, 80, 4).expect("valid");
    let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
    assert_eq!(t.kept, vec![0, 14]);
    assert!(t.state_at(3).is_none() && t.round_log(3).is_empty());
    assert!(t.state_at(14).is_some());
}

#[test]
fn count_only_ring_p1024_matches_the_closed_form() {
    // 2(p − 1)/p · n with n = 1024 · 1000 elements of 4 bytes: every rank
    // sends 2 · 1023 chunks of 4000 bytes = 8 184 000 bytes.
    let s = ring_all_reduce_schedule(1024, 1024 * 1000, 4).expect("valid");
    let c = count_only(&s).expect("counts");
    assert_eq!(c.num_rounds(), 2046);
    assert_eq!(c.sent_after(2046), vec![8_184_000; 1024]);
    assert_eq!(c.recv_after(2046), vec![8_184_000; 1024]);
    assert_eq!(c.sent_after(1023), vec![4_092_000; 1024]);
    let (closed, _) = crate::core::timing::ring_bytes_per_rank(1024, (1024 * 1000 * 4) as f64);
    assert_eq!(c.max_sent_per_rank() as f64, closed);
    assert!(c.round_max_bytes.iter().all(|&b| b == 4000));
    assert!(c.transfers.iter().all(|&k| k == 1024));
}

#[test]
fn streamed_ring_counts_equal_the_schedule_counts_and_times() {
    use crate::core::schedule::ring::ring_all_reduce_rounds;
    use crate::core::timing::{breakdown, executed_time};
    for (p, n) in [
        (2, 10),
        (3, 3),
        (4, 10),
        (7, 100),
        (16, 1000),
        (1024, 1024 * 1000),
    ] {
        let s = ring_all_reduce_schedule(p, n, 4).expect("valid");
        let whole = count_only(&s).expect("counts");
        let streamed = count_rounds(p, n, 4, ring_all_reduce_rounds(p, n)).expect("counts");
        assert_eq!(streamed, whole, "p={p}");
        for (a, b) in [(0.0, 1e-9), (5e-6, 8e-11), (1e-3, 0.0)] {
            assert_eq!(
                streamed.executed_time(a, b).to_bits(),
                executed_time(&s, a, b).to_bits(),
                "p={p} α={a} β={b}"
            );
        }
        assert_eq!(streamed.breakdown(), breakdown(&s));
    }
    // an empty round costs nothing, as in executed_time
    let mut s = ring_all_reduce_schedule(3, 3, 1).expect("valid");
    s.rounds[1].transfers.clear();
    let c = count_only(&s).expect("counts");
    assert_eq!(c.executed_time(1.0, 0.0), executed_time(&s, 1.0, 0.0));
    assert_eq!(c.executed_time(1.0, 0.0), 3.0);
    // bad ranks are errors
    let bad = ring_all_reduce_schedule(4, 8, 1).expect("valid").rounds;
    assert!(count_rounds(3, 8, 1, bad).is_err());
}

#[test]
fn streamed_ring_equals_the_executed_trace() {
    use crate::core::schedule::chunk_range;
    use crate::core::schedule::ring::ring_all_reduce_rounds;
    let cuts =
        |p: usize, n: u64| -> Vec<u64> { (0..p).map(|c| chunk_range(n, p, c).start).collect() };
    for (p, n) in [(2, 10), (3, 3), (4, 10), (8, 3), (7, 100), (65, 1000)] {
        let s = ring_all_reduce_schedule(p, n, 4).expect("valid");
        let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
        let st = execute_streamed(
            p,
            n,
            4,
            &cuts(p, n),
            ring_all_reduce_rounds(p, n),
            &default_init,
        )
        .expect("runs");
        let c = count_only(&s).expect("counts");
        let round_at = |i: usize| s.rounds.get(i).cloned();
        // after every round (p = 65: 128 rounds, four checkpoints and a
        // replay of up to 31 rounds), and past the end
        for k in 0..=2 * p {
            assert_eq!(
                st.counts.sent_after(k, round_at),
                t.sent_after(k),
                "p={p} n={n} after {k}"
            );
            assert_eq!(st.counts.recv_after(k, round_at), t.recv_after(k));
        }
        assert_eq!(st.counts.round_max_bytes, c.round_max_bytes);
        assert_eq!(st.counts.transfers, c.transfers);
        assert_eq!(st.counts.num_rounds(), t.num_rounds());
        assert_eq!(st.counts.breakdown(), c.breakdown());
        assert_eq!(
            st.counts.executed_time(5e-6, 8e-11).to_bits(),
            c.executed_time(5e-6, 8e-11).to_bits()
        );
        assert_eq!(st.segments, t.segments);
        assert_eq!(st.initial, t.states[0].values);
        assert_eq!(Some(&st.last), t.states.last().map(|x| &x.values));
        assert_eq!(st.expected, t.expected);
        assert_eq!(st.verification, t.verification);
        assert_eq!(st.final_mean(), t.final_mean());
    }
    // p = 4, n = 10: sums 1 + 2 + 3 + 4 = 10, mean 2.5; rank 0 sends 60 B
    let st = execute_streamed(
        4,
        10,
        4,
        &cuts(4, 10),
        ring_all_reduce_rounds(4, 10),
        &default_init,
    )
    .expect("runs");
    assert!(st.verification.ok());
    assert!(st.last.iter().flatten().all(|&v| v == 10.0));
    assert_eq!(st.final_mean()[3][0], 2.5);
    assert_eq!(st.counts.sent_after(6, |_| None)[0], 60);
    // equal chunks (p = 4 divides n = 8): every round sends the same, one run
    let st = execute_streamed(
        4,
        8,
        4,
        &cuts(4, 8),
        ring_all_reduce_rounds(4, 8),
        &default_init,
    )
    .expect("runs");
    // six rounds: the checkpoint before any round and the one after the last
    assert_eq!(st.counts.sent_at, vec![vec![0; 4], vec![48; 4]]);
    assert_eq!(st.counts.sent_after(6, |_| None), vec![48; 4]);
    // after 2 rounds: replayed from the first checkpoint, 8 B a round
    let round_at = |i| ring_all_reduce_rounds(4, 8).nth(i);
    assert_eq!(st.counts.sent_after(2, round_at), vec![16; 4]);
    // a round that cannot be regenerated adds nothing
    assert_eq!(st.counts.recv_after(2, |_| None), vec![0; 4]);
    // the all-gather re-adding is caught by the values
    let bad = ring_all_reduce_rounds(4, 8).map(|mut r| {
        for t in &mut r.transfers {
            t.op = Op::Reduce;
        }
        r
    });
    let st = execute_streamed(4, 8, 1, &cuts(4, 8), bad, &default_init).expect("runs");
    assert!(!st.verification.mismatches.is_empty());
    // off-cut ranges and bad ranks are errors
    assert!(execute_streamed(
        4,
        8,
        1,
        &[0, 4],
        ring_all_reduce_rounds(4, 8),
        &default_init
    )
    .is_err());
    assert!(execute_streamed(
        3,
        8,
        1,
        &cuts(4, 8),
        ring_all_reduce_rounds(4, 8),
        &default_init
    )
    .is_err());
}

#[test]
fn rank_set_ranks_and_labels() {
    let mut s = RankSet::empty(200);
    for r in [0, 3, 63, 64, 130, 199] {
        s.insert(r);
    }
    assert_eq!(s.ranks(), vec![0, 3, 63, 64, 130, 199]);
    assert_eq!(s.label(200), "0,3,63,64,130,199");
    let mut c = RankSet::empty(8);
    for r in 2..6 {
        c.insert(r);
    }
    assert_eq!(c.label(8), "2–5");
    assert_eq!(RankSet::empty(8).label(8), "∅");
    assert_eq!(RankSet::single(8, 7).label(8), "7");
}

#[test]
fn count_only_rejects_malformed_schedules() {
    let mut s = ring_all_reduce_schedule(3, 3, 1).expect("valid");
    s.rounds[0].transfers[0].range = 2..9;
    assert!(count_only(&s).is_err());
}

#[test]
fn malformed_schedule_is_an_error() {
    let mut s = ring_all_reduce_schedule(3, 3, 1).expect("valid");
    s.rounds.push(Round {
        phase: Phase::AllGather,
        note: String::new(),
        transfers: vec![Transfer {
            src: 0,
            dst: 7,
            range: 0..1,
            op: Op::Copy,
            chunk: None,
        }],
    });
    assert!(execute(&s, &default_init, ExecOptions::default()).is_err());
}

fn change(rank: u32, chunk: u32, before: u32, after: u32) -> CellChange {
    CellChange {
        rank,
        chunk,
        before,
        after,
    }
}

#[test]
fn chunk_grid_round_1_of_a_p4_ring_reduce_scatter() {
    // Round 1: rank r sends chunk r to rank r + 1, which adds it to its
    // own copy: cell (r + 1, r) goes from {r + 1} to {r, r + 1}.
    let s = ring_reduce_scatter_schedule(4, 4, 1).expect("valid");
    let g = chunk_grid(4, 4, &s.rounds).expect("runs");
    assert_eq!(g.num_rounds(), 3);
    assert_eq!(g.initial, vec![1; 16]);
    assert_eq!(
        g.changes[0],
        vec![
            change(1, 0, 1, 2),
            change(2, 1, 1, 2),
            change(3, 2, 1, 2),
            change(0, 3, 1, 2)
        ]
    );
    // after round 3 rank r holds the complete chunk r + 1 (mod 4)
    let after = g.counts_after(3);
    for r in 0..4 {
        assert_eq!(after[r * 4 + (r + 1) % 4], 4, "rank {r}");
    }
}

#[test]
fn chunk_grid_first_all_gather_round_copies_complete_chunks() {
    // p = 4: after the reduce-scatter rank r holds chunk r + 1 complete;
    // all-gather round 1 copies it to rank r + 1, whose own chunk r + 1
    // held only itself (it sent it in round 1): 1 → 4 contributors.
    let s = ring_all_reduce_schedule(4, 8, 1).expect("valid");
    let g = chunk_grid(4, 8, &s.rounds).expect("runs");
    assert_eq!(
        g.changes[3],
        vec![
            change(1, 1, 1, 4),
            change(2, 2, 1, 4),
            change(3, 3, 1, 4),
            change(0, 0, 1, 4)
        ]
    );
    assert_eq!(g.counts_after(6), vec![4; 16]);
    assert_eq!(g.counts_after(99), vec![4; 16], "clamped");
    // stepping 1 → 0 repaints round 1's cells with their old count
    assert_eq!(
        g.repaint(1, 0),
        vec![(0, 3, 1), (3, 2, 1), (2, 1, 1), (1, 0, 1)]
    );
    assert_eq!(g.repaint(0, 1)[0], (1, 0, 2));
    assert_eq!(g.repaint(3, 4).len(), 4);
    assert!(g.repaint(2, 2).is_empty());
}

#[test]
fn chunk_grid_counts_equal_the_executed_contributors() {
    use crate::core::schedule::chunk_range;
    // n = 3 < p = 5 leaves two empty chunks (count 0 throughout)
    for (p, n) in [(2, 2), (3, 7), (4, 100), (5, 3), (8, 64), (13, 1000)] {
        let s = ring_all_reduce_schedule(p, n, 4).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        let g = chunk_grid(p, n, &s.rounds).expect("runs");
        let mut painted = g.counts_after(0);
        for k in 0..=t.num_rounds() {
            let st = &t.states[k];
            let want: Vec<u32> = (0..p)
                .flat_map(|r| (0..p).map(move |c| (r, c)))
                .map(|(r, c)| {
                    let range = chunk_range(n, p, c);
                    if range.is_empty() {
                        0
                    } else {
                        st.contributors[r][t.segments_in(&range).start].len() as u32
                    }
                })
                .collect();
            assert_eq!(
                g.counts_after(k),
                want,
                "p = {p}, n = {n}, after {k} rounds"
            );
            // repainting step by step gives the same picture
            if k > 0 {
                for (r, c, v) in g.repaint(k - 1, k) {
                    painted[r * p + c] = v;
                }
            }
            assert_eq!(painted, want, "p = {p}, n = {n}, painted after {k}");
        }
        for k in (0..t.num_rounds()).rev() {
            for (r, c, v) in g.repaint(k + 1, k) {
                painted[r * p + c] = v;
            }
            assert_eq!(painted, g.counts_after(k), "p = {p}, back to {k}");
        }
    }
}

#[test]
fn chunk_grid_at_p256_changes_256_cells_per_round() {
    use crate::core::schedule::ring::ring_all_reduce_rounds;
    let g = chunk_grid(256, 1024, ring_all_reduce_rounds(256, 1024)).expect("runs");
    assert_eq!(g.num_rounds(), 510);
    assert!(g.changes.iter().all(|c| c.len() == 256));
    // in reduce-scatter round k (1-based) the partial sum received holds
    // k ranks and the receiver's copy only itself: 1 → k + 1
    assert!(g.changes[9].iter().all(|c| (c.before, c.after) == (1, 11)));
    // all-gather round 1 overwrites a copy of 1 with the complete sum
    assert!(g.changes[255]
        .iter()
        .all(|c| (c.before, c.after) == (1, 256)));
    assert_eq!(g.counts_after(510), vec![256; 256 * 256]);
}

#[test]
fn chunk_grid_from_steps_keeps_the_cells_that_differ() {
    // p = 2: [[1, 1], [1, 1]] → [[1, 2], [2, 1]] → [[2, 2], [2, 2]]
    let steps = vec![
        vec![vec![1, 1], vec![1, 1]],
        vec![vec![1, 2], vec![2, 1]],
        vec![vec![2, 2], vec![2, 2]],
    ];
    let g = ChunkGrid::from_steps(2, steps).expect("steps");
    assert_eq!(g.initial, vec![1, 1, 1, 1]);
    assert_eq!(g.changes[0], vec![change(0, 1, 1, 2), change(1, 0, 1, 2)]);
    assert_eq!(g.changes[1], vec![change(0, 0, 1, 2), change(1, 1, 1, 2)]);
    assert_eq!(g.counts_after(2), vec![2; 4]);
    assert!(ChunkGrid::from_steps(2, Vec::new()).is_none());
    // the same grid as the ring's own, from the executed trace's counts
    let s = ring_all_reduce_schedule(5, 20, 4).expect("valid");
    let direct = chunk_grid(5, 20, &s.rounds).expect("runs");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    let counts = (0..=t.num_rounds())
        .map(|k| crate::core::collectives::narrate::chunk_counts(&t, k).expect("kept"));
    let g = ChunkGrid::from_steps(5, counts).expect("steps");
    for k in 0..=t.num_rounds() {
        assert_eq!(g.counts_after(k), direct.counts_after(k), "after {k}");
    }
    // the same cells change, listed row by row instead of by transfer
    let mut a = g.changes[0].clone();
    let mut b = direct.changes[0].clone();
    a.sort_by_key(|c| (c.rank, c.chunk));
    b.sort_by_key(|c| (c.rank, c.chunk));
    assert_eq!(a, b);
}

#[test]
fn count_streamed_equals_the_counters_of_execute_streamed() {
    use crate::core::schedule::chunk_range;
    use crate::core::schedule::ring::ring_all_reduce_rounds;
    // p = 5, n = 13: chunks of 3, 3, 3, 2, 2 elements (4 B each)
    let (p, n) = (5, 13);
    let cuts: Vec<u64> = (0..p).map(|c| chunk_range(n, p, c).start).collect();
    let run = execute_streamed(p, n, 4, &cuts, ring_all_reduce_rounds(p, n), &default_init)
        .expect("runs");
    let c = count_streamed(p, n, 4, ring_all_reduce_rounds(p, n)).expect("counts");
    assert_eq!(c, run.counts);
    assert_eq!(c.num_rounds(), 8);
    // rank 0 sends chunks 0, 4, 3, 2 (reduce-scatter) then 1, 0, 4, 3:
    // 12 + 8 + 8 + 12 + 12 + 12 + 8 + 8 = 80 B
    let round_at = |i| ring_all_reduce_rounds(p, n).nth(i);
    assert_eq!(c.sent_after(8, round_at)[0], 80);
    // after 3 rounds: 12 + 8 + 8 = 28 B
    assert_eq!(c.sent_after(3, round_at)[0], 28);
    // rank 1 receives rank 0's chunks 0, 4, 3: the same 28 B
    assert_eq!(c.recv_after(3, round_at)[1], 28);
    assert_eq!(
        c.executed_time(1.0, 0.5),
        run.counts.executed_time(1.0, 0.5)
    );
    let bad = Round {
        phase: Phase::ReduceScatter,
        note: String::new(),
        transfers: vec![Transfer {
            src: 0,
            dst: 5,
            range: 0..1,
            op: Op::Reduce,
            chunk: None,
        }],
    };
    assert!(count_streamed(5, 13, 4, [bad]).is_err());
}

#[test]
fn chunk_grid_rejects_a_range_off_the_chunk_bounds() {
    let round = Round {
        phase: Phase::ReduceScatter,
        note: String::new(),
        transfers: vec![Transfer {
            src: 0,
            dst: 1,
            range: 0..3,
            op: Op::Reduce,
            chunk: None,
        }],
    };
    // p = 2, n = 8: chunks [0, 4) and [4, 8); 3 is not a bound
    assert!(chunk_grid(2, 8, [&round]).is_err());
    let mut far = round.clone();
    far.transfers[0].dst = 2;
    far.transfers[0].range = 0..4;
    assert!(chunk_grid(2, 8, [&far]).is_err());
}
