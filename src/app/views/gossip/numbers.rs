//! The numbers of the current round: values, mean, disagreement, the ρʳ bound, ρ, the gap and the rounds to reach the target.

use std::rc::Rc;

use yew::prelude::*;

use super::SharedRun;
use crate::app::components::downloads::Downloads;
use crate::core::consensus::spread;
use crate::core::units::format::{format_rate, format_small};
use crate::core::units::format_exact_or_approx;
use crate::export::series::gossip::gossip_round_numbers;

/// Props of [`round_numbers`].
#[derive(PartialEq)]
pub struct RoundNumbersProps {
    /// The computed run.
    pub run: SharedRun,
    /// The round shown.
    pub round: usize,
}

/// The "Round r" panel.
pub fn round_numbers(props: &RoundNumbersProps) -> Html {
    let run = &props.run;
    let (p, round) = (run.graph.p, props.round);
    let state = &run.rounds[round.min(run.rounds.len() - 1)];
    let spec = &run.spectrum;
    let values_text = {
        let shown: Vec<String> = state
            .values
            .iter()
            .take(64)
            .map(|v| format_exact_or_approx(*v))
            .collect();
        format!(
            "{}{}",
            shown.join(", "),
            if p > 64 {
                format!(", … ({} more)", p - 64)
            } else {
                String::new()
            }
        )
    };
    let bound_text = state
        .bound
        .map_or_else(|| "—".to_string(), format_exact_or_approx);
    let predicted = run
        .predicted_rounds
        .map_or_else(|| "never (ρ ≥ 1)".to_string(), |r| r.to_string());
    let measured = run.measured_rounds.map_or_else(
        || format!("more than {} (stopped measuring)", run.measured_cap),
        |r| r.to_string(),
    );
    html! {
        <section class="panel" aria-labelledby="num-h">
            <h2 class="panel-h" id="num-h">{format!("Round {round}")}</h2>
            <p>{"x = ("}<span id="values">{values_text}</span>{")"}</p>
            <table class="numbers">
                <tbody>
                    <tr><th scope="row">{"mean x̄"}</th><td id="round-mean">{format_exact_or_approx(state.mean)}</td></tr>
                    <tr><th scope="row">{"disagreement ‖x − x̄1‖₂"}</th><td id="round-disagreement">{format_exact_or_approx(state.disagreement)}</td></tr>
                    <tr><th scope="row">{if spec.bound_guaranteed { "bound ρʳ‖x₀ − x̄1‖₂" } else { "ρʳ‖x₀ − x̄1‖₂ (rate, not a bound)" }}</th>
                        <td id="round-bound">{bound_text}</td></tr>
                    <tr><th scope="row">{"spread max − min"}</th><td id="round-spread">{format_exact_or_approx(spread(&state.values))}</td></tr>
                    <tr><th scope="row">{"ρ"}</th><td id="rho">{format_rate(spec.rho)}</td></tr>
                    <tr><th scope="row">{"spectral gap 1 − ρ"}</th><td id="gap">{if spec.gap < 1e-3 { format_small(spec.gap) } else { format_rate(spec.gap) }}</td></tr>
                    <tr><th scope="row">{format!("rounds for {}× (predicted ⌈ln F / ln(1/ρ)⌉)", crate::core::units::decimal::shortest(run.factor))}</th><td id="predicted">{predicted}</td></tr>
                    <tr><th scope="row">{format!("rounds for {}× (measured)", crate::core::units::decimal::shortest(run.factor))}</th><td id="measured">{measured}</td></tr>
                </tbody>
            </table>
            <Downloads table={Some(Rc::new(gossip_round_numbers(run, round)))} />
        </section>
    }
}
