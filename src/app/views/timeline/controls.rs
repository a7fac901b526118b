//! The timeline's form: algorithm, link fields (flat topology), γ,
//! segments, the three fault lists and the mode.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::link_fields::{link_fields, LinkFieldsProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::app::state::{commit_to, OnCommit};
use crate::core::collectives::Algorithm;
use crate::params::timeline::TimelineParams;

/// Props of [`timeline_controls`].
#[derive(PartialEq)]
pub struct TimelineControlsProps {
    /// The view's last good parameters.
    pub params: TimelineParams,
    /// Rejected texts and their messages, per field.
    pub drafts: Drafts,
    /// Commits `(field, text)`.
    pub on_commit: OnCommit,
}

/// The fields of the timeline view.
pub fn timeline_controls(props: &TimelineControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let algs = Algorithm::all()
        .map(|a| {
            (
                a.key().into(),
                format!("{} ({})", a.label(), a.key()).into(),
            )
        })
        .collect::<Vec<_>>();
    let modes = [
        ("both", "both"),
        ("dataflow", "dataflow"),
        ("lockstep", "lock-step"),
    ]
    .map(|(k, l)| (AttrValue::from(k), AttrValue::from(l)))
    .to_vec();
    let text = |name: &'static str, label: &'static str, value: &str, hint: &'static str| {
        html! {
            {text_field(&TextFieldProps { name: name.into(), label: label.into(), value: (d.text_or(name, value)).into(), error: d.error(name), hint: Some((AttrValue::from(hint)).into()), on_commit: commit_to(&props.on_commit, name) })}
        }
    };
    let shape = params.shape.as_ref().map(|s| {
        format!(
            "On {} nodes of {} ranks (the topology view's links): p = {}.",
            s.node_count(),
            s.gpus,
            params.p
        )
    });
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {select_field(&SelectFieldProps { name: "alg".into(), label: "Algorithm".into(), class: "full-row".into(), options: algs, selected: params.alg.key().into(), error: d.error("alg"), on_commit: commit_to(&props.on_commit, "alg") })}
            if let Some(s) = shape {
                <p class="muted full-row">{s}</p>
            } else {
                {link_fields(&LinkFieldsProps { drafts: d.clone(), p: params.p, p_hint: "2 to 256".into(), size: (params.size.text.clone(), params.size.value), bw: params.bw.text.clone(), alpha: params.alpha.text.clone(), on_commit: props.on_commit.clone() })}
            }
            {text("gamma", "Reduce cost γ", &params.gamma.text, "time per byte, e.g. 0.01ns/B")}
            {text("segments", "Segments k", &params.segments.to_string(), "pieces per message, 1 to 1024")}
            {text("late", "Late ranks", &params.late.text, "RANK:TIME, e.g. 2:5ms; - for none")}
            {text("slow", "Slow ranks", &params.slow.text, "RANK:FACTOR, 0 < FACTOR ≤ 1, e.g. 1:0.5")}
            {text("fail", "Failed ranks", &params.fail.text, "RANK@TIME, e.g. 2@3ms")}
            {select_field(&SelectFieldProps { name: "mode".into(), label: "Mode".into(), options: modes, selected: params.mode.key().into(), error: d.error("mode"), on_commit: commit_to(&props.on_commit, "mode"), class: Classes::new() })}
        </form>
    }
}
