//! [`use_view_state`]: a view's [`ViewState`], read once from the page
//! query, kept in a reducer and written back to the URL.

use yew::prelude::*;

use crate::app::route::ViewProps;
use crate::app::state::{Commit, ViewHandle, ViewState};
use crate::app::url;

/// A view's state, read once from the page query, kept in a reducer, and
/// written back to the URL with `replaceState` on every change.
#[hook]
pub fn use_view_state<P: Commit>(props: &ViewProps) -> ViewHandle<P> {
    let query = props.query.clone();
    let state = use_reducer_eq(move || ViewState::<P>::from_query(&query));
    {
        let ctx = props.ctx.clone();
        use_effect_with(state.params.clone(), move |p| {
            url::replace(&ctx, &p.to_pairs());
        });
    }
    state
}
