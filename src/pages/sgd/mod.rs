//! `?view=sgd`: what the SGD page computes besides the core's narration
//! ([`crate::core::sgd::narrate`]): the training run and what it depends
//! on, its work estimate and placeholder text, and the calculator's table
//! and objective (the weighted global loss Σ_k (n_k/N) L_k of the course).

#[cfg(test)]
mod tests;

use nalgebra::DMatrix;

use crate::core::sgd::{objective, Lab, Objective, Problem, Strategy};
use crate::core::work::{sgd_run, SgdShape, Work};
use crate::pages::common::shared::Shared;
use crate::params::sgd::SgdParams;

/// A training run shared by the page and its panels: the problem, the
/// mixing matrix and the three strategies' traces (compared by identity).
pub type SharedLab = Shared<(Problem, DMatrix<f64>, Lab)>;

/// The parameters the training run depends on (not the step, the narrated
/// mode or the calculator's losses).
pub fn run_key(p: &SgdParams) -> SgdParams {
    let mut k = p.clone();
    k.step = 0;
    k.mode = Strategy::AllReduce;
    k.losses.clear();
    k
}

/// The core's estimate of the training run's work (deferred past the
/// first paint when large).
pub fn work(p: &SgdParams) -> Work {
    sgd_run(SgdShape {
        workers: p.shards.len() as u64,
        d: p.d as u64,
        steps: p.steps as u64,
        batch: p.batch as u64,
    })
}

/// What the placeholder says while the run waits for the first paint.
pub fn computing_text(p: &SgdParams) -> String {
    format!(
        "{} training steps × 3 strategies ({} workers, {} samples, d = {})",
        p.steps,
        p.shards.len(),
        p.shards.iter().sum::<u64>(),
        p.d
    )
}

/// The three strategies' training run of `k`: the problem, the mixing
/// matrix and the traces.
///
/// # Errors
/// The training model's message (e.g. a diverging step size).
pub fn run_lab(k: &SgdParams) -> Result<(Problem, DMatrix<f64>, Lab), String> {
    k.lab_setup().run().map_err(|e| e.to_string())
}

/// The calculator's rows as typed: (samples n_k, mean loss L_k), the loss
/// in its shortest decimal form.
pub fn shard_rows(p: &SgdParams) -> Vec<(String, String)> {
    p.shards
        .iter()
        .zip(&p.losses)
        .map(|(n, l)| (n.to_string(), crate::core::units::decimal::shortest(*l)))
        .collect()
}

/// The objective of shards of `shards` samples with mean losses `losses`.
///
/// # Errors
/// The objective's message (no shards, lengths that differ, a bad count).
pub fn objective_of(shards: &[u64], losses: &[f64]) -> Result<Objective, String> {
    let counts: Vec<i64> = shards.iter().map(|&n| n as i64).collect();
    objective(&counts, losses).map_err(|e| e.to_string())
}
