//! The topology view's comparison table.

use crate::export::{Cell, DataTable};

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
}
