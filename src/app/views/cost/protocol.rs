//! The MPI protocol panel (`proto=mpi`): every compared all-reduce at n
//! with its rounds that go by rendezvous and their handshakes, the fastest
//! one with the protocol, and the fastest on each range of n (all from
//! [`crate::core::collectives::compare`] and [`crate::core::cost::protocol`]).

use std::rc::Rc;

use yew::prelude::*;

use super::both;
use crate::core::collectives::compare::Interval;
use crate::core::collectives::Algorithm;
use crate::core::cost::protocol::{ProtocolTime, Rendezvous};
use crate::core::units::{format_binary, format_time};
use crate::plot::cost::colour_hex;

/// Props of [`MpiPanel`].
#[derive(Properties, PartialEq)]
pub struct MpiPanelProps {
    /// Every compared algorithm's time at n under the protocol.
    pub rows: Rc<Vec<(Algorithm, ProtocolTime)>>,
    /// The fastest algorithm on each range of n under the protocol.
    pub intervals: Rc<Vec<Interval>>,
    /// The rule.
    pub proto: Rendezvous,
    /// α, seconds (for the handshake of one round trip).
    pub alpha: f64,
    /// Message bytes.
    pub n: f64,
}

/// The "MPI protocol" panel.
#[component]
pub fn MpiPanel(props: &MpiPanelProps) -> Html {
    let (rows, proto, n) = (&props.rows, &props.proto, props.n);
    let best = rows
        .iter()
        .min_by(|a, b| a.1.time.total_cmp(&b.1.time))
        .map(|(a, t)| (*a, t.time));
    let h = proto.handshake_time(props.alpha);
    let body = rows.iter().map(|(a, t)| {
        let win = best.is_some_and(|b| b.0 == *a);
        html! {
            <tr key={a.key()} id={format!("mpi-row-{}", a.key())} class={classes!(win.then_some("winner"))}>
                <th scope="row">{a.short_label()}</th>
                <td>{format_time(t.base)}</td>
                <td>{(t.rendezvous_rounds.round() as u64).to_string()}</td>
                <td>{format_time(t.handshake_part)}</td>
                <td><strong>{format_time(t.time)}</strong></td>
            </tr>
        }
    });
    let items = props.intervals.iter().map(|iv| {
        let to = if iv.to.is_finite() { both(iv.to) } else { "∞".to_string() };
        html! { <li style={format!("border-left: 6px solid {}; padding-left: 6px", colour_hex(iv.best))}>
            {format!("{} – {to}: {}", both(iv.from), iv.best.short_label())}</li> }
    });
    html! {
        <section class="panel wide" aria-labelledby="mpi-h">
            <h2 class="panel-h" id="mpi-h">{format!("MPI protocol: eager below {}, rendezvous from there", format_binary(proto.limit))}</h2>
            <p>{format!("A message of m bytes goes eagerly when m < {} (Open MPI's shared-memory default is 4 KiB: \
                btl_sm_component.c in 5.0, btl_vader_component.c in 4.1; the limit counts the header). A longer one waits for a \
                handshake first, a request and a clear-to-send: {} here{}. Each round of an all-reduce sends one message per rank, \
                so an algorithm pays the handshake once per round whose message is at or above the limit.",
                format_binary(proto.limit), format_time(h),
                if matches!(proto.handshake, crate::core::cost::protocol::Handshake::RoundTrip) { " (one round trip, 2α)" } else { "" })}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="All-reduce times with the protocol (scrollable table)">
                <table class="numbers" id="mpi-table">
                    <thead><tr><th>{"algorithm"}</th><th>{"α–β time"}</th><th>{"rendezvous rounds"}</th><th>{"handshakes"}</th><th>{"time with the protocol"}</th></tr></thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
            if let Some((a, t)) = best {
                <p id="mpi-winner"><strong>{format!("Fastest at {} with the protocol: {}, {}.", both(n), a.short_label(), format_time(t))}</strong></p>
            }
            <p class="muted">{"Fastest on each range of n with the protocol (a boundary is a break-even size or a size where some message goes rendezvous):"}</p>
            <ul class="intervals" id="mpi-intervals">{ for items }</ul>
            <p class="muted">{"The time table, crossovers and charts above are the plain α–β model; the runner (--eager-limit) and the measure view's regime fit read the same rule from real logs."}</p>
        </section>
    }
}
