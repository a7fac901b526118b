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
//!    parses them) and a `#[component]` taking [`ViewProps`](crate::app::route::ViewProps) that calls
//!    `use_view_state::<YourParams>(props)`. Give each panel its own file
//!    and component; controls commit with `on_commit(&state, "key")`, the
//!    step controls with `on_step(&state, "step")`.
//! 2. Add `pub mod <key>;` below, a variant to [`View`], the variant to
//!    [`View::ALL`] (navigation order), one arm to [`View::spec`] (URL key
//!    and title), one to [`View::panels`] (its `PANELS` const: the panel
//!    names `show=` takes) and one arm to [`switch`]. In the page, wrap
//!    each panel in `props.ctx.panel("name", html! { … })`. The compiler
//!    points to the three `match`es; nothing else in the app lists the views (the navigation,
//!    the router and the "unknown view" message all read [`View::ALL`]).
//!
//! [`use_view_state`]: crate::app::hooks::use_view_state
//! [`Commit`]: crate::app::state::Commit

use yew::prelude::*;

use crate::app::route::{UrlCtx, View};
use crate::params::Query;

pub mod collectives;
pub mod cost;
pub mod gossip;
pub mod hang;
pub mod measure;
pub mod practice;
pub mod ring;
pub mod sgd;
pub mod start;
pub mod step;
pub mod timeline;
pub mod topology;
pub mod trace;

/// The page component of `view`, opened with `query`: the app's one map
/// from routes to pages.
pub fn switch(view: View, query: Query, ctx: UrlCtx) -> Html {
    match view {
        View::Ring if landing(&query) => html! { <start::StartView /> },
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
        View::Trace => html! { <trace::TraceView {query} {ctx} /> },
        View::Hang => html! { <hang::HangView {query} {ctx} /> },
    }
}

/// True when the query names no view: the start page, which the ring
/// binary holds (the loader loads it when `?view=` is absent).
pub fn landing(query: &Query) -> bool {
    query.get("view").is_none()
}

/// One-view page functions for the per-view binaries in `src/bin/`: each
/// names one page component only, so a binary that passes it to
/// [`crate::app::start`] links that view's code and no other. `index.html`
/// loads the binary of the view named in `?view=`; a view this binary does
/// not hold (which that loader never asks for) gets a link to its page.
pub mod only {
    use yew::prelude::*;

    use crate::app::route::{UrlCtx, View};
    use crate::app::views::{
        collectives, cost, gossip, hang, landing, measure, practice, ring, sgd, start, step,
        timeline, topology, trace,
    };
    use crate::params::Query;

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

    /// The `Ring` view, and the start page when the query names no view.
    pub fn ring(view: View, query: Query, ctx: UrlCtx) -> Html {
        match view {
            View::Ring if landing(&query) => html! { <start::StartView /> },
            View::Ring => html! { <ring::RingView {query} {ctx} /> },
            _ => elsewhere(view),
        }
    }

    one_view! {
        collectives => Collectives, collectives::CollectivesView;
        cost => Cost, cost::CostView;
        gossip => Gossip, gossip::GossipView;
        sgd => Sgd, sgd::SgdView;
        topology => Topology, topology::TopologyView;
        timeline => Timeline, timeline::TimelineView;
        step => Step, step::StepView;
        practice => Practice, practice::PracticeView;
        measure => Measure, measure::MeasureView;
        trace => Trace, trace::TraceView;
        hang => Hang, hang::HangView;
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
