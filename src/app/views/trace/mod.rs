//! `?view=trace`: a measured run beside the model. A Chrome trace from the
//! MPI runner (`collective-lab-run --trace`) or from the timeline's
//! download, opened as a file, pasted or loaded from the example, is
//! checked by [`crate::core::timing::measured`] and drawn as a per-rank
//! Gantt chart beside the dataflow clock of the same case at the page's
//! α, bw and γ, on one time axis, with each rank's finish against the
//! model's.
//!
//! A loaded trace sets the page's case (algorithm, p, size, segments) to
//! its own, so the model always draws the case that ran; a bad trace
//! leaves the last good one and says why. The page is its own binary, so
//! the timeline page does not carry the import.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::field::{text_field, TextFieldProps};
use crate::app::components::gantt::{gantt_figure, legend};
use crate::app::hooks::use_view_state;
use crate::app::route::ViewProps;
use crate::app::state::{commit_to, on_commit_all, on_commit_field, Commit};
use crate::core::timing::gantt::Gantt;
use crate::core::timing::measured::{differences, measured, Measured};
use crate::core::units::format_time;
use crate::pages::common::clocks::compute_runner_case;
use crate::pages::trace::{case_line, case_of, describe};
use crate::params::trace::TraceParams;

pub mod input;
pub mod json;
pub mod markup;
pub mod profile;
pub mod table;

use input::{take, INPUTS};
use json::read_trace;
use markup::markup;
use table::measured_table;

impl Commit for TraceParams {}

/// A checked trace and its bars (compared by identity).
#[derive(Clone, Debug)]
struct Loaded(Rc<Measured>, Rc<Gantt>);

