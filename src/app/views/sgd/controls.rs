//! The training controls: narrated strategy, IID shards, gossip graph and
//! weight rule, learning rate and decay, mini-batch, steps, seed, local
//! SGD's averaging period h and d.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::app::menus::{graph_options, rule_options};
use crate::app::state::{check_to, commit_to, OnCommit};
use crate::core::sgd::Strategy;
use crate::params::sgd::SgdParams;

fn mode_options() -> Vec<(AttrValue, AttrValue)> {
    Strategy::ALL
        .iter()
        .map(|s| (s.key().into(), s.label().into()))
        .collect()
}

/// Props of [`sgd_controls`].
#[derive(PartialEq)]
pub struct SgdControlsProps {
    /// The view's last good parameters.
    pub params: SgdParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// The training form.
pub fn sgd_controls(props: &SgdControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let commit = |f: &'static str| commit_to(&props.on_commit, f);
    let batch_text = if params.batch == 0 {
        "full".to_string()
    } else {
        params.batch.to_string()
    };
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {select_field(&SelectFieldProps { name: "mode".into(), label: "Narrate".into(), options: mode_options(), selected: params.mode.key().into(), on_commit: commit("mode"), error: None, class: Classes::new() })}
            <div class="field checkbox">
                <label><input type="checkbox" checked={params.iid} onchange={check_to(&props.on_commit, "iid")} />{" IID shards"}</label>
                <small class="hint">{if params.iid { "same distribution on every shard" } else { "non-IID: own input region and true weights per shard" }}</small>
            </div>
            {select_field(&SelectFieldProps { name: "graph".into(), label: "Gossip graph".into(), options: graph_options(), selected: params.graph.key().into(), error: d.error("graph"), on_commit: commit("graph"), class: Classes::new() })}
            {select_field(&SelectFieldProps { name: "weights".into(), label: "Weight rule".into(), options: rule_options(), selected: params.weights.key().into(), error: d.error("weights"), on_commit: commit("weights"), class: Classes::new() })}
            {text_field(&TextFieldProps { name: "lr".into(), label: "Learning rate η".into(), value: (d.text_or("lr", &crate::core::units::decimal::shortest(params.lr))).into(), error: d.error("lr"), hint: Some((AttrValue::from("above 0, up to 10")).into()), on_commit: commit("lr") })}
            {text_field(&TextFieldProps { name: "decay".into(), label: "Decay: η_t = η/(1 + decay·(t−1))".into(), value: (d.text_or("decay", &crate::core::units::decimal::shortest(params.decay))).into(), error: d.error("decay"), hint: Some((AttrValue::from("0 = constant η")).into()), on_commit: commit("decay") })}
            {text_field(&TextFieldProps { name: "batch".into(), label: "Mini-batch per worker".into(), value: (d.text_or("batch", &batch_text)).into(), error: d.error("batch"), hint: Some((AttrValue::from("samples, or full for the whole shard")).into()), on_commit: commit("batch") })}
            {text_field(&TextFieldProps { name: "steps".into(), label: "Steps".into(), value: (d.text_or("steps", &params.steps.to_string())).into(), error: d.error("steps"), hint: Some((AttrValue::from("1 to 1000")).into()), on_commit: commit("steps") })}
            {text_field(&TextFieldProps { name: "seed".into(), label: "Seed".into(), value: (d.text_or("seed", &params.seed.to_string())).into(), error: d.error("seed"), hint: Some((AttrValue::from("data and mini-batches")).into()), on_commit: commit("seed") })}
            {text_field(&TextFieldProps { name: "h".into(), label: "Local SGD: average every h steps".into(), value: (d.text_or("h", &params.h.map_or_else(|| "never".to_string(), |h| h.to_string()))).into(), error: d.error("h"), hint: Some((AttrValue::from("1 to 1000, or never (no communication)")).into()), on_commit: commit("h") })}
            {text_field(&TextFieldProps { name: "d".into(), label: "Parameters d".into(), value: (d.text_or("d", &params.d.to_string())).into(), error: d.error("d"), hint: Some((AttrValue::from("1 to 10; the picture needs d = 2")).into()), on_commit: commit("d") })}
        </form>
    }
}
