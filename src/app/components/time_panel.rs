//! The time panel of the ring and collectives views: the link it assumes
//! (bandwidth chain and α) above the times the view compares.

use yew::prelude::*;

use crate::core::units::{bandwidth_chain, format_time, Bandwidth};

/// What [`time_panel`] shows.
pub struct TimePanelProps {
    /// Heading.
    pub title: AttrValue,
    /// Link bandwidth.
    pub bw: Bandwidth,
    /// Start-up latency α, seconds.
    pub alpha: f64,
    /// The times and formulas.
    pub children: Html,
}

/// A panel headed by the link it times with (a plain function: it keeps no
/// state, and a component of its own would cost the page about 0.7 KB).
pub fn time_panel(props: TimePanelProps) -> Html {
    html! {
        <section class="panel" aria-labelledby="time-h">
            <h2 class="panel-h" id="time-h">{props.title}</h2>
            <p class="muted">{bandwidth_chain(&props.bw)}{format!("; α = {}.", format_time(props.alpha))}</p>
            {props.children}
        </section>
    }
}
