//! Plain-language narration of the SGD lab, built only from numbers the core
//! computed (so the view formats nothing itself and the text is tested).

use super::objective::Objective;
use super::train::{Lab, StepRecord};
use super::Strategy;
use crate::core::units::{format_bytes_short, format_vector_brief, sig_trimmed};

/// One line on why the plain mean over-weights the smallest shard, e.g. for
/// the course's table: "Shard 3 holds 10% of the samples but gets 1/3 of the
/// weight in the plain average (3.33× its share), so its loss 0.9 counts
/// 3.33 times too much."
pub fn over_weighting_line(o: &Objective, losses: &[f64]) -> String {
    let m = o.weights.len();
    match o.most_over_weighted() {
        None => format!(
            "All {m} shards hold the same number of samples, so the plain average equals the \
             sample-weighted mean."
        ),
        Some(k) => {
            let share = o.weights[k];
            let loss = losses.get(k).copied().unwrap_or(f64::NAN);
            let factor = o.plain_over_sample_weight[k];
            if share == 0.0 {
                format!(
                    "Shard {} holds no samples, yet the plain average still gives its loss {} a weight \
                     of 1/{m}: it should count for nothing.",
                    k + 1,
                    sig_trimmed(loss, 4)
                )
            } else {
                format!(
                    "Shard {} holds {}% of the samples but the plain average gives it 1/{m} = {}% of \
                     the weight ({}× its share), so its loss {} counts {}× too much.",
                    k + 1,
                    sig_trimmed(100.0 * share, 3),
                    sig_trimmed(100.0 / m as f64, 3),
                    sig_trimmed(factor, 3),
                    sig_trimmed(loss, 4),
                    sig_trimmed(factor, 3)
                )
            }
        }
    }
}

fn rec(lab: &Lab, s: Strategy, step: usize) -> Option<&StepRecord> {
    let t = lab.trace(s)?;
    t.steps.get(step.min(t.steps.len().saturating_sub(1)))
}

