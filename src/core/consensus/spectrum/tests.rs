//! The spectra against hand-derived values and nalgebra's dense
//! decompositions.

use super::super::weights::{mixing_matrix, WeightRule};
use super::tridiagonal::fast_hypot;
use super::*;

fn spec(kind: GraphKind, p: usize, rule: WeightRule) -> Spectrum {
    let g = Graph::new(kind, p, 3).expect("graph");
    let m = mixing_matrix(&g, rule).expect("weights");
    spectrum(&g, &m).expect("spectrum")
}

#[test]
fn ring_p4_uniform_has_rho_one_third() {
    // λ_k = (1 + 2cos(πk/2))/3 = 1, 1/3, −1/3, 1/3
    let s = spec(GraphKind::Ring, 4, WeightRule::Uniform);
    assert_eq!(s.method, SpectrumMethod::Circulant);
    let re: Vec<f64> = s.eigenvalues.iter().map(|e| e.re).collect();
    for (a, b) in re.iter().zip([1.0, 1.0 / 3.0, 1.0 / 3.0, -1.0 / 3.0]) {
        assert!((a - b).abs() < 1e-12, "{re:?}");
    }
    assert!((s.rho - 1.0 / 3.0).abs() < 1e-12 && (s.gap - 2.0 / 3.0).abs() < 1e-12);
    assert!(s.real && s.bound_guaranteed);
    assert_eq!(predicted_rounds(s.rho, 100.0), Some(5)); // ln100/ln3 = 4.19
}

#[test]
fn ring_p8_uniform_rho() {
    // (1 + 2cos(π/4))/3 = (1 + √2)/3 = 0.80474
    let s = spec(GraphKind::Ring, 8, WeightRule::Uniform);
    assert!((s.rho - (1.0 + 2f64.sqrt()) / 3.0).abs() < 1e-12);
    assert!((s.rho - 0.8047).abs() < 5e-5);
    assert_eq!(predicted_rounds(s.rho, 100.0), Some(22)); // 4.605/0.2172 = 21.2
}

#[test]
fn complete_uniform_reaches_consensus_in_one_round() {
    let s = spec(GraphKind::Complete, 6, WeightRule::Uniform);
    assert!(s.rho.abs() < 1e-12);
    // W = J/5 on the complete graph of 5: every other eigenvalue is 0,
    // exactly (the closed form's sums leave about 5.6e-17)
    let s = spec(GraphKind::Complete, 5, WeightRule::Uniform);
    assert_eq!((s.rho, s.gap), (0.0, 1.0));
    assert_eq!(predicted_rounds(0.0, 100.0), Some(1));
    assert_eq!(predicted_rounds(0.1, 100.0), Some(2));
    assert_eq!(predicted_rounds(1.0, 100.0), None);
    assert_eq!(predicted_rounds(0.5, 1.0), Some(0));
}

#[test]
fn star_uniform_is_symmetrised_and_real() {
    // Star p=4 uniform: eigenvalues 1, 1/2, 1/2 (leaf differences), and
    // tr W − 2 = (1/4 + 3/2) − 2 = −1/4.
    let s = spec(GraphKind::Star, 4, WeightRule::Uniform);
    assert_eq!(s.method, SpectrumMethod::Symmetrised);
    let re: Vec<f64> = s.eigenvalues.iter().map(|e| e.re).collect();
    for (a, b) in re.iter().zip([1.0, 0.5, 0.5, -0.25]) {
        assert!((a - b).abs() < 1e-10, "{re:?}");
    }
    assert!((s.rho - 0.5).abs() < 1e-10 && !s.bound_guaranteed);
}

#[test]
fn exponential_graph_has_complex_eigenvalues() {
    // p=4: offsets 1, 2; W row 0 = 1/3 at 0, 2, 3. λ_k = (1 + ω^{2k} + ω^{3k})/3, ω = i:
    // k=1: (1 − 1 − i)/3 → |λ| = 1/3; k=2: (1 + 1 − 1)/3 = 1/3.
    let s = spec(GraphKind::Exponential, 4, WeightRule::Exponential);
    assert!(!s.real && s.bound_guaranteed);
    assert!((s.rho - 1.0 / 3.0).abs() < 1e-12);
    let g = Graph::new(GraphKind::Exponential, 4, 0).expect("exp");
    let m = mixing_matrix(&g, WeightRule::Exponential).expect("w");
    let (dense, method) = dense_eigenvalues(&m).expect("schur");
    assert_eq!(method, SpectrumMethod::Schur);
    let d = finish(dense, method, true);
    for (a, b) in d.eigenvalues.iter().zip(&s.eigenvalues) {
        assert!((a.re - b.re).abs() < 1e-9 && (a.im - b.im).abs() < 1e-9);
    }
}

