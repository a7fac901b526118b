//! The gossip view's form: graph, size (p, or rows × columns for the
//! torus), weight rule, initial values, graph seed and target reduction.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::TextField;
use crate::app::components::select_field::SelectField;
use crate::app::menus::{graph_options, rule_options};
use crate::app::state::{commit_to, OnCommit};
use crate::params::gossip::{GossipParams, GraphChoice};

/// Props of [`GossipControls`].
#[derive(Properties, PartialEq)]
pub struct GossipControlsProps {
    /// The view's last good parameters.
    pub params: GossipParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// The gossip view's fields.
#[component]
pub fn GossipControls(props: &GossipControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let p = params.p;
    let torus = params.graph == GraphChoice::Torus;
    let commit = |f: &'static str| commit_to(&props.on_commit, f);
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <SelectField name="graph" label="Graph" options={graph_options()}
                selected={params.graph.key()} on_commit={commit("graph")} />
            if torus {
                <TextField name="rows" label="Rows" value={d.text_or("rows", &params.rows.to_string())}
                    error={d.error("rows")} hint={AttrValue::from(format!("p = rows × cols = {p}"))} on_commit={commit("rows")} />
                <TextField name="cols" label="Columns" value={d.text_or("cols", &params.cols.to_string())}
                    error={d.error("cols")} on_commit={commit("cols")} />
            } else {
                <TextField name="p" label="Nodes p" value={d.text_or("p", &p.to_string())}
                    error={d.error("p")} hint={AttrValue::from("2 to 1024; drawn up to 64")} on_commit={commit("p")} />
            }
            <SelectField name="weights" label="Weights" options={rule_options()}
                selected={params.weights.key()} error={d.error("weights")} on_commit={commit("weights")} />
            <TextField name="init" label="Initial values" value={d.text_or("init", &params.init.text)}
                error={d.error("init")} hint={AttrValue::from("comma list, linear (0, 3, 6, …) or random:SEED")}
                on_commit={commit("init")} />
            if params.graph == GraphChoice::Random {
                <TextField name="seed" label="Graph seed" value={d.text_or("seed", &params.seed.to_string())}
                    error={d.error("seed")} hint={AttrValue::from("same seed, same graph")} on_commit={commit("seed")} />
            }
            <TextField name="target" label="Target reduction F" value={d.text_or("target", &params.target.text)}
                error={d.error("target")} hint={AttrValue::from("e.g. 100 for a 100× smaller disagreement")}
                on_commit={commit("target")} />
        </form>
    }
}
