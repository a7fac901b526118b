//! Per-strategy numbers at the current step: global loss, its gap to the
//! optimum, consensus distance, whether the models are identical, distances
//! to both optima and bytes sent.

use yew::prelude::*;

use std::rc::Rc;

use super::SharedLab;
use crate::app::components::downloads::Downloads;
use crate::core::sgd::StrategyTrace;
use crate::core::units::format_bytes_short;
use crate::core::units::format_exact_or_approx;
use crate::export::series::sgd::sgd_strategies;

/// Props of [`strategy_table`].
#[derive(PartialEq)]
pub struct StrategyTableProps {
    /// The training run.
    pub run: SharedLab,
    /// The step shown.
    pub step: usize,
}

/// The "At step t" table.
pub fn strategy_table(props: &StrategyTableProps) -> Html {
    let ((_, _, lab), step) = (&*props.run, props.step);

    let row = |t: &StrategyTrace| {
        let i = step.min(t.steps.len().saturating_sub(1));
        let Some(r) = t.steps.get(i) else {
            return html! {};
        };
        let m = r.loss_at_local.len().max(1) as f64;
        let mean_local = r.loss_at_local.iter().sum::<f64>() / m;
        let key = t.strategy.key();
        html! {
            <tr key={key}>
                <th scope="row">{t.strategy.label()}</th>
                <td id={format!("loss-{key}")}>{format_exact_or_approx(r.loss_at_average)}</td>
                <td>{format_exact_or_approx(r.loss_at_average - lab.optimal_loss)}</td>
                <td>{format_exact_or_approx(mean_local)}</td>
                <td id={format!("consensus-{key}")}>{format_exact_or_approx(r.consensus_distance)}</td>
                <td id={format!("identical-{key}")}>{if r.models_identical { "yes (bit-identical)" } else { "no" }}</td>
                <td>{format_exact_or_approx(r.dist_to_sample_optimum)}</td>
                <td>{format_exact_or_approx(r.dist_to_equal_optimum)}</td>
                <td id={format!("bytes-{key}")}>{format_bytes_short(r.max_bytes_sent())}</td>
            </tr>
        }
    };
    html! {
        <>
        <table class="numbers">
            <thead><tr>
                <th>{"strategy"}</th><th>{"F(w̄)"}</th><th>{"F(w̄) − F★"}</th><th>{"mean of F(w_k)"}</th>
                <th>{"consensus distance"}</th><th>{"models identical"}</th>
                <th>{"‖w̄ − w★ sample‖"}</th><th>{"‖w̄ − w★ equal‖"}</th><th>{"bytes sent (busiest worker)"}</th>
            </tr></thead>
            <tbody>{ for lab.traces.iter().map(row) }</tbody>
        </table>
        <Downloads table={Some(Rc::new(sgd_strategies(lab, step)))} />
        </>
    }
}
