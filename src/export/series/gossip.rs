//! The gossip view's tables: the round history, the eigenvalues and one round's numbers.

use crate::core::consensus::{RoundState, Spectrum};
use crate::export::{Cell, DataTable};

/// Most nodes given their own column in the gossip round history; larger
/// graphs get one text column with the first ones.
pub const MAX_NODE_COLUMNS: usize = 16;

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
            format!(
                "rounds for {}× (predicted)",
                crate::core::units::decimal::shortest(run.factor)
            ),
            opt(run.predicted_rounds),
        ),
        (
            format!(
                "rounds for {}× (measured)",
                crate::core::units::decimal::shortest(run.factor)
            ),
            opt(run.measured_rounds),
        ),
    ];
    for (q, v) in rows {
        t.rows.push(vec![Cell::Text(q), Cell::Num(v)]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
