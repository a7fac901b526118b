//! The ring view's form: the four link fields, the mean step and what the
//! counters count.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::link_fields::{link_fields, LinkFieldsProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::app::state::{check_to, commit_to, OnCommit};
use crate::params::ring::{Accounting, RingParams};

fn count_options() -> Vec<(AttrValue, AttrValue)> {
    vec![
        ("sent".into(), "bytes sent".into()),
        ("both".into(), "bytes sent + received".into()),
    ]
}

/// Props of [`RingControls`].
#[derive(Properties, PartialEq)]
pub struct RingControlsProps {
    /// The view's last good parameters.
    pub params: RingParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// Ranks, size, bandwidth, α, the mean step and the byte accounting.
#[component]
pub fn RingControls(props: &RingControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let both = params.count == Accounting::SentAndReceived;
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {link_fields(&LinkFieldsProps { drafts: d.clone(), p: params.p, p_hint: "2 to 1024; drawn up to 256".into(), size: (params.size.text.clone(), params.size.value), bw: params.bw.text.clone(), alpha: params.alpha.text.clone(), on_commit: props.on_commit.clone() })}
            <div class="field checkbox">
                <label><input type="checkbox" checked={params.mean} onchange={check_to(&props.on_commit, "mean")} />{" Show the mean (÷ p) step"}</label>
            </div>
            {select_field(&SelectFieldProps { name: "count".into(), label: "Count".into(), options: count_options(), selected: (if both { "both" } else { "sent" }).into(), on_commit: commit_to(&props.on_commit, "count"), error: None, class: Classes::new() })}
        </form>
    }
}
