//! A download link whose CSV is built by the core when clicked (a 10,000-row
//! table makes a megabyte-sized `data:` URL: not worth building on every
//! keystroke). The click handler sets `href` before the browser follows it.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlAnchorElement;
use yew::prelude::*;

use crate::core::measure::analysis::Analysis;

/// Which CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Csv {
    /// The parsed table with recomputed bandwidths and flags.
    Table,
    /// The fit parameters and residuals.
    Fit,
}

/// Props of [`CsvLink`].
#[derive(Properties, PartialEq)]
pub struct CsvLinkProps {
    /// Element id.
    pub id: AttrValue,
    /// Link text.
    pub label: AttrValue,
    /// File name offered.
    pub filename: AttrValue,
    /// The analysis to export.
    pub analysis: Rc<Analysis>,
    /// Which CSV.
    pub which: Csv,
}

/// The link.
#[component]
pub fn CsvLink(props: &CsvLinkProps) -> Html {
    let onclick = {
        let a = props.analysis.clone();
        let which = props.which;
        Callback::from(move |e: MouseEvent| {
            let url = match which {
                Csv::Table => a.table_csv_url(),
                Csv::Fit => a.fit_csv_url(),
            };
            let anchor = e
                .current_target()
                .and_then(|t| t.dyn_into::<HtmlAnchorElement>().ok());
            match (url, anchor) {
                (Some(u), Some(el)) => el.set_href(&u),
                _ => e.prevent_default(),
            }
        })
    };
    html! {
        <a id={props.id.clone()} href="#" download={props.filename.clone()} {onclick}>{props.label.clone()}</a>
    }
}
