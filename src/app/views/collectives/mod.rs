//! `?view=collectives`: every all-reduce algorithm (and reduce-scatter and
//! all-gather on their own) animated from its executed schedule.
//!
//! The schedule comes from the registry's `generate`, the trace from
//! `execute` ([`trace`](crate::pages::common::trace)), the words from [`crate::core::collectives::narrate`]
//! and the summary table from `summary_table_on` (on the job's nodes); the page picks the state of
//! the current step and lays out the panels. The ring view uses the same
//! engine and the same shared panels.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::byte_counters::{byte_counters_panel, ByteCountersProps};
use crate::app::components::check_panel::{check_panel, CheckPanelProps};
use crate::app::components::step_controls::StepControls;
use crate::app::components::transfer_log::{transfer_log, TransferLogProps};
use crate::app::hooks::use_view_state;
use crate::app::route::ViewProps;
use crate::app::state::{on_commit_field, on_step, Action, Commit};
use crate::core::collectives::narrate::{narrate, range_text, sent_by_phase, transfer_label};
use crate::core::collectives::{round_title, summary_table_on, AlgorithmSummary};
use crate::core::cost::CostParams;
use crate::core::schedule::Phase;
use crate::core::units::{format_bytes_short, group_thousands};
use crate::pages::collectives::check;
use crate::pages::common::transfer_log::round_entries;
use crate::params::collectives::CollectivesParams;
use crate::params::ring::ELEM_BYTES;

pub mod closed_form;
pub mod controls;
pub mod gossip_contrast;
pub mod phase_strip;
pub mod picture;
pub mod summary;

use crate::pages::common::trace::collective_trace;
use closed_form::{closed_form_panel, ClosedFormPanelProps};
use controls::{collectives_controls, CollectivesControlsProps};
use gossip_contrast::{gossip_contrast_panel, GossipContrastProps};
use phase_strip::{phase_strip, phase_title, PhaseStripProps};
use picture::CollectivePicture;
use summary::{summary_table, SummaryTableProps};

impl Commit for CollectivesParams {}

