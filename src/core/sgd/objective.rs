//! The global objective from unequal data shards, and the weighting of one
//! synchronous mini-batch gradient step.
//!
//! Worker k holds shard S_k with n_k samples, N = Σ n_k. The full-data mean
//! loss is
//!
//! ```text
//! F(w) = (1/N) Σ_k Σ_{i∈S_k} ℓ(w; x_i, y_i) = Σ_k (n_k / N) · L_k(w)
//! ```
//!
//! where L_k is worker k's *mean* local loss. Averaging the L_k with equal
//! weights 1/m instead gives a different number whenever the shard sizes
//! differ: each shard then counts as much as any other, so a small shard is
//! over-weighted by the factor N / (m · n_k). (Standard data-parallel
//! identity; it is the course's §1 worked example: 600, 300, 100 samples with
//! mean losses 0.2, 0.5, 0.9 give 0.36, against a plain average of 1.6/3 ≈ 0.533.)

use std::fmt;

/// Why a shard table or a set of local gradients cannot be combined.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectiveError {
    /// No shards at all.
    Empty,
    /// The list of counts and the list of losses (or gradients) differ in length.
    LengthMismatch {
        /// Number of sample counts given.
        counts: usize,
        /// Number of losses (or gradients) given.
        values: usize,
    },
    /// A sample count is negative.
    NegativeCount {
        /// Shard index (0-based).
        shard: usize,
        /// The offending count.
        count: i64,
    },
    /// All counts are zero, so N = 0 and the weights n_k/N are undefined.
    ZeroTotal,
    /// A loss (or a gradient entry) is NaN or infinite.
    NonFinite {
        /// Shard index (0-based).
        shard: usize,
    },
    /// Local gradients have different lengths (parameter dimensions).
    DimensionMismatch {
        /// Shard index (0-based) whose gradient length differs from shard 0's.
        shard: usize,
        /// Length of shard 0's gradient.
        expected: usize,
        /// Length found.
        got: usize,
    },
}

impl fmt::Display for ObjectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObjectiveError::Empty => write!(f, "enter at least one shard"),
            ObjectiveError::LengthMismatch { counts, values } => write!(
                f,
                "every shard needs both a sample count and a value: {counts} counts but {values} values"
            ),
            ObjectiveError::NegativeCount { shard, count } => write!(
                f,
                "shard {} has a negative sample count ({count}); counts must be 0 or more",
                shard + 1
            ),
            ObjectiveError::ZeroTotal => write!(
                f,
                "the shards hold 0 samples in total, so the sample weights n_k/N are undefined"
            ),
            ObjectiveError::NonFinite { shard } => {
                write!(f, "shard {} has a value that is not a finite number", shard + 1)
            }
            ObjectiveError::DimensionMismatch {
                shard,
                expected,
                got,
            } => write!(
                f,
                "shard {}'s gradient has {got} entries but shard 1's has {expected}",
                shard + 1
            ),
        }
    }
}

impl std::error::Error for ObjectiveError {}

/// Checks counts and returns (N, weights n_k/N).
fn sample_weights_checked(counts: &[i64]) -> Result<(u64, Vec<f64>), ObjectiveError> {
    if counts.is_empty() {
        return Err(ObjectiveError::Empty);
    }
    let mut total: u64 = 0;
    for (shard, &count) in counts.iter().enumerate() {
        if count < 0 {
            return Err(ObjectiveError::NegativeCount { shard, count });
        }
        total = total.saturating_add(count.unsigned_abs());
    }
    if total == 0 {
        return Err(ObjectiveError::ZeroTotal);
    }
    let n = total as f64;
    Ok((total, counts.iter().map(|&c| c as f64 / n).collect()))
}

/// The sample weights n_k / N of a shard table (length m, they sum to 1).
///
/// # Errors
/// [`ObjectiveError::Empty`], [`ObjectiveError::NegativeCount`] or
/// [`ObjectiveError::ZeroTotal`].
pub fn sample_weights(counts: &[i64]) -> Result<Vec<f64>, ObjectiveError> {
    sample_weights_checked(counts).map(|(_, w)| w)
}

