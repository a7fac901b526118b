//! `#failure` as plain data: `fail=RANK@STEP`. All-reduce SGD stops (and,
//! with `restart=`, starts again from its checkpoint on p − 1 workers);
//! D-PSGD goes on on the survivors when their graph stays connected, with
//! Metropolis–Hastings weights re-derived on it (Xiao and Boyd 2004). The
//! numbers are the core's ([`crate::core::step::failure`]).

use crate::core::step::failure::Survivors;
use crate::core::step::report::Report;
use crate::core::units::{decimal, format_time, format_weight};
use crate::params::step::StepParams;

/// `#failure` without `fail=`: how to ask for one.
pub const FAILURE_HINT: &str =
    "Give fail=RANK@STEP (a step number, not a time), ckpt=N and restart=TIME to see what a failed rank costs.";

/// Under the all-reduce sentences: what a restart does to the batch.
pub const RESTART_NOTE: &str =
    "Restarting on p − 1 workers keeps each worker's samples per step, so the global batch shrinks by 1/p.";

/// D-PSGD's part when the graph does not fit p ranks.
pub const NO_GRAPH: &str = "The graph does not fit p ranks.";

/// How many survivors' weight rows are written out.
pub const WEIGHT_ROWS: usize = 6;

/// `#failure` with `fail=`.
#[derive(Clone, Debug, PartialEq)]
pub struct FailurePanel {
    /// "Rank R fails in step S".
    pub heading: String,
    /// When all-reduce SGD stops and what it loses.
    pub allreduce: String,
    /// The restart, or that there is none.
    pub restart: String,
    /// D-PSGD on the survivors; `None` when the graph does not fit p.
    pub gossip: Option<SurvivorsText>,
}

/// D-PSGD after the failure.
#[derive(Clone, Debug, PartialEq)]
pub struct SurvivorsText {
    /// The survivors stay connected (else the sentence is an error).
    pub connected: bool,
    /// Connected and how they mix, or the parts the graph splits into.
    pub lead: String,
    /// The first [`WEIGHT_ROWS`] rows, "wk ← a · wj + …".
    pub weights: Vec<String>,
    /// "… and n more rows." when there are more.
    pub more: Option<String>,
    /// What the objective loses.
    pub objective: String,
}

fn survivors(s: &Survivors) -> SurvivorsText {
    let weights = s
        .weights
        .iter()
        .take(WEIGHT_ROWS)
        .map(|(k, row)| {
            let terms: Vec<String> = row
                .iter()
                .map(|(j, w)| format!("{} · w{j}", format_weight(*w)))
                .collect();
            format!("w{k} ← {}", terms.join(" + "))
        })
        .collect();
    let more = s.weights.len().saturating_sub(WEIGHT_ROWS);
    let lead = if s.connected() {
        format!(
            "The {} survivors stay connected, so D-PSGD goes on. Their mixing weights, re-derived on the survivors' graph (Metropolis–Hastings, 1/(1 + max(deg k, deg j))):",
            s.ranks.len()
        )
    } else {
        let parts: Vec<String> = s
            .components
            .iter()
            .map(|c| {
                let ranks: Vec<String> = c.iter().map(usize::to_string).collect();
                format!("{{{}}}", ranks.join(", "))
            })
            .collect();
        format!(
            "The failure splits the graph into {} parts: {}. Each part mixes on its own; no common model forms again.",
            s.components.len(),
            parts.join(", ")
        )
    };
    SurvivorsText {
        connected: s.connected(),
        lead,
        weights,
        more: (more > 0).then(|| format!("… and {more} more rows.")),
        objective: format!(
            "The objective loses the failed shard ({} % of the samples): the survivors' sample weights become n_k / (N − n_f). \
             Doubly stochastic mixing on its own targets the equal-worker average 1/{} instead.",
            decimal::fixed(100.0 * s.lost_share, 1),
            s.ranks.len()
        ),
    }
}

/// `#failure` for the report `r` of `p`; `None` without `fail=`.
pub fn failure(r: &Report, p: &StepParams) -> Option<FailurePanel> {
    let f = r.failure.as_ref()?;
    let a = &f.allreduce;
    let restart = match (a.restart_at, a.caught_up_at, a.time_lost) {
        (Some(rs), Some(cu), Some(lost)) => format!(
            "With a restart of {}, the survivors start again at {} from step {} and are back at step {} at {} ({} a step on {} workers): {} lost in all.",
            p.restart.as_ref().map_or_else(String::new, |x| x.text.clone()),
            format_time(rs),
            a.saved,
            f.failure.step,
            format_time(cu),
            format_time(f.survivors_step),
            p.p - 1,
            format_time(lost)
        ),
        _ => "Without restart=TIME the job stays stopped.".into(),
    };
    Some(FailurePanel {
        heading: format!("Rank {} fails in step {}", f.failure.rank, f.failure.step),
        allreduce: format!(
            "All-reduce SGD stops at {}: the step's all-reduce never completes, since it needs every rank. \
             {} steps were done, {} saved by the last checkpoint{}; {} steps are lost and run again.",
            format_time(a.failed_at),
            a.completed,
            a.saved,
            p.ckpt.map_or_else(
                || " (no checkpoints: ckpt= not set)".to_string(),
                |c| format!(" (every {c} steps)")
            ),
            a.lost_steps
        ),
        restart,
        gossip: f.gossip.as_ref().map(survivors),
    })
}
