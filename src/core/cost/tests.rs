//! Tests of the cost model (closed forms against executed schedules, the course's worked numbers).

use super::formulas::halving_sum;
use super::formulas::*;
use super::nccl::*;
use super::*;
use crate::core::collectives::compare::*;
use crate::core::collectives::{
    binomial_tree_all_reduce_time, naive_root_all_reduce_time, rabenseifner_all_reduce_time,
    recursive_doubling_all_reduce_time, recursive_halving_reduce_scatter_time,
    ring_all_gather_time, ring_all_reduce_time, ring_reduce_scatter_time, Algorithm,
};
#[allow(unused_imports)]
use crate::core::timing::{executed_round_times, executed_time, executed_time_with};

mod unit_tests {
    use super::*;
    use crate::core::collectives::naive_root_schedule;
    use crate::core::execute::{default_init, execute, ExecOptions};
    use crate::core::schedule::ring::ring_all_reduce_schedule;

    const KIB8: f64 = 8192.0;
    const MIB64: f64 = 67_108_864.0;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(f64::MIN_POSITIVE)
    }

    fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
        assert!(close(got, want, rel), "{what}: got {got:e}, want {want:e}");
    }

    /// Course §9, derived by hand: nβ = 8192 × 0.08 ns = 655.36 ns.
    /// rd = 4(5 µs + 655.36 ns) = 22.62144 µs; ring = 30 × 5 µs + 1.875 × 655.36 ns
    /// = 151.2288 µs; tree = 8(5.65536 µs) = 45.24288 µs; rab = 40 µs + 1.2288 µs.
    #[test]
    fn course_section9_small_message() {
        let c = CostParams::course_example();
        let rd = recursive_doubling_all_reduce_time(16, KIB8, c);
        let ring = ring_all_reduce_time(16, KIB8, c);
        let tree = binomial_tree_all_reduce_time(16, KIB8, c);
        let rab = rabenseifner_all_reduce_time(16, KIB8, c);
        assert_close(rd.time, 22.62144e-6, 1e-12, "rd");
        assert_close(ring.time, 151.2288e-6, 1e-12, "ring");
        assert_close(tree.time, 45.24288e-6, 1e-12, "tree");
        assert_close(rab.time, 41.2288e-6, 1e-12, "rab");
        assert_eq!(best_at(16, KIB8, c), Algorithm::RD);
        // α and β parts.
        assert_close(ring.alpha_part, 150e-6, 1e-12, "ring α part");
        assert_close(ring.beta_part, 1.2288e-6, 1e-12, "ring β part");
        assert_eq!(ring.gamma_part, 0.0);
        assert_eq!(rd.startups, 4.0);
        assert_eq!(rab.byte_factor, 1.875);
        assert!(!rd.pow2_adapted && rd.label == "power-of-two formula");
    }

    /// 64 MiB: nβ = 67,108,864 × 0.08 ns = 5.36870912 ms.
    /// rab = 40 µs + 1.875 nβ = 10.10633 ms; ring = 150 µs + 1.875 nβ = 10.21633 ms;
    /// rd = 4(5 µs + nβ) = 21.49484 ms; tree = 42.98967 ms.
    #[test]
    fn course_section9_large_message() {
        let c = CostParams::course_example();
        let t = |a: Algorithm| a.cost(16, MIB64, c).time;
        assert_close(t(Algorithm::RAB), 10.106_329_6e-3, 1e-9, "rab");
        assert_close(t(Algorithm::RING), 10.216_329_6e-3, 1e-9, "ring");
        assert_close(t(Algorithm::RD), 21.494_836_48e-3, 1e-9, "rd");
        assert_close(t(Algorithm::TREE), 42.989_672_96e-3, 1e-9, "tree");
        assert_eq!(best_at(16, MIB64, c), Algorithm::RAB);
        assert!(t(Algorithm::RING) < t(Algorithm::RD));
    }

    /// p = 1024: ring = 2046 × 5 µs + 2(1023)/1024 × 5.36870912 ms = 20.95649 ms;
    /// rab = 20 × 5 µs + the same β part = 10.82649 ms.
    #[test]
    fn course_section9_1024_workers() {
        let c = CostParams::course_example();
        let ring = ring_all_reduce_time(1024, MIB64, c);
        let rab = rabenseifner_all_reduce_time(1024, MIB64, c);
        assert_close(
            ring.time,
            10.23e-3 + 1023.0 / 512.0 * 5.368_709_12e-3,
            1e-12,
            "ring",
        );
        assert!(
            ring.time > 20.955e-3 && ring.time < 20.965e-3,
            "ring ≈ 20.96 ms"
        );
        assert!(
            rab.time > 10.825e-3 && rab.time < 10.835e-3,
            "rab ≈ 10.83 ms"
        );
        assert_eq!(ring.startups, 2046.0);
        assert_eq!(rab.startups, 20.0);
    }

    /// rd 4α + 4nβ = rab 8α + 1.875nβ ⇒ n = 4α / (2.125β) = 117,647.06 B.
    #[test]
    fn course_crossover_rd_rabenseifner() {
        let c = CostParams::course_example();
        let x = crossover(Algorithm::RD, Algorithm::RAB, 16, c).expect("the lines cross");
        assert_close(
            x.n_bytes,
            4.0 * 5e-6 / (2.125 * 0.08e-9),
            1e-12,
            "crossover",
        );
        assert!((x.n_bytes - 117_647.06).abs() < 0.01);
        assert_eq!(x.below, Algorithm::RD);
        assert_eq!(x.above, Algorithm::RAB);
        // ≈ 114.9 KiB.
        assert!((x.n_bytes / 1024.0 - 114.89).abs() < 0.01);
        // The envelope: rd below, Rabenseifner above, nothing else.
        let iv = best_intervals(16, c);
        assert_eq!(iv.len(), 2);
        assert_eq!(iv[0].best, Algorithm::RD);
        assert_eq!(iv[0].from, 0.0);
        assert_eq!(iv[1].best, Algorithm::RAB);
        assert_eq!(iv[0].to, x.n_bytes);
        assert_eq!(iv[1].to, f64::INFINITY);
        let env = envelope_crossovers(16, c);
        assert_eq!(env.len(), 1);
        assert_eq!(env[0].n_bytes, x.n_bytes);
        // Ring and Rabenseifner have the same slope: no crossover.
        assert!(crossover(Algorithm::RING, Algorithm::RAB, 16, c).is_none());
    }

    /// Course §6: p = 4, 100 MB, 12.5 GB/s (β = 0.08 ns/B), α = 0.
    /// Ring: 6 rounds × 25 MB × 0.08 ns/B = 6 × 2 ms = 12 ms.
    /// Naive root: 6 messages × 100 MB × 0.08 ns/B = 6 × 8 ms = 48 ms.
    #[test]
    fn course_section6_ring_vs_naive_root() {
        let c = CostParams::new(0.0, 1.0 / 12.5e9);
        assert_close(ring_all_reduce_time(4, 1e8, c).time, 12e-3, 1e-12, "ring");
        assert_close(
            naive_root_all_reduce_time(4, 1e8, c).time,
            48e-3,
            1e-12,
            "naive",
        );
    }

    /// The closed forms equal the time of the executed schedules (25 M f32
    /// elements = 100 MB; a round costs its slowest transfer).
    #[test]
    fn closed_forms_equal_executed_ring_and_naive() {
        let beta = 1.0 / 12.5e9;
        let ring = execute(
            &ring_all_reduce_schedule(4, 25_000_000, 4).expect("valid ring"),
            &default_init,
            ExecOptions { keep_states: false },
        )
        .expect("ring executes");
        assert!(ring.verification.ok());
        let naive = execute(
            &naive_root_schedule(4, 25_000_000, 4).expect("valid naive"),
            &default_init,
            ExecOptions { keep_states: false },
        )
        .expect("naive executes");
        assert_close(
            executed_time(&ring.schedule, 0.0, beta),
            12e-3,
            1e-12,
            "ring exec",
        );
        assert_close(
            executed_time(&naive.schedule, 0.0, beta),
            48e-3,
            1e-12,
            "naive exec",
        );

        // With α > 0, γ > 0 and several p (n divisible by p).
        for p in [2usize, 3, 4, 5, 7, 8, 16, 33] {
            let n_el = 1000 * p as u64;
            let bytes = (n_el * 4) as f64;
            for c in [
                CostParams::course_example(),
                CostParams::new(2e-6, 1e-9).with_gamma(0.25e-9),
            ] {
                let rs = ring_all_reduce_schedule(p, n_el, 4).expect("ring");
                let ns = naive_root_schedule(p, n_el, 4).expect("naive");
                assert_close(
                    executed_time_with(&rs, c),
                    ring_all_reduce_time(p, bytes, c).time,
                    1e-12,
                    "ring α>0",
                );
                assert_close(
                    executed_time_with(&ns, c),
                    naive_root_all_reduce_time(p, bytes, c).time,
                    1e-12,
                    "naive α>0",
                );
            }
        }
    }

    /// The recursive generators run exactly the closed forms, for
    /// powers of two and, through the labelled adaptations, for other p.
    /// p = 12 (p′ = 8, r = 4): S = (1 + 1) + (2 + 2) + (4 + 4) = 14, so
    /// recursive halving costs 5α + (1 + 14/12 + 1/12)·nβ = 5α + 2.25·nβ.
    #[test]
    fn closed_forms_equal_executed_recursive_schedules() {
        use crate::core::schedule::recursive as sr;
        let c = CostParams::new(1e-6, 1e-9).with_gamma(0.5e-9);
        for p in [2usize, 3, 4, 5, 6, 7, 8, 12, 16, 24, 33] {
            // Divisible by p and by p′, so every chunk and block is equal.
            let n_el = 10 * (p * pow2_split(p).0) as u64;
            let nb = (n_el * 2) as f64;
            let pairs = [
                (
                    crate::core::collectives::recursive_doubling_schedule(p, n_el, 2).expect("rd"),
                    recursive_doubling_all_reduce_time(p, nb, c),
                ),
                (
                    crate::core::collectives::rabenseifner_schedule(p, n_el, 2).expect("rab"),
                    rabenseifner_all_reduce_time(p, nb, c),
                ),
                (
                    sr::recursive_halving_reduce_scatter_schedule(p, n_el, 2).expect("rh"),
                    recursive_halving_reduce_scatter_time(p, nb, c),
                ),
                (
                    sr::recursive_doubling_all_gather_schedule(p, n_el, 2).expect("rdag"),
                    recursive_doubling_all_gather_time(p, nb, c),
                ),
            ];
            for (s, f) in pairs {
                assert_close(
                    executed_time_with(&s, c),
                    f.time,
                    1e-12,
                    &format!("{} p={p}", f.name),
                );
                assert_eq!(f.pow2_adapted, !p.is_power_of_two(), "{} p={p}", f.name);
                assert_eq!(s.num_rounds() as f64, f.startups, "{} p={p} rounds", f.name);
            }
        }
        let rh = recursive_halving_reduce_scatter_time(12, 1.0, CostParams::new(0.0, 1.0));
        assert_eq!((rh.startups, rh.byte_factor), (5.0, 2.25));
        assert_eq!(halving_sum(8, 4), 14);
        assert_eq!(halving_sum(16, 0), 15);
    }

    /// 10 elements over p = 4 gives chunks 3, 3, 2, 2: each of the 6 ring rounds
    /// carries 3 elements, not 2.5, so the executed time exceeds the closed form
    /// by exactly 6 × 0.5 element.
    #[test]
    fn uneven_chunks_cost_the_largest_chunk() {
        let c = CostParams::new(1e-6, 1e-9);
        let s = ring_all_reduce_schedule(4, 10, 8).expect("ring");
        let exec = executed_time_with(&s, c);
        let closed = ring_all_reduce_time(4, 80.0, c).time;
        assert_close(
            exec - closed,
            6.0 * 4.0 * 1e-9,
            1e-9,
            "one half element per round",
        );
        assert_eq!(executed_round_times(&s, c).len(), 6);
    }

    /// Zero-byte transfers (n < p) still pay α, as in `core::timing`.
    #[test]
    fn agrees_with_timing_module() {
        use crate::core::collectives::binomial_tree_schedule;
        let c = CostParams::course_example();
        // 2 elements over 4 ranks: chunks 1, 1, 0, 0; 6 rounds × α + 1 element.
        let s = ring_all_reduce_schedule(4, 2, 4).expect("ring");
        assert_close(
            executed_time_with(&s, c),
            6.0 * (5e-6 + 4.0 * 0.08e-9),
            1e-12,
            "6 rounds",
        );
        // The binomial tree schedule matches its closed form for any p.
        for p in [2usize, 3, 5, 8, 12, 16] {
            let s = binomial_tree_schedule(p, 1000, 4).expect("tree");
            assert_close(
                executed_time(&s, c.alpha, c.beta),
                binomial_tree_all_reduce_time(p, 4000.0, c).time,
                1e-12,
                "tree",
            );
        }
    }

    /// p = 12 is not a power of two: p′ = 8, r = 4.
    /// rd: (3 + 2)(α + nβ) = 5 × 5.65536 µs = 28.2768 µs.
    /// rab: (2·3 + 2)α + (2·7/8 + 2)nβ = 40 µs + 3.75 × 655.36 ns = 42.4576 µs.
    /// tree: 2⌈log₂12⌉ = 8 levels: 45.24288 µs, no adaptation.
    #[test]
    fn non_power_of_two_is_adapted_and_labelled() {
        let c = CostParams::course_example();
        let rd = recursive_doubling_all_reduce_time(12, KIB8, c);
        assert!(rd.pow2_adapted);
        assert!(rd.label.contains("non-power-of-two"));
        assert_close(rd.time, 28.2768e-6, 1e-12, "rd p=12");
        assert!(rd
            .substituted
            .iter()
            .any(|l| l.contains("p′ = 2^⌊log₂12⌋ = 8")));
        let rab = rabenseifner_all_reduce_time(12, KIB8, c);
        assert!(rab.pow2_adapted);
        assert_close(rab.time, 42.4576e-6, 1e-12, "rab p=12");
        let tree = binomial_tree_all_reduce_time(12, KIB8, c);
        assert!(!tree.pow2_adapted);
        assert_close(tree.time, 45.24288e-6, 1e-12, "tree p=12");
        assert_eq!(pow2_split(12), (8, 4));
        assert_eq!(pow2_split(16), (16, 0));
        assert_eq!((floor_log2(12), ceil_log2(12)), (3, 4));
        for a in [Algorithm::RING, Algorithm::NAIVE, Algorithm::TREE] {
            assert!(!a.cost(12, KIB8, c).pow2_adapted);
        }
    }

    /// The all-reduce closed forms are sums of their building blocks.
    #[test]
    fn building_blocks_compose() {
        let c = CostParams::new(3e-6, 0.1e-9).with_gamma(0.05e-9);
        for p in [2usize, 3, 6, 8, 12, 16, 100, 1024] {
            let n = 1e6;
            let ring = ring_reduce_scatter_time(p, n, c).time + ring_all_gather_time(p, n, c).time;
            assert_close(
                ring_all_reduce_time(p, n, c).time,
                ring,
                1e-12,
                "ring = rs + ag",
            );
            // Rabenseifner = recursive halving + recursive doubling all-gather
            // for powers of two. Otherwise Rabenseifner folds once around the
            // whole all-reduce, while the stand-alone blocks each fold on
            // their own (and serve all p ranks), so they cost more.
            let rab = recursive_halving_reduce_scatter_time(p, n, c).time
                + recursive_doubling_all_gather_time(p, n, c).time;
            if p.is_power_of_two() {
                assert_close(
                    rabenseifner_all_reduce_time(p, n, c).time,
                    rab,
                    1e-12,
                    "rab = rh + rd-ag",
                );
            } else {
                assert!(rabenseifner_all_reduce_time(p, n, c).time < rab, "p = {p}");
            }
            let tree = binomial_reduce_time(p, n, c).time + binomial_broadcast_time(p, n, c).time;
            assert_close(
                binomial_tree_all_reduce_time(p, n, c).time,
                tree,
                1e-12,
                "tree",
            );
        }
        // p = 8: recursive halving sends n/2 + n/4 + n/8 = 7n/8 in 3 steps.
        let rh = recursive_halving_reduce_scatter_time(8, 64e6, CostParams::new(1.0, 1.0));
        assert_eq!((rh.startups, rh.byte_factor), (3.0, 0.875));
        assert_eq!(rh.beta_part, 56e6);
    }

    /// γ adds (p−1)/p·nγ to the ring: p = 4, n = 1 MB, γ = 1 ns/B gives 750 µs.
    #[test]
    fn gamma_part() {
        let c = CostParams::new(0.0, 0.0).with_gamma(1e-9);
        let f = ring_all_reduce_time(4, 1e6, c);
        assert_close(f.gamma_part, 750e-6, 1e-12, "ring γ");
        assert_close(
            naive_root_all_reduce_time(4, 1e6, c).time,
            3e-3,
            1e-12,
            "naive γ",
        );
        assert_close(
            recursive_doubling_all_reduce_time(4, 1e6, c).time,
            2e-3,
            1e-12,
            "rd γ",
        );
        assert!(f.expression.contains('γ'));
        assert!(!ring_all_reduce_time(4, 1e6, CostParams::new(1.0, 1.0))
            .expression
            .contains('γ'));
    }

    /// nccl-tests: ring at p = 4, 100 MB, 12 ms gives algbw = 8.333 GB/s and
    /// busbw = 8.333 × 2·3/4 = 12.5 GB/s, the link speed.
    #[test]
    fn algbw_and_busbw() {
        let a = algbw(1e8, 12e-3);
        assert_close(a, 1e8 / 12e-3, 1e-12, "algbw");
        assert_close(busbw(a, 4), 12.5e9, 1e-12, "busbw");
        assert_close(busbw(algbw(1e8, 48e-3), 4), 3.125e9, 1e-12, "naive busbw");
        assert_eq!(algbw(1e8, 0.0), 0.0);
    }

    #[test]
    fn crossover_written_out() {
        let c = CostParams::course_example();
        let lines =
            crossover_calculation(Algorithm::RAB, Algorithm::RD, 16, c).expect("they cross");
        assert_eq!(
            lines,
            vec![
                "T_rd = 4α + 4·nβ",
                "T_rab = 8α + 1.875·nβ",
                "T_rd = T_rab when n = (8 − 4)α / ((4 − 1.875)β)",
                "  = 4 × 5 µs / (2.125 × 0.08 ns/B)",
                "  ≈ 117,647 B (117.6 kB = 114.9 KiB)",
            ]
        );
        assert!(crossover_calculation(Algorithm::RING, Algorithm::RAB, 16, c).is_none());
        let g = crossover_calculation(Algorithm::RAB, Algorithm::RD, 16, c.with_gamma(1e-11))
            .expect("they cross");
        assert!(g[2].contains("γ"), "{g:?}");
    }

    /// p = 4, 100 MB in 12 ms: algbw = 8.333 GB/s, busbw = 12.5 GB/s.
    #[test]
    fn nccl_bandwidths_written_out() {
        let b = nccl_bandwidths(1e8, 12e-3, 4);
        assert_close(b.busbw, 12.5e9, 1e-12, "busbw");
        assert_eq!(
            b.lines[0],
            "algbw = S / t = 100,000,000 B / 12.00 ms = 8.333 GB/s"
        );
        assert_eq!(
            b.lines[1],
            "busbw = algbw × 2(p−1)/p = 8.333 GB/s × 2(4−1)/4 = 8.333 GB/s × 1.5 = 12.5 GB/s"
        );
    }

    #[test]
    fn show_the_calculation_ring() {
        let f = ring_all_reduce_time(16, KIB8, CostParams::course_example());
        let s = f.substituted.join("\n");
        assert!(s.contains("T = 2(p−1)α + 2(p−1)/p·nβ"), "{s}");
        assert!(!s.contains('γ'), "{s}");
        assert!(
            s.contains("2(16−1) × 5 µs + 2(16−1)/16 × 8,192 B × 0.08 ns/B"),
            "{s}"
        );
        assert!(s.contains("= 30 × 5 µs + 1.875 × 655.4 ns"), "{s}");
        assert!(s.contains("= 150.0 µs + 1.229 µs"), "{s}");
        assert_eq!(
            f.substituted.last().map(String::as_str),
            Some("  = 151.2 µs")
        );
    }

    /// The fast numeric path and the written-out formula use the same numbers.
    #[test]
    fn factors_match_formulas() {
        for p in 0usize..=300 {
            for a in Algorithm::all() {
                let t = a.cost(p, 1.0, CostParams::new(0.0, 0.0));
                assert_eq!(
                    a.factors(p),
                    [t.startups, t.byte_factor, t.gamma_factor],
                    "{a} p={p}"
                );
            }
        }
    }

    #[test]
    fn algorithm_names_round_trip() {
        for &a in Algorithm::compared() {
            assert_eq!(Algorithm::from_key(a.key()), Some(a));
            assert_eq!(
                a.compared_index().map(|i| Algorithm::compared()[i]),
                Some(a)
            );
        }
        assert_eq!(Algorithm::from_key("RAB"), Some(Algorithm::RAB));
        assert_eq!(Algorithm::from_key("bogus"), None);
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let c = CostParams::course_example();
        for p in [0usize, 1] {
            for a in Algorithm::all() {
                assert_eq!(a.cost(p, 1e6, c).time, 0.0, "{a} p={p}");
            }
        }
        assert_eq!(log_sizes(1.0, 1024.0, 11).len(), 11);
        assert_close(log_sizes(1.0, 1024.0, 11)[10], 1024.0, 1e-12, "log end");
        assert_eq!(log_sizes(0.0, 1.0, 5), vec![0.0]);
        let m = winner_map(&[8.0, 1e9], &[16, 1024], c);
        assert_eq!(m[0][0], Algorithm::RD);
        assert_eq!(m[1][1], Algorithm::RAB);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn params() -> impl Strategy<Value = CostParams> {
        (
            1e-9f64..1e-3,
            1e-13f64..1e-8,
            prop_oneof![Just(0.0), 1e-13f64..1e-9],
        )
            .prop_map(|(a, b, g)| CostParams::new(a, b).with_gamma(g))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn monotone_in_n_and_alpha(p in 2usize..5000, n in 1.0f64..1e10, k in 1.0f64..10.0, c in params()) {
            for a in Algorithm::all() {
                let t = a.cost(p, n, c).time;
                prop_assert!(a.cost(p, n * k, c).time >= t, "{} not monotone in n", a);
                let c2 = CostParams { alpha: c.alpha * k, ..c };
                prop_assert!(a.cost(p, n, c2).time >= t, "{} not monotone in α", a);
                prop_assert!(t > 0.0);
            }
        }

        #[test]
        fn crossover_solver_agrees_with_brute_force(p in 2usize..5000, c in params()) {
            let iv = best_intervals(p, c);
            prop_assert!(!iv.is_empty());
            prop_assert_eq!(iv[0].from, 0.0);
            prop_assert_eq!(iv[iv.len() - 1].to, f64::INFINITY);
            for w in iv.windows(2) {
                prop_assert_eq!(w[0].to, w[1].from);
                prop_assert!(w[0].best != w[1].best);
            }
            // Scan 400 sizes from 1 B to 1 TB: the interval's winner is as fast
            // as the brute-force minimum.
            for n in log_sizes(1.0, 1e12, 400) {
                let brute = Algorithm::compared()
                    .iter()
                    .map(|a| a.cost(p, n, c).time)
                    .fold(f64::INFINITY, f64::min);
                let inter = iv.iter().find(|i| n >= i.from && n < i.to).expect("covered");
                let t = inter.best.cost(p, n, c).time;
                prop_assert!(t <= brute * (1.0 + 1e-9), "p={} n={} {} {} vs {}", p, n, inter.best, t, brute);
            }
            // Every boundary is an exact break-even of its two winners.
            for x in envelope_crossovers(p, c) {
                let ta = x.below.cost(p, x.n_bytes, c).time;
                let tb = x.above.cost(p, x.n_bytes, c).time;
                prop_assert!((ta - tb).abs() <= 1e-9 * ta.max(tb));
            }
        }
    }
}