#[test]
fn hypercube_closed_form_matches_dense() {
    // p=8 uniform: λ = (1 + 3 − 2·popcount(k))/4 = 1, 1/2 (×3), 0 (×3), −1/2.
    let s = spec(GraphKind::Hypercube, 8, WeightRule::Uniform);
    assert_eq!(s.method, SpectrumMethod::Hypercube);
    assert!((s.rho - 0.5).abs() < 1e-12);
    let g = Graph::new(GraphKind::Hypercube, 8, 0).expect("cube");
    let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
    let (d, _) = dense_eigenvalues(&m).expect("dense");
    let d = finish(d, SpectrumMethod::SymmetricEigen, true);
    for (a, b) in d.eigenvalues.iter().zip(&s.eigenvalues) {
        assert!((a.re - b.re).abs() < 1e-9);
    }
}

#[test]
fn symmetric_eigenvalues_known_cases() {
    // a non-graph symmetric matrix with a known spectrum: [[2,1],[1,2]] → 1, 3
    let m = nalgebra::DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
    let mut v = symmetric_eigenvalues(&m).expect("2×2");
    v.sort_by(f64::total_cmp);
    assert!((v[0] - 1.0).abs() < 1e-14 && (v[1] - 3.0).abs() < 1e-14);
    assert!(symmetric_eigenvalues(&nalgebra::DMatrix::from_element(2, 2, f64::NAN)).is_none());
}

/// Sorted real parts.
fn sorted_re(e: &[Eigenvalue]) -> Vec<f64> {
    let mut v: Vec<f64> = e.iter().map(|x| x.re).collect();
    v.sort_by(f64::total_cmp);
    v
}

#[test]
fn path_and_star_structured_spectra_agree_with_nalgebra_up_to_p64() {
    let rules = [
        WeightRule::Uniform,
        WeightRule::Metropolis,
        WeightRule::Lazy,
        WeightRule::MaxDegree,
    ];
    let mut closed_path = 0;
    for p in 2..=64 {
        for kind in [GraphKind::Path, GraphKind::Star] {
            let g = Graph::new(kind, p, 0).expect("graph");
            for rule in rules {
                let m = mixing_matrix(&g, rule).expect("w");
                let (dense, _) = dense_eigenvalues(&m).expect("dense");
                let dense = sorted_re(&dense);
                let mut fast = Vec::new();
                if kind == GraphKind::Path {
                    if let Some(e) = path_eigenvalues(&m) {
                        closed_path += 1;
                        fast.push(sorted_re(&e));
                    }
                    let t = tridiagonal_w_eigenvalues(&m).expect("tridiagonal");
                    fast.push(sorted_re(&t));
                } else {
                    let e = star_eigenvalues(&m).expect("star");
                    fast.push(sorted_re(&e));
                }
                for f in fast {
                    assert_eq!(f.len(), p);
                    for (a, b) in f.iter().zip(&dense) {
                        assert!((a - b).abs() <= 1e-9, "{kind} p={p} {rule}: {a} vs {b}");
                    }
                }
            }
        }
    }
    // Metropolis, lazy and max-degree are I − cL on every path (uniform
    // too at p = 2, where it equals Metropolis)
    assert_eq!(closed_path, 3 * 63 + 1);
}

