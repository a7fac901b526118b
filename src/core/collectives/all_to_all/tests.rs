use super::*;
use crate::core::collectives::compare::crossover;
use crate::core::collectives::{flat, times_agree, Algorithm};
use crate::core::execute::{default_init, execute, ExecOptions};
use crate::core::timing::clock::{ClockOptions, Mode};
use crate::core::timing::{executed_time, run};

type Gen = fn(usize, u64, u64) -> Result<Schedule, ScheduleError>;
const GENS: [(&str, Gen); 3] = [
    ("pairwise", pairwise_schedule),
    ("bruck", bruck_schedule),
    ("linear", linear_schedule),
];

#[test]
fn every_schedule_transposes_the_block_matrix_at_p_2_to_64() {
    for (name, gen) in GENS {
        for p in 2..=64 {
            // equal blocks of 3 elements, and unequal ones (p² + 5)
            for n in [(p * p * 3) as u64, (p * p + 5) as u64] {
                let s = gen(p, n, 4).expect("valid");
                let t = execute(&s, &default_init, ExecOptions { keep_states: false })
                    .expect("runs");
                assert!(t.verification.ok(), "{name} p={p} n={n}");
            }
        }
    }
}

#[test]
fn the_check_fails_when_a_block_is_missing() {
    // Drop one transfer of the last round: some rank then lacks a block of
    // its column, and the check must name it.
    for (name, gen) in GENS {
        let mut s = gen(5, 75, 4).expect("valid");
        s.rounds.last_mut().expect("rounds").transfers.pop();
        let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
        assert!(!t.verification.ok(), "{name}");
    }
}

#[test]
fn rounds_and_messages_are_those_of_the_papers() {
    // p = 8: pairwise 7 rounds of 8 blocks; Bruck 3 rounds of 8 × 4;
    // linear 1 round of 8 × 7. p = 5: Bruck 3 rounds, with 2, 2 and 1
    // blocks per rank (distances 1..4: bit 0 in 1, 3; bit 1 in 2, 3; bit 2
    // in 4).
    let count = |s: &Schedule| -> Vec<usize> { s.rounds.iter().map(|r| r.transfers.len()).collect() };
    assert_eq!(count(&pairwise_schedule(8, 64, 1).expect("valid")), vec![8; 7]);
    assert_eq!(count(&bruck_schedule(8, 64, 1).expect("valid")), vec![32; 3]);
    assert_eq!(count(&linear_schedule(8, 64, 1).expect("valid")), vec![56]);
    assert_eq!(bruck_blocks(5), vec![2, 2, 1]);
    assert_eq!(count(&bruck_schedule(5, 25, 1).expect("valid")), vec![10, 10, 5]);
    // p = 4, XOR pairing: round 3 pairs 0↔3 and 1↔2.
    let s = pairwise_schedule(4, 16, 1).expect("valid");
    assert_eq!(s.rounds[2].pairs(), vec![(0, 3), (1, 2), (2, 1), (3, 0)]);
    // p = 3, shift: round 1 sends r → r + 1; rank 2 sends block (2, 0),
    // elements 6..7 of 9.
    let s = pairwise_schedule(3, 9, 1).expect("valid");
    assert_eq!(s.rounds[0].pairs(), vec![(0, 1), (1, 2), (2, 0)]);
    assert_eq!(s.rounds[0].transfers[2].range, 6..7);
}

#[test]
fn closed_forms_at_p_8_by_hand() {
    // p = 8, α = 5 µs, β = 0.08 ns/B, n = 64 MB: one block is 1 MB,
    // m·β = 80 µs.
    //   pairwise: 7α + 7·mβ = 35 + 560 = 595 µs
    //   Bruck:    3α + 3·(4 blocks)·mβ = 15 + 960 = 975 µs
    //   linear:   α + 7·mβ = 5 + 560 = 565 µs
    let c = CostParams::new(5e-6, 0.08e-9);
    let n = 64e6;
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-12;
    assert!(near(pairwise_time(8, n, c).time, 595e-6));
    assert!(near(bruck_time(8, n, c).time, 975e-6));
    assert!(near(linear_time(8, n, c).time, 565e-6));
    // p = 5: Bruck's Σ bₖ = 5 of 25 blocks, 3 start-ups.
    let f = bruck_time(5, 1.0, CostParams::new(0.0, 0.0));
    assert_eq!((f.startups, f.byte_factor), (3.0, 0.2));
}

