//! `?view=ring`: ring all-reduce of real data, chunk by chunk.
//!
//! The trace comes from executing the ring schedule in the core; this view
//! only picks the state for the current step and draws it.

use std::rc::Rc;

use yew::prelude::*;

use super::ViewProps;
use crate::app::components::field::{link_commit, TextField};
use crate::app::components::rank_ring::{RankRing, RingArrow, RingCell};
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::use_view_params;
use crate::core::collectives::narrate::fmt_value;
use crate::core::execute::{default_init, execute_owned, ExecOptions, LogValues, Trace};
use crate::core::schedule::naive::naive_root;
use crate::core::schedule::ring::ring_all_reduce;
use crate::core::schedule::{chunk_range, Op};
use crate::core::timing::{executed_time, explain, ring_bytes_counted, ring_bytes_per_rank};
use crate::core::units::{
    bandwidth_chain, format_bytes_short, format_size, format_time, group_thousands, sig,
};
use crate::params::ring::{Accounting, RingParams, ELEM_BYTES, MAX_DRAWN_P, MAX_P};

/// Executes the ring all-reduce for `p` ranks and `bytes` bytes of f32.
/// Per-round states are kept only when the ring is drawn.
pub fn ring_trace(p: usize, bytes: u64) -> Option<Trace> {
    let schedule = ring_all_reduce(p, bytes / ELEM_BYTES, ELEM_BYTES).ok()?;
    execute_owned(
        schedule,
        &default_init,
        ExecOptions {
            keep_states: p <= MAX_DRAWN_P,
        },
    )
    .ok()
}

