//! The transfers of one round, one line per message, shared by the ring and
//! collectives views (the lines come from
//! [`crate::pages::common::transfer_log`]). Operands are printed in one order everywhere: the value
//! sent, then the receiver's value before, then the result
//! (`rank 3 → rank 0: chunk 3, 25 MB, 4 + 1 = 5`).

use yew::prelude::*;

use crate::core::schedule::Op;
pub use crate::pages::common::transfer_log::{LogEntry, LOG_ROWS};

/// What [`transfer_log`] lists.
pub struct TransferLogProps {
    /// The round shown (1-based), or `None` before round 1 / after the last.
    pub round: Option<usize>,
    /// The first [`LOG_ROWS`] transfers of the round.
    pub entries: Vec<LogEntry>,
    /// How many transfers the round has.
    pub total: usize,
    /// Name the operation before the values (the collectives view does).
    pub name_op: bool,
    /// Shown when no round is selected.
    pub idle: AttrValue,
    /// A note under the list.
    pub note: Option<AttrValue>,
}

/// The panel listing the transfers of one round (a plain function: it keeps
/// no state).
pub fn transfer_log(props: TransferLogProps) -> Html {
    let body = match props.round {
        Some(_) => html! {
            <>
                <ul class="log">
                    { for props.entries.iter().take(LOG_ROWS).map(|e| html! {
                        <li class={if e.op == Op::Reduce { "reduce" } else { "copy" }}>{e.text(props.name_op)}</li>
                    }) }
                </ul>
                if props.total > LOG_ROWS {
                    <p class="muted">{format!("… and {} more transfers.", props.total - LOG_ROWS)}</p>
                }
                if let Some(n) = &props.note {
                    <p class="muted">{n.clone()}</p>
                }
            </>
        },
        None => html! { <p>{props.idle}</p> },
    };
    html! {
        <section class="panel" aria-labelledby="log-h">
            <h2 class="panel-h" id="log-h">{props.round.map_or_else(|| "Transfers".to_string(), |k| format!("Transfers in round {k}"))}</h2>
            {body}
        </section>
    }
}
