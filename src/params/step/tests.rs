//! The step view's parameters against hand-written URLs.

use super::*;
use crate::params::testing;

fn parse(s: &str) -> (StepParams, Vec<FieldError>) {
    testing::parse(s)
}

#[test]
fn issue_urls_parse() {
    let (p, e) = parse(PRESETS[0].1);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(p, StepParams::default());
    let m = p.model().expect("valid");
    assert_eq!(m.params, vec![25_000_000; 4]);
    assert_eq!(m.model_bytes(), 400_000_000);
    let (p, e) = parse(PRESETS[5].1);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!((p.p, p.layers), (16, 100));
    assert!((p.alpha.value - 20e-6).abs() < 1e-18);
    let (p, e) = parse("params=1M,4M,2M&bwd=1ms,2ms,3ms&bucket=32&first=32MiB&h=4&mode=local");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(p.layers, 3);
    assert_eq!(p.bucket.value, 32 << 20);
    assert_eq!(p.first.value, 32 << 20);
    assert_eq!((p.h, p.mode), (Some(4), Strategy::Local));
    let (p, e) = parse("fail=3@25&ckpt=10&restart=30s&straggler=3:0.5&samples=32&target=0.05");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(p.fail, Some(Failure { rank: 3, step: 25 }));
    assert_eq!(
        p.straggler,
        Some(Straggler {
            rank: 3,
            factor: 0.5
        })
    );
}

#[test]
fn the_presets_give_the_issue_numbers() {
    use crate::core::step::report::report;
    let r = |q: &str| {
        let (p, e) = parse(q);
        assert!(e.is_empty(), "{q}: {e:?}");
        report(&p.case().expect("case")).expect("runs")
    };
    // Case A (hand derivations in core/step/tests.rs): 66, 96, 94, 64, 54 ms.
    let a = r(PRESETS[0].1);
    assert!((a.run.step_time - 0.066).abs() < 1e-9);
    assert!((a.no_overlap - 0.096).abs() < 1e-9);
    assert!((r(PRESETS[2].1).run.step_time - 0.094).abs() < 1e-9);
    let g = r(PRESETS[3].1).gossip.expect("ring fits");
    assert!((g.step_time() - 0.064).abs() < 1e-9);
    assert!((r(PRESETS[4].1).local.step_time() - 0.054).abs() < 1e-9);
    // Case B: 97.4 ms, 144.6 ms without overlap.
    let b = r(PRESETS[5].1);
    assert!((b.run.step_time - 0.0974).abs() < 1e-9);
    assert!((b.no_overlap - 0.1446).abs() < 1e-9);
    // The failure preset: rank 3 in step 25, checkpoints every 10:
    // 5 steps lost (21–25), restart 30 s after 24 × 66 ms.
    let f = r(PRESETS[6].1).failure.expect("fails");
    assert_eq!(f.allreduce.lost_steps, 5);
    assert!((f.allreduce.restart_at.expect("restarts") - (24.0 * 0.066 + 30.0)).abs() < 1e-9);
    assert!(f.gossip.expect("ring").connected());
}

/// Issue 36's case S.
const S: &str =
    "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms";

#[test]
fn case_s_modes_and_memory() {
    use crate::core::step::report::report;
    // hand derivations in core/step/tests.rs
    let r = |q: &str| {
        let (p, e) = parse(&format!("{S}&{q}"));
        assert!(e.is_empty(), "{q}: {e:?}");
        report(&p.case().expect("case")).expect("runs")
    };
    let ddp = r("mode=allreduce");
    let shown = ddp.shown().expect("DDP");
    assert_eq!(shown.mode, Sharding::Ddp);
    assert!((shown.run.step_time - 0.067).abs() < 1e-9);
    let fsdp = r("mode=fsdp");
    let shown = fsdp.shown().expect("ring has halves");
    assert_eq!(shown.mode, Sharding::Fsdp);
    assert!((shown.run.step_time - 0.0705).abs() < 1e-9);
    assert!((shown.no_overlap - 0.102).abs() < 1e-9);
    // DDP's figures stay as they were
    assert!((fsdp.run.step_time - 0.067).abs() < 1e-9);
    let z = r("mode=ZeRO-2");
    assert!((z.shown().expect("ring").run.step_time - 0.0775).abs() < 1e-9);
    assert_eq!((z.memory.ddp, z.memory.zero3), (1.6e9, 200e6));
    // optim=0 (plain SGD): DDP 4Ψ = 400 MB
    assert_eq!(r("optim=0").memory.ddp, 400e6);
    // the tree has no halves: the shown step says why, DDP still runs
    let t = r("alg=tree&mode=fsdp");
    assert!(t.shown().expect_err("no halves").contains("alg=tree"));
    assert!(t.run_of(Sharding::Ddp).is_ok());
}

#[test]
fn practice_zero_links_parse_and_show_the_answer() {
    use crate::core::practice::{Answer, Params, Template};
    use crate::core::step::report::report;
    // the links' cases are large (Ψ up to 70B, N up to 256): a few seeds
    for seed in 0..6u64 {
        for t in [Template::ZeroMemory, Template::FsdpTraffic] {
            let q = t.generate(seed, 0);
            let query = q.link.as_ref().map(|l| l.query.clone()).unwrap_or_default();
            let query = query.trim_start_matches("view=step&");
            let (p, e) = parse(query);
            assert!(e.is_empty(), "{query}: {e:?}");
            let r = report(&p.case().expect("case")).expect("runs");
            let Answer::Numeric(parts) = &q.answer else {
                panic!("numeric")
            };
            // the page shows the answer: the stage's memory, or FSDP's bytes
            let shown = match t.params(seed, 0) {
                Params::ZeroMemory { stage, .. } => match stage {
                    1 => r.memory.zero1,
                    2 => r.memory.zero2,
                    _ => r.memory.zero3,
                },
                _ => r.run_of(Sharding::Fsdp).expect("ring").bytes_sent as f64,
            };
            let want = parts.last().map_or(0.0, |p| p.value);
            assert!(
                (shown - want).abs() <= 1e-9 * want,
                "{query}: {shown} vs {want}"
            );
        }
    }
}

