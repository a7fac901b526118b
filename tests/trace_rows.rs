//! Issue 37: the Chrome traces the lab writes (the timeline's, the step
//! view's, the MPI runner's) keep the Trace Event Format's rule that the
//! complete events of one row (`pid`, `tid`) nest or follow each other,
//! which Perfetto needs to draw them. Each case is built the way its page
//! builds it, from a URL query.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/trace_rows.rs"]
mod trace_rows;

use collective_lab::core::step::{report, trace as step_trace};
use collective_lab::core::timing::clock::ClockOptions;
use collective_lab::core::timing::run;
use collective_lab::core::timing::trace::{chrome_trace, mpi_trace, MpiEvent, MpiKind, MpiRun};
use collective_lab::params::ring::ELEM_BYTES;
use collective_lab::params::step::StepParams;
use collective_lab::params::timeline::TimelineParams;
use collective_lab::params::Query;
use trace_rows::{partial_overlap, rows_per_process};

/// Every mode's trace of a timeline query (as `app::clocks::compute`
/// builds the clocks).
fn timeline_traces(query: &str) -> Vec<String> {
    let (p, errors) = TimelineParams::from_query(&Query::parse(query), &TimelineParams::default());
    assert!(errors.is_empty(), "{query}: {errors:?}");
    let topo = p.topology();
    let schedule = p
        .alg
        .generate_on(&topo, p.elements().max(1), ELEM_BYTES)
        .expect("a schedule");
    p.mode
        .modes()
        .into_iter()
        .map(|mode| {
            let opts = ClockOptions {
                segments: p.segments,
                gamma: p.gamma.value,
                faults: p.faults(),
                ..ClockOptions::new(mode)
            };
            chrome_trace(&run(&schedule, &topo, &opts).expect("a clock"))
        })
        .collect()
}

/// The runner's events of the example trace (`tests/fixtures/traces/`, a
/// real run of the ring at p = 4 written before the core's trace writer).
fn runner_events() -> Vec<Vec<MpiEvent>> {
    let text =
        std::fs::read_to_string("tests/fixtures/traces/ring-p4-16MiB.json").expect("fixture");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let mut out = vec![Vec::new(); 4];
    for e in v["traceEvents"].as_array().expect("events") {
        let kind = match e["cat"].as_str() {
            Some("send") => MpiKind::Send,
            Some("recv") => MpiKind::Recv,
            Some("wait") => MpiKind::Wait,
            _ => MpiKind::Reduce,
        };
        let n = |k: &str| e["args"][k].as_u64();
        let rank = e["tid"].as_u64().expect("tid") as usize;
        out[rank].push(MpiEvent {
            round: n("round").expect("round") as usize,
            kind,
            peer: n("peer").map(|p| p as usize),
            bytes: n("bytes").expect("bytes"),
            copy: e["name"].as_str().is_some_and(|s| s.starts_with("copy")),
            start: e["ts"].as_f64().expect("ts") * 1e-6,
            dur: e["dur"].as_f64().expect("dur") * 1e-6,
        });
    }
    out
}

#[test]
fn no_row_of_a_trace_has_events_that_overlap_in_part() {
    let mut cases: Vec<(String, String)> = Vec::new();
    // the two dataflow cases, and a reduce cost so reduce rows exist
    for q in [
        "alg=ring&p=8&segments=4&late=2:5ms",
        "alg=dbtree&p=16&segments=16",
        "alg=ring&p=8&segments=4&late=2:5ms&gamma=1ns/B&mode=both",
    ] {
        for (i, t) in timeline_traces(q).into_iter().enumerate() {
            cases.push((format!("timeline ?{q} (mode {i})"), t));
        }
    }
    let hosts: Vec<String> = Vec::new();
    let runner = mpi_trace(
        &runner_events(),
        &MpiRun {
            alg: "ring",
            p: 4,
            bytes: 16 << 20,
            segments: 1,
            layout: "1 node of 4 ranks",
            hosts: &hosts,
        },
    );
    cases.push(("runner, ring p = 4 (fixture)".into(), runner));
    for q in ["", "mode=fsdp", "mode=zero2", "straggler=3:0.5"] {
        let (s, errors) = StepParams::from_query(&Query::parse(q), &StepParams::default());
        assert!(errors.is_empty(), "{q}: {errors:?}");
        let r = report::report(&s.case().expect("a case")).expect("a report");
        let (shown, _) = r.shown_or_ddp();
        cases.push((format!("step ?{q}"), step_trace::chrome_trace(shown.run)));
    }
    for (what, json) in &cases {
        assert_eq!(partial_overlap(json), None, "{what}");
    }
    // The rows do split where spans overlap: in the dataflow clock the
    // double binary tree at p = 16 with 16 pieces sends to two children at
    // once, so its ranks have further send and recv rows; put back on one
    // row per rank (the layout before issue 37) its events overlap in part.
    let dbtree = &cases
        .iter()
        .find(|c| c.0.contains("dbtree") && c.0.ends_with("(mode 0)"))
        .expect("dbtree, dataflow")
        .1;
    assert_eq!(rows_per_process(dbtree).into_values().max(), Some(8));
    assert!(partial_overlap(&one_row_per_rank(dbtree)).is_some());
    // The runner's ranks: send, recv, wait, reduce each on one row.
    let runner = &cases
        .iter()
        .find(|c| c.0.starts_with("runner"))
        .expect("runner")
        .1;
    assert!(rows_per_process(runner).values().all(|&n| n == 4));
}

/// The trace with every complete event of a process on its first row.
fn one_row_per_rank(json: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let events = v["traceEvents"].as_array_mut().expect("events");
    let mut first = std::collections::BTreeMap::new();
    for e in events.iter().filter(|e| e["ph"] == "X") {
        let (pid, tid) = (e["pid"].as_u64(), e["tid"].as_u64().unwrap_or(0));
        let t = first.entry(pid).or_insert(tid);
        *t = (*t).min(tid);
    }
    for e in events.iter_mut().filter(|e| e["ph"] == "X") {
        e["tid"] = first[&e["pid"].as_u64()].into();
    }
    v.to_string()
}
