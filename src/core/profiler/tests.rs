//! The traces under `tests/fixtures/profiler/gloo-2rank-slow1/` are real:
//! PyTorch 2.15 on CPU, 2 ranks with gloo, DDP over 3 Linear layers,
//! rank 1 sleeping 30 ms before each backward (`../gen.py`). The expected
//! step times were computed from the files by `oracle.py` there (a naive
//! sweep over every interval end point, independent of this code); the
//! counts, sizes and starts were read off the JSON by hand.

use super::intervals::{merged, minus, overlap_len, union_len};
use super::*;
use crate::core::rng::SplitMix64;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/profiler");

fn num(v: &serde_json::Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str()?.trim().parse().ok())
}

fn text(v: &serde_json::Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// The test's reader: the same fields as the page's (`app/views/trace/json.rs`).
fn raw(s: &str) -> RawProfile {
    let j: serde_json::Value = serde_json::from_str(s).expect("fixture");
    let events = j["traceEvents"]
        .as_array()
        .expect("fixture")
        .iter()
        .map(|e| {
            let a = &e["args"];
            let lane = if a["stream"].is_null() {
                &e["tid"]
            } else {
                &a["stream"]
            };
            ProfEvent {
                ph: text(&e["ph"]).unwrap_or_default(),
                name: text(&e["name"]).unwrap_or_default(),
                cat: text(&e["cat"]).unwrap_or_default(),
                ts: num(&e["ts"]).unwrap_or(f64::NAN),
                dur: num(&e["dur"]).unwrap_or(f64::NAN),
                tid: num(lane).map_or_else(|| text(lane).unwrap_or_default(), |x| x.to_string()),
                args: CommArgs {
                    collective: text(&a["Collective name"]),
                    in_nelems: num(&a["In msg nelems"]),
                    out_nelems: num(&a["Out msg nelems"]),
                    group_size: num(&a["Group size"]),
                    dtype: text(&a["dtype"]),
                    pg_name: text(&a["Process Group Name"]),
                    pg_ranks: text(&a["Process Group Ranks"]),
                    input_dims: a["Input Dims"][0]
                        .as_array()
                        .map(|d| d.iter().filter_map(num).collect()),
                    input_type: text(&a["Input type"][0]),
                },
            }
        })
        .collect();
    let d = &j["distributedInfo"];
    RawProfile {
        events,
        dist: DistInfo {
            backend: text(&d["backend"]),
            rank: d["rank"].as_u64().map(|r| r as usize),
            world_size: d["world_size"].as_u64().map(|r| r as usize),
            nccl_version: text(&d["nccl_version"]),
        },
    }
}

fn rank(r: usize) -> RankProfile {
    let s =
        std::fs::read_to_string(format!("{DIR}/gloo-2rank-slow1/rank_{r}.json")).expect("fixture");
    read_profile(&raw(&s)).expect("a real trace")
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} against {b}");
}

#[test]
fn gloo_rank_0_reads_eight_collectives_with_their_sizes() {
    let p = rank(0);
    assert_eq!(
        (p.rank, p.world, p.backend.as_deref()),
        (Some(0), Some(2), Some("gloo"))
    );
    assert_eq!(p.kernels, 0);
    assert_eq!(p.comms.len(), 8);
    let labels: Vec<&str> = p.comms.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels[..3], ["broadcast", "broadcast", "all-reduce"]);
    let c = &p.comms[2];
    assert_eq!(
        (c.nelems, c.elem_bytes, c.bytes()),
        (Some(295_488), Some(4), Some(1_181_952))
    );
    assert_eq!(
        (c.group_size, c.pg.as_str(), c.step),
        (Some(2), "0", Some(0))
    );
    close(c.start, 5_763_683_753_047.355);
    // algbw = 1,181,952 B / 42.340091 ms; busbw at p = 2 is algbw × 2·1/2.
    let algbw = 1_181_952.0 / 42_340.091e-6;
    assert!((c.algbw().expect("sized") - algbw).abs() < 1e-3);
    assert!((c.busbw().expect("sized") - algbw).abs() < 1e-3);
}

