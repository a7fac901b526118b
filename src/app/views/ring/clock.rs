//! The ring view's clock panel above the drawn size (numbers only): the
//! ring all-reduce of the case on the dataflow and the lock-step clock,
//! their finish times and waiting, computed by the core
//! ([`crate::core::timing::ring_clock`]) after the first paint when large
//! (p = 1024: 2 095 104 messages per mode).

use yew::prelude::*;

use crate::app::components::computing::computing;
use crate::app::hooks::{use_deferred, Deferred};
use crate::core::timing::ring_clock::{describe, ring_clock};
use crate::core::units::format_time;
use crate::core::work;
use crate::params::ring::ELEM_BYTES;

/// Props of [`RingClockPanel`].
#[derive(Properties, PartialEq)]
pub struct RingClockPanelProps {
    /// Ranks.
    pub p: usize,
    /// Elements (f32).
    pub n: u64,
    /// α, seconds.
    pub alpha: f64,
    /// β, seconds per byte.
    pub beta: f64,
    /// The timeline link of the case.
    pub link: AttrValue,
}

/// `#ring-clock`. A small case runs at once; a large one (p = 1024: about
/// a second of main-thread work in the release wasm) waits for the button,
/// so the page is ready and responsive before it.
#[component]
pub fn RingClockPanel(props: &RingClockPanelProps) -> Html {
    let deps = (props.p, props.n, props.alpha, props.beta);
    let work = work::ring_clock(props.p as u64);
    let asked = use_state(|| None::<(usize, u64, f64, f64)>);
    let run_now = !work.defer() || *asked == Some(deps);
    let result = use_deferred(
        run_now.then_some(deps),
        if run_now { work } else { work::Work(0) },
        |d: &Option<(usize, u64, f64, f64)>| {
            d.map(|(p, n, a, b)| ring_clock(p, n, ELEM_BYTES, a, b).map_err(|e| e.to_string()))
        },
    );
    let messages = crate::core::units::group_thousands(2 * (props.p as u64 - 1) * props.p as u64);
    let body = match result {
        Deferred::Pending => {
            return html! {
                {computing(format!("the ring on the dataflow and lock-step clocks ({messages} messages each)"))}
            }
        }
        Deferred::Ready(r) => match &*r {
            None => {
                let onclick = {
                    let asked = asked.clone();
                    Callback::from(move |_| asked.set(Some(deps)))
                };
                html! {
                    <p><button type="button" id="ring-clock-run" {onclick}>{"Time it on both clocks"}</button>
                        {format!(" {messages} messages per clock; this takes about a second and the page waits for it.")}</p>
                }
            }
            Some(Err(e)) => html! { <p class="field-error" role="alert">{e.clone()}</p> },
            Some(Ok(c)) => html! {<>
                <table class="numbers" id="ring-clock-table">
                    <thead><tr><th scope="col">{"clock"}</th><th scope="col">{"finish"}</th><th scope="col">{"waiting, all ranks"}</th><th scope="col">{"busy, all ranks"}</th></tr></thead>
                    <tbody>
                        { for [&c.dataflow, &c.lockstep].into_iter().map(|m| html! {
                            <tr id={format!("ring-clock-{}", m.mode.key())}>
                                <th scope="row">{m.mode.label()}</th>
                                <td>{format_time(m.finish)}</td>
                                <td>{format_time(m.total_wait)}</td>
                                <td>{format_time(m.total_busy)}</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                { for describe(c).into_iter().map(|s| html! { <p>{s}</p> }) }
            </>},
        },
    };
    html! {
        <section class="panel" id="ring-clock" aria-labelledby="ring-clock-h">
            <h2 class="panel-h" id="ring-clock-h">{"On the clock"}</h2>
            {body}
            <p class="muted">{"Every message timed per rank, without the event list (too many to draw here). "}
                <a href={props.link.clone()}>{"The timeline"}</a>{" draws up to 64 ranks."}</p>
        </section>
    }
}
