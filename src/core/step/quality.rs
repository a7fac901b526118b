//! Time to the required quality: the SGD lab's training run
//! ([`crate::core::sgd::run_lab`]) with its steps turned into seconds by
//! this view's step times. The loss is the lab's global sample-weighted
//! loss F(w̄) at the average model.

use crate::core::sgd::{Lab, Strategy};

/// How long each step of one strategy takes on the clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepClock {
    /// Seconds every step takes.
    pub per_step: f64,
    /// `(h, seconds)`: every h-th step takes that much longer (local SGD's
    /// model all-reduce).
    pub every: Option<(usize, f64)>,
}

impl StepClock {
    /// Wall-clock seconds after `t` steps.
    pub fn at(&self, t: usize) -> f64 {
        let extra = self
            .every
            .filter(|(h, _)| *h > 0)
            .map_or(0.0, |(h, s)| (t / h) as f64 * s);
        t as f64 * self.per_step + extra
    }
}

/// One strategy's loss on the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct QualityRow {
    /// The strategy.
    pub strategy: Strategy,
    /// `(seconds, loss)` at every recorded step (step 0 at 0 s).
    pub points: Vec<(f64, f64)>,
    /// First step whose loss is ≤ the target.
    pub steps_to_target: Option<usize>,
    /// Its wall-clock time, seconds.
    pub seconds_to_target: Option<f64>,
}

/// The three strategies' rows, in the lab's order, for `clocks` (indexed
/// by [`Strategy::index`]) and `target` (a loss).
pub fn quality(lab: &Lab, clocks: &[StepClock; 3], target: f64) -> Vec<QualityRow> {
    lab.traces
        .iter()
        .map(|tr| {
            let c = clocks[tr.strategy.index()];
            let points: Vec<(f64, f64)> = tr
                .steps
                .iter()
                .map(|s| (c.at(s.step), s.loss_at_average))
                .collect();
            let hit = tr.steps.iter().find(|s| s.loss_at_average <= target);
            QualityRow {
                strategy: tr.strategy,
                points,
                steps_to_target: hit.map(|s| s.step),
                seconds_to_target: hit.map(|s| c.at(s.step)),
            }
        })
        .collect()
}

/// The strategies that reach the target, fastest first, by steps and by
/// seconds; the orders differ when a strategy needs more steps but less
/// time (or the reverse).
pub fn orders(rows: &[QualityRow]) -> (Vec<Strategy>, Vec<Strategy>) {
    // a selection by hand (three rows; no sort is linked into the page)
    let pick = |key: &dyn Fn(&QualityRow) -> f64| {
        let mut left: Vec<&QualityRow> = rows
            .iter()
            .filter(|r| r.steps_to_target.is_some())
            .collect();
        let mut out = Vec::with_capacity(left.len());
        while !left.is_empty() {
            let mut best = 0;
            for (i, r) in left.iter().enumerate() {
                if key(r) < key(left[best]) {
                    best = i;
                }
            }
            out.push(left.remove(best).strategy);
        }
        out
    };
    (
        pick(&|r| r.steps_to_target.map_or(f64::INFINITY, |s| s as f64)),
        pick(&|r| r.seconds_to_target.unwrap_or(f64::INFINITY)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sgd::train::complete_uniform_mixing;
    use crate::core::sgd::{run_lab, Problem, ProblemConfig, TrainConfig};

    #[test]
    fn clocks_turn_steps_into_seconds() {
        // Case A's local SGD with h = 4: 40 ms a step, 56 ms more every 4th:
        // after 8 steps 8 × 40 + 2 × 56 = 432 ms (54 ms a step on average).
        let c = StepClock {
            per_step: 0.040,
            every: Some((4, 0.056)),
        };
        assert!((c.at(8) - 0.432).abs() < 1e-12);
        assert!((c.at(3) - 0.120).abs() < 1e-12);
    }

    #[test]
    fn more_steps_can_take_less_time() {
        let p = Problem::generate(&ProblemConfig {
            shard_sizes: vec![100, 100, 100, 100],
            d: 2,
            iid: true,
            seed: 3,
            noise: 0.1,
        })
        .expect("valid");
        let cfg = TrainConfig {
            steps: 200,
            batch: 0,
            average_every: 4,
            ..TrainConfig::default()
        };
        let lab = run_lab(&p, &complete_uniform_mixing(4), &cfg).expect("runs");
        let target = lab.optimal_loss * 1.05 + 1e-12;
        // All-reduce at 66 ms a step, D-PSGD at 64 ms, local at 40 ms + 56 ms every 4th.
        let clocks = [
            StepClock {
                per_step: 0.066,
                every: None,
            },
            StepClock {
                per_step: 0.064,
                every: None,
            },
            StepClock {
                per_step: 0.040,
                every: Some((4, 0.056)),
            },
        ];
        let rows = quality(&lab, &clocks, target);
        assert_eq!(rows.len(), 3);
        for r in &rows {
            if let (Some(s), Some(t)) = (r.steps_to_target, r.seconds_to_target) {
                assert!((t - clocks[r.strategy.index()].at(s)).abs() < 1e-12);
                assert!(r.points[s].1 <= target);
                assert!(s == 0 || r.points[s - 1].1 > target);
            }
        }
        // with full batches on IID shards all-reduce SGD reaches 5 % above
        // the optimum
        assert!(rows[0].steps_to_target.is_some());
        let (by_steps, by_secs) = orders(&rows);
        assert_eq!(by_steps.len(), by_secs.len());
    }
}
