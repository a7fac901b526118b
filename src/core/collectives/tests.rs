use super::*;
use crate::core::cost::nccl::CollectiveKind;

#[test]
fn flat_all_reduces_are_the_compared_entries_with_the_same_schedules() {
    // The narrow generator answers exactly for the cost view's compared
    // entries (flat all-reduces), in registry order, with the registry's
    // own schedule: p = 6, 1000 f32 elements.
    let topo = flat(6);
    let flat_ones: Vec<&str> = Algorithm::all()
        .filter(|a| a.generate_flat_all_reduce(&topo, 1000, 4).is_ok())
        .map(Algorithm::key)
        .collect();
    let compared: Vec<&str> = Algorithm::compared().iter().map(|a| a.key()).collect();
    assert_eq!(flat_ones, compared);
    assert_eq!(compared[0], "ring");
    for &a in Algorithm::compared() {
        assert!(a.is_flat_all_reduce());
        assert_eq!(
            a.generate_flat_all_reduce(&topo, 1000, 4),
            a.generate_on(&topo, 1000, 4)
        );
    }
    // not flat all-reduces: a reduce-scatter, an entry that follows nodes
    for a in [Algorithm::RS, Algorithm::HIER] {
        assert!(!a.is_flat_all_reduce());
        assert!(matches!(
            a.generate_flat_all_reduce(&topo, 1000, 4),
            Err(ScheduleError::Shape(_))
        ));
    }
}

#[test]
fn flat_factors_are_the_factors_of_the_entries_that_do_not_follow_nodes() {
    // The narrow factors equal the full ones on the flat topology for
    // every entry that does not follow nodes, at p = 2 … 17 (powers of
    // two and not), and are `None` for the node-following ones.
    for alg in Algorithm::all() {
        for p in 2..=17 {
            let want = (!alg.needs_nodes()).then(|| alg.factors(p));
            assert_eq!(alg.flat_factors(p), want, "{} at p = {p}", alg.key());
        }
    }
    // by hand: ring at p = 4 is 2(p−1) = 6 start-ups, 2(p−1)/p = 1.5 n·β,
    // (p−1)/p = 0.75 n·γ; recursive doubling log₂4 = 2 of each
    assert_eq!(Algorithm::RING.flat_factors(4), Some([6.0, 1.5, 0.75]));
    assert_eq!(Algorithm::RD.flat_factors(4), Some([2.0, 2.0, 2.0]));
    assert_eq!(Algorithm::HIER.flat_factors(4), None);
}

#[test]
fn the_topology_view_offers_its_entries_under_its_keys() {
    // The topology view's list, in registry order, with `flat` for the ring
    // over all ranks; the others answer `None` and refuse to draw.
    let keys: Vec<&str> = Algorithm::on_topologies()
        .filter_map(|a| a.on_topology().map(|t| t.key))
        .collect();
    assert_eq!(
        keys,
        ["flat", "hier", "hier_rd", "multilane", "rat", "flex"]
    );
    assert_eq!(
        Algorithm::from_topology_key(" FLAT "),
        Some(Algorithm::RING)
    );
    assert_eq!(Algorithm::from_topology_key("ring"), None);
    assert_eq!(Algorithm::from_topology_key("rab"), None);
    let topo = nodes_of(2, 2).expect("shape");
    assert!(matches!(
        Algorithm::RAB.topology_schedule(&topo, 8, 4),
        Err(ScheduleError::Shape(_))
    ));
    assert_eq!(
        Algorithm::RAB.topology_time(&topo, 8, 4, pieces::Split::EXACT),
        None
    );
}

