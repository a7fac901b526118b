//! The panels that do not depend on the step, read from the core's
//! analysis: the comparison rows, the course's numbers, the FlexReduce
//! per-worker table and the sweep charts. Only formatting here.

use crate::core::topology::analysis::{
    bottleneck_sentence, core_crossing, flex_counts, multilane_service_time, row, sweep_gpus,
    sweep_sizes, Series, TopoRow, TopoRun,
};
use crate::core::topology::Topology;
use crate::core::units::{format_bandwidth, format_bytes_short, format_time};
use crate::params::ring::ELEM_BYTES;
use crate::params::topology::{TopoAlg, TopologyParams};
use crate::plot::topology::{draw_time_vs_gpus, draw_time_vs_size, Line};

use super::compare::CompareRow;
use super::course::CourseItem;
use super::table::Row;

fn b(x: f64) -> String {
    format_bytes_short(x)
}

/// The comparison rows (an algorithm that does not apply says why), the
/// bottleneck sentence and the busbw sentence of the caveats.
pub fn compare(topo: &Topology, n: u64, inter_bw: f64) -> (Vec<CompareRow>, String, String) {
    let results: Vec<(TopoAlg, Result<TopoRow, String>)> = TopoAlg::ALL
        .iter()
        .map(|a| {
            (
                *a,
                row(a.key(), topo, n, ELEM_BYTES).map_err(|e| e.to_string()),
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
                closed: r.closed_form.map_or_else(|| "—".into(), format_time),
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
    (rows, sentence, busbw)
}

/// The course's numbers that apply to these parameters.
pub fn course(params: &TopologyParams, topo: &Topology, run: Option<&TopoRun>) -> Vec<CourseItem> {
    let mut items = Vec::new();
    let bw = params.inter_bw.value.bytes_per_second;
    if params.alg == TopoAlg::Multilane || params.lanes > 1 {
        if let Ok(s) = multilane_service_time(params.size.bytes() as f64, params.lanes, bw) {
            items.push(CourseItem {
                id: "course-multilane",
                title: "Multi-lane: ideal inter-node service time".into(),
                lines: vec![
                    format!("{} over {} lanes of {}: {} per lane.", b(params.size.bytes() as f64), s.lanes, format_bandwidth(bw), b(s.per_lane_bytes)),
                    format!("All lanes at once: {} per lane ÷ {} = {}.", b(s.per_lane_bytes), format_bandwidth(bw), format_time(s.time)),
                    format!("Single lane: {} ÷ {} = {}.", b(params.size.bytes() as f64), format_bandwidth(bw), format_time(s.one_lane_time)),
                    "This isolates the inter-node payload; the local collectives, start-ups and contention are extra, and the lanes must sustain their bandwidth at the same time.".into(),
                ],
            });
        }
    }
    if topo.racks() > 1 {
        if let Ok(c) = core_crossing(topo, params.elements(), ELEM_BYTES) {
            items.push(CourseItem {
                id: "course-rat",
                title: "RAT vs the flat ring: bytes over the shared core".into(),
                lines: vec![
                    format!(
                        "RAT: {} over the core in {} messages ({} rounds).",
                        b(c.rat.bytes as f64),
                        c.rat.messages,
                        c.rat.rounds
                    ),
                    format!(
                        "Flat ring over all {} ranks: {} over the core in {} messages ({} rounds).",
                        topo.p(),
                        b(c.flat.bytes as f64),
                        c.flat.messages,
                        c.flat.rounds
                    ),
                    c.reason,
                ],
            });
        }
    }
    if let Some(run) = run.filter(|r| r.alg == "flex") {
        if let Some((_, lines)) = flex_table(run, topo) {
            items.push(CourseItem {
                id: "course-flex",
                title: "FlexReduce: per-worker counts from the executed schedule".into(),
                lines,
            });
        }
    }
    items
}

/// FlexReduce per-worker rows and the summary lines (entries per worker
/// per subtree, entries crossing between subtrees).
pub fn flex_table(run: &TopoRun, topo: &Topology) -> Option<(Vec<Row>, Vec<String>)> {
    let c = flex_counts(run, topo).ok()?;
    let rows = c
        .workers
        .iter()
        .map(|w| Row {
            label: format!("worker {} (subtree {})", w.rank, w.group),
            id: Some(format!("flex-{}", w.rank)),
            cells: vec![
                w.reduced.to_string(),
                w.responsible.to_string(),
                w.fetched.to_string(),
                w.sent_cross.to_string(),
            ],
        })
        .collect();
    let per_group =
        |f: &dyn Fn(&crate::core::topology::analysis::FlexWorker) -> u64| -> Vec<String> {
            (0..topo.nodes())
                .map(|g| {
                    let mut v: Vec<u64> =
                        c.workers.iter().filter(|w| w.group == g).map(f).collect();
                    v.dedup();
                    let vs: Vec<String> = v.iter().map(u64::to_string).collect();
                    format!(
                        "{} per worker in the {}-worker subtree",
                        vs.join(" or "),
                        topo.node_ranks(g).len()
                    )
                })
                .collect()
        };
    let mut lines = vec![
        format!(
            "Reduce inside each subtree: {}.",
            per_group(&|w| w.reduced).join(", ")
        ),
        format!(
            "Responsibility after the fetch: {}.",
            per_group(&|w| w.responsible).join(", ")
        ),
    ];
    let g = c.crossing.len();
    if g == 2 {
        let (ab, ba) = (c.crossing[0][1], c.crossing[1][0]);
        lines.push(if ab == ba {
            format!("Partial sums crossing between the subtrees: {ab} entries in each direction (the final all-gather not counted).")
        } else {
            format!("Partial sums crossing: {ab} entries from subtree 0 to 1, {ba} from 1 to 0 (the final all-gather not counted).")
        });
    } else {
        for a in 0..g {
            for z in 0..g {
                if a != z && c.crossing[a][z] > 0 {
                    lines.push(format!(
                        "{} partial-sum entries from subtree {a} to subtree {z}.",
                        c.crossing[a][z]
                    ));
                }
            }
        }
    }
    Some((rows, lines))
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

/// The two sweep charts as SVG strings (or the reason they are missing).
pub fn sweeps(
    topo: &Topology,
    n: u64,
    max_gpus: usize,
) -> (Result<String, String>, Result<String, String>) {
    let size = format_bytes_short((n * ELEM_BYTES) as f64);
    let gpus = sweep_gpus(topo, n, ELEM_BYTES, max_gpus, true)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            draw_time_vs_gpus(
                &lines(s),
                &format!("Executed time vs GPUs per node (one NIC per GPU), {size}"),
            )
        });
    let sizes = sweep_sizes(topo, &sweep_size_points(), ELEM_BYTES)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            draw_time_vs_size(&lines(s), "Executed time vs message size on this topology")
        });
    (gpus, sizes)
}
