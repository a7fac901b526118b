//! View state: a view's parameters plus the drafts of rejected fields, kept
//! in a [`Reducible`] and changed only by [`Action`]s through a pure reducer
//! (the pattern of Yew's `function_todomvc` example).
//!
//! There is one way to change a parameter: dispatch [`Action::Commit`] with
//! the field's key and the text the user gave (typed and left, picked from a
//! menu, ticked, or stepped to). The reducer parses it exactly as the URL is
//! parsed ([`Commit::commit`], by default the view's `from_query` on a
//! one-field query), so a value that works in the URL works in the page and
//! the other way round. A bad value becomes a draft with its message; the
//! last good parameters stay. The hook that keeps this state is
//! [`use_view_state`](crate::app::hooks::use_view_state).

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::params::{FieldError, Query, ViewParams};

/// How a view's parameters take a committed field. The default parses the
/// field exactly as the URL does; a view overrides it only where the page
/// means more than the URL (e.g. the cost view's "custom values" preset).
pub trait Commit: ViewParams {
    /// `self` with `fields` set from their texts, and the errors found. Each
    /// bad field keeps its value.
    /// An empty text is an error ("enter a value") unless the view
    /// overrides this (the cost view's "fastest" and "custom" menu entries).
    fn commit(&self, fields: &[(&'static str, String)]) -> (Self, Vec<FieldError>) {
        one_query(self, fields)
    }

    /// Other fields whose stale messages a good value of `field` clears
    /// (e.g. a good `bw` clears a stale `beta` message).
    fn clears(_field: &str) -> &'static [&'static str] {
        &[]
    }
}

/// `base` with `fields` read as a query (what the URL parser makes of
/// them); an empty text yields an "enter a value" error for its field.
pub fn one_query<P: ViewParams>(
    base: &P,
    fields: &[(&'static str, String)],
) -> (P, Vec<FieldError>) {
    let mut q = Query::default();
    let mut errs = Vec::new();
    for (field, text) in fields {
        if text.trim().is_empty() {
            errs.push(FieldError::new(field, "enter a value"));
        } else {
            q.insert((*field).to_string(), text.trim().to_string());
        }
    }
    let (next, more) = P::from_query(&q, base);
    errs.extend(more);
    (next, errs)
}

/// What can happen to a view's state.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Fields committed together, as `(key, text)`: typed and left, picked
    /// from a menu, ticked, stepped to, or (the SGD shard table) a whole
    /// table at once.
    Commit(Vec<(&'static str, String)>),
}

impl Action {
    /// One field committed with `text`.
    pub fn field(field: &'static str, text: impl Into<String>) -> Self {
        Action::Commit(vec![(field, text.into())])
    }
}

/// A view's state: the last good parameters and the rejected drafts.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewState<P> {
    /// The last good parameters (what the view renders).
    pub params: P,
    /// Typed-but-rejected texts and their messages, per field.
    pub drafts: Drafts,
}

impl<P: Commit> ViewState<P> {
    /// The state for a page opened with `query`: bad fields become drafts
    /// with their messages, the rest falls back to defaults.
    pub fn from_query(query: &Query) -> Self {
        let (params, mut errs) = P::from_query(query, &P::default());
        let pairs = params.to_pairs();
        for e in &mut errs {
            if let Some(text) = query.get(e.field) {
                e.message = in_use(&e.message, e.field, text, &pairs);
            }
        }
        let drafts = Drafts::from_errors(&errs, |k| query.get(k).map(str::to_string));
        ViewState { params, drafts }
    }

    /// The state after `fields` were committed (pure).
    ///
    /// The rejected texts of other fields are committed again with them: a
    /// value another field made invalid is applied once it fits (p = 6
    /// back on a ring after a hypercube, exp weights once the graph is
    /// exp), and its stale message goes; one that still does not fit keeps
    /// its message.
    #[must_use]
    pub fn committed(&self, fields: &[(&'static str, String)]) -> Self {
        let mut drafts = self.drafts.clone();
        let mut all = fields.to_vec();
        for (field, text) in self.drafts.texts() {
            if !text.trim().is_empty() && !all.iter().any(|(f, _)| *f == field) {
                all.push((field, text));
            }
        }
        let (params, errs) = self.params.commit(&all);
        let pairs = params.to_pairs();
        for (field, text) in &all {
            match errs.iter().find(|e| e.field == *field) {
                Some(e) => {
                    let message = in_use(&e.message, field, text, &pairs);
                    drafts.reject(field, text.clone(), message);
                }
                None => {
                    drafts.accept(field);
                    for other in P::clears(field) {
                        drafts.accept(other);
                    }
                }
            }
        }
        // A good value can make another field invalid (e.g. the hypercube
        // needs p to be a power of two): show that field's accepted text
        // with the message.
        for e in errs
            .iter()
            .filter(|e| !all.iter().any(|(f, _)| *f == e.field))
        {
            let text = pairs
                .iter()
                .find(|(k, _)| *k == e.field)
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            drafts.reject(e.field, text, e.message.clone());
        }
        ViewState { params, drafts }
    }
}

/// `message` for a rejected `text` of `field` (an empty one included),
/// saying that the last good value is still in use, and naming it when the
/// canonical `pairs` of the kept parameters hold it: "… The last good
/// value, 100MB, is still in use." A field the pairs leave out (at its
/// default, e.g. `gamma`, `segments`, `straggler`) gets "… The last good
/// value is still in use." A kept text equal to the typed one (another
/// field made it invalid) leaves the message as it is.
fn in_use(message: &str, field: &str, text: &str, pairs: &[(&'static str, String)]) -> String {
    let head = message.trim_end_matches('.');
    match pairs.iter().find(|(k, _)| *k == field).map(|(_, v)| v) {
        Some(v) if v == text.trim() => message.to_string(),
        Some(v) if !v.is_empty() => format!("{head}. The last good value, {v}, is still in use."),
        _ => format!("{head}. The last good value is still in use."),
    }
}

impl<P: Commit> Reducible for ViewState<P> {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Commit(fields) => Rc::new(self.committed(&fields)),
        }
    }
}

/// The handle the page components get: read `.params` and `.drafts`,
/// change them with [`on_commit`].
pub type ViewHandle<P> = UseReducerHandle<ViewState<P>>;

/// The callback that commits `field` with the text it is given.
pub fn on_commit<P: Commit>(state: &ViewHandle<P>, field: &'static str) -> Callback<String> {
    let dispatcher = state.dispatcher();
    Callback::from(move |text: String| dispatcher.dispatch(Action::field(field, text)))
}

/// The callback that commits any `(field, text)` it is given.
pub fn on_commit_field<P: Commit>(state: &ViewHandle<P>) -> Callback<(&'static str, String)> {
    let dispatcher = state.dispatcher();
    Callback::from(move |(field, text): (&'static str, String)| {
        dispatcher.dispatch(Action::field(field, text));
    })
}

/// The callback that commits `field` from a checkbox (`1` or `0`).
pub fn on_check<P: Commit>(state: &ViewHandle<P>, field: &'static str) -> Callback<Event> {
    let cb = on_commit(state, field);
    Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        cb.emit(if input.checked() { "1" } else { "0" }.to_string());
    })
}

/// The callback that commits several `(field, text)` pairs at once (one
/// [`Action::Commit`], e.g. the SGD shard table's two columns).
pub fn on_commit_all<P: Commit>(state: &ViewHandle<P>) -> Callback<Vec<(&'static str, String)>> {
    let dispatcher = state.dispatcher();
    Callback::from(move |fields| dispatcher.dispatch(Action::Commit(fields)))
}

/// What a control panel takes to commit: `(field, text)`.
pub type OnCommit = Callback<(&'static str, String)>;

/// The callback that commits `field` through a panel's [`OnCommit`].
pub fn commit_to(on_commit: &OnCommit, field: &'static str) -> Callback<String> {
    on_commit.reform(move |text: String| (field, text))
}

/// The callback that commits `field` from a checkbox (`1` or `0`) through a
/// panel's [`OnCommit`].
pub fn check_to(on_commit: &OnCommit, field: &'static str) -> Callback<Event> {
    let cb = commit_to(on_commit, field);
    Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        cb.emit(if input.checked() { "1" } else { "0" }.to_string());
    })
}

/// The callback that commits a step (`field` is `step` or `round`).
pub fn on_step<P: Commit>(state: &ViewHandle<P>, field: &'static str) -> Callback<usize> {
    let cb = on_commit(state, field);
    Callback::from(move |k: usize| cb.emit(k.to_string()))
}
