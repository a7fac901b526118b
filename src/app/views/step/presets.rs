//! The preset cases of the issue, as links (each opens its case).

use yew::prelude::*;

use crate::params::step::{link, PRESETS};

/// `#presets` (a plain function: no state, so no component around it).
pub fn presets() -> Html {
    html! {
        <nav class="panel presets" id="presets" aria-label="Preset cases">
            <span class="muted">{"Presets: "}</span>
            { for PRESETS.iter().map(|(label, q)| html! {
                <a class="preset" href={link(q)}>{*label}</a>
            }) }
        </nav>
    }
}
