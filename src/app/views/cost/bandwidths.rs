//! algbw and busbw as nccl-tests prints them, for the fastest or a chosen
//! algorithm (numbers from the core's `nccl_bandwidths`).

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::select_field::{select_field, SelectFieldProps};
use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::nccl_bandwidths;

/// Props of [`bandwidth_panel`].
#[derive(PartialEq)]
pub struct BandwidthPanelProps {
    /// Every algorithm with its formula evaluated.
    pub table: Rc<Vec<(Algorithm, Formula)>>,
    /// The algorithm picked in the menu (`None` = the fastest).
    pub alg: Option<Algorithm>,
    /// The fastest algorithm.
    pub winner: Algorithm,
    /// Ranks.
    pub p: usize,
    /// Message bytes.
    pub n: f64,
    /// Called with the picked algorithm's key ("" = the fastest).
    pub on_alg: Callback<String>,
}

/// The algbw / busbw panel.
pub fn bandwidth_panel(props: &BandwidthPanelProps) -> Html {
    let (table, winner, p, n) = (&props.table, props.winner, props.p, props.n);
    let chosen = props.alg.unwrap_or(winner);
    let mut options: Vec<(AttrValue, AttrValue)> = vec![(
        "".into(),
        format!("fastest ({})", winner.short_label()).into(),
    )];
    options.extend(
        Algorithm::compared()
            .iter()
            .map(|a| (a.key().into(), a.short_label().into())),
    );
    let chosen_f = table
        .iter()
        .find(|(a, _)| *a == chosen)
        .map(|(_, f)| f.clone());
    let bw_panel = chosen_f.map(|f| {
        let nb = nccl_bandwidths(n, f.time, p);
        html! {
            <>
                <p id="algbw">{nb.lines.first().cloned().unwrap_or_default()}</p>
                <p id="busbw">{nb.lines.get(1).cloned().unwrap_or_default()}</p>
            </>
        }
    });
    html! {
        <section class="panel" aria-labelledby="bw-h">
            <h2 class="panel-h" id="bw-h">{"algbw and busbw (nccl-tests)"}</h2>
            {select_field(&SelectFieldProps { name: "alg".into(), label: "Algorithm".into(), options, selected: (props.alg.map_or("", Algorithm::key)).into(), on_commit: props.on_alg.clone(), error: None, class: Classes::new() })}
            {for bw_panel}
            <p class="muted">{"algbw = S/t and busbw = algbw · 2(p−1)/p, as nccl-tests prints them, so a measured all_reduce_perf line can be compared directly. \
                busbw approaches 1/β for a bandwidth-optimal algorithm."}</p>
        </section>
    }
}
