//! Crossovers: the fastest algorithm on each range of n, and the written-out
//! break-even calculation between neighbouring winners.

use std::rc::Rc;

use yew::prelude::*;

use crate::core::collectives::compare::{crossover_calculation, Interval};
use crate::core::cost::CostParams;
use crate::core::units::format_both as both;
use crate::pages::cost::PairCrossover;
use crate::plot::cost::colour_hex;

fn interval_text(iv: &Interval) -> String {
    let to = if iv.to.is_finite() {
        both(iv.to)
    } else {
        "∞".to_string()
    };
    format!("{} – {}: {}", both(iv.from), to, iv.best.short_label())
}

/// Props of [`crossovers_panel`].
#[derive(PartialEq)]
pub struct CrossoversPanelProps {
    /// The fastest algorithm per size range, from the core.
    pub intervals: Rc<Vec<Interval>>,
    /// Ranks.
    pub p: usize,
    /// The model.
    pub model: CostParams,
    /// The crossover `cross=` asks about, named first.
    pub pair: Option<PairCrossover>,
}

/// The crossovers panel.
pub fn crossovers_panel(props: &CrossoversPanelProps) -> Html {
    let (intervals, p, model) = (&props.intervals, props.p, props.model);
    let iv_items = intervals.iter().map(|iv| {
        html! { <li style={format!("border-left: 6px solid {}; padding-left: 6px", colour_hex(iv.best))}>{interval_text(iv)}</li> }
    });
    let cross_calcs: Vec<Html> = intervals
        .windows(2)
        .filter_map(|w| crossover_calculation(w[0].best, w[1].best, p, model))
        .map(|lines| html! { <pre class="calc">{lines.join("\n")}</pre> })
        .collect();
    html! {
        <section class="panel" aria-labelledby="cross-h">
            <h2 class="panel-h" id="cross-h">{"Crossovers"}</h2>
            if let Some(pair) = &props.pair {
                <div id="pair-crossover">
                    <p><strong>{&pair.text}</strong></p>
                    if !pair.calculation.is_empty() {
                        <pre class="calc">{pair.calculation.join("\n")}</pre>
                    }
                    if let Some(never) = &pair.never_fastest {
                        <p id="pair-never">{never}</p>
                    }
                </div>
            }
            <p class="muted">{"Every cost is a straight line in n, so two algorithms break even at exactly one size. The fastest algorithm on each range of n:"}</p>
            <ul class="intervals" id="intervals">{ for iv_items }</ul>
            { for cross_calcs }
            <p class="muted">{"These thresholds belong to these parameters and this model, not to every machine."}</p>
        </section>
    }
}
