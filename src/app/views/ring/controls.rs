//! The ring view's form: the four link fields, the mean step and what the
//! counters count.

use yew::prelude::*;

use crate::app::components::field::TextField;
use crate::app::hooks::{on_check, on_commit, on_select, ViewHandle};
use crate::core::units::format_size;
use crate::params::ring::{Accounting, RingParams};

/// Props of [`RingControls`].
#[derive(Properties, PartialEq)]
pub struct RingControlsProps {
    /// The view's state.
    pub state: ViewHandle<RingParams>,
}

/// Ranks, size, bandwidth, α, the mean step and the byte accounting.
#[component]
pub fn RingControls(props: &RingControlsProps) -> Html {
    let state = &props.state;
    let (params, d) = (&state.params, &state.drafts);
    let commit = |f: &'static str| on_commit(state, f);
    let both = params.count == Accounting::SentAndReceived;
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <TextField name="p" label="Ranks p" value={d.text_or("p", &params.p.to_string())}
                error={d.error("p")} hint={AttrValue::from("2 to 1024; drawn up to 64")} on_commit={commit("p")} />
            <TextField name="size" label="Tensor size n" value={d.text_or("size", &params.size.text)}
                error={d.error("size")} hint={AttrValue::from(format_size(params.size.value))} on_commit={commit("size")} />
            <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &params.bw.text)}
                error={d.error("bw")} hint={AttrValue::from("e.g. 12.5GB/s or 100Gb/s")} on_commit={commit("bw")} />
            <TextField name="alpha" label="Latency α" value={d.text_or("alpha", &params.alpha.text)}
                error={d.error("alpha")} hint={AttrValue::from("e.g. 0us, 5us, 2ms")} on_commit={commit("alpha")} />
            <div class="field checkbox">
                <label><input type="checkbox" checked={params.mean} onchange={on_check(state, "mean")} />{" Show the mean (÷ p) step"}</label>
            </div>
            <div class="field">
                <label for="f-count">{"Count"}</label>
                <select id="f-count" onchange={on_select(state, "count")}>
                    <option value="sent" selected={!both}>{"bytes sent"}</option>
                    <option value="both" selected={both}>{"bytes sent + received"}</option>
                </select>
            </div>
        </form>
    }
}
