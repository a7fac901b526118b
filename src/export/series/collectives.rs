//! The collectives view's summary table.

use crate::export::{Cell, DataTable};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collectives::Algorithm;
    use crate::core::cost::CostParams;

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
}
