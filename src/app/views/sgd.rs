//! `?view=sgd`: the global objective from unequal shards, then all-reduce
//! SGD, decentralised SGD (D-PSGD) and local SGD trained side by side.
//!
//! Everything shown comes from the core: the calculator from
//! [`crate::core::sgd::objective`], the runs, optima, bytes and narration
//! from [`crate::core::sgd`] (via [`SgdParams::run`]), the charts from
//! [`crate::plot::sgd`]. This view keeps the parameters, picks the step and
//! draws.

use std::rc::Rc;

use nalgebra::DMatrix;
use yew::prelude::*;

use super::gossip::RULES;
use super::ViewProps;
use crate::app::components::field::TextField;
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::use_view_params;
use crate::core::sgd::narrate::{compare_step, narrate_step, over_weighting_line, sig, trap_line};
use crate::core::sgd::{combine_gradients, Lab, Objective, Problem, Strategy, StrategyTrace};
use crate::core::units::format_bytes_short;
use crate::params::gossip::GraphChoice;
use crate::params::sgd::{parse_table, SgdParams};
use crate::params::{FieldError, Query};
use crate::plot::sgd::{
    draw_consensus, draw_loss, draw_loss_vs_bytes, draw_sample_weights, draw_trajectories,
};

type RunResult = Result<(Problem, DMatrix<f64>, Lab), String>;

/// The parameters the training run depends on (not the step, the narrated
/// mode or the calculator's losses).
fn run_key(p: &SgdParams) -> SgdParams {
    let mut k = p.clone();
    k.step = 0;
    k.mode = Strategy::AllReduce;
    k.losses.clear();
    k
}

fn rows_of(p: &SgdParams) -> Vec<(String, String)> {
    p.shards
        .iter()
        .zip(&p.losses)
        .map(|(n, l)| (n.to_string(), l.to_string()))
        .collect()
}

fn svg_box(svg: String) -> Html {
    html! { <div class="chart-box">{Html::from_html_unchecked(AttrValue::from(svg))}</div> }
}

fn vec_text(w: &[f64]) -> String {
    let inner: Vec<String> = w.iter().map(|v| sig(*v, 4)).collect();
    format!("({})", inner.join(", "))
}

/// The calculator's table callbacks.
struct TableCallbacks<'a> {
    on_cell: &'a dyn Fn(usize, usize) -> Callback<Event>,
    on_add: Callback<MouseEvent>,
    on_remove: &'a dyn Fn(usize) -> Callback<MouseEvent>,
    on_reset: Callback<MouseEvent>,
}

