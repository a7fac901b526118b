//! The gossip view's form: graph, size (p, or rows × columns for the
//! torus), weight rule, initial values, graph seed and target reduction.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::app::menus::{graph_options, rule_options};
use crate::app::state::{commit_to, OnCommit};
use crate::params::gossip::{GossipParams, GraphChoice};

/// Props of [`gossip_controls`].
#[derive(PartialEq)]
pub struct GossipControlsProps {
    /// The view's last good parameters.
    pub params: GossipParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// The gossip view's fields.
pub fn gossip_controls(props: &GossipControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let p = params.p;
    let torus = params.graph == GraphChoice::Torus;
    let commit = |f: &'static str| commit_to(&props.on_commit, f);
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {select_field(&SelectFieldProps { name: "graph".into(), label: "Graph".into(), options: graph_options(), selected: params.graph.key().into(), on_commit: commit("graph"), error: d.error("graph"), class: Classes::new() })}
            if torus {
                {text_field(&TextFieldProps { name: "rows".into(), label: "Rows".into(), value: (d.text_or("rows", &params.rows.to_string())).into(), error: d.error("rows"), hint: Some((AttrValue::from(format!("p = rows × cols = {p}"))).into()), on_commit: commit("rows") })}
                {text_field(&TextFieldProps { name: "cols".into(), label: "Columns".into(), value: (d.text_or("cols", &params.cols.to_string())).into(), error: d.error("cols"), on_commit: commit("cols"), hint: None })}
            } else {
                {text_field(&TextFieldProps { name: "p".into(), label: "Nodes p".into(), value: (d.text_or("p", &p.to_string())).into(), error: d.error("p"), hint: Some((AttrValue::from("2 to 1024; drawn up to 64")).into()), on_commit: commit("p") })}
            }
            {select_field(&SelectFieldProps { name: "weights".into(), label: "Weights".into(), options: rule_options(), selected: params.weights.key().into(), error: d.error("weights"), on_commit: commit("weights"), class: Classes::new() })}
            {text_field(&TextFieldProps { name: "init".into(), label: "Initial values".into(), value: (d.text_or("init", &params.init.text)).into(), error: d.error("init"), hint: Some((AttrValue::from("comma list, linear (0, 3, 6, …) or random:SEED")).into()), on_commit: commit("init") })}
            if params.graph == GraphChoice::Random {
                {text_field(&TextFieldProps { name: "seed".into(), label: "Graph seed".into(), value: (d.text_or("seed", &params.seed.to_string())).into(), error: d.error("seed"), hint: Some((AttrValue::from("same seed, same graph")).into()), on_commit: commit("seed") })}
            }
            {text_field(&TextFieldProps { name: "target".into(), label: "Target reduction F".into(), value: (d.text_or("target", &params.target.text)).into(), error: d.error("target"), hint: Some((AttrValue::from("e.g. 100 for a 100× smaller disagreement")).into()), on_commit: commit("target") })}
        </form>
    }
}
