//! NCCL's own lines in the paste: `NCCL_PROTO`/`NCCL_ALGO`, kernel names,
//! and the port of NCCL's tuning model against the logged TUNING table and
//! per-call picks, with where two forced sweeps show its pick losing (from
//! [`crate::core::measure::analysis::NcclReport`]).

use yew::prelude::*;

use crate::core::cost::nccl_tune::NOT_MODELLED;
use crate::core::measure::analysis::Analysis;
use crate::core::measure::nccl_debug::DebugComparison;
use crate::core::units::{format_decimal, group_thousands, sig};
use crate::pages::measure::percent;
use crate::params::protocol::cost_link;

fn comparison(c: &DebugComparison) -> Html {
    let cells = c.cells.iter().filter(|x| !x.agrees()).take(6).map(|x| {
        let (l, b) = x.port.unwrap_or_default();
        format!(
            "{} {}/{}: logged {}/{}, port {}/{}",
            x.logged.func.name(),
            x.logged.algo,
            x.logged.proto.name(),
            crate::core::units::decimal::shortest(x.logged.lat),
            crate::core::units::decimal::shortest(x.logged.bw),
            sig(l, 4),
            sig(b, 4)
        )
    });
    let picks = c
        .picks
        .iter()
        .filter(|p| p.modelled() && !p.agrees())
        .take(6)
        .map(|p| {
            format!(
                "{} B: logged {}/{}, port {}",
                group_thousands(p.logged.bytes),
                p.logged.algo,
                p.logged.proto.name(),
                p.port.map_or_else(
                    || "none".into(),
                    |(a, pr, _)| format!("{}/{}", a.name(), pr.name())
                )
            )
        });
    let diffs: Vec<String> = cells.chain(picks).collect();
    html! {<>
        if !c.cells.is_empty() {
            <p id="nccl-cells">{format!("TUNING table cells within 0.1 (Tree, Ring): {}; {} cells of paths not modelled.",
                percent(c.cell_agreement()), c.not_modelled_cells)}</p>
        }
        <p id="nccl-picks">{format!("Per-call picks: {}.", percent(c.pick_agreement()))}</p>
        if !diffs.is_empty() {
            <ul class="flagged">{ for diffs.into_iter().map(|d| html! { <li>{d}</li> }) }</ul>
        }
    </>}
}

/// The NCCL panel of analysis `a` (nothing without NCCL lines in the
/// paste); a plain function, not a component.
pub fn nccl_panel(a: &Analysis) -> Html {
    let Some(r) = a.nccl.as_ref() else {
        return html! {};
    };
    let d = &r.debug;
    let env = d
        .proto_env
        .iter()
        .map(|(n, v)| format!("NCCL_PROTO set by environment to {v} (line {n})"))
        .chain(
            d.algo_lines
                .iter()
                .map(|(n, v)| format!("NCCL_ALGO set by environment to {v} (line {n})")),
        );
    html! {
        <section class="panel wide" id="nccl-panel" aria-labelledby="nccl-log-h">
            <h2 id="nccl-log-h">{"NCCL's own choices"}</h2>
            <ul id="nccl-env" class="flagged">{ for env.map(|e| html! { <li>{e}</li> }) }</ul>
            if !d.kernels.is_empty() {
                <p>{"Kernels: "}{d.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", ")}</p>
            }
            { match &r.comparison {
                Some(Ok(c)) => html! {<>
                    <p>{format!("NCCL's model ({} rules) at the log's inputs: ", c.tuning.inputs.version.tag())}
                        <a id="nccl-cost-link" href={cost_link(&c.tuning.inputs)}>{"open it in the cost view"}</a></p>
                    {comparison(c)}
                </>},
                Some(Err(e)) => html! { <p class="field-error" role="status">{e.clone()}</p> },
                None => html! { <p class="muted">{"No GRAPH lines (NCCL_DEBUG_SUBSYS=INIT,GRAPH): the model's inputs are unknown."}</p> },
            } }
            if let Some((regrets, rows)) = &r.regrets {
                <p id="nccl-regrets">{ if regrets.is_empty() {
                    "In the two forced sweeps NCCL's pick is never more than 5 % slower.".to_string()
                } else {
                    format!("NCCL's pick measured slower at: {}.", regrets.iter().map(|g| format!("{} ({} picked, {} {} % faster)",
                        format_decimal(g.bytes), g.picked.name(), g.faster.name(), sig(100.0 * g.loss / (1.0 + g.loss), 3))).collect::<Vec<_>>().join(", "))
                } }</p>
                if !rows.is_empty() {
                    <p>{"Rows for NCCL's example tuner plugin (nccl_tuner.conf) that pick the faster one:"}</p>
                    <pre class="calc" id="nccl-tuner-rows">{rows.join("\n")}</pre>
                }
            }
            <p class="muted">{format!("Not modelled: {}.", NOT_MODELLED.join(", "))}</p>
        </section>
    }
}
