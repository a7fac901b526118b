//! Two objectives, two optima: the closed-form sample-weighted and equal-worker optima, and the trap line

use std::rc::Rc;

use yew::prelude::*;

use super::SharedLab;
use crate::app::components::downloads::Downloads;
use crate::core::sgd::narrate::trap_line;
use crate::core::units::{equation, format_exact_or_approx, format_vector};
use crate::export::series::sgd::sgd_optima;

/// Props of [`optima_panel`].
#[derive(PartialEq)]
pub struct OptimaPanelProps {
    /// The training run.
    pub run: SharedLab,
}

/// Two objectives, two optima.
pub fn optima_panel(props: &OptimaPanelProps) -> Html {
    let (_, _, lab) = &*props.run;
    html! {
        <section class="panel optima" aria-labelledby="opt-h">
            <h3 id="opt-h">{"Two objectives, two optima (closed form)"}</h3>
            <table class="numbers">
                <tbody>
                    <tr><th scope="row">{"w★ of Σ (n_k/N) L_k (sample-weighted)"}</th>
                        <td id="opt-sample">{format_vector(&lab.sample_weighted_optimum)}</td>
                        <td>{equation("F★", &format_exact_or_approx(lab.optimal_loss))}</td></tr>
                    <tr><th scope="row">{"w★ of (1/m) Σ L_k (equal-worker)"}</th>
                        <td id="opt-equal">{format_vector(&lab.equal_worker_optimum)}</td>
                        <td>{equation("F", &format_exact_or_approx(lab.equal_worker_loss))}</td></tr>
                    if !lab.doubly_stochastic {
                        if let Some(w) = &lab.mixing_weighted_optimum {
                            <tr><th scope="row">{"w★ of Σ π_k L_k (this mixing matrix's weights)"}</th>
                                <td>{format_vector(w)}</td><td></td></tr>
                        }
                    }
                </tbody>
            </table>
            <Downloads table={Some(Rc::new(sgd_optima(lab)))} />
            <p id="trap">{trap_line(lab)}</p>
            <p class="muted">{"Both optima solve normal equations (Σ c_k A_k) w = Σ c_k b_k with A_k = X_kᵀX_k/n_k and b_k = X_kᵀy_k/n_k (least squares, loss ½(xᵀw − y)²)."}</p>
        </section>
    }
}
