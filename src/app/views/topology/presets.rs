//! Preset buttons. Each names its (illustrative) link figures and fills
//! every parameter, so the URL becomes the preset's link.

use yew::prelude::*;

use crate::params::topology::PRESETS;

/// Props of [`presets`].
#[derive(PartialEq)]
pub struct PresetsProps {
    /// Called with the preset's id ([`Preset::id`](crate::params::topology::Preset::id)).
    pub on_preset: Callback<&'static str>,
}

/// The preset list.
pub fn presets(props: &PresetsProps) -> Html {
    let buttons = PRESETS.iter().map(|pr| {
        let cb = props.on_preset.clone();
        let pr = *pr;
        let onclick = Callback::from(move |_: MouseEvent| cb.emit(pr.id));
        html! {
            <li>
                <button type="button" id={format!("preset-{}", pr.id)} {onclick}>{pr.label}</button>
            </li>
        }
    });
    html! {
        <details class="topo-presets" open=true>
            <summary>{"Presets (link figures are illustrative round numbers, not measurements)"}</summary>
            <ul>{for buttons}</ul>
        </details>
    }
}
