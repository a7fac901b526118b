//! The regime fit: eager and rendezvous regimes with their own α and β, a
//! shared γ and breakpoint, per-log residuals, and each pair's predicted
//! crossover next to the measured one. Renders
//! [`crate::core::measure::regime::regime_fit`]'s numbers only.

use std::rc::Rc;

use yew::prelude::*;

use super::logs_panel::us;
use super::state::{Action, MeasureState};
use crate::app::components::field::TextField;
use crate::core::measure::joint::JointFit;
use crate::core::measure::regime::RegimeFit;
use crate::core::units::{format_decimal, group_thousands, sig};

/// Props of [`RegimePanel`].
#[derive(Properties, PartialEq)]
pub struct RegimePanelProps {
    /// The view's state (its analysis and the breakpoint field).
    pub state: Rc<MeasureState>,
    /// Dispatches actions.
    pub on_action: Callback<Action>,
}

fn bytes(b: f64) -> String {
    format!("{} B", group_thousands(b.round() as u64))
}

fn gbs(beta: f64) -> String {
    format!("{} GB/s", sig(1e-9 / beta, 4))
}

fn fit(k: usize, f: &RegimeFit, name: Option<&String>, single: Option<&JointFit>) -> Html {
    let label = |i: usize| f.logs.get(i).map(|l| l.label.clone()).unwrap_or_default();
    let b = &f.breakpoint;
    let where_ = if b.given {
        format!(
            "given: messages of {} or more are in the second regime",
            bytes(b.limit)
        )
    } else {
        format!(
            "between {} and {} per message (95 % interval {} – {})",
            bytes(b.bracket.0),
            bytes(b.bracket.1),
            bytes(b.interval.0),
            bytes(b.interval.1)
        )
    };
    let single_rms = |i: usize| single.and_then(|j| j.logs.get(i)).map(|l| l.rms_rel);
    html! {
        <div class="regime-fit" id={format!("regime-{k}")}>
            <h3>{format!("p = {}: {} logs", f.p, f.logs.len())}</h3>
            <dl class="fit-results">
                <dt>{"breakpoint"}</dt><dd class="regime-break">{where_}</dd>
                <dt>{"eager regime"}</dt><dd class="regime-eager">{format!("α = {}, 1/β = {}", us(f.regimes.eager.alpha), gbs(f.regimes.eager.beta))}</dd>
                <dt>{"rendezvous regime"}</dt><dd class="regime-rndv">{format!("α = {}, 1/β = {}", us(f.regimes.rendezvous.alpha), gbs(f.regimes.rendezvous.beta))}</dd>
                <dt>{"γ (reduction)"}</dt><dd>{format!("{} ns/B", sig(f.gamma * 1e9, 4))}</dd>
            </dl>
            if let Some(n) = name {
                <p class="regime-name"><strong>{n.clone()}</strong></p>
            }
            if !f.gamma_separable {
                <p class="muted">{"These algorithms reduce the same share of the bytes they send, so γ cannot be told from β: γ = 0 and β includes the reduction."}</p>
            }
            if let Some(g) = f.gamma_clamped {
                <p class="flagged">{format!("The unconstrained fit gave γ = {} ns/B < 0; refitted with γ = 0.", sig(g * 1e9, 3))}</p>
            }
            <p class="muted">{if f.bic.0 < f.bic.1 {
                format!("Two regimes are worth their three extra parameters here (BIC {} against {} for one line).", sig(f.bic.0, 4), sig(f.bic.1, 4))
            } else {
                format!("One line explains these logs as well (BIC {} for two regimes against {}): the breakpoint is weak.", sig(f.bic.0, 4), sig(f.bic.1, 4))
            }}</p>
            <table class="data regime-logs">
                <thead><tr><th>{"log"}</th><th>{"rms relative residual, regimes"}</th><th>{"one line (joint fit)"}</th></tr></thead>
                <tbody>{ for f.logs.iter().enumerate().map(|(i, l)| html!{
                    <tr><td>{l.label.clone()}</td>
                        <td class="regime-rms">{format!("{} %", sig(l.rms_rel * 100.0, 3))}</td>
                        <td>{single_rms(i).map_or_else(|| "—".to_string(), |r| format!("{} %", sig(r * 100.0, 3)))}</td></tr>
                }) }</tbody>
            </table>
            <table class="data regime-crossovers">
                <thead><tr><th>{"pair"}</th><th>{"predicted crossover (regimes)"}</th><th>{"measured crossover"}</th><th>{"predicted / measured"}</th></tr></thead>
                <tbody>{ for f.crossovers.iter().map(|x| html!{
                    <tr>
                        <td>{format!("{} vs {}", label(x.a), label(x.b))}</td>
                        <td class="regime-predicted">{x.predicted.first().map_or_else(|| "none in the measured sizes".to_string(), |&n| format_decimal(n))}</td>
                        <td class="regime-measured">{x.measured.first().map_or_else(|| "none".to_string(), |&n| format_decimal(n))}</td>
                        <td class="regime-ratio">{x.ratio().map_or_else(|| "—".to_string(), |r| sig(r, 3))}</td>
                    </tr>
                }) }</tbody>
            </table>
        </div>
    }
}

/// The regime-fit panel (nothing without two annotated logs of one p).
#[component]
pub fn RegimePanel(props: &RegimePanelProps) -> Html {
    let s = &props.state;
    let a = &s.analysis;
    if a.regimes.is_empty() {
        return html! {};
    }
    html! {
        <section class="panel wide" id="regime-panel" aria-labelledby="regime-h">
            <h2 id="regime-h">{"Protocol regimes: eager and rendezvous"}</h2>
            <p class="hint">{"MPI sends a short message eagerly and a long one after a handshake (rendezvous), so one line per algorithm cannot follow a real log. \
                Each message of each algorithm's rounds is timed by its regime, α_e + m·β_e below the breakpoint and α_r + m·β_r from it, plus a shared γ; \
                the breakpoint is the candidate between two message sizes with the best robust fit. The predicted crossover is where the two regime times cross first \
                inside the measured sizes, the measured one where the measured times cross first."}</p>
            <TextField name="eager" label="Breakpoint (empty = found from the data)" value={s.eager_text.clone()}
                error={s.error("eager")} hint={AttrValue::from("bytes per message, e.g. 4KiB")} on_commit={props.on_action.reform(Action::SetEager)} />
            { for a.regimes.iter().enumerate().map(|(k, r)| match r {
                Ok(f) => fit(k, f, a.regime_names.get(k).and_then(Option::as_ref), a.joint.get(k).and_then(|j| j.as_ref().ok())),
                Err(e) => html! { <p class="field-error" role="status">{e.to_string()}</p> },
            }) }
        </section>
    }
}
