//! Shared step controls: first, back, play/pause, forward, last, a scrubber,
//! speed, and the keyboard (space, ←, →, Home, End; in a frame ↑ and ↓ are
//! swallowed so that they never scroll the host page).
//!
//! Nothing plays on its own: playback starts only when the user presses play,
//! which also keeps embedded views still. With `prefers-reduced-motion` the
//! CSS drops transitions; stepping still works.

use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::core::units::decimal;

use super::copy_link::use_copy_link;
use crate::app::embed::in_frame;

/// Props of [`StepControls`].
#[derive(Properties, PartialEq)]
pub struct StepControlsProps {
    /// Current step, `0..=last`.
    pub step: usize,
    /// Last step.
    pub last: usize,
    /// Called with the requested step.
    pub on_step: Callback<usize>,
    /// Label of the scrubber, e.g. "Round".
    #[prop_or(AttrValue::from("Step"))]
    pub unit: AttrValue,
    /// Time per step at 1× speed, milliseconds (long traces use less).
    #[prop_or(1200)]
    pub interval_ms: u32,
}

/// Play/step/scrub controls for any stepped trace.
#[component]
pub fn StepControls(props: &StepControlsProps) -> Html {
    let playing = use_state(|| false);
    let speed = use_state(|| 1.0_f64);
    let copy_link = use_copy_link();
    // (step, last, playing) as of the latest render, and the latest
    // `on_step`, for the timer and key handlers: they are set up once (the
    // keys) or per play (the timer), and a view's callback may change with
    // its last step (the topology's clamps to it), so a handler that kept
    // the callback of its set-up would stop at an old last step. Updated
    // after each render (never during it).
    let current = use_mut_ref(|| (props.step, props.last, *playing));
    let latest_on_step = use_mut_ref(|| props.on_step.clone());
    {
        let current = current.clone();
        let latest_on_step = latest_on_step.clone();
        let now = (props.step, props.last, *playing);
        let on_step = props.on_step.clone();
        use_effect(move || {
            *current.borrow_mut() = now;
            *latest_on_step.borrow_mut() = on_step;
        });
    }

    {
        let on_step = latest_on_step.clone();
        let current = current.clone();
        let set_playing = playing.setter();
        use_effect_with(
            (*playing, (*speed * 100.0) as i64, props.interval_ms),
            move |(play, sp, base)| {
                let interval = play.then(|| {
                    let ms = (f64::from(*base) / (*sp as f64 / 100.0)).round().max(16.0) as u32;
                    Interval::new(ms, move || {
                        let (s, last, _) = *current.borrow();
                        if s >= last {
                            set_playing.set(false);
                        } else {
                            let cb = on_step.borrow().clone();
                            cb.emit(s + 1);
                            if s + 1 >= last {
                                set_playing.set(false);
                            }
                        }
                    })
                });
                move || drop(interval)
            },
        );
    }

    // Keyboard on the whole document, except while typing in a form field.
    {
        let latest_on_step = latest_on_step.clone();
        let current = current.clone();
        let set_playing = playing.setter();
        use_effect_with((), move |_| {
            // Not passive: space, the arrows, Home and End must not also
            // scroll the page, so the handler needs `preventDefault`.
            let options = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(
                &gloo::utils::document(),
                "keydown",
                options,
                move |e| {
                    let Some(ev) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
                        return;
                    }
                    let tag = ev
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .map(|el| el.tag_name())
                        .unwrap_or_default();
                    // Form fields keep every key; a focused button (e.g. "▶"
                    // just clicked) keeps only space, which presses it.
                    let typing = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
                    if (typing && ev.key() != "Escape") || (tag == "BUTTON" && ev.key() == " ") {
                        return;
                    }
                    let (s, last, is_playing) = *current.borrow();
                    let on_step = latest_on_step.borrow().clone();
                    match ev.key().as_str() {
                        "ArrowRight" => on_step.emit((s + 1).min(last)),
                        "ArrowLeft" => on_step.emit(s.saturating_sub(1)),
                        "Home" => on_step.emit(0),
                        "End" => on_step.emit(last),
                        // In a course page's frame ↑ and ↓ do nothing rather
                        // than scroll the host page.
                        "ArrowUp" | "ArrowDown" if in_frame() => {}
                        " " => {
                            if !is_playing && s >= last {
                                on_step.emit(0);
                            }
                            set_playing.set(!is_playing);
                        }
                        _ => return,
                    }
                    ev.prevent_default();
                },
            );
            move || drop(listener)
        });
    }

    let step = props.step;
    let last = props.last;
    let go = |to: usize| {
        let cb = props.on_step.clone();
        Callback::from(move |_: MouseEvent| cb.emit(to))
    };
    let toggle = {
        let playing = playing.clone();
        let cb = props.on_step.clone();
        Callback::from(move |_: MouseEvent| {
            if !*playing && step >= last {
                cb.emit(0);
            }
            playing.set(!*playing);
        })
    };
    let on_scrub = {
        let cb = props.on_step.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(v) = input.value().parse::<usize>() {
                cb.emit(v.min(last));
            }
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(v) = crate::core::units::decimal::parse(&sel.value()) {
                speed.set(v);
            }
        })
    };
    let speeds = [0.5, 1.0, 2.0, 4.0];
    html! {
        <div class="step-controls" role="group" aria-label="Step controls">
            <button type="button" onclick={go(0)} disabled={step == 0} title="First (Home)" aria-label="First step">{"|◀"}</button>
            <button type="button" onclick={go(step.saturating_sub(1))} disabled={step == 0} title="Back (←)" aria-label="Step back">{"◀"}</button>
            <button type="button" class="play" onclick={toggle} title="Play / pause (space)"
                aria-label={if *playing { "Pause" } else { "Play" }} aria-pressed={playing.to_string()}>
                {if *playing { "⏸ Pause" } else { "▶ Play" }}
            </button>
            <button type="button" onclick={go((step + 1).min(last))} disabled={step >= last} title="Forward (→)" aria-label="Step forward">{"▶"}</button>
            <button type="button" onclick={go(last)} disabled={step >= last} title="Last (End)" aria-label="Last step">{"▶|"}</button>
            <label class="scrub">
                <span>{format!("{} {step} of {last}", props.unit)}</span>
                <input type="range" min="0" max={last.to_string()} value={step.to_string()}
                    aria-label={format!("{} (0 to {last})", props.unit)} oninput={on_scrub} />
            </label>
            <label class="speed">
                <span>{"Speed"}</span>
                <select onchange={on_speed} aria-label="Playback speed">
                    { for speeds.iter().map(|s| html! {
                        <option value={decimal::shortest(*s)} selected={(*speed - s).abs() < 1e-9}>{format!("{}×", decimal::shortest(*s))}</option>
                    }) }
                </select>
            </label>
            {copy_link}
        </div>
    }
}
