//! The issues' cases A and B (issue 23) and S (issue 36), derived by hand.

use super::spans::Sharding;
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

// ---------------------------------------------------------------------------
// Issue 36, case S: p = 8, ring, 12.5 GB/s (β = 0.08 ns/B), α = 0, 4 layers
// of 25M bf16 parameters (50 MB of gradients or parameters each, 200 MB in
// all), fwd 20 ms (5 ms a layer, split evenly), bwd 10 ms a layer.
//
// The collectives of 50 MB on the ring, by hand:
// - all-reduce: 2(p − 1) = 14 rounds of n/p = 6.25 MB × 0.08 ns/B =
//   0.5 ms: 7.000 ms; each rank sends 14 × 6.25 MB = 87.5 MB;
// - reduce-scatter and all-gather: p − 1 = 7 rounds of 0.5 ms: 3.500 ms;
//   each rank sends 7 × 6.25 MB = 43.75 MB.
// ---------------------------------------------------------------------------

fn case_s() -> (StepModel, Network) {
    let model = StepModel {
        params: vec![25_000_000; 4],
        dtype: Dtype::Bf16,
        fwd: 0.020,
        bwd: vec![0.010; 4],
    };
    let net = Network::new(Algorithm::RING, Topology::flat(8, 0.0, 1.0 / BW), 0.0);
    (model, net)
}

fn with(sharding: Sharding) -> StepOptions {
    StepOptions {
        sharding,
        ..default_options()
    }
}

#[test]
fn case_s_ddp() {
    // Every 50 MB layer passes both caps: 4 buckets of one layer, ready at
    // 20 + 10 = 30, 40, 50, 60 ms. Each 7 ms all-reduce fits before the
    // next bucket: 30–37, 40–47, 50–57, 60–67 ms. Step 67.00 ms.
    // Bytes: 4 × 87.5 MB = 350 MB = 2(p − 1)/p × 200 MB.
    let (model, mut net) = case_s();
    let run = time_step(&model, &mut net, &default_options()).expect("runs");
    assert_eq!(run.buckets.len(), 4);
    assert!(run.buckets.iter().all(|b| b.bytes == 50_000_000));
    assert!(run.buckets.iter().all(|b| close(b.end - b.start, 0.007)));
    assert!(run.buckets.iter().all(|b| b.kind == CommKind::AllReduce));
    assert!(close(run.step_time, 0.067));
    assert!(close(run.compute_time, 0.060));
    assert_eq!(run.bytes_sent, 350_000_000);
}

