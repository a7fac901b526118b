//! The regime fit: eager and rendezvous regimes with their own α and β, a
//! shared γ and breakpoint, per-log residuals, and each pair's predicted
//! crossover next to the measured one. Renders
//! [`crate::core::measure::regime::regime_fit`]'s numbers only.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{Action, MeasureState};
use crate::app::components::field::{text_field, TextFieldProps};
use crate::core::measure::joint::JointFit;
use crate::core::measure::regime::RegimeFit;
use crate::core::units::{format_decimal, sig};
use crate::pages::measure::{bytes, gbs, us};

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
            if !f.gamma_separable || f.gamma_clamped.is_some() {
                <p class="muted">{"γ = 0: these logs cannot separate it from β (or it came out negative)."}</p>
            }
            if f.bic.0 >= f.bic.1 {
                <p class="muted">{"One line explains these logs as well (BIC): the breakpoint is weak."}</p>
            }
            <table class="data regime-logs">
                <thead><tr><th>{"log"}</th><th>{"rms residual, regimes"}</th><th>{"one line"}</th></tr></thead>
                <tbody>{ for f.logs.iter().enumerate().map(|(i, l)| html!{
                    <tr><td>{l.label.clone()}</td>
                        <td class="regime-rms">{format!("{} %", sig(l.rms_rel * 100.0, 3))}</td>
                        <td>{single_rms(i).map_or_else(|| "—".to_string(), |r| format!("{} %", sig(r * 100.0, 3)))}</td></tr>
                }) }</tbody>
            </table>
            <table class="data regime-crossovers">
                <thead><tr><th>{"pair"}</th><th>{"predicted crossover"}</th><th>{"measured"}</th><th>{"ratio"}</th></tr></thead>
                <tbody>{ for f.crossovers.iter().map(|x| html!{
                    <tr>
                        <td>{format!("{} vs {}", label(x.a), label(x.b))}</td>
                        <td class="regime-predicted">{x.predicted.first().map_or_else(|| "none".to_string(), |&n| format_decimal(n))}</td>
                        <td class="regime-measured">{x.measured.first().map_or_else(|| "none".to_string(), |&n| format_decimal(n))}</td>
                        <td class="regime-ratio">{x.ratio().map_or_else(|| "—".to_string(), |r| sig(r, 3))}</td>
                    </tr>
                }) }</tbody>
            </table>
        </div>
    }
}

/// The regime-fit panel (nothing without two annotated logs of one p) of
/// the view's state `s` (its analysis and the breakpoint field); a plain
/// function, not a component (one component less on the page).
pub fn regime_panel(s: &Rc<MeasureState>, on_action: &Callback<Action>) -> Html {
    let a = &s.analysis;
    if a.regimes.is_empty() {
        return html! {};
    }
    html! {
        <section class="panel wide" id="regime-panel" aria-labelledby="regime-h">
            <h2 id="regime-h">{"Protocol regimes: eager and rendezvous"}</h2>
            <p class="hint">{"Each message is timed by its regime: α_e + m·β_e below the breakpoint (eager), α_r + m·β_r from it (rendezvous), plus a shared γ."}</p>
            {text_field(&TextFieldProps { name: "eager".into(), label: "Breakpoint (empty = found from the data)".into(), value: s.eager_text.clone().into(), error: s.error("eager"), hint: Some((AttrValue::from("bytes per message, e.g. 4KiB")).into()), on_commit: on_action.reform(Action::SetEager) })}
            { for a.regimes.iter().enumerate().map(|(k, r)| match r {
                Ok(f) => fit(k, f, a.regime_names.get(k).and_then(Option::as_ref), a.joint.get(k).and_then(|j| j.as_ref().ok())),
                Err(e) => html! { <p class="field-error" role="status">{e.to_string()}</p> },
            }) }
        </section>
    }
}
