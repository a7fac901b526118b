//! The ring view's clock panel above the drawn size (numbers only): the
//! ring all-reduce of the case on the dataflow and the lock-step clock,
//! their finish times and waiting, computed by the core
//! ([`crate::core::timing::ring_clock`]) in the ring page's clock module
//! (`modules/ringclock`, loaded on first use through [`crate::app::module`]:
//! the clock is about 18 KB of the page gzipped and only p > 64 shows it),
//! at once when small and after a click when large (p = 1024: 2 095 104
//! messages per mode).

use yew::prelude::*;

use crate::app::components::computing::computing;
use crate::app::module;
use crate::core::timing::ring_clock::{describe, RingClock};
use crate::core::units::format_time;
use crate::core::work;
use crate::params::ring::ELEM_BYTES;

/// A case: ranks, elements (f32), α (s) and β (s/B).
pub type Deps = (usize, u64, f64, f64);

/// The case last asked for, and its totals once the module has timed them
/// (or the message of what failed).
pub type ClockState = Option<(Deps, Option<Result<RingClock, String>>)>;

/// The panel's state and the callback that times a case in the clock
/// module. A small case (`case`, when the panel shows) is timed at once;
/// a large one (p = 1024: about a second of main-thread work in the
/// release wasm) waits for the panel's button, so the page is ready and
/// responsive before it. A hook of the ring view, not a component: the
/// panel is a plain function of what it returns.
#[hook]
pub fn use_ring_clock(case: Option<Deps>) -> (UseStateHandle<ClockState>, Callback<Deps>) {
    let state = use_state(|| ClockState::None);
    // The case asked for last: an answer for an earlier case that arrives
    // after it is dropped, not shown.
    let latest = use_mut_ref(|| None::<Deps>);
    let start = {
        let state = state.clone();
        Callback::from(move |deps: Deps| {
            let (p, n, a, b) = deps;
            let args = [p as f64, n as f64, ELEM_BYTES as f64, a, b];
            *latest.borrow_mut() = Some(deps);
            state.set(Some((deps, None)));
            let (state, latest) = (state.clone(), latest.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let got = module::call("ringclock", "ring_clock", &args)
                    .await
                    .and_then(|v| {
                        RingClock::from_wire(p, &js_sys::Float64Array::new(&v).to_vec())
                            .ok_or_else(|| "The clock module returned no totals.".to_string())
                    });
                if *latest.borrow() == Some(deps) {
                    state.set(Some((deps, Some(got))));
                }
            });
        })
    };
    {
        let start = start.clone();
        use_effect_with(case, move |case| {
            if let Some(deps) = *case {
                if !work::ring_clock(deps.0 as u64).defer() {
                    start.emit(deps);
                }
            }
        });
    }
    (state, start)
}

/// `#ring-clock` for the case `deps`, from [`use_ring_clock`]'s state and
/// callback; `link` is the timeline link of the case.
pub fn ring_clock_panel(
    deps: Deps,
    state: &ClockState,
    start: &Callback<Deps>,
    link: AttrValue,
) -> Html {
    let asked = state.as_ref().filter(|s| s.0 == deps).map(|s| &s.1);
    let p = deps.0 as u64;
    let messages = crate::core::units::group_thousands(2 * (p - 1) * p);
    let body = match asked {
        Some(None) => {
            return html! {
                {computing(format!("the ring on the dataflow and lock-step clocks ({messages} messages each)"))}
            }
        }
        r => match r.and_then(Option::as_ref) {
            None => {
                let onclick = start.reform(move |_| deps);
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
                <a href={link}>{"The timeline"}</a>{" draws up to 64 ranks."}</p>
        </section>
    }
}
