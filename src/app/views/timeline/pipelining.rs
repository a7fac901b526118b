//! The pipelining panel: the dataflow time of the case on screen against
//! the number of segments k, the best k, and the basic tree's closed form
//! against the pipelined tree, the double tree and the ring, each at its
//! best k. Everything comes from [`crate::core::collectives::pipelining`]; the
//! sweep runs after the first paint, in short slices, with its progress.

use yew::prelude::*;

use crate::app::hooks::use_resumable;
use crate::core::collectives::pipelining::{ComparisonJob, Sweep};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::units::{format_time, group_thousands};
use crate::pages::timeline::{comparison_line, job};
use crate::params::timeline::TimelineParams;

/// Props of [`PipeliningPanel`].
#[derive(Properties, PartialEq)]
pub struct PipeliningPanelProps {
    /// The case (its cursor is ignored).
    pub params: TimelineParams,
}

/// The progress line while the sweep runs: pieces done of all, and the
/// point running.
fn progress(job: &ComparisonJob) -> Html {
    let (done, total) = job.job.progress();
    let now = job.job.current().map_or_else(String::new, |(a, k)| {
        format!(" (now {} at k = {k})", a.short_label())
    });
    html! {
        <div class="sweep-progress">
            <p>{format!(
                "Running the sweep: {} of {} message pieces simulated{now} …",
                group_thousands(done),
                group_thousands(total)
            )}</p>
            <progress max={total.max(1).to_string()} value={done.to_string()}
                aria-label="Segment sweep progress, message pieces simulated"></progress>
        </div>
    }
}

fn table(s: &Sweep) -> Html {
    let best = s.best.map(|b| b.0);
    let rows = s.points.iter().map(|pt| {
        let here = Some(pt.k) == best;
        html! {
            <tr class={classes!(here.then_some("winner"))}>
                <th scope="row">{pt.k}</th>
                <td>{pt.time.map_or_else(|| "— (skipped: too many pieces, or stalls)".to_string(), format_time)}</td>
                <td>{if here { "best" } else { "" }}</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll" role="region" tabindex="0" aria-label="Time against segments (scrollable table)">
            <table class="numbers" id="sweep">
                <thead><tr><th scope="col">{"segments k"}</th><th scope="col">{format!("{} (dataflow)", s.alg.short_label())}</th><th scope="col"></th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// `#pipelining`: the sweep runs in short slices after the first paint
/// ([`use_resumable`]), with its progress shown, so the charts above are
/// ready and the cursor steps while it runs.
#[component]
pub fn PipeliningPanel(props: &PipeliningPanelProps) -> Html {
    let handle = use_resumable(props.params.clone(), job);
    let j = handle.borrow();
    let body = match (j.job.is_done(), j.own()) {
        // The comparison is of all-reduces: beside an all-to-all it would
        // answer a question the case does not ask.
        (true, Some(own)) if props.params.alg.collective() == CollectiveKind::AllToAll => {
            (table(&own), Html::default())
        }
        (true, Some(own)) => (
            table(&own),
            html! { <p id="tree-compare">{comparison_line(&j.comparison())}</p> },
        ),
        _ => (progress(&j), Html::default()),
    };
    html! {
        <section class="panel wide" id="pipelining" aria-labelledby="pipe-h">
            <h2 class="panel-h" id="pipe-h">{"Pipelining: time against segments"}</h2>
            <div class="pipe-body">
                <div class="pipe-main">{body.0}</div>
                <div class="pipe-notes">
                    {body.1}
                    <p class="muted">{"Each message travels as k pieces; a rank forwards a piece as soon as it holds it, \
                        and every piece pays α. Points above 100,000 pieces are skipped."}</p>
                </div>
            </div>
        </section>
    }
}
