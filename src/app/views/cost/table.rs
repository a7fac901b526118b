//! The table of closed-form all-reduce times at the current n and p: each
//! algorithm's formula, start-ups, α, β (and γ) parts and total; the fastest
//! highlighted.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::downloads::Downloads;
use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::CostParams;
use crate::core::units::decimal;
use crate::core::units::format_both as both;
use crate::core::units::format_time;
use crate::export::series::cost::cost_formulas;
use crate::pages::cost::why_fastest;
use crate::plot::cost::colour_hex;

/// Props of [`cost_table`].
#[derive(PartialEq)]
pub struct CostTableProps {
    /// Every algorithm with its formula evaluated, from the core.
    pub table: Rc<Vec<(Algorithm, Formula)>>,
    /// The fastest algorithm at n.
    pub winner: Algorithm,
    /// The model (α, β, γ).
    pub model: CostParams,
    /// Ranks.
    pub p: usize,
    /// Message bytes.
    pub n: f64,
    /// The label that says this is the textbook model, when a protocol
    /// panel above gives the page's answer
    /// ([`crate::pages::cost::protocol::textbook_note`]).
    pub textbook: Option<&'static str>,
}

/// The "All-reduce time" panel.
pub fn cost_table(props: &CostTableProps) -> Html {
    let (table, winner, model, p, n) = (&props.table, props.winner, props.model, props.p, props.n);
    let with_gamma = model.gamma != 0.0;
    let rows = table.iter().map(|(a, f)| {
        let win = *a == winner;
        html! {
            <tr key={a.key()} id={format!("row-{}", a.key())} class={classes!(win.then_some("winner"))}>
                <th scope="row">
                    <span class="swatch" aria-hidden="true" style={format!("display:inline-block;width:12px;height:12px;border-radius:3px;background:{}", colour_hex(*a))}></span>
                    {" "}{a.short_label()}
                    if win { <span class="badge">{" (fastest)"}</span> }
                </th>
                <td><code>{f.expression.clone()}</code><br/>
                    <small class={classes!("muted", f.pow2_adapted.then_some("adapted"))}>{f.label.clone()}</small></td>
                <td>{format!("{}", decimal::fixed(f.startups, 0))}</td>
                <td id={format!("alpha-{}", a.key())}>{format_time(f.alpha_part)}</td>
                <td id={format!("beta-{}", a.key())}>{format_time(f.beta_part)}</td>
                if with_gamma { <td id={format!("gamma-{}", a.key())}>{format_time(f.gamma_part)}</td> }
                <td id={format!("time-{}", a.key())}><strong>{format_time(f.time)}</strong></td>
            </tr>
        }
    });
    let winner_time = table
        .iter()
        .find(|(a, _)| *a == winner)
        .map_or(0.0, |(_, f)| f.time);
    let any_adapted = table.iter().any(|(_, f)| f.pow2_adapted);
    let unsegmented = table
        .iter()
        .any(|(a, _)| *a == Algorithm::PTREE || *a == Algorithm::DBTREE);
    html! {
        <section class="panel wide" aria-labelledby="table-h">
            <h2 class="panel-h" id="table-h">{format!("All-reduce time at n = {}, p = {p}", both(n))}</h2>
            if let Some(note) = props.textbook {
                <p class="muted" id="textbook-note">{note}</p>
            }
            <p id="winner"><strong>{format!("{} at {}: {}, {}.",
                if props.textbook.is_some() { "Fastest in the textbook model" } else { "Fastest" },
                both(n), winner.short_label(), format_time(winner_time))}</strong></p>
            if let Some(why) = why_fastest(table, n) {
                <p id="why">{why}</p>
            }
            <div class="table-scroll" role="region" tabindex="0" aria-label="All-reduce times (scrollable table)">
                <table class="numbers cost-table">
                    <thead><tr>
                        <th>{"algorithm"}</th><th>{"formula"}</th><th>{"start-ups"}</th>
                        <th>{"α part"}</th><th>{"β part"}</th>
                        if with_gamma { <th>{"γ part"}</th> }
                        <th>{"time T"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <Downloads table={Some(Rc::new(cost_formulas(table)))} />
            if any_adapted {
                <p class="muted">{"p is not a power of two, so recursive doubling and Rabenseifner use the fold-in / unfold adaptation: \
                    the extra ranks hand their data to a partner in the largest power-of-two subset first and get the result back at the end, \
                    two more full-message steps. The label under each formula says which form was used."}</p>
            }
            if unsegmented {
                <p class="muted" id="unsegmented-note">{"The pipelined and double binary trees are timed here unsegmented (k = 1 piece per message), \
                    their slowest form. Pipelined in k pieces they approach 3nβ and 2nβ: the "}
                    <a href="?view=timeline&alg=dbtree&p=16&size=64MB&segments=256">{"timeline view"}</a>
                    {" times them piece by piece, and its pipelining panel sweeps k."}</p>
            }
        </section>
    }
}