#[test]
fn one_element_chunk_gaps_agree_to_the_shown_digits() {
    // Ring all-reduce, p = 6, n = 16,000,000 f32 (64 MB), α = 5 µs,
    // β = 0.08 ns/B. Chunks of 2,666,667 and 2,666,666 elements: each of
    // the 2(p − 1) = 10 rounds costs α + 10,666,668 B × β, the closed form
    // α + (64 MB / 6) × β, so the executed time exceeds it by
    // 10 × (4/3 B) × 0.08 ns/B ≈ 1.067 ns; both print as 8.583 ms.
    let row = summarize(
        Algorithm::named("ring"),
        6,
        16_000_000,
        4,
        CostParams::new(5e-6, 8e-11),
    )
    .expect("valid");
    assert!(!row.agrees());
    assert!(row.agrees_to_shown_digits());
    assert!((row.excess() - 1.0667e-9).abs() < 1e-12, "{}", row.excess());
    assert_eq!(
        crate::core::units::format_time(row.executed_time),
        "8.583 ms"
    );
    assert_eq!(
        crate::core::units::format_signed_time(row.excess()),
        "+1.067 ns"
    );
    // Equal chunks: exact agreement.
    let row = summarize(
        Algorithm::named("ring"),
        4,
        16_000_000,
        4,
        CostParams::new(5e-6, 8e-11),
    )
    .expect("valid");
    assert!(row.agrees() && row.agrees_to_shown_digits());
}

/// The course's link: α = 5 µs, 12.5 GB/s (β = 0.08 ns/B).
const COURSE: CostParams = CostParams {
    alpha: 5e-6,
    beta: 8e-11,
    gamma: 0.0,
};

#[test]
fn exact_ties_print_the_same_on_both_sides() {
    // Recursive doubling, p = 40, 64 MB (16,000,000 f32): 8 ranks fold
    // in, log₂ 32 = 5 doubling rounds, 8 unfold, every message the whole
    // 64 MB: 7 × (5 µs + 64e6 B × 0.08 ns/B) = 7 × 5.125 ms = 35.875 ms
    // exactly, a tie at 4 digits, rounded half up on both sides.
    let row = summarize(Algorithm::named("rd"), 40, 16_000_000, 4, COURSE).expect("valid");
    assert!((row.closed_form.time - 0.035_875).abs() < 1e-15);
    assert!(row.agrees());
    let shown = row.shown();
    assert_eq!(shown.agreement, TimeAgreement::Equal);
    assert_eq!(shown.executed, "35.88 ms");
    assert_eq!(shown.closed_form, "35.88 ms");
    assert_eq!(shown.cell(), "✓");
    assert_eq!(
        shown.sentence(""),
        "✓ The executed schedule and the closed form agree."
    );
    let s = generate(Algorithm::named("rd"), 40, 16_000_000, 4).expect("valid");
    assert_eq!(
        crate::core::timing::explain_shown(&s, 5e-6, 8e-11, &shown.executed),
        "7 rounds × (5.000 µs + 64 MB × 0.08 ns/B) = 35.88 ms"
    );
    // Naive root, 2(p − 1) rounds of 5.125 ms: p = 12 gives 22 × 5.125 =
    // 112.75 ms, p = 24 gives 46 × 5.125 = 235.75 ms.
    for (p, both) in [(12, "112.8 ms"), (24, "235.8 ms")] {
        let shown = summarize(Algorithm::named("naive"), p, 16_000_000, 4, COURSE)
            .expect("valid")
            .shown();
        assert_eq!(shown.agreement, TimeAgreement::Equal, "p = {p}");
        assert_eq!(
            (shown.executed.as_str(), shown.closed_form.as_str()),
            (both, both)
        );
    }
    // Every row at the default size, p = 2..64: a ✓ prints one value.
    // The all-to-alls split n into p² blocks: where they are unequal by
    // more than the shown digits (linear at p = 35: 13,062 against
    // 13,061.2 elements), the row differs and says why.
    for p in 2..=64 {
        for row in summary_table(p, 16_000_000, 4, COURSE).expect("valid") {
            let shown = row.shown();
            if row.alg.collective() == CollectiveKind::AllToAll && !shown.agrees() {
                assert!(row.difference.is_some(), "{} p = {p}", row.alg.key());
                continue;
            }
            assert!(shown.agrees(), "{} p = {p}", row.alg.key());
            assert_eq!(
                shown.executed,
                shown.closed_form,
                "{} p = {p}",
                row.alg.key()
            );
        }
    }
}

