//! The two charts of the view, drawn by [`crate::plot::measure`] from what
//! the core computed.

use std::rc::Rc;

use yew::prelude::*;

use super::state::MeasureState;
use crate::plot::measure::{draw_bandwidths, draw_time, Points};

/// Props of [`MeasureCharts`].
#[derive(Properties, PartialEq)]
pub struct MeasureChartsProps {
    /// The view state.
    pub state: Rc<MeasureState>,
}

fn panel(id: &'static str, title: &'static str, svg: Result<String, String>) -> Html {
    html! {
        <section class="panel wide chart-panel" id={id}>
            <h3>{title}</h3>
            { match svg {
                // The SVG is plotters' output: every text node is escaped by plotters-svg.
                Ok(s) => Html::from_html_unchecked(AttrValue::from(s)),
                Err(e) => html!{ <p class="hint">{e}</p> },
            } }
        </section>
    }
}

/// Time vs size with the fit, and algbw/busbw vs size.
#[component]
pub fn MeasureCharts(props: &MeasureChartsProps) -> Html {
    let s = &props.state;
    let (Ok(imp), Some(la)) = (&s.analysis.import, &s.analysis.log) else {
        return html! {};
    };
    let Some(log) = imp.logs.get(la.index) else {
        return html! {};
    };
    let times: Vec<Points> = log
        .series
        .iter()
        .map(|sr| {
            (
                sr.label.clone(),
                sr.rows
                    .iter()
                    .map(|r| (r.size.value, r.time.value))
                    .collect(),
            )
        })
        .collect();
    let pick = |f: fn(&crate::core::measure::checks::RowCheck) -> f64| -> Vec<Points> {
        log.series
            .iter()
            .zip(&la.checks.rows)
            .map(|(sr, rc)| {
                (
                    sr.label.clone(),
                    sr.rows
                        .iter()
                        .zip(rc)
                        .map(|(r, c)| (r.size.value, f(c)))
                        .collect(),
                )
            })
            .collect()
    };
    let alg = pick(|c| c.algbw);
    let bus = pick(|c| c.busbw);
    html! {
        <>
            {panel("chart-time", "Time vs size (log–log)", draw_time(&times, la.curves.as_ref()))}
            {panel("chart-bw", "algbw and busbw vs size", draw_bandwidths(&alg, &bus, s.settings.line_rate))}
        </>
    }
}
