//! `?view=sgd`: the global objective from unequal shards, then three
//! training strategies side by side (all-reduce SGD, decentralised SGD,
//! local SGD) on the same shards, from the same start, with the same
//! mini-batches. Every number comes from [`crate::core::sgd`]; the page picks
//! the step and lays out the panels, one component per file.

use yew::prelude::*;

use crate::app::components::computing::computing;
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::{use_deferred, use_view_state, Deferred};
use crate::app::route::UrlCtx;
use crate::app::route::ViewProps;
use crate::app::state::{on_commit_all, on_commit_field, on_step, Commit};
use crate::core::sgd::narrate::{compare_step, narrate_step};
use crate::core::units::format_exact_or_approx;
use crate::pages::common::shared::Shared;
use crate::pages::sgd::{computing_text, run_key, run_lab, work};
use crate::params::sgd::SgdParams;

pub mod bytes;
pub mod calculator;
pub mod charts;
pub mod controls;
pub mod note;
pub mod objective;
pub mod optima;
pub mod step_weighting;
pub mod strategy_table;

use crate::app::components::scroll_x::{scroll_x, ScrollXProps};
use bytes::{bytes_panel, BytesPanelProps};
use calculator::{shard_calculator, use_shard_table, ShardCalculatorProps};
use charts::{sgd_charts, use_sgd_charts, SgdChartSet, SgdChartsProps};
use controls::{sgd_controls, SgdControlsProps};
use note::agreement_note;
use optima::{optima_panel, OptimaPanelProps};
use strategy_table::{strategy_table, StrategyTableProps};

pub use crate::pages::sgd::SharedLab;

impl Commit for SgdParams {}

/// The sgd view.
#[component]
pub fn SgdView(props: &ViewProps) -> Html {
    let state = use_view_state::<SgdParams>(props);
    let params = &state.params;
    let run: Deferred<Result<SharedLab, String>> =
        use_deferred(run_key(params), work(params), |k| {
            run_lab(k).map(Shared::new)
        });
    let lab = match run.ready().map(|r| &**r) {
        Some(Ok(lab)) => Some(lab.clone()),
        _ => None,
    };
    let charts = use_sgd_charts(lab, params.step);
    let shard_table = use_shard_table(params, &state.drafts);
    let ctx = &props.ctx;
    let fields = [
        "lr", "decay", "batch", "steps", "seed", "d", "h", "graph", "weights", "shards", "losses",
    ];
    let errors = state
        .drafts
        .orphans_html(ctx.on_screen("controls", &fields));
    let (errors_top, errors_below) = ctx.place_errors("controls", errors);
    let controls = html! {
        <>
            {ctx.panel("controls", html! { {sgd_controls(&SgdControlsProps { params: state.params.clone(), drafts: state.drafts.clone(), on_commit: on_commit_field(&state) })} })}
            {errors_below}
        </>
    };
    let body = match run.ready().map(|r| &**r) {
        None => html! {
            <>
                {controls}
                {computing(AttrValue::from(computing_text(params)))}
            </>
        },
        Some(Ok(run)) => training(
            run,
            params,
            controls,
            on_step(&state, "step"),
            (charts, ctx),
        ),
        Some(Err(e)) => html! {
            <>
                {controls}
                <p class="field-error" role="alert" id="run-error">{format!("Training cannot run with these parameters: {e}")}</p>
            </>
        },
    };
    html! {
        <div class="view view-sgd">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"Distributed SGD"}</h1>
                <p class="lede">
                    {"First the objective: unequal shards must be weighted by their sample counts. Then three ways to train on the same shards, from the same start and with the same mini-batches: all-reduce SGD (one common update), decentralised SGD (local models mixed with neighbours) and local SGD without communication."}
                </p>
            </>})}
            {ctx.panel("calculator", shard_calculator(&ShardCalculatorProps { params: state.params.clone(), table: shard_table, on_commit_all: on_commit_all(&state) }))}
            {body}
        </div>
    }
}

/// The training half of the page, once the run exists.
fn training(
    run: &SharedLab,
    params: &SgdParams,
    controls: Html,
    on_step: Callback<usize>,
    (charts, ctx): (SgdChartSet, &UrlCtx),
) -> Html {
    let (problem, _, lab) = &**run;
    let last = lab.last_step();
    let step = params.step.min(last);
    let batch_label = if params.batch == 0 {
        "whole shard".to_string()
    } else {
        format!("mini-batch of {} samples", params.batch)
    };
    let stable = 2.0 / problem.max_curvature().max(f64::MIN_POSITIVE);
    html! {
        <>
            {ctx.panel("controls", html! {<>
                <h2>{"Training side by side"}</h2>
                <p class="muted">{format!(
                    "{} workers, {} samples, d = {}, {} shards; least squares with label noise σ = 0.1. Plain gradient steps are stable for η below {} (2 / the largest curvature).",
                    problem.m(), problem.total(), problem.d(), if params.iid { "IID" } else { "non-IID" }, format_exact_or_approx(stable))}</p>
            </>})}
            {controls}
            {ctx.panel("steps", html! {<>
                <div class="status">
                    <p class="phase" id="phase">{format!("Step {step} of {last} · narrating {}", params.mode.label())}</p>
                    <p class="narration" id="narration" aria-live="polite">{narrate_step(lab, params.mode, step, &batch_label)}</p>
                    <p id="comparison">{compare_step(lab, step)}</p>
                </div>
                <StepControls {step} {last} {on_step} unit="Step" interval_ms={60} />
            </>})}
            {ctx.panel("strategies", html! {
                <section class="panel wide" aria-labelledby="now-h">
                    <h3 id="now-h">{format!("At step {step}")}</h3>
                    {scroll_x(&ScrollXProps {
                        label: "Strategies at this step (scrollable table)".into(),
                        children: strategy_table(&StrategyTableProps { run: run.clone(), step }),
                    })}
                </section>
            })}
            {ctx.panel("charts", sgd_charts(&SgdChartsProps { charts, d: problem.d() }))}
            <div class="panels">
                {ctx.panel("optima", html! { {optima_panel(&OptimaPanelProps { run: run.clone() })} })}
                {ctx.panel("agreement", html! { {agreement_note()} })}
                {ctx.panel("bytes", html! { {bytes_panel(&BytesPanelProps { run: run.clone() })} })}
            </div>
        </>
    }
}