#[test]
fn round_trips() {
    for (_, q) in PRESETS {
        let (p, e) = parse(q);
        assert!(e.is_empty(), "{q}: {e:?}");
        assert_eq!(testing::reparse(&p), p, "{q}");
    }
    let (p, e) = parse("params=1M,2M&bwd=1ms,2ms&shards=100,200&losses=0.1,0.2&lr=0.05&target=0.1&graph=complete&overlap=0&dtype=bf16");
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(testing::reparse(&p), p);
    for q in [
        "mode=fsdp&optim=8",
        "mode=zero2",
        "mode=zero3&optim=0",
        "mode=gossip",
        "mode=DDP",
    ] {
        let (p, e) = parse(q);
        assert!(e.is_empty(), "{q}: {e:?}");
        assert_eq!(testing::reparse(&p), p, "{q}");
    }
    // one mode at a time: a sharded mode is all-reduce SGD, and a
    // strategy after it is DDP again
    let (p, _) = parse("mode=fsdp");
    assert_eq!((p.mode, p.sharding), (Strategy::AllReduce, Sharding::Fsdp));
    assert_eq!(
        p.to_pairs()
            .iter()
            .find(|(k, _)| *k == "mode")
            .map(|(_, v)| v.as_str()),
        Some("fsdp")
    );
    let (q, _) = StepParams::from_query(&Query::parse("mode=local"), &p);
    assert_eq!((q.mode, q.sharding), (Strategy::Local, Sharding::Ddp));
}

#[test]
fn bad_values_keep_the_last_good_state() {
    testing::each_keeps_defaults::<StepParams>(&[
        "params=-1",
        "params=25MB",
        "params=1.5",
        "bucket=0",
        "bucket=0MiB",
        "first=-1",
        "straggler=99:0.5",
        "straggler=3:2",
        "straggler=3",
        "fail=3@-1",
        "fail=3@5ms",
        "fail=99@5",
        "fail=3@0",
        "p=1",
        "p=999",
        "alg=rs",
        "alg=bogus",
        "layers=0",
        "layers=3&bwd=1ms,2ms",
        "params=1M,2M,3M&layers=4",
        "dtype=int8",
        "fwd=1ms,2ms",
        "overlap=maybe",
        "mode=fast",
        "graph=bogus",
        "h=0.5",
        "ckpt=x",
        "restart=-1s",
        "target=-1",
        "lr=-1",
        "mode=zero9",
        "optim=-1",
        "optim=x",
        "optim=1e9",
    ]);
    let (_, e) = parse("mode=zero9");
    assert!(e[0].message.contains("zero2, fsdp"), "{e:?}");
    let (_, e) = parse("optim=-1");
    assert!(e[0].message.contains("optimizer state"), "{e:?}");
    let (_, e) = parse("params=25MB");
    assert!(e[0].message.contains("count of parameters"), "{e:?}");
    let (_, e) = parse("straggler=99:0.5");
    assert!(e[0].message.contains("rank 99"), "{e:?}");
    let (_, e) = parse("fail=3@-1");
    assert!(e[0].message.contains("step number"), "{e:?}");
    // a graph that does not fit p falls back to a ring; p stays
    let (p, e) = parse("graph=hypercube&p=6");
    assert_eq!((e.len(), p.p, p.graph), (1, 6, GraphChoice::Ring));
    // p shrinking below the straggler is refused and p stays.
    let (base, _) = parse("p=8&straggler=6:0.5");
    let (next, e) = StepParams::from_query(&Query::parse("p=4"), &base);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].field, "p");
    assert_eq!(next.p, 8);
}

#[test]
fn ddp_is_the_name_of_all_reduce_sgd_and_allreduce_still_reads() {
    use crate::core::sgd::Strategy;
    use crate::core::step::Sharding;
    assert_eq!(parse_mode("ddp"), Ok((Strategy::AllReduce, Sharding::Ddp)));
    assert_eq!(
        parse_mode("allreduce"),
        Ok((Strategy::AllReduce, Sharding::Ddp))
    );
    let e = parse_mode("dp").expect_err("not a mode");
    assert!(
        e.message
            .starts_with("mode must be ddp (also written allreduce), zero2"),
        "{}",
        e.message
    );
}

#[test]
fn a_measured_step_parses_and_round_trips() {
    let (p, e) = parse("measured=57.381ms,1.114ms");
    assert!(e.is_empty(), "{e:?}");
    let m = p.measured.clone().expect("measured");
    assert_eq!(m.value.len(), 2);
    assert!((m.value[0] - 0.057381).abs() < 1e-15 && (m.value[1] - 0.001114).abs() < 1e-15);
    assert!(p
        .to_pairs()
        .contains(&("measured", "57.381ms,1.114ms".to_string())));
    for (raw, says) in [
        ("1ms,2ms", "cannot be longer than the step"),
        ("1ms", "needs two times"),
        ("1ms,2ms,3ms", "needs two times"),
        ("1ms,x", "measured:"),
        ("3601s,1ms", "at most 1 h"),
    ] {
        let (p, e) = parse(&format!("measured={raw}"));
        assert_eq!(e.len(), 1, "{raw}");
        assert_eq!(e[0].field, "measured");
        assert!(e[0].message.contains(says), "{raw}: {}", e[0].message);
        assert_eq!(p.measured, None, "{raw}: the last good state stays");
    }
}
