//! The NCCL panels (`proto=nccl`): the port of NCCL's tuning model
//! ([`crate::core::cost::nccl_tune`]) at the typed inputs: a table of every
//! (algorithm, protocol) time per size with NCCL's pick marked, and the
//! sizes where the pick changes, each with the reason in words.

use yew::prelude::*;

use crate::core::cost::nccl_tune::{switch_reason, Algo, Func, Proto, Tuning, NOT_MODELLED};
use crate::core::units::format_both as both;
use crate::core::units::{format_bandwidth, format_binary, format_time};
use crate::plot::cost::{nccl_colour_hex, NCCL_CELLS};

/// The sizes of the table: the chosen one, then 1 KiB, 16 KiB, … 1 GiB.
fn sizes(n: f64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..=10).map(|k| 1024u64 << (2 * k)).collect();
    let chosen = n.round().max(1.0) as u64;
    if !v.contains(&chosen) {
        v.push(chosen);
        crate::core::order::sort_u64(&mut v);
    }
    v
}

/// "NCCL's pick": the (algorithm × protocol) times per size of the model's
/// tables `tuning` (or why the inputs were refused) around the chosen size
/// `n` (bytes). A plain function, not a component.
pub fn nccl_table(tuning: &Result<Tuning, String>, n: f64) -> Html {
    let t = match tuning {
        Ok(t) => t,
        Err(e) => {
            return html! {
                <section class="panel wide" aria-labelledby="nccl-h">
                    <h2 class="panel-h" id="nccl-h">{"NCCL's pick"}</h2>
                    <p class="field-error" role="alert">{format!("NCCL's model refuses these inputs: {e}")}</p>
                </section>
            }
        }
    };
    let f = Func::AllReduce;
    let chosen = n.round().max(1.0) as u64;
    let head = Algo::ALL.iter().flat_map(|&a| {
        Proto::ALL.map(move |p| {
            let c = t.cells[4][a as usize][p as usize];
            let k = 3 * a as usize + p as usize;
            html! {
                <th>
                    <span style={format!("border-bottom:3px solid {}", nccl_colour_hex(k))}>{NCCL_CELLS[k]}</span><br/>
                    <small class="muted">{if c.bw > 0.0 {
                        format!("{} + n / {}", format_time(f64::from(c.lat) * 1e-6), format_bandwidth(f64::from(c.bw) * 1e9))
                    } else { "off".to_string() }}</small>
                </th>
            }
        })
    });
    let rows = sizes(n).into_iter().map(|n| {
        let pick = t.pick(f, n);
        let cells = Algo::ALL.iter().flat_map(|&a| {
            Proto::ALL.map(move |p| {
                let is = pick.is_some_and(|k| k.algo == a && k.proto == p);
                let text = t
                    .time(f, a, p, n)
                    .map_or_else(|| "—".to_string(), |us| format_time(us * 1e-6));
                html! { <td class={classes!(is.then_some("winner"))}>
                    if is { <strong>{text}{" ◀"}</strong> } else { {text} }
                </td> }
            })
        });
        html! {
            <tr id={format!("nccl-row-{n}")} class={classes!((n == chosen).then_some("chosen"))}>
                <th scope="row">{format_binary(n as f64)}{if n == chosen { " (n)" } else { "" }}</th>
                { for cells }
                <td>{pick.map_or_else(|| "none".to_string(), |p| p.to_string())}</td>
            </tr>
        }
    });
    let i = &t.inputs;
    html! {
        <section class="panel wide" aria-labelledby="nccl-h">
            <h2 class="panel-h" id="nccl-h">{format!("NCCL's pick: all-reduce, {} ranks on {} node(s), NCCL {}", i.ranks, i.nodes, i.version.tag())}</h2>
            <p>{"NCCL times each algorithm × protocol as latency + n / bandwidth (src/graph/tuning.cc) and runs the fastest (◀). \
                LL carries 8 data bytes per 16-byte line, LL128 120 per 128, Simple the full line behind a fence."}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="NCCL's predicted times (scrollable table)">
                <table class="numbers nccl-table" id="nccl-table">
                    <thead><tr><th>{"size n"}</th>{ for head }<th>{"pick"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <p class="muted" id="nccl-not-modelled">{format!("Not modelled, never picked here (a real run may use them): {}.", NOT_MODELLED.join(", "))}</p>
        </section>
    }
}

/// "Where NCCL's pick changes", with the reason of each switch (nothing
/// when the inputs were refused). A plain function, not a component.
pub fn nccl_switches(tuning: &Result<Tuning, String>) -> Html {
    let Ok(t) = tuning else {
        return Html::default();
    };
    let f = Func::AllReduce;
    let switches = t.switches(f, 1, 1 << 34);
    let first = t.pick(f, 1);
    let items = switches.iter().scan(first, |prev, &(n, to)| {
        let from = (*prev)?;
        *prev = Some(to);
        Some(html! {
            <li>
                <strong>{format!("{} → {} at {}", from, to, both(n as f64))}</strong><br/>
                {switch_reason(t, f, from, to, n)}
            </li>
        })
    });
    html! {
        <section class="panel" aria-labelledby="nccl-sw-h">
            <h2 class="panel-h" id="nccl-sw-h">{"Where NCCL's pick changes"}</h2>
            if let Some(p) = first {
                <p>{format!("From 1 B: {p}.")}</p>
            }
            <ul class="intervals" id="nccl-switches">{ for items }</ul>
            if switches.is_empty() {
                <p class="muted">{"The pick does not change from 1 B to 16 GiB."}</p>
            }
        </section>
    }
}
