//! `#quality`: time to the required quality. The SGD lab's training run
//! (its own parameters and worker count) for the three strategies, with
//! each step turned into seconds by this view's step times. The run
//! happens in the time-to-quality module (`modules/quality`, loaded the
//! first time the panel asks for it through [`crate::app::module`]: it is
//! about 26 KB of the step page gzipped and the first paint does not show
//! it); the page sends the key and renders the rows that come back
//! ([`crate::pages::step::quality`]'s wire).

use std::rc::Rc;

use yew::prelude::*;

use super::strategies::StrategiesProps;
use crate::app::components::chart_box::{chart_box, ChartBoxProps};
use crate::app::components::computing::computing;
use crate::app::components::data_table::DataTableView;
use crate::app::module;
use crate::core::sgd::Strategy;
use crate::core::step::quality::{orders, QualityRow};
use crate::core::step::Sharding;
use crate::core::units::decimal;
use crate::core::units::format_time;
use crate::export::step::quality_table;
use crate::pages::step::quality::{
    computed_from_wire, key_to_wire, quality_counts, quality_key, QUALITY_FOOT,
};
use crate::pages::step::{name, names, Computed, Key};
use crate::plot::step::{draw_quality, QualityLine};

fn row(r: &QualityRow, h: Option<usize>, mode: Sharding) -> Html {
    html! {
        <tr id={format!("quality-{}", r.strategy.key())}>
            <th scope="row">{name(r.strategy, h, mode)}</th>
            <td>{r.steps_to_target.map_or_else(|| "not reached".to_string(), |s| s.to_string())}</td>
            <td>{r.seconds_to_target.filter(|t| t.is_finite()).map_or_else(|| "—".to_string(), format_time)}</td>
        </tr>
    }
}

/// The run of `key` from the time-to-quality module: `None` while it loads
/// and runs, then its rows or a sentence saying what failed. A newer key
/// replaces the answer of an older one that arrives after it.
#[hook]
fn use_quality_run(key: Key) -> Option<Rc<Computed>> {
    let state = use_state(|| None::<(Key, Rc<Computed>)>);
    let latest = use_mut_ref(|| None::<Key>);
    {
        let state = state.clone();
        use_effect_with(key.clone(), move |key| {
            *latest.borrow_mut() = Some(key.clone());
            let key = key.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let (query, nums) = key_to_wire(&key);
                let args = [
                    query.into(),
                    js_sys::Float64Array::from(nums.as_slice()).into(),
                ];
                let got = module::call_with("quality", "time_to_quality", &args)
                    .await
                    .and_then(|v| {
                        computed_from_wire(&js_sys::Float64Array::new(&v).to_vec()).ok_or_else(
                            || "The time-to-quality module returned no rows.".to_string(),
                        )
                    });
                if latest.borrow().as_ref() == Some(&key) {
                    state.set(Some((key, Rc::new(got))));
                }
            });
        });
    }
    state
        .as_ref()
        .filter(|(k, _)| *k == key)
        .map(|(_, v)| v.clone())
}

/// `#quality`.
#[component]
pub fn QualityPanel(props: &StrategiesProps) -> Html {
    let (r, p) = (&props.report, &props.params);
    // the sharding shown names all-reduce SGD's line (the key's clock is
    // its step: see `quality_key`)
    let shown = r.shown_or_ddp().0;
    let key: Key = quality_key(r, p);
    let m = key.0.shards.len();
    // The lab's training run comes from its module after the first paint,
    // so the step's own numbers above are not held up by it.
    let run = use_quality_run(key);
    let body = match run.as_deref() {
        None => html! {
            {computing("the SGD lab's training run for the three strategies (time to quality)")}
        },
        Some(Err(e)) => html! { <p class="field-error">{e.clone()}</p> },
        Some(Ok((opt, target, rows))) => {
            let lines: Vec<QualityLine> = rows
                .iter()
                .map(|q| QualityLine {
                    label: match (q.strategy, shown.mode) {
                        (Strategy::AllReduce, Sharding::Zero2 | Sharding::Fsdp) => {
                            name(q.strategy, None, shown.mode)
                        }
                        _ => q.strategy.label().into(),
                    },
                    points: q.points.clone(),
                })
                .collect();
            let svg = AttrValue::from(
                draw_quality(&lines, Some(*target)).unwrap_or_else(|e| format!("<p>{e}</p>")),
            );
            let table = Rc::new(quality_table(rows));
            let (by_steps, by_secs) = orders(rows);
            let order = if by_steps.is_empty() {
                "No strategy reaches the target in this run.".to_string()
            } else if by_steps == by_secs {
                format!(
                    "Fastest first, by steps and by seconds alike: {}.",
                    names(&by_steps)
                )
            } else {
                format!("By steps: {}; by seconds: {}. The order changes: fewer steps are not less time.", names(&by_steps), names(&by_secs))
            };
            html! {<>
                <p class="muted">{format!("Target loss {} (the lowest reachable is {}{}).", decimal::fixed(*target, 4), decimal::fixed(*opt, 4), if p.target.is_none() { "; no target= given, so 5 % above it" } else { "" })}</p>
                <div class="table-scroll" role="region" tabindex="0" aria-label="Steps and time to the target (scrollable table)">
                <table class="numbers" id="quality-table">
                    <thead><tr><th scope="col">{"strategy"}</th><th scope="col">{"steps to target"}</th><th scope="col">{"time to target"}</th></tr></thead>
                    <tbody>{ for rows.iter().map(|q| row(q, p.h, shown.mode)) }</tbody>
                </table>
                </div>
                <p id="quality-order">{order}</p>
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