/// The calculator: editable shard table, weights chart, the two means.
fn calculator(
    rows: &[(String, String)],
    objective: &Result<Objective, String>,
    losses: &[f64],
    shards: &[u64],
    batch: usize,
    table_error: Option<String>,
    cb: TableCallbacks<'_>,
) -> Html {
    let TableCallbacks {
        on_cell,
        on_add,
        on_remove,
        on_reset,
    } = cb;
    let o = objective.as_ref().ok();
    let m = rows.len();
    let body = rows.iter().enumerate().map(|(k, (n, l))| {
        let w = o.and_then(|o| o.weights.get(k).copied());
        let c = o.and_then(|o| o.contributions.get(k).copied());
        html! {
            <tr key={k}>
                <th scope="row">{k + 1}</th>
                <td><input type="text" inputmode="numeric" class="num" id={format!("f-n-{k}")} value={n.clone()}
                    aria-label={format!("shard {} samples n_k", k + 1)} onchange={on_cell(k, 0)} /></td>
                <td><input type="text" inputmode="decimal" class="num" id={format!("f-l-{k}")} value={l.clone()}
                    aria-label={format!("shard {} mean loss L_k", k + 1)} onchange={on_cell(k, 1)} /></td>
                <td id={format!("weight-{k}")}>{w.map(|w| sig(w, 4)).unwrap_or_default()}</td>
                <td>{c.map(|c| sig(c, 4)).unwrap_or_default()}</td>
                <td>{sig(1.0 / m.max(1) as f64, 4)}</td>
                <td>
                    if m > 1 {
                        <button type="button" class="small" onclick={on_remove(k)}
                            aria-label={format!("remove shard {}", k + 1)}>{"✕"}</button>
                    }
                </td>
            </tr>
        }
    });
    let results = match o {
        Some(o) => html! {
            <>
                <table class="numbers">
                    <tbody>
                        <tr><th scope="row">{"N = Σ n_k"}</th><td id="total-samples">{o.total}</td></tr>
                        <tr><th scope="row">{"global mean loss Σ (n_k/N) L_k"}</th>
                            <td id="global-mean"><strong>{sig(o.global_mean, 4)}</strong></td></tr>
                        <tr><th scope="row">{"plain average (1/m) Σ L_k"}</th>
                            <td id="plain-mean">{sig(o.plain_mean, 4)}</td></tr>
                        <tr><th scope="row">{"plain − global"}</th>
                            <td id="difference">{sig(o.difference, 4)}</td></tr>
                    </tbody>
                </table>
                <p id="over-weighting">{over_weighting_line(o, losses)}</p>
                <div class="chart-box" style="max-width:560px">
                    { draw_sample_weights(o).map(|s| Html::from_html_unchecked(AttrValue::from(s))).unwrap_or_default() }
                </div>
            </>
        },
        None => html! {},
    };
    // One synchronous mini-batch step, with the L_k column read as scalar
    // local mean gradients g_k.
    let grads: Vec<Vec<f64>> = losses.iter().map(|g| vec![*g]).collect();
    // Equal local mini-batches of the training batch size (16 by default;
    // 32 when training uses whole shards).
    let b = if batch == 0 { 32 } else { batch };
    let equal: Vec<i64> = vec![b as i64; losses.len()];
    let unequal: Vec<i64> = shards.iter().map(|&n| n as i64).collect();
    let eq = combine_gradients(&equal, &grads).ok();
    let uneq = combine_gradients(&unequal, &grads).ok();
    let step_panel = match (eq, uneq) {
        (Some(eq), Some(uneq)) => html! {
            <>
                <h4>{"Gradient weighting for one synchronous mini-batch step"}</h4>
                <p class="muted">{"Read the L_k column as each worker's local mean gradient g_k (one parameter)."}</p>
                <ul>
                    <li id="grad-equal">{format!(
                        "Equal local mini-batches ({b} samples each): the step's mean gradient weights every worker 1/{m}: Σ g_k / {m} = {}.",
                        sig(eq.sample_weighted[0], 4))}</li>
                    <li id="grad-unequal">{format!(
                        "Unequal mini-batches (b_k = n_k, the whole shards): weights b_k/B = n_k/N give {}; the plain mean would give {}.",
                        sig(uneq.sample_weighted[0], 4), sig(uneq.plain_mean[0], 4))}</li>
                </ul>
                <p class="muted">{"Equal batches drawn from unequal shards are weighted equally within the step, but they estimate the equal-worker objective. The all-reduce run below weights each worker by n_k/N so that it targets the full-data objective."}</p>
            </>
        },
        _ => html! {},
    };
    html! {
        <section class="panel wide" aria-labelledby="calc-h">
            <h3 id="calc-h">{"The global objective from unequal shards"}</h3>
            <p>{"The full-data loss averages over all N samples, so each shard's mean loss L_k counts in proportion to its sample count: F = Σ (n_k/N) L_k. Edit the table."}</p>
            <div class="table-scroll">
            <table class="numbers shard-table">
                <thead><tr>
                    <th>{"shard k"}</th><th>{"samples n_k"}</th><th>{"mean loss L_k"}</th>
                    <th>{"n_k/N"}</th><th>{"(n_k/N)·L_k"}</th><th>{"1/m"}</th><th></th>
                </tr></thead>
                <tbody>{ for body }</tbody>
            </table>
            </div>
            <p>
                <button type="button" onclick={on_add} disabled={m >= 32}>{"Add shard"}</button>
                {" "}
                <button type="button" onclick={on_reset}>{"Course example (600, 300, 100)"}</button>
            </p>
            if let Some(e) = table_error {
                <p class="field-error" role="alert" id="table-error">{e}</p>
            }
            {results}
            {step_panel}
        </section>
    }
}

