//! Tables of one schedule (ring and collectives views): byte counters per rank and round times.

use crate::export::{Cell, DataTable};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collectives::Algorithm;
    use crate::core::cost::CostParams;

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
}
