//! The cost view's form: preset, p, n, α, the link (bandwidth or β) and γ.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
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
            {select_field(&SelectFieldProps { name: "preset".into(), label: "Preset (illustrative)".into(), options: preset_options(), selected: preset_value.into(), on_commit: commit("preset"), error: None, class: Classes::new() })}
            {text_field(&TextFieldProps { name: "p".into(), label: "Ranks p".into(), value: (d.text_or("p", &p.to_string())).into(), error: d.error("p"), hint: Some((AttrValue::from(format!("2 to {MAX_P}"))).into()), on_commit: commit("p") })}
            {text_field(&TextFieldProps { name: "size".into(), label: "Message size n".into(), value: (d.text_or("size", &params.size.text)).into(), error: d.error("size"), hint: Some((AttrValue::from(format_size(params.size.value.bytes))).into()), on_commit: commit("size") })}
            {text_field(&TextFieldProps { name: "alpha".into(), label: "Start-up latency α".into(), value: (d.text_or("alpha", &params.alpha.text)).into(), error: d.error("alpha"), hint: Some((AttrValue::from("s, ms, µs (us) or ns, e.g. 5us")).into()), on_commit: commit("alpha") })}
            {text_field(&TextFieldProps { name: "bw".into(), label: "Link bandwidth".into(), value: (d.text_or("bw", &bw_text)).into(), error: d.error("bw"), hint: Some((AttrValue::from("e.g. 100Gb/s or 12.5GB/s")).into()), on_commit: commit("bw") })}
            {text_field(&TextFieldProps { name: "beta".into(), label: "… or β directly".into(), value: (d.text_or("beta", &beta_text)).into(), error: d.error("beta"), hint: Some((AttrValue::from("seconds per byte, e.g. 0.08ns/B")).into()), on_commit: commit("beta") })}
            {text_field(&TextFieldProps { name: "gamma".into(), label: "Reduction cost γ (optional)".into(), value: (d.text_or("gamma", &params.gamma.as_ref().map_or_else(|| "0ns/B".to_string(), |g| g.text.clone()))).into(), error: d.error("gamma"), hint: Some((AttrValue::from("per byte reduced; 0 ignores compute")).into()), on_commit: commit("gamma") })}
        </form>
    }
}
