//! One step as Chrome trace-event JSON (the format of
//! [`crate::core::timing::trace`], which chrome://tracing, Perfetto and the
//! PyTorch profiler use): complete events (`"ph": "X"`, `ts` and `dur` in
//! µs), thread 0 the compute stream (the straggler's when there is one),
//! thread 1 the communication stream, thread 2 the other ranks' compute.

use std::fmt::Write;

use super::run::{CommKind, ComputeSpan, StepRun};
use crate::core::units::decimal;

fn us(t: f64) -> String {
    // to the nanosecond, so 0.052 s is 52000 µs and not 52000.000000001
    let v = (t * 1e9).round() / 1e3;
    if v == v.trunc() && v.abs() < 1e15 {
        decimal::fixed(v, 0)
    } else {
        decimal::fixed(v, 3)
    }
}

fn push(out: &mut String, name: &str, tid: usize, start: f64, end: f64, args: &str) {
    if !out.ends_with('[') {
        out.push(',');
    }
    let _ = write!(
        out,
        "\n{{\"name\":\"{name}\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":0,\"tid\":{tid},\"args\":{{{args}}}}}",
        us(start),
        us((end - start).max(0.0))
    );
}

fn compute(out: &mut String, spans: &[ComputeSpan], tid: usize) {
    for s in spans {
        let name = match (s.layer, s.forward) {
            (None, _) => "forward".to_string(),
            (Some(i), true) => format!("forward layer {}", i + 1),
            (Some(i), false) => format!("backward layer {}", i + 1),
        };
        push(out, &name, tid, s.start, s.end, "");
    }
}

/// The step as Chrome trace-event JSON (see the module doc).
pub fn chrome_trace(run: &StepRun) -> String {
    let mut out = String::from("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    let names = [
        if run.others.is_some() {
            "compute (straggler)"
        } else {
            "compute"
        },
        "communication",
        "compute (other ranks)",
    ];
    let rows = if run.others.is_some() { 3 } else { 2 };
    for (tid, name) in names.iter().enumerate().take(rows) {
        if !out.ends_with('[') {
            out.push(',');
        }
        let _ = write!(
            out,
            "\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":{tid},\"args\":{{\"name\":\"{name}\"}}}}"
        );
    }
    compute(&mut out, &run.compute, 0);
    for (k, b) in run.buckets.iter().enumerate() {
        let args = format!("\"bytes\":{},\"ready_us\":{}", b.bytes, us(b.ready));
        let name = if b.kind == CommKind::AllReduce {
            format!("all-reduce bucket {} ({})", k + 1, b.label())
        } else {
            format!("{} ({})", b.kind.label(), b.label())
        };
        push(&mut out, &name, 1, b.start, b.end, &args);
    }
    if let Some(o) = &run.others {
        compute(&mut out, o, 2);
    }
    out.push_str("\n]}\n");
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::collectives::Algorithm;
    use crate::core::step::strategies::default_options;
    use crate::core::step::{time_step, Dtype, Network, StepModel};
    use crate::core::topology::Topology;

    #[test]
    fn case_a_trace_is_json_with_four_buckets() {
        let model = StepModel {
            params: vec![25_000_000; 4],
            dtype: Dtype::Fp32,
            fwd: 0.0,
            bwd: vec![0.010; 4],
        };
        let mut net = Network::new(Algorithm::RING, Topology::flat(8, 0.0, 8e-11), 0.0);
        let run = time_step(&model, &mut net, &default_options()).expect("runs");
        let json = chrome_trace(&run);
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        let ev = v["traceEvents"].as_array().expect("events");
        // 2 thread names + forward + 4 backward + 4 buckets
        assert_eq!(ev.len(), 11);
        // the last bucket: layer 1, 52 000 µs to 66 000 µs
        let last = &ev[10];
        assert_eq!(last["name"], "all-reduce bucket 4 (layer 1)");
        assert_eq!(last["ts"].as_f64(), Some(52000.0));
        assert_eq!(last["dur"].as_f64(), Some(14000.0));
    }
}
