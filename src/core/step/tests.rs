//! The cases A and B, derived by hand.

use super::strategies::*;
use super::*;
use crate::core::collectives::Algorithm;
use crate::core::consensus::{Graph, GraphKind};
use crate::core::topology::Topology;

const BW: f64 = 12.5e9;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Case A: p = 8, ring, 12.5 GB/s, α = 0, 4 layers of 25M fp32
/// parameters (100 MB each), fwd 0, bwd 10 ms a layer.
fn case_a() -> (StepModel, Network) {
    let model = StepModel {
        params: vec![25_000_000; 4],
        dtype: Dtype::Fp32,
        fwd: 0.0,
        bwd: vec![0.010; 4],
    };
    let net = Network::new(Algorithm::RING, Topology::flat(8, 0.0, 1.0 / BW), 0.0);
    (model, net)
}

/// Case B: p = 16, α = 20 µs, 12.5 GB/s, 100 layers of 1M fp32 (4 MB
/// each), fwd 25 ms, bwd 0.5 ms a layer.
fn case_b() -> (StepModel, Network) {
    let model = StepModel {
        params: vec![1_000_000; 100],
        dtype: Dtype::Fp32,
        fwd: 0.025,
        bwd: vec![0.0005; 100],
    };
    let net = Network::new(Algorithm::RING, Topology::flat(16, 20e-6, 1.0 / BW), 0.0);
    (model, net)
}

#[test]
fn case_a_step() {
    // Every 100 MB layer exceeds both caps, so 4 buckets of one layer.
    // Ring all-reduce: 2(p − 1) = 14 rounds of n/p = 12.5 MB at 0.08 ns/B
    // = 1 ms each: 14.00 ms. Gradients ready at 10, 20, 30, 40 ms (layer 4
    // first); the stream runs 10–24, 24–38, 38–52, 52–66 ms: step 66.00,
    // compute 40.00, exposed 26.00 ms; 56 ms of comm, 30 hidden.
    let (model, mut net) = case_a();
    let run = time_step(&model, &mut net, &default_options()).expect("runs");
    assert_eq!(run.buckets.len(), 4);
    assert!(run.buckets.iter().all(|b| b.bytes == 100_000_000));
    assert!(run.buckets.iter().all(|b| close(b.end - b.start, 0.014)));
    assert_eq!(run.buckets[0].label(), "layer 4");
    assert!(close(run.step_time, 0.066));
    assert!(close(run.compute_time, 0.040));
    assert!(close(run.exposed(), 0.026));
    assert!(close(run.hidden_share(), 30.0 / 56.0));
}

#[test]
fn case_a_without_overlap_and_with_a_straggler() {
    // overlap = 0: 40 ms of compute, then 4 × 14 ms = 96.00 ms.
    let (model, mut net) = case_a();
    let opts = StepOptions {
        overlap: false,
        ..default_options()
    };
    let run = time_step(&model, &mut net, &opts).expect("runs");
    assert!(close(run.step_time, 0.096));
    // straggler=3:0.5: rank 3's layers take 20 ms, so buckets are ready
    // at 20, 40, 60, 80 ms; each 14 ms all-reduce fits before the next:
    // the last ends at 80 + 14 = 94.00 ms.
    let opts = StepOptions {
        straggler: Some(Straggler {
            rank: 3,
            factor: 0.5,
        }),
        ..default_options()
    };
    let run = time_step(&model, &mut net, &opts).expect("runs");
    assert!(close(run.step_time, 0.094));
    assert!(close(run.compute_time, 0.080));
    assert!(run.others.is_some());
}

#[test]
fn case_a_gossip_and_local() {
    // Gossip on a ring: every rank sends its 400 MB model to 2 neighbours
    // through one egress port: 800 MB × 0.08 ns/B = 64 ms, longer than the
    // 40 ms of compute: max(40, 64) = 64.00 ms.
    let (model, mut net) = case_a();
    let g = Graph::new(GraphKind::Ring, 8, 1).expect("ring");
    let gs = gossip_step(&model, &net, &g).expect("runs");
    assert!(close(gs.exchange, 0.064));
    assert!(close(gs.step_time(), 0.064));
    assert_eq!(gs.bytes_sent, 800_000_000);
    // Local SGD, h = 4: 4 × 40 ms, then a 400 MB ring all-reduce:
    // 14 rounds × 50 MB × 0.08 ns/B = 56 ms; (160 + 56) / 4 = 54.00 ms.
    let ls = local_step(&model, &mut net, 4, 1.0).expect("runs");
    assert!(close(ls.allreduce, 0.056));
    assert!(close(ls.step_time(), 0.054));
}