#[test]
fn star_and_path_closed_forms_by_hand() {
    // Star p = 5, Metropolis: W = I − L/5, L's spectrum 0, 1, 1, 1, 5
    // → 1, 4/5 (×3), 0.
    let g = Graph::new(GraphKind::Star, 5, 0).expect("star");
    let m = mixing_matrix(&g, WeightRule::Metropolis).expect("w");
    let e = sorted_re(&star_eigenvalues(&m).expect("star"));
    for (a, b) in e.iter().zip([0.0, 0.8, 0.8, 0.8, 1.0]) {
        assert!((a - b).abs() < 1e-15, "{e:?}");
    }
    // Star p = 4, uniform: 1, 1/2, 1/2, 1/4 − 1/2 (the test above).
    let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
    let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
    let e = sorted_re(&star_eigenvalues(&m).expect("star"));
    for (a, b) in e.iter().zip([-0.25, 0.5, 0.5, 1.0]) {
        assert!((a - b).abs() < 1e-15, "{e:?}");
    }
    // Path p = 3, Metropolis: c = 1/3, λ = 1 − (2/3)(1 − cos(πk/3)) = 1, 2/3, 0.
    let g = Graph::new(GraphKind::Path, 3, 0).expect("path");
    let m = mixing_matrix(&g, WeightRule::Metropolis).expect("w");
    let e = sorted_re(&path_eigenvalues(&m).expect("path"));
    for (a, b) in e.iter().zip([0.0, 2.0 / 3.0, 1.0]) {
        assert!((a - b).abs() < 1e-15, "{e:?}");
    }
    // the fast √(x² + y²) falls back to hypot at the extremes
    assert_eq!(fast_hypot(3.0, 4.0), 5.0);
    assert!((fast_hypot(3e300, 4e300) / 5e300 - 1.0).abs() < 1e-15);
    assert!((fast_hypot(3e-300, 4e-300) / 5e-300 - 1.0).abs() < 1e-15);
    // rational QL on [[2, 1], [1, 2]] → 1, 3 (ascending); a bad length is refused.
    let (mut d, mut off) = (vec![2.0, 2.0], vec![1.0, 0.0]);
    assert!(symmetric_tridiagonal_eigenvalues(&mut d, &mut off));
    d.sort_by(f64::total_cmp);
    assert!((d[0] - 1.0).abs() < 1e-15 && (d[1] - 3.0).abs() < 1e-15);
    assert!(!symmetric_tridiagonal_eigenvalues(
        &mut [1.0, 2.0],
        &mut [0.0]
    ));
    // path p = 3, Metropolis (W is already symmetric): 0, 2/3, 1, ascending
    let (mut d, mut off) = (vec![2.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0], vec![1.0 / 3.0; 3]);
    assert!(symmetric_tridiagonal_eigenvalues(&mut d, &mut off));
    for (a, b) in d.iter().zip([0.0, 2.0 / 3.0, 1.0]) {
        assert!((a - b).abs() < 1e-15, "{d:?}");
    }
    // split blocks (zero couplings) come out sorted too
    let (mut d, mut off) = (vec![3.0, 1.0, 2.0, -1.0], vec![0.0; 4]);
    assert!(symmetric_tridiagonal_eigenvalues(&mut d, &mut off));
    assert_eq!(d, vec![-1.0, 1.0, 2.0, 3.0]);
    // a seeded 40 × 40 tridiagonal matrix against nalgebra's dense eigenvalues
    let mut rng = crate::core::rng::SplitMix64::new(9);
    let n = 40;
    let diag: Vec<f64> = (0..n).map(|_| rng.next_f64() - 0.5).collect();
    let mut cpl: Vec<f64> = (0..n).map(|_| rng.next_f64() - 0.5).collect();
    cpl[17] = 0.0;
    let dense = nalgebra::DMatrix::from_fn(n, n, |i, j| match i.abs_diff(j) {
        0 => diag[i],
        1 => cpl[i.min(j)],
        _ => 0.0,
    });
    let mut want = symmetric_eigenvalues(&dense).expect("nalgebra");
    want.sort_by(f64::total_cmp);
    let mut got = diag.clone();
    assert!(symmetric_tridiagonal_eigenvalues(&mut got, &mut cpl));
    for (a, b) in got.iter().zip(&want) {
        assert!((a - b).abs() < 1e-13, "{a} vs {b}");
    }
}

