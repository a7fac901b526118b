//! Integration tests for every collective generator: the course's
//! counts derived by hand, and property tests over p = 2..=64 with element
//! counts that are smaller than p or not divisible by p.
#![cfg(not(target_arch = "wasm32"))]

use collective_lab::core::collectives::{generate, summarize, summary_table, Algorithm};
use collective_lab::core::cost::nccl::CollectiveKind;
use collective_lab::core::cost::CostParams;
use collective_lab::core::execute::{default_init, execute, ExecOptions, Trace};
use collective_lab::core::schedule::recursive::{recursive_doubling_all_gather_schedule, Fold};
use collective_lab::core::schedule::{Op, Phase, Schedule};
use proptest::prelude::*;

const MB: u64 = 1_000_000;

fn run(s: &Schedule) -> Trace {
    execute(s, &default_init, ExecOptions::default()).expect("generated schedules are well formed")
}

fn run_light(s: &Schedule) -> Trace {
    execute(s, &default_init, ExecOptions { keep_states: false })
        .expect("generated schedules are well formed")
}

/// Every schedule the app can animate, plus the recursive-doubling all-gather
/// used inside Rabenseifner when run on its own.
/// Each with its registry key ("rdag" for the all-gather).
fn all_schedules(p: usize, n: u64, elem_bytes: u64) -> Vec<(&'static str, Schedule)> {
    let mut v: Vec<_> = Algorithm::all()
        .map(|a| {
            (
                a.key(),
                generate(a, p, n, elem_bytes).expect("p ≥ 2, n ≥ 1"),
            )
        })
        .collect();
    v.push((
        "rdag",
        recursive_doubling_all_gather_schedule(p, n, elem_bytes).expect("p ≥ 2, n ≥ 1"),
    ));
    v
}

/// The invariants every generator must satisfy; returns a description of the
/// first violation.
fn check_invariants(key: &str, s: &Schedule, t: &Trace) -> Result<(), String> {
    let name = format!("{key} p={} n={} eb={}", s.p, s.n, s.elem_bytes);
    if !t.verification.ok() {
        return Err(format!(
            "{name}: verification failed: {:?}",
            t.verification
                .mismatches
                .first()
                .map(|m| (m.rank, m.range.clone(), m.expected, m.got))
        ));
    }
    if !t.verification.double_counts.is_empty() {
        return Err(format!("{name}: double counts"));
    }
    for (i, round) in s.rounds.iter().enumerate() {
        if matches!(
            round.phase,
            Phase::AllGather | Phase::Broadcast | Phase::FoldOut
        ) && round.transfers.iter().any(|t| t.op == Op::Reduce)
        {
            return Err(format!("{name}: round {i} ({}) reduces", round.phase));
        }
        if round.transfers.iter().any(|t| t.src == t.dst) {
            return Err(format!("{name}: round {i} sends to itself"));
        }
    }
    // Byte counters equal the transfer lengths × element size, per rank.
    let p = s.p;
    let mut sent = vec![0u64; p];
    let mut recv = vec![0u64; p];
    for tr in s.rounds.iter().flat_map(|r| &r.transfers) {
        sent[tr.src] += tr.len() * s.elem_bytes;
        recv[tr.dst] += tr.len() * s.elem_bytes;
    }
    let rounds = t.num_rounds();
    if t.sent_after(rounds) != sent || t.recv_after(rounds) != recv {
        return Err(format!(
            "{name}: byte counters differ from transfer lengths"
        ));
    }
    Ok(())
}

// ---- the course's counts, derived by hand ----

#[test]
fn recursive_doubling_p8_three_exchanges_of_n() {
    // log₂ 8 = 3 exchanges of the whole buffer: 3n elements per rank.
    let n = 1000;
    let s = generate(Algorithm::RD, 8, n, 4).expect("valid");
    let t = run(&s);
    assert_eq!(t.num_rounds(), 3);
    assert!(s.rounds.iter().all(|r| r.phase == Phase::Exchange));
    assert_eq!(s.rounds[1].note, "partner = rank XOR 2");
    assert_eq!(t.sent_after(3), vec![3 * n * 4; 8]);
    assert!(t.verification.ok());
    // 1 + 2 + … + 8 = 36 on every rank.
    assert!(t.states[3].values.iter().flatten().all(|&v| v == 36.0));
}

