//! `#strategies`: all-reduce SGD, D-PSGD and local SGD with the same
//! compute, each with its time per step; `#straggler`: what a slow rank
//! does to each, and D-PSGD's steps as the slowness spreads. The words are
//! [`crate::pages::step::panels`]'.

use yew::prelude::*;

use super::SharedReport;
use crate::pages::step::panels::{
    straggler, strategies, STRAGGLER_FOOT, STRAGGLER_HINT, STRATEGIES_NOTE,
};
use crate::params::step::StepParams;

/// Props of the time-to-quality panel ([`super::quality::QualityPanel`]).
#[derive(Properties, PartialEq)]
pub struct StrategiesProps {
    /// The case's report.
    pub report: SharedReport,
    /// The parameters.
    pub params: StepParams,
}

/// `#strategies` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn strategies_panel(r: &SharedReport, p: &StepParams) -> Html {
    let rows = strategies(r, p).into_iter().map(|s| {
        html! {
            <tr class={classes!(s.winner.then_some("winner"))} id={format!("strategy-{}", s.strategy.key())}>
                <th scope="row">{s.name}</th><td>{s.time}</td><td>{s.bytes}</td><td class="wrap">{s.why}</td>
            </tr>
        }
    });
    html! {
        <section class="panel wide" id="strategies" aria-labelledby="str-h">
            <h2 class="panel-h" id="str-h">{"Strategies side by side, with the same compute"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Strategies (scrollable table)">
                <table class="numbers">
                    <thead><tr><th scope="col">{"strategy"}</th><th scope="col">{"time per step"}</th>
                        <th scope="col">{"bytes a rank sends per step"}</th><th scope="col">{"why"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <p class="muted">{STRATEGIES_NOTE}</p>
        </section>
    }
}

/// `#straggler` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn straggler_panel(r: &SharedReport, p: &StepParams) -> Html {
    let Some(s) = straggler(r, p) else {
        return html! {
            <section class="panel" id="straggler" aria-labelledby="slow-h">
                <h2 class="panel-h" id="slow-h">{"A straggler"}</h2>
                <p class="muted">{STRAGGLER_HINT}</p>
            </section>
        };
    };
    let steps = s.steps.map(|g| {
        let rows = g.rows.into_iter().map(|(t, step, reach)| {
            html! { <tr><th scope="row">{t}</th><td>{step}</td><td>{reach}</td></tr> }
        });
        html! {
            <div class="table-scroll tall" role="region" tabindex="0" aria-label="D-PSGD steps with a straggler (scrollable table)">
                <table class="numbers" id="gossip-steps">
                    <thead><tr><th scope="col">{"D-PSGD step"}</th><th scope="col">{"rank 0's step"}</th>
                        <th scope="col">{g.pace}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        }
    });
    html! {
        <section class="panel" id="straggler" aria-labelledby="slow-h">
            <h2 class="panel-h" id="slow-h">{s.heading}</h2>
            <p id="straggler-allreduce">{s.allreduce}</p>
            if let Some(t) = s.sharded { <p id="straggler-sharded">{t}</p> }
            if let Some(t) = s.gossip { <p id="straggler-gossip">{t}</p> }
            {steps.unwrap_or_default()}
            <p id="straggler-local">{s.local}</p>
            <p class="muted">{STRAGGLER_FOOT}</p>
        </section>
    }
}
