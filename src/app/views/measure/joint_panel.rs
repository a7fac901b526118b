//! The joint fit: one α, β, γ for every annotated log of the same p, each
//! log through its own closed form, with per-log residuals and the
//! predicted and measured crossovers. Renders
//! [`crate::core::measure::joint::joint_fit`]'s numbers only.

use yew::prelude::*;

use crate::core::measure::analysis::Analysis;
use crate::core::measure::joint::{JointFit, MAX_CROSSINGS};
use crate::core::units::{format_decimal, sig};
use crate::pages::common::shared::Shared;
use crate::pages::measure::us;

/// Props of [`joint_panel`].
#[derive(PartialEq)]
pub struct JointPanelProps {
    /// The core's analysis.
    pub analysis: Shared<Analysis>,
}

fn fit(k: usize, f: &JointFit) -> Html {
    let name = |i: usize| f.logs.get(i).map(|l| l.label.clone()).unwrap_or_default();
    html! {
        <div class="joint-fit" id={format!("joint-{k}")}>
            <h3>{format!("p = {}: {} logs", f.p, f.logs.len())}</h3>
            <dl class="fit-results">
                <dt>{"α (start-up)"}</dt><dd class="joint-alpha">{us(f.alpha)}</dd>
                <dt>{"bandwidth 1/β"}</dt><dd class="joint-bw">{format!("{} GB/s", sig(1e-9 / f.beta, 4))}</dd>
                <dt>{"γ (reduction)"}</dt><dd class="joint-gamma">{format!("{} ns/B", sig(f.gamma * 1e9, 4))}</dd>
            </dl>
            if let Some(g) = f.gamma_clamped {
                <p class="flagged">{format!("The unconstrained fit gave γ = {} ns/B < 0; refitted with γ = 0.", sig(g * 1e9, 3))}</p>
            }
            <table class="data joint-logs">
                <thead><tr><th>{"log"}</th><th>{"a, b, g"}</th><th>{"rms relative residual"}</th></tr></thead>
                <tbody>{ for f.logs.iter().map(|l| html!{
                    <tr><td>{l.label.clone()}</td><td>{l.factors.iter().map(|x| sig(*x, 4)).collect::<Vec<_>>().join(", ")}</td><td class="joint-rms">{format!("{} %", sig(l.rms_rel * 100.0, 3))}</td></tr>
                }) }</tbody>
            </table>
            <table class="data joint-crossovers">
                <thead><tr><th>{"pair"}</th><th>{"predicted crossover"}</th><th>{format!("measured crossings (≤ {MAX_CROSSINGS})")}</th></tr></thead>
                <tbody>{ for f.crossovers.iter().map(|x| html!{
                    <tr>
                        <td>{format!("{} vs {}", name(x.a), name(x.b))}</td>
                        <td class="joint-predicted">{ match x.predicted {
                            Some((n, below)) => format!("{} ({} faster below)", format_decimal(n), name(below)),
                            None => "none up to 1 TiB".into(),
                        } }</td>
                        <td class="joint-measured">{ if x.measured.is_empty() { "none".to_string() } else { x.measured.iter().map(|&n| format_decimal(n)).collect::<Vec<_>>().join(", ") } }</td>
                    </tr>
                }) }</tbody>
            </table>
        </div>
    }
}

/// The joint-fit panel (nothing without two annotated logs of one p).
pub fn joint_panel(props: &JointPanelProps) -> Html {
    let j = &props.analysis.joint;
    if j.is_empty() {
        return html! {};
    }
    html! {
        <section class="panel wide" id="joint-panel" aria-labelledby="joint-h">
            <h2 id="joint-h">{"Joint fit: one α, β, γ for every algorithm"}</h2>
            <p class="hint">{"T(n) = a·α + b·n·β + g·n·γ with each log's own factors (Thakur, Rabenseifner & Gropp 2005); least squares in relative error (rows weighted 1/t²), Huber re-weighted; γ ≥ 0. At p = 2 the ring moves the same bytes as recursive doubling with twice the start-ups, so α–β alone says the ring never wins; but each ring rank reduces half the vector (g = (p−1)/p = ½ against log₂p = 1), so γ explains a measured ring win above 2α/γ."}</p>
            { for j.iter().enumerate().map(|(k, r)| match r {
                Ok(f) => fit(k, f),
                Err(e) => html! { <p class="field-error" role="status">{e.to_string()}</p> },
            }) }
        </section>
    }
}
