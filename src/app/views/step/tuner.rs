//! `#tuner`: the step time against the bucket cap (1 … 1024 MiB and 25 MiB),
//! computed one cap per task so the page stays responsive and shows its
//! progress; the best cap and DDP's default marked, and what the best saves.
//! DDP's and ZeRO-2's steps depend on the cap; FSDP's does not (it
//! communicates layer by layer), and the panel says so.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::app::components::chart_box::{chart_box, ChartBoxProps};
use crate::app::components::data_table::DataTableView;
use crate::core::step::strategies::{tuner_caps, tuner_from, TunerPoint};
use crate::core::step::Sharding;
use crate::export::step::tuner_table;
use crate::pages::step::quality::{
    tuner_at, tuner_fixed, tuner_foot, tuner_progress, tuner_verdict, TUNER_ZERO2,
};
use crate::params::step::StepParams;
use crate::plot::step::draw_tuner;

/// Props of [`TunerPanel`].
#[derive(Properties, PartialEq)]
pub struct TunerPanelProps {
    /// The case (its cap is replaced cap by cap).
    pub params: StepParams,
    /// The mode whose step is tuned (the one shown).
    pub mode: Sharding,
    /// FSDP's step time, when that is the mode shown: the cap plays no part.
    pub fixed: Option<f64>,
}

/// Points so far, for the case they belong to.
type Progress = (Option<StepParams>, Rc<Vec<Result<TunerPoint, String>>>);

/// `#tuner`.
#[component]
pub fn TunerPanel(props: &TunerPanelProps) -> Html {
    let mode = props.mode;
    // FSDP: nothing to time, every cap gives the same step
    let caps = if props.fixed.is_some() {
        Vec::new()
    } else {
        tuner_caps()
    };
    let acc = use_state(|| -> Progress { (None, Rc::new(Vec::new())) });
    let fresh = acc.0.as_ref() == Some(&props.params);
    let done: Vec<Result<TunerPoint, String>> = if fresh { (*acc.1).clone() } else { Vec::new() };
    let n = done.len();
    {
        let acc = acc.clone();
        let caps = caps.clone();
        let prior = done.clone();
        use_effect_with((props.params.clone(), n), move |(p, n)| {
            let task = (*n < caps.len()).then(|| {
                let (p, k) = (p.clone(), *n);
                Timeout::new(0, move || {
                    let mut pts = prior;
                    pts.push(tuner_at(&p, mode, caps[k]));
                    acc.set((Some(p), Rc::new(pts)));
                })
            });
            move || drop(task)
        });
    }
    let body = if let Some(t) = props.fixed {
        html! {
            <p id="tuner-best">{tuner_fixed(t)}</p>
        }
    } else if n < caps.len() {
        html! {
            <div role="status" aria-busy="true" class="computing-line">
                <p>{tuner_progress(n, caps.len())}</p>
                <progress max={caps.len().to_string()} value={n.to_string()} aria-label="Tuner progress"></progress>
            </div>
        }
    } else {
        match done
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map(tuner_from)
        {
            Err(e) => html! { <p class="field-error">{e}</p> },
            Ok(None) => html! { <p class="field-error">{"No caps were timed."}</p> },
            Ok(Some(t)) => {
                let svg = AttrValue::from(draw_tuner(&t).unwrap_or_else(|e| format!("<p>{e}</p>")));
                let table = Rc::new(tuner_table(&t));
                let verdict = tuner_verdict(&t);
                html! {<>
                    <p id="tuner-best">{verdict}</p>
                    {chart_box(&ChartBoxProps { label: "Step time against the bucket cap".into(), svg: svg.clone(), id: Some("tuner-chart".into()), ..ChartBoxProps::default() })}
                    <DataTableView id="tuner-data" table={table} svg={Some(svg)} />
                </>}
            }
        }
    };
    html! {
        <section class="panel" id="tuner" aria-labelledby="tuner-h">
            <h2 class="panel-h" id="tuner-h">{"Bucket tuner"}</h2>
            if mode == Sharding::Zero2 {
                <p class="muted">{TUNER_ZERO2}</p>
            }
            {body}
            if props.fixed.is_none() {
            <p class="muted">{tuner_foot(mode)}</p>
            }
        </section>
    }
}