#[test]
fn large_path_and_star_use_the_structured_methods() {
    // p = 100, Metropolis on the path: ρ = 1 − (2/3)(1 − cos(π/100)).
    let s = spec(GraphKind::Path, 100, WeightRule::Metropolis);
    assert_eq!(s.method, SpectrumMethod::Path);
    let want = 1.0 - 2.0 / 3.0 * (1.0 - (std::f64::consts::PI / 100.0).cos());
    assert!((s.rho - want).abs() < 1e-12);
    let s = spec(GraphKind::Path, 100, WeightRule::Uniform);
    assert_eq!(s.method, SpectrumMethod::Tridiagonal);
    assert_eq!(s.eigenvalues.len(), 100);
    // star p = 100 uniform: ρ = 1/2 (the leaf differences); the last
    // eigenvalue is 1/100 − 1/2.
    let s = spec(GraphKind::Star, 100, WeightRule::Uniform);
    assert_eq!(s.method, SpectrumMethod::Star);
    assert!((s.rho - 0.5).abs() < 1e-15);
    assert!((s.eigenvalues[99].re - (0.01 - 0.5)).abs() < 1e-15);
}

#[test]
fn lanczos_rho_agrees_with_the_dense_spectrum() {
    let rules = [
        WeightRule::Metropolis,
        WeightRule::Uniform,
        WeightRule::Lazy,
    ];
    let mut cases: Vec<(GraphKind, usize, u64)> = Vec::new();
    for p in [2, 3, 5, 10, 17, 33, 64, 150] {
        for seed in 0..3 {
            cases.push((GraphKind::Random, p, seed));
        }
        cases.push((GraphKind::Path, p, 0));
        cases.push((GraphKind::Star, p, 0));
    }
    cases.push((GraphKind::Hypercube, 64, 0));
    cases.push((GraphKind::Ring, 40, 0));
    // ρ (and the gap) from Lanczos within 1e-9 of the dense spectrum's
    let agrees = |kind: GraphKind, p: usize, seed: u64, rule: WeightRule| {
        let g = Graph::new(kind, p, seed).expect("graph");
        let m = mixing_matrix(&g, rule).expect("w");
        let (dense, method) = dense_eigenvalues(&m).expect("dense");
        let want = finish(dense, method, true).rho;
        let got = rho_lanczos(&m).expect("lanczos");
        assert!(
            (got.rho - want).abs() <= 1e-9,
            "{kind} p={p} seed={seed} {rule}: {} vs {want} after {} steps",
            got.rho,
            got.steps
        );
        assert!((got.gap - (1.0 - want)).abs() <= 1e-9);
    };
    for (kind, p, seed) in cases {
        for rule in rules {
            agrees(kind, p, seed, rule);
        }
    }
    // above LANCZOS_FULL_MAX_P: local reorthogonalization only
    for (p, seed, rule) in [
        (300, 0, WeightRule::Metropolis),
        (300, 1, WeightRule::Uniform),
        (300, 2, WeightRule::Lazy),
        (400, 3, WeightRule::Metropolis),
    ] {
        agrees(GraphKind::Random, p, seed, rule);
    }
    // a star's Krylov space is tiny: leaf differences and one 2 × 2 block
    let g = Graph::new(GraphKind::Star, 150, 0).expect("star");
    let m = mixing_matrix(&g, WeightRule::Metropolis).expect("w");
    let r = rho_lanczos(&m).expect("lanczos");
    assert!(r.steps <= 3 && (r.rho - (1.0 - 1.0 / 150.0)).abs() < 1e-12);
    // the directed exponential graph is neither symmetric nor reversible
    let g = Graph::new(GraphKind::Exponential, 8, 0).expect("exp");
    let m = mixing_matrix(&g, WeightRule::Exponential).expect("w");
    assert!(rho_lanczos(&m).is_err());
}

#[test]
fn spectrum_or_rho_switches_only_for_dense_cases_above_the_limit() {
    for seed in 0..3 {
        let g = Graph::new(GraphKind::Random, 80, seed).expect("graph");
        for rule in [WeightRule::Metropolis, WeightRule::Uniform] {
            let m = mixing_matrix(&g, rule).expect("w");
            let full = spectrum(&g, &m).expect("full");
            let fast = spectrum_or_rho(&g, &m, 64).expect("fast");
            assert_eq!(fast.method, SpectrumMethod::LanczosRho);
            assert!(fast.eigenvalues.is_empty());
            assert!(
                (fast.rho - full.rho).abs() <= 1e-9,
                "{} vs {}",
                fast.rho,
                full.rho
            );
            assert_eq!(fast.bound_guaranteed, full.bound_guaranteed);
            assert_eq!(fast.real, full.real);
            // at or under the limit: the full spectrum, unchanged
            assert_eq!(spectrum_or_rho(&g, &m, 80).expect("full"), full);
        }
    }
    // structured graphs keep their closed forms at any p
    let g = Graph::new(GraphKind::Ring, 100, 0).expect("ring");
    let m = mixing_matrix(&g, WeightRule::Uniform).expect("w");
    let s = spectrum_or_rho(&g, &m, 2).expect("ring");
    assert_eq!(
        (s.method, s.eigenvalues.len()),
        (SpectrumMethod::Circulant, 100)
    );
}

