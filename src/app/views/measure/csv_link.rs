//! A download link whose `href` is the core's `data:text/csv` URL, built at
//! render time (as [`crate::app::components::downloads`] builds its files)
//! and kept until the analysis changes. A click handler cannot set the `href`
//! in time: Yew delegates events at the app root, so the event's current
//! target is not the link.

use std::rc::Rc;

use yew::prelude::*;

use crate::core::measure::analysis::Analysis;
use crate::pages::common::shared::Shared;

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
    pub analysis: Shared<Analysis>,
    /// Which CSV.
    pub which: Csv,
}

/// The analysis compared by identity: a new analysis is a new `Rc`, so the
/// URL is rebuilt only when the core recomputed it.
struct Same(Rc<Analysis>);

impl PartialEq for Same {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The link (absent when there is nothing to export).
#[component]
pub fn CsvLink(props: &CsvLinkProps) -> Html {
    let url = use_memo(
        (props.which, Same(props.analysis.0.clone())),
        |(which, a)| match which {
            Csv::Table => a.0.table_csv_url(),
            Csv::Fit => a.0.fit_csv_url(),
        },
    );
    match url.as_ref() {
        Some(href) => html! {
            <a id={props.id.clone()} href={href.clone()} download={props.filename.clone()}>{props.label.clone()}</a>
        },
        None => Html::default(),
    }
}
