//! Cross-module tests of the SGD lab: the acceptance checks.

use nalgebra::DMatrix;

use super::train::{
    allreduce_update, bytes_per_step, dpsgd_update, local_update, ring_all_reduce_sum,
    stationary_distribution,
};
use super::*;

/// Ring mixing matrix with uniform 1/3 weights (self + two neighbours);
/// doubly stochastic for m ≥ 3.
fn ring_uniform(m: usize) -> DMatrix<f64> {
    DMatrix::from_fn(m, m, |i, j| {
        if i == j || (i + 1) % m == j || (j + 1) % m == i {
            1.0 / 3.0
        } else {
            0.0
        }
    })
}

/// Star (centre 0) with uniform 1/(deg+1) weights: row-stochastic only.
fn star_uniform(m: usize) -> DMatrix<f64> {
    DMatrix::from_fn(m, m, |i, j| {
        if i == 0 {
            1.0 / m as f64
        } else if j == 0 || j == i {
            0.5
        } else {
            0.0
        }
    })
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

fn six_shards() -> Problem {
    Problem::generate(&ProblemConfig {
        shard_sizes: vec![600, 300, 100, 50, 400, 150],
        d: 3,
        iid: false,
        seed: 7,
        noise: 0.1,
    })
    .expect("valid config")
}

#[test]
fn course_dpsgd_worked_example() {
    // Worker 0 holds 6, its neighbours 3 and 12, weights 1/3 each: mixed 7;
    // gradient 2 (at the old model 6), η = 0.5: 7 − 0.5·2 = 6. Local: 6 − 1 = 5.
    let a = DMatrix::from_element(3, 3, 1.0 / 3.0);
    let models = vec![vec![6.0], vec![3.0], vec![12.0]];
    let grads = vec![vec![2.0], vec![0.0], vec![0.0]];
    let mut out = vec![vec![0.0]; 3];
    dpsgd_update(&a, &models, &grads, 0.5, &mut out).expect("shapes agree");
    assert!((out[0][0] - 6.0).abs() < 1e-12, "{}", out[0][0]);
    let mut local = models.clone();
    local_update(&mut local, &grads, 0.5).expect("shapes agree");
    assert_eq!(local[0][0], 5.0);
}

#[test]
fn ring_all_reduce_matches_direct_sum_bit_identically() {
    // The course's 1, 2, 3 sum all-reduce returns 6 everywhere.
    let mut b = vec![vec![1.0], vec![2.0], vec![3.0]];
    ring_all_reduce_sum(&mut b).expect("equal lengths");
    assert!(b.iter().all(|v| v[0] == 6.0));
    // p = 5 ranks, d = 7 entries (chunks of 2, 2, 1, 1, 1)
    let mut rng = rng::SplitMix64::new(3);
    let mut bufs: Vec<Vec<f64>> = (0..5)
        .map(|_| (0..7).map(|_| rng.normal()).collect())
        .collect();
    let direct: Vec<f64> = (0..7).map(|i| bufs.iter().map(|v| v[i]).sum()).collect();
    ring_all_reduce_sum(&mut bufs).expect("equal lengths");
    for v in &bufs {
        assert!(dist(v, &direct) < 1e-12);
        assert!(v
            .iter()
            .zip(&bufs[0])
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}

#[test]
fn allreduce_update_uses_sample_weights() {
    // scalar gradients 0.2, 0.5, 0.9 with weights 0.6, 0.3, 0.1 → 0.36
    let mut models = vec![vec![1.0]; 3];
    let mut grads = vec![vec![0.2], vec![0.5], vec![0.9]];
    allreduce_update(&mut models, &mut grads, &[0.6, 0.3, 0.1], 1.0).expect("shapes agree");
    for w in &models {
        assert!((w[0] - 0.64).abs() < 1e-12, "{}", w[0]);
    }
}

#[test]
fn bytes_follow_ring_and_gossip_accounting() {
    let d = 10;
    // ring all-reduce, p = 4, d = 10: 2·3/4 · 10 · 4 = 60 bytes on average,
    // but chunks of 3,3,2,2 elements; rank r skips chunk r+1 in reduce-scatter
    // and r+2 in all-gather: 60, 64, 60, 56 bytes.
    let r = bytes_per_step(Strategy::AllReduce, &ring_uniform(4), d, 4);
    assert_eq!(r, vec![60.0, 64.0, 60.0, 56.0]);
    // p = 5 divides d = 10: exactly 2·4/5 · 40 = 64 bytes each.
    let r = bytes_per_step(Strategy::AllReduce, &ring_uniform(5), d, 4);
    assert_eq!(r, vec![64.0; 5]);
    // gossip on a ring: 2 neighbours × 40 bytes
    assert_eq!(
        bytes_per_step(Strategy::Gossip, &ring_uniform(4), d, 4),
        vec![80.0; 4]
    );
    // star: centre sends to 3 leaves, each leaf to the centre
    assert_eq!(
        bytes_per_step(Strategy::Gossip, &star_uniform(4), d, 4),
        vec![120.0, 40.0, 40.0, 40.0]
    );
    assert_eq!(
        bytes_per_step(Strategy::Local, &ring_uniform(4), d, 4),
        vec![0.0; 4]
    );

    let p = six_shards();
    let cfg = TrainConfig {
        steps: 50,
        ..TrainConfig::default()
    };
    let lab = run_lab(&p, &ring_uniform(6), &cfg).expect("valid");
    // m = 6, d = 3: chunks of 1,1,1,0,0,0 elements; worker 0 skips chunk 1
    // (reduce-scatter) and chunk 2 (all-gather): 4 elements = 16 B per step,
    // 800 B after 50 steps; workers 2 and 3 skip only empty chunks: 24 B/step.
    let ar = lab
        .trace(Strategy::AllReduce)
        .and_then(StrategyTrace::last)
        .expect("ran");
    assert_eq!(ar.bytes_sent[0], 800.0);
    assert_eq!(ar.max_bytes_sent(), 50.0 * 24.0);
    let g = lab
        .trace(Strategy::Gossip)
        .and_then(StrategyTrace::last)
        .expect("ran");
    assert_eq!(g.max_bytes_sent(), 50.0 * 2.0 * 12.0);
}

#[test]
fn allreduce_models_are_bit_identical_at_every_step() {
    let p = six_shards();
    let cfg = TrainConfig {
        steps: 300,
        batch: 8,
        ..TrainConfig::default()
    };
    let lab = run_lab(&p, &ring_uniform(6), &cfg).expect("valid");
    let ar = lab.trace(Strategy::AllReduce).expect("ran");
    assert_eq!(ar.steps.len(), 301);
    assert!(ar.always_identical());
    for s in &ar.steps {
        assert_eq!(s.consensus_distance, 0.0, "step {}", s.step);
    }
    // the other two strategies separate the models from step 1 on (non-IID)
    for strat in [Strategy::Gossip, Strategy::Local] {
        let t = lab.trace(strat).expect("ran");
        assert!(t.steps[0].models_identical);
        assert!(t.steps[1..]
            .iter()
            .all(|s| !s.models_identical && s.consensus_distance > 0.0));
    }
}

#[test]
fn strategies_share_start_and_minibatches() {
    // After step 1, all-reduce's model is Σ c_k (local model_k), because
    // every strategy starts from w⁰ and draws the same first mini-batches:
    // w⁰ − η Σ c_k g_k = Σ c_k (w⁰ − η g_k).
    let p = six_shards();
    let cfg = TrainConfig {
        steps: 3,
        batch: 4,
        ..TrainConfig::default()
    };
    let lab = run_lab(&p, &ring_uniform(6), &cfg).expect("valid");
    let ar = &lab.traces[0].steps[1].models[0];
    let local = &lab.traces[2].steps[1].models;
    let mut combo = vec![0.0; 3];
    for (w, c) in local.iter().zip(&p.sample_weights) {
        for i in 0..3 {
            combo[i] += c * w[i];
        }
    }
    assert!(dist(ar, &combo) < 1e-12);
    assert_eq!(lab.traces[0].steps[0], {
        let mut s = lab.traces[1].steps[0].clone();
        s.bytes_sent = lab.traces[0].steps[0].bytes_sent.clone();
        s
    });
}

/// The objective trap. Non-IID shards 600, 300, 100, 50, 400, 150 (d = 3),
/// uniform-weight ring (doubly stochastic). Full-batch gradients with
/// η_t = 0.1 / (1 + 0.02 t) for 1000 steps. Tolerances: all-reduce SGD ends
/// within 1e-3 of the sample-weighted optimum; D-PSGD's average within 0.05
/// of the equal-worker optimum. The two optima are more than 0.25 apart, so
/// neither method is near the other's target.
#[test]
fn dpsgd_targets_equal_worker_optimum_allreduce_the_sample_weighted_one() {
    let p = six_shards();
    let ws = p.sample_weighted_optimum().expect("well posed");
    let we = p.equal_worker_optimum().expect("well posed");
    let gap = dist(&ws, &we);
    assert!(gap > 0.25, "optima gap {gap}");
    for batch in [0, 16] {
        let cfg = TrainConfig {
            steps: 1000,
            lr: 0.1,
            decay: 0.02,
            batch,
            seed: 5,
            bytes_per_element: 4,
            average_every: 0,
        };
        let lab = run_lab(&p, &ring_uniform(6), &cfg).expect("valid");
        assert!(lab.doubly_stochastic);
        let ar = lab
            .trace(Strategy::AllReduce)
            .and_then(StrategyTrace::last)
            .expect("ran");
        let g = lab
            .trace(Strategy::Gossip)
            .and_then(StrategyTrace::last)
            .expect("ran");
        let tol_ar = if batch == 0 { 1e-3 } else { 0.05 };
        assert!(
            ar.dist_to_sample_optimum < tol_ar,
            "b={batch}: {}",
            ar.dist_to_sample_optimum
        );
        assert!(
            g.dist_to_equal_optimum < 0.05,
            "b={batch}: {}",
            g.dist_to_equal_optimum
        );
        assert!(g.dist_to_sample_optimum > gap - 0.05);
        assert!(ar.dist_to_equal_optimum > gap - 0.05);
        // D-PSGD's average pays for the wrong objective in global loss
        assert!(g.loss_at_average > lab.optimal_loss + 1e-3);
        assert!(g.consensus_distance > 0.0);
        assert_eq!(ar.consensus_distance, 0.0);
        // without communication each model stays at its own shard's optimum
        let l = lab
            .trace(Strategy::Local)
            .and_then(StrategyTrace::last)
            .expect("ran");
        assert!(l.consensus_distance > 10.0 * g.consensus_distance);
    }
}

#[test]
fn star_mixing_targets_its_stationary_weights() {
    // Star on 4 workers with uniform 1/(deg+1) weights is not doubly
    // stochastic, so D-PSGD weights the shards by its stationary π: π_c = m/(3m−2) = 0.4,
    // leaves 2/(3m−2) = 0.2 (derived from π_l = π_l/2 + π_c/m).
    let a = star_uniform(4);
    let pi = stationary_distribution(&a).expect("connected, aperiodic");
    let want = [0.4, 0.2, 0.2, 0.2];
    assert!(
        pi.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-12),
        "{pi:?}"
    );
    let p = Problem::generate(&ProblemConfig {
        shard_sizes: vec![100, 300, 50, 550],
        d: 2,
        iid: false,
        seed: 11,
        noise: 0.1,
    })
    .expect("valid");
    let cfg = TrainConfig {
        steps: 1500,
        lr: 0.1,
        decay: 0.02,
        batch: 0,
        seed: 1,
        bytes_per_element: 4,
        average_every: 0,
    };
    let lab = run_lab(&p, &a, &cfg).expect("valid");
    assert!(!lab.doubly_stochastic);
    let wpi = lab.mixing_weighted_optimum.clone().expect("solvable");
    let g = lab
        .trace(Strategy::Gossip)
        .and_then(StrategyTrace::last)
        .expect("ran");
    // tolerance 0.01; the π-weighted and equal-worker optima are 0.087 apart
    let we = &lab.equal_worker_optimum;
    assert!(dist(&g.average, &wpi) < 0.01, "{}", dist(&g.average, &wpi));
    assert!(dist(&wpi, we) > 0.05);
    assert!(dist(&g.average, we) > 0.05);
}

#[test]
fn runs_are_deterministic_for_a_seed() {
    let p = six_shards();
    let cfg = TrainConfig {
        steps: 100,
        batch: 8,
        seed: 9,
        ..TrainConfig::default()
    };
    let a = run_lab(&p, &ring_uniform(6), &cfg).expect("valid");
    let b = run_lab(&six_shards(), &ring_uniform(6), &cfg).expect("valid");
    assert_eq!(a, b);
    let c = run_lab(
        &p,
        &ring_uniform(6),
        &TrainConfig {
            seed: 10,
            ..cfg.clone()
        },
    )
    .expect("valid");
    assert_ne!(
        a.traces[1].steps[100].average,
        c.traces[1].steps[100].average
    );
}

#[test]
fn iid_shards_make_the_optima_agree() {
    let p = Problem::generate(&ProblemConfig {
        iid: true,
        ..ProblemConfig::default()
    })
    .expect("valid");
    let cfg = TrainConfig {
        steps: 400,
        batch: 0,
        ..TrainConfig::default()
    };
    let lab = run_lab(&p, &ring_uniform(3), &cfg).expect("valid");
    assert!(dist(&lab.sample_weighted_optimum, &lab.equal_worker_optimum) < 0.03);
    for t in &lab.traces {
        let last = t.last().expect("ran");
        assert!(last.dist_to_sample_optimum < 0.05, "{:?}", t.strategy);
    }
}

#[test]
fn divergence_stops_the_run_without_panicking() {
    let p = six_shards();
    let cfg = TrainConfig {
        steps: 500,
        lr: 50.0,
        batch: 0,
        ..TrainConfig::default()
    };
    let lab = run_lab(&p, &ring_uniform(6), &cfg).expect("valid config");
    let t = lab.trace(Strategy::AllReduce).expect("ran");
    let at = t.diverged_at.expect("η far above 2/L diverges");
    assert!(at < 500);
    assert!(t.steps.len() == at || t.steps.len() == at + 1);
    // η = 5 with decay: huge but finite models also count as diverged
    let slow = TrainConfig {
        lr: 5.0,
        decay: 0.02,
        steps: 200,
        batch: 0,
        ..TrainConfig::default()
    };
    let lab = run_lab(&p, &ring_uniform(6), &slow).expect("valid config");
    for t in &lab.traces {
        assert!(t.diverged_at.is_some(), "{:?}", t.strategy);
    }
    assert!(2.0 / p.max_curvature() < 50.0);
}

#[test]
fn bad_mixing_and_config_give_typed_errors() {
    let p = six_shards();
    let cfg = TrainConfig::default();
    assert_eq!(
        run_lab(&p, &ring_uniform(5), &cfg),
        Err(TrainError::MixingShape {
            m: 6,
            rows: 5,
            cols: 5
        })
    );
    let mut bad = ring_uniform(6);
    bad[(2, 2)] = 0.5;
    assert!(matches!(
        run_lab(&p, &bad, &cfg),
        Err(TrainError::MixingRowSum { row: 2, .. })
    ));
    bad[(2, 2)] = -1.0 / 3.0;
    bad[(2, 4)] = 2.0 / 3.0;
    assert_eq!(
        run_lab(&p, &bad, &cfg),
        Err(TrainError::MixingEntry { row: 2, col: 2 })
    );
    let a = ring_uniform(6);
    for lr in [0.0, -1.0, f64::NAN] {
        assert_eq!(
            run_lab(&p, &a, &TrainConfig { lr, ..cfg.clone() }),
            Err(TrainError::LearningRate)
        );
    }
    assert_eq!(
        run_lab(
            &p,
            &a,
            &TrainConfig {
                steps: 0,
                ..cfg.clone()
            }
        ),
        Err(TrainError::Steps { steps: 0 })
    );
    assert!(TrainError::MixingRowSum { row: 2, sum: 0.5 }
        .to_string()
        .contains("row 3"));
}

#[test]
fn strategy_keys_round_trip() {
    for s in Strategy::ALL {
        assert_eq!(Strategy::parse(s.key()), Some(s));
        assert_eq!(Strategy::ALL[s.index()], s);
    }
    assert_eq!(Strategy::parse("AllReduce"), Some(Strategy::AllReduce));
    assert_eq!(Strategy::parse("D-PSGD"), Some(Strategy::Gossip));
    assert_eq!(Strategy::parse("ps"), None);
}

#[test]
fn mixing_comes_from_the_consensus_core() {
    use crate::core::consensus::{GraphKind, WeightRule};
    let a = train::mixing_for(GraphKind::Ring, WeightRule::Uniform, 6, 0).expect("ring");
    assert!((a - ring_uniform(6)).abs().max() < 1e-15);
    let s = train::mixing_for(GraphKind::Star, WeightRule::Uniform, 4, 0).expect("star");
    assert!((s - star_uniform(4)).abs().max() < 1e-15);
    assert_eq!(crate::core::consensus::torus_shape(16), (4, 4));
    assert_eq!(crate::core::consensus::torus_shape(12), (3, 4));
    assert_eq!(crate::core::consensus::torus_shape(7), (1, 7));
    let t = train::mixing_for(
        GraphKind::Torus { rows: 1, cols: 1 },
        WeightRule::Metropolis,
        12,
        0,
    )
    .expect("3×4 torus");
    assert_eq!(t.nrows(), 12);
    assert!(matches!(
        train::mixing_for(GraphKind::Hypercube, WeightRule::Uniform, 6, 0),
        Err(TrainError::Graph(_))
    ));
    assert_eq!(
        train::mixing_for(GraphKind::Ring, WeightRule::Uniform, 1, 0).expect("m = 1"),
        DMatrix::identity(1, 1)
    );
}

#[test]
fn updates_refuse_inconsistent_shapes() {
    let mut ragged = vec![vec![1.0, 2.0], vec![1.0]];
    assert!(matches!(
        ring_all_reduce_sum(&mut ragged),
        Err(TrainError::Shape(_))
    ));
    let mut models = vec![vec![0.0]; 3];
    let mut grads = vec![vec![0.0]; 2];
    assert!(matches!(
        allreduce_update(&mut models, &mut grads, &[0.5, 0.5], 0.1),
        Err(TrainError::Shape(_))
    ));
    let mut out = vec![vec![0.0]; 3];
    assert!(matches!(
        dpsgd_update(
            &ring_uniform(4),
            &models,
            &vec![vec![0.0]; 3],
            0.1,
            &mut out
        ),
        Err(TrainError::MixingShape {
            m: 3,
            rows: 4,
            cols: 4
        })
    ));
    assert!(local_update(&mut models, &grads, 0.1).is_err());
}

#[test]
fn local_sgd_averaging_every_h_steps() {
    let p = six_shards();
    let cfg = TrainConfig {
        steps: 40,
        ..TrainConfig::default()
    };
    let never = run_lab(&p, &ring_uniform(6), &cfg).expect("valid");
    let every4 = run_lab(
        &p,
        &ring_uniform(6),
        &TrainConfig {
            average_every: 4,
            ..cfg.clone()
        },
    )
    .expect("valid");
    let (n, e) = (&never.traces[2], &every4.traces[2]);
    // Until the first average (after step 4) the runs are the same: the
    // same start, the same mini-batches, no communication.
    assert_eq!(n.steps[3].models, e.steps[3].models);
    assert!(!n.steps[4].models_identical);
    // After steps 4, 8, …: one model everywhere (the all-gather copies the
    // same bits); in between they drift apart again.
    assert!(e.steps[4].models_identical && e.steps[40].models_identical);
    assert!(!e.steps[5].models_identical);
    // Bytes: a ring all-reduce of d = 3 elements every 4th step; worker 3
    // sends its 3 non-empty chunk copies of 4 B = 24 B (see
    // `bytes_follow_ring_and_gossip_accounting`), so 10 averages = 240 B,
    // 6 B per step on average; never averaging sends nothing.
    assert_eq!(e.steps[40].bytes_sent[3], 240.0);
    assert_eq!(e.steps[3].bytes_sent[3], 0.0);
    assert_eq!(e.bytes_per_step[3], 6.0);
    assert_eq!(n.steps[40].max_bytes_sent(), 0.0);
    // The other strategies do not change.
    assert_eq!(never.traces[0], every4.traces[0]);
    assert_eq!(never.traces[1], every4.traces[1]);
}

#[test]
fn local_sgd_averaging_every_step_is_all_reduce_sgd() {
    // h = 1 from one common model: Σ c_k (w − η g_k) = w − η Σ c_k g_k,
    // all-reduce SGD's update, up to rounding (models then sum in another
    // order).
    let p = six_shards();
    let lab = run_lab(
        &p,
        &ring_uniform(6),
        &TrainConfig {
            steps: 30,
            average_every: 1,
            ..TrainConfig::default()
        },
    )
    .expect("valid");
    for t in 0..=30 {
        let a = lab.traces[0].steps[t].loss_at_average;
        let l = lab.traces[2].steps[t].loss_at_average;
        assert!((a - l).abs() < 1e-9 * a.max(1.0), "step {t}: {a} vs {l}");
    }
}