#[test]
fn complete_graph_spectrum_is_the_closed_form_a_i_plus_b_j() {
    // W = d·I + b·(J − I): eigenvalues d + (p − 1)b (once) and d − b
    // (p − 1 times), because J = 11ᵀ has eigenvalues p and 0.
    for p in [2, 3, 4, 9, 16, 33, 64] {
        let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
        for rule in [
            WeightRule::Uniform,
            WeightRule::Metropolis,
            WeightRule::Lazy,
            WeightRule::MaxDegree,
        ] {
            let fast = mixing_matrix(&g, rule).expect("w");
            let (d, b) = fast.complete_form().expect("complete form");
            let slow = super::super::weights::general_matrix(&g, rule).expect("w");
            // skipping the symmetry check changes no bit of the result
            assert_eq!(
                spectrum(&g, &fast).expect("fast"),
                spectrum(&g, &slow).expect("slow")
            );
            let s = spectrum(&g, &fast).expect("fast");
            let top = d + (p - 1) as f64 * b;
            assert!((s.eigenvalues[0].re - top).abs() < 1e-12);
            for e in &s.eigenvalues[1..] {
                assert!((e.re - (d - b)).abs() < 1e-12 && e.im == 0.0);
            }
            assert!((s.rho - (d - b).abs()).abs() < 1e-12);
            let mut dense = symmetric_eigenvalues(fast.dense()).expect("nalgebra");
            dense.sort_by(|a, b| b.total_cmp(a));
            for (e, x) in s.eigenvalues.iter().zip(&dense) {
                assert!((e.re - x).abs() < 1e-9, "p={p} {rule}: {} vs {x}", e.re);
            }
        }
    }
    // by hand, p = 4 lazy: d = 5/8, b = 1/8 → 1 and 1/2 (×3), ρ = 1/2
    let s = spec(GraphKind::Complete, 4, WeightRule::Lazy);
    assert!((s.rho - 0.5).abs() < 1e-15 && (s.eigenvalues[0].re - 1.0).abs() < 1e-15);
}

