//! One module per view. Each view takes the initial [`Query`] and a
//! [`UrlCtx`] for writing its state back.

use yew::prelude::*;

use super::url::UrlCtx;
use crate::params::Query;

pub mod ring;

/// Props shared by every view.
#[derive(Properties, PartialEq, Clone)]
pub struct ViewProps {
    /// The query the page was opened with.
    pub query: Query,
    /// Where to write state back.
    pub ctx: UrlCtx,
}

/// Renders the view called `key`.
pub fn render(key: &str, query: Query, ctx: UrlCtx) -> Html {
    match key {
        "ring" => html! { <ring::RingView {query} {ctx} /> },
        _ => html! { <ring::RingView {query} {ctx} /> },
    }
}