#[test]
fn case_s_fsdp() {
    // Forward, 5 ms a layer; AG = all-gather (3.5 ms), one FIFO stream:
    //   AG1 issued at 0: 0–3.5. L1 fwd 3.5–8.5; at its start AG2 is issued:
    //   3.5–7.0. L2 fwd 8.5–13.5, AG3 8.5–12.0. L3 fwd 13.5–18.5, AG4
    //   13.5–17.0. L4 fwd 18.5–23.5. The forward ends at 23.5.
    // Backward, 10 ms a layer:
    //   AG4 (again, resharded after forward) issued at 23.5: 23.5–27.0.
    //   L4 bwd 27.0–37.0; at its start AG3 is issued: 27.0–30.5.
    //   At 37.0 L4 ends and L3 starts: RS4 first (the tie rule) 37.0–40.5,
    //   then AG2 40.5–44.0. L3 bwd 37.0–47.0.
    //   At 47.0: RS3 47.0–50.5, AG1 50.5–54.0. L2 bwd 47.0–57.0.
    //   At 57.0: RS2 57.0–60.5. L1 bwd 57.0–67.0 (nothing to prefetch).
    //   At 67.0: RS1 67.0–70.5.
    // Step 70.50 ms; compute 20 + 40 = 60.00 ms; exposed 10.50 ms: the first
    // forward all-gather (0–3.5), the first backward all-gather (23.5–27.0)
    // and the last reduce-scatter (67.0–70.5).
    // Bytes: 4 layers × 3 collectives × 43.75 MB = 525 MB = 1.5 × 350 MB
    // (3Ψ against 2Ψ: Rajbhandari et al. 2020, §7.2.2).
    let (model, mut net) = case_s();
    let run = time_step(&model, &mut net, &with(Sharding::Fsdp)).expect("runs");
    assert_eq!(run.buckets.len(), 12);
    assert!(run.buckets.iter().all(|b| close(b.end - b.start, 0.0035)));
    assert!(run.buckets.iter().all(|b| b.bytes == 50_000_000));
    let kinds: Vec<(CommKind, usize, f64)> = run
        .buckets
        .iter()
        .map(|b| (b.kind, b.layers[0] + 1, (b.start * 1e4).round() / 10.0))
        .collect();
    use CommKind::{GatherBackward as B, GatherForward as F, ReduceScatter as R};
    assert_eq!(
        kinds,
        vec![
            (F, 1, 0.0),
            (F, 2, 3.5),
            (F, 3, 8.5),
            (F, 4, 13.5),
            (B, 4, 23.5),
            (B, 3, 27.0),
            (R, 4, 37.0),
            (B, 2, 40.5),
            (R, 3, 47.0),
            (B, 1, 50.5),
            (R, 2, 57.0),
            (R, 1, 67.0),
        ]
    );
    // the compute stream: forward layers 1–4, then backward 4–1
    let starts: Vec<f64> = run.compute.iter().map(|c| c.start).collect();
    let want = [0.0035, 0.0085, 0.0135, 0.0185, 0.027, 0.037, 0.047, 0.057];
    assert!(
        starts.iter().zip(want).all(|(a, b)| close(*a, b)),
        "{starts:?}"
    );
    assert!(run.compute[..4].iter().all(|c| c.forward));
    assert!(close(run.step_time, 0.0705));
    assert!(close(run.compute_time, 0.060));
    assert!(close(run.exposed(), 0.0105));
    assert!(close(run.comm_time, 12.0 * 0.0035));
    assert_eq!(run.bytes_sent, 525_000_000);
    let ddp = time_step(&model, &mut net, &default_options()).expect("runs");
    assert_eq!(2 * run.bytes_sent, 3 * ddp.bytes_sent);
}

#[test]
fn case_s_zero2() {
    // The DDP buckets reduce-scattered: ready at 30, 40, 50, 60 ms, 3.5 ms
    // each: 30–33.5, …, 60–63.5 (hidden but the last 3.5 ms). Then one
    // all-gather of the 200 MB of updated parameters: 7 rounds of 25 MB ×
    // 0.08 ns/B = 2 ms: 14.00 ms, 63.5–77.5. Step 77.50 ms.
    // Bytes: 4 × 43.75 MB + 7 × 25 MB = 350 MB, as DDP (2Ψ: §7.2.1).
    let (model, mut net) = case_s();
    let run = time_step(&model, &mut net, &with(Sharding::Zero2)).expect("runs");
    assert_eq!(run.buckets.len(), 5);
    assert!(run.buckets[..4]
        .iter()
        .all(|b| b.kind == CommKind::ReduceScatter && close(b.end - b.start, 0.0035)));
    let ag = &run.buckets[4];
    assert_eq!((ag.kind, ag.bytes), (CommKind::GatherParams, 200_000_000));
    assert_eq!(ag.label(), "layers 1–4");
    assert!(close(ag.start, 0.0635) && close(ag.end - ag.start, 0.014));
    assert!(close(run.step_time, 0.0775));
    assert!(close(run.exposed(), 0.0175));
    assert_eq!(run.bytes_sent, 350_000_000);
}

