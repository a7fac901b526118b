//! `#summary`: the step's numbers with units.

use yew::prelude::*;

use super::SharedReport;
use crate::core::step::{CommKind, Sharding};
use crate::core::units::decimal;
use crate::core::units::{format_time, sig};
use crate::pages::step::measured_line;
use crate::params::step::StepParams;

/// `#summary` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn summary(r: &SharedReport, p: &StepParams) -> Html {
    let shown = r.shown_or_ddp().0;
    let run = shown.run;
    let row = |id: &'static str, label: &str, value: String| {
        html! { <tr><th scope="row">{label.to_string()}</th><td id={id}>{value}</td></tr> }
    };
    let pct = format!("{} %", decimal::fixed(100.0 * run.hidden_share(), 1));
    let rate = p.samples.map(|s| {
        let v = s as f64 * p.p as f64 / run.step_time.max(1e-15);
        format!(
            "{} samples/s ({} per worker × {} workers ÷ {})",
            sig(v, 4),
            s,
            p.p,
            format_time(run.step_time)
        )
    });
    let rs = run
        .buckets
        .iter()
        .filter(|b| b.kind == CommKind::ReduceScatter)
        .count();
    let (comm, count, count_label, no_overlap) = match shown.mode {
        Sharding::Ddp => (
            "All-reduce time in total",
            run.buckets.len(),
            "Buckets",
            "Step time without overlap (overlap=0)",
        ),
        Sharding::Zero2 => (
            "Reduce-scatter and all-gather time in total",
            rs,
            "Buckets (reduce-scattered)",
            "Step time with the reduce-scatters after backward (overlap=0)",
        ),
        Sharding::Fsdp => (
            "All-gather and reduce-scatter time in total",
            run.buckets.len(),
            "Collectives (all-gathers and reduce-scatters)",
            "Step time without prefetch (overlap=0)",
        ),
    };
    let lead = match shown.mode {
        Sharding::Ddp => p.model_line(),
        m => format!("{}; {}.", p.model_line(), m.label()),
    };
    html! {
        <section class="panel" id="summary" aria-labelledby="sum-h">
            <h2 class="panel-h" id="sum-h">{"The step in numbers"}</h2>
            <p class="muted">{lead}</p>
            <table class="numbers">
                <tbody>
                    {row("step-time", "Step time", format_time(run.step_time))}
                    {row("compute-time", "Compute (forward + backward)", format_time(run.compute_time))}
                    {row("exposed-time", "Exposed communication", format_time(run.exposed()))}
                    {row("comm-time", comm, format_time(run.comm_time))}
                    {row("hidden-share", "Communication hidden behind compute", pct)}
                    {row("bucket-count", count_label, count.to_string())}
                    {row("no-overlap", no_overlap, format_time(shown.no_overlap))}
                    if let Some(v) = rate { {row("samples-rate", "Throughput", v)} }
                </tbody>
            </table>
            <p class="muted">{if shown.mode == Sharding::Ddp {
                "Exposed communication is the step time minus the compute time: the part of the all-reduces the backward pass did not hide."
            } else {
                "Exposed communication is the step time minus the compute time, waits for an all-gather included."
            }}</p>
            if let Some(m) = measured_line(r, p) { <p id="step-measured">{m}</p> }
        </section>
    }
}