#[test]
fn recursive_halving_p3_and_p6_get_the_same_rule() {
    // p = 3, 64 MB = 16,000,000 f32 in chunks of 5,333,334, 5,333,333 and
    // 5,333,333 elements; p′ = 2 with one extra rank. Closed form
    // (log₂p′ + 2)α + (1 + S/p + 1/p)·nβ with S = 2: 15 µs + 2 × 5.12 ms
    // = 10.255 ms. Executed: fold-in 64 MB, the halving round's largest
    // message chunks 0 + 1 = 42,666,668 B, the extra rank's chunk 0 =
    // 21,333,336 B: 15 µs + 128,000,004 B × 0.08 ns/B = 10.25500032 ms,
    // 4 B × 0.08 ns/B = 0.32 ns more (relative 3.1·10⁻⁸ ≤ 5·10⁻⁵).
    // The two straddle 10.255: both print the larger, 10.26 ms.
    let rh = Algorithm::named("rh");
    let row = summarize(rh, 3, 16_000_000, 4, COURSE).expect("valid");
    assert!((row.closed_form.time - 0.010_255).abs() < 1e-15);
    assert!((row.excess() - 0.32e-9).abs() < 1e-15, "{}", row.excess());
    let shown = row.shown();
    assert_eq!(shown.agreement, TimeAgreement::ToShownDigits);
    assert!(row.agrees_to_shown_digits() && !row.agrees());
    assert_eq!(
        (shown.executed.as_str(), shown.closed_form.as_str()),
        ("10.26 ms", "10.26 ms")
    );
    assert_eq!(shown.cell(), "✓ to 4 digits (+0.3200 ns)");
    // p = 6: chunks of 2,666,667 (four) and 2,666,666 (two); p′ = 4 with
    // two extra ranks, S = (2 + 2) + (1 + 1) = 6 chunks. Closed form
    // 4α + (1 + 6/6 + 1/6)·nβ = 20 µs + 13/6 × 5.12 ms = 11.113333… ms.
    // Executed: the largest messages are 4, 2 and 1 chunks of 2,666,667
    // elements, 16/3 + 8/3 + 4/3 = 28/3 B more than 4n/6, 2n/6 and n/6:
    // 28/3 B × 0.08 ns/B ≈ 0.7467 ns (relative 6.7·10⁻⁸). Same rule, same
    // verdict; both print 11.11 ms.
    let row = summarize(rh, 6, 16_000_000, 4, COURSE).expect("valid");
    assert!((row.closed_form.time - (20e-6 + 13.0 / 6.0 * 5.12e-3)).abs() < 1e-15);
    assert!(
        (row.excess() - 28.0 / 3.0 * 8e-11).abs() < 1e-15,
        "{}",
        row.excess()
    );
    let shown = row.shown();
    assert_eq!(shown.agreement, TimeAgreement::ToShownDigits);
    assert_eq!(
        (shown.executed.as_str(), shown.closed_form.as_str()),
        ("11.11 ms", "11.11 ms")
    );
    assert_eq!(shown.cell(), "✓ to 4 digits (+0.7467 ns)");
    assert_eq!(
        shown.sentence("why"),
        "✓ Executed and closed form both show 11.11 ms: they agree to 4 significant \
         digits; the exact difference is +0.7467 ns. Why: why"
    );
    // p = 3 with n = 4 f32 (16 B), α = 0, β = 1 s/B: chunks 2, 1, 1.
    // Closed form 2nβ = 32 s; executed 16 + 12 (chunks 0 + 1) + 8 (chunk
    // 0) = 36 s: 4 s more, relative 0.11 > 5·10⁻⁵, so they differ.
    let row = summarize(rh, 3, 4, 4, CostParams::new(0.0, 1.0)).expect("valid");
    let shown = row.shown();
    assert_eq!(shown.agreement, TimeAgreement::Differ);
    assert!(!row.agrees_to_shown_digits());
    assert_eq!(
        (shown.executed.as_str(), shown.closed_form.as_str()),
        ("36.00 s", "32.00 s")
    );
    assert_eq!(shown.cell(), "differs by +4.000 s");
    assert_eq!(
        shown.sentence(""),
        "≠ They differ by +4.000 s: executed 36.00 s vs closed form 32.00 s."
    );
}

