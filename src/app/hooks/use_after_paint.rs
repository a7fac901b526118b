//! [`use_after_paint`]: an effect that runs after the browser has painted,
//! for heavy work whose result the view keeps itself (in a cache of a value
//! it already holds) rather than in a memo.

use yew::prelude::*;

use super::after_paint::after_paint;

/// Runs `effect(&d)` once per change of `deps` to `Some(d)`, in a
/// `use_effect_with` after the next paint, then re-renders the component;
/// `None` runs nothing. When `deps` change (or the component goes away)
/// before it ran, the waiting run is dropped: the newest dependencies win.
///
/// For work that fills a value the render reads (e.g. the ring view's
/// streamed values, cached in its run); work that returns a value goes in
/// [`super::use_deferred`].
#[hook]
pub fn use_after_paint<D, F>(deps: Option<D>, effect: F)
where
    D: PartialEq + Clone + 'static,
    F: FnOnce(&D) + 'static,
{
    let redraw = use_force_update();
    use_effect_with(deps, move |deps| {
        let task = deps.clone().map(|d| {
            after_paint(move || {
                effect(&d);
                redraw.force_update();
            })
        });
        // Dropping the task cancels it if it has not run yet.
        move || drop(task)
    });
}
