//! `?view=gossip`: what the gossip page computes and says: the run to its
//! suggested horizon ([`base_run`]), a longer copy when the round steps
//! past it ([`extended`]), and the narration of one node's update
//! ([`narrate`]; the update x_i ← Σ_j W_ij x_j of
//! [`crate::core::consensus`]).

#[cfg(test)]
mod tests;

use crate::core::consensus::{GossipRun, NodeUpdate};
use crate::core::units::{equation, format_exact_or_approx};
use crate::pages::common::shared::Shared;
use crate::params::gossip::GossipParams;

/// A computed run shared by the page and its panels (compared by identity).
pub type SharedRun = Shared<GossipRun>;

/// The run of `k` to its suggested horizon (the round where the
/// disagreement falls below the target), with the spectrum for the
/// eigenvalue chart.
///
/// # Errors
/// The consensus model's message for a graph or weights it refuses.
pub fn base_run(k: &GossipParams) -> Result<GossipRun, String> {
    let mut r = k.run_fast(0).map_err(|e| e.to_string())?;
    let h = r.suggested_horizon();
    r.extend_to(h);
    Ok(r)
}

/// A copy of `run` extended to round `last`, or `None` when it already
/// holds that round (the run is never changed in place).
pub fn extended(run: &GossipRun, last: usize) -> Option<GossipRun> {
    if run.rounds.len() > last {
        return None;
    }
    let mut longer = run.clone();
    longer.extend_to(last);
    Some(longer)
}

/// The parameters without the round: the key of the cached computation.
pub fn without_round(p: &GossipParams) -> GossipParams {
    GossipParams {
        round: 0,
        ..p.clone()
    }
}

/// The narration of `focus`'s update into `round`.
pub fn narrate(run: &GossipRun, round: usize, focus: usize) -> String {
    let m = &run.matrix;
    let Some(state) = run.rounds.get(round) else {
        return String::new();
    };
    if round == 0 {
        let next = NodeUpdate::new(m, &state.values, focus)
            .map(|u| u.text())
            .unwrap_or_default();
        return format!(
            "Round 0: the initial values. In round 1 every node averages at the same time, reading the round-0 values; node {focus}: {next}."
        );
    }
    let prev = &run.rounds[round - 1].values;
    let u = NodeUpdate::new(m, prev, focus)
        .map(|u| u.text())
        .unwrap_or_default();
    format!(
        "Round {round}: {u}. Every node used the round-{} values at once; the mean is {} and the {}.",
        round - 1,
        format_exact_or_approx(state.mean),
        equation(
            "disagreement ‖x − x̄1‖₂",
            &format_exact_or_approx(state.disagreement)
        )
    )
}
