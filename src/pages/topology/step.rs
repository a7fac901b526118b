//! What one step shows, read from the core's [`TopoRun`]: arrows, NIC and
//! core labels, the per-link and per-rank tables, and the narration. Only
//! lookups and formatting; every number is a counter or time of the run.

use crate::core::schedule::Op;
use crate::core::timing::traffic::Traffic;
use crate::core::topology::{LinkClass, Topology};
use crate::core::topology_view::view_model::Layout;
use crate::core::topology_view::TopoRun;
use crate::core::units::format_bytes_short;

use super::rows::PicArrow;
use super::rows::Row;

/// Rows of the per-rank and per-NIC tables before "… and more".
pub const MAX_ROWS: usize = 32;

fn b(x: u64) -> String {
    format_bytes_short(x as f64)
}

/// Counters of round `step` (1-based) and up to it; `None` at step 0.
fn counters(run: &TopoRun, step: usize) -> Option<(&Traffic, &Traffic)> {
    let i = step.checked_sub(1)?;
    Some((run.traffic.get(i)?, run.cumulative.get(i)?))
}

/// This round's transfers as arrows (none at step 0).
pub fn arrows(run: &TopoRun, step: usize) -> Vec<PicArrow> {
    let Some(i) = step.checked_sub(1) else {
        return Vec::new();
    };
    let eb = run.schedule().elem_bytes;
    let Some(round) = run.schedule().rounds.get(i) else {
        return Vec::new();
    };
    round
        .transfers
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .map(|(k, t)| {
            let class = run
                .classes
                .get(i)
                .and_then(|c| c.get(k))
                .copied()
                .unwrap_or(LinkClass::Flat);
            PicArrow {
                src: t.src,
                dst: t.dst,
                class,
                reduce: t.op == Op::Reduce,
                title: format!(
                    "rank {} → rank {}: elements {}–{}, {}, {} over the {} link",
                    t.src,
                    t.dst,
                    t.range.start,
                    t.range.end.saturating_sub(1),
                    b(t.bytes(eb)),
                    t.op.label(),
                    class.label()
                ),
            }
        })
        .collect()
}

/// Ranks that send or receive in this round.
pub fn active(run: &TopoRun, step: usize, p: usize) -> Vec<bool> {
    let mut on = vec![false; p];
    if let Some(round) = step
        .checked_sub(1)
        .and_then(|i| run.schedule().rounds.get(i))
    {
        for t in &round.transfers {
            for r in [t.src, t.dst] {
                if let Some(x) = on.get_mut(r) {
                    *x = true;
                }
            }
        }
    }
    on
}

/// Two-line label of every NIC in `layout.nics` order: this round (both
/// directions) and so far.
pub fn nic_labels(layout: &Layout, run: &TopoRun, step: usize) -> Vec<(String, String)> {
    let c = counters(run, step);
    layout
        .nics
        .iter()
        .map(|nic| {
            let get = |t: &Traffic| {
                let o = t
                    .nic_out
                    .get(nic.node)
                    .and_then(|v| v.get(nic.lane))
                    .copied();
                let i = t
                    .nic_in
                    .get(nic.node)
                    .and_then(|v| v.get(nic.lane))
                    .copied();
                o.unwrap_or(0) + i.unwrap_or(0)
            };
            match c {
                Some((now, sofar)) => (format!("+{}", b(get(now))), format!("Σ {}", b(get(sofar)))),
                None => ("+0 B".into(), "Σ 0 B".into()),
            }
        })
        .collect()
}

/// Label of the core: bytes this round and so far (both directions).
pub fn core_label(run: &TopoRun, step: usize) -> String {
    match counters(run, step) {
        Some((now, sofar)) => format!(
            "{} this round, {} so far",
            b(now.core_total()),
            b(sofar.core_total())
        ),
        None => "0 B so far".into(),
    }
}

/// Per-NIC rows (node, lane: out/in this round, out/in so far), then one
/// row per rack for the core.
pub fn link_rows(run: &TopoRun, step: usize, topo: &Topology) -> Vec<Row> {
    let zero = Traffic::zero(topo);
    let (now, sofar) = counters(run, step).unwrap_or((&zero, &zero));
    let mut rows = Vec::new();
    for (node, lanes) in sofar.nic_out.iter().enumerate() {
        for lane in 0..lanes.len() {
            let g = |t: &Traffic, out: bool| {
                let v = if out { &t.nic_out } else { &t.nic_in };
                b(v.get(node).and_then(|l| l.get(lane)).copied().unwrap_or(0))
            };
            rows.push(Row {
                label: format!("node {node} NIC {lane}"),
                id: Some(format!("nic-{node}-{lane}")),
                cells: vec![g(now, true), g(now, false), g(sofar, true), g(sofar, false)],
            });
        }
    }
    for (k, out) in sofar.core_out.iter().enumerate() {
        let g = |v: &[u64]| b(v.get(k).copied().unwrap_or(0));
        rows.push(Row {
            label: format!("rack {k} ↔ core"),
            id: Some(format!("core-{k}")),
            cells: vec![
                g(&now.core_out),
                g(&now.core_in),
                b(*out),
                g(&sofar.core_in),
            ],
        });
    }
    rows
}

/// Per-rank rows: sent and received so far.
pub fn rank_rows(run: &TopoRun, step: usize, topo: &Topology) -> Vec<Row> {
    let zero = Traffic::zero(topo);
    let sofar = counters(run, step).map_or(&zero, |c| c.1);
    (0..topo.p().min(MAX_ROWS))
        .map(|r| Row {
            label: format!(
                "rank {r} (node {}, NIC {})",
                topo.node_of(r),
                topo.lane_of(r)
            ),
            id: Some(format!("rank-{r}")),
            cells: vec![
                b(sofar.sent.get(r).copied().unwrap_or(0)),
                b(sofar.recv.get(r).copied().unwrap_or(0)),
            ],
        })
        .collect()
}
