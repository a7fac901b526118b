//! `#measured`: a trace from the MPI runner (`collective-lab-run --trace`)
//! or from this page's export, drawn beside the model's dataflow clock of
//! the same case at the page's α and bw. Nothing runs until a trace is
//! given; a bad one leaves the last good trace and says why.

use std::rc::Rc;

use yew::prelude::*;

use super::measured_table::measured_table;
use super::model::Shared;
use super::trace_input::{take, INPUTS};
use crate::core::timing::clock::Mode;
use crate::core::timing::gantt::Gantt;
use crate::core::timing::measured::{differences, measured, Measured};
use crate::core::units::format_binary;
use crate::params::encode;
use crate::params::timeline::TimelineParams;

use super::gantt::GanttChart;
use super::markup::markup;
use super::trace_json::read_trace;

/// A checked trace and its bars.
#[derive(Clone, Debug)]
struct Loaded(Rc<Measured>, Rc<Gantt>);

impl PartialEq for Loaded {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// One chart of the pair (not inlined: one copy of its elements).
#[inline(never)]
fn chart(title: String, gantt: Rc<Gantt>, x_end: f64, t: f64, id: &'static str) -> Html {
    html! {
        <figure class="gantt-box">
            <figcaption class="gantt-title">{title.clone()}</figcaption>
            <div class="table-scroll" role="region" tabindex="0" aria-label={format!("{title} (scrolls sideways)")}>
                <GanttChart {gantt} label={format!("{title}, one row per rank")} {x_end} {t} {id} />
            </div>
        </figure>
    }
}

/// Props of [`MeasuredPanel`].
#[derive(Properties, PartialEq)]
pub struct MeasuredPanelProps {
    /// The page's clocks (the model).
    pub runs: Shared,
    /// The page's case.
    pub params: TimelineParams,
    /// The time cursor, seconds.
    pub t: f64,
    /// Commits several fields at once (the switch to the trace's case).
    pub on_commit: Callback<Vec<(&'static str, String)>>,
}

/// The fields that give the page the trace's case.
fn case_of(m: &Measured) -> Vec<(&'static str, String)> {
    let mut v = vec![("p", m.p.to_string())];
    v.extend(m.alg.clone().map(|a| ("alg", a)));
    v.extend(m.bytes.map(|b| ("size", format!("{b}B"))));
    v.extend(m.segments.map(|k| ("segments", k.to_string())));
    v
}

/// What the trace is, as markup (the algorithm key is checked by the core:
/// letters, digits, `-` and `_`).
fn describe(m: &Measured) -> String {
    let rounds = m.rounds.iter().map(Vec::len).max().unwrap_or(0);
    let size = m.bytes.map(|b| format_binary(b as f64));
    format!(
        "<p id=\"trace-case\">Trace: {}, p = {}, {}; {} events, {rounds} rounds per rank.</p>",
        m.alg.as_deref().unwrap_or("algorithm not named"),
        m.p,
        size.as_deref().unwrap_or("size not given"),
        m.events,
    )
}

const HEAD: &str = "<h2 class=\"panel-h\" id=\"measured-h\">Measured: a trace from the MPI runner</h2>\
    <p class=\"hint\">Run <code>mpirun -n P collective-lab-run --alg ring --sizes 16MiB --trace t.json</code> and open <code>t.json</code> here \
    (it is read in this page, not uploaded). It is drawn beside the model of the same algorithm, p and size at this page's α and bw: \
    set <b>Latency α</b> and <b>Link bandwidth</b> above to what the measure view fitted (bw = 1/β).</p>";

/// The measured panel.
#[component]
pub fn MeasuredPanel(props: &MeasuredPanelProps) -> Html {
    let loaded = use_state(|| None::<Loaded>);
    let msg = use_state(|| None::<String>);
    let on_text = {
        let (loaded, msg) = (loaded.clone(), msg.clone());
        Callback::from(move |text: Result<String, String>| {
            match text.and_then(|t| {
                read_trace(&t)
                    .and_then(|r| measured(&r))
                    .map_err(|e| e.to_string())
            }) {
                Ok(m) => {
                    let g = Rc::new(m.gantt.clone());
                    loaded.set(Some(Loaded(Rc::new(m), g)));
                    msg.set(None);
                }
                Err(e) => msg.set(Some(e)),
            }
        })
    };
    let mut switch = None;
    let body = loaded.as_ref().map(|Loaded(m, g)| {
        let r = &props.runs.0;
        let model = r.runs.iter().find(|x| x.mode == Mode::Dataflow).or(r.runs.first());
        let p = model.map_or(props.params.p, |x| x.clock.p);
        let pr = &props.params;
        let diff = differences(m, pr.alg.key(), p, pr.size.value, pr.segments);
        let head = describe(m);
        let Some(model) = model.filter(|_| diff.is_empty()) else {
            let fields = case_of(m);
            let mut pairs = vec![("view", "timeline".to_string())];
            pairs.extend(pr.to_pairs().into_iter().filter(|(k, _)| !fields.iter().any(|f| f.0 == *k)));
            pairs.extend(fields.iter().cloned());
            switch = Some(fields);
            return markup(format!(
                "{head}<p class=\"field-error\" id=\"trace-mismatch\">The page models another case: {}. \
                 <a id=\"trace-switch\" href=\"?{}\">Model the trace's case</a></p>",
                diff.join(", "),
                encode(&pairs).replace('&', "&amp;")
            ));
        };
        let x_end = m.end.max(model.clock.end);
        let label = format!("{}, the page's α and bw", model.mode.label());
        html! {<>
            {markup(head)}
            <div class="gantt-pair">
                {chart("Measured (the trace)".into(), g.clone(), x_end, props.t, "gantt-measured")}
                {chart(format!("Model ({label})"), model.gantt.clone(), x_end, props.t, "gantt-model")}
            </div>
            {measured_table(m, &model.clock, &label)}
        </>}
    });
    let on_event = Callback::from(move |e: Event| take(&e, &on_text));
    let onclick = {
        let cb = props.on_commit.clone();
        Callback::from(move |e: MouseEvent| {
            let on_link = e
                .target_dyn_into::<web_sys::Element>()
                .is_some_and(|t| t.id() == "trace-switch");
            if let (Some(fields), true) = (&switch, on_link) {
                e.prevent_default();
                cb.emit(fields.clone());
            }
        })
    };
    html! {
        <section class="panel wide" id="measured" aria-labelledby="measured-h"
            oninput={on_event.reform(Event::from)} onchange={on_event} {onclick}>
            {markup(HEAD)}
            {markup(INPUTS)}
            if let Some(e) = &*msg {
                <p class="field-error" role="alert" id="trace-error">{e.clone()}</p>
            }
            {body.unwrap_or_default()}
        </section>
    }
}
