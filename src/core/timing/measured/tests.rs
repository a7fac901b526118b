//! The measured trace against hand-built traces, a real trace from the MPI
//! runner (`tests/fixtures/traces/`) and the timeline's own export.

use super::*;
use crate::core::timing::clock::{Faults, Mode};
use crate::core::timing::fixtures::ring4;
use crate::core::timing::trace::{chrome_trace, mpi_trace, MpiEvent, MpiKind, MpiRun};

/// Reads trace JSON the way the UI does with the browser's parser.
fn raw(json: &str) -> RawTrace {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let events = v["traceEvents"]
        .as_array()
        .expect("traceEvents")
        .iter()
        .map(|e| TraceEvent {
            ph: e["ph"].as_str().unwrap_or_default().into(),
            name: e["name"].as_str().unwrap_or_default().into(),
            cat: e["cat"].as_str().unwrap_or_default().into(),
            pid: e["pid"].as_f64(),
            tid: e["tid"].as_f64(),
            ts: e["ts"].as_f64(),
            dur: e["dur"].as_f64(),
            round: e["args"]["round"].as_f64(),
            peer: e["args"]["peer"].as_f64(),
        })
        .collect();
    let o = &v["otherData"];
    RawTrace {
        events,
        info: TraceInfo {
            alg: o["alg"].as_str().map(Into::into),
            p: o["p"].as_f64(),
            bytes: o["bytes"].as_f64(),
            segments: o["segments"].as_f64(),
        },
    }
}

fn ev(cat: &str, tid: f64, round: f64, peer: Option<f64>, ts: f64, dur: f64) -> TraceEvent {
    TraceEvent {
        ph: "X".into(),
        name: String::new(),
        cat: cat.into(),
        pid: None,
        tid: Some(tid),
        ts: Some(ts),
        dur: Some(dur),
        round: Some(round),
        peer,
    }
}

