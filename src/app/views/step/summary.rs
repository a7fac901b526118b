//! `#summary`: the step's numbers with units, as
//! [`crate::pages::step::panels::summary`] words them.

use yew::prelude::*;

use super::SharedReport;
use crate::pages::step::panels::summary as words;
use crate::params::step::StepParams;

/// `#summary` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn summary(r: &SharedReport, p: &StepParams) -> Html {
    let s = words(r, p);
    let rows = s.rows.into_iter().map(|row| {
        html! { <tr><th scope="row">{row.label}</th><td id={row.id}>{row.value}</td></tr> }
    });
    html! {
        <section class="panel" id="summary" aria-labelledby="sum-h">
            <h2 class="panel-h" id="sum-h">{"The step in numbers"}</h2>
            <p class="muted">{s.lead}</p>
            <table class="numbers">
                <tbody>{ for rows }</tbody>
            </table>
            <p class="muted">{s.foot}</p>
        </section>
    }
}
