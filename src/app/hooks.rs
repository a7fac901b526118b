//! Custom hooks shared by the views.

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::app::url;
use crate::app::views::ViewProps;
use crate::params::ViewParams;

/// A view's parameters: read once from the page query (bad fields become
/// drafts with their messages, the rest falls back to defaults), kept in
/// state, and written back to the URL with `replaceState` on every change.
#[hook]
pub fn use_view_params<P: ViewParams>(
    props: &ViewProps,
) -> (UseStateHandle<P>, UseStateHandle<Drafts>) {
    let init = use_memo((), |_| {
        let (params, errs) = P::from_query(&props.query, &P::default());
        let q = props.query.clone();
        let drafts = Drafts::from_errors(&errs, |k| q.get(k).map(str::to_string));
        (params, drafts)
    });
    let params = use_state(|| init.0.clone());
    let drafts = use_state(|| init.1.clone());
    {
        let ctx = props.ctx.clone();
        use_effect_with((*params).clone(), move |p| {
            url::replace(&ctx, &p.to_pairs());
        });
    }
    (params, drafts)
}