/// Two ranks, µs. Rank 0: round 0 recv post 0+1, send post 1+1, wait 2–10,
/// reduce 10–12; round 1 after a 2 µs gap: recv 14+1, send 15+1, wait
/// 16–20, copy 20–21. Rank 1: round 0 only, its wait 2–30 (a slow round),
/// reduce 30–32.
fn two_ranks() -> RawTrace {
    let mut events = Vec::new();
    for (r, round, t, wait) in [
        (0.0, 0.0, 0.0, 8.0),
        (0.0, 1.0, 14.0, 4.0),
        (1.0, 0.0, 0.0, 28.0),
    ] {
        let peer = Some(1.0 - r);
        events.push(ev("recv", r, round, peer, t, 1.0));
        events.push(ev("send", r, round, peer, t + 1.0, 1.0));
        events.push(ev("wait", r, round, None, t + 2.0, wait));
        let red = if round == 1.0 { 1.0 } else { 2.0 };
        events.push(ev("reduce", r, round, peer, t + 2.0 + wait, red));
    }
    RawTrace {
        events,
        info: TraceInfo::default(),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
}

#[test]
fn sends_and_receives_run_to_the_end_of_their_rounds_wait() {
    let m = measured(&two_ranks()).expect("a trace");
    assert_eq!((m.p, m.events, m.skipped), (2, 12, 0));
    assert_eq!((m.alg.clone(), m.bytes, m.segments), (None, None, None));
    // rank 0 ends with the copy at 21 µs, rank 1 with its reduce at 32 µs
    assert!(
        close(m.finish[0], 21e-6) && close(m.finish[1], 32e-6),
        "{:?}",
        m.finish
    );
    assert!(close(m.end, 32e-6));
    assert_eq!(m.rounds, vec![vec![0, 1], vec![0]]);
    let r0 = &m.gantt.rows[0];
    let spans: Vec<(BarKind, usize, f64, f64)> = r0
        .bars
        .iter()
        .map(|b| (b.kind, b.round, b.start * 1e6, b.end * 1e6))
        .collect();
    // recv 0 → wait end 10, send 1 → 10, reduce 10 → 12; round 1: 14 → 20, 15 → 20, 20 → 21
    let want = [
        (BarKind::Recv, 0, 0.0, 10.0),
        (BarKind::Send, 0, 1.0, 10.0),
        (BarKind::Reduce, 0, 10.0, 12.0),
        (BarKind::Recv, 1, 14.0, 20.0),
        (BarKind::Send, 1, 15.0, 20.0),
        (BarKind::Reduce, 1, 20.0, 21.0),
    ];
    assert_eq!(spans.len(), want.len());
    for (got, w) in spans.iter().zip(want) {
        assert!(
            got.0 == w.0 && got.1 == w.1 && close(got.2, w.2) && close(got.3, w.3),
            "{got:?} vs {w:?}"
        );
    }
    assert!(r0.bars.iter().all(|b| b.peer == 1));
    // the 12–14 µs gap between rank 0's rounds is waiting; rank 1 has none
    assert_eq!(r0.waits.len(), 1);
    assert!(close(r0.waits[0].0, 12e-6) && close(r0.waits[0].1, 14e-6));
    assert!(m.gantt.rows[1].waits.is_empty());
    // rank 1's slow round: its receive bar runs to 30 µs
    assert!(close(m.gantt.rows[1].bars[0].end, 30e-6));
}

#[test]
fn times_start_at_the_earliest_event() {
    // the same trace 1 s later (absolute clocks): the same chart
    let mut t = two_ranks();
    for e in &mut t.events {
        e.ts = e.ts.map(|x| x + 1e6);
    }
    assert_eq!(
        measured(&t).expect("a trace").gantt,
        measured(&two_ranks()).expect("a trace").gantt
    );
}

#[test]
fn a_real_ring_trace_from_the_runner_has_four_ranks_of_six_rounds_in_order() {
    let m = measured(&raw(include_str!(
        "../../../../tests/fixtures/traces/ring-p4-16MiB.json"
    )))
    .expect("a trace");
    // otherData: ring, p = 4, 16 MiB, 1 segment
    assert_eq!(
        (m.alg.as_deref(), m.p, m.bytes, m.segments),
        (Some("ring"), 4, Some(16_777_216), Some(1))
    );
    // 4 ranks × 2(p − 1) = 6 rounds × (send, recv, wait, reduce)
    assert_eq!((m.events, m.skipped), (96, 0));
    assert!(
        m.rounds.iter().all(|r| *r == [0, 1, 2, 3, 4, 5]),
        "{:?}",
        m.rounds
    );
    // the earliest event is rank 3's first post at ts = 2.394 µs; each
    // rank's last event (its round-5 copy) ends at ts + dur of the file
    let last_us = [26425.942, 24432.792, 24514.285, 26393.450];
    for (r, t) in last_us.iter().enumerate() {
        assert!(
            (m.finish[r] - (t - 2.394) * 1e-6).abs() < 1e-9,
            "rank {r}: {}",
            m.finish[r]
        );
    }
    assert!((m.end - (26425.942 - 2.394) * 1e-6).abs() < 1e-9);
    for row in &m.gantt.rows {
        // 6 sends, 6 receives, 6 reduces or copies, rounds in order
        assert_eq!(row.bars.len(), 18);
        let sends: Vec<usize> = row
            .bars
            .iter()
            .filter(|b| b.kind == BarKind::Send)
            .map(|b| b.round)
            .collect();
        assert_eq!(sends, [0, 1, 2, 3, 4, 5]);
    }
    // rank 0 posts its round-0 send → 1 at 7.184 µs; its wait ends at 3506.558 µs
    let s = &m.gantt.rows[0]
        .bars
        .iter()
        .find(|b| b.kind == BarKind::Send)
        .expect("a send");
    assert_eq!((s.peer, s.round), (1, 0));
    assert!((s.start - (7.184 - 2.394) * 1e-6).abs() < 1e-9);
    assert!((s.end - (3506.558 - 2.394) * 1e-6).abs() < 1e-9);
}

#[test]
fn the_runner_trace_against_the_ring_model_at_16_mib() {
    let m = measured(&raw(include_str!(
        "../../../../tests/fixtures/traces/ring-p4-16MiB.json"
    )))
    .expect("a trace");
    // ring, p = 4, 16 MiB of f32 at 12.5 GB/s, α = 0: 6 rounds of 4 MiB,
    // each 4 194 304 / 12.5e9 = 335.544 µs: every rank finishes at 2.0133 ms
    let topo = Topology::flat(4, 0.0, 1.0 / 12.5e9);
    let s = crate::core::collectives::Algorithm::RING
        .generate_on(&topo, 4_194_304, 4)
        .expect("valid");
    let clock = run(&s, &topo, &ClockOptions::new(Mode::Dataflow)).expect("runs");
    let c = compare(&m, &clock);
    let model = 6.0 * 4_194_304.0 / 12.5e9;
    assert!(close(c.model.expect("completes"), model));
    assert!(close(c.measured, m.end));
    assert!(close(c.ratio.expect("a ratio"), m.end / model)); // about 13.1
    for (r, &(f, mf, q)) in c.ranks.iter().enumerate() {
        assert!(close(f, m.finish[r]) && close(mf.expect("finishes"), model));
        assert!(close(q.expect("a ratio"), m.finish[r] / model));
    }
    assert!(differences(&m, "ring", 4, 16_777_216, 1).is_empty());
    assert_eq!(
        differences(&m, "rab", 8, 100_000_000, 2),
        [
            "algorithm ring (the page: rab)",
            "p = 4 (the page: 8)",
            "size 16777216 B (the page: 100000000 B)",
            "segments = 1 (the page: 2)",
        ]
    );
}

use crate::core::timing::run;

use crate::core::timing::clock::ClockOptions;
use crate::core::topology::Topology;

#[test]
fn the_timelines_own_export_reads_back_as_its_clock() {
    // ring at p = 4, 100 MB, 12.5 GB/s: 24 messages, each a send and a
    // recv event (no reduce events at γ = 0), 2 ms each; not drawn: per
    // rank its name and order and its 2 rows' names and orders (24), and
    // a flow start and end per message (48)
    let clock = ring4(Mode::Dataflow, &Faults::default());
    let m = measured(&raw(&chrome_trace(&clock))).expect("a trace");
    assert_eq!((m.p, m.events, m.skipped), (4, 48, 72));
    for r in 0..4 {
        assert!(close(m.finish[r], 12e-3), "rank {r}: {}", m.finish[r]);
        assert_eq!(m.rounds[r], [0, 1, 2, 3, 4, 5]);
        let sends = m.gantt.rows[r]
            .bars
            .iter()
            .filter(|b| b.kind == BarKind::Send);
        // the peer comes from the name "send → (r+1) mod 4"
        assert!(sends
            .clone()
            .all(|b| b.peer == (r + 1) % 4 && close(b.end - b.start, 2e-3)));
        assert_eq!(sends.count(), 6);
    }
    let c = compare(&m, &clock);
    assert!(close(c.ratio.expect("a ratio"), 1.0));
}

#[test]
fn bad_traces_say_what_is_wrong() {
    let err = |t: &RawTrace| measured(t).expect_err("not drawable");
    let with = |f: &dyn Fn(&mut TraceEvent)| {
        let mut t = two_ranks();
        f(&mut t.events[5]);
        t
    };
    assert_eq!(err(&RawTrace::default()), TraceError::NoEvents(0));
    let meta = TraceEvent {
        ph: "M".into(),
        cat: "send".into(),
        ..TraceEvent::default()
    };
    assert_eq!(
        err(&RawTrace {
            events: vec![meta; 3],
            ..RawTrace::default()
        }),
        TraceError::NoEvents(3)
    );
    assert_eq!(
        err(&with(&|e| e.dur = Some(-2.0))),
        TraceError::NegativeDuration(5, -2.0)
    );
    assert_eq!(err(&with(&|e| e.ts = None)), TraceError::BadField(5, "ts"));
    assert_eq!(
        err(&with(&|e| e.tid = Some(-1.0))),
        TraceError::BadField(5, "tid")
    );
    assert_eq!(
        err(&with(&|e| e.tid = Some(0.5))),
        TraceError::BadField(5, "tid")
    );
    assert_eq!(
        err(&with(&|e| e.round = None)),
        TraceError::BadField(5, "args.round")
    );
    assert_eq!(
        err(&with(&|e| e.peer = None)),
        TraceError::BadField(5, "args.peer")
    );
    // a trace of p = 1000 (tid 999), and one that says p = 1000
    assert_eq!(
        err(&with(&|e| e.tid = Some(999.0))),
        TraceError::TooManyRanks(1000)
    );
    let mut big = two_ranks();
    big.info.p = Some(1000.0);
    assert_eq!(err(&big), TraceError::TooManyRanks(1000));
    // tids 0 and 2: rank 1 is missing; otherData p = 4: ranks 2 and 3 are
    let mut gap = two_ranks();
    gap.events
        .iter_mut()
        .filter(|e| e.tid == Some(1.0))
        .for_each(|e| e.tid = Some(2.0));
    assert_eq!(err(&gap), TraceError::MissingRanks(vec![1], 3, "tid"));
    let mut four = two_ranks();
    four.info.p = Some(4.0);
    assert_eq!(err(&four), TraceError::MissingRanks(vec![2, 3], 4, "tid"));
    assert_eq!(
        TraceError::MissingRanks(vec![2, 3], 4, "tid").to_string(),
        "Ranks 2, 3 of 0 … 3 have no event (tid is the rank)."
    );
    let mut one = two_ranks();
    one.events.retain(|e| e.tid == Some(0.0));
    assert_eq!(err(&one), TraceError::OneRank);
    assert_eq!(
        TraceError::TooManyRanks(1000).to_string(),
        "The trace has 1000 ranks; this page draws at most 64."
    );
}

/// The runner's events of the example trace (written before the core's
/// trace writer: `pid` 0, `tid` = rank), as the runner records them.
pub(crate) fn fixture_mpi_events() -> Vec<Vec<MpiEvent>> {
    let v: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../tests/fixtures/traces/ring-p4-16MiB.json"
    ))
    .expect("JSON");
    let mut out: Vec<Vec<MpiEvent>> = vec![Vec::new(); 4];
    for e in v["traceEvents"].as_array().expect("events") {
        let kind = match e["cat"].as_str() {
            Some("send") => MpiKind::Send,
            Some("recv") => MpiKind::Recv,
            Some("wait") => MpiKind::Wait,
            _ => MpiKind::Reduce,
        };
        let n = |k: &str| e["args"][k].as_u64();
        out[e["tid"].as_u64().expect("tid") as usize].push(MpiEvent {
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
fn a_runner_trace_with_a_process_per_rank_reads_as_the_old_layout() {
    // The example trace's events written again by the core's writer
    // (rank = pid − 1, rows per kind, flows) draw what the old file draws,
    // to the nanosecond the new file rounds to.
    let hosts = vec!["vm".to_string(); 4];
    let run = MpiRun {
        alg: "ring",
        p: 4,
        bytes: 16_777_216,
        segments: 1,
        layout: "1 node of 4 ranks",
        hosts: &hosts,
    };
    let new = measured(&raw(&mpi_trace(&fixture_mpi_events(), &run))).expect("a trace");
    let old = measured(&raw(include_str!(
        "../../../../tests/fixtures/traces/ring-p4-16MiB.json"
    )))
    .expect("a trace");
    assert_eq!(
        (new.p, new.alg.as_deref(), new.bytes, new.segments),
        (4, Some("ring"), Some(16_777_216), Some(1))
    );
    assert_eq!((new.events, old.events), (96, 96));
    // not drawn: per rank its name and order, 4 rows' names and orders
    // (40); a flow start and end per message, 24 messages (48)
    assert_eq!(new.skipped, 40 + 48);
    assert_eq!(new.rounds, old.rounds);
    for r in 0..4 {
        assert!((new.finish[r] - old.finish[r]).abs() < 1e-9, "rank {r}");
        let (a, b) = (&new.gantt.rows[r].bars, &old.gantt.rows[r].bars);
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert_eq!((x.kind, x.round, x.peer), (y.kind, y.round, y.peer));
            assert!((x.start - y.start).abs() < 1e-9 && (x.end - y.end).abs() < 1e-9);
        }
    }
    // A rank with no event names the field that holds the rank.
    let mut two = fixture_mpi_events();
    two[2].clear();
    assert_eq!(
        measured(&raw(&mpi_trace(&two, &run))).expect_err("rank 2 is empty"),
        TraceError::MissingRanks(vec![2], 4, "pid − 1")
    );
}
