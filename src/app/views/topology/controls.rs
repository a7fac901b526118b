//! The parameter form: algorithm, shape, size and link fields. Every input
//! commits through one callback `(field, text)`; the reducer validates.

use yew::prelude::*;

use crate::app::components::field::{text_field, Drafts, TextFieldProps};
use crate::core::collectives::Algorithm;
use crate::core::units::{format_size, group_thousands};
use crate::params::topology::{TensorSize, TopologyParams};

/// Props of [`controls`].
#[derive(PartialEq)]
pub struct ControlsProps {
    /// Last good parameters.
    pub params: TopologyParams,
    /// Rejected texts and their messages.
    pub drafts: Drafts,
    /// Called with (field, text) when an input is committed.
    pub on_commit: Callback<(&'static str, String)>,
}

/// The fields that have an input here: every URL key of the view
/// (errors of other keys show above the picture).
pub const ON_SCREEN: [&str; 14] = crate::params::topology::KEYS;

/// The form.
pub fn controls(props: &ControlsProps) -> Html {
    let p = &props.params;
    let d = &props.drafts;
    let commit = |field: &'static str| {
        let cb = props.on_commit.clone();
        Callback::from(move |text: String| cb.emit((field, text)))
    };
    let on_alg = {
        let cb = props.on_commit.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            cb.emit(("alg", sel.value()));
        })
    };
    let groups_text = p
        .groups
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let (size_text, n_text) = match &p.size {
        TensorSize::Bytes(f) => (f.text.clone(), String::new()),
        TensorSize::Elements(n) => (String::new(), n.to_string()),
    };
    let field = |name: &'static str, label: &'static str, good: String, hint: String| {
        html! {
            {text_field(&TextFieldProps { name: name.into(), label: label.into(), value: (d.text_or(name, &good)).into(), error: d.error(name), hint: Some((AttrValue::from(hint)).into()), on_commit: commit(name) })}
        }
    };
    let bytes_hint = format!(
        "{} = {} f32 elements",
        format_size(p.size.bytes()),
        group_thousands(p.elements())
    );
    html! {
        <form class="controls topo-controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class={classes!("field", "full-row", d.error("alg").is_some().then_some("invalid"))}>
                <label for="f-alg">{"Algorithm"}</label>
                <select id="f-alg" name="alg" onchange={on_alg}>
                    { for Algorithm::on_topologies().map(|a| html! {
                        <option value={a.topology_info().key} selected={a == p.alg}>{format!("{} ({})", a.topology_info().short_label, a.topology_info().key)}</option>
                    }) }
                </select>
                if let Some(e) = d.error("alg") {
                    <small class="field-error" role="alert">{e}</small>
                }
            </div>
            {field("nodes", "Nodes", p.nodes.to_string(), "1 to 16".into())}
            {field("gpus", "GPUs (ranks) per node", p.gpus.to_string(), "1 to 16".into())}
            {field("groups", "Unequal groups", groups_text, "e.g. 2,3 (FlexReduce subtrees); empty = nodes × GPUs".into())}
            {field("racks", "Racks", p.racks.to_string(), format!("divides the {} nodes", p.node_count()))}
            {field("lanes", "NICs per node (lanes)", p.lanes.to_string(), "1 to GPUs per node; rank g uses NIC g mod lanes".into())}
            {field("size", "Tensor size (bytes)", size_text, bytes_hint.clone())}
            {field("n", "… or elements n", n_text, "e.g. 12 for the course's teaching tensor".into())}
            {field("intra_bw", "Intra-node bandwidth", p.intra_bw.text.clone(), "per GPU port and direction, e.g. 300GB/s".into())}
            {field("intra_alpha", "Intra-node α", p.intra_alpha.text.clone(), "e.g. 1us".into())}
            {field("inter_bw", "NIC bandwidth", p.inter_bw.text.clone(), "per NIC and direction, e.g. 12.5GB/s or 100Gb/s".into())}
            {field("inter_alpha", "Inter-node α", p.inter_alpha.text.clone(), "e.g. 5us".into())}
            {field("core_bw", "Rack core bandwidth", p.core_bw.text.clone(), "per direction, all racks together (used when racks > 1)".into())}
        </form>
    }
}
