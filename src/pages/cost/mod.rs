//! `?view=cost`: what the cost page shows beyond the core's tables. The
//! line of units under the controls ([`units_line`]), the preset's caveat
//! ([`preset_note`]), and the protocol panels as rows and sentences
//! ([`protocol`]): MPI's eager/rendezvous rule (Open MPI's defaults, see
//! [`crate::core::cost::protocol`]) and NCCL's tuning model
//! ([`crate::core::cost::nccl_tune`], a port of NCCL's `src/graph/tuning.cc`).

pub mod protocol;

#[cfg(test)]
mod tests;

use crate::core::units::{bandwidth_chain, format_beta, format_binary, format_size, format_time};
use crate::params::cost::{CostViewParams, Link};
use crate::params::protocol::ProtoChoice;

/// The units line: "p = 16; α = 5 µs; 100 Gb/s = 12.5 GB/s → β = 80 ps/B;
/// n = 8,192 B (8 KiB, 8.192 kB)", then γ when it is not 0, then the
/// protocol layer when one is chosen.
pub fn units_line(params: &CostViewParams) -> String {
    let model = params.model();
    let link = match &params.link {
        Link::Bandwidth(b) => bandwidth_chain(&b.value),
        Link::Beta(b) => format!("β = {} (given directly)", format_beta(b.value)),
    };
    let mut line = format!(
        "p = {}; α = {}; {link}; n = {}",
        params.p,
        format_time(model.alpha),
        format_size(params.size.value.bytes)
    );
    if model.gamma != 0.0 {
        line.push_str(&format!("; γ = {}", format_beta(model.gamma)));
    }
    let proto = &params.proto;
    match proto.choice {
        ProtoChoice::None => {}
        ProtoChoice::Mpi => line.push_str(&format!(
            "; MPI protocol: eager below {}",
            format_binary(proto.eager.value.bytes as f64)
        )),
        ProtoChoice::Nccl => line.push_str(&format!(
            "; NCCL {} model, {} node(s)",
            proto.nccl.version.tag(),
            proto.nccl.nodes.min(params.p)
        )),
    }
    line
}

/// The caveat under a preset's numbers (`None` without `preset=`).
pub fn preset_note(params: &CostViewParams) -> Option<String> {
    params.preset.map(|pr| {
        format!(
            "Preset: {}. These are round illustrative numbers for a link class, not measurements of a product.",
            pr.label()
        )
    })
}
