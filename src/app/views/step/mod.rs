//! `?view=step`: one data-parallel training step on the clock. Gradient
//! buckets (PyTorch DDP's rule) overlap the backward pass on one
//! communication stream, or ZeRO-2 and FSDP shard the model; the bucket
//! tuner, memory per rank under each ZeRO stage, the three strategies side
//! by side, a straggler, a failure and time to the required quality.
//!
//! The page computes the case's [`Report`](crate::core::step::report::Report) once per parameter change (the
//! core times every schedule) and lays out the panels; the tuner runs cap
//! by cap in its own panel, with progress.

use yew::prelude::*;

use crate::app::hooks::use_view_state;
use crate::app::route::ViewProps;
use crate::app::state::{on_commit_field, Commit};
use crate::core::step::Sharding;
use crate::pages::common::shared::Shared;
use crate::pages::step::step_report;
use crate::params::step::StepParams;

pub mod controls;
pub mod failure;
pub mod model_note;
pub mod presets;
pub mod quality;
pub mod sharding;
pub mod strategies;
pub mod summary;
pub mod timeline;
pub mod tuner;

use controls::step_controls;
use failure::failure_panel;
use model_note::model_note;
use presets::presets;
use quality::QualityPanel;
use sharding::sharding_panel;
use strategies::{straggler_panel, strategies_panel};
use summary::summary;
use timeline::timeline_panel;
use tuner::TunerPanel;

pub use crate::pages::step::SharedReport;

impl Commit for StepParams {}

/// The fields the controls show (for the errors of fields not on screen).
const FIELDS: &[&str] = &[
    "p",
    "alg",
    "bw",
    "alpha",
    "layers",
    "params",
    "dtype",
    "fwd",
    "bwd",
    "first",
    "bucket",
    "overlap",
    "samples",
    "mode",
    "optim",
    "graph",
    "h",
    "straggler",
    "fail",
    "ckpt",
    "restart",
    "target",
];

/// `#tuner` for the mode shown (FSDP's step does not depend on the cap).
fn tuner(r: &SharedReport, params: &StepParams) -> Html {
    let shown = r.shown_or_ddp().0;
    let fixed = (shown.mode == Sharding::Fsdp).then_some(shown.run.step_time);
    html! { <TunerPanel params={params.clone()} mode={shown.mode} {fixed} /> }
}

/// The step view.
#[component]
pub fn StepView(props: &ViewProps) -> Html {
    let state = use_view_state::<StepParams>(props);
    let params = &state.params;
    let rep = use_memo(params.clone(), |p| step_report(p).map(Shared::new));
    let ctx = &props.ctx;
    let (errors_top, errors_below) = ctx.place_errors(
        "controls",
        state.drafts.orphans_html(ctx.on_screen("controls", FIELDS)),
    );
    let body = match &*rep {
        Err(e) => html! { <p class="field-error" role="alert">{e.clone()}</p> },
        Ok(r) => html! {<>
            {ctx.panel("timeline", timeline_panel(r, params))}
            <div class="panels">
                {ctx.panel("summary", summary(r, params))}
                {ctx.panel("tuner", tuner(r, params))}
                {ctx.panel("sharding", sharding_panel(r, params))}
                {ctx.panel("strategies", strategies_panel(r, params))}
                {ctx.panel("straggler", straggler_panel(r, params))}
                {ctx.panel("failure", failure_panel(r, params))}
            </div>
            {ctx.panel("quality", html! { <QualityPanel report={r.clone()} params={params.clone()} /> })}
        </>},
    };
    html! {
        <div class="view view-step">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"Training step: buckets, overlap and time to quality"}</h1>
                <p class="lede">
                    {"One data-parallel step on the clock. Gradients become ready layer by layer, last layer first; \
                      PyTorch DDP groups them into buckets and all-reduces each bucket as soon as it is full, \
                      while the backward pass goes on. One step need not be one all-reduce call. \
                      mode=zero2 and mode=fsdp shard the model instead."}
                </p>
            </>})}
            {ctx.panel("presets", presets())}
            {ctx.panel("controls", step_controls(&state.params, &state.drafts, &on_commit_field(&state)))}
            {errors_below}
            {body}
            {ctx.panel("model", model_note())}
        </div>
    }
}
