//! `#failure`: `fail=RANK@STEP`, as [`crate::pages::step::failure`] words
//! it: all-reduce SGD stops (and restarts from its checkpoint on p − 1
//! workers); D-PSGD goes on on the survivors when their graph stays
//! connected.

use yew::prelude::*;

use super::SharedReport;
use crate::pages::step::failure::{failure, SurvivorsText, FAILURE_HINT, NO_GRAPH, RESTART_NOTE};
use crate::params::step::StepParams;

fn survivors_html(s: SurvivorsText) -> Html {
    let lead = if s.connected {
        html! { <p id="survivors-connected">{s.lead}</p> }
    } else {
        html! { <p class="field-error" id="survivors-split">{s.lead}</p> }
    };
    html! {<>
        {lead}
        <ul class="weights">{ for s.weights.into_iter().map(|w| html! { <li>{w}</li> }) }</ul>
        if let Some(m) = s.more { <p class="muted">{m}</p> }
        <p>{s.objective}</p>
    </>}
}

/// `#failure` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn failure_panel(r: &SharedReport, p: &StepParams) -> Html {
    let Some(f) = failure(r, p) else {
        return html! {
            <section class="panel" id="failure" aria-labelledby="fail-h">
                <h2 class="panel-h" id="fail-h">{"A failure"}</h2>
                <p class="muted">{FAILURE_HINT}</p>
            </section>
        };
    };
    html! {
        <section class="panel failure" id="failure" aria-labelledby="fail-h">
            <h2 class="panel-h" id="fail-h">{f.heading}</h2>
            <p id="failure-allreduce">{f.allreduce}</p>
            <p id="failure-restart">{f.restart}</p>
            <p class="muted">{RESTART_NOTE}</p>
            <h3>{"D-PSGD"}</h3>
            { f.gossip.map_or_else(|| html! { <p>{NO_GRAPH}</p> }, survivors_html) }
        </section>
    }
}