#[test]
fn the_buckets_of_one_step_add_up_to_the_models_parameters() {
    // Linear(256, 512) + Linear(512, 512) + Linear(512, 64), weights and biases.
    let params = 256 * 512 + 512 + 512 * 512 + 512 + 512 * 64 + 64;
    assert_eq!(params, 427_072);
    for r in [0, 1] {
        let p = rank(r);
        for step in 0..3 {
            let sum: u64 = p
                .comms
                .iter()
                .filter(|c| c.step == Some(step) && c.kind == Some(CollectiveKind::AllReduce))
                .filter_map(|c| c.nelems)
                .sum();
            assert_eq!(sum, params, "rank {r} step {step}");
        }
    }
}

#[test]
fn step_times_match_the_naive_sweep() {
    // (span, n, comm, hidden, compute), µs, from oracle.py.
    type Row = (f64, usize, f64, f64, f64);
    let want: [[Row; 3]; 2] = [
        [
            (64_231.014, 4, 56_266.737, 1_114.108, 7_791.269),
            (56_230.440, 2, 47_847.688, 795.342, 7_484.005),
            (52_238.879, 2, 45_175.142, 991.812, 7_424.616),
        ],
        [
            (71_700.773, 4, 32_585.293, 2_145.666, 7_691.218),
            (56_275.013, 2, 22_809.707, 2_733.237, 6_662.172),
            (64_260.690, 2, 25_201.165, 696.436, 7_822.004),
        ],
    ];
    for r in [0, 1] {
        let p = rank(r);
        assert_eq!(p.steps.len(), 3);
        for (s, w) in p.steps.iter().zip(want[r]) {
            let us = |x: f64| (x * 1e6 * 1000.0).round() / 1000.0;
            assert_eq!(s.count, w.1, "{}", s.name);
            assert!(
                (us(s.span) - w.0).abs() < 0.002,
                "{} span {}",
                s.name,
                us(s.span)
            );
            assert!(
                (us(s.comm) - w.2).abs() < 0.002,
                "{} comm {}",
                s.name,
                us(s.comm)
            );
            assert!(
                (us(s.hidden) - w.3).abs() < 0.002,
                "{} hidden {}",
                s.name,
                us(s.hidden)
            );
            assert!(
                (us(s.compute) - w.4).abs() < 0.002,
                "{} compute {}",
                s.name,
                us(s.compute)
            );
            close(s.exposed, s.comm - s.hidden);
        }
    }
}

#[test]
fn two_ranks_match_and_name_the_slow_one() {
    let (a, b) = (rank(0), rank(1));
    let m = match_ranks(&[(0, &a), (1, &b)]);
    assert_eq!(m.len(), 8);
    assert!(m.iter().all(|x| x.agree && x.pg == "0"));
    // The first all-reduce: rank 1 starts at …790,804.053 µs, rank 0 at
    // …753,047.355: rank 0 waits 37.756698 ms for rank 1.
    let first = &m[2];
    assert_eq!(
        (first.index, first.label.as_str(), first.last),
        (2, "all-reduce", 1)
    );
    close(first.spread, 37_756.698e-6);
    close(first.arrivals[0].wait, 37_756.698e-6);
    close(first.arrivals[1].wait, 0.0);
    // Rank 1, slept before every backward, arrives last at every all-reduce.
    assert!(m
        .iter()
        .filter(|x| x.label == "all-reduce")
        .all(|x| x.last == 1));
}

#[test]
fn a_foreign_trace_and_an_empty_one_say_why() {
    let s = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/traces/ring-p4-16MiB.json"
    ))
    .expect("fixture");
    let r = raw(&s);
    let n = r.events.iter().filter(|e| e.ph == "X").count();
    assert_eq!(
        read_profile(&r),
        Err(ProfileError::NoCommunication {
            events: n,
            kernels: 0
        })
    );
    assert!(read_profile(&RawProfile::default())
        .expect_err("nothing")
        .to_string()
        .contains("none of its 0 events"));
}

