//! The collectives view's form: the algorithm menu and the four link fields.

use yew::prelude::*;

use crate::app::components::field::TextField;
use crate::app::hooks::{on_commit, on_select, ViewHandle};
use crate::core::schedule::registry::Algorithm;
use crate::core::units::format_size;
use crate::params::collectives::CollectivesParams;

/// Props of [`CollectivesControls`].
#[derive(Properties, PartialEq)]
pub struct CollectivesControlsProps {
    /// The view's state.
    pub state: ViewHandle<CollectivesParams>,
}

/// Algorithm, ranks, size, bandwidth and α.
#[component]
pub fn CollectivesControls(props: &CollectivesControlsProps) -> Html {
    let state = &props.state;
    let (params, d) = (&state.params, &state.drafts);
    let commit = |f: &'static str| on_commit(state, f);
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class="field span2">
                <label for="f-alg">{"Algorithm"}</label>
                <select id="f-alg" name="alg" onchange={on_select(state, "alg")}>
                    { for Algorithm::ALL.iter().map(|a| html! {
                        <option value={a.short()} selected={*a == params.alg}>{format!("{} ({})", a.label(), a.short())}</option>
                    }) }
                </select>
            </div>
            <TextField name="p" label="Ranks p" value={d.text_or("p", &params.p.to_string())}
                error={d.error("p")} hint={AttrValue::from("2 to 64; any p, powers of two or not")} on_commit={commit("p")} />
            <TextField name="size" label="Tensor size n" value={d.text_or("size", &params.size.text)}
                error={d.error("size")} hint={AttrValue::from(format_size(params.size.value))} on_commit={commit("size")} />
            <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &params.bw.text)}
                error={d.error("bw")} hint={AttrValue::from("e.g. 12.5GB/s or 100Gb/s")} on_commit={commit("bw")} />
            <TextField name="alpha" label="Latency α" value={d.text_or("alpha", &params.alpha.text)}
                error={d.error("alpha")} hint={AttrValue::from("e.g. 0us, 5us, 2ms")} on_commit={commit("alpha")} />
        </form>
    }
}