/// Per-strategy numbers at the current step.
fn strategy_table(lab: &Lab, step: usize) -> Html {
    let row = |t: &StrategyTrace| {
        let i = step.min(t.steps.len().saturating_sub(1));
        let Some(r) = t.steps.get(i) else {
            return html! {};
        };
        let m = r.loss_at_local.len().max(1) as f64;
        let mean_local = r.loss_at_local.iter().sum::<f64>() / m;
        let key = t.strategy.key();
        html! {
            <tr key={key}>
                <th scope="row">{t.strategy.label()}</th>
                <td id={format!("loss-{key}")}>{sig(r.loss_at_average, 5)}</td>
                <td>{sig(r.loss_at_average - lab.optimal_loss, 3)}</td>
                <td>{sig(mean_local, 5)}</td>
                <td id={format!("consensus-{key}")}>{sig(r.consensus_distance, 3)}</td>
                <td id={format!("identical-{key}")}>{if r.models_identical { "yes (bit-identical)" } else { "no" }}</td>
                <td>{sig(r.dist_to_sample_optimum, 3)}</td>
                <td>{sig(r.dist_to_equal_optimum, 3)}</td>
                <td id={format!("bytes-{key}")}>{format_bytes_short(r.max_bytes_sent())}</td>
            </tr>
        }
    };
    html! {
        <table class="numbers">
            <thead><tr>
                <th>{"strategy"}</th><th>{"F(w̄)"}</th><th>{"F(w̄) − F★"}</th><th>{"mean of F(w_k)"}</th>
                <th>{"consensus distance"}</th><th>{"models identical"}</th>
                <th>{"‖w̄ − w★ sample‖"}</th><th>{"‖w̄ − w★ equal‖"}</th><th>{"bytes sent (busiest worker)"}</th>
            </tr></thead>
            <tbody>{ for lab.traces.iter().map(row) }</tbody>
        </table>
    }
}

