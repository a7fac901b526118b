//! Menus that several views offer: the graphs and the gossip weight rules
//! (the gossip and SGD views).

use yew::AttrValue;

use crate::core::consensus::WeightRule;
use crate::params::gossip::GraphChoice;

/// The weight rules offered in the menus of the gossip and SGD views:
/// (rule, label).
pub const RULES: [(WeightRule, &str); 5] = [
    (WeightRule::Uniform, "uniform 1/(deg+1)"),
    (WeightRule::Metropolis, "Metropolis–Hastings"),
    (WeightRule::Lazy, "lazy Metropolis–Hastings"),
    (WeightRule::MaxDegree, "max-degree"),
    (WeightRule::Exponential, "exponential-graph weights"),
];

/// The graph menu's options: `(key, label)` of every graph.
pub fn graph_options() -> Vec<(AttrValue, AttrValue)> {
    GraphChoice::ALL
        .iter()
        .map(|g| (g.key().into(), g.label().into()))
        .collect()
}

/// The weight-rule menu's options: `(name, label)` of every rule in [`RULES`].
pub fn rule_options() -> Vec<(AttrValue, AttrValue)> {
    RULES
        .iter()
        .map(|(w, label)| (w.key().into(), (*label).into()))
        .collect()
}
