//! The comparison table: one row per topology algorithm on the current
//! topology (executed time, closed form, bytes per NIC, bytes over the
//! core, inter-node start-ups, busiest link, algbw, busbw) and the
//! sentence naming the bottleneck. Every cell comes from the core.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::downloads::Downloads;
use crate::export::DataTable;

use crate::core::collectives::Algorithm;

/// One row, formatted.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    /// The algorithm.
    pub alg: Algorithm,
    /// Executed time, or why the algorithm does not apply.
    pub time: String,
    /// Closed form ("—" when there is none).
    pub closed: String,
    /// Bytes on the busiest NIC direction.
    pub nic: String,
    /// Bytes over the rack core.
    pub core: String,
    /// Inter-node start-ups.
    pub startups: String,
    /// Busiest link.
    pub busiest: String,
    /// algbw.
    pub algbw: String,
    /// busbw.
    pub busbw: String,
    /// True for the fastest row.
    pub fastest: bool,
}

/// Props of [`compare_panel`].
#[derive(PartialEq)]
pub struct CompareProps {
    /// Rows in table order.
    pub rows: Vec<CompareRow>,
    /// The same rows at full precision, for the CSV download.
    pub table: Rc<DataTable>,
    /// The algorithm being stepped.
    pub current: Algorithm,
    /// The bottleneck sentence.
    pub bottleneck: AttrValue,
    /// Called when a row's button is pressed.
    pub on_pick: Callback<Algorithm>,
}

/// The table.
pub fn compare_panel(props: &CompareProps) -> Html {
    let rows = props.rows.iter().map(|r| {
        let here = r.alg == props.current;
        let cb = props.on_pick.clone();
        let alg = r.alg;
        let onclick = Callback::from(move |_: MouseEvent| cb.emit(alg));
        html! {
            <tr id={format!("row-{}", r.alg.topology_info().key)} class={classes!(r.fastest.then_some("winner"), here.then_some("current"))}>
                <th scope="row">
                    <button type="button" class="link-button" {onclick} aria-pressed={here.to_string()}>{r.alg.topology_info().short_label}</button>
                    if r.fastest { <span class="badge">{" fastest"}</span> }
                </th>
                <td class="time">{r.time.clone()}</td>
                <td class="closed" title={r.closed.starts_with("none").then_some(
                    "No exact closed form is claimed on this topology: the fold-in/out rounds of recursive doubling \
                     among a non-power-of-two number of leaders only add time, so the cost model gives a lower bound.")}>
                    {r.closed.clone()}</td>
                <td class="nic">{r.nic.clone()}</td>
                <td class="core">{r.core.clone()}</td>
                <td class="startups">{r.startups.clone()}</td>
                <td class="busiest">{r.busiest.clone()}</td>
                <td class="algbw">{r.algbw.clone()}</td>
                <td class="busbw">{r.busbw.clone()}</td>
            </tr>
        }
    });
    html! {
        <section class="panel wide" aria-labelledby="topo-compare-h">
            <h2 class="panel-h" id="topo-compare-h">{"All algorithms on this topology"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="All algorithms on this topology (scrollable table)">
                <table class="numbers" id="compare">
                    <thead><tr>
                        <th scope="col">{"algorithm"}</th>
                        <th scope="col">{"executed time"}</th>
                        <th scope="col">{"closed form"}</th>
                        <th scope="col">{"bytes per NIC (busiest direction)"}</th>
                        <th scope="col">{"bytes over the core"}</th>
                        <th scope="col">{"inter-node start-ups"}</th>
                        <th scope="col">{"busiest link"}</th>
                        <th scope="col">{"algbw"}</th>
                        <th scope="col">{"busbw"}</th>
                    </tr></thead>
                    <tbody>{for rows}</tbody>
                </table>
            </div>
            <Downloads table={Some(props.table.clone())} />
            <p id="bottleneck">{props.bottleneck.clone()}</p>
            <p class="muted">{"algbw = tensor bytes ÷ executed time; busbw = algbw × 2(p−1)/p (nccl-tests, PERFORMANCE.md)."}</p>
        </section>
    }
}