/// The sgd view.
#[component]
pub fn SgdView(props: &ViewProps) -> Html {
    let (params, drafts) = use_view_params::<SgdParams>(props);
    let rows = use_state(|| rows_of(&params));
    let table_error = use_state(|| {
        (*drafts)
            .error("shards")
            .or_else(|| (*drafts).error("losses"))
            .map(|e| format!("{e} (showing the default table)"))
    });

    // The core computations, cached.
    let run: Rc<RunResult> = use_memo(run_key(&params), |k| k.run());
    let objective: Rc<Result<Objective, String>> =
        use_memo((params.shards.clone(), params.losses.clone()), |(s, l)| {
            let counts: Vec<i64> = s.iter().map(|&n| n as i64).collect();
            crate::core::sgd::objective(&counts, l).map_err(|e| e.to_string())
        });
    let last = match &*run {
        Ok((_, _, lab)) => lab
            .traces
            .iter()
            .map(|t| t.steps.len().saturating_sub(1))
            .max()
            .unwrap_or(0),
        Err(_) => 0,
    };
    let step = params.step.min(last);
    let charts: Rc<Option<[String; 4]>> = {
        let run = run.clone();
        use_memo((run_key(&params), step), move |(_, step)| {
            let (_, _, lab) = run.as_ref().as_ref().ok()?;
            let or_msg = |r: Result<String, String>| r.unwrap_or_else(|e| format!("<p>{e}</p>"));
            Some([
                or_msg(draw_loss(lab, *step)),
                or_msg(draw_consensus(lab, *step)),
                or_msg(draw_loss_vs_bytes(lab, *step)),
                if lab.sample_weighted_optimum.len() == 2 {
                    or_msg(draw_trajectories(lab, *step))
                } else {
                    String::new()
                },
            ])
        })
    };

    // --- callbacks -----------------------------------------------------------
    // Every control goes through the same parser as the URL.
    let apply = |key: &'static str| {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |text: String| {
            let mut q = Query::default();
            q.0.insert(key.to_string(), text.trim().to_string());
            let (next, errs): (SgdParams, Vec<FieldError>) = SgdParams::from_query(&q, &params);
            let mut d = (*drafts).clone();
            match errs.iter().find(|e| e.field == key) {
                Some(e) => d.reject(key, text, e.message.clone()),
                None => d.accept(key),
            }
            for e in errs.iter().filter(|e| e.field != key) {
                d.reject(e.field, String::new(), e.message.clone());
            }
            drafts.set(d);
            params.set(next);
        })
    };
    let on_select = |key: &'static str| {
        let cb = apply(key);
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            cb.emit(sel.value());
        })
    };
    let on_iid = {
        let cb = apply("iid");
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            cb.emit(if input.checked() { "1" } else { "0" }.to_string());
        })
    };
    let set_step = {
        let params = params.clone();
        Callback::from(move |s: usize| {
            let mut next = (*params).clone();
            next.step = s.min(next.steps);
            params.set(next);
        })
    };
    // The shard table: every edit re-parses the whole table.
    let commit_rows = {
        let params = params.clone();
        let rows = rows.clone();
        let table_error = table_error.clone();
        Rc::new(move |new_rows: Vec<(String, String)>| {
            match parse_table(&new_rows) {
                Ok((shards, losses)) => {
                    let mut next = (*params).clone();
                    next.shards = shards;
                    next.losses = losses;
                    params.set(next);
                    table_error.set(None);
                }
                Err(e) => table_error.set(Some(e.message)),
            }
            rows.set(new_rows);
        })
    };
    let on_cell = |k: usize, col: usize| {
        let rows = rows.clone();
        let commit = commit_rows.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut next = (*rows).clone();
            if let Some(r) = next.get_mut(k) {
                if col == 0 {
                    r.0 = input.value();
                } else {
                    r.1 = input.value();
                }
            }
            commit(next);
        })
    };
    let on_add = {
        let rows = rows.clone();
        let commit = commit_rows.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*rows).clone();
            if next.len() < 32 {
                next.push(("100".into(), "0.5".into()));
            }
            commit(next);
        })
    };
    let on_remove = |k: usize| {
        let rows = rows.clone();
        let commit = commit_rows.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*rows).clone();
            if next.len() > 1 && k < next.len() {
                next.remove(k);
            }
            commit(next);
        })
    };
    let on_reset = {
        let commit = commit_rows.clone();
        Callback::from(move |_: MouseEvent| {
            commit(rows_of(&SgdParams::default()));
        })
    };

    let d = &*drafts;
    let calc = calculator(
        &rows,
        &objective,
        &params.losses,
        &params.shards,
        params.batch,
        (*table_error).clone(),
        TableCallbacks {
            on_cell: &on_cell,
            on_add,
            on_remove: &on_remove,
            on_reset,
        },
    );

    // --- controls --------------------------------------------------------------
    let batch_text = if params.batch == 0 {
        "full".to_string()
    } else {
        params.batch.to_string()
    };
    let controls = html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class="field">
                <label for="f-mode">{"Narrate"}</label>
                <select id="f-mode" onchange={on_select("mode")}>
                    { for Strategy::ALL.iter().map(|s| html! {
                        <option value={s.key()} selected={*s == params.mode}>{s.label()}</option>
                    }) }
                </select>
            </div>
            <div class="field checkbox">
                <label><input type="checkbox" checked={params.iid} onchange={on_iid} />{" IID shards"}</label>
                <small class="hint">{if params.iid { "same distribution on every shard" } else { "non-IID: own input region and true weights per shard" }}</small>
            </div>
            <div class="field">
                <label for="f-graph">{"Gossip graph"}</label>
                <select id="f-graph" onchange={on_select("graph")}>
                    { for GraphChoice::ALL.iter().map(|g| html! {
                        <option value={g.key()} selected={*g == params.graph}>{g.label()}</option>
                    }) }
                </select>
                if let Some(e) = d.error("graph") {
                    <small class="field-error" role="alert">{e}</small>
                }
            </div>
            <div class="field">
                <label for="f-weights">{"Weight rule"}</label>
                <select id="f-weights" onchange={on_select("weights")}>
                    { for RULES.iter().map(|(w, label)| html! {
                        <option value={w.name()} selected={*w == params.weights}>{*label}</option>
                    }) }
                </select>
                if let Some(e) = d.error("weights") {
                    <small class="field-error" role="alert">{e}</small>
                }
            </div>
            <TextField name="lr" label="Learning rate η" value={d.text_or("lr", &params.lr.to_string())}
                error={d.error("lr")} hint={AttrValue::from("above 0, up to 10")} on_commit={apply("lr")} />
            <TextField name="decay" label="Decay: η_t = η/(1 + decay·(t−1))" value={d.text_or("decay", &params.decay.to_string())}
                error={d.error("decay")} hint={AttrValue::from("0 = constant η")} on_commit={apply("decay")} />
            <TextField name="batch" label="Mini-batch per worker" value={d.text_or("batch", &batch_text)}
                error={d.error("batch")} hint={AttrValue::from("samples, or full for the whole shard")} on_commit={apply("batch")} />
            <TextField name="steps" label="Steps" value={d.text_or("steps", &params.steps.to_string())}
                error={d.error("steps")} hint={AttrValue::from("1 to 1000")} on_commit={apply("steps")} />
            <TextField name="seed" label="Seed" value={d.text_or("seed", &params.seed.to_string())}
                error={d.error("seed")} hint={AttrValue::from("data and mini-batches")} on_commit={apply("seed")} />
            <TextField name="d" label="Parameters d" value={d.text_or("d", &params.d.to_string())}
                error={d.error("d")} hint={AttrValue::from("1 to 10; the picture needs d = 2")} on_commit={apply("d")} />
        </form>
    };
    let orphan_errors = d.orphans_html(&[
        "lr", "decay", "batch", "steps", "seed", "d", "graph", "weights", "shards", "losses",
    ]);
    let orphans = html! {
        {orphan_errors}
    };

    let header = html! {
        <>
            <h1>{"Distributed SGD"}</h1>
            <p class="lede">
                {"First the objective: unequal shards must be weighted by their sample counts. Then three ways to train on the same shards, from the same start and with the same mini-batches: all-reduce SGD (one common update), decentralised SGD (local models mixed with neighbours) and local SGD without communication."}
            </p>
        </>
    };

    let (problem, lab) = match &*run {
        Ok((problem, _, lab)) => (problem, lab),
        Err(e) => {
            return html! {
                <div class="view view-sgd">
                    {header}
                    {calc}
                    {controls}
                    {orphans}
                    <p class="field-error" role="alert" id="run-error">{format!("Training cannot run with these parameters: {e}")}</p>
                </div>
            };
        }
    };

    // --- narration ---------------------------------------------------------------
    let batch_label = if params.batch == 0 {
        "whole shard".to_string()
    } else {
        format!("mini-batch of {} samples", params.batch)
    };
    let narration = narrate_step(lab, params.mode, step, &batch_label);
    let comparison = compare_step(lab, step);
    let m = problem.m();
    let stable = 2.0 / problem.max_curvature().max(f64::MIN_POSITIVE);

    // --- optima --------------------------------------------------------------------
    let optima = html! {
        <section class="panel" aria-labelledby="opt-h">
            <h3 id="opt-h">{"Two objectives, two optima (closed form)"}</h3>
            <table class="numbers">
                <tbody>
                    <tr><th scope="row">{"w★ of Σ (n_k/N) L_k (sample-weighted)"}</th>
                        <td id="opt-sample">{vec_text(&lab.sample_weighted_optimum)}</td>
                        <td>{format!("F★ = {}", sig(lab.optimal_loss, 5))}</td></tr>
                    <tr><th scope="row">{"w★ of (1/m) Σ L_k (equal-worker)"}</th>
                        <td id="opt-equal">{vec_text(&lab.equal_worker_optimum)}</td>
                        <td>{format!("F = {}", sig(lab.equal_worker_loss, 5))}</td></tr>
                    if !lab.doubly_stochastic {
                        if let Some(w) = &lab.mixing_weighted_optimum {
                            <tr><th scope="row">{"w★ of Σ π_k L_k (this mixing matrix's weights)"}</th>
                                <td>{vec_text(w)}</td><td></td></tr>
                        }
                    }
                </tbody>
            </table>
            <p id="trap">{trap_line(lab)}</p>
            <p class="muted">{"Both optima solve normal equations (Σ c_k A_k) w = Σ c_k b_k with A_k = X_kᵀX_k/n_k and b_k = X_kᵀy_k/n_k (least squares, loss ½(xᵀw − y)²)."}</p>
        </section>
    };

    let note = html! {
        <section class="panel" aria-labelledby="note-h">
            <h3 id="note-h">{"Agreement is not optimality"}</h3>
            <p id="consensus-note">
                {"A small consensus distance only says that the workers' models are close to each other. It says nothing about which objective they minimise: all-reduce models agree exactly at every step, including step 0 before any training, and D-PSGD's models can agree closely around the equal-worker optimum, which is the wrong point for the sample-weighted loss. Convergence is judged by the global loss F and the distance to the optimum, not by agreement."}
            </p>
        </section>
    };

    let bytes_panel = html! {
        <section class="panel" aria-labelledby="bytes-h">
            <h3 id="bytes-h">{"Bytes per step"}</h3>
            <ul>
                { for lab.traces.iter().map(|t| {
                    let hi = t.bytes_per_step.iter().copied().fold(0.0, f64::max);
                    let lo = t.bytes_per_step.iter().copied().fold(f64::INFINITY, f64::min);
                    let what = match t.strategy {
                        Strategy::AllReduce => if (hi - lo).abs() < 1e-9 {
                            format!("ring all-reduce of d = {} f32 values, counted from the executed schedule: {} per worker (2(m−1)/m · d · 4 B)", problem.d(), format_bytes_short(hi))
                        } else {
                            format!("ring all-reduce of d = {} f32 values, counted from the executed schedule: {} to {} per worker (m does not divide d, so chunks differ by one value)", problem.d(), format_bytes_short(lo), format_bytes_short(hi))
                        },
                        Strategy::Gossip => if (hi - lo).abs() < 1e-9 {
                            format!("one model copy (d · 4 B) to each neighbour: {} per worker", format_bytes_short(hi))
                        } else {
                            format!("one model copy to each neighbour: {} to {} per worker (degrees differ)", format_bytes_short(lo), format_bytes_short(hi))
                        },
                        Strategy::Local => "nothing".to_string(),
                    };
                    html! { <li>{format!("{}: {what}.", t.strategy.label())}</li> }
                }) }
            </ul>
            <p class="muted">{"Sent bytes only; counting received bytes too doubles each figure."}</p>
        </section>
    };

    let charts_html = match &*charts {
        Some([loss, cons, bytes, traj]) => html! {
            <>
                <section class="panel wide" aria-labelledby="loss-h">
                    <h3 id="loss-h">{"Global loss above the optimum, per step (log scale)"}</h3>
                    {svg_box(loss.clone())}
                    <p class="muted">{"Solid: at the average model w̄. Dashed: the mean of F at the workers' own models. Dotted: where the equal-worker optimum sits."}</p>
                </section>
                <section class="panel wide" aria-labelledby="cons-h">
                    <h3 id="cons-h">{"Consensus distance (1/m) Σ‖w_k − w̄‖², per step (log scale)"}</h3>
                    {svg_box(cons.clone())}
                </section>
                <section class="panel wide" aria-labelledby="lb-h">
                    <h3 id="lb-h">{"Global loss against bytes sent"}</h3>
                    {svg_box(bytes.clone())}
                </section>
                <section class="panel wide" aria-labelledby="traj-h">
                    <h3 id="traj-h">{"Parameter trajectories"}</h3>
                    if traj.is_empty() {
                        <p class="notice">{format!("The picture needs d = 2 parameters; this run has d = {}.", problem.d())}</p>
                    } else {
                        {svg_box(traj.clone())}
                        <p class="muted">{"Thick: the average model of each strategy. Thin: each worker's own model (D-PSGD and local SGD). Dots: each shard's own optimum."}</p>
                    }
                </section>
            </>
        },
        None => html! {},
    };

    html! {
        <div class="view view-sgd">
            {header}
            {calc}
            <h2>{"Training side by side"}</h2>
            <p class="muted">{format!(
                "{m} workers, {} samples, d = {}, {} shards; least squares with label noise σ = 0.1. Plain gradient steps are stable for η below about {} (2 / the largest curvature).",
                problem.total(), problem.d(), if params.iid { "IID" } else { "non-IID" }, sig(stable, 3))}</p>
            {controls}
            {orphans}
            <div class="status">
                <p class="phase" id="phase">{format!("Step {step} of {last} · narrating {}", params.mode.label())}</p>
                <p class="narration" id="narration" aria-live="polite">{narration}</p>
                <p id="comparison">{comparison}</p>
            </div>
            <StepControls step={step} last={last} on_step={set_step} unit="Step" interval_ms={60} />
            <section class="panel wide" aria-labelledby="now-h">
                <h3 id="now-h">{format!("At step {step}")}</h3>
                {strategy_table(lab, step)}
            </section>
            {charts_html}
            <div class="panels">
                {optima}
                {note}
                {bytes_panel}
            </div>
        </div>
    }
}

/// In-browser timings for `?view=bench`: the three strategies for 200 steps
/// with m = 16 workers and d = 10 (the animation budget), and the
/// four step charts of the default run.
pub fn bench_measures() -> Vec<super::bench::Measure> {
    use super::bench::time_it;
    let big = SgdParams {
        shards: (1..=16).map(|k| 50 * k).collect(),
        losses: vec![0.5; 16],
        d: 10,
        steps: 200,
        ..SgdParams::default()
    };
    let mut out = vec![time_it(
        "sgd m=16 d=10: 200 steps × 3 strategies",
        5,
        || {
            let _ = big.run();
        },
    )];
    if let Ok((_, _, lab)) = SgdParams::default().run() {
        out.push(time_it("sgd default: 4 step charts (SVG)", 5, || {
            let _ = (
                draw_loss(&lab, 100),
                draw_consensus(&lab, 100),
                draw_loss_vs_bytes(&lab, 100),
                draw_trajectories(&lab, 100),
            );
        }));
    }
    out
}
