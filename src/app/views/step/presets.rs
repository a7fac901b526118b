//! The preset cases of the issue, as links (each opens its case).

use yew::prelude::*;

use crate::params::step::{link, PRESETS};

/// `#presets`.
#[component]
pub fn Presets() -> Html {
    html! {
        <nav class="panel presets" id="presets" aria-label="Preset cases">
            <span class="muted">{"Presets: "}</span>
            { for PRESETS.iter().map(|(label, q)| html! {
                <a class="preset" href={link(q)}>{*label}</a>
            }) }
        </nav>
    }
}
