//! The one door from `measure` into the rest of the core: the algorithm
//! models' start-up and byte factors (closed forms of [`crate::core::cost`]),
//! nccl-tests' collectives and busbw factors ([`CollectiveKind`], re-exported
//! here for the measure files), and the crossovers at fitted parameters.
//! Every call into `core::cost` from this module tree goes through here.

use crate::core::collectives::{self, compare, Algorithm};
pub use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{formulas, CostParams};

/// The rank count `p` whose busbw factor equals `ratio`, as a real number
/// (inverse of [`CollectiveKind::busbw_factor`]); `None` for collectives whose
/// factor does not depend on `p` or a ratio outside the factor's range.
pub fn p_from_ratio(c: CollectiveKind, ratio: f64) -> Option<f64> {
    match c {
        // r = 2(p−1)/p → p = 2/(2−r)
        CollectiveKind::AllReduce if ratio < 2.0 => Some(2.0 / (2.0 - ratio)),
        // r = (p−1)/p → p = 1/(1−r)
        CollectiveKind::AllGather | CollectiveKind::ReduceScatter | CollectiveKind::AllToAll
            if ratio < 1.0 =>
        {
            Some(1.0 / (1.0 - ratio))
        }
        _ => None,
    }
}

/// An algorithm model for the fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// Ring (reduce-scatter + all-gather for all-reduce).
    Ring,
    /// Binomial tree.
    Tree,
    /// Recursive doubling.
    RecursiveDoubling,
    /// Rabenseifner (recursive halving + recursive doubling).
    Rabenseifner,
}

impl Model {
    /// Every model, in menu order.
    pub fn all() -> [Model; 4] {
        [
            Model::Ring,
            Model::Tree,
            Model::RecursiveDoubling,
            Model::Rabenseifner,
        ]
    }

    /// The registry entry whose closed form this model is (by static
    /// dispatch: the measure page does not link the registry's vtables).
    pub fn closed_form(self) -> Algorithm {
        match self {
            Model::Ring => Algorithm::RING,
            Model::Tree => Algorithm::TREE,
            Model::RecursiveDoubling => Algorithm::RD,
            Model::Rabenseifner => Algorithm::RAB,
        }
    }

    /// Display name ("recursive doubling").
    pub fn label(self) -> &'static str {
        self.closed_form().short_label()
    }

    /// Short key ("ring", "tree", "rd", "rab").
    pub fn key(self) -> &'static str {
        self.closed_form().key()
    }

    /// Inverse of [`Model::key`].
    pub fn from_short(s: &str) -> Option<Model> {
        Model::all().into_iter().find(|m| m.key() == s.trim())
    }

    /// The multipliers `(startups, byte_factor)` of α and n·β for collective
    /// `c` at `p` ranks: `T(n) = startups·α + byte_factor·n·β`, taken from
    /// the closed forms of [`crate::core::cost`] (Thakur, Rabenseifner &
    /// Gropp 2005). `None` when this model has no closed form for `c`
    /// (e.g. all-to-all) or `p < 2`.
    pub fn factors(self, c: CollectiveKind, p: usize) -> Option<(f64, f64)> {
        if p < 2 {
            return None;
        }
        let one = CostParams::new(1.0, 1.0);
        let f = match (c, self) {
            (CollectiveKind::AllReduce, m) => {
                let [s, b, _] = m.closed_form().flat_factors(p)?;
                return Some((s, b));
            }
            (CollectiveKind::AllGather, Model::Ring) => {
                collectives::ring_all_gather_time(p, 1.0, one)
            }
            (CollectiveKind::AllGather, Model::RecursiveDoubling | Model::Rabenseifner) => {
                formulas::recursive_doubling_all_gather_time(p, 1.0, one)
            }
            (CollectiveKind::ReduceScatter, Model::Ring) => {
                collectives::ring_reduce_scatter_time(p, 1.0, one)
            }
            (CollectiveKind::ReduceScatter, Model::RecursiveDoubling | Model::Rabenseifner) => {
                collectives::recursive_halving_reduce_scatter_time(p, 1.0, one)
            }
            (CollectiveKind::Broadcast, Model::Tree) => {
                formulas::binomial_broadcast_time(p, 1.0, one)
            }
            (CollectiveKind::Reduce, Model::Tree) => formulas::binomial_reduce_time(p, 1.0, one),
            _ => return None,
        };
        Some((f.startups, f.byte_factor))
    }

    /// Predicted time (s) of `n` bytes at `p` ranks with α (s) and β (s/B);
    /// `None` as for [`Model::factors`].
    pub fn time(self, c: CollectiveKind, p: usize, n: f64, alpha: f64, beta: f64) -> Option<f64> {
        self.factors(c, p).map(|(s, b)| s * alpha + b * n * beta)
    }
}

