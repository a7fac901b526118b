//! "Show the calculation": each formula with p, α, β and n substituted,
//! step by step, as the core wrote it out.

use std::rc::Rc;

use yew::prelude::*;

use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::units::format_time;

/// Props of [`calculation_panel`].
#[derive(PartialEq)]
pub struct CalculationPanelProps {
    /// Every algorithm with its formula evaluated.
    pub table: Rc<Vec<(Algorithm, Formula)>>,
    /// The algorithm whose calculation is open.
    pub chosen: Algorithm,
}

/// The calculation panel.
pub fn calculation_panel(props: &CalculationPanelProps) -> Html {
    let (table, chosen) = (&props.table, props.chosen);
    let calcs = table.iter().map(|(a, f)| {
        html! {
            <details key={a.key()} id={format!("calc-{}", a.key())} open={*a == chosen}>
                <summary>{format!("{} — {}", a.short_label(), format_time(f.time))}</summary>
                <pre class="calc">{f.substituted.join("\n")}</pre>
            </details>
        }
    });
    html! {
        <section class="panel" aria-labelledby="calc-h">
            <h2 class="panel-h" id="calc-h">{"Show the calculation"}</h2>
            <p class="muted">{"Each formula with p, α, β and n substituted, step by step."}</p>
            { for calcs }
        </section>
    }
}
