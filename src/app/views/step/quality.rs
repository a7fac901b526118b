//! `#quality`: time to the required quality. The SGD lab's training run
//! (its own parameters and worker count) for the three strategies, with
//! each step turned into seconds by this view's step times.

use std::rc::Rc;

use yew::prelude::*;

use super::strategies::StrategiesProps;
use crate::app::components::chart_box::{chart_box, ChartBoxProps};
use crate::app::components::computing::computing;
use crate::app::components::data_table::DataTableView;
use crate::app::hooks::use_deferred;
use crate::core::work::AFTER_FIRST_PAINT;
use crate::export::step::quality_table;
use crate::pages::step::quality::{quality_counts, quality_key, quality_text, QUALITY_FOOT};
use crate::pages::step::{compute, Key};
use crate::plot::step::{draw_quality, QualityLine};

/// `#quality`.
#[component]
pub fn QualityPanel(props: &StrategiesProps) -> Html {
    let (r, p) = (&props.report, &props.params);
    let shown = r.shown_or_ddp().0;
    let key: Key = quality_key(r, p);
    let m = key.0.shards.len();
    // The lab's training run waits for the first paint, so the step's own
    // numbers above are not held up by it.
    let deferred = use_deferred(key, AFTER_FIRST_PAINT, compute);
    let body = match deferred.ready().map(|v| &**v) {
        None => html! {
            {computing("the SGD lab's training run for the three strategies (time to quality)")}
        },
        Some(Err(e)) => html! { <p class="field-error">{e.clone()}</p> },
        Some(Ok((opt, target, rows))) => {
            let text = quality_text(*opt, *target, rows, p, shown.mode);
            let lines: Vec<QualityLine> = rows
                .iter()
                .zip(text.labels)
                .map(|(q, label)| QualityLine {
                    label,
                    points: q.points.clone(),
                })
                .collect();
            let svg = AttrValue::from(
                draw_quality(&lines, Some(*target)).unwrap_or_else(|e| format!("<p>{e}</p>")),
            );
            let table = Rc::new(quality_table(rows));
            let trs = text.rows.into_iter().map(|(key, name, steps, time)| html! {
                <tr id={format!("quality-{key}")}><th scope="row">{name}</th><td>{steps}</td><td>{time}</td></tr>
            });
            html! {<>
                <p class="muted">{text.target}</p>
                <div class="table-scroll" role="region" tabindex="0" aria-label="Steps and time to the target (scrollable table)">
                <table class="numbers" id="quality-table">
                    <thead><tr><th scope="col">{"strategy"}</th><th scope="col">{"steps to target"}</th><th scope="col">{"time to target"}</th></tr></thead>
                    <tbody>{ for trs }</tbody>
                </table>
                </div>
                <p id="quality-order">{text.order}</p>
                {chart_box(&ChartBoxProps { label: "Loss against wall-clock time".into(), svg: svg.clone(), id: Some("quality-chart".into()), ..ChartBoxProps::default() })}
                <DataTableView id="quality-data" table={table} svg={Some(svg)} />
            </>}
        }
    };
    html! {
        <section class="panel wide" id="quality" aria-labelledby="q-h">
            <h2 class="panel-h" id="q-h">{"Time to the required quality"}</h2>
            <p>{quality_counts(m, p)}</p>
            {body}
            <p class="muted">{QUALITY_FOOT}</p>
        </section>
    }
}
