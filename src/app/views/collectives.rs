//! `?view=collectives`: every all-reduce algorithm (and reduce-scatter and
//! all-gather on their own) animated from its executed schedule.
//!
//! The schedule comes from [`Algorithm::generate_on`], the trace from `execute`, the words
//! from [`crate::core::collectives::narrate`] and the numbers of the summary table
//! from [`summary_table_on`]; this view only picks the state of the current step
//! and draws it with the shared [`RankRing`] component.

use std::rc::Rc;

use yew::prelude::*;

use super::ViewProps;
use crate::app::components::field::{link_commit, TextField};
use crate::app::components::rank_ring::{RankRing, RingArrow, RingCell};
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::use_view_params;
use crate::core::collectives::narrate::{
    chunk_states, fmt_value, gossip_contrast, narrate, phases, range_label, range_text,
    sent_by_phase,
};
use crate::core::collectives::{round_title, summary_table_on, Algorithm, AlgorithmSummary};
use crate::core::cost::CostParams;
use crate::core::execute::{default_init, execute, ExecOptions, LogValues, Trace};
use crate::core::schedule::{Collective, Op, Phase};
use crate::core::timing::explain;
use crate::core::topology::Topology;
use crate::core::units::{
    bandwidth_chain, format_bytes_short, format_size, format_time, group_thousands,
};
use crate::params::collectives::{parse_alg, parse_gpus, CollectivesParams, MAX_P};
use crate::params::ring::ELEM_BYTES;

/// Rows of the per-rank counter table shown before "… and more".
const COUNTER_ROWS: usize = 16;
/// Transfers listed per round before "… and more".
const LOG_ROWS: usize = 16;

/// Executes `alg` on the job shape `topo` on `bytes` bytes of f32, keeping
/// every state.
pub fn collective_trace(alg: Algorithm, topo: &Topology, bytes: u64) -> Option<Trace> {
    let schedule = alg
        .generate_on(topo, (bytes / ELEM_BYTES).max(1), ELEM_BYTES)
        .ok()?;
    execute(&schedule, &default_init, ExecOptions { keep_states: true }).ok()
}

fn phase_title(ph: Phase) -> &'static str {
    match ph {
        Phase::FoldIn => "fold-in",
        Phase::FoldOut => "unfold",
        other => other.label(),
    }
}

