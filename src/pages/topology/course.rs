//! The course's numbers (multi-lane service time, RAT vs flat ring core
//! bytes, FlexReduce counts) and the FlexReduce per-worker table, read from
//! the core's analysis. Only formatting here.

use crate::core::collectives::Algorithm;
use crate::core::topology::Topology;
use crate::core::topology_view::{
    core_crossing, flex_counts, multilane_service_time, FlexWorker, TopoRun,
};
use crate::core::units::{format_bandwidth, format_bytes_short, format_time};
use crate::params::ring::ELEM_BYTES;
use crate::params::topology::TopologyParams;

use super::rows::CourseItem;
use super::rows::Row;

fn b(x: f64) -> String {
    format_bytes_short(x)
}

/// The course's numbers that apply to these parameters.
pub fn course(params: &TopologyParams, topo: &Topology, run: Option<&TopoRun>) -> Vec<CourseItem> {
    let mut items = Vec::new();
    let bw = params.inter_bw.value.bytes_per_second;
    if params.alg == Algorithm::MULTILANE || params.lanes > 1 {
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
    let per_group = |f: &dyn Fn(&FlexWorker) -> u64| -> Vec<String> {
        (0..topo.nodes())
            .map(|g| {
                let mut v: Vec<u64> = c.workers.iter().filter(|w| w.group == g).map(f).collect();
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
