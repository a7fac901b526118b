//! The ring view's time panel: the executed ring all-reduce against the
//! naive root schedule on the same link, both timed by the core.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::downloads::CsvDownload;
use crate::app::components::time_panel::{time_panel, TimePanelProps};
use crate::core::collectives::naive_root_schedule;
use crate::core::timing::{executed_time, explain};
use crate::core::units::{format_exact_or_approx, format_time, Bandwidth};
use crate::export::series::schedule::schedule_times;
use crate::pages::ring::run::RingRun;
use crate::params::ring::ELEM_BYTES;

/// What [`ring_vs_naive`] compares.
pub struct RingVsNaiveProps {
    /// The executed ring all-reduce.
    pub run: RingRun,
    /// Link bandwidth.
    pub bw: Bandwidth,
    /// α, seconds.
    pub alpha: f64,
}

/// "Ring vs naive root" (`#ring-time`, `#naive-time`, `#ratio`); a plain
/// function, as it keeps no state.
pub fn ring_vs_naive(props: &RingVsNaiveProps) -> Html {
    let run = &props.run;
    let (alpha, beta) = (props.alpha, props.bw.beta());
    let Ok(naive) = naive_root_schedule(run.p(), run.n(), ELEM_BYTES) else {
        return html! {};
    };
    let (ring_t, ring_explained) = run.time(alpha, beta);
    let naive_t = executed_time(&naive, alpha, beta);
    let csv = Rc::new(schedule_times(
        "Ring vs naive root",
        &[
            ("ring all-reduce", run.rounds(), ring_t),
            ("naive root (serialised)", naive.num_rounds(), naive_t),
        ],
    ));
    html! {
        {time_panel(TimePanelProps { title: "Ring vs naive root".into(), bw: props.bw, alpha, children: html! { <>
            <table class="numbers">
                <thead><tr><th>{"schedule"}</th><th>{"rounds"}</th><th>{"time"}</th></tr></thead>
                <tbody>
                    <tr><th scope="row">{"ring all-reduce"}</th><td>{run.rounds()}</td><td id="ring-time">{format_time(ring_t)}</td></tr>
                    <tr><th scope="row">{"naive root (serialised)"}</th><td>{naive.num_rounds()}</td><td id="naive-time">{format_time(naive_t)}</td></tr>
                </tbody>
            </table>
            <CsvDownload table={csv} />
            <p>{"Ring: "}<code>{ring_explained}</code></p>
            <p>{"Naive root: "}<code>{explain(&naive, alpha, beta)}</code></p>
            <p id="ratio">{format!("The naive root takes {}× as long as the ring here.", format_exact_or_approx(naive_t / ring_t.max(f64::MIN_POSITIVE)))}</p>
            <p class="muted">{"Each round costs α plus its largest message × β; the root handles one full tensor at a time."}</p>
        </> }})}
    }
}
