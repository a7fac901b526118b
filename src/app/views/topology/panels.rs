//! The panels under the picture: per-step tables ([`step_panels`]) and the
//! step-independent summary ([`summary_panels`], kept by [`use_summary`]:
//! course numbers, comparison, sweeps, caveats).

use std::rc::Rc;

use yew::prelude::*;

use super::caveats::{caveats_panel, CaveatsProps};
use super::compare::{compare_panel, CompareProps, CompareRow};
use super::compare_model::{compare, sweeps, SweepChart};
use super::course::{course_panel, CourseItem, CourseProps};
use super::sweep::{sweep_charts, SweepsProps};
use super::table::{numbers_table, NumbersTableProps};
use crate::core::collectives::Algorithm;
use crate::core::topology::Topology;
use crate::core::topology_view::{busbw_note, TopoRun};
use crate::core::units::format_exact_or_approx;
use crate::export::DataTable;
use crate::pages::topology::course::{course, flex_table};
use crate::pages::topology::step::{link_rows, rank_rows, MAX_ROWS};
use crate::params::topology::{TopologyParams, MAX_GPUS};

/// The run of the chosen algorithm, or why it cannot run; compared by
/// pointer (the run is memoised, so a new `Rc` means a new run).
#[derive(Clone)]
pub struct RunResult(pub Rc<Result<(Topology, TopoRun), String>>);

