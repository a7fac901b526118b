//! `?view=gossip`: neighbour averaging on a graph, round by round.
//!
//! Everything shown comes from [`GossipRun`] in the core: the graph, the
//! mixing matrix W and its checks, the spectrum (ρ, the gap), the rounds
//! x_{r+1} = W x_r with their disagreement norms and the ρ^r bound, the
//! narration of one node's update and the worked D-SGD step. This view picks
//! the round and draws.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::ViewProps;
use crate::app::components::field::TextField;
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::use_view_params;
use crate::core::consensus::{
    dsgd_explain, dsgd_step, fmt_num, fmt_rate, fmt_small, fmt_weight, mixing_matrix, spread,
    GossipRun, Graph, GraphKind, NodeUpdate, WeightRule,
};
use crate::core::units::format_norm3 as norm3;
use crate::params::gossip::{GossipParams, GraphChoice, MAX_DRAWN_P, MAX_NUMBERED_P, MAX_ROUND};
use crate::params::{FieldError, Query};
use crate::plot::gossip::{draw_disagreement, draw_eigenvalues};

/// The weight rules offered in the menus of the gossip and SGD views:
/// (rule, label).
pub(crate) const RULES: [(WeightRule, &str); 5] = [
    (WeightRule::Uniform, "uniform 1/(deg+1)"),
    (WeightRule::Metropolis, "Metropolis–Hastings"),
    (WeightRule::Lazy, "lazy Metropolis–Hastings"),
    (WeightRule::MaxDegree, "max-degree"),
    (WeightRule::Exponential, "exponential-graph weights"),
];

