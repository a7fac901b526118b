//! `?view=gossip`: neighbour averaging on a graph, round by round.
//!
//! Everything shown comes from [`GossipRun`](crate::core::consensus::GossipRun) in the core: the graph, the
//! mixing matrix W and its checks, the spectrum (ρ, the gap), the rounds
//! x_{r+1} = W x_r with their disagreement norms and the ρ^r bound, the
//! narration of one node's update and the worked D-SGD step. The page picks
//! the round and lays out the panels, one component per file.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::computing::pending_page;
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::{use_deferred, use_view_state};
use crate::app::route::ViewProps;
use crate::app::state::{on_commit_field, on_step, Commit};
use crate::core::work::gossip_view;
use crate::pages::common::shared::Shared;
use crate::pages::gossip::{base_run, extended, narrate, without_round};
use crate::params::gossip::{GossipParams, MAX_ROUND};
use crate::plot::gossip::draw_eigenvalues;

pub mod charts;
pub mod checks;
pub mod contrast;
pub mod controls;
pub mod dsgd;
pub mod graph;
pub mod heatmap;
pub mod history;
pub mod numbers;

use charts::GossipCharts;
use checks::{checks_panel, ChecksPanelProps};
use contrast::AllReduceContrast;
use controls::{gossip_controls, GossipControlsProps};
use dsgd::DsgdExample;
use graph::{gossip_graph, GossipGraphProps};
use heatmap::{mixing_heatmap, MixingHeatmapProps};
use history::RoundHistory;
use numbers::{round_numbers, RoundNumbersProps};

pub use crate::pages::gossip::SharedRun;

impl Commit for GossipParams {}

/// The gossip consensus view.
#[component]
pub fn GossipView(props: &ViewProps) -> Html {
    let state = use_view_state::<GossipParams>(props);
    let params = &state.params;
    let focus = use_state(|| 0usize);

    // The core computation, cached per parameter set: run to the suggested
    // horizon; the eigenvalue chart depends on W only.
    // Large p: computed after the first paint, behind a placeholder.
    let base = use_deferred(without_round(params), gossip_view(params.p as u64), |k| {
        base_run(k).map(Shared::new)
    });
    let pending = base.ready().is_none();
    let base: Rc<Result<SharedRun, String>> = base
        .ready()
        .cloned()
        .unwrap_or_else(|| Rc::new(Err(String::new())));
    let eig_svg: Rc<String> = {
        let base = base.clone();
        use_memo((without_round(params), pending), move |_| match &*base {
            // ρ only (Lanczos, large p): no eigenvalue list, so no chart
            Ok(r) if r.spectrum.eigenvalues.is_empty() => String::new(),
            Ok(r) => draw_eigenvalues(&r.spectrum).unwrap_or_else(|e| format!("<p>{e}</p>")),
            Err(_) => String::new(),
        })
    };
    let horizon = base.as_ref().as_ref().map_or(0, |r| r.suggested_horizon());
    let last = horizon.max(params.round).min(MAX_ROUND as usize);
    let round = params.round.min(last);
    // Stepping past the horizon extends a copy of the run (never mutated in place).
    let run: Rc<Result<SharedRun, String>> = {
        let base = base.clone();
        use_memo(
            (without_round(params), last, pending),
            move |(_, last, _)| {
                let r = (*base).clone()?;
                Ok(match extended(&r, *last) {
                    Some(longer) => Shared::new(longer),
                    None => r,
                })
            },
        )
    };

    let ctx = &props.ctx;
    let fields = [
        "graph", "p", "rows", "cols", "init", "seed", "target", "weights",
    ];
    let errors = state
        .drafts
        .orphans_html(ctx.on_screen("controls", &fields));
    let (errors_top, errors_below) = ctx.place_errors("controls", errors);
    let controls = html! {
        <>
            {errors_top}
            {ctx.panel("controls", html! { {gossip_controls(&GossipControlsProps { params: state.params.clone(), drafts: state.drafts.clone(), on_commit: on_commit_field(&state) })} })}
            {errors_below}
        </>
    };
    let title = ctx.panel("title", html! { <h1>{"Gossip consensus"}</h1> });
    let run = match &*run {
        Ok(r) => r.clone(),
        Err(_) if pending => {
            let what = format!(
                "the spectrum and rounds of gossip on a {} graph of p = {} nodes",
                params.graph.label(),
                params.p
            );
            return pending_page("view-gossip", title, controls, what.into());
        }
        Err(e) => {
            return html! {
                <div class="view view-gossip">
                    {title}
                    {controls}
                    <p class="field-error" role="alert">{format!("Could not compute these parameters: {e}")}</p>
                </div>
            };
        }
    };
    let p = params.p;
    let focus_node = (*focus).min(p - 1);
    let on_focus = {
        let focus = focus.clone();
        Callback::from(move |i: usize| focus.set(i))
    };
    let phase = format!(
        "Round {round} of {last} · {}, p = {p} · W: {}",
        run.graph.kind, params.weights
    );

    html! {
        <div class="view view-gossip">
            {ctx.panel("title", html! {<>
                <h1>{"Gossip consensus"}</h1>
                <p class="lede">
                    {"Each node repeatedly replaces its value by a weighted average of its own and its neighbours' values: x ← W x. The disagreement shrinks like ρʳ, where ρ is the largest eigenvalue magnitude of W apart from the consensus eigenvalue 1."}
                </p>
            </>})}
            {controls}
            {ctx.panel("steps", html! {<>
                <div class="status">
                    <p class="phase" id="phase">{phase}</p>
                    <p class="narration" id="narration" aria-live="polite">{narrate(&run, round, focus_node)}</p>
                </div>
                <StepControls step={round} {last} on_step={on_step(&state, "round")} unit="Round" />
            </>})}
            {ctx.panel("graph", gossip_graph(&GossipGraphProps { run: run.clone(), round, focus: focus_node, on_focus }))}
            <div class="panels">
                {ctx.panel("numbers", html! { {round_numbers(&RoundNumbersProps { run: run.clone(), round })} })}
                {ctx.panel("history", html! { <RoundHistory run={run.clone()} {round} /> })}
                {ctx.panel("checks", html! { {checks_panel(&ChecksPanelProps { run: run.clone() })} })}
                {ctx.panel("heatmap", mixing_heatmap(&MixingHeatmapProps { run: run.clone(), weights: params.weights, focus: focus_node }))}
                {ctx.panel("charts", html! {
                    <GossipCharts run={run.clone()} {round} {last} eig_svg={AttrValue::from((*eig_svg).clone())} />
                })}
                {ctx.panel("dsgd", html! { <DsgdExample /> })}
                {ctx.panel("contrast", html! { <AllReduceContrast run={run.clone()} {round} /> })}
            </div>
        </div>
    }
}
