//! `?view=timeline`: a schedule on the clock. The dataflow and lock-step
//! clocks of [`crate::core::timing::clock`] as Gantt charts side by side,
//! a time cursor with the state at it in words, the per-rank summary, the
//! failure panel when the collective stalls and the pipelining sweep. A
//! measured trace from the MPI runner is drawn beside the model on its
//! own page, `?view=trace` ([`crate::app::views::trace`]).
//!
//! The page runs the clocks once per case ([`compute`], not per
//! cursor step) and lays out the panels; the core computes every number
//! and sentence.

use yew::prelude::*;

use crate::app::components::gantt::{self, gantt_figure, legend};
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::use_view_state;
use crate::app::route::ViewProps;
use crate::app::state::{on_commit, on_commit_field, Commit};
use crate::core::timing::gantt::nearest;
use crate::core::units::format_time;
use crate::pages::common::clocks::{case_key, compute, SharedRuns};
use crate::pages::timeline::{
    chart_notes, cursor_text, fault_headline, trace_link, trace_link_text,
};
use crate::params::timeline::TimelineParams;

pub mod compare;
pub mod controls;
pub mod cursor;
pub mod failure;
pub mod pipelining;
pub mod summary;

use compare::{mode_contrast, ModeContrastProps};
use controls::{timeline_controls, TimelineControlsProps};
use cursor::{cursor_narration, CursorNarrationProps};
use failure::{failure_panel, FailurePanelProps};
use pipelining::PipeliningPanel;
use summary::{timeline_summary, TimelineSummaryProps};

impl Commit for TimelineParams {}

/// The timeline view.
#[component]
pub fn TimelineView(props: &ViewProps) -> Html {
    let state = use_view_state::<TimelineParams>(props);
    let per_rank_opened = use_state(|| false);
    let params = &state.params;
    let runs = use_memo(case_key(params), |p| compute(p).map(SharedRuns::new));
    let runs = match &*runs {
        Ok(r) => r.clone(),
        Err(e) => {
            return html! {
                <div class="view view-timeline">
                    <h1>{"Timeline"}</h1>
                    {timeline_controls(&TimelineControlsProps { params: state.params.clone(), drafts: state.drafts.clone(), on_commit: on_commit_field(&state) })}
                    <p class="field-error" role="alert">{e.clone()}</p>
                </div>
            }
        }
    };
    let r = &runs.0;
    let step = nearest(&r.times, params.t.value);
    let t = r.times.get(step).copied().unwrap_or(0.0);
    let on_step = {
        let cb = on_commit(&state, "t");
        let times = r.times.clone();
        Callback::from(move |k: usize| cb.emit(cursor_text(times.get(k).copied().unwrap_or(0.0))))
    };
    let charts = r.runs.iter().map(|x| {
        let title = match x.totals.time {
            Some(tt) => format!("{}: {}", x.mode.label(), format_time(tt)),
            None => format!(
                "{}: does not complete (stops at {})",
                x.mode.label(),
                format_time(x.clock.end)
            ),
        };
        gantt_figure(
            title,
            format!("total-{}", x.mode.key()),
            &format!("{} timeline", x.mode.label()),
            x.gantt.clone(),
            r.end,
            t,
            format!("gantt-{}", x.mode.key()),
        )
    });
    let ctx = &props.ctx;
    let (errors_top, errors_below) = ctx.place_errors(
        "controls",
        state.drafts.orphans_html(ctx.on_screen(
            "controls",
            &[
                "alg", "p", "size", "bw", "alpha", "gamma", "segments", "late", "slow", "fail",
                "mode",
            ],
        )),
    );
    html! {
        <div class="view view-timeline">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"Timeline: a collective on the clock"}</h1>
                <p class="lede">
                    {"Every message of the schedule on a per-rank clock. Lock-step starts each round when the last rank is ready; \
                      dataflow lets each message move once both its ranks are in its round. Add late, slow or failed ranks and segments."}
                </p>
            </>})}
            {ctx.panel("controls", html! { {timeline_controls(&TimelineControlsProps { params: state.params.clone(), drafts: state.drafts.clone(), on_commit: on_commit_field(&state) })} })}
            {errors_below}
            {ctx.panel("failure", html! { {failure_panel(&FailurePanelProps { runs: runs.clone() })} })}
            {ctx.panel("contrast", html! {<>
                if let Some(h) = fault_headline(r) {
                    <p id="fault-headline"><strong>{h}</strong></p>
                }
                {mode_contrast(&ModeContrastProps { runs: runs.clone() })}
            </>})}
            {ctx.panel("steps", html! {<>
                <StepControls {step} last={r.times.len().saturating_sub(1)} {on_step} unit="Event" interval_ms={600} />
                {cursor_narration(&CursorNarrationProps { runs: runs.clone(), t })}
            </>})}
            {ctx.panel("charts", html! {<>
                <div class="gantt-pair">{ for charts }</div>
                {legend()}
                { for chart_notes(r, gantt::TOOLTIP_ROWS_MAX).into_iter().map(|n| html! { <p class="muted chart-note">{n}</p> }) }
                if let Some(text) = trace_link_text(params) {
                    <p class="muted chart-note"><a id="trace-link" href={trace_link(params)}>{text}</a></p>
                }
            </>})}
            <div class="panels">
                {ctx.panel("summary", html! { {timeline_summary(&TimelineSummaryProps {
                    runs: runs.clone(),
                    opened: *per_rank_opened,
                    on_open: { let o = per_rank_opened.clone(); Callback::from(move |()| o.set(true)) },
                })} })}
                {ctx.panel("pipelining", html! { <PipeliningPanel params={case_key(params)} /> })}
            </div>
        </div>
    }
}
