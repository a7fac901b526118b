//! The sweep charts (plotters SVG strings drawn by
//! [`crate::plot::topology`]): time vs GPUs per node and time vs size.

use std::rc::Rc;

use yew::prelude::*;

/// Props of [`Sweeps`].
#[derive(Properties, PartialEq)]
pub struct SweepsProps {
    /// Time vs GPUs per node: the SVG, or why it is missing.
    pub gpus: Rc<Result<String, String>>,
    /// Time vs message size.
    pub sizes: Rc<Result<String, String>>,
}

fn chart(id: &'static str, r: &Result<String, String>) -> Html {
    match r {
        Ok(svg) => html! {
            <div class="chart-box" id={id}>{Html::from_html_unchecked(AttrValue::from(svg.clone()))}</div>
        },
        Err(e) => html! { <p class="notice" id={id}>{format!("No chart: {e}.")}</p> },
    }
}

/// Both charts with their reading notes.
#[component]
pub fn Sweeps(props: &SweepsProps) -> Html {
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
