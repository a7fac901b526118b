//! `#sharding`: DDP, ZeRO-1, ZeRO-2 and ZeRO-3 (FSDP) side by side: the
//! memory each rank holds, the step time and the bytes each rank sends,
//! as [`crate::pages::step::panels::sharding`] words them.

use yew::prelude::*;

use super::SharedReport;
use crate::pages::step::panels::{sharding, SHARDING_NOTE};
use crate::params::step::StepParams;

/// `#sharding` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn sharding_panel(r: &SharedReport, p: &StepParams) -> Html {
    let panel = sharding(r, p);
    let rows = panel.rows.into_iter().map(|row| {
        let key = row.key;
        let cells = match row.cells {
            Some((time, sent)) => html! {<>
                <td id={format!("time-{key}")}>{time}</td>
                <td id={format!("sent-{key}")}>{sent}</td>
            </>},
            None => html! {<><td id={format!("time-{key}")}>{"—"}</td><td>{"—"}</td></>},
        };
        let gathered = row.fsdp.map(|f| html! {<>
            <br /><span class="muted formula" id="mem-fsdp">{f}</span>
        </>});
        html! {
            <tr class={classes!(row.winner.then_some("winner"))} id={format!("sharding-{}", row.id)}>
                <th scope="row">{row.name}<br /><span class="muted formula">{row.formula}</span></th>
                <td><span id={format!("mem-{}", row.id)}>{row.memory}</span>{gathered}</td>
                {cells}
            </tr>
        }
    });
    let why = panel
        .why
        .map(|text| html! { <p class="field-error" id="sharding-why">{text}</p> });
    html! {
        <section class="panel wide" id="sharding" aria-labelledby="shard-h">
            <h2 class="panel-h" id="shard-h">{"Sharded data parallelism: memory per rank, step time and traffic"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Memory per rank (scrollable table)">
                <table class="numbers">
                    <thead><tr><th scope="col">{"mode"}</th><th scope="col">{"memory per rank"}</th>
                        <th scope="col">{"step time"}</th><th scope="col">{"bytes a rank sends per step"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            {why.unwrap_or_default()}
            <p class="muted">{panel.legend}{SHARDING_NOTE}</p>
        </section>
    }
}
