//! The two clocks against hand-derived timelines.

use proptest::prelude::*;

use super::*;
use crate::core::collectives::Algorithm;
use crate::core::schedule::Schedule;
use crate::core::schedule::{Computation, Op, Round, Transfer};
use crate::core::timing::lockstep::executed_time_on;
use crate::core::timing::trace::chrome_trace;
use crate::core::timing::{executed_time, run};
use crate::core::topology::Topology;

const BETA: f64 = 1.0 / 12.5e9; // 12.5 GB/s
const MS: f64 = 1e-3;

fn ring4() -> (Schedule, Topology) {
    // 100 MB of f32: 25 M elements; chunks of 25 MB, 2 ms at 12.5 GB/s.
    let topo = Topology::flat(4, 0.0, BETA);
    let s = Algorithm::RING
        .generate_on(&topo, 25_000_000, 4)
        .expect("valid");
    (s, topo)
}

fn opts(mode: Mode, faults: Faults) -> ClockOptions {
    ClockOptions {
        faults,
        ..ClockOptions::new(mode)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
}

#[test]
fn ring_at_p4_takes_12_ms_in_both_modes_with_six_2_ms_sends_per_rank() {
    let (s, topo) = ring4();
    for mode in [Mode::LockStep, Mode::Dataflow] {
        let c = run(&s, &topo, &ClockOptions::new(mode)).expect("runs");
        assert!(c.completes());
        assert!(close(c.end, 12.0 * MS), "{mode:?}: {}", c.end);
        for r in 0..4 {
            let sends: Vec<&Message> = c.messages.iter().filter(|m| m.src == r).collect();
            assert_eq!(sends.len(), 6);
            assert!(sends.iter().all(|m| close(m.arrival - m.start, 2.0 * MS)));
            assert!(close(c.ranks[r].finish.expect("finished"), 12.0 * MS));
            assert!(close(c.ranks[r].busy, 12.0 * MS));
            assert!(c.ranks[r].wait.abs() < 1e-12);
        }
    }
    // lock-step is the executed time of the first batch, bit for bit
    let c = run(&s, &topo, &ClockOptions::new(Mode::LockStep)).expect("runs");
    assert_eq!(c.end, executed_time(&s, 0.0, BETA));
}

#[test]
fn a_late_rank_costs_the_same_finish_but_different_waiting() {
    // late=2:5ms. Dataflow: round 0's messages 1→2 and 2→3 wait for rank 2
    // (5–7 ms) while 0→1 and 3→0 run at 0–2 ms; from round 1 on all ranks
    // are in step: 7 + 5 × 2 = 17 ms. Waiting: rank 0 idles 2–7 (5 ms),
    // rank 1 idles 2–5 (3 ms), rank 3 idles 2–5 (3 ms), rank 2 none: 11 ms.
    // Lock-step: round 0 starts at 5 ms for everyone: 5 + 12 = 17 ms;
    // ranks 0, 1 and 3 wait 0–5 ms: 15 ms.
    let (s, topo) = ring4();
    let late = Faults {
        late: vec![(2, 5.0 * MS)],
        ..Faults::default()
    };
    let df = run(&s, &topo, &opts(Mode::Dataflow, late.clone())).expect("runs");
    let ls = run(&s, &topo, &opts(Mode::LockStep, late)).expect("runs");
    for c in [&df, &ls] {
        assert!(c.completes());
        for r in 0..4 {
            assert!(close(c.ranks[r].finish.expect("done"), 17.0 * MS));
        }
    }
    let w = |c: &Clock| c.ranks.iter().map(|r| r.wait / MS).collect::<Vec<_>>();
    let want_df = [5.0, 3.0, 0.0, 3.0];
    let want_ls = [5.0, 5.0, 0.0, 5.0];
    for (got, want) in w(&df).iter().zip(want_df).chain(w(&ls).iter().zip(want_ls)) {
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
    assert!(close(df.total_wait(), 11.0 * MS));
    assert!(close(ls.total_wait(), 15.0 * MS));
    // the straggler's cost over the same case without the late rank
    let base = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
    assert!(close(df.extra_wait(&base), 11.0 * MS));
    // the critical path starts at rank 2's entry and ends at the last message
    let crit: Vec<&Message> = df.messages.iter().filter(|m| m.critical).collect();
    assert!(crit
        .iter()
        .any(|m| m.round == 0 && m.src == 2 && close(m.start, 5.0 * MS)));
    assert!(crit.iter().any(|m| close(m.done, 17.0 * MS)));
}

#[test]
fn a_failed_rank_stalls_the_ring_and_names_who_waits_for_whom() {
    // fail=2@3ms. Round 0 (0–2 ms) completes. In round 1 (from 2 ms) the
    // messages 1→2 and 2→3 are cut at 3 ms; 0→1 and 3→0 arrive at 4 ms.
    // Rank 0 enters round 2 and waits for ranks 1 and 3 (still in round 1);
    // ranks 1 and 3 wait for rank 2.
    let (s, topo) = ring4();
    let fail = Faults {
        fail: vec![(2, 3.0 * MS)],
        ..Faults::default()
    };
    let c = run(&s, &topo, &opts(Mode::Dataflow, fail.clone())).expect("runs");
    assert!(!c.completes());
    assert!(c.ranks.iter().all(|r| r.finish.is_none()));
    assert_eq!(c.failed(), vec![(2, 3.0 * MS)]);
    let Outcome::Stalled { at, blocked } = &c.outcome else {
        panic!("stalls")
    };
    assert!(close(*at, 4.0 * MS));
    let waits: Vec<(usize, usize, Vec<usize>)> = blocked
        .iter()
        .map(|b| (b.rank, b.round, b.waits_for.clone()))
        .collect();
    assert_eq!(
        waits,
        vec![(0, 2, vec![1, 3]), (1, 1, vec![2]), (3, 1, vec![2])]
    );
    assert_eq!(c.messages.iter().filter(|m| !m.delivered).count(), 2);
    // lock-step: everyone waits at the barrier after round 1 for rank 2
    let c = run(&s, &topo, &opts(Mode::LockStep, fail)).expect("runs");
    assert!(!c.completes());
    let Outcome::Stalled { blocked, .. } = &c.outcome else {
        panic!("stalls")
    };
    assert_eq!(blocked.len(), 3);
    assert!(blocked
        .iter()
        .all(|b| b.waits_for == vec![2] && b.round == 1));
}

#[test]
fn a_failure_after_the_last_message_changes_nothing() {
    let (s, topo) = ring4();
    let fail = Faults {
        fail: vec![(2, 20.0 * MS)],
        ..Faults::default()
    };
    for mode in [Mode::LockStep, Mode::Dataflow] {
        let c = run(&s, &topo, &opts(mode, fail.clone())).expect("runs");
        assert!(c.completes(), "{mode:?}");
        assert!(close(c.end, 12.0 * MS));
    }
}

#[test]
fn a_slow_rank_halves_its_ports() {
    // slow=1:0.5: every ring round has 0→1 (rank 1's ingress) and 1→2
    // (its egress) at half speed: 4 ms a round, 24 ms in both modes.
    let (s, topo) = ring4();
    let slow = Faults {
        slow: vec![(1, 0.5)],
        ..Faults::default()
    };
    for mode in [Mode::LockStep, Mode::Dataflow] {
        let c = run(&s, &topo, &opts(mode, slow.clone())).expect("runs");
        assert!(close(c.end, 24.0 * MS), "{mode:?}: {}", c.end);
    }
}

fn one_round(p: usize, transfers: &[(usize, usize, u64)]) -> Schedule {
    Schedule {
        p,
        n: 1000,
        elem_bytes: 1,
        collective: Computation::AllReduce,
        rounds: vec![Round {
            phase: crate::core::schedule::Phase::Exchange,
            note: String::new(),
            transfers: transfers
                .iter()
                .map(|&(src, dst, len)| Transfer {
                    src,
                    dst,
                    range: 0..len,
                    op: Op::Copy,
                    chunk: None,
                })
                .collect(),
        }],
    }
}

#[test]
fn messages_on_one_port_share_it_equally() {
    // Rank 0 sends 10 B to rank 1 and 30 B to rank 2 at β = 1 s/B. Both
    // move at 1/2 B/s until the 10 B one arrives at 20 s; the other has
    // 20 B left at full rate: it arrives at 40 s = (10 + 30) β.
    let s = one_round(3, &[(0, 1, 10), (0, 2, 30)]);
    let topo = Topology::flat(3, 0.0, 1.0);
    let c = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
    let arrival = |dst: usize| c.messages.iter().find(|m| m.dst == dst).map(|m| m.arrival);
    assert_eq!(arrival(1), Some(20.0));
    assert_eq!(arrival(2), Some(40.0));
    // lock-step: both pay the port's 40 B
    assert_eq!(crate::core::timing::executed_time(&s, 0.0, 1.0), 40.0);
    let c = run(&s, &topo, &ClockOptions::new(Mode::LockStep)).expect("runs");
    assert_eq!(c.end, 40.0);
}

#[test]
fn alpha_holds_no_bandwidth_and_gamma_follows_the_arrival() {
    // p = 2, recursive halving: one round, each rank sends half of 8 B
    // (4 B) to the other and adds it. α = 1 s, β = 1 s/B, γ = 0.5 s/B:
    // 1 + 4 + 2 = 7 s in both modes.
    let topo = Topology::flat(2, 1.0, 1.0);
    let s = Algorithm::RH.generate_on(&topo, 8, 1).expect("valid");
    for mode in [Mode::LockStep, Mode::Dataflow] {
        let o = ClockOptions {
            gamma: 0.5,
            ..ClockOptions::new(mode)
        };
        let c = run(&s, &topo, &o).expect("runs");
        assert!(close(c.end, 7.0), "{mode:?}: {}", c.end);
        let m = &c.messages[0];
        assert!(close(m.flow_start - m.start, 1.0));
        assert!(close(m.arrival, 5.0));
        assert!(close(m.done, 7.0));
    }
}

#[test]
fn pipelining_the_ring_gains_nothing_at_alpha_zero() {
    // With k = 4 pieces every port stays busy from 0 to the end, carrying
    // its 150 MB: 12 ms again.
    let (s, topo) = ring4();
    let o = ClockOptions {
        segments: 4,
        ..ClockOptions::new(Mode::Dataflow)
    };
    let c = run(&s, &topo, &o).expect("runs");
    assert!(close(c.end, 12.0 * MS), "{}", c.end);
    assert_eq!(c.messages.len(), 4 * 6 * 4);
    assert_eq!(c.message_count, 96);
}

#[test]
fn chrome_trace_of_the_ring_parses_with_24_sends_of_2000_us() {
    let (s, topo) = ring4();
    let c = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
    let json: serde_json::Value = serde_json::from_str(&chrome_trace(&c)).expect("JSON");
    let events = json["traceEvents"].as_array().expect("array");
    let sends: Vec<&serde_json::Value> = events.iter().filter(|e| e["cat"] == "send").collect();
    assert_eq!(sends.len(), 24);
    for e in &sends {
        assert_eq!(e["ph"], "X");
        assert_eq!(e["dur"].as_f64(), Some(2000.0));
    }
    // a process per rank (pid r + 1), its 6 sends on one row of its own
    let rows: std::collections::BTreeSet<(u64, u64)> = sends
        .iter()
        .filter_map(|e| Some((e["pid"].as_u64()?, e["tid"].as_u64()?)))
        .collect();
    let pids: Vec<u64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(pids, vec![1, 2, 3, 4]);
    let named = |pid: u64, tid: u64| {
        events.iter().find(|e| {
            e["name"] == "thread_name"
                && e["pid"].as_u64() == Some(pid)
                && e["tid"].as_u64() == Some(tid)
        })
    };
    assert!(rows
        .iter()
        .all(|&(pid, tid)| named(pid, tid).is_some_and(|e| e["args"]["name"] == "send")));
    // a flow from each send to its receive
    assert_eq!(events.iter().filter(|e| e["ph"] == "s").count(), 24);
}

#[test]
fn bad_faults_are_errors_not_panics() {
    let (s, topo) = ring4();
    let bad = [
        (
            Faults {
                late: vec![(9, 0.0)],
                ..Faults::default()
            },
            "late= names rank 9",
        ),
        (
            Faults {
                slow: vec![(1, 0.0)],
                ..Faults::default()
            },
            "slow= needs a factor",
        ),
        (
            Faults {
                slow: vec![(1, 1.5)],
                ..Faults::default()
            },
            "slow= needs a factor",
        ),
        (
            Faults {
                fail: vec![(1, -1.0)],
                ..Faults::default()
            },
            "fail= needs a time",
        ),
        (
            Faults {
                late: vec![(1, 1.0), (1, 2.0)],
                ..Faults::default()
            },
            "twice",
        ),
    ];
    for (f, text) in bad {
        let e = run(&s, &topo, &opts(Mode::Dataflow, f)).expect_err("rejected");
        assert!(e.to_string().contains(text), "{e}");
    }
    let o = ClockOptions {
        segments: 0,
        ..ClockOptions::new(Mode::Dataflow)
    };
    assert_eq!(run(&s, &topo, &o), Err(ClockError::Segments));
}

#[test]
fn the_ring_at_p_256_numbers_only_matches_lock_step() {
    // 2 × 255 × 256 = 130 560 messages, no event list kept.
    let topo = Topology::flat(256, 2e-6, BETA);
    let s = Algorithm::RING
        .generate_on(&topo, 256 * 1000, 4)
        .expect("valid");
    let o = ClockOptions {
        keep_events: false,
        ..ClockOptions::new(Mode::Dataflow)
    };
    let c = run(&s, &topo, &o).expect("runs");
    assert!(c.messages.is_empty());
    assert_eq!(c.message_count, 130_560);
    let want = executed_time_on(&s, &topo, 0.0);
    assert!(close(c.end, want), "{} vs {want}", c.end);
}

#[test]
fn lock_step_on_nodes_is_the_topology_rule_bit_for_bit() {
    let topo = Topology::unequal(
        vec![2; 4],
        2,
        1,
        crate::core::topology::Link::new(1e-6, 100e9),
        crate::core::topology::Link::new(5e-6, 12.5e9),
        25e9,
    )
    .expect("valid");
    for alg in [Algorithm::HIER, Algorithm::MULTILANE, Algorithm::RING] {
        let s = alg.generate_on(&topo, 1_000_003, 4).expect("valid");
        let c = run(&s, &topo, &ClockOptions::new(Mode::LockStep)).expect("runs");
        assert_eq!(c.end, executed_time_on(&s, &topo, 0.0), "{}", alg.key());
        let d = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
        assert!(
            d.end <= c.end * (1.0 + 1e-9),
            "{}: {} > {}",
            alg.key(),
            d.end,
            c.end
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn dataflow_never_exceeds_lock_step_on_the_flat_topology(
        p in 2usize..=64,
        n in 1u64..5000,
        a in 0u32..3,
    ) {
        let alpha = [0.0, 1e-6, 2e-5][a as usize];
        let topo = Topology::flat(p, alpha, BETA);
        for alg in Algorithm::all() {
            let Ok(s) = alg.generate_on(&topo, n, 4) else { continue };
            let ls = run(&s, &topo, &ClockOptions::new(Mode::LockStep)).expect("runs");
            let df = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
            prop_assert!(df.end <= ls.end * (1.0 + 1e-9) + 1e-15,
                "{} p={p} n={n}: dataflow {} > lock-step {}", alg.key(), df.end, ls.end);
            let balanced = [Algorithm::RING, Algorithm::RD, Algorithm::RH, Algorithm::RAB];
            if p.is_power_of_two() && balanced.contains(&alg) && n % p as u64 == 0 {
                prop_assert!(close(df.end, ls.end),
                    "{} p={p} n={n}: {} vs {}", alg.key(), df.end, ls.end);
            }
        }
    }
}

/// The busiest port of `s` over the whole schedule, bytes: the larger of a
/// rank's total sent and total received. No schedule can finish faster
/// than that many bytes × β through one port.
fn busiest_port(s: &Schedule) -> u64 {
    let mut out = vec![0u64; s.p];
    let mut inn = vec![0u64; s.p];
    for t in s.rounds.iter().flat_map(|r| &r.transfers) {
        out[t.src] += t.bytes(s.elem_bytes);
        inn[t.dst] += t.bytes(s.elem_bytes);
    }
    out.into_iter().chain(inn).max().unwrap_or(0)
}

#[test]
fn pipelined_trees_approach_their_port_bounds_at_256_segments() {
    // p = 16, 64 MB, 12.5 GB/s, α = 0: nβ = 64e6 × 0.08 ns = 5.12 ms.
    // Port rule: an inner rank of one binary tree receives 2n (two
    // children) and sends n in the reduce, then receives n and sends 2n in
    // the broadcast: 3n through each direction of its port, so a pipelined
    // binary tree takes at least 3nβ = 15.36 ms. In the double tree each
    // tree carries n/2 and a rank is inner in at most one of them: 3n/2 +
    // n/2 = 2n, at least 2nβ = 10.24 ms. The ring sends 2(p − 1)/p · n:
    // 9.600 ms. The basic (binomial, unpipelined) tree formula:
    // 2⌈log₂ 16⌉ (α + nβ) = 8 × 5.12 = 40.96 ms.
    let n_bytes = 64e6;
    let topo = Topology::flat(16, 0.0, BETA);
    let o = ClockOptions {
        segments: 256,
        keep_events: false,
        ..ClockOptions::new(Mode::Dataflow)
    };
    let nb = n_bytes * BETA;
    for (alg, bound) in [(Algorithm::DBTREE, 2.0 * nb), (Algorithm::PTREE, 3.0 * nb)] {
        let s = alg.generate_on(&topo, 16_000_000, 4).expect("valid");
        assert_eq!(busiest_port(&s) as f64, bound / BETA, "{}", alg.key());
        let c = run(&s, &topo, &o).expect("runs");
        assert!(c.completes());
        assert!(
            c.end >= bound * (1.0 - 1e-9) && c.end <= 1.15 * bound,
            "{}: {} ms against the bound {} ms",
            alg.key(),
            c.end / MS,
            bound / MS
        );
    }
    let ring = Algorithm::RING
        .generate_on(&topo, 16_000_000, 4)
        .expect("valid");
    let c = run(&ring, &topo, &o).expect("runs");
    assert!(close(c.end, 9.6 * MS), "{}", c.end);
    let basic = Algorithm::TREE.cost(16, n_bytes, crate::core::cost::CostParams::new(0.0, BETA));
    assert!(close(basic.time, 40.96 * MS));
}

#[test]
fn reused_flow_slots_never_take_their_previous_flows_events() {
    // With many pieces, finished flows' slots are reused while events of
    // their superseded rates are still queued; those must not end the new
    // flow. The ring at α = 0 keeps every port busy: 150 MB per rank at
    // 12.5 GB/s is 12 ms at any k (it was 10.66 ms at k = 32).
    let (s, topo) = ring4();
    for k in [16, 32, 64] {
        let opts = ClockOptions {
            segments: k,
            ..ClockOptions::new(Mode::Dataflow)
        };
        let c = run(&s, &topo, &opts).expect("runs");
        assert!(close(c.end, 12.0 * MS), "k = {k}: {}", c.end);
    }
}
