//! The weight rules and W's products, sums and checks against hand-derived
//! values; the complete graph's fast path against the general construction.

use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn weights_come_from_the_rows_and_the_dense_form_is_built_on_demand() {
    // star on 4 nodes, Metropolis–Hastings: hub degree 3, leaves 1, so
    // every edge weighs 1/(1 + 3) = 1/4; the hub keeps 1 − 3/4 = 1/4 and
    // each leaf 1 − 1/4 = 3/4
    let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
    let m = mixing_matrix(&g, WeightRule::Metropolis).expect("W");
    let fresh = m.clone();
    assert_eq!(m.weight(0, 0), 0.25);
    assert_eq!(m.weight(0, 3), 0.25);
    assert_eq!(m.weight(2, 2), 0.75);
    assert_eq!(m.weight(2, 3), 0.0, "leaves are not neighbours");
    assert_eq!(m.weight(4, 0), 0.0, "out of range");
    let dense = m.dense();
    for i in 0..4 {
        for j in 0..4 {
            assert_eq!(dense[(i, j)], m.weight(i, j), "({i}, {j})");
        }
    }
    // equal whether or not the dense form exists
    assert_eq!(m, fresh);
}

#[test]
fn uniform_ring_p4_is_one_third_everywhere_it_can_be() {
    let g = Graph::new(GraphKind::Ring, 4, 0).expect("ring");
    let m = mixing_matrix(&g, WeightRule::Uniform).expect("uniform");
    assert!(close(m.weight(0, 3), 1.0 / 3.0) && close(m.weight(0, 0), 1.0 / 3.0));
    assert_eq!(m.weight(0, 2), 0.0);
    let c = Checks::new(&g, &m);
    assert!(c.doubly_stochastic && c.symmetric && c.connected && c.notes.is_empty());
    assert_eq!(m.apply(&[0.0, 3.0, 6.0, 9.0]), vec![4.0, 3.0, 6.0, 5.0]);
}

#[test]
fn uniform_star_converges_to_a_weighted_mean() {
    // Star p=4: hub degree 3 → weights 1/4; leaves degree 1 → weights 1/2.
    // Column sums: hub 1/4 + 3·1/2 = 7/4; leaf 1/4 + 1/2 = 3/4.
    let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
    let m = mixing_matrix(&g, WeightRule::Uniform).expect("uniform");
    let c = Checks::new(&g, &m);
    assert!(c.row_stochastic && !c.column_stochastic && !c.symmetric);
    assert!(close(c.col_sums[0], 1.75) && close(c.col_sums[1], 0.75));
    // π ∝ d + 1 = (4, 2, 2, 2)/10
    let pi = c.stationary.clone().expect("π");
    for (a, b) in pi.iter().zip([0.4, 0.2, 0.2, 0.2]) {
        assert!(close(*a, b), "{pi:?}");
    }
    // init (0,3,6,9) with the hub at 0: 0.2·18 = 3.6, not the mean 4.5
    let lim = c.limit(&[0.0, 3.0, 6.0, 9.0]).expect("limit");
    assert!(close(lim, 3.6));
    assert!(c.notes.iter().any(|n| n.contains("only on regular graphs")));
}

#[test]
fn lu_stationary_agrees_with_the_detailed_balance_formula() {
    // Lazy uniform on a path: W_ii ≠ 1/(d+1), so the 1/W_ii shortcut fails
    // unless the chain is reversible with π ∝ 1/W_ii; (I+W)/2 keeps the same
    // π ∝ d+1 = (2,3,3,2)/10 while 1/W_ii ∝ (4/3, 3/2, 3/2, 4/3) does not.
    let g = Graph::new(GraphKind::Path, 4, 0).expect("path");
    let m = mixing_matrix(&g, WeightRule::Uniform)
        .expect("uniform")
        .lazy();
    let pi = m.stationary().expect("π");
    for (a, b) in pi.iter().zip([0.2, 0.3, 0.3, 0.2]) {
        assert!((a - b).abs() < 1e-12, "{pi:?}");
    }
}