/// The collectives view.
#[component]
pub fn CollectivesView(props: &ViewProps) -> Html {
    let (params, drafts) = use_view_params::<CollectivesParams>(props);

    let topo = params.topology();
    let trace: Rc<Option<Trace>> = use_memo(
        (params.alg, topo.clone(), params.size.value),
        |(a, topo, b)| collective_trace(*a, topo, *b),
    );
    let alpha = params.alpha.value;
    let beta = params.bw.value.beta();
    let table: Rc<Vec<AlgorithmSummary>> = use_memo(
        (
            topo.clone(),
            params.size.value,
            alpha.to_bits(),
            beta.to_bits(),
        ),
        |(topo, bytes, a, b)| {
            summary_table_on(
                topo,
                (*bytes / ELEM_BYTES).max(1),
                ELEM_BYTES,
                CostParams::new(f64::from_bits(*a), f64::from_bits(*b)),
            )
            .unwrap_or_default()
        },
    );
    let Some(trace) = trace.as_ref() else {
        return html! { <p class="field-error" role="alert">{"Could not build this schedule for these parameters."}</p> };
    };

    let alg = params.alg;
    let p = params.p;
    let s = &trace.schedule;
    let rounds = trace.num_rounds();
    let step = params.step.min(rounds);

    // --- callbacks -------------------------------------------------------
    let set_step = {
        let params = params.clone();
        Callback::from(move |k: usize| {
            let mut next = (*params).clone();
            next.step = k.min(next.last_step());
            params.set(next);
        })
    };
    let set_alg = {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |a: Algorithm| {
            let mut next = (*params).clone();
            next.alg = a;
            next.step = next.step.min(next.last_step());
            let mut d = (*drafts).clone();
            d.accept("alg");
            drafts.set(d);
            params.set(next);
        })
    };
    let on_alg_select = {
        let set_alg = set_alg.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(a) = parse_alg(&sel.value()) {
                set_alg.emit(a);
            }
        })
    };
    let commit = |field: &'static str| link_commit(&params, &drafts, field, MAX_P);
    let commit_gpus = {
        let params = params.clone();
        let drafts = drafts.clone();
        Callback::from(move |text: String| {
            let mut d = (*drafts).clone();
            match parse_gpus(&text, params.p) {
                Ok(g) => {
                    let mut next = (*params).clone();
                    next.gpus = g;
                    next.step = next.step.min(next.last_step());
                    d.accept("gpus");
                    params.set(next);
                }
                Err(e) => d.reject("gpus", text, e.message),
            }
            drafts.set(d);
        })
    };

    // --- labels ----------------------------------------------------------
    let phase_label = if step == 0 {
        format!("{}: initial buffers (before round 1)", alg.label())
    } else {
        round_title(alg, s, step - 1)
    };
    let narration = narrate(alg, trace, step);
    let current_phase = step
        .checked_sub(1)
        .and_then(|i| s.rounds.get(i))
        .map(|r| r.phase);
    let strip = {
        let mut first = 1usize;
        phases(s)
            .into_iter()
            .map(|(ph, k)| {
                let range = first..first + k;
                first += k;
                let here = range.contains(&step);
                let fold = matches!(ph, Phase::FoldIn | Phase::FoldOut);
                let method = alg.method(ph);
                let name = if method.is_empty() {
                    phase_title(ph).to_string()
                } else {
                    format!("{} {method}", phase_title(ph))
                };
                html! {
                    <li class={classes!("phase-chip", here.then_some("current"), fold.then_some("fold"))}
                        aria-current={here.then_some("step")}>
                        {format!("{name}: {k} round{}", if k == 1 { "" } else { "s" })}
                    </li>
                }
            })
            .collect::<Html>()
    };

    // --- the picture -----------------------------------------------------
    let cells: Vec<Vec<RingCell>> = chunk_states(trace, step)
        .unwrap_or_default()
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|cs| {
                    if cs.empty {
                        RingCell {
                            value: "—".into(),
                            who: String::new(),
                            count: 0,
                            title: cs.detail,
                        }
                    } else {
                        RingCell {
                            value: if cs.uniform {
                                fmt_value(cs.value)
                            } else {
                                "…".into()
                            },
                            who: cs.who,
                            count: cs.count,
                            title: cs.detail,
                        }
                    }
                })
                .collect()
        })
        .collect();
    let this_round = step.checked_sub(1).and_then(|i| s.rounds.get(i));
    let arrows: Vec<RingArrow> = this_round
        .map(|round| {
            round
                .transfers
                .iter()
                .map(|t| RingArrow {
                    src: t.src,
                    dst: t.dst,
                    label: format!("{} {}", range_label(s.n, p, &t.range), t.op.name()),
                    reduce: t.op == Op::Reduce,
                })
                .collect()
        })
        .unwrap_or_default();
    let picture = html! {
        <RankRing {p} {cells} {arrows}
            caption={format!("{} on {p} ranks; {phase_label}", alg.label())} />
    };

    // --- counters --------------------------------------------------------
    let sent = trace.sent_after(step);
    let recv = trace.recv_after(step);
    let by_phase = sent_by_phase(s, step);
    let max_sent = sent.iter().copied().max().unwrap_or(0);
    let counter_head = by_phase
        .iter()
        .map(|(ph, _)| html! { <th scope="col">{format!("sent in {}", phase_title(*ph))}</th> })
        .collect::<Html>();
    let counter_rows = (0..p.min(COUNTER_ROWS))
        .map(|r| {
            let per_phase = by_phase
                .iter()
                .map(|(_, v)| html! { <td>{format_bytes_short(v[r] as f64)}</td> })
                .collect::<Html>();
            html! {
                <tr key={r}>
                    <th scope="row">{format!("rank {r}")}</th>
                    {per_phase}
                    <td id={format!("sent-{r}")} title={format!("{} B", group_thousands(sent[r]))}>{format_bytes_short(sent[r] as f64)}</td>
                    <td id={format!("recv-{r}")} title={format!("{} B", group_thousands(recv[r]))}>{format_bytes_short(recv[r] as f64)}</td>
                </tr>
            }
        })
        .collect::<Html>();

    // --- transfers of this round -------------------------------------------
    let log = match this_round {
        Some(round) => {
            let lines = trace.round_log(step - 1);
            let items = round
                .transfers
                .iter()
                .zip(lines.iter().map(Some).chain(std::iter::repeat(None)))
                .take(LOG_ROWS)
                .map(|(t, line)| {
                    let values = match (t.op, line.and_then(|l| l.values)) {
                        (
                            Op::Reduce,
                            Some(LogValues {
                                sent: a,
                                before: b,
                                after: c,
                            }),
                        ) => {
                            format!(": {} + {} = {}", fmt_value(b), fmt_value(a), fmt_value(c))
                        }
                        (
                            Op::Copy,
                            Some(LogValues {
                                sent: a, before: b, ..
                            }),
                        ) => {
                            format!(": {} replaces {}", fmt_value(a), fmt_value(b))
                        }
                        _ => String::new(),
                    };
                    html! {
                        <li class={if t.op == Op::Reduce { "reduce" } else { "copy" }}>
                            {format!("rank {} → rank {}: {} ({}), {}, {}{values}",
                                t.src, t.dst, range_label(s.n, p, &t.range), range_text(&t.range),
                                format_bytes_short((t.len() * s.elem_bytes) as f64), t.op.name())}
                        </li>
                    }
                })
                .collect::<Html>();
            let total = round.transfers.len();
            html! {
                <>
                    <ul class="log">{items}</ul>
                    if total > LOG_ROWS {
                        <p class="muted">{format!("… and {} more transfers.", total - LOG_ROWS)}</p>
                    }
                    <p class="muted">{format!("Values shown are those of the first element of each range; \
                        ranks start with r + 1 in every element.")}</p>
                </>
            }
        }
        None => html! { <p>{"No transfers yet. Step forward to run round 1."}</p> },
    };

    // --- check -----------------------------------------------------------
    let what_verified = match &s.collective {
        Collective::AllReduce => format!(
            "all {p} ranks hold the element-wise sum {} in every element",
            fmt_value(trace.expected.first().copied().unwrap_or(0.0))
        ),
        Collective::ReduceScatter { .. } => {
            format!("each of the {p} ranks holds the complete sum on the chunk it owns")
        }
        Collective::AllGather { .. } => {
            format!("all {p} ranks hold every rank's chunk, copied and never added")
        }
    };
    let check = if step == rounds {
        if trace.verification.ok() {
            html! { <p class="check ok" id="check">{format!("✓ Verified: {what_verified}; no contribution was added twice.")}</p> }
        } else {
            html! {
                <p class="check bad" id="check" role="alert">
                    {format!("✗ Not verified: {} wrong rank-segments, {} double counts.",
                        trace.verification.mismatches.len(), trace.verification.double_counts.len())}
                </p>
            }
        }
    } else {
        html! { <p class="check pending" id="check">{format!("Not finished: {step} of {rounds} rounds run.")}</p> }
    };

    // --- cost of this algorithm ------------------------------------------
    let this_row = table.iter().find(|r| r.alg == alg);
    let formula = alg.closed_form_on(&topo, s.total_bytes() as f64, CostParams::new(alpha, beta));
    let cost_panel = html! {
        <section class="panel" aria-labelledby="cost-h">
            <h3 id="cost-h">{"Time: executed schedule vs closed form"}</h3>
            <p class="muted">{bandwidth_chain(&params.bw.value)}{format!("; α = {}.", format_time(alpha))}</p>
            <p>{"Executed (each round: α + its largest message × β): "}<code id="executed">{explain(s, alpha, beta)}</code></p>
            <p>{format!("Closed form ({}, {}): ", formula.name, formula.label)}<code>{format!("T = {}", formula.expression)}</code>
                {" = "}<strong id="closed">{format_time(formula.time)}</strong></p>
            { match this_row {
                Some(row) if row.agrees() => html! { <p class="check ok" id="agree">{"✓ The executed schedule and the closed form agree."}</p> },
                Some(row) => html! {
                    <p class="check bad" id="agree">
                        {format!("≠ They differ: executed {} vs closed form {}. Why: {}",
                            format_time(row.executed_time), format_time(row.closed_form.time),
                            row.difference.clone().unwrap_or_default())}
                    </p>
                },
                None => html! {},
            } }
            <p class="muted">{"An empty message (possible when n < p) still pays α, as in the cost model."}</p>
        </section>
    };

    // --- summary across algorithms -----------------------------------------
    let summary_rows = table
        .iter()
        .map(|row| {
            let a = row.alg;
            let here = a == alg;
            let pick = {
                let set_alg = set_alg.clone();
                Callback::from(move |_: MouseEvent| set_alg.emit(a))
            };
            html! {
                <tr key={a.key()} id={format!("row-{}", a.key())} class={classes!(here.then_some("winner"))}>
                    <th scope="row">
                        <button type="button" class="linkish" onclick={pick} aria-pressed={here.to_string()}>
                            {a.label()}
                        </button>
                    </th>
                    <td>{a.collective_name()}</td>
                    <td class="rounds">{row.rounds}</td>
                    <td class="bytes" title={format!("{} B", group_thousands(row.max_sent_bytes))}>{format_bytes_short(row.max_sent_bytes as f64)}</td>
                    <td class="time">{format_time(row.executed_time)}</td>
                    <td>{format_time(row.closed_form.time)}</td>
                    <td class="agree">{ if row.agrees() { html! {"✓"} } else {
                        let d = row.executed_time - row.closed_form.time;
                        html! {
                            <span title={row.difference.clone().unwrap_or_default()}>
                                {format!("differs by {}{}", if d >= 0.0 { "+" } else { "−" }, format_time(d.abs()))}
                            </span>
                        }
                    } }</td>
                </tr>
            }
        })
        .collect::<Html>();
    let differing: Vec<(&'static str, String)> = table
        .iter()
        .filter(|r| !r.agrees())
        .map(|r| (r.alg.key(), r.difference.clone().unwrap_or_default()))
        .collect();
    let summary = html! {
        <section class="panel wide" aria-labelledby="summary-h">
            <h3 id="summary-h">{format!("All algorithms at p = {p}, n = {}", format_bytes_short(s.total_bytes() as f64))}</h3>
            <div class="table-scroll">
                <table class="numbers" id="summary">
                    <thead><tr>
                        <th scope="col">{"algorithm"}</th><th scope="col">{"collective"}</th>
                        <th scope="col">{"rounds"}</th><th scope="col">{"most bytes sent by one rank"}</th>
                        <th scope="col">{"time (executed)"}</th><th scope="col">{"time (closed form)"}</th>
                        <th scope="col">{"agree"}</th>
                    </tr></thead>
                    <tbody>{summary_rows}</tbody>
                </table>
            </div>
            if !differing.is_empty() {
                <ul class="muted" id="differences">
                    { for differing.iter().map(|(a, why)| html! { <li>{format!("{a}: {why}")}</li> }) }
                </ul>
            }
            <p class="muted">{"Every row is generated, executed and verified at these parameters. \
                all-reduce = reduce-scatter + all-gather = reduce + broadcast: compare the rs and ag rows with the ring, \
                and Rabenseifner's bytes with its rounds."}</p>
        </section>
    };

    // --- ring all-reduce vs gossip ------------------------------------------
    let gossip = gossip_contrast(p).map(|g| {
        let shown = p.min(8);
        let vals = |v: &[f64]| {
            let mut t: Vec<String> = v.iter().take(shown).map(|x| fmt_value(*x)).collect();
            if p > shown {
                t.push("…".into());
            }
            t.join(", ")
        };
        html! {
            <section class="panel" aria-labelledby="gossip-h" id="gossip-contrast">
                <h3 id="gossip-h">{"All-reduce vs one gossip round"}</h3>
                <p>{format!("Inputs {}. After one ring all-reduce and ÷ p every rank holds exactly {} (spread 0). \
                    After one gossip round on the same ring (each rank averages itself and its two neighbours with weight 1/3) \
                    the values are {}: spread {} instead of {}.",
                    vals(&g.inputs), fmt_value(g.mean), vals(&g.after_one_round),
                    fmt_value(g.spread_after), fmt_value(g.spread_before))}</p>
                <p><a href={format!("?view=gossip&graph=ring&p={p}&weights=uniform&init={}",
                    g.inputs.iter().map(|v| fmt_value(*v)).collect::<Vec<_>>().join(","))}>
                    {"Watch gossip on a ring of the same size, from the same inputs →"}</a></p>
            </section>
        }
    });

    let d = &*drafts;
    let orphan_errors = if alg.needs_nodes() {
        d.orphans_html(&["p", "size", "bw", "alpha", "gpus"])
    } else {
        d.orphans_html(&["p", "size", "bw", "alpha"])
    };

    html! {
        <div class="view view-collectives">
            <h1>{"Collective algorithms"}</h1>
            <p class="lede">
                {"Pick an algorithm and step through its rounds. Every arrow is a real message of the executed schedule, \
                  labelled with the chunks it carries and whether the receiver adds (reduce) or overwrites (copy)."}
            </p>
            <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <div class="field span2">
                    <label for="f-alg">{"Algorithm"}</label>
                    <select id="f-alg" name="alg" onchange={on_alg_select}>
                        { for Algorithm::all().map(|a| html! {
                            <option value={a.key()} selected={a == alg}>{format!("{} ({})", a.label(), a.key())}</option>
                        }) }
                    </select>
                </div>
                <TextField name="p" label="Ranks p" value={d.text_or("p", &p.to_string())}
                    error={d.error("p")} hint={AttrValue::from("2 to 64; any p, powers of two or not")} on_commit={commit("p")} />
                <TextField name="size" label="Tensor size n" value={d.text_or("size", &params.size.text)}
                    error={d.error("size")} hint={AttrValue::from(format_size(params.size.value))} on_commit={commit("size")} />
                <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &params.bw.text)}
                    error={d.error("bw")} hint={AttrValue::from("e.g. 12.5GB/s or 100Gb/s")} on_commit={commit("bw")} />
                <TextField name="alpha" label="Latency α" value={d.text_or("alpha", &params.alpha.text)}
                    error={d.error("alpha")} hint={AttrValue::from("e.g. 0us, 5us, 2ms")} on_commit={commit("alpha")} />
                if alg.needs_nodes() {
                    <TextField name="gpus" label="Ranks per node" value={d.text_or("gpus", &params.gpus.to_string())}
                        error={d.error("gpus")} hint={AttrValue::from(format!("divides p: {} nodes of {}", p / params.gpus.max(1), params.gpus))}
                        on_commit={commit_gpus} />
                }
            </form>
            {orphan_errors}
            <ol class="phase-strip" aria-label="Phases">{strip}</ol>
            <div class="status">
                <p class={classes!("phase", matches!(current_phase, Some(Phase::FoldIn | Phase::FoldOut)).then_some("fold"))} id="phase">{phase_label.clone()}</p>
                <p class="narration" id="narration" aria-live="polite">{narration}</p>
            </div>
            <StepControls step={step} last={rounds} on_step={set_step} unit="Round" />
            {picture}
            <div class="panels">
                <section class="panel wide" aria-labelledby="counters-h">
                    <h3 id="counters-h">{"Bytes per rank so far"}</h3>
                    <div class="table-scroll">
                        <table class="numbers counters">
                            <thead><tr><th scope="col">{"rank"}</th>{counter_head}<th scope="col">{"sent"}</th><th scope="col">{"received"}</th></tr></thead>
                            <tbody>{counter_rows}</tbody>
                        </table>
                    </div>
                    if p > COUNTER_ROWS {
                        <p class="muted">{format!("Showing ranks 0–{}.", COUNTER_ROWS - 1)}</p>
                    }
                    <p id="totals">
                        {format!("After {step} of {rounds} rounds: the most any rank has sent is {} ({} B).",
                            format_bytes_short(max_sent as f64), group_thousands(max_sent))}
                    </p>
                </section>
                <section class="panel" aria-labelledby="log-h">
                    <h3 id="log-h">{if step >= 1 { format!("Transfers in round {step}") } else { "Transfers".to_string() }}</h3>
                    {log}
                </section>
                <section class="panel" aria-labelledby="check-h">
                    <h3 id="check-h">{"Check"}</h3>
                    {check}
                </section>
                {cost_panel}
                { for gossip }
                {summary}
            </div>
        </div>
    }
}
