//! One module per view. Each view takes the initial [`Query`] and a
//! [`UrlCtx`] for writing its state back.

use yew::prelude::*;

use super::url::UrlCtx;
use crate::params::Query;

pub mod bench;
pub mod collectives;
pub mod cost;
pub mod gossip;
pub mod measure;
pub mod ring;
pub mod sgd;

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
        "collectives" => html! { <collectives::CollectivesView {query} {ctx} /> },
        "cost" => html! { <cost::CostView {query} {ctx} /> },
        "gossip" => html! { <gossip::GossipView {query} {ctx} /> },
        "sgd" => html! { <sgd::SgdView {query} {ctx} /> },
        "measure" => html! { <measure::MeasureView {query} {ctx} /> },
        "bench" => html! { <bench::BenchView {query} {ctx} /> },
        _ => html! { <ring::RingView {query} {ctx} /> },
    }
}

/// Pure functions of the other views timed by `?view=bench`.
pub fn extra_benchmarks() -> Vec<bench::Measure> {
    use crate::core::cost::{log_sizes, sweep_sizes, CostParams};
    use crate::plot::cost::{draw_time_vs_p, draw_time_vs_size, draw_winner_map};
    let c = CostParams::seed_example();
    let sizes = log_sizes(1.0, 4.0 * 1_073_741_824.0, 1000);
    let mut out = vec![
        bench::time_batch("cost: sweep 1000 sizes × 5 algorithms", 9, 200, || {
            let _ = sweep_sizes(16, &sizes, c);
        }),
        bench::time_it("cost: chart time vs size", 5, || {
            let _ = draw_time_vs_size(16, c, 8192.0);
        }),
        bench::time_it("cost: chart time vs p", 5, || {
            let _ = draw_time_vs_p(8192.0, c, 16);
        }),
        bench::time_it("cost: chart winner map", 5, || {
            let _ = draw_winner_map(c, 8192.0, 16);
        }),
    ];
    out.extend(gossip::benchmarks());
    out.extend(sgd::bench_measures());
    out.extend(measure::bench_measures());
    out
}