fn kernel(name: &str, ts: f64, dur: f64, stream: &str, args: CommArgs) -> ProfEvent {
    ProfEvent {
        ph: "X".into(),
        name: name.into(),
        cat: "kernel".into(),
        ts,
        dur,
        tid: stream.into(),
        args,
    }
}

#[test]
fn a_gpu_step_splits_nccl_time_into_hidden_and_exposed() {
    // Synthetic, by hand: compute kernels on stream 7 at [0, 100) and
    // [150, 300) µs; an NCCL all-reduce of 1 Mi bf16 on stream 20 at
    // [80, 200): 120 µs, of which [80, 100) and [150, 200) are hidden.
    let args = CommArgs {
        collective: Some("allreduce".into()),
        in_nelems: Some(1_048_576.0),
        out_nelems: Some(1_048_576.0),
        group_size: Some(8.0),
        dtype: Some("BFloat16".into()),
        pg_name: Some("0".into()),
        pg_ranks: Some("[0, 1, 2, 3, 4, 5, 6, 7]".into()),
        ..CommArgs::default()
    };
    let raw = RawProfile {
        events: vec![
            kernel(
                "ampere_bf16_s16816gemm",
                0.0,
                100.0,
                "7",
                CommArgs::default(),
            ),
            kernel(
                "ncclKernel_AllReduce_RING_LL_Sum_bf16",
                80.0,
                120.0,
                "20",
                args,
            ),
            kernel("elementwise_kernel", 150.0, 150.0, "7", CommArgs::default()),
        ],
        dist: DistInfo::default(),
    };
    let p = read_profile(&raw).expect("one NCCL kernel");
    assert_eq!((p.kernels, p.comms.len(), p.compute_events), (3, 1, 2));
    let c = &p.comms[0];
    assert_eq!(
        (c.algo.as_deref(), c.proto.as_deref()),
        (Some("RING"), Some("LL"))
    );
    assert_eq!((c.bytes(), c.group_size), (Some(2_097_152), Some(8)));
    assert_eq!(c.pg_ranks.as_deref(), Some(&[0, 1, 2, 3, 4, 5, 6, 7][..]));
    // busbw = 2 MiB / 120 µs × 2·7/8.
    let busbw = 2_097_152.0 / 120e-6 * 1.75;
    assert!((c.busbw().expect("sized") - busbw).abs() < 1e-3);
    let s = &p.steps[0];
    assert_eq!(s.name, "whole trace");
    close(s.comm, 120e-6);
    close(s.hidden, 70e-6);
    close(s.exposed, 50e-6);
    close(s.compute, 250e-6);
    close(s.span, 300e-6);
}

#[test]
fn nccl_kernel_names_of_every_generation() {
    let t = nccl_kernel;
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        t("ncclKernel_AllReduce_RING_LL_Sum_float"),
        Some(("AllReduce".into(), s("RING"), s("LL")))
    );
    assert_eq!(
        t("ncclDevKernel_AllGather_RING_LL"),
        Some(("AllGather".into(), s("RING"), s("LL")))
    );
    assert_eq!(
        t("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
        Some(("ReduceScatter".into(), s("RING"), s("LL")))
    );
    assert_eq!(
        t("ncclDevKernel_AllReduce_Sum_bf16_COLLNET_DIRECT_SIMPLE"),
        Some(("AllReduce".into(), s("COLLNET_DIRECT"), s("SIMPLE")))
    );
    assert_eq!(
        t("ncclDevKernel_SendRecv"),
        Some(("SendRecv".into(), None, None))
    );
    assert_eq!(
        t("ncclDevKernel_Generic"),
        Some(("Generic".into(), None, None))
    );
    assert_eq!(t("ampere_sgemm_128x64_nn"), None);
    assert_eq!(t("ncclKernel_"), None);
}