#[test]
fn metropolis_on_a_star_is_doubly_stochastic() {
    // Star p=4: every edge has max degree 3 → 1/4; hub diag 1 − 3/4 = 1/4, leaf diag 3/4.
    let g = Graph::new(GraphKind::Star, 4, 0).expect("star");
    let m = mixing_matrix(&g, WeightRule::Metropolis).expect("mh");
    assert!(close(m.weight(0, 1), 0.25) && close(m.weight(0, 0), 0.25));
    assert!(close(m.weight(2, 2), 0.75));
    let c = Checks::new(&g, &m);
    assert!(c.doubly_stochastic && c.symmetric);
    let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("lazy");
    assert!(close(lazy.weight(0, 0), 0.625) && close(lazy.weight(0, 1), 0.125));
}

#[test]
fn max_degree_and_exponential_weights() {
    let g = Graph::new(GraphKind::Path, 3, 0).expect("path");
    let m = mixing_matrix(&g, WeightRule::MaxDegree).expect("maxdeg");
    // Δ = 2 → edge weight 1/3; end node diag 2/3, middle diag 1/3.
    assert!(close(m.weight(0, 1), 1.0 / 3.0) && close(m.weight(0, 0), 2.0 / 3.0));
    assert!(close(m.weight(1, 1), 1.0 / 3.0));
    let e = Graph::new(GraphKind::Exponential, 8, 0).expect("exp");
    let w = mixing_matrix(&e, WeightRule::Exponential).expect("exp weights");
    assert!(close(w.weight(0, 7), 0.25) && close(w.weight(0, 4), 0.25));
    assert_eq!(w.weight(0, 1), 0.0);
    let c = Checks::new(&e, &w);
    assert!(c.doubly_stochastic && !c.symmetric);
    assert!(mixing_matrix(&e, WeightRule::Metropolis).is_err());
    assert!(mixing_matrix(&g, WeightRule::Exponential).is_err());
}

const CLOSED_RULES: [WeightRule; 4] = [
    WeightRule::Uniform,
    WeightRule::Metropolis,
    WeightRule::Lazy,
    WeightRule::MaxDegree,
];

#[test]
fn complete_graph_w_is_the_general_construction_bit_for_bit() {
    for p in 2..=40 {
        let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
        for rule in CLOSED_RULES {
            let fast = mixing_matrix(&g, rule).expect("w");
            let slow = general_matrix(&g, rule).expect("w");
            assert!(slow.complete_form().is_none());
            let (d, b) = fast.complete_form().expect("d·I + b·(J − I)");
            assert_eq!(fast.rows(), slow.rows(), "p={p} {rule}");
            assert_eq!(fast.dense(), slow.dense(), "p={p} {rule}");
            assert_eq!((fast.weight(0, 0), fast.weight(p - 1, 0)), (d, b));
            // the checks read the same numbers as from the sparse rows
            assert_eq!(fast.row_sums(), slow.row_sums(), "p={p} {rule}");
            assert_eq!(fast.col_sums(), slow.col_sums(), "p={p} {rule}");
            assert_eq!(fast.symmetry_error(), slow.symmetry_error());
            assert!(fast.is_nonnegative() && slow.is_nonnegative());
            assert_eq!(Checks::new(&g, &fast), Checks::new(&g, &slow));
        }
    }
    // by hand, p = 4: uniform and Metropolis–Hastings give 1/4 everywhere;
    // lazy: d = 1/4·1/2 + 1/2 = 5/8, b = 1/8
    let g = Graph::new(GraphKind::Complete, 4, 0).expect("complete");
    let w = |rule| mixing_matrix(&g, rule).expect("w").complete_form();
    assert_eq!(w(WeightRule::Uniform), Some((0.25, 0.25)));
    assert_eq!(w(WeightRule::Metropolis), Some((0.25, 0.25)));
    assert_eq!(w(WeightRule::Lazy), Some((0.625, 0.125)));
    let ring = Graph::new(GraphKind::Ring, 4, 0).expect("ring");
    let m = mixing_matrix(&ring, WeightRule::Uniform).expect("w");
    assert!(m.complete_form().is_none() && m.lazy().complete_form().is_none());
}