#[test]
fn recursive_halving_p8_sends_seven_eighths() {
    // n/2 + n/4 + n/8 = 7n/8 per rank; with n = 8000: 4000 + 2000 + 1000.
    let n = 8000;
    let s = generate(Algorithm::RH, 8, n, 1).expect("valid");
    let t = run(&s);
    assert_eq!(t.num_rounds(), 3);
    assert_eq!(t.sent[0], vec![4000; 8]);
    assert_eq!(t.sent[1], vec![2000; 8]);
    assert_eq!(t.sent[2], vec![1000; 8]);
    assert_eq!(t.sent_after(3), vec![7 * n / 8; 8]);
    assert!(t.verification.ok());
}

#[test]
fn rabenseifner_p8_64mb_matches_ring_bytes_in_6_rounds() {
    // 64 MB of f32 = 16 M elements. Halving: 32 + 16 + 8 MB, doubling:
    // 8 + 16 + 32 MB = 112 MB per rank, as the ring's 2·7/8·64 MB = 112 MB.
    let n = 16 * MB;
    let rab = run(&generate(Algorithm::RAB, 8, n, 4).expect("valid"));
    let ring = run(&generate(Algorithm::RING, 8, n, 4).expect("valid"));
    assert_eq!(rab.num_rounds(), 6);
    assert_eq!(ring.num_rounds(), 14);
    assert_eq!(rab.sent_after(6), vec![112 * MB; 8]);
    assert_eq!(ring.sent_after(14), vec![112 * MB; 8]);
    let per_round: Vec<u64> = rab.sent.iter().map(|r| r[0]).collect();
    assert_eq!(
        per_round,
        vec![32 * MB, 16 * MB, 8 * MB, 8 * MB, 16 * MB, 32 * MB]
    );
    assert!(rab.verification.ok() && ring.verification.ok());
}

#[test]
fn tree_p1024_has_20_levels_against_ring_2046_rounds() {
    let tree = generate(Algorithm::TREE, 1024, 256, 4).expect("valid");
    let ring = generate(Algorithm::RING, 1024, 256, 4).expect("valid");
    assert_eq!(tree.num_rounds(), 20);
    assert_eq!(ring.num_rounds(), 2046);
    // The tree verifies at this size (whole-tensor messages: one segment).
    let t = run_light(&tree);
    assert!(t.verification.ok());
    // 1 + … + 1024 = 524 800.
    let last = t.states.last().expect("final state");
    assert!(last.values.iter().flatten().all(|&v| v == 524_800.0));
    // Root 0 sends 10 whole tensors in the broadcast and nothing in the reduce.
    assert_eq!(t.sent_after(20)[0], 10 * 256 * 4);
}

#[test]
fn recursive_doubling_p6_folds_in_and_out() {
    // p = 6: p' = 4, r = 2. Rank 0 sends n (fold-in) and receives n (unfold);
    // rank 1 sends 2n in the core and n back to rank 0; rank 4 sends 2n.
    let n = 60;
    let s = generate(Algorithm::RD, 6, n, 1).expect("valid");
    let t = run(&s);
    assert!(t.verification.ok());
    assert_eq!(s.rounds.first().map(|r| r.phase), Some(Phase::FoldIn));
    assert_eq!(s.rounds.last().map(|r| r.phase), Some(Phase::FoldOut));
    assert_eq!(t.sent_after(4), vec![n, 3 * n, n, 3 * n, 2 * n, 2 * n]);
    assert_eq!(t.recv_after(4), vec![n, 3 * n, n, 3 * n, 2 * n, 2 * n]);
    // 1 + … + 6 = 21 everywhere after the unfold; extra rank 0 holds its own 1 until then.
    assert!(t.states[4].values.iter().flatten().all(|&v| v == 21.0));
    assert!(t.states[3].values[0].iter().all(|&v| v == 1.0));
}

#[test]
fn rabenseifner_p6_bytes() {
    // Fold-in n, core Rabenseifner on 4 ranks 2·(3/4)n, unfold n.
    let n = 400;
    let t = run(&generate(Algorithm::RAB, 6, n, 1).expect("valid"));
    assert!(t.verification.ok());
    assert_eq!(t.num_rounds(), 6);
    assert_eq!(
        t.sent_after(6),
        vec![400, 600 + 400, 400, 600 + 400, 600, 600]
    );
}

#[test]
fn fold_is_the_mpich_pairing() {
    let f = Fold::new(12);
    assert_eq!((f.core, f.extra), (8, 4));
    let survivors: Vec<_> = (0..8).map(|i| f.old_rank(i)).collect();
    assert_eq!(survivors, vec![1, 3, 5, 7, 8, 9, 10, 11]);
}

