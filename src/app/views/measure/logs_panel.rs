//! One section per log of the paste: its algorithm and p (from the
//! annotation line when there is one) and, for an annotated log, the
//! measured times beside its closed form at the α, β fitted to it, size by
//! size. Renders [`crate::core::measure::joint::compare`]'s numbers only.

use yew::prelude::*;

use crate::core::measure::analysis::{Analysis, LogSummary};
use crate::core::measure::annotate::valid_keys;
use crate::core::units::{format_bandwidth, format_decimal, sig};
use crate::pages::common::shared::Shared;
use crate::pages::measure::us;

/// Props of [`logs_panel`].
#[derive(PartialEq)]
pub struct LogsPanelProps {
    /// The core's analysis.
    pub analysis: Shared<Analysis>,
}

fn one(imp: &crate::core::measure::Import, l: &LogSummary) -> Html {
    let ann = imp.logs.get(l.index).and_then(|g| g.annotation);
    let bad_alg = ann.is_some_and(|a| a.alg.is_none());
    let id = format!("log-{}", l.index + 1);
    html! {
        <div class="measure-log" id={id}>
            <h3>{l.title.clone()}</h3>
            <p class="hint">{l.p.note.clone()}</p>
            if bad_alg {
                <p class="field-error" role="status">{format!("The annotation names no known algorithm (alg=…); valid keys: {}", valid_keys())}</p>
            }
            { match &l.comparison {
                None => html! {},
                Some(Err(e)) => html! { <p class="field-error" role="status">{e.clone()}</p> },
                Some(Ok(c)) => {
                    let [a, b, _] = c.factors;
                    html! {
                        <>
                        <p>{format!("Model: T(n) = {}·α + {}·n·β ({}), fitted α = {}, 1/β = {}", sig(a, 4), sig(b, 4), c.alg.label(), us(c.alpha), if c.beta > 0.0 { format_bandwidth(1.0 / c.beta) } else { "unbounded (β ≤ 0)".into() })}</p>
                        <table class="data compare">
                            <thead><tr><th>{"size"}</th><th>{"measured"}</th><th>{"model"}</th><th>{"measured / model"}</th></tr></thead>
                            <tbody>{ for c.rows.iter().take(64).map(|r| html!{
                                <tr><td>{format_decimal(r.n)}</td><td>{us(r.measured)}</td><td>{us(r.model)}</td><td>{sig(r.ratio, 3)}</td></tr>
                            }) }</tbody>
                        </table>
                        </>
                    }
                }
            } }
        </div>
    }
}

/// Every log, when there are several or one is annotated.
pub fn logs_panel(props: &LogsPanelProps) -> Html {
    let a = &props.analysis;
    let Ok(imp) = &a.import else {
        return html! {};
    };
    let annotated = imp.logs.iter().any(|l| l.annotation.is_some());
    if a.logs.len() < 2 && !annotated {
        return html! {};
    }
    html! {
        <section class="panel wide" id="logs-panel" aria-labelledby="logs-h">
            <h2 id="logs-h">{format!("{} log{} in the paste", a.logs.len(), if a.logs.len() == 1 { "" } else { "s" })}</h2>
            <p class="hint">{"A line # collective-lab-run alg=KEY p=N (or # alg=KEY p=N) names the algorithm and rank count of the log below it; each such line, or a repeated table header, starts a new log."}</p>
            { for a.logs.iter().map(|l| one(imp, l)) }
        </section>
    }
}