/// What happened in `step` under strategy `s`, with that step's numbers.
/// `lr_label` describes η (e.g. "η = 0.1"), `batch_label` the mini-batch
/// (e.g. "16 samples").
pub fn narrate_step(lab: &Lab, s: Strategy, step: usize, batch_label: &str) -> String {
    let Some(r) = rec(lab, s, step) else {
        return "No steps recorded.".to_string();
    };
    let m = r.models.len();
    let t = r.step;
    let excess = r.loss_at_average - lab.optimal_loss;
    let per_step = lab
        .trace(s)
        .map(|tr| tr.bytes_per_step.iter().copied().fold(0.0, f64::max))
        .unwrap_or(0.0);
    if t == 0 {
        return format!(
            "Step 0: all {m} workers hold the same initial model w⁰ = {}. Global loss F(w⁰) = {} \
             (the optimum is F★ = {}). Step forward to run one training step.",
            format_vector_brief(&r.average),
            sig_trimmed(r.loss_at_average, 4),
            sig_trimmed(lab.optimal_loss, 4)
        );
    }
    let diverged = lab.trace(s).and_then(|tr| tr.diverged_at);
    let tail = diverged
        .map(|d| format!(" The run diverged at step {d}: lower the learning rate."))
        .unwrap_or_default();
    match s {
        Strategy::AllReduce => format!(
            "Step {t}: each worker took the mean gradient of its {batch_label} at the shared model, \
             scaled it by n_k/N, and a ring all-reduce left the same sum on all {m} workers \
             ({} sent by the busiest worker this step). Every worker applied the same update with η = {}, so \
             the {m} models are {} (consensus distance {}). F(w̄) − F★ = {}; w̄ is {} from the \
             sample-weighted optimum.{tail}",
            format_bytes_short(per_step),
            sig_trimmed(r.lr, 3),
            if r.models_identical { "bit-identical" } else { "NOT identical" },
            sig_trimmed(r.consensus_distance, 3),
            sig_trimmed(excess, 3),
            sig_trimmed(r.dist_to_sample_optimum, 3),
        ),
        Strategy::Gossip => format!(
            "Step {t}: each worker took the gradient of its {batch_label} at its own model, averaged \
             its model with its neighbours' through the mixing matrix ({} sent by the busiest \
             worker), then subtracted η = {} times that gradient. The {m} models differ: consensus \
             distance {}. The average w̄ is {} from the equal-worker optimum and {} from the \
             sample-weighted one; F(w̄) − F★ = {}.{tail}",
            format_bytes_short(per_step),
            sig_trimmed(r.lr, 3),
            sig_trimmed(r.consensus_distance, 3),
            sig_trimmed(r.dist_to_equal_optimum, 3),
            sig_trimmed(r.dist_to_sample_optimum, 3),
            sig_trimmed(excess, 3),
        ),
        // periodic averaging (h=) sends bytes; a step that ended with the
        // average leaves one model everywhere
        Strategy::Local if per_step > 0.0 => format!(
            "Step {t}: each worker stepped on its own {batch_label} with η = {}{}: consensus \
             distance {}. Their average w̄ has F(w̄) − F★ = {}.{tail}",
            sig_trimmed(r.lr, 3),
            if r.models_identical {
                ", then the workers averaged their models (sample-weighted, by a ring all-reduce), so they agree again"
            } else {
                " and sent nothing this step; the models drift apart until the next average"
            },
            sig_trimmed(r.consensus_distance, 3),
            sig_trimmed(excess, 3),
        ),
        Strategy::Local => format!(
            "Step {t}: each worker stepped on its own {batch_label} with η = {} and sent nothing. \
             Each model heads for its own shard's optimum, so they drift apart: consensus distance \
             {}. Their average w̄ has F(w̄) − F★ = {}.{tail}",
            sig_trimmed(r.lr, 3),
            sig_trimmed(r.consensus_distance, 3),
            sig_trimmed(excess, 3),
        ),
    }
}

/// One comparison line across the three strategies at `step`: which average
/// model is nearest which optimum, and who communicated how much.
pub fn compare_step(lab: &Lab, step: usize) -> String {
    let (Some(a), Some(g), Some(l)) = (
        rec(lab, Strategy::AllReduce, step),
        rec(lab, Strategy::Gossip, step),
        rec(lab, Strategy::Local, step),
    ) else {
        return String::new();
    };
    format!(
        "At step {}: all-reduce SGD is {} from the sample-weighted optimum (F − F★ = {}, {} sent per \
         worker in total); D-PSGD's average is {} from the equal-worker optimum (F − F★ = {}, {} \
         sent by the busiest worker; consensus distance {}); local SGD's average has F − F★ = {} \
         with nothing sent (consensus distance {}).",
        a.step,
        sig_trimmed(a.dist_to_sample_optimum, 3),
        sig_trimmed(a.loss_at_average - lab.optimal_loss, 3),
        format_bytes_short(a.max_bytes_sent()),
        sig_trimmed(g.dist_to_equal_optimum, 3),
        sig_trimmed(g.loss_at_average - lab.optimal_loss, 3),
        format_bytes_short(g.max_bytes_sent()),
        sig_trimmed(g.consensus_distance, 3),
        sig_trimmed(l.loss_at_average - lab.optimal_loss, 3),
        sig_trimmed(l.consensus_distance, 3),
    )
}

