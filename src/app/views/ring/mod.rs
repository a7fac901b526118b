//! `?view=ring`: ring all-reduce of real data, chunk by chunk.
//!
//! The collectives engine fixed to the ring ([`RingRun`]: checkpointed when
//! drawn, streamed round by round above the drawn size), shown with the same
//! shared panels as the collectives view, plus the mean step (÷ p, local to each rank), the choice of counting
//! bytes sent or sent + received, and the comparison with the naive root.

use yew::prelude::*;

use crate::app::components::byte_counters::{byte_counters_panel, ByteCountersProps};
use crate::app::components::check_panel::{check_panel, Check, CheckPanelProps};
use crate::app::components::computing::pending_page;
use crate::app::components::step_controls::StepControls;
use crate::app::components::transfer_log::{transfer_log, TransferLogProps};
use crate::app::hooks::{use_after_paint, use_deferred, use_view_state};
use crate::app::route::ViewProps;
use crate::app::state::{on_commit_field, on_step, Commit};
use crate::core::timing::{ring_bytes_counted, ring_bytes_per_rank};
use crate::core::units::{format_bytes_short, group_thousands};
use crate::core::work::{ring_all_reduce, ring_values};
use crate::params::ring::{Accounting, RingParams, ELEM_BYTES, MAX_DRAWN_P};
use crate::params::timeline;

pub mod clock;
pub mod comparison;
pub mod controls;
pub mod picture;

use crate::pages::ring::run::RingRun;
use crate::pages::ring::{check, status};
use clock::{ring_clock_panel, use_ring_clock};
use comparison::{ring_vs_naive, RingVsNaiveProps};
use controls::RingControls;
use picture::RingPicture;

impl Commit for RingParams {}

/// The timeline view's link for the case on screen.
fn timeline_href(params: &RingParams) -> AttrValue {
    let (size, bw, alpha) = (&params.size.text, &params.bw.text, &params.alpha.text);
    AttrValue::from(timeline::link("ring", params.p, size, bw, alpha))
}

