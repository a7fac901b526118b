//! The eigenvalues of W and the disagreement per round (plotters SVG from the core's numbers).

use yew::prelude::*;

use super::SharedRun;
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
    html! {
        <>
            <section class="panel wide" aria-labelledby="eig-h">
                <h2 class="panel-h" id="eig-h">{"Eigenvalues of W"}</h2>
                if spec.eigenvalues.is_empty() {
                    <p class="muted" id="eig-none">{"No eigenvalue chart at this size: only ρ was computed (the full spectrum of a graph this large takes too long in the browser)."}</p>
                } else {
                    <div class="chart-box" style={if spec.real { "" } else { "max-width:480px" }}>{Html::from_html_unchecked(props.eig_svg.clone())}</div>
                }
                <p class="muted">
                    {format!("{} ({}). ρ is the largest |λ| once the eigenvalue 1 of the consensus direction is set aside; the shaded band is the gap 1 − ρ.",
                        spec.method.describe(), if spec.real { "all real" } else { "complex: W is not symmetric" })}
                </p>
            </section>
            <section class="panel wide" aria-labelledby="dis-h">
                <h2 class="panel-h" id="dis-h">{"Disagreement per round (log scale)"}</h2>
                <div class="chart-box">{Html::from_html_unchecked(AttrValue::from(dis_svg))}</div>
                if !spec.bound_guaranteed {
                    <p class="muted">{"The dashed line is only the asymptotic rate here: the ρʳ bound holds for doubly stochastic normal (symmetric or circulant) W."}</p>
                }
            </section>
        </>
    }
}