#[test]
fn executed_times_equal_the_closed_forms_on_both_clocks() {
    // Equal blocks (p² divides n): the lock-step sum of rounds and the
    // dataflow clock both give the closed form.
    let c = CostParams::new(5e-6, 0.08e-9);
    for alg in [Algorithm::PAIRWISE, Algorithm::BRUCK, Algorithm::LINEAR] {
        for p in [2, 3, 5, 8, 16] {
            let topo = flat(p);
            let n = (p * p * 1000) as u64;
            let s = alg.generate_on(&topo, n, 4).expect("valid");
            let closed = alg.closed_form_on(&topo, (n * 4) as f64, c).time;
            let lock = executed_time(&s, c.alpha, c.beta);
            assert!(times_agree(lock, closed), "{} p={p}: {lock} vs {closed}", alg.key());
            let net = Topology::flat(p, c.alpha, c.beta);
            for mode in [Mode::LockStep, Mode::Dataflow] {
                let clock = run(&s, &net, &ClockOptions::new(mode)).expect("runs");
                assert!(
                    times_agree(clock.end, closed),
                    "{} p={p} {mode:?}: {} vs {closed}",
                    alg.key(),
                    clock.end
                );
            }
        }
    }
}

#[test]
fn bruck_beats_pairwise_below_10_35_mb_at_p_16() {
    // p = 16, α = 5 µs, β = 0.08 ns/B (the seed's figures):
    //   pairwise = 15α + 15/256·nβ, Bruck = 4α + 32/256·nβ
    //   equal where 11α = 17/256·nβ: n* = 11 · 5 µs · 256 / (17 · 0.08 ns/B)
    //   = 14.08 ms / 1.36 ns/B = 10 352 941.18 B (646 kB per rank).
    let c = CostParams::new(5e-6, 0.08e-9);
    let x = crossover(Algorithm::BRUCK, Algorithm::PAIRWISE, 16, c).expect("they cross");
    assert_eq!((x.below, x.above), (Algorithm::BRUCK, Algorithm::PAIRWISE));
    assert!((x.n_bytes - 10_352_941.176).abs() < 0.01, "{}", x.n_bytes);
}

#[test]
fn flat_rounds_are_one_block_messages() {
    // Every message is one block (1/p² of n); the rounds are the
    // start-ups: p = 5 gives pairwise 4, Bruck 3, linear 1.
    for (alg, rounds) in [(Algorithm::PAIRWISE, 4.0), (Algorithm::BRUCK, 3.0), (Algorithm::LINEAR, 1.0)] {
        assert_eq!(alg.flat_rounds(5), Some(vec![(rounds, 1.0 / 25.0)]), "{}", alg.key());
        assert_eq!(alg.flat_factors(5).map(|f| f[0]), Some(rounds));
        assert_eq!(alg.flat_rounds(1), Some(Vec::new()));
    }
}

#[test]
fn the_grid_fills_in_the_transpose_round_by_round() {
    // Pairwise at p = 3 (shift): cell (rank r, column c) is block c → r,
    // full (3) when r holds it. Before: the diagonal only. Round 1 sends
    // r → r + 1, so rank r gains block r − 1 → r. Round 2 fills the rest.
    use crate::core::collectives::narrate::chunk_counts;
    use crate::core::execute::execute_checkpointed;
    let s = pairwise_schedule(3, 9, 4).expect("valid");
    let t = execute_checkpointed(s, &default_init, 1).expect("runs");
    let full = |cells: &[(usize, usize)]| -> Vec<Vec<usize>> {
        (0..3)
            .map(|r| (0..3).map(|c| if cells.contains(&(r, c)) { 3 } else { 0 }).collect())
            .collect()
    };
    let diag = [(0, 0), (1, 1), (2, 2)];
    assert_eq!(chunk_counts(&t, 0), Some(full(&diag)));
    let one = [(0, 0), (1, 1), (2, 2), (1, 0), (2, 1), (0, 2)];
    assert_eq!(chunk_counts(&t, 1), Some(full(&one)));
    assert_eq!(chunk_counts(&t, 2), Some(vec![vec![3; 3]; 3]));
}

#[test]
fn arrows_name_the_block() {
    // p = 3, 9 elements: block (2, 0) is element 6 → "b2→0"; a range of
    // two blocks falls back to the element range.
    use crate::core::collectives::narrate::transfer_label;
    let s = pairwise_schedule(3, 9, 4).expect("valid");
    assert_eq!(transfer_label(&s, &(6..7)), "b2→0");
    assert_eq!(transfer_label(&s, &(6..8)), "[6, 8)");
}
