//! The collectives view's form: the algorithm menu and the four link fields.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::link_fields::{link_fields, LinkFieldsProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::app::state::{commit_to, OnCommit};
use crate::core::collectives::Algorithm;
use crate::params::collectives::CollectivesParams;

/// Props of [`collectives_controls`].
#[derive(PartialEq)]
pub struct CollectivesControlsProps {
    /// The view's last good parameters.
    pub params: CollectivesParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// Algorithm, ranks, size, bandwidth and α.
pub fn collectives_controls(props: &CollectivesControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let options = Algorithm::all()
        .map(|a| {
            (
                a.key().into(),
                format!("{} ({})", a.label(), a.key()).into(),
            )
        })
        .collect::<Vec<_>>();
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {select_field(&SelectFieldProps { name: "alg".into(), label: "Algorithm".into(), class: "full-row".into(), options, selected: params.alg.key().into(), on_commit: commit_to(&props.on_commit, "alg"), error: None })}
            {link_fields(&LinkFieldsProps { drafts: d.clone(), p: params.p, p_hint: "2 to 64; any p, powers of two or not".into(), size: (params.size.text.clone(), params.size.value), bw: params.bw.text.clone(), alpha: params.alpha.text.clone(), on_commit: props.on_commit.clone() })}
            if params.alg.needs_nodes() {
                {text_field(&TextFieldProps { name: "gpus".into(), label: "Ranks per node".into(), value: (d.text_or("gpus", &params.gpus.to_string())).into(), error: d.error("gpus"), hint: Some((AttrValue::from(gpus_hint(params.p, params.gpus, d.error("gpus").is_some()))).into()), on_commit: commit_to(&props.on_commit, "gpus") })}
            }
        </form>
    }
}

/// The hint under "Ranks per node": the shape shown, named as the last
/// valid setting while the typed value is refused.
fn gpus_hint(p: usize, gpus: usize, refused: bool) -> String {
    let nodes = p / gpus.max(1);
    if refused {
        format!("showing {nodes} nodes of {gpus} ranks, the last valid setting")
    } else {
        format!("divides p: {nodes} nodes of {gpus}")
    }
}
