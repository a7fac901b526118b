//! `#failure`: `fail=RANK@STEP`. All-reduce SGD stops (and restarts from
//! its checkpoint on p − 1 workers); D-PSGD goes on on the survivors when
//! their graph stays connected.

use yew::prelude::*;

use super::SharedReport;
use crate::core::step::failure::Survivors;
use crate::core::units::decimal;
use crate::core::units::{format_time, format_weight};
use crate::params::step::StepParams;

fn survivors_html(s: &Survivors) -> Html {
    let shown = s.weights.iter().take(6).map(|(k, row)| {
        let terms: Vec<String> = row
            .iter()
            .map(|(j, w)| format!("{} · w{j}", format_weight(*w)))
            .collect();
        html! { <li>{format!("w{k} ← {}", terms.join(" + "))}</li> }
    });
    let more = s.weights.len().saturating_sub(6);
    let comps = if s.connected() {
        html! { <p id="survivors-connected">{format!("The {} survivors stay connected, so D-PSGD goes on. Their mixing weights, re-derived on the survivors' graph (Metropolis–Hastings, 1/(1 + max(deg k, deg j))):", s.ranks.len())}</p> }
    } else {
        let parts: Vec<String> = s
            .components
            .iter()
            .map(|c| {
                format!(
                    "{{{}}}",
                    c.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect();
        html! { <p class="field-error" id="survivors-split">{format!("The failure splits the graph into {} parts: {}. Each part mixes on its own; no common model forms again.", s.components.len(), parts.join(", "))}</p> }
    };
    html! {<>
        {comps}
        <ul class="weights">{ for shown }</ul>
        if more > 0 { <p class="muted">{format!("… and {more} more rows.")}</p> }
        <p>{format!("The objective loses the failed shard ({} % of the samples): the survivors' sample weights become n_k / (N − n_f). \
             Doubly stochastic mixing on its own targets the equal-worker average 1/{} instead.", decimal::fixed(100.0 * s.lost_share, 1), s.ranks.len())}</p>
    </>}
}

/// `#failure` for the case's report `r` and parameters `p` (a plain
/// function: no state, so no component around it).
pub fn failure_panel(r: &SharedReport, p: &StepParams) -> Html {
    let Some(f) = &r.failure else {
        return html! {
            <section class="panel" id="failure" aria-labelledby="fail-h">
                <h2 class="panel-h" id="fail-h">{"A failure"}</h2>
                <p class="muted">{"Give fail=RANK@STEP (a step number, not a time), ckpt=N and restart=TIME to see what a failed rank costs."}</p>
            </section>
        };
    };
    let a = &f.allreduce;
    let restart = match (a.restart_at, a.caught_up_at, a.time_lost) {
        (Some(rs), Some(cu), Some(lost)) => format!(
            "With a restart of {}, the survivors start again at {} from step {} and are back at step {} at {} ({} a step on {} workers): {} lost in all.",
            p.restart.as_ref().map_or_else(String::new, |x| x.text.clone()),
            format_time(rs), a.saved, f.failure.step, format_time(cu), format_time(f.survivors_step),
            p.p - 1, format_time(lost)),
        _ => "Without restart=TIME the job stays stopped.".into(),
    };
    html! {
        <section class="panel failure" id="failure" aria-labelledby="fail-h">
            <h2 class="panel-h" id="fail-h">{format!("Rank {} fails in step {}", f.failure.rank, f.failure.step)}</h2>
            <p id="failure-allreduce">{format!(
                "All-reduce SGD stops at {}: the step's all-reduce never completes, since it needs every rank. \
                 {} steps were done, {} saved by the last checkpoint{}; {} steps are lost and run again.",
                format_time(a.failed_at), a.completed, a.saved,
                p.ckpt.map_or_else(|| " (no checkpoints: ckpt= not set)".to_string(), |c| format!(" (every {c} steps)")),
                a.lost_steps)}</p>
            <p id="failure-restart">{restart}</p>
            <p class="muted">{"Restarting on p − 1 workers keeps each worker's samples per step, so the global batch shrinks by 1/p."}</p>
            <h3>{"D-PSGD"}</h3>
            { f.gossip.as_ref().map_or_else(|| html! { <p>{"The graph does not fit p ranks."}</p> }, survivors_html) }
        </section>
    }
}