/// The collectives view.
#[component]
pub fn CollectivesView(props: &ViewProps) -> Html {
    let state = use_view_state::<CollectivesParams>(props);
    let params = &state.params;
    let topo = params.topology();
    let trace = use_memo(
        (params.alg, topo.clone(), params.size.value),
        |(a, t, b)| collective_trace(*a, t, *b),
    );
    let (alpha, beta) = (params.alpha.value, params.bw.value.beta());
    let table: Rc<Vec<AlgorithmSummary>> = use_memo(
        (
            topo.clone(),
            params.size.value,
            alpha.to_bits(),
            beta.to_bits(),
        ),
        |(t, bytes, a, b)| {
            let model = CostParams::new(f64::from_bits(*a), f64::from_bits(*b));
            summary_table_on(t, (*bytes / ELEM_BYTES).max(1), ELEM_BYTES, model).unwrap_or_default()
        },
    );
    let Some(trace) = (*trace).clone() else {
        return html! { <p class="field-error" role="alert">{"Could not build this schedule for these parameters."}</p> };
    };
    let (alg, p, s) = (params.alg, params.p, &trace.schedule);
    let rounds = trace.num_rounds();
    let step = params.step.min(rounds);
    let on_pick = {
        let dispatcher = state.dispatcher();
        Callback::from(move |a: crate::core::collectives::Algorithm| {
            dispatcher.dispatch(Action::field("alg", a.key()));
        })
    };

    let phase_label = if step == 0 {
        format!("{}: initial buffers (before round 1)", alg.label())
    } else {
        round_title(alg, s, step - 1)
    };
    let current_phase = step
        .checked_sub(1)
        .and_then(|i| s.rounds.get(i))
        .map(|r| r.phase);
    let fold = matches!(current_phase, Some(Phase::FoldIn | Phase::FoldOut));

    let sent = trace.sent_after(step);
    let max_sent = sent.iter().copied().max().unwrap_or(0);
    let before: Vec<(String, Vec<u64>)> = sent_by_phase(s, step)
        .into_iter()
        .map(|(ph, v)| (format!("sent in {}", phase_title(ph)), v))
        .collect();
    let round = (step >= 1).then_some(step);
    let total = round
        .and_then(|k| s.rounds.get(k - 1))
        .map_or(0, |r| r.transfers.len());
    let row = table.iter().find(|r| r.alg == alg).cloned();

    let ctx = &props.ctx;
    // `gpus` has its own field (and its error under it) only for the
    // algorithms that follow nodes.
    let fields: &[&str] = if alg.needs_nodes() {
        &["p", "size", "bw", "alpha", "gpus"]
    } else {
        &["p", "size", "bw", "alpha"]
    };
    let (errors_top, errors_below) = ctx.place_errors(
        "controls",
        state.drafts.orphans_html(ctx.on_screen("controls", fields)),
    );
    html! {
        <div class="view view-collectives">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"Collective algorithms"}</h1>
                <p class="lede">
                    {"Pick an algorithm and step through its rounds. Every arrow is a real message of the executed schedule, \
                      labelled with the chunks it carries and whether the receiver adds (reduce) or overwrites (copy)."}
                </p>
            </>})}
            {ctx.panel("controls", html! {<>
                {collectives_controls(&CollectivesControlsProps { params: state.params.clone(), drafts: state.drafts.clone(), on_commit: on_commit_field(&state) })}
                <p class="timeline-link"><a href={crate::params::timeline::link(alg.key(), p, &params.size.text, &params.bw.text, &params.alpha.text)}>{"Open on the timeline"}</a></p>
            </>})}
            {errors_below}
            {ctx.panel("phases", html! { {phase_strip(&PhaseStripProps { alg, trace: trace.clone(), step })} })}
            {ctx.panel("steps", html! {<>
                <div class="status">
                    <p class={classes!("phase", fold.then_some("fold"))} id="phase">{phase_label.clone()}</p>
                    <p class="narration" id="narration" aria-live="polite">{narrate(alg, &trace, step)}</p>
                </div>
                <StepControls {step} last={rounds} on_step={on_step(&state, "step")} unit="Round" />
            </>})}
            {ctx.panel("picture", html! { <CollectivePicture {alg} trace={trace.clone()} {step} phase_label={phase_label} /> })}
            <div class="panels">
                {ctx.panel("counters", html! {
                    {byte_counters_panel(&ByteCountersProps { sent: sent.clone(), recv: trace.recv_after(step), before, after: Vec::new(), wide: true, children: html! { <>
                        <p id="totals">
                            {format!("After {step} of {rounds} rounds: the most any rank has sent is {} ({} B).",
                                format_bytes_short(max_sent as f64), group_thousands(max_sent))}
                        </p>
                    </> } })}
                })}
                {ctx.panel("log", html! {
                    {transfer_log(TransferLogProps {
                        round,
                        entries: round_entries(&trace, step, |t| format!("{} ({})", transfer_label(s, &t.range), range_text(&t.range))),
                        total,
                        name_op: true,
                        idle: "No transfers yet. Step forward to run round 1.".into(),
                        note: Some("Values shown are those of the first element of each range; ranks start with r + 1 in every element.".into()),
                    })}
                })}
                {ctx.panel("check", html! { {check_panel(&CheckPanelProps { check: check(&trace, step) })} })}
                {ctx.panel("formula", html! {
                    {closed_form_panel(&ClosedFormPanelProps { alg, topo: topo.clone(), trace: trace.clone(), row, bw: params.bw.value, alpha })}
                })}
                {ctx.panel("gossip", html! { {gossip_contrast_panel(&GossipContrastProps { p })} })}
                {ctx.panel("summary", html! { {summary_table(&SummaryTableProps { table, alg, p, bytes: s.total_bytes(), on_pick })} })}
            </div>
        </div>
    }
}
