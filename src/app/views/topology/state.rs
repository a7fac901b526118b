//! The view's state: the last good parameters and the drafts of rejected
//! fields, changed only by [`TopoAction`]s through a pure reducer.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::field::Drafts;
use crate::params::topology::{TopoAlg, TopologyParams};
use crate::params::{FieldError, Query};

/// Fields that change the schedule (and so reset the step).
const SCHEDULE_FIELDS: [&str; 8] = [
    "alg", "nodes", "gpus", "groups", "racks", "size", "n", "lanes",
];

/// Parameters plus the inline messages of rejected fields.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TopoState {
    /// The last good parameters (what is drawn and written to the URL).
    pub params: TopologyParams,
    /// Rejected texts and their messages.
    pub drafts: Drafts,
}

/// Everything that can change the state.
#[derive(Clone, Debug, PartialEq)]
pub enum TopoAction {
    /// A field was committed with this text (the one way of setting a field).
    Commit(&'static str, String),
    /// Show step `s` (clamped to `0..=last`).
    Step {
        /// Requested step.
        s: usize,
        /// Last step of the current schedule.
        last: usize,
    },
    /// Switch algorithm (table row buttons); the step goes back to 0.
    Alg(TopoAlg),
    /// Replace everything with a preset's parameters; drafts are cleared.
    Preset(TopologyParams),
}

impl TopoState {
    /// The state a page opens with: `q` read field by field over the
    /// defaults, each bad field kept as a draft with its message.
    pub fn from_query(q: &Query) -> Self {
        let (params, errs): (TopologyParams, Vec<FieldError>) =
            TopologyParams::from_query(q, &TopologyParams::default());
        let drafts = Drafts::from_errors(&errs, |k| q.get(k).map(str::to_string));
        TopoState { params, drafts }
    }
}

impl Reducible for TopoState {
    type Action = TopoAction;

    fn reduce(self: Rc<Self>, action: TopoAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            TopoAction::Commit(field, text) => match next.params.set_field(field, &text) {
                Ok(()) => {
                    next.drafts.accept(field);
                    // A new shape, size or algorithm is a new schedule: start
                    // it from its inputs. Link figures only change timing.
                    if SCHEDULE_FIELDS.contains(&field) {
                        next.params.step = 0;
                    }
                }
                Err(e) => next.drafts.reject(field, text, e.message),
            },
            TopoAction::Step { s, last } => next.params.step = s.min(last),
            TopoAction::Alg(a) => {
                next.params.alg = a;
                next.params.step = 0;
                next.drafts.accept("alg");
            }
            TopoAction::Preset(p) => {
                next.params = p;
                next.drafts = Drafts::default();
            }
        }
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}