#[test]
fn an_rccl_generic_kernel_takes_its_collective_from_the_args() {
    let args = CommArgs {
        collective: Some("_allgather_base".into()),
        in_nelems: Some(65_664.0),
        out_nelems: Some(131_328.0),
        group_size: Some(2.0),
        dtype: Some("Float".into()),
        ..CommArgs::default()
    };
    let raw = RawProfile {
        events: vec![kernel("ncclDevKernel_Generic", 0.0, 10.0, "3", args)],
        dist: DistInfo::default(),
    };
    let c = &read_profile(&raw).expect("one kernel").comms[0];
    // All-gather's S is the output: 131,328 × 4 B.
    assert_eq!((c.label.as_str(), c.bytes()), ("all-gather", Some(525_312)));
}

#[test]
fn dtypes_as_the_profiler_writes_them() {
    for (t, b) in [
        ("Float", 4),
        ("float", 4),
        ("c10::BFloat16", 2),
        ("BFloat16", 2),
        ("c10::Half", 2),
        ("long int", 8),
        ("double", 8),
        ("Byte", 1),
    ] {
        assert_eq!(dtype_bytes(t), Some(b), "{t}");
    }
    assert_eq!(dtype_bytes("c10::complex<double>"), None);
}

/// The naive oracle: elementary segments between every end point, each
/// tested against every interval.
fn naive(x: &[(f64, f64)], y: &[(f64, f64)], keep: impl Fn(bool, bool) -> bool) -> f64 {
    let mut pts: Vec<f64> = x.iter().chain(y).flat_map(|&(a, b)| [a, b]).collect();
    pts.sort_by(f64::total_cmp);
    pts.windows(2)
        .map(|w| {
            let m = 0.5 * (w[0] + w[1]);
            let inx = x.iter().any(|&(a, b)| a <= m && m < b);
            let iny = y.iter().any(|&(a, b)| a <= m && m < b);
            if keep(inx, iny) {
                w[1] - w[0]
            } else {
                0.0
            }
        })
        .sum()
}

#[test]
fn union_overlap_and_difference_agree_with_the_naive_sweep() {
    let mut rng = SplitMix64::new(44);
    for _ in 0..300 {
        let mut gen = |n: usize| -> Vec<(f64, f64)> {
            (0..n)
                .map(|_| {
                    let a = (rng.next_f64() * 100.0).round();
                    (a, a + (rng.next_f64() * 30.0).round())
                })
                .collect()
        };
        let x = gen(6);
        let y = gen(5);
        close(union_len(&x), naive(&x, &[], |a, _| a));
        close(overlap_len(&x, &y), naive(&x, &y, |a, b| a && b));
        let d = minus(&merged(&x), &merged(&y));
        close(
            d.iter().map(|(a, b)| b - a).sum(),
            naive(&x, &y, |a, b| a && !b),
        );
    }
}

#[test]
fn the_last_step_as_the_step_models_case() {
    // oracle.py: rank 0's ProfilerStep#3, forward 1,347.108 µs, backward
    // 5,085.696 µs before the first bucket and 546.735 µs before the second.
    let p = rank(0);
    let c = step_case(&p, 2).expect("two all-reduces of floats");
    assert_eq!(c.step, "ProfilerStep#3");
    assert_eq!((c.world, c.dtype.as_str(), c.elem_bytes), (2, "float", 4));
    assert_eq!(c.buckets, [295_488, 131_584]);
    assert!((c.fwd * 1e6 - 1_347.108).abs() < 0.002, "{}", c.fwd);
    assert!((c.bwd[0] * 1e6 - 5_085.696).abs() < 0.002, "{}", c.bwd[0]);
    assert!((c.bwd[1] * 1e6 - 546.735).abs() < 0.002, "{}", c.bwd[1]);
    // The largest bucket's busbw: 1,181,952 B in 45.175142 ms at p = 2.
    let bw = 1_181_952.0 / 45_175.142e-6;
    assert!((c.busbw.expect("sized") - bw).abs() < 1e-3);
    close(c.exposed, p.steps[2].exposed);
    // Step 1 holds the start-up broadcasts too, but its all-reduces are the same.
    assert_eq!(
        step_case(&p, 0).expect("step 1").buckets,
        [295_488, 131_584]
    );
    assert_eq!(step_case(&p, 3), None);
}
