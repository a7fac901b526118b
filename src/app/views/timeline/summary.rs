//! The summary: per rank finish, busy and waiting time for each mode shown,
//! the totals (time, algbw, busbw, waiting, the straggler's cost) and the
//! downloads (messages CSV, ranks CSV, Chrome trace JSON).

use yew::prelude::*;

use crate::app::components::downloads::{FileDownloads, FileOffer};
use crate::core::timing::trace::{chrome_trace, messages_csv, ranks_csv};
use crate::core::units::{format_bandwidth, format_time};
use crate::pages::common::clocks::{Run, SharedRuns};

/// What [`timeline_summary`] shows.
pub struct TimelineSummaryProps {
    /// The runs.
    pub runs: SharedRuns,
    /// Whether the folded per-rank table has been opened (state of the
    /// view, so that this panel is a plain function).
    pub opened: bool,
    /// Called when the folded per-rank table is opened.
    pub on_open: Callback<()>,
}

fn or_dash(v: Option<f64>, f: fn(f64) -> String) -> String {
    v.map_or_else(|| "—".to_string(), f)
}

fn totals_row(r: &Run) -> Html {
    let t = &r.totals;
    html! {
        <tr id={format!("totals-{}", r.mode.key())}>
            <th scope="row">{r.mode.label()}</th>
            <td>{or_dash(t.time, format_time)}</td>
            <td>{or_dash(t.algbw, format_bandwidth)}</td>
            <td>{or_dash(t.busbw, format_bandwidth)}</td>
            <td>{format_time(t.wait)}</td>
            <td>{or_dash(t.extra_wait, format_time)}</td>
        </tr>
    }
}

fn offers(runs: &SharedRuns) -> Vec<FileOffer> {
    let mut v = Vec::new();
    for (i, r) in runs.0.runs.iter().enumerate() {
        let key = r.mode.key();
        let make = |label: String,
                    file: String,
                    mime: &'static str,
                    f: fn(&crate::core::timing::clock::Clock) -> String| {
            let runs = runs.clone();
            FileOffer {
                label: label.into(),
                file: file.into(),
                mime,
                build: Callback::from(move |()| {
                    runs.0.runs.get(i).map(|r| f(&r.clock)).unwrap_or_default()
                }),
            }
        };
        v.push(make(
            format!("{} messages CSV", r.mode.label()),
            format!("timeline-{key}-messages.csv"),
            "text/csv",
            messages_csv,
        ));
        v.push(make(
            format!("{} ranks CSV", r.mode.label()),
            format!("timeline-{key}-ranks.csv"),
            "text/csv",
            ranks_csv,
        ));
        v.push(make(
            format!("{} Chrome trace", r.mode.label()),
            format!("timeline-{key}-trace.json"),
            "application/json",
            chrome_trace,
        ));
    }
    v
}

/// Up to this many ranks the per-rank table is shown; above, it sits in a
/// closed `<details>` and is built when first opened (at p = 64 it is
/// about 600 elements, a third of the page).
const PER_RANK_SHOWN_MAX: usize = 16;

/// `#summary`.
pub fn timeline_summary(props: &TimelineSummaryProps) -> Html {
    let opened = props.opened;
    let runs = &props.runs.0.runs;
    let p = runs.first().map_or(0, |r| r.clock.p);
    let folded = p > PER_RANK_SHOWN_MAX;
    let head = runs.iter().map(|r| {
        html! {
            <th scope="colgroup" colspan="3">{r.mode.label()}</th>
        }
    });
    let sub = runs.iter().map(|_| html! {
        <><th scope="col">{"finish"}</th><th scope="col">{"busy"}</th><th scope="col">{"wait"}</th></>
    });
    let rows = (0..p).map(|rank| {
        let cells = runs.iter().map(|r| {
            let c = &r.clock.ranks[rank];
            let finish = match (c.finish, c.failed_at) {
                (Some(f), _) => format_time(f),
                (None, Some(t)) => format!("failed at {}", format_time(t)),
                (None, None) => "blocked".to_string(),
            };
            let k = r.mode.key();
            html! { <><td id={format!("finish-{k}-{rank}")}>{finish}</td><td>{format_time(c.busy)}</td>
                <td id={format!("wait-{k}-{rank}")}>{format_time(c.wait)}</td></> }
        });
        html! { <tr><th scope="row">{rank}</th>{ for cells }</tr> }
    });
    let table = (!folded || opened).then(|| html! {
        <div class="table-scroll tall" role="region" tabindex="0" aria-label="Per rank (scrollable table)">
            <table class="numbers" id="per-rank">
                <thead><tr><th scope="col" rowspan="2">{"rank"}</th>{ for head }</tr><tr>{ for sub }</tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    });
    let per_rank = if folded {
        let ontoggle = props.on_open.reform(|_: Event| ());
        html! {
            <details class="per-rank-box" {ontoggle}>
                <summary>{format!("Per rank: finish, busy and wait of each of the {p} ranks")}</summary>
                {table}
            </details>
        }
    } else {
        table.unwrap_or_default()
    };
    html! {
        <section class="panel wide" aria-labelledby="summary-h">
            <h2 class="panel-h" id="summary-h">{"Summary"}</h2>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Totals (scrollable table)">
                <table class="numbers" id="totals">
                    <thead><tr><th scope="col">{"mode"}</th><th scope="col">{"time"}</th><th scope="col">{"algbw"}</th>
                        <th scope="col">{"busbw"}</th><th scope="col">{"waiting (rank-time)"}</th>
                        <th scope="col">{"straggler's cost"}</th></tr></thead>
                    <tbody>{ for runs.iter().map(totals_row) }</tbody>
                </table>
            </div>
            <p class="muted">{"algbw = size / time and busbw = algbw × the algorithm's bus factor (nccl-tests' definitions; for an all-to-all the size is one rank's row, n/p, as alltoall_perf counts it). \
                The straggler's cost is the waiting beyond the same case without late, slow or failed ranks."}</p>
            {per_rank}
            <FileDownloads files={offers(&props.runs)} />
            <p class="muted">{"The Chrome trace opens in Perfetto (ui.perfetto.dev) and in chrome://tracing: a process per rank, with send, receive and reduce rows and an arrow from each send to its receive."}</p>
        </section>
    }
}
