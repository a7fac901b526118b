//! `#sharding`: DDP, ZeRO-1, ZeRO-2 and ZeRO-3 (FSDP) side by side: the
//! memory each rank holds, the step time and the bytes each rank sends.

use yew::prelude::*;

use super::SharedReport;
use crate::core::step::{format_count, Sharding};
use crate::core::units::{format_decimal, format_memory, format_number, format_time};
use crate::params::step::StepParams;

/// `#sharding` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn sharding_panel(r: &SharedReport, p: &StepParams) -> Html {
    let m = r.memory;
    let ddp = r.run.bytes_sent;
    let zero2 = r.run_of(Sharding::Zero2);
    // (row id, the mode it shows, name, formula, memory, its step)
    let rows = [
        (
            "ddp",
            Some(Sharding::Ddp),
            "DDP",
            "(2 + 2 + K)Ψ",
            m.ddp,
            Ok(&r.run),
        ),
        ("zero1", None, "ZeRO-1", "4Ψ + KΨ/N", m.zero1, zero2),
        (
            "zero2",
            Some(Sharding::Zero2),
            "ZeRO-2",
            "2Ψ + (2 + K)Ψ/N",
            m.zero2,
            zero2,
        ),
        (
            "zero3",
            Some(Sharding::Fsdp),
            "ZeRO-3 / FSDP",
            "(2 + 2 + K)Ψ/N",
            m.zero3,
            r.run_of(Sharding::Fsdp),
        ),
    ];
    let rows = rows.into_iter().map(|(id, mode, name, formula, mem, run)| {
        let cls = classes!((mode == Some(r.mode)).then_some("winner"));
        // the clock's cells are named by the mode run: ZeRO-3's by fsdp
        let key = if id == "zero3" { "fsdp" } else { id };
        let cells = match run {
            Ok(run) => {
                let ratio = if ddp > 0 && run.bytes_sent != ddp {
                    format!(" ({} × DDP)", format_number(run.bytes_sent as f64 / ddp as f64))
                } else {
                    String::new()
                };
                html! {<>
                    <td id={format!("time-{key}")}>{format_time(run.step_time)}</td>
                    <td id={format!("sent-{key}")}>{format!("{}{ratio}", format_decimal(run.bytes_sent as f64))}</td>
                </>}
            }
            Err(_) => html! {<><td id={format!("time-{key}")}>{"—"}</td><td>{"—"}</td></>},
        };
        let gathered = (id == "zero3").then(|| html! {<>
            <br /><span class="muted formula" id="mem-fsdp">{format!("FSDP: + {} = {}", format_memory(m.gathered), format_memory(m.fsdp()))}</span>
        </>});
        html! {
            <tr class={cls} id={format!("sharding-{id}")}>
                <th scope="row">{name}<br /><span class="muted formula">{formula}</span></th>
                <td><span id={format!("mem-{id}")}>{format_memory(mem)}</span>{gathered}</td>
                {cells}
            </tr>
        }
    });
    // Why the sharded rows are empty; when a sharded mode was asked for,
    // the step chart above already says it in full.
    let why = zero2.err().map(|e| {
        let text = if p.sharding == Sharding::Ddp {
            format!("{e}.")
        } else {
            "No step time or traffic for ZeRO-1, ZeRO-2 and FSDP: see the message above the step chart.".to_string()
        };
        html! { <p class="field-error" id="sharding-why">{text}</p> }
    });
    html! {
        <section class="panel wide" id="sharding" aria-labelledby="shard-h">
            <h2 class="panel-h" id="shard-h">{"Sharded data parallelism: memory per rank, step time and traffic"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Memory per rank (scrollable table)">
                <table class="numbers">
                    <thead><tr><th scope="col">{"mode"}</th><th scope="col">{"memory per rank"}</th>
                        <th scope="col">{"step time"}</th><th scope="col">{"bytes a rank sends per step"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            {why.unwrap_or_default()}
            <p class="muted">
                {format!("Ψ = {} parameters, N = {} ranks, K = {} (optim=). ", format_count(m.params), p.p, format_number(p.optim.value))}
                {"Per parameter: 2 B of parameters, 2 B of gradients, K B of optimizer state (mixed-precision Adam: fp32 parameters, momentum, variance; \
                  Rajbhandari et al. 2020, §3), whatever dtype= says. ZeRO-1 shards the optimizer state, ZeRO-2 the gradients too, ZeRO-3 the parameters too; \
                  FSDP also holds its largest layer gathered. Activations are not counted. ZeRO-1 communicates as ZeRO-2: a reduce-scatter and an all-gather, \
                  2(N − 1)/N · Ψ elements as DDP's all-reduce; FSDP gathers twice, 3(N − 1)/N · Ψ. Bytes are counted on the executed schedules."}
            </p>
        </section>
    }
}
