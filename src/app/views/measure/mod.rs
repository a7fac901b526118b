//! `?view=measure`: paste a real nccl-tests, OSU or CSV log, check its
//! bandwidths row by row, fit α and β under an algorithm model, and hand the
//! fit to the cost model. Nothing leaves the page: files are read with the
//! browser's File API and every computation is the core's
//! ([`crate::core::measure`]). No URL parameters except `example=` (a key of
//! [`crate::core::measure::synthetic::examples`]) to open with an example.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::route::ViewProps;

pub mod charts;
pub mod csv_link;
pub mod fit_panel;
pub mod input;
pub mod joint_panel;
pub mod logs_panel;
pub mod nccl_panel;
pub mod regime_panel;
pub mod report;
pub mod state;
pub mod table;
pub mod units;

use charts::MeasureCharts;
use fit_panel::fit_panel;
use input::InputPanel;
use joint_panel::{joint_panel, JointPanelProps};
use logs_panel::{logs_panel, LogsPanelProps};
use nccl_panel::nccl_panel;
use regime_panel::regime_panel;
use report::parse_report;
use state::{Action, MeasureState, PanelProps};
use table::RowsTable;
use units::unit_picker;

/// True when the selected log was read as generic columns (the only format
/// whose units the user may need to choose).
fn is_generic(s: &MeasureState) -> bool {
    let generic = crate::core::measure::Format::Generic;
    match (&s.analysis.import, &s.analysis.log) {
        (Ok(imp), Some(la)) => imp.logs.get(la.index).is_some_and(|l| l.format == generic),
        _ => false,
    }
}

/// The measure view.
#[component]
pub fn MeasureView(props: &ViewProps) -> Html {
    let example = props.query.get("example").map(str::to_string);
    let example_key = example.clone().map(AttrValue::from);
    let state = use_reducer(move || {
        let s = Rc::new(MeasureState::default());
        match example {
            Some(k) => (*yew::Reducible::reduce(s, Action::LoadExample(k))).clone(),
            None => (*s).clone(),
        }
    });
    let on_action = {
        let state = state.clone();
        Callback::from(move |a: Action| state.dispatch(a))
    };
    let on_text = on_action.reform(|(t, src): (String, String)| Action::SetText(t, src));
    let on_example = on_action.reform(Action::LoadExample);
    let snapshot: Rc<MeasureState> = Rc::new((*state).clone());
    let shown = snapshot.shown();
    let ctx = &props.ctx;
    html! {
        <div class="view view-measure">
            {ctx.panel("title", html! { <h1>{"Measured logs"}</h1> })}
            {ctx.panel("input", html! {
                <InputPanel text={snapshot.text.clone()} source={snapshot.source.clone()} on_text={on_text} on_example={on_example} example={example_key} error={snapshot.error("example")} />
            })}
            if !ctx.shows("input") {
                if let Some(e) = snapshot.error("example") {
                    <p class="field-error" role="alert">{e}</p>
                }
            }
            {ctx.panel("report", html! { {parse_report(&PanelProps { state: snapshot.clone(), on_action: on_action.clone() })} })}
            if is_generic(&snapshot) {
                {ctx.panel("units", html! { {unit_picker(&PanelProps { state: snapshot.clone(), on_action: on_action.clone() })} })}
            }
            {logs_panel(&LogsPanelProps { analysis: shown.analysis.clone() })}
            {joint_panel(&JointPanelProps { analysis: shown.analysis.clone() })}
            {ctx.panel("regimes", regime_panel(&shown, &on_action))}
            {ctx.panel("nccl", nccl_panel(&shown.analysis))}
            if shown.analysis.log.is_some() {
                {ctx.panel("fit", html! { {fit_panel(&PanelProps { state: shown.clone(), on_action: on_action.clone() })} })}
                {ctx.panel("charts", html! { <MeasureCharts state={shown.clone()} /> })}
                {ctx.panel("table", html! { <RowsTable state={shown.clone()} on_action={on_action} /> })}
            }
        </div>
    }
}
