//! The summary table: every algorithm generated, executed and verified at
//! the current parameters; a row's button switches the view to it.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::downloads::CsvDownload;
use crate::core::collectives::{Algorithm, AlgorithmSummary, ShownTimes, TimeAgreement};
use crate::core::units::{format_bytes_short, group_thousands};
use crate::export::series::collectives::collectives_summary;

/// Props of [`summary_table`].
#[derive(PartialEq)]
pub struct SummaryTableProps {
    /// One row per algorithm, from the core's `summary_table`.
    pub table: Rc<Vec<AlgorithmSummary>>,
    /// The algorithm shown.
    pub alg: Algorithm,
    /// Ranks.
    pub p: usize,
    /// Tensor bytes.
    pub bytes: u64,
    /// Called with the algorithm of a clicked row.
    pub on_pick: Callback<Algorithm>,
}

fn agree_cell(shown: &ShownTimes, row: &AlgorithmSummary) -> Html {
    if shown.agreement == TimeAgreement::Equal {
        return html! {{shown.cell()}};
    }
    html! {
        <span title={row.difference.clone().unwrap_or_default()}>{shown.cell()}</span>
    }
}

/// The "All algorithms" panel (`#summary`).
pub fn summary_table(props: &SummaryTableProps) -> Html {
    let rows = props.table.iter().map(|row| {
        let a = row.alg;
        let here = a == props.alg;
        let pick = props.on_pick.reform(move |_: MouseEvent| a);
        // Both times and the verdict from one comparison (`ShownTimes`).
        let shown = row.shown();
        html! {
            <tr key={a.key()} id={format!("row-{}", a.key())} class={classes!(here.then_some("winner"))}>
                <th scope="row">
                    <button type="button" class="linkish" onclick={pick} aria-pressed={here.to_string()}>{a.label()}</button>
                </th>
                <td>{a.collective().label()}</td>
                <td class="rounds">{row.rounds}</td>
                <td class="bytes" title={format!("{} B", group_thousands(row.max_sent_bytes))}>{format_bytes_short(row.max_sent_bytes as f64)}</td>
                <td class="time">{shown.executed.clone()}</td>
                <td>{shown.closed_form.clone()}</td>
                <td class="agree">{agree_cell(&shown, row)}</td>
            </tr>
        }
    });
    let differing: Vec<(&'static str, String)> = props
        .table
        .iter()
        .filter(|r| !r.agrees())
        .map(|r| (r.alg.key(), r.difference.clone().unwrap_or_default()))
        .collect();
    html! {
        <section class="panel wide" aria-labelledby="summary-h">
            <h2 class="panel-h" id="summary-h">{format!("All algorithms at p = {}, n = {}", props.p, format_bytes_short(props.bytes as f64))}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="All algorithms (scrollable table)">
                <table class="numbers" id="summary">
                    <thead><tr>
                        <th scope="col">{"algorithm"}</th><th scope="col">{"collective"}</th>
                        <th scope="col">{"rounds"}</th><th scope="col">{"most bytes sent by one rank"}</th>
                        <th scope="col">{"time (executed)"}</th><th scope="col">{"time (closed form)"}</th>
                        <th scope="col">{"agree"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <CsvDownload table={Rc::new(collectives_summary(&props.table, props.p, props.bytes))} />
            if !differing.is_empty() {
                <ul class="muted" id="differences">
                    { for differing.iter().map(|(a, why)| html! { <li>{format!("{a}: {why}")}</li> }) }
                </ul>
            }
            <p class="muted">{"Every row is generated, executed and verified at these parameters. \
                all-reduce = reduce-scatter + all-gather = reduce + broadcast: compare the rs and ag rows with the ring, \
                and Rabenseifner's bytes with its rounds."}</p>
        </section>
    }
}
