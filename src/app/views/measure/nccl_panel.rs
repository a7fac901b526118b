//! NCCL's own lines in the paste: `NCCL_PROTO`/`NCCL_ALGO`, kernel names,
//! the model's inputs found, and the port of NCCL's tuning model against
//! the logged TUNING table and per-call picks (from
//! [`crate::core::measure::analysis::NcclReport`]).

use yew::prelude::*;

use crate::app::shared::Shared;
use crate::core::cost::nccl_tune::NOT_MODELLED;
use crate::core::measure::analysis::Analysis;
use crate::core::measure::nccl_debug::DebugComparison;
use crate::core::units::{format_decimal, group_thousands, sig};

/// Props of [`NcclLogPanel`].
#[derive(Properties, PartialEq)]
pub struct NcclLogPanelProps {
    /// The core's analysis.
    pub analysis: Shared<Analysis>,
}

fn percent((agree, of): (usize, usize)) -> String {
    if of == 0 {
        "nothing to compare".into()
    } else {
        format!(
            "{agree} of {of} ({} %)",
            sig(100.0 * agree as f64 / of as f64, 3)
        )
    }
}

fn comparison(c: &DebugComparison) -> Html {
    let picks = c.picks.iter().map(|p| {
        let port = p.port.map_or_else(
            || "none".to_string(),
            |(a, pr, t)| format!("{}/{} ({} µs)", a.name(), pr.name(), sig(t, 6)),
        );
        let logged = match p.logged.time {
            Some(t) => format!(
                "{}/{} ({} µs)",
                p.logged.algo,
                p.logged.proto.name(),
                sig(t, 6)
            ),
            None => format!("{}/{}", p.logged.algo, p.logged.proto.name()),
        };
        let verdict = if !p.modelled() {
            "not modelled"
        } else if p.agrees() {
            "same"
        } else {
            "differs"
        };
        html! {
            <tr class={classes!((verdict == "differs").then_some("flagged"))}>
                <td>{format!("{} {}", p.func.name(), group_thousands(p.logged.bytes))}</td>
                <td>{logged}</td><td>{port}</td><td>{verdict}</td>
            </tr>
        }
    });
    let off: Vec<Html> = c
        .cells
        .iter()
        .filter(|x| !x.agrees())
        .take(8)
        .map(|x| {
            let (l, b) = x.port.unwrap_or((f64::NAN, f64::NAN));
            html! { <li>{format!("{} {}/{}: logged {}/{}, port {}/{}", x.logged.func.name(), x.logged.algo, x.logged.proto.name(),
                sig(x.logged.lat, 4), sig(x.logged.bw, 4), sig(l, 4), sig(b, 4))}</li> }
        })
        .collect();
    html! {
        <>
            <p id="nccl-cells"><strong>{"TUNING table cells (Tree and Ring, within 0.1): "}</strong>{percent(c.cell_agreement())}
                {if c.not_modelled_cells > 0 { format!("; {} cells of paths not modelled", c.not_modelled_cells) } else { String::new() }}</p>
            if !off.is_empty() { <ul class="flagged">{ for off }</ul> }
            <p id="nccl-picks"><strong>{"Per-call picks: "}</strong>{percent(c.pick_agreement())}</p>
            if !c.picks.is_empty() {
                <div class="table-scroll" role="region" tabindex="0" aria-label="Logged and predicted picks (scrollable table)">
                    <table class="data nccl-picks">
                        <thead><tr><th>{"call"}</th><th>{"logged"}</th><th>{"port"}</th><th>{""}</th></tr></thead>
                        <tbody>{ for picks }</tbody>
                    </table>
                </div>
            }
        </>
    }
}

/// The NCCL panel (nothing without NCCL lines in the paste).
#[component]
pub fn NcclLogPanel(props: &NcclLogPanelProps) -> Html {
    let Some(r) = props.analysis.nccl.as_ref() else {
        return html! {};
    };
    let d = &r.debug;
    html! {
        <section class="panel wide" id="nccl-panel" aria-labelledby="nccl-log-h">
            <h2 id="nccl-log-h">{"NCCL's own choices in this log"}</h2>
            if let Some((line, v)) = &d.proto_env {
                <p id="nccl-proto-env" class="flagged"><strong>{format!("NCCL_PROTO set by environment to {v}")}</strong>
                    {format!(" (line {line}): NCCL may only use these protocols, whatever its model prefers.")}</p>
            }
            if let Some((line, v)) = &d.algo_env {
                <p id="nccl-algo-env" class="flagged"><strong>{format!("NCCL_ALGO set by environment to {v}")}</strong>{format!(" (line {line}).")}</p>
            }
            if !d.kernels.is_empty() {
                <p>{"Kernels: "}{d.kernels.iter().map(|k| format!("{} (line {})", k.name, k.line)).collect::<Vec<_>>().join(", ")}</p>
            }
            <p class="muted">{format!("Model inputs read: {}.", if d.inputs.read.is_empty() { "none".to_string() } else { d.inputs.read.join("; ") })}</p>
            { match &r.comparison {
                Some(Ok(c)) => html! { <>
                    <p>{format!("The port of NCCL's tuning model ({} rules) at these inputs:", c.tuning.inputs.version.tag())}</p>
                    {comparison(c)}
                </> },
                Some(Err(e)) => html! { <p class="field-error" role="status">{format!("NCCL's model refuses these inputs: {e}")}</p> },
                None => html! { <p class="muted">{format!(
                    "No GRAPH lines (NCCL_DEBUG_SUBSYS=INIT,GRAPH): the model's inputs are unknown, so the {}{} logged are shown without the port's.",
                    if d.table.is_some() { "TUNING table and " } else { "" },
                    format!("{} per-call picks", d.calls.len()))} </p> },
            } }
            if let Some((regrets, rows)) = &r.regrets {
                if regrets.is_empty() {
                    <p id="nccl-regrets">{"The two measured sweeps (NCCL_ALGO forced to each) never show NCCL's pick more than 5 % slower than the other algorithm."}</p>
                } else {
                    <p id="nccl-regrets"><strong>{format!("NCCL's pick measured slower at {} size(s): ", regrets.len())}</strong>
                        {regrets.iter().map(|g| format!("{}: {} picked, {} measured {} % faster", format_decimal(g.bytes), g.picked.name(), g.faster.name(), sig(100.0 * (1.0 - 1.0 / (1.0 + g.loss)), 3))).collect::<Vec<_>>().join("; ")}</p>
                    <p>{"A row for NCCL's example tuner plugin (plugins/tuner/example, nccl_tuner.conf: collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks) that picks the faster one there, with the model's best protocol for it:"}</p>
                    <pre class="calc" id="nccl-tuner-rows">{rows.join("\n")}</pre>
                }
            }
            <p class="muted">{format!("Not modelled: {}. Sizes are as NCCL prints them ({} B smallest).", NOT_MODELLED.join(", "),
                d.calls.first().map_or_else(|| "—".to_string(), |c| format_decimal(c.bytes as f64)))}</p>
        </section>
    }
}