/// The ring view.
#[component]
pub fn RingView(props: &ViewProps) -> Html {
    let state = use_view_state::<RingParams>(props);
    let ctx = &props.ctx;
    let params = &state.params;
    let work = ring_all_reduce(params.p as u64);
    let run = use_deferred((params.p, params.size.value), work, |(p, bytes)| {
        RingRun::execute(*p, *bytes / ELEM_BYTES)
    });
    // The chunk grid (32 < p ≤ 256) of the run, once the run is there.
    let grid = use_memo(run.ready().map(|r| (**r).clone()), |run| {
        run.as_ref()
            .and_then(Option::as_ref)
            .and_then(RingRun::chunk_grid)
            .map(crate::pages::common::shared::Shared::new)
    });
    // Above the drawn size the values run the first time a step shows them
    // (the last round and the mean step). Light: the render's first read
    // executes them (the run caches them). Heavy: an effect executes them
    // after a paint and re-renders; until then the check says "executing".
    let heavy_values = run
        .ready()
        .and_then(|r| r.as_ref().as_ref())
        .and_then(|r| r.values_to_run(params.step.min(params.last_step())))
        .filter(|_| ring_values(params.p as u64).defer());
    let executing = heavy_values.is_some();
    use_after_paint(heavy_values, |run| {
        run.values();
    });
    let (errors_top, errors_below) = ctx.place_errors(
        "controls",
        state
            .drafts
            .orphans_html(ctx.on_screen("controls", &["p", "size", "bw", "alpha"])),
    );
    // The clock panel's case (above the drawn size, once the run is there).
    let clock_case = run
        .ready()
        .and_then(|r| r.as_ref().as_ref().map(|r| r.n()))
        .filter(|_| params.p > MAX_DRAWN_P)
        .map(|n| (params.p, n, params.alpha.value, params.bw.value.beta()));
    let (clock, start_clock) = use_ring_clock(clock_case);
    let Some(run) = run.ready() else {
        let what = format!(
            "the ring all-reduce of {} on p = {} ranks",
            format_bytes_short(params.size.value as f64),
            params.p
        );
        return pending_page(
            "view-ring",
            ctx.panel("title", html! { <h1>{"Ring all-reduce"}</h1> }),
            ctx.panel("controls", html! { <RingControls params={state.params.clone()} drafts={state.drafts.clone()} on_commit={on_commit_field(&state)} /> }),
            what.into(),
        );
    };
    let Some(run) = (**run).clone() else {
        return html! { <p class="field-error" role="alert">{"Could not build the ring schedule for these parameters."}</p> };
    };
    let p = params.p;
    let rounds = run.rounds();
    let last = params.last_step();
    let step = params.step.min(last);
    let mean_step = params.mean && step == rounds + 1;
    let rounds_done = step.min(rounds);

    let (phase_label, narration) = status(&run, step, mean_step, executing);

    // Counters: sent, received, and what is counted (the core's totals).
    let sent = run.sent_after(rounds_done);
    let recv = run.recv_after(rounds_done);
    let both = params.count == Accounting::SentAndReceived;
    let counted: Vec<u64> = sent
        .iter()
        .zip(&recv)
        .map(|(s, r)| if both { s + r } else { *s })
        .collect();
    let max_counted = counted.iter().copied().max().unwrap_or(0);
    let n_bytes = params.size.value as f64;
    let (_, volume_text) = ring_bytes_per_rank(p, n_bytes);
    let target = ring_bytes_counted(p, n_bytes, both);
    // Counting sent bytes only, the counted column would repeat "sent".
    let after = if both {
        vec![("sent + received".to_string(), counted)]
    } else {
        Vec::new()
    };
    let round = (1..=rounds).contains(&step).then_some(step);
    let total = round.map_or(0, |k| run.transfers_in(k));
    let idle = if mean_step {
        "No transfers: the division by p is local to each rank."
    } else {
        "No transfers yet. Step forward to run round 1."
    };

    let timeline_link = timeline_href(params);
    html! {
        <div class="view view-ring">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"Ring all-reduce"}</h1>
                <p class="lede">
                    {"Each rank starts with its own tensor (rank r holds the value r + 1). Reduce-scatter adds chunks around the ring; all-gather then copies the finished chunks, never adding again."}
                </p>
            </>})}
            {ctx.panel("controls", html! {<>
                <RingControls params={state.params.clone()} drafts={state.drafts.clone()} on_commit={on_commit_field(&state)} />
                <p class="timeline-link"><a href={timeline_link.clone()}>{"Open on the timeline"}</a></p>
            </>})}
            {errors_below}
            {ctx.panel("steps", html! {<>
                <div class="status">
                    <p class="phase" id="phase">{phase_label.clone()}</p>
                    <p class="narration" id="narration" aria-live="polite">{narration}</p>
                </div>
                <StepControls {step} {last} on_step={on_step(&state, "step")} unit="Step" />
            </>})}
            {ctx.panel("picture", html! {
                <RingPicture {p} trace={run.trace().cloned()} {step} {mean_step} {phase_label} grid={(*grid).clone()} />
            })}
            <div class="panels">
                {ctx.panel("counters", html! {
                    {byte_counters_panel(&ByteCountersProps { sent, recv, before: Vec::new(), after, wide: false, children: html! { <>
                        <p id="total">
                            {format!("Per rank at the end: {volume_text}")}
                            {if both { format!(" sent, {} sent + received.", format_bytes_short(target)) } else { " sent.".to_string() }}
                            {if max_counted == 0 {
                                " Nothing sent yet.".to_string()
                            } else {
                                format!(" Largest so far: {} ({} B).", format_bytes_short(max_counted as f64), group_thousands(max_counted))
                            }}
                        </p>
                        if !run.n().is_multiple_of(p as u64) {
                            <p class="muted">{"n does not divide by p, so chunks differ by one element and ranks send slightly different amounts."}</p>
                        }
                    </> } })}
                })}
                {ctx.panel("log", html! {
                    {transfer_log(TransferLogProps { round, entries: run.entries(step, |t| format!("chunk {}", t.chunk.unwrap_or(0))), total, name_op: false, idle: idle.into(), note: None })}
                })}
                {ctx.panel("check", html! {
                    {check_panel(&CheckPanelProps { check: if executing {
                        Check::Executing(format!("the values of {rounds} rounds on p = {p} ranks"))
                    } else {
                        check(&run, rounds_done, mean_step)
                    } })}
                })}
                {ctx.panel("comparison", html! {
                    {ring_vs_naive(&RingVsNaiveProps { run: run.clone(), bw: params.bw.value, alpha: params.alpha.value })}
                })}
                if let Some(case) = clock_case {
                    {ctx.panel("clock", ring_clock_panel(case, &clock, &start_clock, timeline_link.clone()))}
                }
            </div>
        </div>
    }
}
