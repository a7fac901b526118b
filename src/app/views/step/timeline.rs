//! `#timeline`: the step on the clock (compute stream, the straggler's row,
//! the communication stream with labelled buckets), its bucket table and
//! the downloads (SVG, PNG, CSV, Chrome trace JSON).

use std::rc::Rc;

use yew::prelude::*;

use super::SharedReport;
use crate::app::components::chart_box::ChartBox;
use crate::app::components::data_table::DataTableView;
use crate::app::components::downloads::{Downloads, FileOffer};
use crate::core::step::trace::chrome_trace;
use crate::export::step::buckets_table;
use crate::params::step::StepParams;
use crate::plot::step::timeline_svg;

/// `#timeline` for the case's report `r` and parameters `p` (a plain
/// function: the chart and table are rebuilt only when the view renders,
/// which it does when its state changes; no component around it).
pub fn timeline_panel(r: &SharedReport, p: &StepParams) -> Html {
    let straggler = p.straggler.map(|s| (s.rank, s.factor));
    let svg = AttrValue::from(timeline_svg(&r.run, straggler, r.run.step_time));
    let table = Rc::new(buckets_table(&r.run));
    let trace = {
        let r = r.clone();
        FileOffer {
            label: "Chrome trace".into(),
            file: "training-step-trace.json".into(),
            mime: "application/json",
            build: Callback::from(move |()| chrome_trace(&r.run)),
        }
    };
    let run = &r.run;
    html! {
        <section class="panel wide" id="timeline" aria-labelledby="tl-h">
            <h2 class="panel-h" id="tl-h">{"One step on the clock"}</h2>
            <ChartBox label="One training step: compute and communication streams" svg={svg.clone()} id="step-chart" />
            <p class="muted">
                {format!("{} buckets ({}). Each bar is one bucket's all-reduce (B1, B2, … where there is room); the tick before it marks when the bucket was ready. \
                    The dashed line is the end of the step. Point at a bar for its times.",
                    run.buckets.len(), p.caps_line())}
            </p>
            <Downloads files={vec![trace]} />
            <DataTableView id="buckets-data" table={table} svg={Some(svg)} />
        </section>
    }
}