/// Fill colour of a node: light blue (lowest initial value) through light
/// grey (middle) to orange (highest), Okabe–Ito hues; dark text stays legible.
fn node_fill(v: f64, lo: f64, hi: f64) -> String {
    let t = if hi > lo {
        ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
    } else {
        0.5
    };
    let (a, mid, b) = (
        (86.0, 180.0, 233.0),
        (235.0, 235.0, 235.0),
        (230.0, 159.0, 0.0),
    );
    let (from, to, u) = if t < 0.5 {
        (a, mid, 2.0 * t)
    } else {
        (mid, b, 2.0 * t - 1.0)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    format!(
        "rgb({},{},{})",
        mix(from.0, to.0),
        mix(from.1, to.1),
        mix(from.2, to.2)
    )
}

/// The parameters without the round: the key of the cached computation.
fn without_round(p: &GossipParams) -> GossipParams {
    GossipParams {
        round: 0,
        ..p.clone()
    }
}

/// The accepted text of a field, for showing next to a message caused by
/// another field (e.g. switching to the hypercube with p = 6).
fn field_text(p: &GossipParams, field: &str) -> String {
    match field {
        "p" => p.p.to_string(),
        "rows" => p.rows.to_string(),
        "cols" => p.cols.to_string(),
        "init" => p.init.text.clone(),
        "seed" => p.seed.to_string(),
        "target" => p.target.text.clone(),
        "round" => p.round.to_string(),
        _ => String::new(),
    }
}

/// The gossip consensus view.
#[component]
pub fn GossipView(props: &ViewProps) -> Html {
    let (params, drafts) = use_view_params::<GossipParams>(props);
    let focus = use_state(|| 0usize);

    // The core computation, cached per parameter set (the round only extends it).
    let run: Rc<RefCell<Result<GossipRun, String>>> = use_memo(without_round(&params), |k| {
        RefCell::new(k.run(0).map_err(|e| e.to_string()).map(|mut r| {
            let h = r.suggested_horizon();
            r.extend_to(h);
            r
        }))
    });
    // The course's worked D-SGD step (fixed numbers), computed by the core.
    let dsgd = use_memo((), |_| {
        let g = Graph::new(GraphKind::Ring, 3, 0).ok()?;
        let w = mixing_matrix(&g, WeightRule::Uniform).ok()?;
        let s = dsgd_step(&w, &[3.0, 6.0, 12.0], &[0.0, 2.0, 1.0], 0.5).ok()?;
        dsgd_explain(&w, &s, 1)
    });
    // The eigenvalue chart depends on W only.
    let eig_svg: Rc<String> = {
        let run = run.clone();
        use_memo(without_round(&params), move |_| match &*run.borrow() {
            Ok(r) => draw_eigenvalues(&r.spectrum).unwrap_or_else(|e| format!("<p>{e}</p>")),
            Err(_) => String::new(),
        })
    };
    let horizon = match &*run.borrow() {
        Ok(r) => r.suggested_horizon(),
        Err(_) => 0,
    };
    let last = horizon.max(params.round).min(MAX_ROUND as usize);
    let round = params.round.min(last);
    if let Ok(r) = &mut *run.borrow_mut() {
        r.extend_to(last);
    }

    // Every control goes through the same parser as the URL.
    let apply = |key: &'static str| {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |text: String| {
            let mut q = Query::default();
            q.0.insert(key.to_string(), text.trim().to_string());
            let (mut next, errs): (GossipParams, Vec<FieldError>) =
                GossipParams::from_query(&q, &params);
            let mut d = (*drafts).clone();
            let mine: Vec<&FieldError> = errs.iter().filter(|e| e.field == key).collect();
            match mine.first() {
                Some(e) => d.reject(key, text, e.message.clone()),
                None => d.accept(key),
            }
            for e in errs.iter().filter(|e| e.field != key) {
                d.reject(e.field, field_text(&next, e.field), e.message.clone());
            }
            if key != "round" {
                next.round = next.round.min(MAX_ROUND as usize);
            }
            drafts.set(d);
            params.set(next);
        })
    };
    let set_round = {
        let params = params.clone();
        Callback::from(move |s: usize| {
            let mut next = (*params).clone();
            next.round = s;
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

    let d = &*drafts;
    let p = params.p;
    let torus = params.graph == GraphChoice::Torus;
    let controls = html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class="field">
                <label for="f-graph">{"Graph"}</label>
                <select id="f-graph" onchange={on_select("graph")}>
                    { for GraphChoice::ALL.iter().map(|g| html! {
                        <option value={g.key()} selected={*g == params.graph}>{g.label()}</option>
                    }) }
                </select>
            </div>
            if torus {
                <TextField name="rows" label="Rows" value={d.text_or("rows", &params.rows.to_string())}
                    error={d.error("rows")} hint={AttrValue::from(format!("p = rows × cols = {p}"))} on_commit={apply("rows")} />
                <TextField name="cols" label="Columns" value={d.text_or("cols", &params.cols.to_string())}
                    error={d.error("cols")} on_commit={apply("cols")} />
            } else {
                <TextField name="p" label="Nodes p" value={d.text_or("p", &p.to_string())}
                    error={d.error("p")} hint={AttrValue::from("2 to 1024; drawn up to 64")} on_commit={apply("p")} />
            }
            <div class="field">
                <label for="f-weights">{"Weights"}</label>
                <select id="f-weights" onchange={on_select("weights")}>
                    { for RULES.iter().map(|(w, label)| html! {
                        <option value={w.name()} selected={*w == params.weights}>{*label}</option>
                    }) }
                </select>
                if let Some(e) = d.error("weights") {
                    <small class="field-error" role="alert">{e}</small>
                }
            </div>
            <TextField name="init" label="Initial values" value={d.text_or("init", &params.init.text)}
                error={d.error("init")} hint={AttrValue::from("comma list, linear (0, 3, 6, …) or random:SEED")}
                on_commit={apply("init")} />
            if params.graph == GraphChoice::Random {
                <TextField name="seed" label="Graph seed" value={d.text_or("seed", &params.seed.to_string())}
                    error={d.error("seed")} hint={AttrValue::from("same seed, same graph")} on_commit={apply("seed")} />
            }
            <TextField name="target" label="Target reduction F" value={d.text_or("target", &params.target.text)}
                error={d.error("target")} hint={AttrValue::from("e.g. 100 for a 100× smaller disagreement")}
                on_commit={apply("target")} />
        </form>
    };
    let orphan_errors = d.orphans_html(&["p", "rows", "cols", "init", "seed", "target", "weights"]);
    let orphans = html! {
        {orphan_errors}
    };

    let guard = run.borrow();
    let run = match &*guard {
        Ok(r) => r,
        Err(e) => {
            return html! {
                <div class="view view-gossip">
                    <h1>{"Gossip consensus"}</h1>
                    {controls}
                    {orphans}
                    <p class="field-error" role="alert">{format!("Could not compute these parameters: {e}")}</p>
                </div>
            };
        }
    };

    let focus_node = (*focus).min(p - 1);
    let state = &run.rounds[round.min(run.rounds.len() - 1)];
    let x0 = &run.rounds[0].values;
    let (lo, hi) = x0
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let spec = &run.spectrum;
    let checks = &run.checks;
    let m = &run.matrix;

    // --- narration ---------------------------------------------------------
    let narration = if round == 0 {
        let next = NodeUpdate::new(m, x0, focus_node)
            .map(|u| u.text())
            .unwrap_or_default();
        format!(
            "Round 0: the initial values. In round 1 every node averages at the same time, reading the round-0 values; node {focus_node}: {next}."
        )
    } else {
        let prev = &run.rounds[round - 1].values;
        let u = NodeUpdate::new(m, prev, focus_node)
            .map(|u| u.text())
            .unwrap_or_default();
        format!(
            "Round {round}: {u}. Every node used the round-{} values at once; the mean is {} and the disagreement ‖x − x̄1‖₂ = {}.",
            round - 1,
            fmt_num(state.mean),
            norm3(state.disagreement)
        )
    };
    let graph_name = run.graph.kind.to_string();
    let phase = format!(
        "Round {round} of {last} · {graph_name}, p = {p} · W: {}",
        params.weights
    );

    // --- graph drawing -------------------------------------------------------
    let on_node = |i: usize| {
        let focus = focus.clone();
        Callback::from(move |_: MouseEvent| focus.set(i))
    };
    let picture = if p <= MAX_DRAWN_P {
        let path = run.graph.kind == GraphKind::Path;
        let (w, h) = (420.0, if path { 140.0 } else { 420.0 });
        let pos: Vec<(f64, f64)> = run
            .graph
            .layout()
            .iter()
            .map(|&(x, y)| {
                (
                    20.0 + x * (w - 40.0),
                    if path { h / 2.0 } else { 20.0 + y * (h - 40.0) },
                )
            })
            .collect();
        let r_node = match p {
            0..=8 => 22.0,
            9..=16 => 16.0,
            17..=32 => 11.0,
            _ => 7.0,
        };
        let show_values = p <= 32;
        let show_weights = p <= 12;
        let symmetric = checks.symmetric;
        let directed = run.graph.directed;
        let edges = run.graph.edges();
        let edge_views = edges.iter().enumerate().map(|(k, &(a, b))| {
            let (pa, pb) = (pos[a], pos[b]);
            let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
            let len = dx.hypot(dy).max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            // the path graph's edges are straight; others too (ring chords look fine)
            let start = (pa.0 + ux * r_node, pa.1 + uy * r_node);
            let end = (pb.0 - ux * (r_node + if directed { 4.0 } else { 0.0 }), pb.1 - uy * (r_node + if directed { 4.0 } else { 0.0 }));
            let lit = a == focus_node || b == focus_node;
            let labels = if show_weights {
                if directed {
                    // b reads a with weight W_ba, shown near b
                    let t = 0.7;
                    vec![(pa.0 + dx * t, pa.1 + dy * t, fmt_weight(m.weight(b, a)))]
                } else if symmetric {
                    vec![((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0, fmt_weight(m.weight(a, b)))]
                } else {
                    vec![
                        (pa.0 + dx * 0.3, pa.1 + dy * 0.3, fmt_weight(m.weight(a, b))),
                        (pa.0 + dx * 0.7, pa.1 + dy * 0.7, fmt_weight(m.weight(b, a))),
                    ]
                }
            } else {
                Vec::new()
            };
            html! {
                <g key={format!("e{k}-{a}-{b}")} class="edge">
                    <line x1={format!("{:.1}", start.0)} y1={format!("{:.1}", start.1)}
                        x2={format!("{:.1}", end.0)} y2={format!("{:.1}", end.1)}
                        stroke="currentColor" stroke-opacity={if lit { "0.85" } else { "0.3" }}
                        stroke-width={if lit { "2.5" } else { "1.5" }}
                        marker-end={directed.then_some("url(#gossip-arrow)")} />
                    { for labels.into_iter().map(|(x, y, t)| html! {
                        <text x={format!("{x:.1}")} y={format!("{:.1}", y - 3.0)} font-size="11" text-anchor="middle"
                            fill="currentColor" paint-order="stroke" stroke="var(--bg, white)" stroke-width="3">{t}</text>
                    }) }
                </g>
            }
        });
        let node_views = (0..p).map(|i| {
            let (x, y) = pos[i];
            let v = state.values[i];
            let is_focus = i == focus_node;
            let title = format!(
                "node {i}: x = {} at round {round}; degree {}; self weight W{i}{i} = {}",
                fmt_num(v),
                run.graph.degree(i),
                fmt_weight(m.weight(i, i))
            );
            html! {
                <g key={format!("n{i}")} class="node" onclick={on_node(i)} style="cursor:pointer">
                    <title>{title}</title>
                    <circle cx={format!("{x:.1}")} cy={format!("{y:.1}")} r={format!("{r_node}")}
                        fill={node_fill(v, lo, hi)} stroke="currentColor"
                        stroke-width={if is_focus { "3.5" } else { "1" }} />
                    if show_values {
                        <text x={format!("{x:.1}")} y={format!("{:.1}", y + 4.0)} font-size={if p <= 8 { "13" } else { "10" }}
                            text-anchor="middle" fill="#000" id={format!("node-value-{i}")}>{fmt_num(v)}</text>
                    }
                    if p <= 16 {
                        <text x={format!("{:.1}", x + r_node * 0.75 + 2.0)} y={format!("{:.1}", y - r_node * 0.75 - 2.0)}
                            font-size="11" fill="currentColor">{format!("x{i}")}</text>
                    }
                </g>
            }
        });
        html! {
            <figure class="chart-box gossip-graph">
                <svg viewBox={format!("0 0 {w} {h}")} role="img" width="100%" style="max-width:460px"
                    aria-label={format!("The {graph_name} with {p} nodes, coloured by their values at round {round}")}>
                    <defs>
                        <marker id="gossip-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
                        </marker>
                    </defs>
                    { for edge_views }
                    { for node_views }
                </svg>
                <figcaption class="muted">
                    {format!("Colour: value at round {round} (blue = lowest initial value {}, orange = highest {}). Click a node to narrate its update.", fmt_num(lo), fmt_num(hi))}
                    if show_weights && !directed {
                        {if symmetric { " Edge labels: W_ij = W_ji." } else { " Edge labels: the weight each end gives the other, written near the end that uses it." }}
                    }
                    if show_weights && directed {
                        {" Arrows point from sender to reader; labels are the reader's weight."}
                    }
                </figcaption>
            </figure>
        }
    } else {
        html! {
            <p class="notice">
                {format!("p = {p} is above {MAX_DRAWN_P}, so the graph and W are not drawn; every number below is still computed for all {p} nodes.")}
            </p>
        }
    };

    // --- heatmap of W --------------------------------------------------------
    let heatmap = (p <= MAX_DRAWN_P).then(|| {
        let numbered = p <= MAX_NUMBERED_P;
        let cell = if numbered { 34.0 } else { (420.0 / p as f64).min(20.0) };
        let pad = if numbered { 28.0 } else { 4.0 };
        let size = pad + cell * p as f64 + if numbered { 44.0 } else { 4.0 };
        let wmax = m.w.iter().copied().fold(0.0, f64::max).max(1e-12);
        let row_sums = &checks.row_sums;
        let col_sums = &checks.col_sums;
        let cells = (0..p).flat_map(|i| (0..p).map(move |j| (i, j))).map(|(i, j)| {
            let v = m.weight(i, j);
            let x = pad + cell * j as f64;
            let y = pad + cell * i as f64;
            html! {
                <g key={format!("w{i}-{j}")}>
                    <rect x={format!("{x:.1}")} y={format!("{y:.1}")} width={format!("{cell:.1}")} height={format!("{cell:.1}")}
                        fill="rgb(0,114,178)" fill-opacity={format!("{:.3}", 0.06 + 0.5 * v / wmax)}
                        stroke="currentColor" stroke-opacity={if i == focus_node { "0.6" } else { "0.1" }}>
                        <title>{format!("W{i}{j} = {}", fmt_weight(v))}</title>
                    </rect>
                    if numbered && v != 0.0 {
                        <text x={format!("{:.1}", x + cell / 2.0)} y={format!("{:.1}", y + cell / 2.0 + 4.0)}
                            font-size="10" text-anchor="middle" fill="currentColor">{fmt_weight(v)}</text>
                    }
                </g>
            }
        });
        let sums = numbered.then(|| {
            html! {
                <g class="sums">
                    <text x={format!("{:.1}", pad + cell * p as f64 + 22.0)} y={format!("{:.1}", pad - 8.0)}
                        font-size="10" text-anchor="middle" fill="currentColor">{"Σ row"}</text>
                    <text x={format!("{:.1}", pad - 4.0)} y={format!("{:.1}", pad + cell * p as f64 + 16.0)}
                        font-size="10" text-anchor="end" fill="currentColor">{"Σ"}</text>
                    { for (0..p).map(|i| html! {
                        <>
                            <text x={format!("{:.1}", pad - 6.0)} y={format!("{:.1}", pad + cell * i as f64 + cell / 2.0 + 4.0)}
                                font-size="10" text-anchor="end" fill="currentColor">{i}</text>
                            <text x={format!("{:.1}", pad + cell * i as f64 + cell / 2.0)} y={format!("{:.1}", pad - 8.0)}
                                font-size="10" text-anchor="middle" fill="currentColor">{i}</text>
                            <text x={format!("{:.1}", pad + cell * p as f64 + 22.0)} y={format!("{:.1}", pad + cell * i as f64 + cell / 2.0 + 4.0)}
                                font-size="10" text-anchor="middle" fill="currentColor">{fmt_weight(row_sums[i])}</text>
                            <text x={format!("{:.1}", pad + cell * i as f64 + cell / 2.0)} y={format!("{:.1}", pad + cell * p as f64 + 16.0)}
                                font-size="10" text-anchor="middle"
                                fill={if (col_sums[i] - 1.0).abs() > 1e-12 { "rgb(213,94,0)" } else { "currentColor" }}>{fmt_weight(col_sums[i])}</text>
                        </>
                    }) }
                </g>
            }
        });
        html! {
            <section class="panel" aria-labelledby="w-h">
                <h3 id="w-h">{"Mixing matrix W"}</h3>
                <p class="muted"><code>{params.weights.formula()}</code></p>
                <svg viewBox={format!("0 0 {size:.0} {size:.0}")} width="100%" style={if numbered { "max-width:640px" } else { "max-width:480px" }} role="img"
                    aria-label={format!("Heatmap of the {p}×{p} mixing matrix")}>
                    { for cells }
                    { for sums }
                </svg>
                if numbered {
                    <p class="muted">{"Row i holds the weights node i gives to the values it reads. Column sums other than 1 are shown in orange."}</p>
                } else {
                    <p class="muted">{format!("Numbers are shown up to p = {MAX_NUMBERED_P}; hover a cell for its weight.")}</p>
                }
            </section>
        }
    });

    // --- checks ----------------------------------------------------------------
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let limit_text = run.limit.map_or_else(|| "unknown".to_string(), fmt_num);
    let pi_text = checks
        .stationary
        .as_ref()
        .filter(|_| !checks.column_stochastic)
        .map(|pi| {
            let shown: Vec<String> = pi.iter().take(16).map(|v| fmt_num(*v)).collect();
            format!(
                "π = ({}{})",
                shown.join(", "),
                if p > 16 { ", …" } else { "" }
            )
        });
    let checks_panel = html! {
        <section class="panel" aria-labelledby="checks-h">
            <h3 id="checks-h">{"Checks on W"}</h3>
            <table class="numbers">
                <tbody>
                    <tr><th scope="row">{"rows sum to 1 (weighted averages)"}</th><td id="check-rows">{yes_no(checks.row_stochastic)}</td></tr>
                    <tr><th scope="row">{"columns sum to 1"}</th><td id="check-cols">{yes_no(checks.column_stochastic)}</td></tr>
                    <tr><th scope="row">{"doubly stochastic"}</th><td id="check-doubly">{yes_no(checks.doubly_stochastic)}</td></tr>
                    <tr><th scope="row">{"symmetric (W = Wᵀ)"}</th><td id="check-sym">{yes_no(checks.symmetric)}</td></tr>
                    <tr><th scope="row">{"graph connected"}</th><td id="check-conn">{yes_no(checks.connected)}</td></tr>
                    <tr><th scope="row">{"arithmetic mean preserved"}</th><td id="check-mean">{yes_no(checks.column_stochastic)}</td></tr>
                    <tr><th scope="row">{"values converge to"}</th><td id="limit">{limit_text.clone()}</td></tr>
                </tbody>
            </table>
            { for checks.notes.iter().map(|n| html! { <p class="notice">{n.clone()}</p> }) }
            if let Some(t) = pi_text {
                <p>{"The limit is the π-weighted mean Σ πᵢ xᵢ(0), where πᵀW = πᵀ: "}<code id="pi">{t}</code>
                    {format!(" (arithmetic mean {} instead).", fmt_num(run.rounds[0].mean))}</p>
            }
        </section>
    };

    // --- numbers ---------------------------------------------------------------
    let values_text = {
        let shown: Vec<String> = state.values.iter().take(64).map(|v| fmt_num(*v)).collect();
        format!(
            "{}{}",
            shown.join(", "),
            if p > 64 {
                format!(", … ({} more)", p - 64)
            } else {
                String::new()
            }
        )
    };
    let bound_text = state.bound.map_or_else(|| "—".to_string(), norm3);
    let predicted = run
        .predicted_rounds
        .map_or_else(|| "never (ρ ≥ 1)".to_string(), |r| r.to_string());
    let measured = run.measured_rounds.map_or_else(
        || format!("more than {} (stopped measuring)", run.measured_cap),
        |r| r.to_string(),
    );
    let numbers_panel = html! {
        <section class="panel" aria-labelledby="num-h">
            <h3 id="num-h">{format!("Round {round}")}</h3>
            <p>{"x = ("}<span id="values">{values_text}</span>{")"}</p>
            <table class="numbers">
                <tbody>
                    <tr><th scope="row">{"mean x̄"}</th><td id="round-mean">{fmt_num(state.mean)}</td></tr>
                    <tr><th scope="row">{"disagreement ‖x − x̄1‖₂"}</th><td id="round-disagreement">{norm3(state.disagreement)}</td></tr>
                    <tr><th scope="row">{if spec.bound_guaranteed { "bound ρʳ‖x₀ − x̄1‖₂" } else { "ρʳ‖x₀ − x̄1‖₂ (rate, not a bound)" }}</th>
                        <td id="round-bound">{bound_text}</td></tr>
                    <tr><th scope="row">{"spread max − min"}</th><td id="round-spread">{fmt_num(spread(&state.values))}</td></tr>
                    <tr><th scope="row">{"ρ"}</th><td id="rho">{fmt_rate(spec.rho)}</td></tr>
                    <tr><th scope="row">{"spectral gap 1 − ρ"}</th><td id="gap">{if spec.gap < 1e-3 { fmt_small(spec.gap) } else { fmt_rate(spec.gap) }}</td></tr>
                    <tr><th scope="row">{format!("rounds for {}× (predicted ⌈ln F / ln(1/ρ)⌉)", run.factor)}</th><td id="predicted">{predicted}</td></tr>
                    <tr><th scope="row">{format!("rounds for {}× (measured)", run.factor)}</th><td id="measured">{measured}</td></tr>
                </tbody>
            </table>
        </section>
    };

    // --- charts ----------------------------------------------------------------
    let shown_rounds = &run.rounds[..=last.min(run.rounds.len() - 1)];
    let dis_svg = draw_disagreement(shown_rounds, round, spec.bound_guaranteed, run.factor)
        .unwrap_or_else(|e| format!("<p>{e}</p>"));
    let charts = html! {
        <>
            <section class="panel wide" aria-labelledby="eig-h">
                <h3 id="eig-h">{"Eigenvalues of W"}</h3>
                <div class="chart-box" style={if spec.real { "" } else { "max-width:480px" }}>{Html::from_html_unchecked(AttrValue::from((*eig_svg).clone()))}</div>
                <p class="muted">
                    {format!("{} ({}). ρ is the largest |λ| once the eigenvalue 1 of the consensus direction is set aside; the shaded band is the gap 1 − ρ.",
                        spec.method.describe(), if spec.real { "all real" } else { "complex: W is not symmetric" })}
                </p>
            </section>
            <section class="panel wide" aria-labelledby="dis-h">
                <h3 id="dis-h">{"Disagreement per round (log scale)"}</h3>
                <div class="chart-box">{Html::from_html_unchecked(AttrValue::from(dis_svg))}</div>
                if !spec.bound_guaranteed {
                    <p class="muted">{"The dashed line is only the asymptotic rate here: the ρʳ bound holds for doubly stochastic normal (symmetric or circulant) W."}</p>
                }
            </section>
        </>
    };

    // --- D-SGD worked step ------------------------------------------------------
    let dsgd_panel = html! {
        <section class="panel" aria-labelledby="dsgd-h">
            <h3 id="dsgd-h">{"One decentralised SGD step (worked example)"}</h3>
            <p>{"A fixed example, separate from the graph above: a node holds 6; its neighbours hold 3 and 12; all three weights are 1/3. Its gradient, taken at its own current model, is 2, and η = 0.5."}</p>
            if let Some(e) = dsgd.as_ref() {
                <p><strong>{"Convention used here (the course notes', as in D-PSGD): gradient at the current local model, mix, then subtract η·g."}</strong></p>
                <ol>
                    <li><code id="dsgd-mix">{e.mixed.clone()}</code></li>
                    <li><code id="dsgd-next">{e.mix_then_step.clone()}</code></li>
                </ol>
                <p>{"Without mixing the same local step gives "}<code id="dsgd-local">{e.local_only.clone()}</code>{"."}</p>
                <p><strong>{"Alternative order (labelled, not used above): local gradient step first, then mix."}</strong>
                    {" It needs the neighbours' gradients too; we assume 0 and 1 (the worked example gives only this node's): "}
                    <code id="dsgd-alt">{e.step_then_mix.clone()}</code>
                    {". The two orders agree only when the neighbourhood's weighted gradient equals the node's own."}</p>
            }
        </section>
    };

    // --- contrast with ring all-reduce ---------------------------------------------
    let c = run.all_reduce_contrast();
    let contrast_panel = html! {
        <section class="panel" aria-labelledby="contrast-h">
            <h3 id="contrast-h">{"Gossip is not all-reduce"}</h3>
            <p id="contrast">
                {format!("One ring all-reduce takes 2(p − 1) = {} rounds and leaves every rank with the exact mean {} (sum ÷ p). ",
                    c.ring_rounds, fmt_num(c.exact_mean))}
                {match (c.gossip_spread, c.gossip_disagreement) {
                    (Some(s), Some(dn)) => format!(
                        "After the same {} gossip rounds on this graph the values still spread over {} (from {} at the start), with ‖x − x̄1‖₂ = {}. ",
                        c.ring_rounds, fmt_num(s), fmt_num(c.initial_spread), norm3(dn)),
                    _ => format!("({} gossip rounds on this graph are too many multiply-adds to run here.) ", c.ring_rounds),
                }}
                {format!("At round {round} the spread is {}.", fmt_num(spread(&state.values)))}
            </p>
            <p class="muted">{"Gossip mixes only neighbours, so agreement builds up gradually and is exact only in the limit; all-reduce computes the full reduction once. Consensus of the values is also not the same thing as reaching an optimum."}</p>
        </section>
    };

    html! {
        <div class="view view-gossip">
            <h1>{"Gossip consensus"}</h1>
            <p class="lede">
                {"Each node repeatedly replaces its value by a weighted average of its own and its neighbours' values: x ← W x. The disagreement shrinks like ρʳ, where ρ is the largest eigenvalue magnitude of W apart from the consensus eigenvalue 1."}
            </p>
            {controls}
            {orphans}
            <div class="status">
                <p class="phase" id="phase">{phase}</p>
                <p class="narration" id="narration" aria-live="polite">{narration}</p>
            </div>
            <StepControls step={round} last={last} on_step={set_round} unit="Round" />
            {picture}
            <div class="panels">
                {numbers_panel}
                {checks_panel}
                { for heatmap }
                {charts}
                {dsgd_panel}
                {contrast_panel}
            </div>
        </div>
    }
}

/// In-browser timings for `?view=bench` (≤ 50 ms each): the
/// spectrum of W for a general graph at p = 256 (dense symmetric
/// eigenvalues) and for the ring and the torus at p = 1024 (closed-form
/// circulant spectrum), plus the whole computation behind the view at p = 1024.
/// W is built outside the timed part of the spectrum cases.
pub fn benchmarks() -> Vec<super::bench::Measure> {
    use super::bench::time_it;
    use crate::core::consensus::{spectrum, InitPattern};
    let cases = [
        (
            "gossip spectrum: random p=256, Metropolis (dense eigenvalues)",
            GraphKind::Random,
            256,
            WeightRule::Metropolis,
        ),
        (
            "gossip spectrum: ring p=1024, uniform (circulant)",
            GraphKind::Ring,
            1024,
            WeightRule::Uniform,
        ),
        (
            "gossip spectrum: torus 32×32, uniform (circulant)",
            GraphKind::Torus { rows: 32, cols: 32 },
            1024,
            WeightRule::Uniform,
        ),
    ];
    let mut out = Vec::new();
    for (label, kind, p, rule) in cases {
        let Ok(g) = Graph::new(kind, p, 1) else {
            continue;
        };
        let Ok(w) = mixing_matrix(&g, rule) else {
            continue;
        };
        out.push(time_it(label, 5, || {
            let _ = std::hint::black_box(spectrum(&g, &w));
        }));
    }
    out.push(time_it(
        "gossip view computation: ring p=1024 (W, checks, spectrum, 200 rounds)",
        3,
        || {
            let r = GossipRun::new(
                GraphKind::Ring,
                1024,
                1,
                WeightRule::Uniform,
                &InitPattern::Random(2),
                200,
                100.0,
            );
            let _ = std::hint::black_box(r);
        },
    ));
    out
}