#[test]
fn the_tolerance_is_relative_and_differing_times_print_differently() {
    // 5·10⁻⁵ of the larger value: 1 ms and 1.000049 ms agree (both show
    // the larger, 1.000 ms); 1 ms and 1.0001 ms (relative ≈ 10⁻⁴) differ
    // and are shown with 5 digits, 1.0000 ms vs 1.0001 ms.
    let near = ShownTimes::new(1.000_049e-3, 1e-3);
    assert_eq!(near.agreement, TimeAgreement::ToShownDigits);
    assert_eq!(
        (near.executed.as_str(), near.closed_form.as_str()),
        ("1.000 ms", "1.000 ms")
    );
    let apart = ShownTimes::new(1.0001e-3, 1e-3);
    assert_eq!(apart.agreement, TimeAgreement::Differ);
    assert_eq!(
        (apart.executed.as_str(), apart.closed_form.as_str()),
        ("1.0001 ms", "1.0000 ms")
    );
    assert_eq!(apart.cell(), "differs by +100.0 ns");
    // The same relative gap at another magnitude gets the same verdict.
    assert_eq!(
        ShownTimes::new(1.000_049e3, 1e3).agreement,
        TimeAgreement::ToShownDigits
    );
    assert_eq!(
        ShownTimes::new(1.0001e3, 1e3).agreement,
        TimeAgreement::Differ
    );
    assert_eq!(ShownTimes::new(0.0, 0.0).cell(), "✓");
}

