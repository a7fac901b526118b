//! The Trace Event Format's rule for one thread: its complete events nest
//! or follow each other, never overlap in part. Shared by `tests/trace_rows.rs`
//! (the timeline's, the step view's and the runner's traces) and the
//! runner's own `runner/tests/mpirun.rs` (a trace written under mpirun).
// Each includer uses part of it.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

/// A complete event: start and end, ns, and its name.
type Span = (i64, i64, String);

/// Whole nanoseconds of a `ts` or `dur` in µs (the writer writes whole
/// nanoseconds; Perfetto reads µs the same way, `llround(µs · 1000)`).
fn ns(v: &serde_json::Value) -> i64 {
    (v.as_f64().expect("a number of µs") * 1000.0).round() as i64
}

/// The first pair of complete events on one row (`pid`, `tid`) that
/// overlap in part, as a message; `None` when every row's events nest or
/// follow each other. Also checks that every row and process is named and
/// that no event has `pid` 0 or `tid` 0.
pub fn partial_overlap(json: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let events = v["traceEvents"].as_array().expect("traceEvents");
    let mut rows: BTreeMap<(u64, u64), Vec<Span>> = BTreeMap::new();
    let mut named = BTreeSet::new();
    for e in events {
        let (pid, tid) = (
            e["pid"].as_u64().expect("pid"),
            e["tid"].as_u64().expect("tid"),
        );
        if pid == 0 || tid == 0 {
            return Some(format!("{e}: Perfetto reserves pid 0 and tid 0"));
        }
        match e["ph"].as_str() {
            Some("X") => {
                let start = ns(&e["ts"]);
                let name = e["name"].as_str().unwrap_or("").to_string();
                rows.entry((pid, tid))
                    .or_default()
                    .push((start, start + ns(&e["dur"]), name));
            }
            Some("M") => {
                let what = e["name"].as_str().unwrap_or("");
                named.insert((
                    what.to_string(),
                    pid,
                    if what == "thread_name" { tid } else { 0 },
                ));
            }
            _ => {}
        }
    }
    for (&(pid, tid), evs) in &mut rows {
        if !named.contains(&("thread_name".to_string(), pid, tid))
            || !named.contains(&("process_name".to_string(), pid, 0))
        {
            return Some(format!(
                "pid {pid} tid {tid} has no thread_name or process_name"
            ));
        }
        // by start, the longer first: a stack of open events must hold
        evs.sort_by_key(|e| (e.0, -e.1));
        let mut open: Vec<&Span> = Vec::new();
        for e in evs.iter() {
            while open.last().is_some_and(|o| o.1 <= e.0) {
                open.pop();
            }
            if let Some(o) = open.last() {
                if e.1 > o.1 {
                    return Some(format!(
                        "pid {pid} tid {tid}: “{}” {}–{} ns and “{}” {}–{} ns overlap in part",
                        o.2, o.0, o.1, e.2, e.0, e.1
                    ));
                }
            }
            open.push(e);
        }
    }
    None
}

/// Rows with at least one complete event, per `pid`.
pub fn rows_per_process(json: &str) -> BTreeMap<u64, usize> {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let mut rows = BTreeSet::new();
    for e in v["traceEvents"].as_array().expect("traceEvents") {
        if e["ph"] == "X" {
            rows.insert((e["pid"].as_u64(), e["tid"].as_u64()));
        }
    }
    let mut out = BTreeMap::new();
    for (pid, _) in &rows {
        *out.entry(pid.unwrap_or(0)).or_insert(0) += 1;
    }
    out
}
