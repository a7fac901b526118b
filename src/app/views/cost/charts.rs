//! One chart panel of the cost view: the SVG, or the message of a chart
//! that could not be drawn plus the last good SVG.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::chart_box::{chart_box, ChartBoxProps};

use crate::app::components::data_table::DataTableView;
use crate::export::DataTable;

/// Props of [`ChartPanel`].
#[derive(Properties, PartialEq)]
pub struct ChartPanelProps {
    /// Element id of the chart box.
    pub id: AttrValue,
    /// Heading (also the chart's accessible name).
    pub title: AttrValue,
    /// The SVG, or why it could not be drawn.
    pub result: Result<String, String>,
    /// The last SVG of this chart that was drawn.
    #[prop_or_default]
    pub last_good: Option<String>,
    /// The plotted values (shown as a "Data" table with downloads).
    pub table: Rc<DataTable>,
}

/// A chart panel.
#[component]
pub fn ChartPanel(props: &ChartPanelProps) -> Html {
    let id = props.id.clone();
    let title = props.title.clone();
    let (svg, error) = match &props.result {
        Ok(svg) => (Some(svg.clone()), None),
        Err(e) => (props.last_good.clone(), Some(e.clone())),
    };
    html! {
        <section class="panel wide chart-panel" aria-labelledby={format!("{id}-h")}>
            <h2 class="panel-h" id={format!("{id}-h")}>{title.clone()}</h2>
            if let Some(e) = error.clone() {
                <p class="field-error" role="alert">{format!("This chart could not be drawn: {e}. Showing the last good chart.")}</p>
            }
            if let Some(s) = svg.clone() {
                {chart_box(&ChartBoxProps { id: Some(id.clone().into()), label: title.into(), svg: AttrValue::from(s), ..ChartBoxProps::default() })}
            }
            if error.is_none() {
                <DataTableView id={format!("{id}-data")} table={props.table.clone()} svg={svg.map(AttrValue::from)} />
            }
        </section>
    }
}
