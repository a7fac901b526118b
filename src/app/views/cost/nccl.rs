//! The NCCL panels (`proto=nccl`): render
//! [`crate::pages::cost::protocol::NcclTable`] (every (algorithm,
//! protocol) time per size with NCCL's pick marked) and
//! [`crate::pages::cost::protocol::NcclSwitches`] (the sizes where the
//! pick changes, each with its reason).

use yew::prelude::*;

use crate::pages::cost::protocol::{NcclSwitches, NcclTable, NCCL_READS};
use crate::plot::cost::{nccl_colour_hex, NCCL_CELLS};

/// "NCCL's pick", or the sentence refusing the inputs. A plain function,
/// not a component.
pub fn nccl_table(table: &Result<NcclTable, String>) -> Html {
    let t = match table {
        Ok(t) => t,
        Err(e) => {
            return html! {
                <section class="panel wide" aria-labelledby="nccl-h">
                    <h2 class="panel-h" id="nccl-h">{"NCCL's pick"}</h2>
                    <p class="field-error" role="alert">{e}</p>
                </section>
            }
        }
    };
    let head = t.heads.iter().map(|h| {
        html! {
            <th>
                <span style={format!("border-bottom:3px solid {}", nccl_colour_hex(h.cell))}>{NCCL_CELLS[h.cell]}</span><br/>
                <small class="muted">{&h.formula}</small>
            </th>
        }
    });
    let rows = t.rows.iter().map(|r| {
        let cells = r.cells.iter().map(|(text, is)| {
            html! { <td class={classes!(is.then_some("winner"))}>
                if *is { <strong>{text}{" ◀"}</strong> } else { {text} }
            </td> }
        });
        html! {
            <tr id={format!("nccl-row-{}", r.n)} class={classes!(r.chosen.then_some("chosen"))}>
                <th scope="row">{&r.size}</th>
                { for cells }
                <td>{&r.pick}</td>
            </tr>
        }
    });
    html! {
        <section class="panel wide" aria-labelledby="nccl-h">
            <h2 class="panel-h" id="nccl-h">{&t.heading}</h2>
            <p id="nccl-answer"><strong>{&t.answer}</strong></p>
            <p class="muted" id="nccl-reads">{NCCL_READS}</p>
            <p>{t.rule}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="NCCL's predicted times (scrollable table)">
                <table class="numbers nccl-table" id="nccl-table">
                    <thead><tr><th>{"size n"}</th>{ for head }<th>{"pick"}</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <p class="muted" id="nccl-not-modelled">{&t.not_modelled}</p>
        </section>
    }
}

/// "Where NCCL's pick changes" (nothing when the inputs were refused). A
/// plain function, not a component.
pub fn nccl_switches(switches: Option<&NcclSwitches>) -> Html {
    let Some(s) = switches else {
        return Html::default();
    };
    let items = s.items.iter().map(|i| {
        html! {
            <li>
                <strong>{&i.title}</strong><br/>
                {&i.reason}
            </li>
        }
    });
    html! {
        <section class="panel" aria-labelledby="nccl-sw-h">
            <h2 class="panel-h" id="nccl-sw-h">{"Where NCCL's pick changes"}</h2>
            if let Some(f) = &s.first {
                <p>{f}</p>
            }
            <ul class="intervals" id="nccl-switches">{ for items }</ul>
            if let Some(none) = s.none {
                <p class="muted">{none}</p>
            }
        </section>
    }
}
