//! The two charts of the view, drawn by [`crate::plot::measure`] from what
//! the core computed.

use std::rc::Rc;

use yew::prelude::*;

use super::state::MeasureState;
use crate::app::components::chart_box::{chart_box, ChartBoxProps};
use crate::app::components::data_table::DataTableView;
use crate::export::series::xy_series;
use crate::plot::measure::{draw_bandwidths, draw_time, Points};

/// Props of [`MeasureCharts`].
#[derive(Properties, PartialEq)]
pub struct MeasureChartsProps {
    /// The view state.
    pub state: Rc<MeasureState>,
}

/// A chart panel with its "Data" table (`y` names the value column).
fn panel(
    id: &'static str,
    title: &'static str,
    svg: Result<String, String>,
    y: &str,
    data: &[Points],
) -> Html {
    html! {
        <section class="panel wide chart-panel" id={id}>
            <h3>{title}</h3>
            { match svg {
                // The SVG is plotters' output: every text node is escaped by plotters-svg.
                Ok(s) => {
                    let svg = AttrValue::from(s);
                    let table = Rc::new(xy_series(title, "size (B)", y, data));
                    html! {
                        <>
                            {chart_box(&ChartBoxProps { label: title.into(), svg: svg.clone(), ..ChartBoxProps::default() })}
                            <DataTableView id={format!("{id}-data")} {table} svg={Some(svg)} />
                        </>
                    }
                }
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
    let times = log.time_points();
    let alg = log.check_points(&la.checks, |c| c.algbw);
    let bus = log.check_points(&la.checks, |c| c.busbw);
    // The data tables: measured points, then the fitted curve and every
    // model's prediction (time); algbw then busbw (bandwidths).
    let mut time_data = times.clone();
    if let Some(c) = la.curves.as_ref() {
        time_data.push(("fitted model".into(), c.fitted.clone()));
        time_data.extend(
            c.models
                .iter()
                .map(|(m, pts)| (format!("{} at the fitted α, β", m.label()), pts.clone())),
        );
    }
    let label = |kind: &str, v: &[Points]| -> Vec<Points> {
        v.iter()
            .map(|(l, pts)| (format!("{kind}, {l}"), pts.clone()))
            .collect()
    };
    let mut bw_data = label("algbw", &alg);
    bw_data.extend(label("busbw", &bus));
    html! {
        <>
            {panel("chart-time", "Time vs size (log–log)", draw_time(&times, la.curves.as_ref()), "time (s)", &time_data)}
            {panel("chart-bw", "algbw and busbw vs size", draw_bandwidths(&alg, &bus, s.settings.line_rate), "bandwidth (B/s)", &bw_data)}
        </>
    }
}
