//! The plotted values of every chart as a [`DataTable`], taken from the same
//! core results (and, for the cost charts, the same core sweeps over the same
//! axes) the charts in [`crate::plot`] are drawn from. No formula is
//! evaluated here that the chart does not evaluate.

use super::{Cell, DataTable};
use crate::core::collectives::compare::{best_at, log_sizes, sweep_ranks, sweep_sizes};
use crate::core::collectives::Algorithm;
use crate::core::consensus::{RoundState, Spectrum};
use crate::core::cost::formulas::Formula;
use crate::core::cost::CostParams;
use crate::core::sgd::{Lab, Objective};
use crate::plot::cost::{rank_axis, MAX_P, MAX_SIZE, MIN_SIZE};

/// Most nodes given their own column in the gossip round history; larger
/// graphs get one text column with the first ones.
pub const MAX_NODE_COLUMNS: usize = 16;

/// A long-format table of labelled `(x, y)` series: one row
/// `series, x, y` per point, in series order (charts of the topology and
/// measure views: [`crate::plot::topology::Line`], [`crate::plot::measure::Points`]).
pub fn xy_series(
    caption: &str,
    x: &str,
    y: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> DataTable {
    let mut t = DataTable::new(caption, &["series", x, y]);
    for (label, pts) in series {
        for &(a, b) in pts {
            t.rows
                .push(vec![Cell::Text(label.clone()), Cell::Num(a), Cell::Num(b)]);
        }
    }
    t
}

/// The gossip round history up to `rounds.last()`: round r, the node
/// values x_r (one column per node up to [`MAX_NODE_COLUMNS`] nodes), the
/// mean, the disagreement ‖x_r − x̄1‖₂ and ρ^r‖x₀ − x̄1‖₂ (empty when no ρ),
/// headed "ρ^r bound" when `bound_guaranteed` (W doubly stochastic and
/// normal, [`crate::core::consensus::Spectrum::bound_guaranteed`]) and
/// "ρ^r rate (not a bound)" otherwise.
/// Drawn by [`crate::plot::gossip::draw_disagreement`] (disagreement and bound).
pub fn gossip_rounds(rounds: &[RoundState], bound_guaranteed: bool) -> DataTable {
    let p = rounds.first().map_or(0, |r| r.values.len());
    let per_node = p <= MAX_NODE_COLUMNS;
    let mut cols: Vec<String> = vec!["round".into()];
    if per_node {
        cols.extend((0..p).map(|i| format!("x{i}")));
    } else {
        cols.push(format!("x (first {MAX_NODE_COLUMNS} of {p} nodes)"));
    }
    let rate = if bound_guaranteed {
        "ρ^r bound"
    } else {
        "ρ^r rate (not a bound)"
    };
    cols.extend(["mean".into(), "disagreement".into(), rate.into()]);
    let mut t = DataTable {
        caption: "Round history".into(),
        columns: cols,
        rows: Vec::with_capacity(rounds.len()),
    };
    for s in rounds {
        let mut row = vec![Cell::Num(s.r as f64)];
        if per_node {
            row.extend(s.values.iter().map(|v| Cell::Num(*v)));
        } else {
            let shown: Vec<String> = s
                .values
                .iter()
                .take(MAX_NODE_COLUMNS)
                .map(|v| Cell::Num(*v).shown())
                .collect();
            row.push(Cell::Text(format!("{}, …", shown.join(", "))));
        }
        row.push(Cell::Num(s.mean));
        row.push(Cell::Num(s.disagreement));
        row.push(Cell::Num(s.bound.unwrap_or(f64::NAN)));
        t.rows.push(row);
    }
    t
}

/// The eigenvalues of W ([`crate::plot::gossip::draw_eigenvalues`]): index,
/// real and imaginary part.
pub fn gossip_eigenvalues(spectrum: &Spectrum) -> DataTable {
    let mut t = DataTable::new("Eigenvalues of W", &["k", "Re λ", "Im λ"]);
    for (k, e) in spectrum.eigenvalues.iter().enumerate() {
        t.rows
            .push(vec![Cell::Num(k as f64), Cell::Num(e.re), Cell::Num(e.im)]);
    }
    t
}

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

/// Columns `x` then one time column (s) per compared algorithm.
fn per_algorithm(caption: &str, x: &str, xs: &[f64], times: &[Vec<f64>]) -> DataTable {
    let mut cols = vec![x.to_string()];
    cols.extend(
        Algorithm::compared()
            .iter()
            .map(|a| format!("{} (s)", a.short_label())),
    );
    let mut t = DataTable {
        caption: caption.into(),
        columns: cols,
        rows: Vec::with_capacity(xs.len()),
    };
    for (x, row) in xs.iter().zip(times) {
        let mut r = vec![Cell::Num(*x)];
        r.extend(row.iter().map(|v| Cell::Num(*v)));
        t.rows.push(r);
    }
    t
}

/// All-reduce time of every algorithm against message size at `p` ranks:
/// the 240 sizes of [`crate::plot::cost::draw_time_vs_size`].
pub fn cost_time_vs_size(p: usize, c: CostParams, n_chosen: f64) -> DataTable {
    let sizes = log_sizes(MIN_SIZE, MAX_SIZE.max(4.0 * n_chosen), 240);
    let times = sweep_sizes(p, &sizes, c);
    per_algorithm(
        "All-reduce time against message size",
        "message size (B)",
        &sizes,
        &times,
    )
}

/// All-reduce time of every algorithm against p at `n_bytes`: the rank axis of
/// [`crate::plot::cost::draw_time_vs_p`].
pub fn cost_time_vs_p(n_bytes: f64, c: CostParams, p_chosen: usize) -> DataTable {
    let ps = rank_axis(MAX_P.max(p_chosen), 400);
    let times = sweep_ranks(&ps, n_bytes, c);
    let xs: Vec<f64> = ps.iter().map(|&p| p as f64).collect();
    per_algorithm("All-reduce time against ranks", "ranks p", &xs, &times)
}

/// The fastest algorithm on the grid of [`crate::plot::cost::draw_winner_map`]
/// (160 sizes × the rank axis).
pub fn cost_winner_map(c: CostParams, n_chosen: f64, p_chosen: usize) -> DataTable {
    let sizes = log_sizes(MIN_SIZE, MAX_SIZE.max(4.0 * n_chosen), 160);
    let ps = rank_axis(MAX_P.max(p_chosen), 90);
    let mut t = DataTable::new(
        "Fastest all-reduce",
        &["ranks p", "message size (B)", "fastest"],
    );
    for &p in &ps {
        for &n in &sizes {
            t.rows.push(vec![
                Cell::Num(p as f64),
                Cell::Num(n),
                Cell::Text(best_at(p, n, c).short_label().to_string()),
            ]);
        }
    }
    t
}

/// The cost view's table: every algorithm's closed form at the chosen n and
/// p, with its start-ups and the α, β and γ parts of the time (seconds).
pub fn cost_formulas(rows: &[(Algorithm, Formula)]) -> DataTable {
    let mut t = DataTable::new(
        "All-reduce time by algorithm",
        &[
            "algorithm",
            "formula",
            "start-ups",
            "α part (s)",
            "β part (s)",
            "γ part (s)",
            "time T (s)",
        ],
    );
    for (a, f) in rows {
        t.rows.push(vec![
            Cell::Text(a.short_label().to_string()),
            Cell::Text(f.expression.clone()),
            Cell::Num(f.startups),
            Cell::Num(f.alpha_part),
            Cell::Num(f.beta_part),
            Cell::Num(f.gamma_part),
            Cell::Num(f.time),
        ]);
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

/// The bytes-per-rank counters of the ring and collectives views
/// (`app::components::byte_counters`): one row per rank (all ranks, not only
/// the ones listed on the page) with the `before` columns, bytes sent and
/// received so far, then the `after` columns; every count in bytes. Missing
/// counts are 0, as the panel shows them.
pub fn byte_counters(
    sent: &[u64],
    recv: &[u64],
    before: &[(String, Vec<u64>)],
    after: &[(String, Vec<u64>)],
) -> DataTable {
    let mut cols: Vec<String> = vec!["rank".into()];
    cols.extend(before.iter().map(|(h, _)| format!("{h} (B)")));
    cols.extend(["sent (B)".into(), "received (B)".into()]);
    cols.extend(after.iter().map(|(h, _)| format!("{h} (B)")));
    let mut t = DataTable {
        caption: "Bytes per rank so far".into(),
        columns: cols,
        rows: Vec::with_capacity(sent.len()),
    };
    let at = |v: &[u64], r: usize| Cell::Num(v.get(r).copied().unwrap_or(0) as f64);
    for r in 0..sent.len() {
        let mut row = vec![Cell::Num(r as f64)];
        row.extend(before.iter().map(|(_, v)| at(v, r)));
        row.push(at(sent, r));
        row.push(at(recv, r));
        row.extend(after.iter().map(|(_, v)| at(v, r)));
        t.rows.push(row);
    }
    t
}

/// The collectives view's "All algorithms" table
/// (`app::views::collectives::summary`): one row per
/// [`crate::core::collectives::AlgorithmSummary`] of the core's
/// `summary_table`, with rounds, the most bytes one rank sends, the executed
/// α–β time and the closed form (seconds), their difference and whether they
/// agree (relative 1e-9).
pub fn collectives_summary(
    table: &[crate::core::collectives::AlgorithmSummary],
    p: usize,
    bytes: u64,
) -> DataTable {
    let mut t = DataTable::new(
        format!("All algorithms at p = {p}, n = {bytes} B"),
        &[
            "algorithm",
            "collective",
            "rounds",
            "most bytes sent by one rank (B)",
            "time executed (s)",
            "time closed form (s)",
            "executed − closed form (s)",
            "agree",
        ],
    );
    for row in table {
        t.rows.push(vec![
            Cell::Text(row.alg.label().to_string()),
            Cell::Text(row.alg.collective().label().to_string()),
            Cell::Num(row.rounds as f64),
            Cell::Num(row.max_sent_bytes as f64),
            Cell::Num(row.executed_time),
            Cell::Num(row.closed_form.time),
            Cell::Num(row.excess()),
            Cell::Text(if row.agrees() { "yes" } else { "no" }.into()),
        ]);
    }
    t
}

/// The ring view's "Ring vs naive root" table
/// (`app::views::ring::comparison`): one row per schedule with its label,
/// number of rounds and executed α–β time in seconds
/// ([`crate::core::timing::executed_time`]), as the panel lists them.
pub fn schedule_times(caption: &str, rows: &[(&str, usize, f64)]) -> DataTable {
    let mut t = DataTable::new(caption, &["schedule", "rounds", "time (s)"]);
    for &(label, rounds, time) in rows {
        t.rows.push(vec![
            Cell::Text(label.to_string()),
            Cell::Num(rounds as f64),
            Cell::Num(time),
        ]);
    }
    t
}

/// The gossip view's "Round r" panel (`app::views::gossip::numbers`) at
/// `round` (clamped to the last computed round): one row per quantity the
/// panel lists — mean, disagreement ‖x − x̄1‖₂, ρʳ‖x₀ − x̄1‖₂, spread
/// max − min ([`crate::core::consensus::spread`]), ρ, the spectral gap 1 − ρ
/// and the predicted and measured rounds to shrink the disagreement by the
/// run's factor. Missing values (no ρ, not reached) are empty. All values
/// are unitless (node values have the unit of x).
pub fn gossip_round_numbers(run: &crate::core::consensus::GossipRun, round: usize) -> DataTable {
    let mut t = DataTable::new(format!("Round {round}"), &["quantity", "value"]);
    let Some(state) = run.rounds.get(round).or(run.rounds.last()) else {
        return t;
    };
    let spec = &run.spectrum;
    let opt = |v: Option<usize>| v.map_or(f64::NAN, |r| r as f64);
    let rows: [(String, f64); 8] = [
        ("mean x̄".into(), state.mean),
        ("disagreement ‖x − x̄1‖₂".into(), state.disagreement),
        ("ρʳ‖x₀ − x̄1‖₂".into(), state.bound.unwrap_or(f64::NAN)),
        (
            "spread max − min".into(),
            crate::core::consensus::spread(&state.values),
        ),
        ("ρ".into(), spec.rho),
        ("spectral gap 1 − ρ".into(), spec.gap),
        (
            format!("rounds for {}× (predicted)", run.factor),
            opt(run.predicted_rounds),
        ),
        (
            format!("rounds for {}× (measured)", run.factor),
            opt(run.measured_rounds),
        ),
    ];
    for (q, v) in rows {
        t.rows.push(vec![Cell::Text(q), Cell::Num(v)]);
    }
    t
}

/// The topology view's "All algorithms on this topology" table
/// (`app::views::topology::compare`): one row per algorithm of the core's
/// [`crate::core::topology_view::row`] — executed time and closed form
/// (seconds; empty when none), bytes per NIC (busiest direction) and over the
/// core (B), inter-node start-ups, the busiest link with its bytes (B) and busy
/// time (s), algbw and busbw (bytes per second, nccl-tests' PERFORMANCE.md).
/// An algorithm that does not apply keeps its reason in the last column.
pub fn topology_compare(
    results: &[(&str, Result<crate::core::topology_view::TopoRow, String>)],
) -> DataTable {
    let mut t = DataTable::new(
        "All algorithms on this topology",
        &[
            "algorithm",
            "executed time (s)",
            "closed form (s)",
            "bytes per NIC, busiest direction (B)",
            "bytes over the core (B)",
            "inter-node start-ups",
            "busiest link",
            "busiest link bytes (B)",
            "busiest link busy time (s)",
            "algbw (B/s)",
            "busbw (B/s)",
            "does not apply",
        ],
    );
    for (label, r) in results {
        let row = match r {
            Ok(r) => vec![
                Cell::Text((*label).to_string()),
                Cell::Num(r.time),
                Cell::Num(r.closed_form.unwrap_or(f64::NAN)),
                Cell::Num(r.max_nic_bytes as f64),
                Cell::Num(r.core_bytes as f64),
                Cell::Num(r.inter_startups as f64),
                Cell::Text(r.busiest_link.clone()),
                Cell::Num(r.busiest_bytes as f64),
                Cell::Num(r.busiest_time),
                Cell::Num(r.algbw),
                Cell::Num(r.busbw),
                Cell::Text(String::new()),
            ],
            Err(e) => {
                let mut v = vec![Cell::Text((*label).to_string())];
                v.extend(std::iter::repeat_n(Cell::Num(f64::NAN), 10));
                v.push(Cell::Text(e.clone()));
                v
            }
        };
        t.rows.push(row);
    }
    t
}

/// A table whose cells are already text (the topology view's per-NIC,
/// per-rank and per-worker tables, the gossip checks on W): `head` holds the
/// column headers, the first over the row labels; each row is its label and
/// its cells, as shown.
pub fn text_table(caption: &str, head: &[String], rows: &[(String, Vec<String>)]) -> DataTable {
    let cols: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = DataTable::new(caption, &cols);
    for (label, cells) in rows {
        let mut row = vec![Cell::Text(label.clone())];
        row.extend(cells.iter().map(|c| Cell::Text(c.clone())));
        t.rows.push(row);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topology_compare_rows_keep_the_core_values() {
        let r = crate::core::topology_view::TopoRow {
            alg: "flat",
            label: "flat ring",
            time: 0.03,
            closed_form: None,
            max_nic_bytes: 24,
            core_bytes: 0,
            inter_startups: 6,
            busiest_link: "node 0 NIC 0 out".into(),
            busiest_bytes: 24,
            busiest_time: 0.0125,
            algbw: 533.3333333333334,
            busbw: 800.0,
            verified: true,
        };
        let t = topology_compare(&[("flat ring", Ok(r)), ("hier", Err("needs 2 nodes".into()))]);
        let csv = t.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[1],
            "flat ring,0.03,,24,0,6,node 0 NIC 0 out,24,0.0125,533.3333333333334,800,"
        );
        assert_eq!(lines[2], "hier,,,,,,,,,,,needs 2 nodes");
    }

    #[test]
    fn gossip_round_numbers_match_the_course_round_one() {
        // The course's ring of 4, x₀ = (0, 3, 6, 9): after one round
        // x₁ = (4, 3, 6, 5), mean 4.5, disagreement √5, spread 6 − 3 = 3.
        let run = crate::core::consensus::course_ring_run();
        let t = gossip_round_numbers(&run, 1);
        assert_eq!(t.caption, "Round 1");
        let csv = t.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "quantity,value");
        assert_eq!(lines[1], "mean x̄,4.5");
        assert_eq!(lines[2], "disagreement ‖x − x̄1‖₂,2.23606797749979");
        assert_eq!(lines[4], "spread max − min,3");
        assert_eq!(t.rows.len(), 8);
        // Past the last computed round: the last one, not a panic.
        assert_eq!(gossip_round_numbers(&run, usize::MAX).rows.len(), 8);
    }

    #[test]
    fn schedule_times_rows_in_seconds() {
        // Ring all-reduce, p = 4, 16 B, α = 1 s, β = 1 s/B: 6 rounds of
        // α + 4 B × β = 5 s, 30 s in all.
        let ring = crate::core::collectives::summarize(
            Algorithm::named("ring"),
            4,
            4,
            4,
            CostParams::new(1.0, 1.0),
        )
        .expect("valid");
        let t = schedule_times(
            "Ring vs naive root",
            &[("ring all-reduce", ring.rounds, ring.executed_time)],
        );
        assert_eq!(
            t.to_csv(),
            "schedule,rounds,time (s)\nring all-reduce,6,30\n"
        );
    }

    #[test]
    fn collectives_summary_has_the_ring_row() {
        // Ring all-reduce, p = 4, 4 f32 (16 B), α = 1 s, β = 1 s/B: 2(p − 1) = 6
        // rounds, each α + one 4 B chunk × β = 5 s, so 30 s; each rank sends
        // 6 chunks = 24 B.
        let rows = crate::core::collectives::summary_table(4, 4, 4, CostParams::new(1.0, 1.0))
            .expect("valid");
        let t = collectives_summary(&rows, 4, 16);
        assert_eq!(t.caption, "All algorithms at p = 4, n = 16 B");
        assert_eq!(t.rows.len(), rows.len());
        let ring = Algorithm::named("ring");
        let i = rows.iter().position(|r| r.alg == ring).expect("ring row");
        let csv = t.to_csv();
        let line = csv.lines().nth(i + 1).unwrap_or_default();
        assert_eq!(
            line,
            format!(
                "{},{},6,24,30,30,0,yes",
                crate::export::csv_field(ring.label()),
                crate::export::csv_field(ring.collective().label())
            ),
            "{csv}"
        );
    }

    #[test]
    fn byte_counters_rows_hold_every_rank_in_bytes() {
        // Ring all-reduce of 4 ranks, 16 B (chunks of 4 B), finished: each rank
        // sends 2(p−1) = 6 chunks = 24 B and receives 24 B.
        let t = byte_counters(
            &[24, 24, 24, 24],
            &[24, 24, 24, 24],
            &[("reduce-scatter".into(), vec![12, 12, 12, 12])],
            &[],
        );
        assert_eq!(
            t.columns,
            ["rank", "reduce-scatter (B)", "sent (B)", "received (B)"]
        );
        assert_eq!(t.rows.len(), 4);
        assert_eq!(
            t.to_csv().lines().nth(2),
            Some("1,12,24,24"),
            "{}",
            t.to_csv()
        );
        // A missing count is 0, as the panel shows it.
        let short = byte_counters(&[5, 7], &[3], &[], &[]);
        assert_eq!(short.to_csv(), "rank,sent (B),received (B)\n0,5,3\n1,7,0\n");
    }

    #[test]
    fn course_gossip_history_holds_the_worked_norms() {
        let run = crate::core::consensus::course_ring_run();
        let t = gossip_rounds(&run.rounds[..3], run.spectrum.bound_guaranteed);
        assert_eq!(
            t.columns,
            [
                "round",
                "x0",
                "x1",
                "x2",
                "x3",
                "mean",
                "disagreement",
                "ρ^r bound"
            ]
        );
        let shown: Vec<String> = t.rows.iter().map(|r| r[6].shown()).collect();
        assert_eq!(shown, ["≈ 6.708", "≈ 2.236", "≈ 0.7454"]);
        let row1: Vec<String> = t.rows[1][1..5].iter().map(Cell::shown).collect();
        assert_eq!(row1, ["4", "3", "6", "5"]);
        let csv = t.to_csv();
        assert!(
            csv.starts_with(
                "round,x0,x1,x2,x3,mean,disagreement,ρ^r bound\n0,0,3,6,9,4.5,6.708203932499369,"
            ),
            "{csv}"
        );
        // ρ = 1/3: the bound at round 2 is √45 / 9 ≈ 0.7454 (equal to the disagreement here).
        let Cell::Num(bound) = t.rows[2][7] else {
            panic!("a number")
        };
        assert!((bound - 45f64.sqrt() / 9.0).abs() < 1e-12, "{bound}");
        // without the guarantee (e.g. uniform weights on a star) the same
        // column is only a rate, and says so
        let t = gossip_rounds(&run.rounds[..3], false);
        assert_eq!(t.columns[7], "ρ^r rate (not a bound)");
    }

    #[test]
    fn xy_series_is_long_format() {
        let t = xy_series(
            "T",
            "size (B)",
            "time (s)",
            &[("a<b".into(), vec![(1.0, 2.0), (3.0, 4.5)])],
        );
        assert_eq!(t.to_csv(), "series,size (B),time (s)\na<b,1,2\na<b,3,4.5\n");
    }

    #[test]
    fn cost_tables_follow_the_chart_axes() {
        let c = CostParams {
            alpha: 5e-6,
            beta: 8e-11,
            gamma: 0.0,
        };
        let t = cost_time_vs_size(8, c, 1e6);
        assert_eq!(t.rows.len(), 240);
        assert_eq!(t.columns.len(), 1 + Algorithm::compared().len());
        let t = cost_winner_map(c, 1e6, 8);
        assert_eq!(t.rows.len(), 160 * rank_axis(MAX_P, 90).len());
        // The course's example: ring at p = 4, n = 100 MB, α = 0, 12.5 GB/s:
        // 2(p − 1)/p · n · β = 1.5 · 1e8 / 1.25e10 = 12 ms.
        let c = CostParams {
            alpha: 0.0,
            beta: 1.0 / 12.5e9,
            gamma: 0.0,
        };
        let t = cost_formulas(&crate::core::collectives::compare::all_allreduce(4, 1e8, c));
        let ring = t
            .rows
            .iter()
            .find(|r| r[0] == Cell::Text("ring".into()))
            .expect("a ring row");
        assert_eq!(ring[6].shown(), "0.012");
    }

    #[test]
    fn text_tables_keep_their_cells_as_shown() {
        let t = text_table(
            "Traffic per NIC",
            &["NIC".into(), "out".into()],
            &[("node 0 lane 0".into(), vec!["250 MB".into()])],
        );
        assert_eq!(t.to_csv(), "NIC,out\nnode 0 lane 0,250 MB\n");
    }
}