#[test]
fn circulant_agrees_with_nalgebra_up_to_p64() {
    // On regular graphs uniform, Metropolis–Hastings and max-degree weights
    // coincide, so uniform and lazy cover every distinct matrix.
    let rules = [WeightRule::Uniform, WeightRule::Lazy];
    let mut kinds: Vec<(GraphKind, usize)> = Vec::new();
    for p in 2..=64 {
        kinds.push((GraphKind::Ring, p));
        kinds.push((GraphKind::Exponential, p));
        if p <= 16 {
            kinds.push((GraphKind::Complete, p));
        }
    }
    for rows in 1..=8 {
        for cols in 1..=8 {
            if rows * cols >= 2 {
                kinds.push((GraphKind::Torus { rows, cols }, rows * cols));
            }
        }
    }
    let mut checked = 0;
    for (kind, p) in kinds {
        let g = Graph::new(kind, p, 0).expect("graph");
        let rs: Vec<WeightRule> = if g.directed {
            vec![WeightRule::Exponential]
        } else {
            rules.to_vec()
        };
        for rule in rs {
            let m = mixing_matrix(&g, rule).expect("w");
            let fast = spectrum(&g, &m).expect("fast");
            assert_eq!(
                fast.method,
                SpectrumMethod::Circulant,
                "{kind} p={p} {rule}"
            );
            // nalgebra itself: symmetric eigenvalues, or the Schur form for directed W
            let dense: Vec<Eigenvalue> = if m.is_symmetric() {
                m.dense()
                    .clone()
                    .symmetric_eigenvalues()
                    .iter()
                    .map(|&re| Eigenvalue { re, im: 0.0 })
                    .collect()
            } else {
                m.dense()
                    .complex_eigenvalues()
                    .iter()
                    .map(|c| Eigenvalue { re: c.re, im: c.im })
                    .collect()
            };
            let slow = finish(dense, SpectrumMethod::Schur, true);
            assert!(
                (fast.rho - slow.rho).abs() <= 1e-9,
                "{kind} p={p} {rule}: ρ {} vs {}",
                fast.rho,
                slow.rho
            );
            // match every fast eigenvalue to a distinct dense one
            let mut used = vec![false; p];
            for e in &fast.eigenvalues {
                let best = slow
                    .eigenvalues
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !used[*i])
                    .map(|(i, d)| (i, (d.re - e.re).hypot(d.im - e.im)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .expect("an unused eigenvalue");
                assert!(
                    best.1 <= 1e-9,
                    "{kind} p={p} {rule}: {e:?} off by {}",
                    best.1
                );
                used[best.0] = true;
            }
            checked += 1;
        }
    }
    assert!(checked > 250, "{checked}");
}

#[test]
fn no_graph_and_rule_of_the_lab_needs_the_real_schur_form() {
    // Every W a weight rule makes is symmetric (Metropolis–Hastings, lazy,
    // max-degree), reversible (uniform: π_i ∝ d_i + 1) or circulant with a
    // closed form (the exponential graph): `spectrum` never needs Schur.
    let rules = [
        WeightRule::Uniform,
        WeightRule::Metropolis,
        WeightRule::Lazy,
        WeightRule::MaxDegree,
        WeightRule::Exponential,
    ];
    let mut checked = 0;
    for p in [
        2usize, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32, 63, 64, 65, 100, 128, 256,
    ] {
        let mut kinds = vec![
            GraphKind::Ring,
            GraphKind::Path,
            GraphKind::Star,
            GraphKind::Complete,
            GraphKind::Exponential,
            GraphKind::Random,
        ];
        if p.is_power_of_two() {
            kinds.push(GraphKind::Hypercube);
        }
        let (rows, cols) = crate::core::consensus::torus_shape(p);
        kinds.push(GraphKind::Torus { rows, cols });
        for kind in kinds {
            for seed in [1, 2, 7] {
                let g = Graph::new(kind, p, seed).expect("graph");
                for rule in rules {
                    let Ok(m) = mixing_matrix(&g, rule) else {
                        continue; // a rule that does not fit the graph
                    };
                    let s = spectrum(&g, &m)
                        .unwrap_or_else(|e| panic!("{kind:?} p = {p}, {rule}: {e}"));
                    assert_ne!(s.method, SpectrumMethod::Schur);
                    assert_eq!(s.eigenvalues.len(), p);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1500, "{checked} cases");
}

#[test]
fn a_general_w_without_a_closed_form_is_refused_by_spectrum_only() {
    // the directed 3-cycle (I + S)/2 on a random graph of 3 nodes (no
    // closed form): not symmetric, not reversible (W_01 = 1/2, W_10 = 0)
    let w = nalgebra::DMatrix::from_row_slice(3, 3, &[0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.5, 0.0, 0.5]);
    let m = MixingMatrix::from_dense(w).expect("W");
    let g = Graph::new(GraphKind::Random, 3, 1).expect("graph");
    assert_eq!(real_dense_eigenvalues(&m), Ok(None));
    match spectrum(&g, &m) {
        Err(ConsensusError::EigenFailed(msg)) => {
            assert!(msg.contains("neither symmetric nor reversible"), "{msg}")
        }
        other => panic!("{other:?}"),
    }
    // the Schur form still gives 1 and 1/4 ± i·√3/4
    let (eig, method) = dense_eigenvalues(&m).expect("schur");
    assert_eq!(method, SpectrumMethod::Schur);
    let rho = eig
        .iter()
        .map(|e| e.abs())
        .filter(|a| (a - 1.0).abs() > 1e-9)
        .fold(0.0, f64::max);
    assert!((rho - 0.5).abs() < 1e-12, "|1/4 ± i√3/4| = 1/2, got {rho}");
}