impl PartialEq for RunResult {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Props of [`step_panels`].
#[derive(PartialEq)]
pub struct StepPanelsProps {
    /// The run.
    pub result: RunResult,
    /// Step shown.
    pub step: usize,
}

/// Per-NIC and per-rank bytes at this step, FlexReduce counts, the check.
pub fn step_panels(props: &StepPanelsProps) -> Html {
    let Ok((topo, run)) = props.result.0.as_ref() else {
        return html! {};
    };
    let step = props.step;
    let rounds = run.num_rounds();
    let links = link_rows(run, step, topo);
    let n_links = links.len();
    let shown: Vec<_> = links.into_iter().take(MAX_ROWS).collect();
    let flex = flex_table(run, topo);
    let sum = run.trace.expected.first().copied().unwrap_or(0.0);
    let check = if step < rounds {
        html! { <p class="check pending" id="check">{format!("Not finished: {step} of {rounds} rounds run.")}</p> }
    } else if run.verified {
        html! { <p class="check ok" id="check">{format!("✓ Verified: all {} ranks hold the element-wise sum {} in every element.", topo.p(), format_exact_or_approx(sum))}</p> }
    } else {
        html! { <p class="check bad" id="check" role="alert">{"✗ The result is not the element-wise sum."}</p> }
    };
    html! {
        <div class="panels">
            <section class="panel wide" aria-labelledby="topo-links-h">
                <h2 class="panel-h" id="topo-links-h">{format!("Bytes on every NIC and the core (after round {step} of {rounds})")}</h2>
                {numbers_table(&NumbersTableProps { id: "links".into(), caption: Some("Traffic per link".into()), head: vec!["link".into(), "out, this round".into(), "in, this round".into(), "out, so far".into(), "in, so far".into()], rows: shown, note: (n_links > MAX_ROWS).then(|| format!("Showing {MAX_ROWS} of {n_links} links.")) })}
            </section>
            if let Some((rows, lines)) = flex {
                <section class="panel wide" aria-labelledby="topo-flex-h" id="flex-counts">
                    <h2 class="panel-h" id="topo-flex-h">{"FlexReduce: entries per worker (from the executed schedule)"}</h2>
                    {numbers_table(&NumbersTableProps { id: "flex".into(), caption: Some("FlexReduce workers".into()), head: vec!["worker".into(), "reduced inside subtree".into(), "responsible for".into(), "partial sums fetched".into(), "partial sums sent".into()], rows, note: None })}
                    <ul>{for lines.into_iter().map(|l| html! { <li>{l}</li> })}</ul>
                </section>
            }
            <section class="panel" aria-labelledby="topo-ranks-h">
                <h2 class="panel-h" id="topo-ranks-h">{"Bytes per rank so far"}</h2>
                {numbers_table(&NumbersTableProps { id: "ranks".into(), caption: Some("Bytes per rank".into()), head: vec!["rank".into(), "sent".into(), "received".into()], rows: rank_rows(run, step, topo), note: (topo.p() > MAX_ROWS).then(|| format!("Showing ranks 0–{}.", MAX_ROWS - 1)) })}
            </section>
            <section class="panel" aria-labelledby="topo-check-h">
                <h2 class="panel-h" id="topo-check-h">{"Check"}</h2>
                {check}
            </section>
        </div>
    }
}

/// What the summary panels show, kept by [`use_summary`]: everything that
/// depends on the run and the parameters, not on the step.
#[derive(Clone, PartialEq)]
pub struct Summary {
    /// Course blocks and the busbw note of the run.
    extra: Rc<(Vec<CourseItem>, String)>,
    /// Comparison rows, bottleneck and busbw sentences, the comparison's
    /// table and both sweeps; `None` while the run is pending or the shape
    /// is not a topology.
    tables: Rc<Option<Tables>>,
}

type Tables = (
    Vec<CompareRow>,
    String,
    String,
    Rc<DataTable>,
    Rc<SweepChart>,
    Rc<SweepChart>,
);

/// The summary of `params` (its step is ignored) and `run`: computed once
/// the run is `ready`, so a pending run shows its notice first.
#[hook]
pub fn use_summary(params: &TopologyParams, run: &RunResult, ready: bool) -> Summary {
    let key = TopologyParams {
        step: 0,
        ..params.clone()
    };
    // Course numbers and the busbw note depend on the run, not the step.
    let extra = use_memo((key.clone(), run.clone(), ready), |(k, r, ready)| {
        if !*ready {
            return (Vec::new(), String::new());
        }
        let current = r.0.as_ref().as_ref().ok();
        let note = current.map_or_else(String::new, |(t, run)| busbw_note(run, t));
        let items = k
            .topology()
            .map(|t| course(k, &t, current.map(|(_, run)| run)))
            .unwrap_or_default();
        (items, note)
    });
    let tables = use_memo((key, ready), |(k, ready)| {
        if !*ready {
            return None;
        }
        let topo = k.topology().ok()?;
        let (rows, sentence, busbw, table) =
            compare(&topo, k.elements(), k.inter_bw.value.bytes_per_second);
        let max_g = k
            .node_sizes()
            .into_iter()
            .max()
            .unwrap_or(1)
            .max(8)
            .min(MAX_GPUS as usize);
        let (g, s) = sweeps(&topo, k.elements(), max_g);
        Some((
            rows,
            sentence,
            busbw,
            Rc::new(table),
            Rc::new(g),
            Rc::new(s),
        ))
    });
    Summary { extra, tables }
}

/// Props of [`summary_panels`].
pub struct SummaryPanelsProps {
    /// Current parameters.
    pub params: TopologyParams,
    /// What [`use_summary`] kept.
    pub summary: Summary,
    /// Called when a comparison row is picked.
    pub on_pick: Callback<Algorithm>,
}

/// Course numbers, comparison table, sweeps and caveats.
pub fn summary_panels(props: &SummaryPanelsProps) -> Html {
    let p = &props.params;
    let Some((rows, sentence, busbw, table, g, s)) = props.summary.tables.as_ref() else {
        return html! {};
    };
    let (items, note) = (&props.summary.extra.0, &props.summary.extra.1);
    html! {
        <div class="panels">
            {course_panel(&CourseProps { items: items.clone() })}
            {compare_panel(&CompareProps { rows: rows.clone(), table: table.clone(), current: p.alg, bottleneck: AttrValue::from(sentence.clone()), on_pick: props.on_pick.clone() })}
            {sweep_charts(&SweepsProps { gpus: g.clone(), sizes: s.clone() })}
            {caveats_panel(&CaveatsProps { busbw_sentence: AttrValue::from(format!("This run ({}): {note} {busbw}", p.alg.topology_info().short_label)) })}
        </div>
    }
}
