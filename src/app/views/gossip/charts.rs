//! The eigenvalues of W and the disagreement per round (plotters SVG from the core's numbers).

use yew::prelude::*;

use crate::app::components::chart_box::{chart_box, ChartBoxProps};

use std::rc::Rc;

use super::SharedRun;
use crate::app::components::data_table::DataTableView;
use crate::export::series::gossip::{gossip_eigenvalues, gossip_rounds};
use crate::plot::gossip::draw_disagreement;

/// Props of [`GossipCharts`].
#[derive(Properties, PartialEq)]
pub struct GossipChartsProps {
    /// The computed run.
    pub run: SharedRun,
    /// The round shown.
    pub round: usize,
    /// The last round stepped to (the chart runs to it).
    pub last: usize,
    /// The eigenvalue chart (SVG), drawn once per W.
    pub eig_svg: AttrValue,
}

/// The two chart panels.
#[component]
pub fn GossipCharts(props: &GossipChartsProps) -> Html {
    let run = &props.run;
    let (round, last) = (props.round, props.last);
    let spec = &run.spectrum;
    let shown_rounds = &run.rounds[..=last.min(run.rounds.len() - 1)];
    let dis_svg = draw_disagreement(shown_rounds, round, spec.bound_guaranteed, run.factor)
        .unwrap_or_else(|e| format!("<p>{e}</p>"));
    // The tables change with the run and the last round, not with every step.
    let tables = use_memo((run.clone(), last), |(run, last)| {
        let shown = &run.rounds[..=(*last).min(run.rounds.len() - 1)];
        (
            Rc::new(gossip_rounds(shown, run.spectrum.bound_guaranteed)),
            Rc::new(gossip_eigenvalues(&run.spectrum)),
        )
    });
    let (dis_table, eig_table) = (tables.0.clone(), tables.1.clone());
    html! {
        <>
            <section class="panel wide" aria-labelledby="eig-h">
                <h2 class="panel-h" id="eig-h">{"Eigenvalues of W"}</h2>
                if spec.eigenvalues.is_empty() {
                    <p class="muted" id="eig-none">{"No eigenvalue chart at this size: only ρ was computed (the full spectrum of a graph this large takes too long in the browser)."}</p>
                } else {
                    {chart_box(&ChartBoxProps { label: "Eigenvalues of W".into(), svg: props.eig_svg.clone(), style: (!spec.real).then_some(AttrValue::from("max-width:480px")), ..ChartBoxProps::default() })}
                    <DataTableView id="eig-data" table={eig_table} svg={Some(props.eig_svg.clone())} />
                }
                <p class="muted">
                    {format!("{} ({}). ρ is the largest |λ| once the eigenvalue 1 of the consensus direction is set aside; the shaded band is the gap 1 − ρ.",
                        spec.method.describe(), if spec.real { "all real" } else { "complex: W is not symmetric" })}
                </p>
            </section>
            <section class="panel wide" aria-labelledby="dis-h">
                <h2 class="panel-h" id="dis-h">{"Disagreement per round (log scale)"}</h2>
                {chart_box(&ChartBoxProps { label: "Disagreement per round".into(), svg: AttrValue::from(dis_svg.clone()), ..ChartBoxProps::default() })}
                <DataTableView id="dis-data" table={dis_table} svg={Some(AttrValue::from(dis_svg))} />
                if !spec.bound_guaranteed {
                    <p class="muted">{"The dashed line is only the asymptotic rate here: the ρʳ bound holds for doubly stochastic normal (symmetric or circulant) W."}</p>
                }
            </section>
        </>
    }
}
