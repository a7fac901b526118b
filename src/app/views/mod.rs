//! The views. Each view is a folder `views/<key>/`: `mod.rs` holds the page
//! component (it reads the view's state from [`use_view_state`] and lays out
//! the panels) and every panel is a small component in its own file.
//!
//! # Adding a view
//!
//! 1. Write its parameters in `src/params/<key>.rs` (a type implementing
//!    [`crate::params::ViewParams`]: read from a query field by field, write
//!    back canonical pairs) and its page in `views/<key>/mod.rs`: add
//!    `impl Commit for YourParams {}` (fields then commit exactly as the URL
//!    parses them) and a `#[component]` taking [`ViewProps`] that calls
//!    `use_view_state::<YourParams>(props)`. Give each panel its own file
//!    and component; controls commit with `on_commit(&state, "key")`, the
//!    step controls with `on_step(&state, "step")`.
//! 2. Add `pub mod <key>;` below, a variant to [`View`], the variant to
//!    [`View::ALL`] (navigation order), one arm to [`View::spec`] (URL key
//!    and title), one to [`View::panels`] (its `PANELS` const: the panel
//!    names `show=` takes) and one arm to [`View::render`]. In the page, wrap
//!    each panel in `props.ctx.panel("name", html! { … })`. The compiler
//!    points to the three `match`es; nothing else in the app lists the views (the navigation,
//!    the router and the "unknown view" message all read [`View::ALL`]).
//!
//! [`use_view_state`]: crate::app::hooks::use_view_state
//! [`Commit`]: crate::app::hooks::Commit

use yew::prelude::*;

use super::url::UrlCtx;
use crate::params::Query;

pub mod collectives;
pub mod cost;
pub mod gossip;
pub mod measure;
pub mod practice;
pub mod ring;
pub mod sgd;
pub mod step;
pub mod timeline;
pub mod topology;

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

    /// The page component of this view, opened with `query`.
    pub fn render(self, query: Query, ctx: UrlCtx) -> Html {
        match self {
            View::Ring => html! { <ring::RingView {query} {ctx} /> },
            View::Collectives => html! { <collectives::CollectivesView {query} {ctx} /> },
            View::Cost => html! { <cost::CostView {query} {ctx} /> },
            View::Gossip => html! { <gossip::GossipView {query} {ctx} /> },
            View::Sgd => html! { <sgd::SgdView {query} {ctx} /> },
            View::Topology => html! { <topology::TopologyView {query} {ctx} /> },
            View::Timeline => html! { <timeline::TimelineView {query} {ctx} /> },
            View::Step => html! { <step::StepView {query} {ctx} /> },
            View::Practice => html! { <practice::PracticeView {query} {ctx} /> },
            View::Measure => html! { <measure::MeasureView {query} {ctx} /> },
        }
    }
}

/// One-view page functions for the per-view binaries in `src/bin/`: each
/// names one page component only, so a binary that passes it to
/// [`crate::app::start`] links that view's code and no other. `index.html`
/// loads the binary of the view named in `?view=`; a view this binary does
/// not hold (which that loader never asks for) gets a link to its page.
pub mod only {
    use super::*;

    macro_rules! one_view {
        ($($fn_name:ident => $variant:ident, $component:path;)*) => {$(
            #[doc = concat!("The `", stringify!($variant), "` view only.")]
            pub fn $fn_name(view: View, query: Query, ctx: UrlCtx) -> Html {
                if view == View::$variant {
                    html! { <$component {query} {ctx} /> }
                } else {
                    elsewhere(view)
                }
            }
        )*};
    }

    one_view! {
        ring => Ring, ring::RingView;
        collectives => Collectives, collectives::CollectivesView;
        cost => Cost, cost::CostView;
        gossip => Gossip, gossip::GossipView;
        sgd => Sgd, sgd::SgdView;
        topology => Topology, topology::TopologyView;
        timeline => Timeline, timeline::TimelineView;
        step => Step, step::StepView;
        practice => Practice, practice::PracticeView;
        measure => Measure, measure::MeasureView;
    }

    /// A link to the page of a view this binary does not hold.
    fn elsewhere(view: View) -> Html {
        html! {
            <p class="boot-note">
                <a href={format!("?view={}", view.key())}>{format!("Open the {} view", view.title())}</a>
            </p>
        }
    }
}
