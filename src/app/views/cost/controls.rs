//! The cost view's form: preset, p, n, α, the link (bandwidth or β) and γ.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::TextField;
use crate::app::components::select_field::SelectField;
use crate::app::state::{commit_to, OnCommit};
use crate::core::units::{format_bandwidth, format_beta, format_size};
use crate::params::cost::{CostViewParams, Link, Preset, MAX_P};

fn preset_options() -> Vec<(AttrValue, AttrValue)> {
    let mut v: Vec<(AttrValue, AttrValue)> = vec![("".into(), "custom values".into())];
    v.extend(
        Preset::all()
            .into_iter()
            .map(|pr| (pr.key().into(), pr.label().into())),
    );
    v
}

/// Props of [`cost_controls`].
#[derive(PartialEq)]
pub struct CostControlsProps {
    /// The view's last good parameters.
    pub params: CostViewParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// The cost view's fields.
pub fn cost_controls(props: &CostControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let p = params.p;
    let commit = |f: &'static str| commit_to(&props.on_commit, f);
    let preset_value = params.preset.map_or("", Preset::key);
    // Both link fields show the link, whichever one was given.
    let (bw_text, beta_text) = match &params.link {
        Link::Bandwidth(b) => (b.text.clone(), format_beta(b.value.beta()).replace(' ', "")),
        Link::Beta(b) => (
            format_bandwidth(1.0 / b.value).replace(' ', ""),
            b.text.clone(),
        ),
    };
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <SelectField name="preset" label="Preset (illustrative)" options={preset_options()}
                selected={preset_value} on_commit={commit("preset")} />
            <TextField name="p" label="Ranks p" value={d.text_or("p", &p.to_string())}
                error={d.error("p")} hint={AttrValue::from(format!("2 to {MAX_P}"))} on_commit={commit("p")} />
            <TextField name="size" label="Message size n" value={d.text_or("size", &params.size.text)}
                error={d.error("size")} hint={AttrValue::from(format_size(params.size.value.bytes))} on_commit={commit("size")} />
            <TextField name="alpha" label="Start-up latency α" value={d.text_or("alpha", &params.alpha.text)}
                error={d.error("alpha")} hint={AttrValue::from("s, ms, µs (us) or ns, e.g. 5us")} on_commit={commit("alpha")} />
            <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &bw_text)}
                error={d.error("bw")} hint={AttrValue::from("e.g. 100Gb/s or 12.5GB/s")} on_commit={commit("bw")} />
            <TextField name="beta" label="… or β directly" value={d.text_or("beta", &beta_text)}
                error={d.error("beta")} hint={AttrValue::from("seconds per byte, e.g. 0.08ns/B")} on_commit={commit("beta")} />
            <TextField name="gamma" label="Reduction cost γ (optional)"
                value={d.text_or("gamma", &params.gamma.as_ref().map_or_else(|| "0ns/B".to_string(), |g| g.text.clone()))}
                error={d.error("gamma")} hint={AttrValue::from("per byte reduced; 0 ignores compute")} on_commit={commit("gamma")} />
        </form>
    }
}
