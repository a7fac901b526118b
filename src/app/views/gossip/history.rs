//! The round history as text: round, the node values, the mean, the
//! disagreement and the ρʳ bound for every round up to the one shown, growing
//! as the student steps (the course's 6.708 → 2.236 → 0.745). Also the data
//! of the disagreement chart, with a CSV download.

use std::rc::Rc;

use yew::prelude::*;

use super::SharedRun;
use crate::app::components::data_table::DataTableView;
use crate::export::series::gossip::gossip_rounds;

/// Props of [`RoundHistory`].
#[derive(Properties, PartialEq)]
pub struct RoundHistoryProps {
    /// The computed run.
    pub run: SharedRun,
    /// The round shown (the table runs from round 0 to it).
    pub round: usize,
}

/// The "Round history" panel.
#[component]
pub fn RoundHistory(props: &RoundHistoryProps) -> Html {
    let table = use_memo((props.run.clone(), props.round), |(run, round)| {
        let upto = (*round).min(run.rounds.len().saturating_sub(1));
        Rc::new(gossip_rounds(
            run.rounds.get(..=upto).unwrap_or_default(),
            run.spectrum.bound_guaranteed,
        ))
    });
    html! {
        <section class="panel wide" aria-labelledby="history-h">
            <h2 class="panel-h" id="history-h">{"Round history"}</h2>
            <p class="muted">{"Every round so far: the values x, their mean, the disagreement ‖x − x̄1‖₂ and ρʳ‖x₀ − x̄1‖₂. Step forward to add a row."}</p>
            <DataTableView id="round-history" table={(*table).clone()} open=true tail=true
                summary={AttrValue::from("Rounds 0 to the current round")} />
        </section>
    }
}
