//! The step view's form: network, model, buckets, strategy and faults.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::app::state::{commit_to, OnCommit};
use crate::core::collectives::Algorithm;
use crate::core::sgd::Strategy;
use crate::core::step::{Dtype, Sharding};
use crate::params::gossip::GraphChoice;
use crate::params::step::StepParams;

fn options(v: impl Iterator<Item = (&'static str, String)>) -> Vec<(AttrValue, AttrValue)> {
    v.map(|(k, l)| (AttrValue::from(k), AttrValue::from(l)))
        .collect()
}

/// The fields of the step view: the last good parameters `p`, the rejected
/// texts and their messages `d`, and the callback that commits
/// `(field, text)` (a plain function: no state, so no component around it).
pub fn step_controls(p: &StepParams, d: &Drafts, on_commit: &OnCommit) -> Html {
    let text = |name: &'static str, label: &'static str, value: String, hint: &'static str| {
        html! {
            {text_field(&TextFieldProps { name: name.into(), label: label.into(), value: (d.text_or(name, &value)).into(), error: d.error(name), hint: Some((AttrValue::from(hint)).into()), on_commit: commit_to(on_commit, name) })}
        }
    };
    let algs = options(
        Algorithm::compared()
            .iter()
            .map(|a| (a.key(), format!("{} ({})", a.label(), a.key()))),
    );
    let dtypes = options(Dtype::ALL.iter().map(|t| (t.key(), t.key().to_string())));
    // all-reduce SGD (DDP), ZeRO-2 or FSDP, then the other strategies
    let modes = options(
        Sharding::ALL
            .iter()
            .map(|z| match z {
                Sharding::Ddp => (z.key(), Strategy::AllReduce.label().to_string()),
                _ => (z.key(), z.label().to_string()),
            })
            .chain(
                Strategy::ALL[1..]
                    .iter()
                    .map(|s| (s.key(), s.label().to_string())),
            ),
    );
    let mode = if p.sharding == Sharding::Ddp {
        p.mode.key()
    } else {
        p.sharding.key()
    };
    let graphs = options(
        GraphChoice::ALL
            .iter()
            .map(|g| (g.key(), g.label().to_string())),
    );
    let overlap = options(
        [
            ("1", "during backward".to_string()),
            ("0", "after backward".to_string()),
        ]
        .into_iter(),
    );
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            {select_field(&SelectFieldProps { name: "alg".into(), label: "All-reduce".into(), class: "span2".into(), options: algs, selected: p.alg.key().into(), error: d.error("alg"), on_commit: commit_to(on_commit, "alg") })}
            {text("p", "Workers p", p.p.to_string(), "2 to 256")}
            {text("bw", "Bandwidth", p.bw.text.clone(), "e.g. 12.5GB/s or 100Gb/s")}
            {text("alpha", "Start-up α", p.alpha.text.clone(), "e.g. 20us")}
            {text("layers", "Layers L", p.layers.to_string(), "1 to 1000")}
            {text("params", "Parameters per layer", p.params.text.clone(), "a count: 25M, 1.5B; or a list")}
            {select_field(&SelectFieldProps { name: "dtype".into(), label: "Gradient type".into(), options: dtypes, selected: p.dtype.key().into(), error: d.error("dtype"), on_commit: commit_to(on_commit, "dtype"), class: Classes::new() })}
            {text("fwd", "Forward time", p.fwd.text.clone(), "whole model, e.g. 25ms")}
            {text("bwd", "Backward time per layer", p.bwd.text.clone(), "one time, or one per layer")}
            {text("bucket", "Bucket cap", p.bucket.text.clone(), "DDP 25MiB; a plain number is MiB")}
            {text("first", "First bucket cap", p.first.text.clone(), "DDP 1MiB")}
            {select_field(&SelectFieldProps { name: "overlap".into(), label: "All-reduce starts".into(), class: "span2".into(), options: overlap, selected: (if p.overlap { "1" } else { "0" }).into(), error: d.error("overlap"), on_commit: commit_to(on_commit, "overlap") })}
            {text("samples", "Samples per worker per step", opt(p.samples.map(|s| s.to_string())), "for samples/s; - for none")}
            {select_field(&SelectFieldProps { name: "mode".into(), label: "Strategy highlighted".into(), options: modes, selected: mode.into(), error: d.error("mode"), on_commit: commit_to(on_commit, "mode"), class: Classes::new() })}
            {text("optim", "Optimizer state K", p.optim.text.clone(), "bytes per parameter; Adam 12")}
            {select_field(&SelectFieldProps { name: "graph".into(), label: "D-PSGD graph".into(), options: graphs, selected: p.graph.key().into(), error: d.error("graph"), on_commit: commit_to(on_commit, "graph"), class: Classes::new() })}
            {text("h", "Local SGD: average every h steps", opt(p.h.map(|h| h.to_string())), "1 to 1000; - or 0 for never")}
            {text("straggler", "Straggler", opt(p.straggler.map(|s| format!("{}:{}", s.rank, crate::core::units::decimal::shortest(s.factor)))), "RANK:FACTOR, e.g. 3:0.5")}
            {text("fail", "Failure", opt(p.fail.map(|f| format!("{}@{}", f.rank, f.step))), "RANK@STEP, e.g. 3@25")}
            {text("ckpt", "Checkpoint every", opt(p.ckpt.map(|c| c.to_string())), "steps; - for never")}
            {text("restart", "Restart time", opt(p.restart.as_ref().map(|r| r.text.clone())), "e.g. 30s")}
            {text("target", "Target loss", opt(p.target.map(crate::core::units::decimal::shortest)), "for time to quality")}
        </form>
    }
}
