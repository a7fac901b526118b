//! Bytes per rank so far, shared by the ring and collectives views: what the
//! executed schedule's transfers moved up to the current step.

use std::rc::Rc;

use yew::prelude::*;

use super::downloads::CsvDownload;
use crate::export::series::schedule::byte_counters;

use crate::core::units::{format_bytes_short, group_thousands};

/// Ranks listed before "Showing ranks 0–15".
pub const COUNTER_ROWS: usize = 16;

/// A column of per-rank bytes: heading and one count per rank.
pub type Column = (String, Vec<u64>);

/// Props of [`byte_counters_panel`].
#[derive(PartialEq)]
pub struct ByteCountersProps {
    /// Bytes sent by each rank so far (`#sent-r`).
    pub sent: Vec<u64>,
    /// Bytes received by each rank so far (`#recv-r`).
    pub recv: Vec<u64>,
    /// Columns before "sent" (e.g. sent per phase).
    pub before: Vec<Column>,
    /// Columns after "received" (e.g. what is counted).
    pub after: Vec<Column>,
    /// Span the whole width.
    pub wide: bool,
    /// Totals and notes under the table.
    pub children: Html,
}

/// The per-rank byte counters panel.
pub fn byte_counters_panel(props: &ByteCountersProps) -> Html {
    let p = props.sent.len();
    let cells = |cols: &[Column], r: usize| -> Html {
        cols.iter()
            .map(|(_, v)| html! { <td>{format_bytes_short(v.get(r).copied().unwrap_or(0) as f64)}</td> })
            .collect()
    };
    let heads = |cols: &[Column]| -> Html {
        cols.iter()
            .map(|(h, _)| html! { <th scope="col">{h.clone()}</th> })
            .collect()
    };
    let table = Rc::new(byte_counters(
        &props.sent,
        &props.recv,
        &props.before,
        &props.after,
    ));
    let rows = (0..p.min(COUNTER_ROWS)).map(|r| {
        let sent = props.sent[r];
        let recv = props.recv.get(r).copied().unwrap_or(0);
        html! {
            <tr key={r}>
                <th scope="row">{format!("rank {r}")}</th>
                {cells(&props.before, r)}
                <td id={format!("sent-{r}")} title={format!("{} B", group_thousands(sent))}>{format_bytes_short(sent as f64)}</td>
                <td id={format!("recv-{r}")} title={format!("{} B", group_thousands(recv))}>{format_bytes_short(recv as f64)}</td>
                {cells(&props.after, r)}
            </tr>
        }
    });
    html! {
        <section class={classes!("panel", props.wide.then_some("wide"))} aria-labelledby="counters-h">
            <h2 class="panel-h" id="counters-h">{"Bytes per rank so far"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Bytes per rank (scrollable table)">
                <table class="numbers counters">
                    <thead><tr>
                        <th scope="col">{"rank"}</th>{heads(&props.before)}
                        <th scope="col">{"sent"}</th><th scope="col">{"received"}</th>{heads(&props.after)}
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <CsvDownload {table} />
            if p > COUNTER_ROWS {
                <p class="muted">{format!("Showing ranks 0–{} of {p}.", COUNTER_ROWS - 1)}</p>
            }
            {props.children.clone()}
        </section>
    }
}