#[test]
fn case_s_without_overlap_and_with_a_straggler() {
    // FSDP without prefetch: every collective on the critical path, 60 ms
    // of compute + 12 × 3.5 ms = 102.0 ms. ZeRO-2 with every
    // reduce-scatter after the backward: 60 + 4 × 3.5 + 14 = 88.00 ms.
    let (model, mut net) = case_s();
    let off = |s| StepOptions {
        overlap: false,
        ..with(s)
    };
    let f = time_step(&model, &mut net, &off(Sharding::Fsdp)).expect("runs");
    assert!(close(f.step_time, 0.102));
    let z = time_step(&model, &mut net, &off(Sharding::Zero2)).expect("runs");
    assert!(close(z.step_time, 0.088));
    // FSDP with rank 3 at half speed (10 ms a forward layer, 20 ms a
    // backward layer): AG1 0–3.5; fwd 3.5–13.5, 13.5–23.5, 23.5–33.5,
    // 33.5–43.5 (each prefetch done in time); AG4 43.5–47; bwd 47–67,
    // 67–87, 87–107, 107–127; RS1 127–130.5. The other ranks start each
    // layer when its all-gather ends: their layer 1 forward is 3.5–8.5 and
    // their layer 4 backward starts at 47 as well.
    let slow = StepOptions {
        straggler: Some(Straggler {
            rank: 3,
            factor: 0.5,
        }),
        ..with(Sharding::Fsdp)
    };
    let s = time_step(&model, &mut net, &slow).expect("runs");
    assert!(close(s.step_time, 0.1305));
    let o = s.others.as_ref().expect("other ranks");
    assert!(close(o[0].start, 0.0035) && close(o[0].end, 0.0085));
    assert!(close(o[4].start, 0.047) && close(o[4].end, 0.057));
}

#[test]
fn sharding_needs_a_reduce_scatter_and_an_all_gather() {
    // Rabenseifner at p = 8: recursive halving reduce-scatter, 3 rounds of
    // 25, 12.5 and 6.25 MB = 43.75 MB × 0.08 ns/B = 3.5 ms, as the ring's
    // (α = 0), and the recursive doubling all-gather the same: FSDP 70.50 ms.
    let (model, _) = case_s();
    let rab = Algorithm::RAB;
    let mut net = Network::new(rab, Topology::flat(8, 0.0, 1.0 / BW), 0.0);
    let run = time_step(&model, &mut net, &with(Sharding::Fsdp)).expect("runs");
    assert!(close(run.step_time, 0.0705));
    // A binomial tree has no halves: a message, not a panic.
    let tree = Algorithm::TREE;
    let mut net = Network::new(tree, Topology::flat(8, 0.0, 1.0 / BW), 0.0);
    for s in [Sharding::Zero2, Sharding::Fsdp] {
        let e = time_step(&model, &mut net, &with(s)).expect_err("no halves");
        assert_eq!(e, StepError::NoHalves("tree"));
        assert!(e.to_string().contains("alg=ring"), "{e}");
    }
    // DDP on the tree still runs.
    assert!(time_step(&model, &mut net, &default_options()).is_ok());
}

#[test]
fn memory_per_rank() {
    // Case S: Ψ = 100M, N = 8, K = 12.
    //   DDP (2 + 2 + 12) × 100M = 1.600 GB;
    //   ZeRO-1 4 × 100M + 12 × 100M / 8 = 400 + 150 = 550.0 MB;
    //   ZeRO-2 2 × 100M + 14 × 100M / 8 = 200 + 175 = 375.0 MB;
    //   ZeRO-3 16 × 100M / 8 = 200.0 MB, and FSDP gathers one 25M layer of
    //   2-byte parameters: + 50 MB.
    let m = memory(100_000_000, 25_000_000, 8, 12.0);
    assert_eq!(
        (m.ddp, m.zero1, m.zero2, m.zero3),
        (1.6e9, 550e6, 375e6, 200e6)
    );
    assert_eq!((m.gathered, m.fsdp()), (50e6, 250e6));
    // Ψ = 1B at N = 16: 16 GB; 4 + 12/16 = 4.750 GB; 2 + 14/16 = 2.875 GB;
    // 16/16 = 1.000 GB.
    let m = memory(1_000_000_000, 0, 16, 12.0);
    assert_eq!(
        (m.ddp, m.zero1, m.zero2, m.zero3),
        (16e9, 4.75e9, 2.875e9, 1e9)
    );
    use crate::core::units::format_memory;
    let shown: Vec<String> = [m.ddp, m.zero1, m.zero2, m.zero3]
        .iter()
        .map(|&b| format_memory(b))
        .collect();
    assert_eq!(shown, ["16.00 GB", "4.750 GB", "2.875 GB", "1.000 GB"]);
    let m = memory(100_000_000, 25_000_000, 8, 12.0);
    assert_eq!(format_memory(m.ddp), "1.600 GB");
    assert_eq!(format_memory(m.zero1), "550.0 MB");
    assert_eq!(format_memory(m.gathered), "50.00 MB");
}
