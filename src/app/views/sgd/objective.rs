//! The calculator's results: N, the sample-weighted global mean loss, the
//! plain average, their difference, which shards are over-weighted, and the
//! chart of the sample weights n_k/N.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::chart_box::{chart_box, ChartBoxProps};

use crate::app::components::data_table::DataTableView;
use crate::core::sgd::narrate::over_weighting_line;
use crate::core::sgd::Objective;
use crate::core::units::format_exact_or_approx;
use crate::export::series::sgd::sgd_sample_weights;
use crate::plot::sgd::draw_sample_weights;

/// Props of [`objective_results`].
#[derive(PartialEq)]
pub struct ObjectiveResultsProps {
    /// The objective of the last good table, from the core.
    pub objective: Rc<Result<Objective, String>>,
    /// The table's mean losses L_k.
    pub losses: Vec<f64>,
}

/// The two means and the weights chart (nothing without an objective).
pub fn objective_results(props: &ObjectiveResultsProps) -> Html {
    let losses = &props.losses;
    match (*props.objective).as_ref().ok() {
        Some(o) => html! {
            <>
                <table class="numbers">
                    <tbody>
                        <tr><th scope="row">{"N = Σ n_k"}</th><td id="total-samples">{o.total}</td></tr>
                        <tr><th scope="row">{"global mean loss Σ (n_k/N) L_k"}</th>
                            <td id="global-mean"><strong>{format_exact_or_approx(o.global_mean)}</strong></td></tr>
                        <tr><th scope="row">{"plain average (1/m) Σ L_k"}</th>
                            <td id="plain-mean">{format_exact_or_approx(o.plain_mean)}</td></tr>
                        <tr><th scope="row">{"plain − global"}</th>
                            <td id="difference">{format_exact_or_approx(o.difference)}</td></tr>
                    </tbody>
                </table>
                <p id="over-weighting">{over_weighting_line(o, losses)}</p>
                if let Ok(svg) = draw_sample_weights(o) {
                    {chart_box(&ChartBoxProps { label: "Sample weights".into(), svg: AttrValue::from(svg.clone()), style: Some("max-width:560px".into()), ..ChartBoxProps::default() })}
                    <DataTableView id="weights-data" table={Rc::new(sgd_sample_weights(o))} svg={Some(AttrValue::from(svg))} />
                }
            </>
        },
        None => html! {},
    }
}