/// The global objective computed from a shard table.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    /// N = Σ n_k, samples.
    pub total: u64,
    /// n_k / N per shard (length m, sums to 1).
    pub weights: Vec<f64>,
    /// (n_k / N) · L_k per shard: each shard's share of the global loss.
    pub contributions: Vec<f64>,
    /// Σ_k (n_k/N) L_k: the full-data mean loss (same loss units as L_k).
    pub global_mean: f64,
    /// (1/m) Σ_k L_k: the plain (equal-worker) average.
    pub plain_mean: f64,
    /// plain_mean − global_mean.
    pub difference: f64,
    /// (1/m) / (n_k/N) = N / (m n_k) per shard: how many times more weight
    /// the plain average gives shard k than the full-data mean does
    /// (`f64::INFINITY` for an empty shard).
    pub plain_over_sample_weight: Vec<f64>,
}

impl Objective {
    /// Index of the shard whose weight the plain average inflates most (the
    /// smallest shard), or `None` when no shard is over-weighted (equal shards).
    pub fn most_over_weighted(&self) -> Option<usize> {
        self.plain_over_sample_weight
            .iter()
            .enumerate()
            .filter(|(_, r)| **r > 1.0 + 1e-12)
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(k, _)| k)
    }
}

/// Computes the sample-weighted global mean loss Σ (n_k/N) L_k, the plain
/// average (1/m) Σ L_k and their difference.
///
/// `counts[k]` = n_k (samples, may be 0 for an empty shard), `losses[k]` = L_k
/// (mean loss over shard k). Source: the identity F = Σ (n_k/N) L_k (course §1).
///
/// # Errors
/// [`ObjectiveError::LengthMismatch`], [`ObjectiveError::Empty`],
/// [`ObjectiveError::NegativeCount`], [`ObjectiveError::ZeroTotal`],
/// [`ObjectiveError::NonFinite`].
pub fn objective(counts: &[i64], losses: &[f64]) -> Result<Objective, ObjectiveError> {
    if counts.len() != losses.len() {
        return Err(ObjectiveError::LengthMismatch {
            counts: counts.len(),
            values: losses.len(),
        });
    }
    let (total, weights) = sample_weights_checked(counts)?;
    if let Some(shard) = losses.iter().position(|l| !l.is_finite()) {
        return Err(ObjectiveError::NonFinite { shard });
    }
    let m = counts.len() as f64;
    let contributions: Vec<f64> = weights.iter().zip(losses).map(|(w, l)| w * l).collect();
    let global_mean: f64 = contributions.iter().sum();
    let plain_mean: f64 = losses.iter().sum::<f64>() / m;
    let plain_over_sample_weight = weights
        .iter()
        .map(|&w| {
            if w > 0.0 {
                1.0 / (m * w)
            } else {
                f64::INFINITY
            }
        })
        .collect();
    Ok(Objective {
        total,
        weights,
        contributions,
        global_mean,
        plain_mean,
        difference: plain_mean - global_mean,
        plain_over_sample_weight,
    })
}

/// How the local mean gradients of one synchronous mini-batch step combine.
#[derive(Clone, Debug, PartialEq)]
pub struct GradientCombination {
    /// b_k / B per worker, where b_k is the local mini-batch size and B = Σ b_k.
    pub weights: Vec<f64>,
    /// Σ_k (b_k/B) g_k: the mean gradient over all B samples of the step
    /// (length d).
    pub sample_weighted: Vec<f64>,
    /// (1/m) Σ_k g_k: the plain mean of the local mean gradients (length d).
    pub plain_mean: Vec<f64>,
    /// True when every b_k is equal; then the two combinations coincide.
    pub equal_batches: bool,
    /// max_i |sample_weighted_i − plain_mean_i|.
    pub max_difference: f64,
}

