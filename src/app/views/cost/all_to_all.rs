//! The all-to-all panel: pairwise, Bruck and all at once at the page's
//! parameters ([`crate::pages::cost::all_to_all`] computes every number
//! and sentence).

use yew::prelude::*;

use crate::pages::cost::all_to_all::AllToAllPanel;

/// The panel.
pub fn all_to_all_panel(panel: &AllToAllPanel) -> Html {
    let rows = panel.rows.iter().map(|r| {
        let key = r.alg.key();
        html! {
            <tr key={key} id={format!("a2a-{key}")} class={classes!(r.fastest.then_some("winner"))}>
                <th scope="row">
                    {r.alg.short_label()}
                    if r.fastest { <span class="badge">{" (fastest)"}</span> }
                </th>
                <td id={format!("a2a-time-{key}")}><strong>{r.time.clone()}</strong></td>
                <td>{r.startups.clone()}</td>
                <td>{r.bytes.clone()}</td>
                <td><code>{r.expression.clone()}</code></td>
            </tr>
        }
    });
    let links = panel.links.iter().map(|(text, href)| {
        html! { <li><a href={href.clone()}>{text.clone()}</a></li> }
    });
    html! {
        <section class="panel wide" aria-labelledby="a2a-h" id="all-to-all">
            <h2 class="panel-h" id="a2a-h">{"All-to-all: the same n as a block matrix"}</h2>
            <p>{panel.lede.clone()}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="All-to-all times (scrollable table)">
                <table class="numbers a2a-table">
                    <thead><tr>
                        <th>{"algorithm"}</th><th>{"time T"}</th><th>{"start-ups"}</th>
                        <th>{"sent per rank"}</th><th>{"formula"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <p id="a2a-break-even"><strong>{panel.bruck_pairwise.clone()}</strong></p>
            if !panel.calculation.is_empty() {
                <pre class="calc">{panel.calculation.join("\n")}</pre>
            }
            <p class="muted" id="a2a-linear-note">{panel.all_at_once.clone()}</p>
            <ul>{ for links }</ul>
        </section>
    }
}
