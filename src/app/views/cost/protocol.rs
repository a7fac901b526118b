//! The MPI protocol panel (`proto=mpi`): renders
//! [`crate::pages::cost::protocol::MpiPanel`], every compared all-reduce at
//! n with its rounds that go by rendezvous and their handshakes, the
//! fastest with the protocol, and the fastest on each range of n.

use yew::prelude::*;

use crate::pages::cost::protocol::MpiPanel;
use crate::plot::cost::colour_hex;

/// The "MPI protocol" panel of `panel`. A plain function, not a component.
pub fn mpi_panel(panel: &MpiPanel) -> Html {
    let body = panel.rows.iter().map(|r| {
        html! {
            <tr key={r.alg.key()} id={format!("mpi-row-{}", r.alg.key())} class={classes!(r.winner.then_some("winner"))}>
                <th scope="row">{r.alg.short_label()}</th>
                <td>{&r.base}</td>
                <td>{r.rendezvous_rounds.to_string()}</td>
                <td>{&r.handshakes}</td>
                <td><strong>{&r.total}</strong></td>
            </tr>
        }
    });
    let items = panel.ranges.iter().map(|iv| {
        html! { <li style={format!("border-left: 6px solid {}; padding-left: 6px", colour_hex(iv.best))}>{&iv.text}</li> }
    });
    html! {
        <section class="panel wide" aria-labelledby="mpi-h">
            <h2 class="panel-h" id="mpi-h">{&panel.heading}</h2>
            <p>{&panel.rule}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="All-reduce times with the protocol (scrollable table)">
                <table class="numbers" id="mpi-table">
                    <thead><tr><th>{"algorithm"}</th><th>{"α–β time"}</th><th>{"rendezvous rounds"}</th><th>{"handshakes"}</th><th>{"time with the protocol"}</th></tr></thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
            if let Some(w) = &panel.winner {
                <p id="mpi-winner"><strong>{w}</strong></p>
            }
            <p class="muted">{"Fastest on each range of n with the protocol:"}</p>
            <ul class="intervals" id="mpi-intervals">{ for items }</ul>
            <p class="muted">{"The table and panels below are the plain α–β model, without the protocol."}</p>
        </section>
    }
}
