//! `#sharding`: DDP, ZeRO-1, ZeRO-2 and ZeRO-3 (FSDP) side by side: the
//! memory each rank holds, the step time and the bytes each rank sends.

use yew::prelude::*;

use super::SharedReport;
use crate::core::step::{format_count, Sharding, StepRun};
use crate::core::units::{format_decimal, format_memory, format_number, format_time};
use crate::params::step::StepParams;

/// The step time and bytes cells of a mode's run (or its reason in one cell).
fn clock(id: &'static str, run: Result<&StepRun, &str>, ddp_bytes: u64) -> Html {
    match run {
        Ok(run) => {
            let ratio = if ddp_bytes > 0 && run.bytes_sent != ddp_bytes {
                format!(
                    " ({} × DDP)",
                    format_number(run.bytes_sent as f64 / ddp_bytes as f64)
                )
            } else {
                String::new()
            };
            html! {<>
                <td id={format!("time-{id}")}>{format_time(run.step_time)}</td>
                <td id={format!("sent-{id}")}>{format!("{}{ratio}", format_decimal(run.bytes_sent as f64))}</td>
            </>}
        }
        Err(_) => html! { <td colspan="2" id={format!("time-{id}")}>{"—"}</td> },
    }
}

/// `#sharding` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn sharding_panel(r: &SharedReport, p: &StepParams) -> Html {
    let m = r.memory;
    let ddp_bytes = r.run.bytes_sent;
    // a row: the mode and its formula, its memory, its step time and bytes
    let row = |id: &'static str,
               mode: Option<Sharding>,
               name: &'static str,
               formula: &'static str,
               mem: Html,
               cells: Html| {
        let cls = classes!((mode == Some(r.mode)).then_some("winner"));
        html! {
            <tr class={cls} id={format!("sharding-{id}")}>
                <th scope="row">{name}<br /><span class="muted formula">{formula}</span></th>
                <td>{mem}</td>
                {cells}
            </tr>
        }
    };
    let mem = |id: &'static str, b: f64| html! { <span id={format!("mem-{id}")}>{format_memory(b)}</span> };
    let zero2 = r.run_of(Sharding::Zero2);
    let fsdp = r.run_of(Sharding::Fsdp);
    let why = zero2
        .err()
        .map(|e| html! { <p class="field-error" id="sharding-why">{format!("{e}.")}</p> });
    html! {
        <section class="panel wide" id="sharding" aria-labelledby="shard-h">
            <h2 class="panel-h" id="shard-h">{"Sharded data parallelism: memory per rank, step time and traffic"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Memory per rank (scrollable table)">
                <table class="numbers">
                    <thead><tr><th scope="col">{"mode"}</th><th scope="col">{"memory per rank"}</th>
                        <th scope="col">{"step time"}</th><th scope="col">{"bytes a rank sends per step"}</th></tr></thead>
                    <tbody>
                        {row("ddp", Some(Sharding::Ddp), "DDP", "(2 + 2 + K)Ψ", mem("ddp", m.ddp), clock("ddp", Ok(&r.run), ddp_bytes))}
                        {row("zero1", None, "ZeRO-1", "4Ψ + KΨ/N", mem("zero1", m.zero1), clock("zero1", zero2, ddp_bytes))}
                        {row("zero2", Some(Sharding::Zero2), "ZeRO-2", "2Ψ + (2 + K)Ψ/N", mem("zero2", m.zero2), clock("zero2", zero2, ddp_bytes))}
                        {row("zero3", Some(Sharding::Fsdp), "ZeRO-3 / FSDP", "(2 + 2 + K)Ψ/N", html! {<>
                            {mem("zero3", m.zero3)}<br />
                            <span class="muted formula" id="mem-fsdp">{format!("FSDP: + {} = {}", format_memory(m.gathered), format_memory(m.fsdp()))}</span>
                        </>}, clock("fsdp", fsdp, ddp_bytes))}
                    </tbody>
                </table>
            </div>
            {why.unwrap_or_default()}
            <p class="muted">
                {format!("Ψ = {} parameters, N = {} ranks, K = {} bytes of optimizer state per parameter (optim=). ",
                    format_count(m.params), p.p, format_number(p.optim.value))}
                {"Mixed-precision Adam keeps 2 bytes of parameters and 2 of gradients per parameter (fp16 or bf16, whatever dtype= says for the collectives), \
                  and K = 12 of optimizer state: an fp32 copy of the parameters, the momentum and the variance (Rajbhandari et al. 2020, \"ZeRO\", §3). \
                  ZeRO-1 shards the optimizer state over the N ranks, ZeRO-2 the gradients too, ZeRO-3 the parameters too; \
                  FSDP also holds the largest layer's parameters gathered whole (+ 2 bytes per parameter of that layer) while that layer computes. Activations and buffers are not counted."}
            </p>
            <p class="muted">
                {"Traffic: DDP all-reduces the gradients, 2(N − 1)/N · Ψ elements per rank. ZeRO-1 and ZeRO-2 reduce-scatter them and all-gather \
                  the updated parameters: the same 2(N − 1)/N · Ψ, as a reduce-scatter plus an all-gather is an all-reduce (ZeRO-1's step is ZeRO-2's \
                  on the clock: it differs only in keeping the whole gradient). FSDP all-gathers the parameters twice (before forward and again before \
                  backward) and reduce-scatters once: 3(N − 1)/N · Ψ, 1.5 × DDP, for a memory that falls by up to N. Bytes are counted on the executed schedules."}
            </p>
        </section>
    }
}
