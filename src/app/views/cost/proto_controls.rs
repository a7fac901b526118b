//! The cost view's protocol fields: the `proto` menu, MPI's eager limit
//! and handshake, and NCCL's inputs ([`crate::params::protocol`]). A log's
//! inputs arrive as a link from the measure view, which reads NCCL's GRAPH
//! lines.

use yew::prelude::*;

use crate::app::components::field::{text_field, Drafts, TextFieldProps};
use crate::app::components::select_field::{select_field, SelectFieldProps};
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
            {select_field(&SelectFieldProps { name: "proto".into(), label: "Protocol layer".into(), options, selected: pr.choice.key().into(), error: d.error("proto"), on_commit: commit("proto"), class: Classes::new() })}
            if pr.choice == ProtoChoice::Mpi {
                {text_field(&TextFieldProps { name: "eager".into(), label: "Eager limit".into(), value: (d.text_or("eager", &pr.eager.text)).into(), error: d.error("eager"), hint: Some((AttrValue::from("e.g. 4KiB (Open MPI, shared memory)")).into()), on_commit: commit("eager") })}
                {text_field(&TextFieldProps { name: "rndv".into(), label: "Rendezvous handshake".into(), value: (d.text_or("rndv", &pr.rndv.as_ref().map_or_else(|| "2α".to_string(), |h| h.text.clone()))).into(), error: d.error("rndv"), hint: Some((AttrValue::from("a time, or 2α")).into()), on_commit: commit("rndv") })}
            }
            if pr.choice == ProtoChoice::Nccl {
                {select_field(&SelectFieldProps { name: "nccl_ver".into(), label: "NCCL version's rules".into(), options: versions, selected: n.version.key().into(), error: d.error("nccl_ver"), on_commit: commit("nccl_ver"), class: Classes::new() })}
                {text_field(&TextFieldProps { name: "nodes".into(), label: "Nodes".into(), value: (d.text_or("nodes", &n.nodes.to_string())).into(), error: d.error("nodes"), hint: Some((AttrValue::from(format!("1 to p = {}", params.p))).into()), on_commit: commit("nodes") })}
                {text_field(&TextFieldProps { name: "ch".into(), label: "Channels (graph)".into(), value: (d.text_or("ch", &n.channels.to_string())).into(), error: d.error("ch"), hint: Some((AttrValue::from("1 to 64")).into()), on_commit: commit("ch") })}
                {text_field(&TextFieldProps { name: "intra".into(), label: "Bandwidth per channel, intra-node".into(), value: (d.text_or("intra", &n.intra.text)).into(), error: d.error("intra"), hint: Some((AttrValue::from("e.g. 20GB/s")).into()), on_commit: commit("intra") })}
                {text_field(&TextFieldProps { name: "inter".into(), label: "Bandwidth per channel, inter-node".into(), value: (d.text_or("inter", &n.inter.text)).into(), error: d.error("inter"), hint: Some((AttrValue::from("e.g. 20GB/s")).into()), on_commit: commit("inter") })}
                {text_field(&TextFieldProps { name: "netlat".into(), label: "Extra inter-node latency".into(), value: (d.text_or("netlat", &n.netlat.text)).into(), error: d.error("netlat"), hint: Some((AttrValue::from("e.g. 0us")).into()), on_commit: commit("netlat") })}
                {text_field(&TextFieldProps { name: "cc".into(), label: "Compute capability × 10".into(), value: (d.text_or("cc", &n.cc.to_string())).into(), error: d.error("cc"), hint: Some((AttrValue::from("80 A100, 90 H100")).into()), on_commit: commit("cc") })}
                {select_field(&SelectFieldProps { name: "link".into(), label: "Path inside a node".into(), options: links, selected: (if n.nvlink { "nvl" } else { "pci" }).into(), error: d.error("link"), on_commit: commit("link"), class: Classes::new() })}
            }
        </form>
    }
}
