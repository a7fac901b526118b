//! All-reduce vs one gossip round on the same ring, from the core's
//! `gossip_contrast`, with a link to the gossip view on the same inputs.

use yew::prelude::*;

use crate::core::collectives::narrate::gossip_contrast;
use crate::core::units::format_exact_or_approx;

/// Props of [`gossip_contrast_panel`].
#[derive(PartialEq)]
pub struct GossipContrastProps {
    /// Ranks.
    pub p: usize,
}

/// The `#gossip-contrast` panel (empty when the core has no contrast for p).
pub fn gossip_contrast_panel(props: &GossipContrastProps) -> Html {
    let p = props.p;
    let Some(g) = gossip_contrast(p) else {
        return html! {};
    };
    let shown = p.min(8);
    let vals = |v: &[f64]| {
        let mut t: Vec<String> = v
            .iter()
            .take(shown)
            .map(|x| format_exact_or_approx(*x))
            .collect();
        if p > shown {
            t.push("…".into());
        }
        t.join(", ")
    };
    let init = g
        .inputs
        .iter()
        .map(|v| format_exact_or_approx(*v))
        .collect::<Vec<_>>()
        .join(",");
    html! {
        <section class="panel" aria-labelledby="gossip-h" id="gossip-contrast">
            <h2 class="panel-h" id="gossip-h">{"All-reduce vs one gossip round"}</h2>
            <p>{format!("Inputs {}. After one ring all-reduce and ÷ p every rank holds exactly {} (spread 0). \
                After one gossip round on the same ring (each rank averages itself and its two neighbours with weight 1/3) \
                the values are {}: spread {} instead of {}.",
                vals(&g.inputs), format_exact_or_approx(g.mean), vals(&g.after_one_round),
                format_exact_or_approx(g.spread_after), format_exact_or_approx(g.spread_before))}</p>
            <p><a href={format!("?view=gossip&graph=ring&p={p}&weights=uniform&init={init}")}>
                {"Watch gossip on a ring of the same size, from the same inputs →"}</a></p>
        </section>
    }
}
