//! The cost view's protocol fields: the `proto` menu, MPI's eager limit
//! and handshake, and NCCL's inputs ([`crate::params::protocol`]). A log's
//! inputs arrive as a link from the measure view, which reads NCCL's GRAPH
//! lines.

use yew::prelude::*;

use crate::app::components::field::{Drafts, TextField};
use crate::app::components::select_field::SelectField;
use crate::app::state::{commit_to, OnCommit};
use crate::core::cost::nccl_tune::Version;
use crate::params::cost::CostViewParams;
use crate::params::protocol::ProtoChoice;

/// The protocol fields of `params`, with the rejected texts `d`; each
/// commits through `on_commit`. A plain function, not a component (one
/// component less on the page).
pub fn proto_controls(params: &CostViewParams, d: &Drafts, on_commit: &OnCommit) -> Html {
    let pr = &params.proto;
    let commit = |f: &'static str| commit_to(on_commit, f);
    let options: Vec<(AttrValue, AttrValue)> = ProtoChoice::ALL
        .iter()
        .map(|c| (c.key().into(), c.label().into()))
        .collect();
    let versions: Vec<(AttrValue, AttrValue)> = Version::ALL
        .iter()
        .map(|v| (v.key().into(), format!("NCCL {}", v.tag()).into()))
        .collect();
    let links: Vec<(AttrValue, AttrValue)> = vec![
        ("nvl".into(), "NVLink (NVL)".into()),
        ("pci".into(), "PCIe".into()),
    ];
    let n = &pr.nccl;
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <SelectField name="proto" label="Protocol layer" options={options}
                selected={pr.choice.key()} error={d.error("proto")} on_commit={commit("proto")} />
            if pr.choice == ProtoChoice::Mpi {
                <TextField name="eager" label="Eager limit" value={d.text_or("eager", &pr.eager.text)}
                    error={d.error("eager")} hint={AttrValue::from("e.g. 4KiB (Open MPI, shared memory)")} on_commit={commit("eager")} />
                <TextField name="rndv" label="Rendezvous handshake"
                    value={d.text_or("rndv", &pr.rndv.as_ref().map_or_else(|| "2α".to_string(), |h| h.text.clone()))}
                    error={d.error("rndv")} hint={AttrValue::from("a time, or 2α")} on_commit={commit("rndv")} />
            }
            if pr.choice == ProtoChoice::Nccl {
                <SelectField name="nccl_ver" label="NCCL version's rules" options={versions}
                    selected={n.version.key()} error={d.error("nccl_ver")} on_commit={commit("nccl_ver")} />
                <TextField name="nodes" label="Nodes" value={d.text_or("nodes", &n.nodes.to_string())}
                    error={d.error("nodes")} hint={AttrValue::from(format!("1 to p = {}", params.p))} on_commit={commit("nodes")} />
                <TextField name="ch" label="Channels (graph)" value={d.text_or("ch", &n.channels.to_string())}
                    error={d.error("ch")} hint={AttrValue::from("1 to 64")} on_commit={commit("ch")} />
                <TextField name="intra" label="Bandwidth per channel, intra-node" value={d.text_or("intra", &n.intra.text)}
                    error={d.error("intra")} hint={AttrValue::from("e.g. 20GB/s")} on_commit={commit("intra")} />
                <TextField name="inter" label="Bandwidth per channel, inter-node" value={d.text_or("inter", &n.inter.text)}
                    error={d.error("inter")} hint={AttrValue::from("e.g. 20GB/s")} on_commit={commit("inter")} />
                <TextField name="netlat" label="Extra inter-node latency" value={d.text_or("netlat", &n.netlat.text)}
                    error={d.error("netlat")} hint={AttrValue::from("e.g. 0us")} on_commit={commit("netlat")} />
                <TextField name="cc" label="Compute capability × 10" value={d.text_or("cc", &n.cc.to_string())}
                    error={d.error("cc")} hint={AttrValue::from("80 A100, 90 H100")} on_commit={commit("cc")} />
                <SelectField name="link" label="Path inside a node" options={links}
                    selected={if n.nvlink { "nvl" } else { "pci" }} error={d.error("link")} on_commit={commit("link")} />
            }
        </form>
    }
}
