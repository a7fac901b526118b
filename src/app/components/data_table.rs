//! The text equivalent of a chart (or any computed table): a collapsible
//! "Data" table with the plotted values and the download buttons of
//! [`super::downloads::Downloads`]. The values come from
//! [`crate::export::series`], built from the same core results as the chart.
//! Rows are rendered only while the table is open, and at most
//! [`MAX_SHOWN_ROWS`] of them (the CSV has all).

use std::rc::Rc;

use yew::prelude::*;

use super::downloads::Downloads;
use crate::export::DataTable;

/// Most rows rendered in the page; the CSV download holds every row.
pub const MAX_SHOWN_ROWS: usize = 200;

/// Props of [`DataTableView`].
#[derive(Properties, PartialEq)]
pub struct DataTableProps {
    /// Element id of the `<details>` (the table gets `{id}-table`).
    pub id: AttrValue,
    /// The values.
    pub table: Rc<DataTable>,
    /// The chart the values are plotted in (offered as SVG and PNG).
    #[prop_or_default]
    pub svg: Option<AttrValue>,
    /// Open when first shown.
    #[prop_or(false)]
    pub open: bool,
    /// Summary text; defaults to "Data: {caption} (n rows)".
    #[prop_or_default]
    pub summary: Option<AttrValue>,
    /// Show the last rows rather than the first when there are too many
    /// (a history that grows as the student steps).
    #[prop_or(false)]
    pub tail: bool,
}

/// A `<details>` "Data" table with CSV, SVG and PNG downloads.
#[component]
pub fn DataTableView(props: &DataTableProps) -> Html {
    let open = use_state(|| props.open);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::Element = e.target_unchecked_into();
            open.set(el.has_attribute("open"));
        })
    };
    let t = &props.table;
    let n = t.rows.len();
    let summary = props
        .summary
        .clone()
        .unwrap_or_else(|| format!("Data: {} ({n} rows)", t.caption).into());
    let skip = if props.tail {
        n.saturating_sub(MAX_SHOWN_ROWS)
    } else {
        0
    };
    let body = if *open {
        html! {
            <>
                <div class="table-scroll" role="region" tabindex="0" aria-label={format!("{} (table)", t.caption)}>
                    <table class="data" id={format!("{}-table", props.id)}>
                        <caption class="visually-hidden">{t.caption.clone()}</caption>
                        <thead><tr>{ for t.columns.iter().map(|c| html! { <th scope="col">{c.clone()}</th> }) }</tr></thead>
                        <tbody>
                            { for t.rows.iter().skip(skip).take(MAX_SHOWN_ROWS).map(|r| html! {
                                <tr>{ for r.iter().map(|c| html! { <td>{c.shown()}</td> }) }</tr>
                            }) }
                        </tbody>
                    </table>
                </div>
                if n > MAX_SHOWN_ROWS {
                    <p class="muted">{format!("Showing the {} {MAX_SHOWN_ROWS} of {n} rows; the CSV has all of them.",
                        if props.tail { "last" } else { "first" })}</p>
                }
            </>
        }
    } else {
        Html::default()
    };
    html! {
        <div class="data-block">
            <details class="data-table" id={props.id.clone()} open={*open} {ontoggle}>
                <summary>{summary}</summary>
                {body}
            </details>
            <Downloads table={Some(t.clone())} svg={props.svg.clone()} />
        </div>
    }
}
