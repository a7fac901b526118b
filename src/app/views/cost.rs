//! `?view=cost`: the α–β(–γ) cost model of all-reduce.
//!
//! Every number, every written-out calculation and every chart comes from
//! [`crate::core::cost`] and [`crate::plot::cost`]; this view only lays them
//! out. URL: `?view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB` (or `beta=`
//! instead of `bw=`; optional `gamma=`, `alg=`, `preset=`).

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::ViewProps;
use crate::app::components::field::TextField;
use crate::app::hooks::use_view_params;
use crate::core::collectives::Algorithm;
use crate::core::cost::{
    all_allreduce, best_at, best_intervals, crossover_calculation, nccl_bandwidths,
    CostParams as Model, Formula, Interval,
};
use crate::core::units::{
    bandwidth_chain, format_beta, format_binary, format_decimal, format_size, format_time,
};
use crate::params::cost::{
    parse_alg, parse_alpha, parse_bw, parse_message_size, parse_per_byte, CostViewParams, Link,
    Preset, MAX_P,
};
use crate::params::{parse_int_in, FieldError};
use crate::plot::cost::{colour_hex, draw_time_vs_p, draw_time_vs_size, draw_winner_map};

/// The three charts as SVG strings (or the message of a chart that failed).
#[derive(Clone, Debug, PartialEq)]
struct Charts {
    by_size: Result<String, String>,
    by_p: Result<String, String>,
    map: Result<String, String>,
}

fn draw_all(p: usize, n: f64, m: Model) -> Charts {
    Charts {
        by_size: draw_time_vs_size(p, m, n),
        by_p: draw_time_vs_p(n, m, p),
        map: draw_winner_map(m, n, p),
    }
}

/// A size in both prefix systems where they differ: "117.6 kB (114.9 KiB)".
fn both(n: f64) -> String {
    let d = format_decimal(n);
    let b = format_binary(n);
    if d == b {
        d
    } else {
        format!("{d} ({b})")
    }
}

fn interval_text(iv: &Interval) -> String {
    let to = if iv.to.is_finite() {
        both(iv.to)
    } else {
        "∞".to_string()
    };
    format!("{} – {}: {}", both(iv.from), to, iv.best.short_label())
}

/// One chart panel: the SVG, or the message plus the last good SVG.
fn chart_panel(
    id: &'static str,
    title: &'static str,
    result: &Result<String, String>,
    last_good: Option<&String>,
) -> Html {
    let (svg, error) = match result {
        Ok(svg) => (Some(svg.clone()), None),
        Err(e) => (last_good.cloned(), Some(e.clone())),
    };
    html! {
        <section class="panel wide chart-panel" aria-labelledby={format!("{id}-h")}>
            <h3 id={format!("{id}-h")}>{title}</h3>
            if let Some(e) = error {
                <p class="field-error" role="alert">{format!("This chart could not be drawn: {e}. Showing the last good chart.")}</p>
            }
            <div id={id} class="chart-box" role="img" aria-label={title}>
                { svg.map(|s| Html::from_html_unchecked(AttrValue::from(s))).unwrap_or_default() }
            </div>
        </section>
    }
}

