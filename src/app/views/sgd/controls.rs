//! The training controls: narrated strategy, IID shards, gossip graph and
//! weight rule, learning rate and decay, mini-batch, steps, seed, local
//! SGD's averaging period h and d.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::TextField;
use crate::app::components::select_field::SelectField;
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

/// Props of [`SgdControls`].
#[derive(Properties, PartialEq)]
pub struct SgdControlsProps {
    /// The view's last good parameters.
    pub params: SgdParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// The training form.
#[component]
pub fn SgdControls(props: &SgdControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let commit = |f: &'static str| commit_to(&props.on_commit, f);
    let batch_text = if params.batch == 0 {
        "full".to_string()
    } else {
        params.batch.to_string()
    };
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <SelectField name="mode" label="Narrate" options={mode_options()}
                selected={params.mode.key()} on_commit={commit("mode")} />
            <div class="field checkbox">
                <label><input type="checkbox" checked={params.iid} onchange={check_to(&props.on_commit, "iid")} />{" IID shards"}</label>
                <small class="hint">{if params.iid { "same distribution on every shard" } else { "non-IID: own input region and true weights per shard" }}</small>
            </div>
            <SelectField name="graph" label="Gossip graph" options={graph_options()}
                selected={params.graph.key()} error={d.error("graph")} on_commit={commit("graph")} />
            <SelectField name="weights" label="Weight rule" options={rule_options()}
                selected={params.weights.key()} error={d.error("weights")} on_commit={commit("weights")} />
            <TextField name="lr" label="Learning rate η" value={d.text_or("lr", &crate::core::units::decimal::shortest(params.lr))}
                error={d.error("lr")} hint={AttrValue::from("above 0, up to 10")} on_commit={commit("lr")} />
            <TextField name="decay" label="Decay: η_t = η/(1 + decay·(t−1))" value={d.text_or("decay", &crate::core::units::decimal::shortest(params.decay))}
                error={d.error("decay")} hint={AttrValue::from("0 = constant η")} on_commit={commit("decay")} />
            <TextField name="batch" label="Mini-batch per worker" value={d.text_or("batch", &batch_text)}
                error={d.error("batch")} hint={AttrValue::from("samples, or full for the whole shard")} on_commit={commit("batch")} />
            <TextField name="steps" label="Steps" value={d.text_or("steps", &params.steps.to_string())}
                error={d.error("steps")} hint={AttrValue::from("1 to 1000")} on_commit={commit("steps")} />
            <TextField name="seed" label="Seed" value={d.text_or("seed", &params.seed.to_string())}
                error={d.error("seed")} hint={AttrValue::from("data and mini-batches")} on_commit={commit("seed")} />
            <TextField name="h" label="Local SGD: average every h steps"
                value={d.text_or("h", &params.h.map_or_else(|| "never".to_string(), |h| h.to_string()))}
                error={d.error("h")} hint={AttrValue::from("1 to 1000, or never (no communication)")} on_commit={commit("h")} />
            <TextField name="d" label="Parameters d" value={d.text_or("d", &params.d.to_string())}
                error={d.error("d")} hint={AttrValue::from("1 to 10; the picture needs d = 2")} on_commit={commit("d")} />
        </form>
    }
}
