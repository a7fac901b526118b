//! The sgd view's tables: sample weights, the charts' series, the strategies and the optima.

use crate::core::sgd::{Lab, Objective};
use crate::export::{Cell, DataTable};

/// The calculator's bars ([`crate::plot::sgd::draw_sample_weights`]): shard,
/// sample weight n_k/N and the plain weight 1/m.
pub fn sgd_sample_weights(o: &Objective) -> DataTable {
    let mut t = DataTable::new("Sample weights", &["shard", "n_k/N", "1/m"]);
    let m = o.weights.len().max(1) as f64;
    for (k, &w) in o.weights.iter().enumerate() {
        t.rows.push(vec![
            Cell::Num((k + 1) as f64),
            Cell::Num(w),
            Cell::Num(1.0 / m),
        ]);
    }
    t
}

/// Which training chart of the sgd view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgdChart {
    /// F(w̄_t) − F★ per step ([`crate::plot::sgd::draw_loss`]).
    Loss,
    /// Consensus distance per step ([`crate::plot::sgd::draw_consensus`]).
    Consensus,
    /// F(w̄_t) − F★ against the busiest worker's bytes ([`crate::plot::sgd::draw_loss_vs_bytes`]).
    LossVsBytes,
    /// The average model's path (d = 2, [`crate::plot::sgd::draw_trajectories`]).
    Trajectory,
}

/// The plotted values of one training chart, every strategy, steps 0 ..= `upto`.
pub fn sgd_chart(lab: &Lab, which: SgdChart, upto: usize) -> DataTable {
    let opt = lab.optimal_loss;
    let mut t = match which {
        SgdChart::Loss => DataTable::new(
            "Global loss above the optimum",
            &["strategy", "step", "F(w̄) − F★"],
        ),
        SgdChart::Consensus => DataTable::new(
            "Consensus distance",
            &["strategy", "step", "(1/m) Σ‖w_k − w̄‖²"],
        ),
        SgdChart::LossVsBytes => DataTable::new(
            "Global loss against bytes sent",
            &[
                "strategy",
                "bytes sent by the busiest worker (B)",
                "F(w̄) − F★",
            ],
        ),
        SgdChart::Trajectory => DataTable::new(
            "Average-model trajectory",
            &["strategy", "step", "w̄[0]", "w̄[1]"],
        ),
    };
    for tr in &lab.traces {
        let name = Cell::Text(tr.strategy.label().to_string());
        for s in tr.steps.iter().take(upto.saturating_add(1)) {
            let row = match which {
                SgdChart::Loss => vec![
                    name.clone(),
                    Cell::Num(s.step as f64),
                    Cell::Num(s.loss_at_average - opt),
                ],
                SgdChart::Consensus => vec![
                    name.clone(),
                    Cell::Num(s.step as f64),
                    Cell::Num(s.consensus_distance),
                ],
                SgdChart::LossVsBytes => {
                    vec![
                        name.clone(),
                        Cell::Num(s.max_bytes_sent()),
                        Cell::Num(s.loss_at_average - opt),
                    ]
                }
                SgdChart::Trajectory => vec![
                    name.clone(),
                    Cell::Num(s.step as f64),
                    Cell::Num(s.average.first().copied().unwrap_or(f64::NAN)),
                    Cell::Num(s.average.get(1).copied().unwrap_or(f64::NAN)),
                ],
            };
            t.rows.push(row);
        }
    }
    t
}

/// The sgd view's "At step t" table: per strategy, F(w̄), F(w̄) − F★, the
/// consensus distance, the distances to both optima and the busiest worker's
/// bytes, at step `step` (the last recorded step of a shorter trace).
pub fn sgd_strategies(lab: &Lab, step: usize) -> DataTable {
    let mut t = DataTable::new(
        "Strategies at the current step",
        &[
            "strategy",
            "step",
            "F(w̄)",
            "F(w̄) − F★",
            "consensus distance",
            "‖w̄ − w★ sample‖",
            "‖w̄ − w★ equal‖",
            "bytes sent by the busiest worker (B)",
        ],
    );
    for tr in &lab.traces {
        let Some(s) = tr.steps.get(step.min(tr.steps.len().saturating_sub(1))) else {
            continue;
        };
        t.rows.push(vec![
            Cell::Text(tr.strategy.label().to_string()),
            Cell::Num(s.step as f64),
            Cell::Num(s.loss_at_average),
            Cell::Num(s.loss_at_average - lab.optimal_loss),
            Cell::Num(s.consensus_distance),
            Cell::Num(s.dist_to_sample_optimum),
            Cell::Num(s.dist_to_equal_optimum),
            Cell::Num(s.max_bytes_sent()),
        ]);
    }
    t
}

/// The sgd view's "Two objectives, two optima" table: per objective, the
/// closed-form optimum w★ (one column per component) and its global loss.
pub fn sgd_optima(lab: &Lab) -> DataTable {
    let d = lab.sample_weighted_optimum.len();
    let mut head: Vec<String> = vec!["objective".into()];
    head.extend((1..=d).map(|i| format!("w★{i}")));
    head.push("global loss F at w★".into());
    let cols: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = DataTable::new("Two objectives, two optima", &cols);
    let mut push = |name: &str, w: &[f64], loss: Option<f64>| {
        let mut row = vec![Cell::Text(name.into())];
        row.extend(w.iter().map(|&v| Cell::Num(v)));
        row.push(loss.map_or(Cell::Text(String::new()), Cell::Num));
        t.rows.push(row);
    };
    push(
        "sample-weighted Σ (n_k/N) L_k",
        &lab.sample_weighted_optimum,
        Some(lab.optimal_loss),
    );
    push(
        "equal-worker (1/m) Σ L_k",
        &lab.equal_worker_optimum,
        Some(lab.equal_worker_loss),
    );
    if !lab.doubly_stochastic {
        if let Some(w) = &lab.mixing_weighted_optimum {
            push("this mixing matrix's weights Σ π_k L_k", w, None);
        }
    }
    t
}
