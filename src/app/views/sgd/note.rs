//! Agreement is not optimality: why a small consensus distance says nothing
//! about which objective the workers minimise.

use yew::prelude::*;

/// The "Agreement is not optimality" panel.
pub fn agreement_note() -> Html {
    html! {
        <section class="panel" aria-labelledby="note-h">
            <h3 id="note-h">{"Agreement is not optimality"}</h3>
            <p id="consensus-note">
                {"A small consensus distance only says that the workers' models are close to each other. It says nothing about which objective they minimise: all-reduce models agree exactly at every step, including step 0 before any training, and D-PSGD's models can agree closely around the equal-worker optimum, which is the wrong point for the sample-weighted loss. Convergence is judged by the global loss F and the distance to the optimum, not by agreement."}
            </p>
        </section>
    }
}