/// The objective-trap summary: how far apart the two optima are and what the
/// equal-worker optimum costs in global loss.
pub fn trap_line(lab: &Lab) -> String {
    let gap: f64 = lab
        .sample_weighted_optimum
        .iter()
        .zip(&lab.equal_worker_optimum)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt();
    let mixing = if lab.doubly_stochastic {
        "This mixing matrix is doubly stochastic, so D-PSGD's average follows (1/m) Σ ∇L_k and \
         settles near the equal-worker optimum."
            .to_string()
    } else {
        match &lab.mixing_stationary {
            Some(pi) => format!(
                "This mixing matrix is not doubly stochastic: D-PSGD weights worker k by its \
                 stationary weight π_k (here {}) and settles near argmin Σ π_k L_k instead.",
                format_vector_brief(pi)
            ),
            None => "This mixing matrix has no unique stationary distribution.".to_string(),
        }
    };
    format!(
        "The two optima are {} apart. The equal-worker optimum's global loss is {} above F★ = {}. {mixing}",
        sig_trimmed(gap, 3),
        sig_trimmed(lab.equal_worker_loss - lab.optimal_loss, 3),
        sig_trimmed(lab.optimal_loss, 4),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sgd::train::complete_uniform_mixing;
    use crate::core::sgd::{objective, run_lab, Problem, ProblemConfig, TrainConfig};

    #[test]
    fn numbers_stay_short() {
        assert_eq!(sig_trimmed(0.36, 4), "0.36");
        assert_eq!(sig_trimmed(1.6 / 3.0, 4), "0.5333");
        assert_eq!(sig_trimmed(10.0 / 3.0, 3), "3.33");
        assert_eq!(sig_trimmed(0.0, 3), "0");
        assert_eq!(sig_trimmed(2.71e-5, 3), "2.71e-5");
        assert_eq!(sig_trimmed(9.98e299, 3), "9.98e299");
        assert_eq!(sig_trimmed(-1.5e7, 3), "-1.5e7");
        assert_eq!(sig_trimmed(123456.0, 3), "123000");
        assert_eq!(sig_trimmed(f64::INFINITY, 3), "∞");
    }

    #[test]
    fn course_over_weighting_line() {
        let losses = [0.2, 0.5, 0.9];
        let o = objective(&[600, 300, 100], &losses).expect("valid");
        let s = over_weighting_line(&o, &losses);
        assert!(s.starts_with("Shard 3 holds 10% of the samples"), "{s}");
        assert!(s.contains("1/3 = 33.3%"), "{s}");
        assert!(s.contains("3.33×"), "{s}");
        let eq = objective(&[5, 5], &[1.0, 2.0]).expect("valid");
        assert!(over_weighting_line(&eq, &[1.0, 2.0]).contains("same number of samples"));
        let empty = objective(&[0, 5], &[1.0, 2.0]).expect("valid");
        assert!(over_weighting_line(&empty, &[1.0, 2.0]).contains("no samples"));
    }

    #[test]
    fn step_narration_uses_the_records() {
        let p = Problem::generate(&ProblemConfig::default()).expect("valid");
        let lab = run_lab(
            &p,
            &complete_uniform_mixing(3),
            &TrainConfig {
                steps: 20,
                ..TrainConfig::default()
            },
        )
        .expect("valid");
        let s0 = narrate_step(&lab, Strategy::AllReduce, 0, "16 samples");
        assert!(s0.starts_with("Step 0: all 3 workers"), "{s0}");
        let s = narrate_step(&lab, Strategy::AllReduce, 5, "16 samples");
        assert!(
            s.contains("bit-identical") && s.contains("consensus distance 0"),
            "{s}"
        );
        // ring all-reduce, p = 3, d = 2 f32 values: chunks of 1, 1, 0 elements;
        // ranks 0 and 1 send 3 elements = 12 B, rank 2 sends 8 B.
        assert!(s.contains("12 B sent by the busiest worker"), "{s}");
        let g = narrate_step(&lab, Strategy::Gossip, 5, "16 samples");
        assert!(
            g.contains("The 3 models differ") && g.contains("16 B sent"),
            "{g}"
        );
        let l = narrate_step(&lab, Strategy::Local, 999, "16 samples");
        assert!(l.starts_with("Step 20:"), "{l}");
        assert!(compare_step(&lab, 20).starts_with("At step 20:"));
        let t = trap_line(&lab);
        assert!(t.contains("doubly stochastic"), "{t}");
    }
}
