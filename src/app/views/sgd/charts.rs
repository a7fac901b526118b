//! The four step charts of the training run (plotters SVG): loss above the
//! optimum, consensus distance, loss against bytes, trajectories (d = 2).

use yew::prelude::*;

use crate::app::components::chart_box::ChartBox;

use std::rc::Rc;

use super::SharedLab;
use crate::app::components::data_table::DataTableView;
use crate::export::series::{sgd_chart, SgdChart};
use crate::export::DataTable;
use crate::plot::sgd::{draw_consensus, draw_loss, draw_loss_vs_bytes, draw_trajectories};

/// The chart, then its "Data" table with the downloads.
fn svg_box(svg: String, id: &'static str, table: Rc<DataTable>) -> Html {
    let svg = AttrValue::from(svg);
    html! {
        <>
            <ChartBox label={table.caption.clone()} svg={svg.clone()} />
            <DataTableView {id} {table} svg={Some(svg)} />
        </>
    }
}

/// Props of [`SgdCharts`].
#[derive(Properties, PartialEq)]
pub struct SgdChartsProps {
    /// The training run.
    pub run: SharedLab,
    /// The step marked on the charts.
    pub step: usize,
}

/// The chart panels.
#[component]
pub fn SgdCharts(props: &SgdChartsProps) -> Html {
    let (problem, _, _) = &*props.run;
    let charts = use_memo((props.run.clone(), props.step), |(run, step)| {
        let (_, _, lab) = &**run;
        let or_msg = |r: Result<String, String>| r.unwrap_or_else(|e| format!("<p>{e}</p>"));
        [
            or_msg(draw_loss(lab, *step)),
            or_msg(draw_consensus(lab, *step)),
            or_msg(draw_loss_vs_bytes(lab, *step)),
            if lab.sample_weighted_optimum.len() == 2 {
                or_msg(draw_trajectories(lab, *step))
            } else {
                String::new()
            },
        ]
    });
    let [loss, cons, bytes, traj] = &*charts;
    let tables = use_memo((props.run.clone(), props.step), |(run, step)| {
        let (_, _, lab) = &**run;
        [
            SgdChart::Loss,
            SgdChart::Consensus,
            SgdChart::LossVsBytes,
            SgdChart::Trajectory,
        ]
        .map(|c| {
            Rc::new(sgd_chart(
                lab,
                c,
                if c == SgdChart::Trajectory {
                    *step
                } else {
                    usize::MAX
                },
            ))
        })
    });
    let [t_loss, t_cons, t_bytes, t_traj] = &*tables;

    html! {
        <>
            <section class="panel wide" aria-labelledby="loss-h">
                <h3 id="loss-h">{"Global loss above the optimum, per step (log scale)"}</h3>
                {svg_box(loss.clone(), "loss-data", t_loss.clone())}
                <p class="muted">{"Solid: at the average model w̄. Dashed: the mean of F at the workers' own models. Dotted: where the equal-worker optimum sits."}</p>
            </section>
            <section class="panel wide" aria-labelledby="cons-h">
                <h3 id="cons-h">{"Consensus distance (1/m) Σ‖w_k − w̄‖², per step (log scale)"}</h3>
                {svg_box(cons.clone(), "cons-data", t_cons.clone())}
            </section>
            <section class="panel wide" aria-labelledby="lb-h">
                <h3 id="lb-h">{"Global loss against bytes sent"}</h3>
                {svg_box(bytes.clone(), "bytes-data", t_bytes.clone())}
            </section>
            <section class="panel wide" aria-labelledby="traj-h">
                <h3 id="traj-h">{"Parameter trajectories"}</h3>
                if traj.is_empty() {
                    <p class="notice">{format!("The picture needs d = 2 parameters; this run has d = {}.", problem.d())}</p>
                } else {
                    {svg_box(traj.clone(), "traj-data", t_traj.clone())}
                    <p class="muted">{"Thick: the average model of each strategy. Thin: each worker's own model (D-PSGD and local SGD). Dots: each shard's own optimum."}</p>
                }
            </section>
        </>
    }
}
