//! The collectives view's time panel: the executed schedule's α–β time next
//! to the algorithm's closed form, and whether they agree.

use yew::prelude::*;

use super::trace::SharedTrace;
use crate::app::components::time_panel::TimePanel;
use crate::core::collectives::{Algorithm, AlgorithmSummary};
use crate::core::cost::CostParams;
use crate::core::timing::explain;
use crate::core::topology::Topology;
use crate::core::units::{format_signed_time, format_time, Bandwidth};

/// Props of [`ClosedFormPanel`].
#[derive(Properties, PartialEq)]
pub struct ClosedFormPanelProps {
    /// The algorithm shown.
    pub alg: Algorithm,
    /// The job's shape (its nodes matter to the hierarchical algorithms).
    pub topo: Topology,
    /// Its executed schedule.
    pub trace: SharedTrace,
    /// Its row of the summary table, if the table has one.
    pub row: Option<AlgorithmSummary>,
    /// Link bandwidth.
    pub bw: Bandwidth,
    /// α, seconds.
    pub alpha: f64,
}

/// Executed time vs closed form.
#[component]
pub fn ClosedFormPanel(props: &ClosedFormPanelProps) -> Html {
    let s = &props.trace.schedule;
    let (alpha, beta) = (props.alpha, props.bw.beta());
    let formula = props.alg.closed_form_on(
        &props.topo,
        s.total_bytes() as f64,
        CostParams::new(alpha, beta),
    );
    let agreement = match &props.row {
        Some(row) if row.agrees() => {
            html! { <p class="check ok" id="agree">{"✓ The executed schedule and the closed form agree."}</p> }
        }
        Some(row) if row.agrees_to_shown_digits() => html! {
            <p class="check ok" id="agree">
                {format!("≈ Executed {} vs closed form {}: they agree to 4 significant digits; \
                    the exact difference is {}. Why: {}",
                    format_time(row.executed_time), format_time(row.closed_form.time),
                    format_signed_time(row.excess()),
                    row.difference.clone().unwrap_or_default())}
            </p>
        },
        Some(row) => html! {
            <p class="check bad" id="agree">
                {format!("≠ They differ: executed {} vs closed form {}. Why: {}",
                    format_time(row.executed_time), format_time(row.closed_form.time),
                    row.difference.clone().unwrap_or_default())}
            </p>
        },
        None => html! {},
    };
    html! {
        <TimePanel title="Time: executed schedule vs closed form" bw={props.bw} {alpha}>
            <p>{"Executed (each round: α + its largest message × β): "}<code id="executed">{explain(s, alpha, beta)}</code></p>
            <p>{format!("Closed form ({}, {}): ", formula.name, formula.label)}<code>{format!("T = {}", formula.expression)}</code>
                {" = "}<strong id="closed">{format_time(formula.time)}</strong></p>
            {agreement}
            <p class="muted">{"An empty message (possible when n < p) still pays α, as in the cost model."}</p>
        </TimePanel>
    }
}
