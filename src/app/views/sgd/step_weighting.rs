//! Gradient weighting for one synchronous mini-batch step, with the table's
//! L_k column read as scalar local mean gradients g_k: equal mini-batches
//! against whole shards (weights from the core's `combine_gradients`).

use yew::prelude::*;

use crate::core::sgd::combine_gradients;
use crate::core::units::{equation, format_exact_or_approx};

/// Props of [`step_weighting`].
#[derive(PartialEq)]
pub struct StepWeightingProps {
    /// The table's L_k, read as gradients g_k.
    pub losses: Vec<f64>,
    /// The table's sample counts n_k.
    pub shards: Vec<u64>,
    /// The training mini-batch per worker (0 = whole shard).
    pub batch: usize,
}

/// The step-weighting lines.
pub fn step_weighting(props: &StepWeightingProps) -> Html {
    let (losses, shards, batch) = (&props.losses, &props.shards, props.batch);
    let m = losses.len();
    // One synchronous mini-batch step, with the L_k column read as scalar
    // local mean gradients g_k.
    let grads: Vec<Vec<f64>> = losses.iter().map(|g| vec![*g]).collect();
    // Equal local mini-batches of the training batch size (16 by default;
    // 32 when training uses whole shards).
    let b = if batch == 0 { 32 } else { batch };
    let equal: Vec<i64> = vec![b as i64; losses.len()];
    let unequal: Vec<i64> = shards.iter().map(|&n| n as i64).collect();
    let eq = combine_gradients(&equal, &grads).ok();
    let uneq = combine_gradients(&unequal, &grads).ok();
    match (eq, uneq) {
        (Some(eq), Some(uneq)) => html! {
            <>
                <h3 class="sub-h">{"Gradient weighting for one synchronous mini-batch step"}</h3>
                <p class="muted">{"Read the L_k column as each worker's local mean gradient g_k (one parameter)."}</p>
                <ul>
                    <li id="grad-equal">{format!(
                        "Equal local mini-batches ({b} samples each): the step's mean gradient weights every worker 1/{m}: {}.",
                        equation(&format!("Σ g_k / {m}"), &format_exact_or_approx(eq.sample_weighted[0])))}</li>
                    <li id="grad-unequal">{format!(
                        "Unequal mini-batches (b_k = n_k, the whole shards): weights b_k/B = n_k/N give {}; the plain mean would give {}.",
                        format_exact_or_approx(uneq.sample_weighted[0]), format_exact_or_approx(uneq.plain_mean[0]))}</li>
                </ul>
                <p class="muted">{"Equal batches drawn from unequal shards are weighted equally within the step, but they estimate the equal-worker objective. The all-reduce run below weights each worker by n_k/N so that it targets the full-data objective."}</p>
            </>
        },
        _ => html! {},
    }
}
