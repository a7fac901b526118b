//! `#strategies`: all-reduce SGD, D-PSGD and local SGD with the same
//! compute, each with its time per step; `#straggler`: what a slow rank
//! does to each, and D-PSGD's steps as the slowness spreads.

use yew::prelude::*;

use super::SharedReport;
use crate::core::sgd::Strategy;
use crate::core::step::strategies::paced;
use crate::core::step::Sharding;
use crate::core::units::{format_decimal, format_time};
use crate::pages::step::label;
use crate::params::step::StepParams;

/// Props of the time-to-quality panel ([`super::quality::QualityPanel`]).
#[derive(Properties, PartialEq)]
pub struct StrategiesProps {
    /// The case's report.
    pub report: SharedReport,
    /// The parameters.
    pub params: StepParams,
}

/// `#strategies` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn strategies_panel(r: &SharedReport, p: &StepParams) -> Html {
    let clean = r.clean.as_ref().unwrap_or(&r.run);
    let model_bytes = format_decimal(clean.buckets.iter().map(|b| b.bytes).sum::<u64>() as f64);
    let row = |s: Strategy, time: String, bytes: String, how: String| {
        // all-reduce SGD's row is DDP's: not the one shown under ZeRO-2 or FSDP
        let cls = classes!((p.mode == s && p.sharding == Sharding::Ddp).then_some("winner"));
        html! {
            <tr class={cls} id={format!("strategy-{}", s.key())}>
                <th scope="row">{label(s, p.h)}</th><td>{time}</td><td>{bytes}</td><td class="wrap">{how}</td>
            </tr>
        }
    };
    let gossip = match &r.gossip {
        Ok(g) => row(
            Strategy::Gossip,
            format_time(g.step_time()),
            format_decimal(g.bytes_sent as f64),
            format!(
                "max(compute {}, exchange {}): the models go to the neighbours while the gradient is computed at the old model",
                format_time(g.compute),
                format_time(g.exchange)
            ),
        ),
        Err(e) => row(Strategy::Gossip, "—".into(), "—".into(), e.clone()),
    };
    let local = match p.h {
        Some(h) => format!(
            "({h} × {} + all-reduce of the model {}) / {h}",
            format_time(r.local.compute),
            format_time(r.local.allreduce)
        ),
        None => {
            "no h: the models are never averaged (no communication); set h to average every h steps"
                .into()
        }
    };
    let local_bytes = match p.h {
        Some(h) => format_decimal(r.allreduce_bytes as f64 / h as f64),
        None => "0 B".into(),
    };
    html! {
        <section class="panel wide" id="strategies" aria-labelledby="str-h">
            <h2 class="panel-h" id="str-h">{"Strategies side by side, with the same compute"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Strategies (scrollable table)">
                <table class="numbers">
                    <thead><tr><th scope="col">{"strategy"}</th><th scope="col">{"time per step"}</th>
                        <th scope="col">{"bytes a rank sends per step"}</th><th scope="col">{"why"}</th></tr></thead>
                    <tbody>
                        {row(Strategy::AllReduce, format_time(clean.step_time), format_decimal(r.allreduce_bytes as f64),
                            format!("{} buckets ({model_bytes} in all) overlapping the backward pass", clean.buckets.len()))}
                        {gossip}
                        {row(Strategy::Local, format_time(r.local.step_time()), local_bytes, local)}
                    </tbody>
                </table>
            </div>
            <p class="muted">
                {"D-PSGD does not move fewer bytes than a ring all-reduce: on a ring graph each rank sends its whole model to two \
                  neighbours (2n), while the ring all-reduce sends 2(p − 1)/p · n < 2n. It wins with fewer start-ups (one exchange \
                  instead of 2(p − 1) rounds), and when links are slow or uneven, since a rank waits only for its neighbours. \
                  Its models agree only approximately, so it may need more steps."}
            </p>
        </section>
    }
}

/// `#straggler` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn straggler_panel(r: &SharedReport, p: &StepParams) -> Html {
    let Some(s) = p.straggler else {
        return html! {
            <section class="panel" id="straggler" aria-labelledby="slow-h">
                <h2 class="panel-h" id="slow-h">{"A straggler"}</h2>
                <p class="muted">{"Give straggler=RANK:FACTOR (e.g. 3:0.5, half speed) to see what one slow rank costs each strategy."}</p>
            </section>
        };
    };
    let clean = r.clean.as_ref().map_or(r.run.step_time, |c| c.step_time);
    // ZeRO-2's or FSDP's step with and without the straggler, when shown
    let sharded = r
        .shown()
        .ok()
        .filter(|s| s.mode != Sharding::Ddp)
        .and_then(|s| s.clean.map(|c| (s, c)));
    let pace = r.run.compute_time;
    let steps = r.gossip_steps.as_ref().map(|ends| {
        let reach = paced(ends, pace);
        let rows = ends.iter().zip(&reach).enumerate().map(|(t, (e, n))| {
            let prev = if t == 0 { 0.0 } else { ends[t - 1][0] };
            html! { <tr><th scope="row">{t + 1}</th><td>{format_time(e[0] - prev)}</td><td>{format!("{n} of {}", e.len())}</td></tr> }
        });
        html! {
            <div class="table-scroll tall" role="region" tabindex="0" aria-label="D-PSGD steps with a straggler (scrollable table)">
                <table class="numbers" id="gossip-steps">
                    <thead><tr><th scope="col">{"D-PSGD step"}</th><th scope="col">{"rank 0's step"}</th>
                        <th scope="col">{format!("ranks at the straggler's pace ({})", format_time(pace))}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        }
    });
    html! {
        <section class="panel" id="straggler" aria-labelledby="slow-h">
            <h2 class="panel-h" id="slow-h">{format!("A straggler: rank {} at {} × speed", s.rank, crate::core::units::decimal::shortest(s.factor))}</h2>
            <p id="straggler-allreduce">{format!(
                "All-reduce SGD: {} a step instead of {}. Every bucket's all-reduce needs every rank, so each waits for the straggler's gradients.",
                format_time(r.run.step_time), format_time(clean))}</p>
            if let Some((sh, c)) = sharded {
                <p id="straggler-sharded">{format!(
                    "As {}: {} a step instead of {}. Every all-gather and reduce-scatter needs every rank too.",
                    sh.mode.label(), format_time(sh.run.step_time), format_time(c.step_time))}</p>
            }
            if let Some(g) = r.gossip_straggler_step() {
                <p id="straggler-gossip">{format!(
                    "Synchronous D-PSGD: a rank waits only for its neighbours, but they wait for theirs; the slowness spreads one hop a step, \
                     and in steady state every rank takes {} a step.", format_time(g))}</p>
            }
            {steps.unwrap_or_default()}
            <p id="straggler-local">{format!("Local SGD: {} a step on average; it still waits for the straggler at every averaging.", format_time(r.local_straggler.unwrap_or(r.local).step_time()))}</p>
            <p class="muted">{"Only an asynchronous method, which lets ranks go on without the slow one's contribution, escapes the straggler's pace."}</p>
        </section>
    }
}