/// Combines local *mean* mini-batch gradients g_k (each of length d) for one
/// synchronous step in which worker k used b_k samples.
///
/// The gradient of the mean loss over all B = Σ b_k samples of the step is
/// Σ_k (b_k/B) g_k. With equal b_k this is the plain mean (1/m) Σ g_k, which
/// is why equal local mini-batches can use equal weights, and unequal ones
/// need sample weighting (course §1, "for a particular synchronous mini-batch
/// step"). Whether that estimate targets the full-data objective depends on
/// how the mini-batches were sampled: equal-sized batches drawn uniformly
/// within unequal shards estimate the equal-worker objective instead.
///
/// # Errors
/// As [`objective`], plus [`ObjectiveError::DimensionMismatch`] when the
/// gradients differ in length.
pub fn combine_gradients(
    batch_sizes: &[i64],
    local_mean_gradients: &[Vec<f64>],
) -> Result<GradientCombination, ObjectiveError> {
    if batch_sizes.len() != local_mean_gradients.len() {
        return Err(ObjectiveError::LengthMismatch {
            counts: batch_sizes.len(),
            values: local_mean_gradients.len(),
        });
    }
    let (_, weights) = sample_weights_checked(batch_sizes)?;
    let d = local_mean_gradients.first().map_or(0, Vec::len);
    for (shard, g) in local_mean_gradients.iter().enumerate() {
        if g.len() != d {
            return Err(ObjectiveError::DimensionMismatch {
                shard,
                expected: d,
                got: g.len(),
            });
        }
        if g.iter().any(|x| !x.is_finite()) {
            return Err(ObjectiveError::NonFinite { shard });
        }
    }
    let m = batch_sizes.len() as f64;
    let mut sample_weighted = vec![0.0; d];
    let mut plain_mean = vec![0.0; d];
    for (w, g) in weights.iter().zip(local_mean_gradients) {
        for i in 0..d {
            sample_weighted[i] += w * g[i];
            plain_mean[i] += g[i] / m;
        }
    }
    let max_difference = sample_weighted
        .iter()
        .zip(&plain_mean)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let equal_batches = batch_sizes.windows(2).all(|p| p[0] == p[1]);
    Ok(GradientCombination {
        weights,
        sample_weighted,
        plain_mean,
        equal_batches,
        max_difference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn course_example_gives_036_and_0533() {
        let o = objective(&[600, 300, 100], &[0.2, 0.5, 0.9]).expect("valid table");
        assert_eq!(o.total, 1000);
        assert!(close(o.weights[0], 0.6, 1e-15));
        assert!(close(o.weights[1], 0.3, 1e-15));
        assert!(close(o.weights[2], 0.1, 1e-15));
        // 0.6·0.2 + 0.3·0.5 + 0.1·0.9 = 0.12 + 0.15 + 0.09 = 0.36
        assert!(close(o.global_mean, 0.36, 1e-12), "{}", o.global_mean);
        // (0.2 + 0.5 + 0.9) / 3 = 1.6 / 3
        assert!(close(o.plain_mean, 1.6 / 3.0, 1e-12), "{}", o.plain_mean);
        assert!(close(o.plain_mean, 0.5333, 1e-4));
        assert!(close(o.difference, 1.6 / 3.0 - 0.36, 1e-12));
        // the 100-sample shard: plain weight 1/3 vs sample weight 0.1 → 10/3 times
        assert!(close(o.plain_over_sample_weight[2], 10.0 / 3.0, 1e-12));
        // the 600-sample shard is under-weighted: (1/3)/0.6 = 5/9
        assert!(close(o.plain_over_sample_weight[0], 5.0 / 9.0, 1e-12));
        assert_eq!(o.most_over_weighted(), Some(2));
    }

    #[test]
    fn equal_shards_make_the_two_means_agree() {
        let o = objective(&[50, 50, 50, 50], &[1.0, 2.0, 3.0, 6.0]).expect("valid");
        assert!(close(o.global_mean, 3.0, 1e-12));
        assert!(close(o.difference, 0.0, 1e-12));
        assert_eq!(o.most_over_weighted(), None);
    }

    #[test]
    fn empty_shard_gets_zero_weight() {
        let o = objective(&[0, 4], &[100.0, 1.0]).expect("valid: N = 4");
        assert!(close(o.global_mean, 1.0, 1e-15));
        assert!(close(o.plain_mean, 50.5, 1e-12));
        assert!(o.plain_over_sample_weight[0].is_infinite());
        assert_eq!(o.most_over_weighted(), Some(0));
    }

    #[test]
    fn bad_tables_give_typed_errors() {
        assert_eq!(
            objective(&[600, 300], &[0.2, 0.5, 0.9]),
            Err(ObjectiveError::LengthMismatch {
                counts: 2,
                values: 3
            })
        );
        assert_eq!(
            objective(&[600, -3, 100], &[0.2, 0.5, 0.9]),
            Err(ObjectiveError::NegativeCount {
                shard: 1,
                count: -3
            })
        );
        assert_eq!(
            objective(&[0, 0], &[0.2, 0.5]),
            Err(ObjectiveError::ZeroTotal)
        );
        assert_eq!(objective(&[], &[]), Err(ObjectiveError::Empty));
        assert_eq!(
            objective(&[1, 2], &[0.2, f64::NAN]),
            Err(ObjectiveError::NonFinite { shard: 1 })
        );
        assert_eq!(
            objective(&[1, 2], &[f64::INFINITY, 0.1]),
            Err(ObjectiveError::NonFinite { shard: 0 })
        );
        let msg = ObjectiveError::ZeroTotal.to_string();
        assert!(msg.contains("0 samples"), "{msg}");
        let msg = ObjectiveError::NegativeCount {
            shard: 1,
            count: -3,
        }
        .to_string();
        assert!(msg.contains("shard 2") && msg.contains("-3"), "{msg}");
    }

    #[test]
    fn equal_minibatches_use_equal_weights() {
        let c = combine_gradients(
            &[32, 32, 32],
            &[vec![1.0, -3.0], vec![2.0, 0.0], vec![6.0, 0.0]],
        )
        .expect("valid");
        assert!(c.equal_batches);
        assert!(close(c.sample_weighted[0], 3.0, 1e-12));
        assert!(close(c.sample_weighted[1], -1.0, 1e-12));
        assert!(close(c.plain_mean[0], 3.0, 1e-12));
        assert!(c.max_difference < 1e-12);
    }

    #[test]
    fn unequal_minibatches_need_sample_weights() {
        // batches 60, 30, 10 with scalar mean gradients 0.2, 0.5, 0.9:
        // sample-weighted 0.36, plain 0.5333…
        let c =
            combine_gradients(&[60, 30, 10], &[vec![0.2], vec![0.5], vec![0.9]]).expect("valid");
        assert!(!c.equal_batches);
        assert!(close(c.sample_weighted[0], 0.36, 1e-12));
        assert!(close(c.plain_mean[0], 1.6 / 3.0, 1e-12));
        assert!(close(c.max_difference, 1.6 / 3.0 - 0.36, 1e-12));
    }

    #[test]
    fn bad_gradients_give_typed_errors() {
        assert_eq!(
            combine_gradients(&[1, 1], &[vec![1.0, 2.0], vec![1.0]]),
            Err(ObjectiveError::DimensionMismatch {
                shard: 1,
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            combine_gradients(&[1], &[vec![1.0], vec![1.0]]),
            Err(ObjectiveError::LengthMismatch {
                counts: 1,
                values: 2
            })
        );
        assert_eq!(
            combine_gradients(&[0, 0], &[vec![1.0], vec![1.0]]),
            Err(ObjectiveError::ZeroTotal)
        );
        assert_eq!(
            combine_gradients(&[1, 1], &[vec![1.0], vec![f64::NAN]]),
            Err(ObjectiveError::NonFinite { shard: 1 })
        );
    }
}
