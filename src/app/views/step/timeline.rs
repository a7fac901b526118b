//! `#timeline`: the step on the clock (compute stream, the straggler's row,
//! the communication stream with labelled buckets, or the sharded modes'
//! all-gathers and reduce-scatters), its table and the downloads (SVG, PNG,
//! CSV, Chrome trace JSON).

use std::rc::Rc;

use yew::prelude::*;

use super::SharedReport;
use crate::app::components::chart_box::{chart_box, ChartBoxProps};
use crate::app::components::data_table::DataTableView;
use crate::app::components::downloads::{Downloads, FileOffer};
use crate::core::step::trace::chrome_trace;
use crate::core::step::Sharding;
use crate::export::step::buckets_table;
use crate::pages::step::sharded_note;
use crate::params::step::StepParams;
use crate::plot::step::timeline_svg;

/// `#timeline` for the case's report `r` and parameters `p` (a plain
/// function: the chart and table are rebuilt only when the view renders,
/// which it does when its state changes; no component around it).
pub fn timeline_panel(r: &SharedReport, p: &StepParams) -> Html {
    let straggler = p.straggler.map(|s| (s.rank, s.factor));
    let (shown, why) = r.shown_or_ddp();
    let run = shown.run;
    let svg = AttrValue::from(timeline_svg(run, straggler, run.step_time, shown.mode));
    let table = Rc::new(buckets_table(run));
    let trace = {
        let r = r.clone();
        FileOffer {
            label: "Chrome trace".into(),
            file: "training-step-trace.json".into(),
            mime: "application/json",
            build: Callback::from(move |()| chrome_trace(r.shown_or_ddp().0.run)),
        }
    };
    let note = if shown.mode == Sharding::Ddp {
        format!("{} buckets ({}). Each bar is one bucket's all-reduce (B1, B2, … where there is room); the tick before it marks when the bucket was ready. \
            The dashed line is the end of the step. Point at a bar for its times.",
            run.buckets.len(), p.caps_line())
    } else {
        sharded_note(r, p, shown.mode)
    };
    html! {
        <section class="panel wide" id="timeline" aria-labelledby="tl-h">
            <h2 class="panel-h" id="tl-h">{"One step on the clock"}</h2>
            if let Some(e) = why {
                <p class="field-error" role="alert" id="sharding-error">{format!("{e}. The step below is DDP's.")}</p>
            }
            {chart_box(&ChartBoxProps { label: "One training step: compute and communication streams".into(), svg: svg.clone(), id: Some("step-chart".into()), ..ChartBoxProps::default() })}
            <p class="muted">{note}</p>
            <Downloads files={vec![trace]} />
            <DataTableView id="buckets-data" table={table} svg={Some(svg)} />
        </section>
    }
}
