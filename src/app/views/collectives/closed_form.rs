//! The collectives view's time panel: the executed schedule's α–β time next
//! to the algorithm's closed form, and whether they agree.

use yew::prelude::*;

use crate::app::components::time_panel::{time_panel, TimePanelProps};
use crate::core::collectives::{Algorithm, AlgorithmSummary, ShownTimes};
use crate::core::cost::CostParams;
use crate::core::timing::{executed_time, explain_shown};
use crate::core::topology::Topology;
use crate::core::units::Bandwidth;
use crate::pages::common::trace::SharedTrace;

/// Props of [`closed_form_panel`].
#[derive(PartialEq)]
pub struct ClosedFormPanelProps {
    /// The algorithm shown.
    pub alg: Algorithm,
    /// The job's shape (its nodes matter to the hierarchical algorithms).
    pub topo: Topology,
    /// Its executed schedule.
    pub trace: SharedTrace,
    /// Its row of the summary table, if the table has one (for the reason
    /// of a difference).
    pub row: Option<AlgorithmSummary>,
    /// Link bandwidth.
    pub bw: Bandwidth,
    /// α, seconds.
    pub alpha: f64,
}

/// Executed time vs closed form.
pub fn closed_form_panel(props: &ClosedFormPanelProps) -> Html {
    let s = &props.trace.schedule;
    let (alpha, beta) = (props.alpha, props.bw.beta());
    let formula = props.alg.closed_form_on(
        &props.topo,
        s.total_bytes() as f64,
        CostParams::new(alpha, beta),
    );
    // One comparison for both lines and the verdict, so they never
    // contradict each other (the rule: `ShownTimes`).
    let shown = ShownTimes::new(executed_time(s, alpha, beta), formula.time);
    let why = props
        .row
        .as_ref()
        .and_then(|r| r.difference.clone())
        .unwrap_or_default();
    let class = if shown.agrees() {
        "check ok"
    } else {
        "check bad"
    };
    html! {
        {time_panel(TimePanelProps { title: "Time: executed schedule vs closed form".into(), bw: props.bw, alpha, children: html! { <>
            <p>{"Executed (each round: α + its largest message × β): "}<code id="executed">{explain_shown(s, alpha, beta, &shown.executed)}</code></p>
            <p>{format!("Closed form ({}, {}): ", formula.name, formula.label)}<code>{format!("T = {}", formula.expression)}</code>
                {" = "}<strong id="closed">{shown.closed_form.clone()}</strong></p>
            <p {class} id="agree">{shown.sentence(&why)}</p>
            <p class="muted">{"An empty message (possible when n < p) still pays α, as in the cost model."}</p>
        </> }})}
    }
}
