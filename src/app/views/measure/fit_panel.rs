//! The fit panel: model, breakpoints and size range; α in µs, the bandwidth
//! in B/s and b/s, R², segments, the worst-fitting sizes, crossovers, the
//! hand-off to the cost view and the CSV of the fit.

use yew::prelude::*;

use super::csv_link::{Csv, CsvLink};
use super::state::{select_value, Action, PanelProps};
use crate::app::components::field::{text_field, TextFieldProps};
use crate::core::measure::{CollectiveKind, Model};
use crate::core::units::decimal;
use crate::core::units::{
    equation, format_beta, format_decimal, format_exact_or_approx, format_time,
};
use crate::pages::measure::{bw_text, us};

/// Controls and results of the α–β fit.
pub fn fit_panel(props: &PanelProps) -> Html {
    let s = &props.state;
    let Some(la) = &s.analysis.log else {
        return html! {};
    };
    let act = &props.on_action;
    let collective = match &s.analysis.import {
        Ok(imp) => imp
            .logs
            .get(la.index)
            .map(|l| l.collective)
            .unwrap_or(CollectiveKind::AllReduce),
        Err(_) => CollectiveKind::AllReduce,
    };
    let p = la.resolved.p.p;
    let on_model = act.reform(|e: Event| {
        Action::SetModel(Model::from_short(&select_value(&e)).unwrap_or(Model::Ring))
    });
    let on_breaks = act.reform(|e: Event| Action::SetBreaks(select_value(&e).parse().unwrap_or(0)));
    let controls = html! {
        <div class="measure-fields">
            <div class="field">
                <label for="fit-model">{"Algorithm model"}</label>
                <select id="fit-model" onchange={on_model}>
                    { for Model::all().into_iter().map(|m| html!{ <option value={m.key()} selected={m == la.model} disabled={m.factors(collective, p).is_none()}>{m.label()}</option> }) }
                </select>
            </div>
            <div class="field">
                <label for="fit-breaks">{"Breakpoints"}</label>
                <select id="fit-breaks" onchange={on_breaks}>
                    { for (0..=2usize).map(|k| html!{ <option value={k.to_string()} selected={k == s.settings.breaks}>{k.to_string()}</option> }) }
                </select>
            </div>
            {text_field(&TextFieldProps { name: "min".into(), label: "Smallest size fitted (empty = all)".into(), value: s.min_text.clone().into(), error: s.error("min"), on_commit: act.reform(Action::SetMin), hint: None })}
            {text_field(&TextFieldProps { name: "max".into(), label: "Largest size fitted (empty = all)".into(), value: s.max_text.clone().into(), error: s.error("max"), on_commit: act.reform(Action::SetMax), hint: None })}
        </div>
    };
    let body = match &la.fit {
        Err(e) => html! { <p id="fit-error" class="field-error" role="status">{e.to_string()}</p> },
        Ok(f) => {
            let (st, bf) = f.factors;
            html! {
                <>
                <p class="hint">{format!("T(n) = {}·α + {}·n·β ({}, p = {}; Huber robust fit on relative residuals)", format_exact_or_approx(st), format_exact_or_approx(bf), f.options.model.label(), f.options.p)}</p>
                <dl class="fit-results">
                    <dt>{"α (start-up latency)"}</dt><dd id="fit-alpha">{us(f.alpha)}</dd>
                    <dt>{"link bandwidth 1/β"}</dt><dd id="fit-bw">{bw_text(f.beta)}</dd>
                    <dt>{"β"}</dt><dd id="fit-beta">{format_beta(f.beta)}</dd>
                    <dt>{"R² (of log T)"}</dt><dd id="fit-r2">{format_exact_or_approx(f.r2_log)}</dd>
                    <dt>{"points fitted"}</dt><dd>{f.residuals.len()}</dd>
                </dl>
                if let Some(w) = f.poor_fit_warning() {
                    <p id="fit-warning" class="field-error" role="status">{w}</p>
                }
                if let Some(w) = f.alpha_extrapolated_warning() {
                    <p id="fit-alpha-warning" class="field-error" role="status">{w}</p>
                }
                if f.segments.len() > 1 {
                    <ul id="fit-segments">{ for f.segments.iter().map(|sg| html!{
                        <li>{format!("{} – {}: {}, bandwidth {} ({} points)", format_decimal(sg.from), format_decimal(sg.to), equation("α", &us(sg.alpha)), bw_text(sg.beta), sg.points)}</li>
                    }) }</ul>
                }
                <p id="fit-suggested">{ match f.suggested.0 {
                    0 => "No breakpoint detected: one line fits (BIC).".to_string(),
                    k => format!("The data suggest {k} breakpoint{} (protocol or algorithm switch) near {} (BIC){}", if k == 1 { "" } else { "s" }, f.suggested.1.iter().map(|&b| format_decimal(b)).collect::<Vec<_>>().join(" and "),
                        if f.options.breaks == k { ", as chosen above.".to_string() } else { format!("; choose {k} above to fit piecewise.") }),
                } }</p>
                if la.steps.iter().any(|st| st.2.is_some()) {
                    <ul id="fit-steps">{ for la.steps.iter().filter_map(|(lo, hi, name)| name.as_ref().map(|n| html!{
                        <li>{format!("Step between {} and {}: {n}", format_decimal(*lo), format_decimal(*hi))}</li>
                    })) }</ul>
                }
                { for f.notes.iter().map(|n| html!{ <p class="hint">{n.clone()}</p> }) }
                <h3>{"Largest deviations from the model"}</h3>
                <ul id="fit-worst">{ for f.worst.iter().filter_map(|&i| f.residuals.get(i)).map(|r| html!{
                    <li>{format!("{}: measured {} vs model {} ({:+} %)", format_decimal(r.n), format_time(r.t), format_time(r.predicted), decimal::fixed(r.rel * 100.0, 1))}</li>
                }) }</ul>
                if let Some(c) = &la.curves {
                    if !c.crossovers.is_empty() {
                        <h3>{"Crossovers at the fitted α, β"}</h3>
                        <ul id="fit-crossovers">{ for c.crossovers.iter().map(|x| html!{
                            <li>{format!("{} → {} at {}", x.below.label(), x.above.label(), format_decimal(x.n_bytes))}</li>
                        }) }</ul>
                    }
                }
                <p class="measure-links">
                    if let Some(h) = &la.handoff {
                        <a id="open-cost" href={h.url.clone()}>{"Open in the cost model"}</a>{" · "}
                        <a id="open-trace" href={h.trace.clone()}>{"Open a runner trace at this fit"}</a>{" · "}
                    }
                    <CsvLink id="fit-csv" label="Download the fit (CSV)" filename="alpha-beta-fit.csv" analysis={s.analysis.clone()} which={Csv::Fit} />
                </p>
                </>
            }
        }
    };
    html! {
        <section class="panel wide" aria-labelledby="fit-h">
            <h2 id="fit-h">{"α–β fit"}</h2>
            {controls}
            {body}
        </section>
    }
}
