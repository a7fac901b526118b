//! Routes: the typed [`View`] enum (one variant per `?view=` key), the URL
//! context a view writes back to ([`UrlCtx`]), the props every view takes
//! ([`ViewProps`]); the one map from a view to its page is
//! [`crate::app::views::switch`] (the pattern of Yew's `function_router`
//! example).

use yew::prelude::*;

use crate::params::embed::Embed;
use crate::params::Query;

/// Where a view lives: its key, whether the page is embedded and which
/// panels it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlCtx {
    /// The view (its key is the `view` parameter).
    pub view: View,
    /// `embed=1`: navigation hidden.
    pub embed: bool,
    /// `show=` and `autoheight=` (written back with every URL).
    pub frame: Embed,
}

/// Props shared by every view.
#[derive(Properties, PartialEq, Clone)]
pub struct ViewProps {
    /// The query the page was opened with.
    pub query: Query,
    /// Where to write state back.
    pub ctx: UrlCtx,
}

/// One page of the app, selected by `?view=<key>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// `?view=ring`: ring all-reduce with its mean step.
    Ring,
    /// `?view=collectives`: every collective algorithm, executed.
    Collectives,
    /// `?view=cost`: the α–β cost model.
    Cost,
    /// `?view=gossip`: gossip consensus on a graph.
    Gossip,
    /// `?view=sgd`: distributed SGD.
    Sgd,
    /// `?view=topology`: all-reduce on nodes, NICs and racks.
    Topology,
    /// `?view=timeline`: a schedule on the clock (lock-step and dataflow).
    Timeline,
    /// `?view=step`: one data-parallel training step on the clock.
    Step,
    /// `?view=practice`: predict a number, then check it.
    Practice,
    /// `?view=measure`: paste a measured log, check it and fit α and β.
    Measure,
    /// `?view=trace`: a measured trace from the MPI runner beside the model.
    Trace,
    /// `?view=hang`: Flight Recorder dumps read, and the rank a hang waits for.
    Hang,
}

impl View {
    /// Every view, in navigation order.
    pub const ALL: &'static [View] = &[
        View::Ring,
        View::Collectives,
        View::Cost,
        View::Gossip,
        View::Sgd,
        View::Topology,
        View::Timeline,
        View::Step,
        View::Practice,
        View::Measure,
        View::Trace,
        View::Hang,
    ];

    /// The view shown when the URL names none (or an unknown one).
    pub const DEFAULT: View = View::Ring;

    /// `(URL key, navigation title)`.
    pub const fn spec(self) -> (&'static str, &'static str) {
        match self {
            View::Ring => ("ring", "Ring all-reduce"),
            View::Collectives => ("collectives", "Collectives"),
            View::Cost => ("cost", "α–β cost model"),
            View::Gossip => ("gossip", "Gossip consensus"),
            View::Sgd => ("sgd", "Distributed SGD"),
            View::Topology => ("topology", "Topology"),
            View::Timeline => ("timeline", "Timeline"),
            View::Step => ("step", "Training step"),
            View::Practice => ("practice", "Practice"),
            View::Measure => ("measure", "Measured logs"),
            View::Trace => ("trace", "Measured trace"),
            View::Hang => ("hang", "Hang: waiting rank"),
        }
    }

    /// The names of this view's panels, in the page's order (what `show=`
    /// takes): each view lists them in a `PANELS` const next to its
    /// parameters.
    pub const fn panels(self) -> &'static [&'static str] {
        use crate::params as p;
        match self {
            View::Ring => p::ring::PANELS,
            View::Collectives => p::collectives::PANELS,
            View::Cost => p::cost::PANELS,
            View::Gossip => p::gossip::PANELS,
            View::Sgd => p::sgd::PANELS,
            View::Topology => p::topology::PANELS,
            View::Practice => p::practice::PANELS,
            View::Measure => p::measure::PANELS,
            View::Timeline => p::timeline::PANELS,
            View::Step => p::step::PANELS,
            View::Trace => p::trace::PANELS,
            View::Hang => p::hang::PANELS,
        }
    }

    /// The value of `?view=` for this view.
    pub const fn key(self) -> &'static str {
        self.spec().0
    }

    /// The title in the navigation.
    pub const fn title(self) -> &'static str {
        self.spec().1
    }

    /// The view whose key is `key` (case-insensitive), if any.
    pub fn from_key(key: &str) -> Option<View> {
        View::ALL
            .iter()
            .copied()
            .find(|v| v.key().eq_ignore_ascii_case(key.trim()))
    }

    /// Every key, comma-separated (for the "unknown view" message).
    pub fn keys() -> String {
        View::ALL
            .iter()
            .map(|v| v.key())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