#[test]
fn every_generator_every_p_small_counts() {
    // Deterministic sweep: every p in 2..=64 with n = 1, p − 1, p + 1, 3p + 5.
    for p in 2..=64usize {
        let pn = p as u64;
        for n in [1, pn - 1, pn + 1, 3 * pn + 5] {
            let n = n.max(1);
            for (key, s) in all_schedules(p, n, 4) {
                let t = run(&s);
                if let Err(e) = check_invariants(key, &s, &t) {
                    panic!("{e}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_generator_verifies(p in 2usize..=64, n in 1u64..=200, eb in 1u64..=8) {
        for (key, s) in all_schedules(p, n, eb) {
            let t = run(&s);
            prop_assert!(check_invariants(key, &s, &t).is_ok(), "{:?}", check_invariants(key, &s, &t));
        }
    }

    #[test]
    fn generators_verify_with_distinct_inputs(p in 2usize..=64, n in 1u64..=150) {
        // Inputs vary by rank and element, so a wrong range cannot hide.
        let init = |r: usize, e: u64| (r as f64 + 1.0) * 1000.0 + e as f64;
        for (key, s) in all_schedules(p, n, 2) {
            let t = execute(&s, &init, ExecOptions::default()).expect("well formed");
            prop_assert!(t.verification.ok(), "{key} p={p} n={n}");
        }
    }

    #[test]
    fn ring_sends_two_p_minus_one_over_p(p in 2usize..=64, k in 1u64..=4, eb in 1u64..=8) {
        let n = p as u64 * k;
        let t = run_light(&generate(Algorithm::RING, p, n, eb).expect("valid"));
        let want = 2 * (p as u64 - 1) * n / p as u64 * eb;
        prop_assert_eq!(t.sent_after(t.num_rounds()), vec![want; p]);
    }

    #[test]
    fn power_of_two_rabenseifner_sends_like_the_ring(log_p in 1u32..=6, k in 1u64..=4) {
        let p = 1usize << log_p;
        let n = p as u64 * k;
        let rab = run_light(&generate(Algorithm::RAB, p, n, 4).expect("valid"));
        let ring = run_light(&generate(Algorithm::RING, p, n, 4).expect("valid"));
        prop_assert_eq!(rab.num_rounds(), 2 * log_p as usize);
        prop_assert_eq!(rab.sent_after(rab.num_rounds()), ring.sent_after(ring.num_rounds()));
    }
}

// ---- executed α–β time against the cost model's closed forms ----

/// Course §9 constants: α = 5 µs, β = 0.08 ns/B (100 Gb/s).
fn course_cost() -> CostParams {
    CostParams::course_example()
}

#[test]
fn executed_time_equals_closed_form_for_powers_of_two() {
    // p a power of two and p | n: every round of every algorithm moves equal
    // chunks, so the executed time is the closed form exactly.
    for log_p in 1..=6u32 {
        let p = 1usize << log_p;
        for k in [1u64, 3, 1000] {
            for alg in Algorithm::all().filter(|a| !a.needs_nodes()) {
                // an all-to-all's equal chunks are its p² blocks
                let all_to_all = alg.collective() == CollectiveKind::AllToAll;
                let n = if all_to_all { p * p } else { p } as u64 * k;
                let row = summarize(alg, p, n, 4, course_cost()).expect("valid");
                assert!(row.verified, "{alg} p={p} n={n}");
                assert!(
                    row.agrees(),
                    "{alg} p={p} n={n}: executed {} s vs closed {} s",
                    row.executed_time,
                    row.closed_form.time
                );
                assert_eq!(row.difference, None);
                assert!(!row.closed_form.pow2_adapted);
            }
        }
    }
}

#[test]
fn rabenseifner_p8_64mb_time_by_hand() {
    // 6α + 2·7/8·64 MB·β = 30 µs + 112e6 B × 0.08 ns/B = 30 µs + 8.96 ms.
    let row = summarize(Algorithm::RAB, 8, 16 * MB, 4, course_cost()).expect("valid");
    assert_eq!((row.rounds, row.max_sent_bytes), (6, 112 * MB));
    assert!((row.executed_time - 8.99e-3).abs() < 1e-12);
    assert!(row.agrees());
    // The ring: 14α + the same 8.96 ms = 9.03 ms.
    let ring = summarize(Algorithm::RING, 8, 16 * MB, 4, course_cost()).expect("valid");
    assert_eq!((ring.rounds, ring.max_sent_bytes), (14, 112 * MB));
    assert!((ring.executed_time - 9.03e-3).abs() < 1e-12);
}

#[test]
fn non_powers_of_two_agree_with_the_adapted_closed_forms() {
    // The cost model charges the same MPICH adaptation the generators run
    // (whole-buffer fold-in and unfold; for recursive halving the unfold of
    // chunk 2i and the core blocks standing for two ranks), and tree, ring,
    // naive, rs and ag hold for any p. With n divisible by p and by p′ every
    // row agrees, and the recursive rows say they are adapted.
    for p in [3usize, 5, 6, 7, 12, 24, 48, 63] {
        let n = (p as u64) * 64 * 5 * 7 * 9; // divisible by p and by p′ ≤ 32
        for alg in Algorithm::all().filter(|a| !a.needs_nodes()) {
            let row = summarize(alg, p, n, 4, course_cost()).expect("valid");
            assert!(row.verified);
            assert!(
                row.agrees(),
                "{alg} p={p}: executed {} vs closed {}",
                row.executed_time,
                row.closed_form.time
            );
            let recursive = [Algorithm::RD, Algorithm::RH, Algorithm::RAB].contains(&alg);
            assert_eq!(row.closed_form.pow2_adapted, recursive, "{alg} p={p}");
        }
    }
}

#[test]
fn recursive_halving_p6_by_hand() {
    // p = 6, n = 600 B (chunks of 100 B), p′ = 4, r = 2.
    // Fold-in α + 600β; XOR 2: core ranks {0,1} stand for chunks 0–3
    // (400 B) → α + 400β; XOR 1: core rank 0 sends chunks 2,3 (200 B) →
    // α + 200β; unfold chunks 0 and 2 → α + 100β. Total 4α + 1300β, which is
    // what the adapted closed form charges too.
    let c = CostParams::new(1.0, 1.0);
    let row = summarize(Algorithm::RH, 6, 600, 1, c).expect("valid");
    assert_eq!(row.rounds, 4);
    // Extra ranks 0 and 2 send the whole 600 B in the fold-in; rank 1 sends
    // 200 + 200 + 100 = 500 B and rank 4 400 + 100 = 500 B.
    assert_eq!(row.max_sent_bytes, 600);
    assert_eq!(row.executed_time, 4.0 + 1300.0);
    assert!((row.closed_form.time - 1304.0).abs() < 1e-9);
    assert!(row.closed_form.pow2_adapted);
}

#[test]
fn uneven_and_tiny_counts_are_explained() {
    // n not divisible by p: the larger chunks set the pace; ring at p = 4,
    // n = 10 elements of 1 B, α = 0, β = 1: 6 rounds of 3 B = 18 s against
    // the closed form 2·3/4·10 = 15 s.
    let c = CostParams::new(0.0, 1.0);
    let row = summarize(Algorithm::RING, 4, 10, 1, c).expect("valid");
    assert_eq!(row.executed_time, 18.0);
    assert_eq!(row.closed_form.time, 15.0);
    assert!(row
        .difference
        .as_deref()
        .is_some_and(|d| d.contains("does not divide")));
    // n < p: empty chunks; rab at p = 8 with n = 3 elements.
    let row = summarize(Algorithm::RAB, 8, 3, 4, course_cost()).expect("valid");
    assert!(row.verified);
    assert!(row
        .difference
        .as_deref()
        .is_some_and(|d| d.contains("empty")));
}

#[test]
fn summary_table_lists_every_flat_algorithm() {
    let t = summary_table(8, 16 * MB, 4, course_cost()).expect("valid");
    let rounds: Vec<_> = t.iter().map(|r| (r.alg.key(), r.rounds)).collect();
    assert_eq!(
        rounds,
        vec![
            ("ring", 14),
            ("tree", 6),
            ("ptree", 10),
            ("dbtree", 10),
            ("rd", 3),
            ("rh", 3),
            ("rab", 6),
            ("naive", 14),
            ("rs", 7),
            ("ag", 7),
            ("pairwise", 7),
            ("bruck", 3),
            ("linear", 1)
        ]
    );
    let sent: Vec<_> = t.iter().map(|r| r.max_sent_bytes / MB).collect();
    // ring 112, tree root 3·64, ptree rank 1 (one send up, two down) 3·64,
    // dbtree rank 2 (inner in tree A: 3·32, a leaf in tree B: 32) 4·32, rd
    // 3·64, rh 56, rab 112, naive root 7·64, rs 56, ag 56; the all-to-alls
    // on 64 blocks of 1 MB: pairwise and linear 7 blocks, Bruck 3 rounds ×
    // 4 blocks.
    assert_eq!(
        sent,
        vec![112, 192, 192, 128, 192, 56, 112, 448, 56, 56, 7, 12, 7]
    );
}
