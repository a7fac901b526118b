//! The pipelining panel: the dataflow time of the case on screen against
//! the number of segments k, the best k, and the basic tree's closed form
//! against the pipelined tree, the double tree and the ring, each at its
//! best k. Everything comes from [`crate::core::collectives::pipelining`]; the
//! sweep runs after the first paint when it is large.

use yew::prelude::*;

use crate::app::components::computing::Computing;
use crate::app::hooks::{use_deferred, Deferred};
use crate::core::collectives::pipelining::{compare, sweep, work, Case, Comparison, Sweep};
use crate::core::cost::CostParams;
use crate::core::units::format_time;
use crate::params::ring::ELEM_BYTES;
use crate::params::timeline::TimelineParams;

/// Props of [`PipeliningPanel`].
#[derive(Properties, PartialEq)]
pub struct PipeliningPanelProps {
    /// The case (its cursor is ignored).
    pub params: TimelineParams,
    /// Messages of the current schedule (for the work estimate).
    pub messages: u64,
}

fn best_text(s: &Sweep) -> String {
    match s.best {
        Some((k, t)) => format!("{} {} (k = {k})", s.alg.short_label(), format_time(t)),
        None => format!("{} — (does not complete)", s.alg.short_label()),
    }
}

fn comparison_line(c: &Comparison) -> String {
    let mut parts = vec![format!(
        "basic tree formula 2⌈log₂p⌉(α + nβ): {}",
        format_time(c.tree_formula)
    )];
    parts.extend(c.sweeps.iter().map(best_text));
    parts.extend(
        c.missing
            .iter()
            .map(|k| format!("{k}: not in this build's registry")),
    );
    format!("{} (dataflow, each at its best k).", parts.join("; "))
}

/// `#pipelining`.
#[component]
pub fn PipeliningPanel(props: &PipeliningPanelProps) -> Html {
    let p = &props.params;
    let result = use_deferred(
        p.clone(),
        work(props.messages, true),
        |p: &TimelineParams| {
            let topo = p.topology();
            let faults = p.faults();
            let case = Case {
                topo: &topo,
                n: p.elements().max(1),
                elem_bytes: ELEM_BYTES,
                gamma: p.gamma.value,
                faults: &faults,
            };
            let link = p.flat_link();
            let c = CostParams::new(link.alpha, link.beta()).with_gamma(p.gamma.value);
            let cmp = compare(&case, c);
            // The comparison's sweep of the same algorithm is reused.
            let own = cmp.sweeps.iter().find(|s| s.alg == p.alg).cloned();
            (own.unwrap_or_else(|| sweep(p.alg, &case)), cmp)
        },
    );
    let body = match result {
        Deferred::Pending => {
            return html! { <Computing what="the segment sweep (dataflow, k = 1 … 256)" /> }
        }
        Deferred::Ready(v) => {
            let (s, c) = &*v;
            let best = s.best.map(|b| b.0);
            let rows = s.points.iter().map(|pt| {
                let here = Some(pt.k) == best;
                html! {
                    <tr class={classes!(here.then_some("winner"))}>
                        <th scope="row">{pt.k}</th>
                        <td>{pt.time.map_or_else(|| "— (skipped: too many pieces, or stalls)".to_string(), format_time)}</td>
                        <td>{if here { "best" } else { "" }}</td>
                    </tr>
                }
            });
            html! {
                <>
                    <div class="table-scroll" role="region" tabindex="0" aria-label="Time against segments (scrollable table)">
                        <table class="numbers" id="sweep">
                            <thead><tr><th scope="col">{"segments k"}</th><th scope="col">{format!("{} (dataflow)", s.alg.short_label())}</th><th scope="col"></th></tr></thead>
                            <tbody>{ for rows }</tbody>
                        </table>
                    </div>
                    <p id="tree-compare">{comparison_line(c)}</p>
                </>
            }
        }
    };
    html! {
        <section class="panel" id="pipelining" aria-labelledby="pipe-h">
            <h2 class="panel-h" id="pipe-h">{"Pipelining: time against segments"}</h2>
            {body}
            <p class="muted">{"Each message travels as k pieces; a rank forwards a piece as soon as it holds it, \
                and every piece pays α. Points above 100,000 pieces are skipped."}</p>
        </section>
    }
}