impl PartialEq for Loaded {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// One chart of the pair, without a cursor (caption id `{id}-title`).
fn chart(title: String, gantt: Rc<Gantt>, x_end: f64, id: &'static str) -> Html {
    let name = title.clone();
    gantt_figure(
        title,
        format!("{id}-title"),
        &name,
        gantt,
        x_end,
        f64::NAN,
        id.into(),
    )
}

const LEDE: &str = "<h1>Measured trace: a real run beside the model</h1>\
    <p class=\"lede\">Run a schedule on real processes with the MPI runner, open its trace here, and see where the run \
    and the dataflow model part: a slow first round, one slow rank, or links slower than you assumed. The trace is read \
    in this page and never uploaded.</p>";

const HINT: &str = "<h2 class=\"panel-h\" id=\"input-h\">The trace</h2>\
    <p class=\"hint\">Make one with <code>mpirun -n 4 collective-lab-run --alg ring --sizes 16MiB --trace t.json</code> \
    (docs/runner.md) and open <code>t.json</code>; the timeline view's Chrome-trace download loads too. \
    The page then models the trace's algorithm, p, size and segments.</p>";

/// The trace view.
#[component]
pub fn TraceView(props: &ViewProps) -> Html {
    let state = use_view_state::<TraceParams>(props);
    let params = &state.params;
    let runs = use_memo(params.model_case(), compute_runner_case);
    let loaded = use_state(|| None::<Loaded>);
    let msg = use_state(|| None::<String>);
    let on_text = {
        let (loaded, msg, commit) = (loaded.clone(), msg.clone(), on_commit_all(&state));
        Callback::from(move |text: Result<String, String>| {
            let read = text.and_then(|t| {
                read_trace(&t)
                    .and_then(|r| measured(&r))
                    .map_err(|e| e.to_string())
            });
            match read {
                Ok(m) => {
                    // Always: the commit also clears a message left by an
                    // earlier trace's case (an unknown algorithm, say).
                    commit.emit(case_of(&m));
                    let g = Rc::new(m.gantt.clone());
                    loaded.set(Some(Loaded(Rc::new(m), g)));
                    msg.set(None);
                }
                Err(e) => msg.set(Some(e)),
            }
        })
    };
    let on_event = {
        let on_text = on_text.clone();
        Callback::from(move |e: Event| take(&e, &on_text))
    };
    let on_example = {
        let commit = on_commit_all(&state);
        Callback::from(move |_: MouseEvent| {
            commit.emit(
                input::EXAMPLE_LINK
                    .iter()
                    .map(|&(k, v)| (k, v.to_string()))
                    .collect(),
            );
            input::example(&on_text);
        })
    };
    let ctx = &props.ctx;
    let d = &state.drafts;
    let field = |name: &'static str, label: &'static str, value: &str, hint: &'static str| {
        html! {
            {text_field(&TextFieldProps { name: name.into(), label: label.into(), value: (d.text_or(name, value)).into(), error: d.error(name), hint: Some((AttrValue::from(hint)).into()), on_commit: commit_to(&on_commit_field(&state), name) })}
        }
    };
    let (errors_top, errors_below) = ctx.place_errors(
        "controls",
        d.orphans_html(ctx.on_screen("controls", &["alpha", "bw", "gamma"])),
    );
    let c = &params.0;
    let model = (*runs).as_ref().ok().and_then(|r| r.runs.first());
    let model_error = (*runs)
        .as_ref()
        .err()
        .map(|e| html! { <p class="field-error" role="alert">{e.clone()}</p> });
    let label = "dataflow, the page's α, bw and γ";
    let (charts, ranks) = match (loaded.as_ref(), &model) {
        (Some(Loaded(m, g)), Some(x)) => {
            let (mg, clock) = (&x.gantt, &x.clock);
            let diff = differences(m, c.alg.key(), c.p, c.size.value, c.segments);
            if diff.is_empty() {
                let x_end = m.end.max(clock.end);
                (
                    html! {<>
                        {markup(describe(m))}
                        <div class="gantt-pair">
                            {chart("Measured (the trace)".into(), g.clone(), x_end, "gantt-measured")}
                            {chart(format!("Model ({label}): {}", format_time(clock.end)), mg.clone(), x_end, "gantt-model")}
                        </div>
                        {legend()}
                    </>},
                    measured_table(m, clock, label),
                )
            } else {
                (
                    markup(format!(
                        "{}<p class=\"field-error\" id=\"trace-mismatch\">This page cannot model the trace's case: {}.</p>",
                        describe(m),
                        diff.join(", ")
                    )),
                    Html::default(),
                )
            }
        }
        (None, Some(x)) => (
            html! {<>
                <p class="muted" id="no-trace">{"No trace loaded yet: the model alone. Open a trace above, or load the example."}</p>
                {chart(format!("Model ({label}): {}", format_time(x.clock.end)), x.gantt.clone(), x.clock.end, "gantt-model")}
                {legend()}
            </>},
            Html::default(),
        ),
        _ => (Html::default(), Html::default()),
    };
    html! {
        <div class="view view-trace">
            {errors_top}
            {ctx.panel("title", markup(LEDE))}
            {ctx.panel("controls", html! {<>
                <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                    {field("alpha", "Latency α", &c.alpha.text, "per message, e.g. 5us (the measure view's fit)")}
                    {field("bw", "Link bandwidth", &c.bw.text, "1/β, e.g. 12.5GB/s")}
                    {field("gamma", "Reduce cost γ", &c.gamma.text, "time per byte, e.g. 0.1ns/B")}
                </form>
                {markup(case_line(params))}
            </>})}
            {errors_below}
            {model_error}
            {ctx.panel("input", html! {
                <section class="panel wide" id="measured" aria-labelledby="input-h"
                    oninput={on_event.reform(Event::from)} onchange={on_event}>
                    {markup(HINT)}
                    {markup(INPUTS)}
                    <p><button type="button" id="trace-example" onclick={on_example}>{"Load the example trace"}</button>
                        <span class="muted">{" ring, p = 4, 16 MiB: 4 ranks on one 2-core machine, at the α and bw fitted to its OSU log"}</span></p>
                    if let Some(e) = &*msg {
                        <p class="field-error" role="alert" id="trace-error">{e.clone()}</p>
                    }
                </section>
            })}
            {ctx.panel("charts", charts)}
            {ctx.panel("ranks", ranks)}
            {ctx.panel("profile", html! { <profile::ProfilePanel /> })}
        </div>
    }
}