/// The ring view.
#[component]
pub fn RingView(props: &ViewProps) -> Html {
    let (params, drafts) = use_view_params::<RingParams>(props);

    let trace: Rc<Option<Trace>> = use_memo((params.p, params.size.value), |(p, bytes)| {
        ring_trace(*p, *bytes)
    });
    let Some(trace) = trace.as_ref() else {
        return html! { <p class="field-error" role="alert">{"Could not build the ring schedule for these parameters."}</p> };
    };

    let p = params.p;
    let rounds = trace.num_rounds();
    let last = params.last_step();
    let step = params.step.min(last);
    let mean_step = params.mean && step == rounds + 1;
    let rounds_done = step.min(rounds);
    let n_bytes = params.size.value as f64;
    let beta = params.bw.value.beta();
    let alpha = params.alpha.value;

    // --- callbacks -------------------------------------------------------
    let set_step = {
        let params = params.clone();
        Callback::from(move |s: usize| {
            let mut next = (*params).clone();
            next.step = s.min(next.last_step());
            params.set(next);
        })
    };
    let commit = |field: &'static str| link_commit(&params, &drafts, field, MAX_P);
    let on_mean = {
        let params = params.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut next = (*params).clone();
            next.mean = input.checked();
            next.step = next.step.min(next.last_step());
            params.set(next);
        })
    };
    let on_count = {
        let params = params.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let mut next = (*params).clone();
            next.count = if sel.value() == "both" {
                Accounting::SentAndReceived
            } else {
                Accounting::Sent
            };
            params.set(next);
        })
    };

    // --- labels ------------------------------------------------------------
    let phase_label = if step == 0 {
        "Initial buffers (before round 1)".to_string()
    } else if mean_step {
        "Mean: divide by p (local, no transfer)".to_string()
    } else {
        trace.schedule.round_label(step - 1)
    };
    let sum = trace.expected.first().copied().unwrap_or(0.0);
    // The mean step's value, as the core computed it (final buffers ÷ p).
    let mean = trace
        .final_mean()
        .first()
        .and_then(|row| row.first().copied())
        .unwrap_or(0.0);
    let narration = if mean_step {
        format!(
            "Each rank divides its sum by p = {p} on its own: {} / {p} = {}. No bytes move in this step.",
            fmt_value(sum),
            fmt_value(mean)
        )
    } else {
        trace.narrate(rounds_done)
    };

    // --- the picture -----------------------------------------------------
    let picture = if p <= MAX_DRAWN_P {
        let state = trace.state_after(rounds_done);
        let means = mean_step.then(|| trace.final_mean());
        let cells: Vec<Vec<RingCell>> = (0..p)
            .map(|r| {
                (0..p)
                    .map(|c| {
                        let range = chunk_range(trace.schedule.n, p, c);
                        let seg = trace.segments_in(&range).start;
                        match state {
                            Some(st) if range.start < range.end => {
                                let who = &st.contributors[r][seg];
                                let v = means.as_ref().map_or(st.values[r][seg], |m| m[r][seg]);
                                RingCell {
                                    value: fmt_value(v),
                                    who: if mean_step {
                                        "mean".into()
                                    } else {
                                        who.label(p)
                                    },
                                    count: who.len(),
                                    title: format!(
                                        "rank {r}, chunk {c} ({}): value {} from ranks {}",
                                        format_bytes_short(
                                            (range.end - range.start) as f64 * ELEM_BYTES as f64
                                        ),
                                        fmt_value(v),
                                        who.label(p)
                                    ),
                                }
                            }
                            _ => RingCell {
                                value: "—".into(),
                                who: String::new(),
                                count: 0,
                                title: format!("rank {r}, chunk {c}: empty"),
                            },
                        }
                    })
                    .collect()
            })
            .collect();
        let arrows: Vec<RingArrow> = if step >= 1 && step <= rounds {
            trace.schedule.rounds[step - 1]
                .transfers
                .iter()
                .map(|t| RingArrow {
                    src: t.src,
                    dst: t.dst,
                    label: t.chunk.map_or_else(|| "all".into(), |c| format!("c{c}")),
                    reduce: t.op == Op::Reduce,
                })
                .collect()
        } else {
            Vec::new()
        };
        html! {
            <RankRing {p} {cells} {arrows}
                caption={format!("Ring of {p} ranks; {phase_label}")} />
        }
    } else {
        html! {
            <p class="notice">
                {format!("p = {p} is above {MAX_DRAWN_P}, so the ring is not drawn: the schedule still runs in full \
                    and every number below comes from it.")}
            </p>
        }
    };

    // --- counters --------------------------------------------------------
    let sent = trace.sent_after(rounds_done);
    let recv = trace.recv_after(rounds_done);
    let both = params.count == Accounting::SentAndReceived;
    let counted = |r: usize| if both { sent[r] + recv[r] } else { sent[r] };
    let (_, volume_text) = ring_bytes_per_rank(p, n_bytes);
    let target = ring_bytes_counted(p, n_bytes, both);
    let max_counted = (0..p).map(counted).max().unwrap_or(0);
    let rows_shown = p.min(16);
    let counter_rows = (0..rows_shown).map(|r| {
        html! {
            <tr key={r}>
                <th scope="row">{format!("rank {r}")}</th>
                <td id={format!("sent-{r}")} title={format!("{} B", group_thousands(sent[r]))}>{format_bytes_short(sent[r] as f64)}</td>
                <td id={format!("recv-{r}")} title={format!("{} B", group_thousands(recv[r]))}>{format_bytes_short(recv[r] as f64)}</td>
                <td>{format_bytes_short(counted(r) as f64)}</td>
            </tr>
        }
    });

    // --- transfer log ------------------------------------------------------
    let log = if step >= 1 && step <= rounds {
        let lines = trace.round_log(step - 1);
        let total = trace.schedule.rounds[step - 1].transfers.len();
        let shown: Vec<Html> = if lines.is_empty() {
            trace.schedule.rounds[step - 1]
                .transfers
                .iter()
                .take(16)
                .map(|t| {
                    html! { <li>{format!("rank {} → rank {}: chunk {}, {}, {}", t.src, t.dst,
                        t.chunk.unwrap_or(0), format_bytes_short((t.len() * ELEM_BYTES) as f64), t.op.name())}</li> }
                })
                .collect()
        } else {
            lines
                .iter()
                .take(16)
                .map(|l| {
                    let what = match (l.op, l.values) {
                        (
                            Op::Reduce,
                            Some(LogValues {
                                sent: s,
                                before: b,
                                after: a,
                            }),
                        ) => {
                            format!("{} + {} = {}", fmt_value(s), fmt_value(b), fmt_value(a))
                        }
                        (
                            Op::Copy,
                            Some(LogValues {
                                sent: s, before: b, ..
                            }),
                        ) => {
                            format!("copy {} (replaces {})", fmt_value(s), fmt_value(b))
                        }
                        (_, None) => "empty chunk".into(),
                    };
                    html! {
                        <li class={if l.op == Op::Reduce { "reduce" } else { "copy" }}>
                            {format!("rank {} → rank {}: chunk {}, {}, {what}", l.src, l.dst,
                                l.chunk.unwrap_or(0), format_bytes_short(l.bytes as f64))}
                        </li>
                    }
                })
                .collect()
        };
        html! {
            <>
                <ul class="log">{ for shown }</ul>
                if total > 16 {
                    <p class="muted">{format!("… and {} more transfers of the same shape.", total - 16)}</p>
                }
            </>
        }
    } else if mean_step {
        html! { <p>{"No transfers: the division by p is local to each rank."}</p> }
    } else {
        html! { <p>{"No transfers yet. Step forward to run round 1."}</p> }
    };

    // --- check line --------------------------------------------------------
    let inputs: Vec<String> = trace
        .states
        .first()
        .map(|s| {
            s.values
                .iter()
                .map(|row| fmt_value(row.first().copied().unwrap_or(0.0)))
                .collect()
        })
        .unwrap_or_default();
    let sum_text = if p <= 8 {
        inputs.join(" + ")
    } else {
        format!("{} + {} + … + {}", inputs[0], inputs[1], inputs[p - 1])
    };
    let check = if rounds_done == rounds {
        if trace.verification.ok() {
            html! {
                <p class="check ok" id="check">
                    {format!("✓ Verified: all {p} ranks hold the element-wise sum {} = {} in every element.", sum_text, fmt_value(sum))}
                    if mean_step {
                        {format!(" Mean step: {} / {p} = {} on every rank.", fmt_value(sum), fmt_value(mean))}
                    }
                </p>
            }
        } else {
            html! {
                <p class="check bad" id="check" role="alert">
                    {format!("✗ Mismatch on {} rank-segments: the result is not the element-wise sum.",
                        trace.verification.mismatches.len())}
                </p>
            }
        }
    } else {
        html! { <p class="check pending" id="check">{format!("Not finished: {} of {rounds} rounds run.", rounds_done)}</p> }
    };

    // --- comparison --------------------------------------------------------
    let naive = naive_root(p, trace.schedule.n, ELEM_BYTES).ok();
    let ring_t = executed_time(&trace.schedule, alpha, beta);
    let comparison = naive.map(|naive| {
        let naive_t = executed_time(&naive, alpha, beta);
        html! {
            <section class="panel" aria-labelledby="cmp-h">
                <h3 id="cmp-h">{"Ring vs naive root"}</h3>
                <p class="muted">{bandwidth_chain(&params.bw.value)}{format!("; α = {}.", format_time(alpha))}</p>
                <table class="numbers">
                    <thead><tr><th>{"schedule"}</th><th>{"rounds"}</th><th>{"time"}</th></tr></thead>
                    <tbody>
                        <tr><th scope="row">{"ring all-reduce"}</th><td>{rounds}</td><td id="ring-time">{format_time(ring_t)}</td></tr>
                        <tr><th scope="row">{"naive root (serialised)"}</th><td>{naive.num_rounds()}</td><td id="naive-time">{format_time(naive_t)}</td></tr>
                    </tbody>
                </table>
                <p>{"Ring: "}<code>{explain(&trace.schedule, alpha, beta)}</code></p>
                <p>{"Naive root: "}<code>{explain(&naive, alpha, beta)}</code></p>
                <p id="ratio">{format!("The naive root takes {}× as long as the ring here.", sig(naive_t / ring_t.max(f64::MIN_POSITIVE), 3))}</p>
                <p class="muted">{"Each round costs α plus its largest message × β; the root handles one full tensor at a time."}</p>
            </section>
        }
    });

    let d = &*drafts;
    let orphan_errors = d.orphans_html(&["p", "size", "bw", "alpha"]);

    html! {
        <div class="view view-ring">
            <h1>{"Ring all-reduce"}</h1>
            <p class="lede">
                {"Each rank starts with its own tensor (rank r holds the value r + 1). Reduce-scatter adds chunks around the ring; all-gather then copies the finished chunks, never adding again."}
            </p>
            <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <TextField name="p" label="Ranks p" value={d.text_or("p", &p.to_string())}
                    error={d.error("p")} hint={AttrValue::from("2 to 1024; drawn up to 64")} on_commit={commit("p")} />
                <TextField name="size" label="Tensor size n" value={d.text_or("size", &params.size.text)}
                    error={d.error("size")} hint={AttrValue::from(format_size(params.size.value))} on_commit={commit("size")} />
                <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &params.bw.text)}
                    error={d.error("bw")} hint={AttrValue::from("e.g. 12.5GB/s or 100Gb/s")} on_commit={commit("bw")} />
                <TextField name="alpha" label="Latency α" value={d.text_or("alpha", &params.alpha.text)}
                    error={d.error("alpha")} hint={AttrValue::from("e.g. 0us, 5us, 2ms")} on_commit={commit("alpha")} />
                <div class="field checkbox">
                    <label><input type="checkbox" checked={params.mean} onchange={on_mean} />{" Show the mean (÷ p) step"}</label>
                </div>
                <div class="field">
                    <label for="f-count">{"Count"}</label>
                    <select id="f-count" onchange={on_count}>
                        <option value="sent" selected={!both}>{"bytes sent"}</option>
                        <option value="both" selected={both}>{"bytes sent + received"}</option>
                    </select>
                </div>
            </form>
            {orphan_errors}
            <div class="status">
                <p class="phase" id="phase">{phase_label.clone()}</p>
                <p class="narration" id="narration" aria-live="polite">{narration}</p>
            </div>
            <StepControls step={step} last={last} on_step={set_step} unit="Step" />
            {picture}
            <div class="panels">
                <section class="panel" aria-labelledby="counters-h">
                    <h3 id="counters-h">{"Bytes per rank so far"}</h3>
                    <table class="numbers counters">
                        <thead><tr><th>{"rank"}</th><th>{"sent"}</th><th>{"received"}</th>
                            <th>{if both { "sent + received" } else { "counted (sent)" }}</th></tr></thead>
                        <tbody>{ for counter_rows }</tbody>
                    </table>
                    if p > rows_shown {
                        <p class="muted">{format!("Showing ranks 0–{}; the largest count over all {p} ranks is {}.", rows_shown - 1, format_bytes_short(max_counted as f64))}</p>
                    }
                    <p id="total">
                        {format!("Per rank at the end: {volume_text}")}
                        {if both { format!(" sent, {} sent + received.", format_bytes_short(target)) } else { " sent.".to_string() }}
                        {format!(" Largest so far: {} ({} B).", format_bytes_short(max_counted as f64), group_thousands(max_counted))}
                    </p>
                    if !trace.schedule.n.is_multiple_of(p as u64) {
                        <p class="muted">{"n does not divide by p, so chunks differ by one element and ranks send slightly different amounts."}</p>
                    }
                </section>
                <section class="panel" aria-labelledby="log-h">
                    <h3 id="log-h">{if step >= 1 && step <= rounds { format!("Transfers in round {step}") } else { "Transfers".to_string() }}</h3>
                    {log}
                </section>
                <section class="panel" aria-labelledby="check-h">
                    <h3 id="check-h">{"Check"}</h3>
                    {check}
                </section>
                { for comparison }
            </div>
        </div>
    }
}
