//! The four step charts of the training run (plotters SVG): loss above the
//! optimum, consensus distance, loss against bytes, trajectories (d = 2).

use yew::prelude::*;

use crate::app::components::chart_box::{chart_box, ChartBoxProps};

use std::rc::Rc;

use super::SharedLab;
use crate::app::components::data_table::DataTableView;
use crate::export::series::sgd::{sgd_chart, SgdChart};
use crate::export::DataTable;
use crate::plot::sgd::{
    draw_consensus_layer, draw_loss_layer, draw_loss_vs_bytes_layer, draw_trajectories, Layer,
};
use crate::plot::stack;

/// The chart, then its "Data" table with the downloads.
fn svg_box(svg: String, id: &'static str, table: Rc<DataTable>) -> Html {
    let svg = AttrValue::from(svg);
    html! {
        <>
            {chart_box(&ChartBoxProps { label: table.caption.clone().into(), svg: svg.clone(), ..ChartBoxProps::default() })}
            <DataTableView {id} {table} svg={Some(svg)} />
        </>
    }
}

/// A chart drawn in two layers: the `base` of the run, unchanged by a step,
/// with the step's `marks` over it; the downloads take the joined chart.
fn layered_box(base: &AttrValue, marks: &str, id: &'static str, table: Rc<DataTable>) -> Html {
    let joined = AttrValue::from(stack(base, marks));
    html! {
        <>
            {chart_box(&ChartBoxProps { label: table.caption.clone().into(), svg: base.clone(), overlay: Some(AttrValue::from(marks.to_string())), ..ChartBoxProps::default() })}
            <DataTableView {id} {table} svg={Some(joined)} />
        </>
    }
}

/// The drawn charts of a run at one step, kept by [`use_sgd_charts`].
#[derive(Clone, PartialEq)]
pub struct SgdChartSet {
    /// What a step does not move (loss, consensus, loss against bytes),
    /// drawn once per run.
    bases: Rc<Option<[AttrValue; 3]>>,
    /// The step's marks over those three, then the trajectory chart (empty
    /// unless d = 2).
    marks: Rc<Option<[String; 4]>>,
    /// The four charts' data tables.
    tables: Rc<Option<[Rc<DataTable>; 4]>>,
}

fn or_msg(r: Result<String, String>) -> String {
    r.unwrap_or_else(|e| format!("<p>{e}</p>"))
}

/// The charts of `run` at `step` (clamped to the run's last step); none
/// while there is no run. The run's layers are drawn once per run, the
/// marks and tables once per step.
#[hook]
pub fn use_sgd_charts(run: Option<SharedLab>, step: usize) -> SgdChartSet {
    let bases = use_memo(run.clone(), |run| {
        run.as_ref().map(|run| {
            let (_, _, lab) = &**run;
            [
                draw_loss_layer(lab, Layer::Base),
                draw_consensus_layer(lab, Layer::Base),
                draw_loss_vs_bytes_layer(lab, Layer::Base),
            ]
            .map(|r| AttrValue::from(or_msg(r)))
        })
    });
    let marks = use_memo((run.clone(), step), |(run, step)| {
        run.as_ref().map(|run| {
            let (_, _, lab) = &**run;
            let step = (*step).min(lab.last_step());
            let marks = Layer::Marks(step);
            [
                draw_loss_layer(lab, marks).unwrap_or_default(),
                draw_consensus_layer(lab, marks).unwrap_or_default(),
                draw_loss_vs_bytes_layer(lab, marks).unwrap_or_default(),
                if lab.sample_weighted_optimum.len() == 2 {
                    or_msg(draw_trajectories(lab, step))
                } else {
                    String::new()
                },
            ]
        })
    });
    let tables = use_memo((run, step), |(run, step)| {
        run.as_ref().map(|run| {
            let (_, _, lab) = &**run;
            let step = (*step).min(lab.last_step());
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
                        step
                    } else {
                        usize::MAX
                    },
                ))
            })
        })
    });
    SgdChartSet {
        bases,
        marks,
        tables,
    }
}

/// Props of [`sgd_charts`].
#[derive(PartialEq)]
pub struct SgdChartsProps {
    /// The charts, from [`use_sgd_charts`].
    pub charts: SgdChartSet,
    /// Parameters of the run (d, for the trajectory notice).
    pub d: usize,
}

/// The chart panels.
pub fn sgd_charts(props: &SgdChartsProps) -> Html {
    let c = &props.charts;
    let (
        Some([loss_base, cons_base, bytes_base]),
        Some([loss, cons, bytes, traj]),
        Some([t_loss, t_cons, t_bytes, t_traj]),
    ) = (&*c.bases, &*c.marks, &*c.tables)
    else {
        return Html::default();
    };

    html! {
        <>
            <section class="panel wide" aria-labelledby="loss-h">
                <h3 id="loss-h">{"Global loss above the optimum, per step (log scale)"}</h3>
                {layered_box(loss_base, loss, "loss-data", t_loss.clone())}
                <p class="muted">{"Solid: at the average model w̄. Dashed: the mean of F at the workers' own models. Dotted: where the equal-worker optimum sits."}</p>
            </section>
            <section class="panel wide" aria-labelledby="cons-h">
                <h3 id="cons-h">{"Consensus distance (1/m) Σ‖w_k − w̄‖², per step (log scale)"}</h3>
                {layered_box(cons_base, cons, "cons-data", t_cons.clone())}
            </section>
            <section class="panel wide" aria-labelledby="lb-h">
                <h3 id="lb-h">{"Global loss against bytes sent"}</h3>
                {layered_box(bytes_base, bytes, "bytes-data", t_bytes.clone())}
            </section>
            <section class="panel wide" aria-labelledby="traj-h">
                <h3 id="traj-h">{"Parameter trajectories"}</h3>
                if traj.is_empty() {
                    <p class="notice">{format!("The picture needs d = 2 parameters; this run has d = {}.", props.d)}</p>
                } else {
                    {svg_box(traj.clone(), "traj-data", t_traj.clone())}
                    <p class="muted">{"Thick: the average model of each strategy. Thin: each worker's own model (D-PSGD and local SGD). Dots: each shard's own optimum."}</p>
                }
            </section>
        </>
    }
}