#[test]
fn case_b_step() {
    // 16 buckets: 1 layer (first cap 1 MiB), 14 × 7 layers (28 MB ≥ 25 MiB
    // = 26 214 400 B > 24 MB), then layer 1 alone.
    // Ring at p = 16: 30 rounds of α + (n/16)β.
    //   4 MB: 30 × (20 µs + 250 kB × 0.08 ns/B = 20 µs) = 1.2 ms;
    //   28 MB: 30 × (20 µs + 1.75 MB × 0.08 ns/B = 140 µs) = 4.8 ms.
    // Compute 25 + 100 × 0.5 = 75 ms. Bucket 1 (layer 100) ready 25.5,
    // runs to 26.7. Bucket 2 (layers 99–93) ready 25 + 8 × 0.5 = 29.0;
    // each later 7-layer bucket is ready 3.5 ms after the previous but the
    // stream needs 4.8 ms, so the 14 run back to back: 29.0 + 14 × 4.8 =
    // 96.2; layer 1 (ready at 75) then runs to 97.4 ms. Exposed 97.4 − 75
    // = 22.4 ms.
    let (model, mut net) = case_b();
    let run = time_step(&model, &mut net, &default_options()).expect("runs");
    assert_eq!(run.buckets.len(), 16);
    assert_eq!(run.buckets[0].layers, vec![99]);
    assert!(run.buckets[1..15].iter().all(|b| b.layers.len() == 7));
    assert_eq!(run.buckets[1].label(), "layers 93–99");
    assert_eq!(run.buckets[15].layers, vec![0]);
    assert!(close(run.buckets[0].end - run.buckets[0].start, 0.0012));
    assert!(close(run.buckets[1].end - run.buckets[1].start, 0.0048));
    assert!(close(run.step_time, 0.0974));
    assert!(close(run.exposed(), 0.0224));
    // Without overlap: 75 + 2 × 1.2 + 14 × 4.8 = 144.6 ms.
    let opts = StepOptions {
        overlap: false,
        ..default_options()
    };
    let run = time_step(&model, &mut net, &opts).expect("runs");
    assert!(close(run.step_time, 0.1446));
}

#[test]
fn case_b_tuner() {
    // At 32 MiB = 33 554 432 B: 8 layers = 32 MB short, 9 = 36 MB close
    // the bucket; 99 = 11 × 9. A 36 MB ring all-reduce: 30 × (20 µs +
    // 2.25 MB × 0.08 ns/B = 180 µs) = 6.0 ms. Bucket 2 ready at 25 +
    // 10 × 0.5 = 30 ms (the first, 25.5–26.7, is done); 11 × 6 ms back to
    // back (each is ready 4.5 ms after the previous): 30 + 66 = 96.0 ms.
    let (model, mut net) = case_b();
    let t = tune(&model, &mut net, &default_options()).expect("runs");
    assert_eq!(t.points.len(), 12);
    assert_eq!(t.points[t.best].cap, 32 << 20);
    assert!(close(t.points[t.best].step_time, 0.096));
    assert_eq!(t.points[t.default].cap, 25 << 20);
    assert!(close(t.points[t.default].step_time, 0.0974));
    assert!(close(t.saving(), 0.0014));
}

#[test]
fn gossip_straggler_spreads_a_hop_a_step() {
    // Ring of 8, compute 40 ms, rank 3 at half speed (80 ms), exchange
    // 10 ms. Step 1: rank 3 ends at 80, the rest at 40. Step 2: ranks 2
    // and 4 must wait for rank 3 to begin (80) before their exchange, so
    // they end at 90; rank 3 at 160. By step 5 every rank has been reached
    // and every rank then ends a step every 80 ms.
    let g = Graph::new(GraphKind::Ring, 8, 1).expect("ring");
    let mut c = vec![0.040; 8];
    c[3] = 0.080;
    let ends = gossip_clock(&g, &c, 0.010, 12);
    assert!(close(ends[0][3], 0.080) && close(ends[0][0], 0.040));
    assert!(close(ends[1][2], 0.090) && close(ends[1][4], 0.090));
    for (k, (a, b)) in ends[11].iter().zip(&ends[10]).enumerate() {
        assert!(close(a - b, 0.080), "rank {k}");
    }
    // Ranks at the 80 ms pace: 1 in step 1 (the straggler), then its two
    // neighbours in step 2, … the whole ring of 8 by step 5 or 6.
    let n = paced(&ends, 0.080);
    assert_eq!(n[0], 1);
    assert_eq!(*n.last().unwrap_or(&0), 8);
    assert!(n.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn tuner_caps_are_powers_of_two_and_25_mib_in_order() {
    let c = tuner_caps();
    assert_eq!(c.len(), 12);
    assert_eq!(c[0], 1 << 20);
    assert_eq!(c[5], 25 << 20);
    assert_eq!((c[4], c[6]), (16 << 20, 32 << 20));
    assert_eq!(c[11], 1 << 30);
    assert!(c.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_tie_with_the_default_keeps_the_default() {
    // Case A with the straggler: every bucket is one 100 MB layer at every
    // cap from 1 MiB to 64 MiB, so those caps all give 94 ms; the tuner
    // names DDP's default, which saves nothing.
    let (model, mut net) = case_a();
    let opts = StepOptions {
        straggler: Some(Straggler {
            rank: 3,
            factor: 0.5,
        }),
        ..default_options()
    };
    let t = tune(&model, &mut net, &opts).expect("runs");
    assert_eq!(t.best, t.default);
    assert_eq!(t.saving(), 0.0);
    assert!(close(t.points[0].step_time, 0.094));
}
