//! The sweep charts (plotters SVG strings drawn by
//! [`crate::plot::topology`]): time vs GPUs per node and time vs size.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::chart_box::{chart_box, ChartBoxProps};

use super::compare_model::SweepChart;
use crate::app::components::data_table::DataTableView;

/// Props of [`sweep_charts`].
#[derive(PartialEq)]
pub struct SweepsProps {
    /// Time vs GPUs per node: the SVG and its data, or why it is missing.
    pub gpus: Rc<SweepChart>,
    /// Time vs message size.
    pub sizes: Rc<SweepChart>,
}

fn chart(id: &'static str, r: &SweepChart) -> Html {
    match r {
        Ok((svg, table)) => {
            let svg = AttrValue::from(svg.clone());
            html! {
                <>
                    {chart_box(&ChartBoxProps { id: Some(id.into()), label: table.caption.clone().into(), svg: svg.clone(), ..ChartBoxProps::default() })}
                    <DataTableView id={format!("{id}-data")} table={Rc::new(table.clone())} svg={Some(svg)} />
                </>
            }
        }
        Err(e) => html! { <p class="notice" id={id}>{format!("No chart: {e}.")}</p> },
    }
}

/// Both charts with their reading notes.
pub fn sweep_charts(props: &SweepsProps) -> Html {
    html! {
        <section class="panel wide" aria-labelledby="topo-sweep-h">
            <h2 class="panel-h" id="topo-sweep-h">{"Sweeps: every algorithm, executed on this topology"}</h2>
            {chart("sweep-gpus", &props.gpus)}
            <p class="muted">
                {"Every node has one NIC per GPU here. A schedule that gives each GPU its own inter-node slice (multi-lane) \
                  spreads the inter-node bytes over more NICs as GPUs per node grow, so it gets faster; one that funnels them \
                  through one NIC per node (the flat ring at each node boundary, a single leader per node) does not. \
                  Algorithms that do not apply to a shape are left out at that point."}
            </p>
            {chart("sweep-sizes", &props.sizes)}
            <p class="muted">{"Small messages are dominated by start-ups (α per round), large ones by the busiest link."}</p>
        </section>
    }
}