#[test]
fn rounds_on_equals_the_generated_round_count() {
    let mut shapes: Vec<Topology> = (2..=64).map(flat).collect();
    for (nodes, gpus) in [
        (2, 2),
        (2, 4),
        (4, 2),
        (3, 4),
        (4, 8),
        (8, 8),
        (2, 32),
        (5, 3),
    ] {
        shapes.push(nodes_of(nodes, gpus).expect("shape"));
    }
    let mut bad = Vec::new();
    let mut checked = 0;
    for topo in &shapes {
        for alg in Algorithm::all() {
            for n in [1000, 7] {
                let Ok(s) = alg.generate_on(topo, n, 4) else {
                    continue;
                };
                checked += 1;
                if alg.rounds_on(topo) != s.num_rounds() {
                    bad.push(format!(
                        "{} p={} nodes={} n={n}: {} vs {}",
                        alg.key(),
                        topo.p(),
                        topo.nodes(),
                        alg.rounds_on(topo),
                        s.num_rounds()
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked > 1500, "{checked}");
    // by hand: ring 2(p − 1) = 126 at p = 64; Rabenseifner 2·log₂ 32 + 2
    // (fold) = 12 at p = 48
    assert_eq!(Algorithm::RING.rounds_on(&flat(64)), 126);
    assert_eq!(Algorithm::RAB.rounds_on(&flat(48)), 12);
}

#[test]
fn keys_round_trip() {
    let keys: Vec<_> = Algorithm::all().map(|a| a.key()).collect();
    assert_eq!(
        keys,
        [
            "ring",
            "tree",
            "ptree",
            "dbtree",
            "rd",
            "rh",
            "rab",
            "naive",
            "rs",
            "ag",
            "hier",
            "hier_rd",
            "multilane",
            "rat",
            "flex",
            "pairwise",
            "bruck",
            "linear"
        ]
    );
    for a in Algorithm::all() {
        assert_eq!(Algorithm::from_key(a.key()), Some(a));
    }
    assert_eq!(Algorithm::from_key(" RAB "), Some(Algorithm::named("rab")));
    assert_eq!(Algorithm::from_key("bogus"), None);
    let compared: Vec<_> = Algorithm::compared().iter().map(|a| a.key()).collect();
    assert_eq!(
        compared,
        ["ring", "tree", "ptree", "dbtree", "rd", "rab", "naive"]
    );
}

#[test]
fn titles_name_the_method_and_partner() {
    let rab = Algorithm::named("rab");
    let s = generate(rab, 8, 64, 4).expect("valid");
    assert_eq!(
        round_title(rab, &s, 1),
        "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2"
    );
    assert_eq!(
        round_title(rab, &s, 3),
        "all-gather by recursive doubling, round 1 of 3: partner = rank XOR 1"
    );
    assert_eq!(round_title(rab, &s, 6), "");
    let rd = Algorithm::named("rd");
    let s = generate(rd, 6, 64, 4).expect("valid");
    assert!(round_title(rd, &s, 0).starts_with("fold-in"));
    assert!(round_title(rd, &s, 3).starts_with("unfold"));
}

#[test]
fn every_algorithm_rejects_one_rank() {
    for a in Algorithm::all() {
        assert_eq!(generate(a, 1, 8, 4), Err(ScheduleError::TooFewRanks(1)));
    }
}

#[test]
fn fast_factors_match_the_written_out_formula() {
    for a in Algorithm::all() {
        for p in 2..=33 {
            let f = a.cost(p, 1e6, CostParams::new(1.0, 1.0).with_gamma(1.0));
            assert_eq!(
                a.factors(p),
                [f.startups, f.byte_factor, f.gamma_factor],
                "{a} p={p}"
            );
        }
    }
}

#[test]
fn every_entry_verifies_and_matches_its_closed_form() {
    // 27,720 = lcm(1..=12): every chunk count of p ≤ 12 divides it, so
    // every executed time equals its closed form exactly, on the flat
    // topology and on nodes of 2 ranks.
    let c = CostParams::new(2e-6, 0.1e-9);
    for a in Algorithm::all() {
        for p in 2..=12 {
            let mut topos = vec![flat(p)];
            if p % 2 == 0 {
                topos.push(nodes_of(p / 2, 2).expect("valid"));
            }
            for topo in &topos {
                // The all-to-alls' p² blocks do not all divide 27,720:
                // they run on 60 elements per block.
                let parts = a.equal_parts(topo) as u64;
                let n = if 27_720 % parts == 0 {
                    27_720
                } else {
                    60 * parts
                };
                let row = summarize_on(a, topo, n, 4, c).expect("valid");
                assert!(row.verified, "{a} p={p}");
                assert!(row.agrees(), "{a} p={p}: {:?}", row.difference);
                assert_eq!(expected_difference_on(a, topo, n), None);
            }
        }
    }
}

#[test]
fn busbw_factor_follows_the_collective() {
    // nccl-tests PERFORMANCE.md at p = 8: all-reduce 2·7/8 = 1.75,
    // reduce-scatter and all-gather 7/8 = 0.875.
    assert_eq!(Algorithm::named("ring").busbw_factor(8), 1.75);
    assert_eq!(Algorithm::named("hier").busbw_factor(8), 1.75);
    assert_eq!(Algorithm::named("rs").busbw_factor(8), 0.875);
    assert_eq!(Algorithm::named("rh").busbw_factor(8), 0.875);
    assert_eq!(Algorithm::named("ag").busbw_factor(8), 0.875);
}

#[test]
fn flat_rounds_are_the_executed_schedules_rounds() {
    // Every entry that does not follow nodes, p = 2 … 17: the rounds
    // (count, share of n) have the closed form's start-up and byte factors,
    // and at a size where every share is a whole number of bytes they are
    // exactly the executed schedule's rounds grouped by largest message.
    use crate::core::timing::breakdown;
    for alg in Algorithm::all() {
        for p in 2..=17 {
            let Some(rounds) = alg.flat_rounds(p) else {
                assert!(alg.needs_nodes(), "{}", alg.key());
                continue;
            };
            let [a, b, _] = alg.factors(p);
            let count: f64 = rounds.iter().map(|r| r.0).sum();
            let bytes: f64 = rounds.iter().map(|r| r.0 * r.1).sum();
            assert_eq!(count, a, "{} p={p}", alg.key());
            // Linear and Bruck put several one-block messages on a port
            // in one round: their bytes on the path exceed Σ count·share.
            let shares_port = [Algorithm::LINEAR, Algorithm::BRUCK].contains(&alg);
            assert!(
                shares_port || (bytes - b).abs() < 1e-12,
                "{} p={p}: {bytes} vs {b}",
                alg.key()
            );
            // p·64 elements of 1 byte times the equal parts: every share is whole.
            let topo = flat(p);
            let n = (alg.equal_parts(&topo) * p * 64) as u64;
            let s = alg.generate_on(&topo, n, 1).expect("valid");
            let mut got: Vec<(u64, usize)> = breakdown(&s)
                .into_iter()
                .map(|g| (g.bytes, g.count))
                .collect();
            let mut want: Vec<(u64, usize)> = Vec::new();
            for &(c, share) in &rounds {
                let m = (share * n as f64).round() as u64;
                match want.iter_mut().find(|w| w.0 == m) {
                    Some(w) => w.1 += c as usize,
                    None => want.push((m, c as usize)),
                }
            }
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{} p={p}", alg.key());
        }
    }
}

#[test]
fn under_the_rendezvous_rule_both_clocks_agree_with_the_closed_form() {
    // α = 1 µs, β = 0.25 ns/B, limit 4096 B, h = 2α: every flat entry at
    // p = 2 … 9 and 256 B … 64 KiB tensors, on the lock-step and the
    // dataflow clock (whole messages), agrees with
    // `Algorithm::rendezvous_cost` within 1e-9 relative.
    use crate::core::cost::protocol::Rendezvous;
    use crate::core::cost::CostParams;
    use crate::core::timing::clock::{ClockOptions, Mode};
    use crate::core::timing::run;
    let (alpha, beta) = (1e-6, 0.25e-9);
    let proto = Rendezvous::default();
    let (mut checked, mut rendezvous) = (0, 0);
    for alg in Algorithm::all().filter(|a| !a.needs_nodes()) {
        for p in 2..=9 {
            let topo = crate::core::topology::Topology::flat(p, alpha, beta);
            for k in [8u32, 12, 16] {
                let parts = alg.equal_parts(&flat(p)) * p * 64;
                // n bytes, a whole number of equal parts of 1 byte.
                let n = (1u64 << k).div_ceil(parts as u64) * parts as u64;
                let s = alg.generate_on(&topo, n, 1).expect("valid");
                let want = alg
                    .rendezvous_cost(p, n as f64, CostParams::new(alpha, beta), &proto)
                    .expect("flat");
                for mode in [Mode::LockStep, Mode::Dataflow] {
                    let o = ClockOptions {
                        protocol: Some(proto),
                        keep_events: false,
                        ..ClockOptions::new(mode)
                    };
                    let c = run(&s, &topo, &o).expect("runs");
                    let equal = (c.end - want.time).abs() <= 1e-9 * want.time;
                    // The dataflow clock may start a rank's next message
                    // before a round's slowest one ends (trees, folds):
                    // never later. The ring and recursive doubling have no
                    // such slack.
                    let slack = mode == Mode::Dataflow
                        && ![Algorithm::RING, Algorithm::RD].contains(&alg)
                        && c.end < want.time;
                    assert!(
                        equal || slack,
                        "{} p={p} n={n} {mode:?}: {} vs {}",
                        alg.key(),
                        c.end,
                        want.time
                    );
                    checked += 1;
                    rendezvous += usize::from(want.rendezvous_rounds > 0.0);
                }
            }
        }
    }
    // 13 flat entries × 8 p × 3 sizes × 2 clocks, most with handshakes.
    assert_eq!(checked, 624);
    assert!(rendezvous > 200, "{rendezvous}");
}

#[test]
fn without_a_protocol_the_clock_is_unchanged_bit_for_bit() {
    use crate::core::timing::clock::{ClockOptions, Mode};
    use crate::core::timing::run;
    let topo = crate::core::topology::Topology::flat(6, 2e-6, 0.1e-9);
    for alg in Algorithm::all().filter(|a| !a.needs_nodes()) {
        let s = alg.generate_on(&topo, 6000, 4).expect("valid");
        for mode in [Mode::LockStep, Mode::Dataflow] {
            let plain = run(&s, &topo, &ClockOptions::new(mode)).expect("runs");
            // A limit above every message: no message pays a handshake.
            let high = ClockOptions {
                protocol: Some(crate::core::cost::protocol::Rendezvous {
                    limit: 1e12,
                    ..Default::default()
                }),
                ..ClockOptions::new(mode)
            };
            assert_eq!(run(&s, &topo, &high).expect("runs").end, plain.end);
        }
    }
}
