//! Gossip is not all-reduce: the same number of rounds as one ring all-reduce, and what is left of the disagreement.

use yew::prelude::*;

use super::SharedRun;
use crate::core::consensus::spread;
use crate::core::units::{equation, format_exact_or_approx};

/// Props of [`AllReduceContrast`].
#[derive(Properties, PartialEq)]
pub struct AllReduceContrastProps {
    /// The computed run.
    pub run: SharedRun,
    /// The round shown.
    pub round: usize,
}

/// The "Gossip is not all-reduce" panel.
#[component]
pub fn AllReduceContrast(props: &AllReduceContrastProps) -> Html {
    let run = &props.run;
    let round = props.round;
    let state = &run.rounds[round.min(run.rounds.len() - 1)];
    // up to MEASURE_BUDGET multiply-adds: once per run, not once per step
    let c = use_memo(run.clone(), |r| r.all_reduce_contrast());
    html! {
        <section class="panel" aria-labelledby="contrast-h">
            <h2 class="panel-h" id="contrast-h">{"Gossip is not all-reduce"}</h2>
            <p id="contrast">
                {format!("One ring all-reduce takes 2(p − 1) = {} rounds and leaves every rank with the exact mean {} (sum ÷ p). ",
                    c.ring_rounds, format_exact_or_approx(c.exact_mean))}
                {match (c.gossip_spread, c.gossip_disagreement) {
                    (Some(0.0), Some(0.0)) => format!(
                        "After the same {} gossip rounds on this graph every value is equal (spread 0, from {} at the start) and ‖x − x̄1‖₂ = 0. ",
                        c.ring_rounds, format_exact_or_approx(c.initial_spread)),
                    (Some(0.0), Some(dn)) => format!(
                        "After the same {} gossip rounds on this graph every value is equal (spread 0, from {} at the start), with {} left by rounding. ",
                        c.ring_rounds, format_exact_or_approx(c.initial_spread), equation("‖x − x̄1‖₂", &format_exact_or_approx(dn))),
                    (Some(s), Some(dn)) => format!(
                        "After the same {} gossip rounds on this graph the values still spread over {} (from {} at the start), with {}. ",
                        c.ring_rounds, format_exact_or_approx(s), format_exact_or_approx(c.initial_spread), equation("‖x − x̄1‖₂", &format_exact_or_approx(dn))),
                    _ => format!("({} gossip rounds on this graph are too many multiply-adds to run here.) ", c.ring_rounds),
                }}
                {format!("At round {round} the spread is {}.", format_exact_or_approx(spread(&state.values)))}
            </p>
            <p class="muted">{"Gossip mixes only neighbours, so agreement builds up gradually and is exact only in the limit; all-reduce computes the full reduction once. Consensus of the values is also not the same thing as reaching an optimum."}</p>
        </section>
    }
}
