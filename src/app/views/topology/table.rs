//! A plain numbers table (header row, then labelled rows of text cells),
//! used for the per-NIC traffic, the per-rank bytes and the per-worker
//! counts. The cells arrive formatted: this component computes nothing.

use std::rc::Rc;

use yew::prelude::*;

pub use crate::pages::topology::rows::Row;

use crate::app::components::downloads::Downloads;
use crate::export::series::text_table;

/// Props of [`numbers_table`].
#[derive(PartialEq)]
pub struct NumbersTableProps {
    /// Table id.
    pub id: AttrValue,
    /// Column headers, the first over the row labels.
    pub head: Vec<String>,
    /// Rows.
    pub rows: Vec<Row>,
    /// Shown under the table when rows were left out.
    pub note: Option<String>,
    /// What the table holds; names the CSV file (default: the table id).
    pub caption: Option<AttrValue>,
}

/// The table, scrolled sideways on narrow screens.
pub fn numbers_table(props: &NumbersTableProps) -> Html {
    let rows = props.rows.iter().map(|r| {
        html! {
            <tr id={r.id.clone()}>
                <th scope="row">{r.label.clone()}</th>
                {for r.cells.iter().map(|c| html! { <td>{c.clone()}</td> })}
            </tr>
        }
    });
    html! {
        <>
            <div class="table-scroll" role="region" tabindex="0"
                aria-label={format!("{} (scrollable table)", props.head.join(", "))}>
                <table class="numbers" id={props.id.clone()}>
                    <thead><tr>{for props.head.iter().map(|h| html! { <th scope="col">{h.clone()}</th> })}</tr></thead>
                    <tbody>{for rows}</tbody>
                </table>
            </div>
            if let Some(n) = &props.note {
                <p class="muted">{n.clone()}</p>
            }
            <Downloads table={Some(Rc::new(text_table(
                props.caption.as_deref().unwrap_or(&props.id),
                &props.head,
                &props.rows.iter().map(|r| (r.label.clone(), r.cells.clone())).collect::<Vec<_>>(),
            )))} />
        </>
    }
}