/// The cost-model view.
#[component]
pub fn CostView(props: &ViewProps) -> Html {
    let (params, drafts) = use_view_params::<CostViewParams>(props);
    let last_good: Rc<RefCell<[Option<String>; 3]>> = use_mut_ref(Default::default);

    let p = params.p;
    let n = params.n_bytes();
    let model = params.model();
    let table: Rc<Vec<(Algorithm, Formula)>> =
        use_memo((p, n, model), |(p, n, m)| all_allreduce(*p, *n, *m));
    let intervals: Rc<Vec<Interval>> = use_memo((p, model), |(p, m)| best_intervals(*p, *m));
    let charts: Rc<Charts> = use_memo((p, n, model), |(p, n, m)| draw_all(*p, *n, *m));
    {
        let mut lg = last_good.borrow_mut();
        for (slot, r) in lg
            .iter_mut()
            .zip([&charts.by_size, &charts.by_p, &charts.map])
        {
            if let Ok(svg) = r {
                *slot = Some(svg.clone());
            }
        }
    }
    let winner = best_at(p, n, model);
    let chosen = params.alg.unwrap_or(winner);

    // --- callbacks -----------------------------------------------------------
    let commit = |field: &'static str| {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |text: String| {
            let mut next = (*params).clone();
            let mut d = (*drafts).clone();
            let result: Result<(), FieldError> = match field {
                "p" => parse_int_in("p", &text, 2, MAX_P).map(|v| {
                    next.p = v as usize;
                    next.preset = None;
                }),
                "alpha" => parse_alpha(&text).map(|v| {
                    next.alpha = v;
                    next.preset = None;
                }),
                "bw" => parse_bw(&text).map(|v| {
                    next.link = v;
                    next.preset = None;
                }),
                "beta" => parse_per_byte("beta", &text, false).map(|v| {
                    next.link = Link::Beta(v);
                    next.preset = None;
                }),
                "size" => parse_message_size(&text).map(|v| next.size = v),
                "gamma" => parse_per_byte("gamma", &text, true).map(|v| {
                    next.gamma = (v.value != 0.0).then_some(v);
                }),
                _ => Ok(()),
            };
            match result {
                Ok(()) => {
                    d.accept(field);
                    // A good bw clears a stale β error and the other way round.
                    if field == "bw" {
                        d.accept("beta");
                    } else if field == "beta" {
                        d.accept("bw");
                    }
                    params.set(next);
                }
                Err(e) => d.reject(field, text, e.message),
            }
            drafts.set(d);
        })
    };
    let on_preset = {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(pr) = Preset::parse(&sel.value()) {
                let mut next = (*params).clone();
                next.apply_preset(pr);
                let mut d = (*drafts).clone();
                for f in ["p", "alpha", "bw", "beta", "preset"] {
                    d.accept(f);
                }
                drafts.set(d);
                params.set(next);
            }
        })
    };
    let on_alg = {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let mut next = (*params).clone();
            next.alg = parse_alg(&sel.value()).ok();
            let mut d = (*drafts).clone();
            d.accept("alg");
            drafts.set(d);
            params.set(next);
        })
    };

    // --- table ---------------------------------------------------------------
    let with_gamma = model.gamma != 0.0;
    let rows = table.iter().map(|(a, f)| {
        let win = *a == winner;
        html! {
            <tr key={a.key()} id={format!("row-{}", a.key())} class={classes!(win.then_some("winner"))}>
                <th scope="row">
                    <span class="swatch" aria-hidden="true" style={format!("display:inline-block;width:12px;height:12px;border-radius:3px;background:{}", colour_hex(*a))}></span>
                    {" "}{a.short_label()}
                    if win { <span class="badge">{" (fastest)"}</span> }
                </th>
                <td><code>{f.expression.clone()}</code><br/>
                    <small class={classes!("muted", f.pow2_adapted.then_some("adapted"))}>{f.label.clone()}</small></td>
                <td>{format!("{:.0}", f.startups)}</td>
                <td id={format!("alpha-{}", a.key())}>{format_time(f.alpha_part)}</td>
                <td id={format!("beta-{}", a.key())}>{format_time(f.beta_part)}</td>
                if with_gamma { <td id={format!("gamma-{}", a.key())}>{format_time(f.gamma_part)}</td> }
                <td id={format!("time-{}", a.key())}><strong>{format_time(f.time)}</strong></td>
            </tr>
        }
    });
    let winner_time = table
        .iter()
        .find(|(a, _)| *a == winner)
        .map_or(0.0, |(_, f)| f.time);
    let any_adapted = table.iter().any(|(_, f)| f.pow2_adapted);

    // --- show the calculation -------------------------------------------------
    let calcs = table.iter().map(|(a, f)| {
        html! {
            <details key={a.key()} id={format!("calc-{}", a.key())} open={*a == chosen}>
                <summary>{format!("{} — {}", a.short_label(), format_time(f.time))}</summary>
                <pre class="calc">{f.substituted.join("\n")}</pre>
            </details>
        }
    });

    // --- crossovers -----------------------------------------------------------
    let iv_items = intervals.iter().map(|iv| {
        html! { <li style={format!("border-left: 6px solid {}; padding-left: 6px", colour_hex(iv.best))}>{interval_text(iv)}</li> }
    });
    let cross_calcs: Vec<Html> = intervals
        .windows(2)
        .filter_map(|w| crossover_calculation(w[0].best, w[1].best, p, model))
        .map(|lines| html! { <pre class="calc">{lines.join("\n")}</pre> })
        .collect();

    // --- algbw / busbw ----------------------------------------------------------
    let chosen_f = table
        .iter()
        .find(|(a, _)| *a == chosen)
        .map(|(_, f)| f.clone());
    let bw_panel = chosen_f.map(|f| {
        let nb = nccl_bandwidths(n, f.time, p);
        html! {
            <>
                <p id="algbw">{nb.lines.first().cloned().unwrap_or_default()}</p>
                <p id="busbw">{nb.lines.get(1).cloned().unwrap_or_default()}</p>
            </>
        }
    });

    // --- units line -------------------------------------------------------------
    let link_text = match &params.link {
        Link::Bandwidth(b) => bandwidth_chain(&b.value),
        Link::Beta(b) => format!("β = {} (given directly)", format_beta(b.value)),
    };
    let (bw_text, beta_text) = match &params.link {
        Link::Bandwidth(b) => (b.text.clone(), format_beta(b.value.beta()).replace(' ', "")),
        Link::Beta(b) => (
            crate::core::units::format_bandwidth(1.0 / b.value).replace(' ', ""),
            b.text.clone(),
        ),
    };

    let d = &*drafts;
    let orphan_errors = d.orphans_html(&["p", "size", "bw", "beta", "alpha", "gamma"]);
    let preset_value = params.preset.map_or("", Preset::key);
    let lg = last_good.borrow();

    html! {
        <div class="view view-cost">
            <h1>{"α–β cost model: which all-reduce wins?"}</h1>
            <p class="lede">
                {"One message of n bytes costs α + nβ: a fixed start-up α plus n times β, the seconds per byte. \
                  Each all-reduce pays a different number of start-ups and moves a different number of bytes on its critical path, \
                  so the fastest one depends on the message size, the number of ranks p and the link."}
            </p>
            <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <div class="field">
                    <label for="f-preset">{"Preset (illustrative)"}</label>
                    <select id="f-preset" onchange={on_preset}>
                        <option value="" selected={preset_value.is_empty()}>{"custom values"}</option>
                        { for Preset::all().into_iter().map(|pr| html! {
                            <option value={pr.key()} selected={preset_value == pr.key()}>{pr.label()}</option>
                        }) }
                    </select>
                </div>
                <TextField name="p" label="Ranks p" value={d.text_or("p", &p.to_string())}
                    error={d.error("p")} hint={AttrValue::from(format!("2 to {MAX_P}"))} on_commit={commit("p")} />
                <TextField name="size" label="Message size n" value={d.text_or("size", &params.size.text)}
                    error={d.error("size")} hint={AttrValue::from(format_size(params.size.value.bytes))} on_commit={commit("size")} />
                <TextField name="alpha" label="Start-up latency α" value={d.text_or("alpha", &params.alpha.text)}
                    error={d.error("alpha")} hint={AttrValue::from("s, ms, µs (us) or ns, e.g. 5us")} on_commit={commit("alpha")} />
                <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &bw_text)}
                    error={d.error("bw")} hint={AttrValue::from("e.g. 100Gb/s or 12.5GB/s")} on_commit={commit("bw")} />
                <TextField name="beta" label="… or β directly" value={d.text_or("beta", &beta_text)}
                    error={d.error("beta")} hint={AttrValue::from("seconds per byte, e.g. 0.08ns/B")} on_commit={commit("beta")} />
                <TextField name="gamma" label="Reduction cost γ (optional)"
                    value={d.text_or("gamma", &params.gamma.as_ref().map_or_else(|| "0ns/B".to_string(), |g| g.text.clone()))}
                    error={d.error("gamma")} hint={AttrValue::from("per byte reduced; 0 ignores compute")} on_commit={commit("gamma")} />
            </form>
            {orphan_errors}
            <p class="units-line" id="units-line">
                {format!("p = {p}; α = {}; {link_text}; n = {}", format_time(model.alpha), format_size(params.size.value.bytes))}
                if with_gamma { {format!("; γ = {}", format_beta(model.gamma))} }
            </p>
            if let Some(pr) = params.preset {
                <p class="muted" id="preset-note">{format!("Preset: {}. These are round illustrative numbers for a link class, not measurements of a product.", pr.label())}</p>
            }

            <section class="panel wide" aria-labelledby="table-h">
                <h3 id="table-h">{format!("All-reduce time at n = {}, p = {p}", both(n))}</h3>
                <div class="table-scroll">
                    <table class="numbers cost-table">
                        <thead><tr>
                            <th>{"algorithm"}</th><th>{"formula"}</th><th>{"start-ups"}</th>
                            <th>{"α part"}</th><th>{"β part"}</th>
                            if with_gamma { <th>{"γ part"}</th> }
                            <th>{"time T"}</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
                <p id="winner"><strong>{format!("Fastest at {}: {}, {}.", both(n), winner.short_label(), format_time(winner_time))}</strong></p>
                if any_adapted {
                    <p class="muted">{"p is not a power of two, so recursive doubling and Rabenseifner use the fold-in / unfold adaptation: \
                        the extra ranks hand their data to a partner in the largest power-of-two subset first and get the result back at the end, \
                        two more full-message steps. The label under each formula says which form was used."}</p>
                }
            </section>

            <div class="panels">
                <section class="panel" aria-labelledby="calc-h">
                    <h3 id="calc-h">{"Show the calculation"}</h3>
                    <p class="muted">{"Each formula with p, α, β and n substituted, step by step."}</p>
                    { for calcs }
                </section>
                <section class="panel" aria-labelledby="cross-h">
                    <h3 id="cross-h">{"Crossovers"}</h3>
                    <p class="muted">{"Every cost is a straight line in n, so two algorithms break even at exactly one size. The fastest algorithm on each range of n:"}</p>
                    <ul class="intervals" id="intervals">{ for iv_items }</ul>
                    { for cross_calcs }
                    <p class="muted">{"These thresholds belong to these parameters and this model, not to every machine."}</p>
                </section>
                <section class="panel" aria-labelledby="bw-h">
                    <h3 id="bw-h">{"algbw and busbw (nccl-tests)"}</h3>
                    <div class="field">
                        <label for="f-alg">{"Algorithm"}</label>
                        <select id="f-alg" onchange={on_alg}>
                            <option value="" selected={params.alg.is_none()}>{format!("fastest ({})", winner.short_label())}</option>
                            { for Algorithm::compared().iter().map(|&a| html! {
                                <option value={a.key()} selected={params.alg == Some(a)}>{a.short_label()}</option>
                            }) }
                        </select>
                    </div>
                    {for bw_panel}
                    <p class="muted">{"algbw = S/t and busbw = algbw · 2(p−1)/p, as nccl-tests prints them, so a measured all_reduce_perf line can be compared directly. \
                        busbw approaches 1/β for a bandwidth-optimal algorithm."}</p>
                </section>
            </div>

            <div class="panels">
                {chart_panel("chart-size", "Time against message size (log–log)", &charts.by_size, lg[0].as_ref())}
                {chart_panel("chart-p", "Time against the number of ranks", &charts.by_p, lg[1].as_ref())}
                {chart_panel("chart-map", "Winner map: fastest algorithm by size and ranks", &charts.map, lg[2].as_ref())}
            </div>

            <section class="panel wide" aria-labelledby="assume-h">
                <h3 id="assume-h">{"Assumptions"}</h3>
                <ul class="muted">
                    <li>{"α–β model as in Thakur, Rabenseifner & Gropp (2005): a message of m bytes costs α + mβ; a rank sends and receives one message at a time; no contention; equal chunks of n/p bytes."}</li>
                    <li>{"Binomial tree = unpipelined reduce to a root then broadcast, the whole tensor per message; pipelined and double-binary trees behave differently."}</li>
                    <li>{"Naive root = the root receives and then sends one full tensor at a time."}</li>
                    <li>{"γ (seconds per reduced byte) defaults to 0, as in the worked examples."}</li>
                </ul>
            </section>
        </div>
    }
}
