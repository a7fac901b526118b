//! The MPI protocol panel (`proto=mpi`): every compared all-reduce at n
//! with its rounds that go by rendezvous and their handshakes, the fastest
//! one with the protocol, and the fastest on each range of n (all from
//! [`crate::core::collectives::compare`] and [`crate::core::cost::protocol`]).

use yew::prelude::*;

use crate::core::collectives::compare::Interval;
use crate::core::collectives::Algorithm;
use crate::core::cost::protocol::{ProtocolTime, Rendezvous};
use crate::core::units::format_both as both;
use crate::core::units::{format_binary, format_time};
use crate::plot::cost::colour_hex;

/// The "MPI protocol" panel: every compared algorithm's time at `n` bytes
/// under `proto` (`rows`), the fastest on each range of n (`intervals`);
/// `alpha` (s) sets the round-trip handshake. A plain function, not a
/// component.
pub fn mpi_panel(
    rows: &[(Algorithm, ProtocolTime)],
    intervals: &[Interval],
    proto: &Rendezvous,
    alpha: f64,
    n: f64,
) -> Html {
    let best = rows
        .iter()
        .min_by(|a, b| a.1.time.total_cmp(&b.1.time))
        .map(|(a, t)| (*a, t.time));
    let h = proto.handshake_time(alpha);
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
    let items = intervals.iter().map(|iv| {
        let to = if iv.to.is_finite() { both(iv.to) } else { "∞".to_string() };
        html! { <li style={format!("border-left: 6px solid {}; padding-left: 6px", colour_hex(iv.best))}>
            {format!("{} – {to}: {}", both(iv.from), iv.best.short_label())}</li> }
    });
    html! {
        <section class="panel wide" aria-labelledby="mpi-h">
            <h2 class="panel-h" id="mpi-h">{format!("MPI protocol: eager below {}, rendezvous from there", format_binary(proto.limit))}</h2>
            <p>{format!("A message of m < {} goes eagerly (α + mβ); a longer one first waits for a request and a clear-to-send, {} more{}. \
                Each round on the critical path pays it once when its message is at or above the limit.",
                format_binary(proto.limit), format_time(h),
                if matches!(proto.handshake, crate::core::cost::protocol::Handshake::RoundTrip) { " (2α)" } else { "" })}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="All-reduce times with the protocol (scrollable table)">
                <table class="numbers" id="mpi-table">
                    <thead><tr><th>{"algorithm"}</th><th>{"α–β time"}</th><th>{"rendezvous rounds"}</th><th>{"handshakes"}</th><th>{"time with the protocol"}</th></tr></thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
            if let Some((a, t)) = best {
                <p id="mpi-winner"><strong>{format!("Fastest at {} with the protocol: {}, {}.", both(n), a.short_label(), format_time(t))}</strong></p>
            }
            <p class="muted">{"Fastest on each range of n with the protocol:"}</p>
            <ul class="intervals" id="mpi-intervals">{ for items }</ul>
            <p class="muted">{"The panels above are the plain α–β model."}</p>
        </section>
    }
}
