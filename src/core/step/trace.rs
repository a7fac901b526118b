//! One step as Chrome trace-event JSON, written by the core's trace writer
//! ([`crate::core::trace_event`], as the timeline's and the runner's
//! traces are): one process, `training step`, with the rows `compute` (the
//! straggler's, when there is one), `communication` and `compute (other
//! ranks)`; complete events with `ts` and `dur` in µs from the step's start.

use super::spans::{CommKind, ComputeSpan, StepRun};
use crate::core::trace_event::{Arg, Name, TraceWriter};

/// The rows: compute, communication, the other ranks' compute.
const ROWS: &[&str] = &["compute", "communication", "compute (other ranks)"];
/// The rows when one rank is a straggler.
const STRAGGLER_ROWS: &[&str] = &[
    "compute (straggler)",
    "communication",
    "compute (other ranks)",
];

fn compute(t: &mut TraceWriter, spans: &[ComputeSpan], row: usize) {
    for s in spans {
        let name = match (s.layer, s.forward) {
            (None, _) => Name::Text("forward"),
            (Some(i), true) => Name::Numbered("forward layer ", i + 1),
            (Some(i), false) => Name::Numbered("backward layer ", i + 1),
        };
        t.span(0, row, name, "compute", (s.start, s.end), &[]);
    }
}

/// The step as Chrome trace-event JSON (see the module doc). A bucket's
/// args are its `bytes` and `ready_us`, when its gradients were ready.
pub fn chrome_trace(run: &StepRun) -> String {
    let mut t = TraceWriter::new(if run.others.is_some() {
        STRAGGLER_ROWS
    } else {
        ROWS
    });
    t.process("training step");
    t.other_text("tool", "Collective Lab step view (model)");
    compute(&mut t, &run.compute, 0);
    for (k, b) in run.buckets.iter().enumerate() {
        let name = if b.kind == CommKind::AllReduce {
            format!("all-reduce bucket {} ({})", k + 1, b.label())
        } else {
            format!("{} ({})", b.kind.label(), b.label())
        };
        let args = [
            ("bytes", Arg::Int(b.bytes)),
            ("ready_us", Arg::Micros(b.ready)),
        ];
        t.span(
            0,
            1,
            Name::Owned(name),
            "communication",
            (b.start, b.end),
            &args,
        );
    }
    if let Some(o) = &run.others {
        compute(&mut t, o, 2);
    }
    t.finish()
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
        // process name and order, 2 thread names and orders
        assert_eq!(ev.iter().filter(|e| e["ph"] == "M").count(), 6);
        // forward + 4 backward + 4 buckets
        let x: Vec<_> = ev.iter().filter(|e| e["ph"] == "X").collect();
        assert_eq!(x.len(), 9);
        assert!(x.iter().all(|e| e["pid"] == 1));
        // the last bucket: layer 1, 52 000 µs to 66 000 µs
        let last = x[8];
        assert_eq!(last["name"], "all-reduce bucket 4 (layer 1)");
        assert_eq!(last["ts"].as_f64(), Some(52000.0));
        assert_eq!(last["dur"].as_f64(), Some(14000.0));
    }
}
