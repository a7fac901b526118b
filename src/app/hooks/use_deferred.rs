//! [`use_deferred`]: a view's heavy computation after the first paint
//! (behind a [`computing`](crate::app::components::computing::computing)
//! placeholder) when the core estimates it as large.

use std::rc::Rc;

use yew::prelude::*;

use super::after_paint::after_paint;

use crate::core::work::Work;

/// What [`use_deferred`] gives back: the value computed for the current
/// dependencies, or `Pending` while that computation waits for the browser
/// to paint (render a placeholder then).
#[derive(Debug, PartialEq)]
pub enum Deferred<T> {
    /// The value for the current dependencies.
    Ready(Rc<T>),
    /// The computation runs after the next paint; the page re-renders then.
    Pending,
}

impl<T> Deferred<T> {
    /// The value, when it is ready.
    pub fn ready(&self) -> Option<&Rc<T>> {
        match self {
            Deferred::Ready(v) => Some(v),
            Deferred::Pending => None,
        }
    }
}

impl<T> Clone for Deferred<T> {
    fn clone(&self) -> Self {
        match self {
            Deferred::Ready(v) => Deferred::Ready(v.clone()),
            Deferred::Pending => Deferred::Pending,
        }
    }
}

/// A memo of `compute(&deps)` that runs after the first paint when `work`
/// (the core's estimate, [`crate::core::work`]) is large.
///
/// - Light work ([`Work::defer`] false): computed during this render, exactly
///   like `use_memo(deps, compute)`; the first frame shows the content.
/// - Heavy work: returns [`Deferred::Pending`] now (the caller renders its
///   controls and a placeholder), then, after the next animation frame and a
///   0 ms timeout (i.e. after the browser painted), computes the value and
///   re-renders with [`Deferred::Ready`].
/// - When `deps` change while a computation waits, the waiting one is
///   cancelled: the newest dependencies win. Only the latest value is kept.
///
/// `compute` is called at most once per change of `deps`.
#[hook]
pub fn use_deferred<D, T, F>(deps: D, work: Work, compute: F) -> Deferred<T>
where
    D: PartialEq + Clone + 'static,
    T: 'static,
    F: FnOnce(&D) -> T + 'static,
{
    // The last value computed and the dependencies it was computed for.
    let done = use_mut_ref(|| None::<(D, Rc<T>)>);
    let redraw = use_force_update();
    let cached = done
        .borrow()
        .as_ref()
        .filter(|(d, _)| *d == deps)
        .map(|(_, v)| v.clone());
    let (result, later) = match cached {
        Some(v) => (Deferred::Ready(v), None),
        None if !work.defer() => {
            let v = Rc::new(compute(&deps));
            *done.borrow_mut() = Some((deps.clone(), v.clone()));
            (Deferred::Ready(v), None)
        }
        None => (Deferred::Pending, Some(compute)),
    };
    use_effect_with(deps, move |deps| {
        let task = later.map(|compute| {
            let deps = deps.clone();
            after_paint(move || {
                let v = Rc::new(compute(&deps));
                *done.borrow_mut() = Some((deps, v));
                redraw.force_update();
            })
        });
        // Dropping the task cancels it if it has not run yet.
        move || drop(task)
    });
    result
}