#[test]
fn the_complete_graph_writes_its_rows_only_when_all_are_asked_for() {
    // the gossip view's whole run at p = 1024 never needs the 1024² entries
    let run = super::super::GossipRun::with_dense_limit(
        GraphKind::Complete,
        1024,
        1,
        WeightRule::Uniform,
        &super::super::InitPattern::Linear,
        (10, 100.0),
        super::super::DENSE_LIST_MAX_P,
    )
    .expect("run");
    let m = &run.matrix;
    assert!(m.rows.get().is_none(), "rows written");
    assert_eq!((m.p(), m.round_cost()), (1024, 2 * 1024));
    // one row on its own: 1/1024 everywhere (d = b for uniform weights)
    let row = m.row(5).expect("row 5");
    assert_eq!(row.len(), 1024);
    assert_eq!((row[5], row[6]), ((5, 1.0 / 1024.0), (6, 1.0 / 1024.0)));
    assert!(m.row(1024).is_none());
    assert_eq!(m.weight(3, 3), 1.0 / 1024.0);
    assert_eq!(m.weight(3, 1024), 0.0);
    assert!(m.rows.get().is_none(), "a row or a weight writes no rows");
    // equal to a copy whose rows were written, and to the dense form
    let written = m.clone();
    assert_eq!(written.rows()[5].as_slice(), &row[..]);
    assert_eq!(&written, m);
    // lazy weights on 6 nodes (d ≠ b): a row on its own is the written row
    let g = Graph::new(GraphKind::Complete, 6, 0).expect("complete");
    let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("w");
    let row = lazy.row(2).expect("row 2");
    assert_eq!(row.as_ref(), lazy.rows()[2].as_slice());
    assert_eq!(row[2].1, lazy.complete_form().expect("form").0);
}

#[test]
fn complete_graph_rounds_equal_the_sparse_and_dense_products() {
    for p in [2, 3, 5, 7, 16, 31, 64, 100, 257] {
        let g = Graph::new(GraphKind::Complete, p, 0).expect("complete");
        let x = crate::core::consensus::InitPattern::Random(p as u64)
            .values(p)
            .expect("x");
        for rule in CLOSED_RULES {
            let fast = mixing_matrix(&g, rule).expect("w");
            let slow = general_matrix(&g, rule).expect("w");
            let (d, b) = fast.complete_form().expect("complete form");
            let dense = slow.dense() * nalgebra::DVector::from_column_slice(&x);
            let (mut xf, mut xs) = (x.clone(), x.clone());
            for round in 1..=5 {
                xf = fast.apply(&xf);
                xs = slow.apply(&xs);
                if d.to_bits() == b.to_bits() {
                    // uniform weights (any p), or d = b exactly: bit for bit
                    assert_eq!(xf, xs, "p={p} {rule} round {round}");
                }
                for (a, c) in xf.iter().zip(&xs) {
                    assert!(
                        (a - c).abs() <= 1e-13 * (1.0 + c.abs()),
                        "p={p} {rule}: {a} vs {c}"
                    );
                }
                if round == 1 {
                    for (a, c) in xf.iter().zip(dense.iter()) {
                        assert!((a - c).abs() <= 1e-13 * (1.0 + c.abs()));
                    }
                }
            }
            let mut into = vec![7.0; 3];
            fast.apply_into(&x, &mut into);
            assert_eq!(into, fast.apply(&x));
        }
    }
    // p = 4, x = (0, 3, 6, 9): uniform averages in one round to 4.5;
    // lazy: 5/8·x_i + 1/8·(18 − x_i) = x_i/2 + 2.25
    let g = Graph::new(GraphKind::Complete, 4, 0).expect("complete");
    let x = [0.0, 3.0, 6.0, 9.0];
    let uniform = mixing_matrix(&g, WeightRule::Uniform).expect("w");
    assert_eq!(uniform.apply(&x), vec![4.5; 4]);
    let lazy = mixing_matrix(&g, WeightRule::Lazy).expect("w");
    assert_eq!(lazy.apply(&x), vec![2.25, 3.75, 5.25, 6.75]);
}

#[test]
fn vector_mixing_and_length_errors() {
    let g = Graph::new(GraphKind::Ring, 3, 0).expect("ring");
    let m = mixing_matrix(&g, WeightRule::Uniform).expect("uniform");
    let out = m
        .apply_vectors(&[vec![3.0, 0.0], vec![6.0, 3.0], vec![12.0, 6.0]])
        .expect("vectors");
    assert!(close(out[1][0], 7.0) && close(out[1][1], 3.0));
    assert!(m
        .apply_vectors(&[vec![1.0], vec![1.0, 2.0], vec![1.0]])
        .is_err());
    assert!(m.try_apply(&[1.0]).is_err());
}
