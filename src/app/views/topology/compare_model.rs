//! The comparison rows, the bottleneck and busbw sentences, and the sweep
//! charts, read from the core's analysis. Only formatting here.

use crate::core::collectives::Algorithm;
use crate::core::topology::Topology;
use crate::core::topology_view::{
    bottleneck_sentence, row, sweep_gpus, sweep_sizes, Series, TopoRow,
};
use crate::core::units::{format_bandwidth, format_bytes_short, format_time};
use crate::export::series::{topology::topology_compare, xy_series};
use crate::export::DataTable;
use crate::params::ring::ELEM_BYTES;
use crate::plot::topology::{draw_time_vs_gpus, draw_time_vs_size, Line};

use super::compare::CompareRow;

fn b(x: f64) -> String {
    format_bytes_short(x)
}

/// The comparison rows (an algorithm that does not apply says why), the
/// bottleneck sentence and the busbw sentence of the caveats.
pub fn compare(
    topo: &Topology,
    n: u64,
    inter_bw: f64,
) -> (Vec<CompareRow>, String, String, DataTable) {
    let results: Vec<(Algorithm, Result<TopoRow, String>)> = Algorithm::on_topologies()
        .map(|a| {
            (
                a,
                row(a.topology_info().key, topo, n, ELEM_BYTES).map_err(|e| e.to_string()),
            )
        })
        .collect();
    let ok: Vec<TopoRow> = results
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok().cloned())
        .collect();
    let best = ok.iter().map(|r| r.time).fold(f64::INFINITY, f64::min);
    let rows = results
        .iter()
        .map(|(a, r)| match r {
            Ok(r) => CompareRow {
                alg: *a,
                time: format_time(r.time),
                // Only `hier_rd` has none: its non-power-of-two fold rounds
                // make its time a lower bound, not a closed form.
                closed: r
                    .closed_form
                    .map_or_else(|| "none (only a lower bound)".into(), format_time),
                nic: b(r.max_nic_bytes as f64),
                core: if topo.racks() > 1 {
                    b(r.core_bytes as f64)
                } else {
                    "— (one rack)".into()
                },
                startups: r.inter_startups.to_string(),
                busiest: if r.busiest_bytes > 0 {
                    format!(
                        "{} ({}, busy {})",
                        r.busiest_link,
                        b(r.busiest_bytes as f64),
                        format_time(r.busiest_time)
                    )
                } else {
                    r.busiest_link.clone()
                },
                algbw: format_bandwidth(r.algbw),
                busbw: format_bandwidth(r.busbw),
                fastest: r.time <= best,
            },
            Err(e) => CompareRow {
                alg: *a,
                time: format!("does not apply: {e}"),
                closed: "—".into(),
                nic: "—".into(),
                core: "—".into(),
                startups: "—".into(),
                busiest: "—".into(),
                algbw: "—".into(),
                busbw: "—".into(),
                fastest: false,
            },
        })
        .collect();
    let labelled: Vec<(&str, Result<TopoRow, String>)> = results
        .iter()
        .map(|(a, r)| (a.topology_info().short_label, r.clone()))
        .collect();
    let table = topology_compare(&labelled);
    let sentence = bottleneck_sentence(&ok);
    let two_level = ok
        .iter()
        .filter(|r| r.alg != "flat")
        .max_by(|x, y| x.busbw.total_cmp(&y.busbw));
    let busbw = match two_level {
        Some(r) => format!(
            "In this run {} has algbw {} and busbw {}, against a NIC of {} per direction: busbw {} the NIC speed.",
            r.label,
            format_bandwidth(r.algbw),
            format_bandwidth(r.busbw),
            format_bandwidth(inter_bw),
            if r.busbw > inter_bw { "exceeds" } else { "stays below" }
        ),
        None => String::new(),
    };
    (rows, sentence, busbw, table)
}

fn lines(series: Vec<Series>) -> Vec<Line> {
    series
        .into_iter()
        .map(|s| Line {
            label: s.label.to_string(),
            points: s.points.iter().map(|p| (p.x, p.time)).collect(),
        })
        .collect()
}

/// Sizes plotted by the size sweep: 1 KiB × 4^k up to 1 GiB (display choice).
pub fn sweep_size_points() -> Vec<u64> {
    (0..=10).map(|k| 1024u64 << (2 * k)).collect()
}

/// A sweep chart's SVG and its plotted values, or why it is missing.
pub type SweepChart = Result<(String, DataTable), String>;

/// Draws `lines` with `draw` and keeps the same lines as a data table.
fn chart_and_table(
    lines: &[Line],
    x: &str,
    caption: &str,
    draw: fn(&[Line], &str) -> Result<String, String>,
) -> SweepChart {
    let svg = draw(lines, caption)?;
    let series: Vec<(String, Vec<(f64, f64)>)> = lines
        .iter()
        .map(|l| (l.label.clone(), l.points.clone()))
        .collect();
    Ok((svg, xy_series(caption, x, "time (s)", &series)))
}

/// The two sweep charts as SVG strings with their data (or the reason they
/// are missing).
pub fn sweeps(topo: &Topology, n: u64, max_gpus: usize) -> (SweepChart, SweepChart) {
    let size = format_bytes_short((n * ELEM_BYTES) as f64);
    let gpus = sweep_gpus(topo, n, ELEM_BYTES, max_gpus, true)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            chart_and_table(
                &lines(s),
                "GPUs per node",
                &format!("Executed time vs GPUs per node (one NIC per GPU), {size}"),
                draw_time_vs_gpus,
            )
        });
    let sizes = sweep_sizes(topo, &sweep_size_points(), ELEM_BYTES)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            chart_and_table(
                &lines(s),
                "message size (B)",
                "Executed time vs message size on this topology",
                draw_time_vs_size,
            )
        });
    (gpus, sizes)
}
