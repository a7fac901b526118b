//! The cost view's tables: the charts' sweeps (same axes, same core sweeps) and the formulas.

use crate::core::collectives::compare::{best_at, log_sizes, sweep_ranks, sweep_sizes};
use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl_tune::{pick_grid, Func, Inputs};
use crate::core::cost::CostParams;
use crate::export::{Cell, DataTable};
use crate::plot::cost::{nccl_axes, rank_axis, MAX_P, MAX_SIZE, MIN_SIZE, NCCL_CELLS};

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

/// NCCL's pick over sizes and ranks, as the NCCL map draws it
/// ([`crate::plot::cost::draw_nccl_map`]): one row per (p, size) with the
/// picked algorithm/protocol ("none" where nothing is enabled).
pub fn cost_nccl_map(
    inputs_at: &dyn Fn(usize) -> Inputs,
    n_chosen: f64,
    p_chosen: usize,
) -> DataTable {
    let (sizes, ps) = nccl_axes(n_chosen, p_chosen);
    let grid = pick_grid(inputs_at, Func::AllReduce, &sizes, &ps);
    let mut t = DataTable::new(
        "NCCL's pick (all-reduce)",
        &["ranks p", "message size (B)", "NCCL's pick"],
    );
    for (row, &p) in grid.iter().zip(&ps) {
        for (cell, &n) in row.iter().zip(&sizes) {
            t.rows.push(vec![
                Cell::Num(p as f64),
                Cell::Num(n),
                Cell::Text(cell.map_or("none", |k| NCCL_CELLS[k]).to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