/// A size where the fastest all-reduce model changes at the fitted α, β.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelCrossover {
    /// Faster below.
    pub below: Model,
    /// Faster above.
    pub above: Model,
    /// Break-even size, bytes.
    pub n_bytes: f64,
}

/// The sizes where the fastest all-reduce algorithm changes at `p` ranks with
/// α (s) and β (s/B) ([`compare::envelope_crossovers`], through the
/// static [`Algorithm`] handles of the same entries); a crossover involving
/// the naive root (not a fit model) is left out. Empty for other collectives.
pub fn crossovers(c: CollectiveKind, p: usize, alpha: f64, beta: f64) -> Vec<ModelCrossover> {
    if c != CollectiveKind::AllReduce || p < 2 || !(alpha >= 0.0 && beta > 0.0) {
        return Vec::new();
    }
    let cp = CostParams::new(alpha, beta);
    // The cost lines of the compared all-reduces (Algorithm::compared), as
    // Algorithm::line draws them: (a·α, b·β + g·γ).
    let lines: Vec<compare::Line<Algorithm>> = Algorithm::all()
        .filter(|a| a.is_flat_all_reduce())
        .filter_map(|a| {
            let [s, b, g] = a.flat_factors(p)?;
            Some((a, (s * cp.alpha, b * cp.beta + g * cp.gamma)))
        })
        .collect();
    let to_model = |a: Algorithm| Model::all().into_iter().find(|m| m.closed_form() == a);
    compare::envelope_crossovers_of(&lines)
        .into_iter()
        .filter_map(|x| {
            Some(ModelCrossover {
                below: to_model(x.below)?,
                above: to_model(x.above)?,
                n_bytes: x.n_bytes,
            })
        })
        .collect()
}

/// The deterministic generator of the core (re-exported for the synthetic logs).
pub use crate::core::consensus::SplitMix64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collectives::Algorithm;

    #[test]
    fn crossovers_are_the_cost_views_envelope_among_the_models() {
        // The static path gives the cost view's envelope crossovers
        // (compare::envelope_crossovers over the trait objects), minus those
        // with a compared entry that is not a fit model, at p = 2 … 64.
        let model_of = |a: Algorithm| Model::all().into_iter().find(|m| m.key() == a.key());
        for p in 2..=64 {
            for (alpha, beta) in [(5e-6, 8e-11), (1e-6, 1e-9), (2e-5, 4e-11)] {
                let want: Vec<(Model, Model, f64)> =
                    compare::envelope_crossovers(p, CostParams::new(alpha, beta))
                        .into_iter()
                        .filter_map(|x| Some((model_of(x.below)?, model_of(x.above)?, x.n_bytes)))
                        .collect();
                let got: Vec<(Model, Model, f64)> =
                    crossovers(CollectiveKind::AllReduce, p, alpha, beta)
                        .into_iter()
                        .map(|x| (x.below, x.above, x.n_bytes))
                        .collect();
                assert_eq!(got, want, "p = {p}, α = {alpha}, β = {beta}");
            }
        }
        // p = 16, α = 5 µs, β = 0.08 ns/B: recursive doubling 4α + 4nβ,
        // Rabenseifner 8α + 1.875nβ meet at n = 4α/(2.125β) = 117,647.06 B
        let x = crossovers(CollectiveKind::AllReduce, 16, 5e-6, 8e-11);
        assert!(
            x.iter().any(|x| x.below == Model::RecursiveDoubling
                && x.above == Model::Rabenseifner
                && (x.n_bytes - 117_647.058_823_5).abs() < 1e-3),
            "{x:?}"
        );
        assert!(crossovers(CollectiveKind::AllGather, 16, 5e-6, 8e-11).is_empty());
    }
}
