//! The cost view's protocol fields: the `proto` menu, MPI's eager limit
//! and handshake, NCCL's inputs, and a box to paste NCCL's GRAPH lines,
//! which fills NCCL's inputs ([`crate::params::protocol`]).

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::app::components::field::{Drafts, TextField};
use crate::app::components::select_field::SelectField;
use crate::app::state::{commit_to, OnCommit};
use crate::core::cost::nccl_tune::Version;
use crate::params::cost::CostViewParams;
use crate::params::protocol::{fields_from_log, ProtoChoice};

/// Props of [`ProtoControls`].
#[derive(Properties, PartialEq)]
pub struct ProtoControlsProps {
    /// The view's last good parameters.
    pub params: CostViewParams,
    /// Rejected texts and their messages.
    pub drafts: Drafts,
    /// Commits one field.
    pub on_commit: OnCommit,
    /// Commits several fields at once (a pasted log).
    pub on_commit_all: Callback<Vec<(&'static str, String)>>,
}

/// The protocol fields.
#[component]
pub fn ProtoControls(props: &ProtoControlsProps) -> Html {
    let (params, d) = (&props.params, &props.drafts);
    let pr = &params.proto;
    let commit = |f: &'static str| commit_to(&props.on_commit, f);
    let notes = use_state(Vec::<String>::new);
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
    let on_paste = {
        let (all, notes, current) = (
            props.on_commit_all.clone(),
            notes.clone(),
            pr.nccl.inputs(params.p),
        );
        Callback::from(move |e: Event| {
            let Some(t) = e.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            let (fields, read) = fields_from_log(&t.value(), &current);
            notes.set(read);
            all.emit(fields);
        })
    };
    let n = &pr.nccl;
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <SelectField name="proto" label="Protocol layer" options={options}
                selected={pr.choice.key()} error={d.error("proto")} on_commit={commit("proto")} />
            if pr.choice == ProtoChoice::Mpi {
                <TextField name="eager" label="Eager limit" value={d.text_or("eager", &pr.eager.text)}
                    error={d.error("eager")} hint={AttrValue::from("bytes, header included; Open MPI's shared memory: 4KiB")} on_commit={commit("eager")} />
                <TextField name="rndv" label="Rendezvous handshake"
                    value={d.text_or("rndv", &pr.rndv.as_ref().map_or_else(|| "2α".to_string(), |h| h.text.clone()))}
                    error={d.error("rndv")} hint={AttrValue::from("a time, or 2α: one round trip")} on_commit={commit("rndv")} />
            }
            if pr.choice == ProtoChoice::Nccl {
                <SelectField name="nccl_ver" label="NCCL version's rules" options={versions}
                    selected={n.version.key()} error={d.error("nccl_ver")} on_commit={commit("nccl_ver")} />
                <TextField name="nodes" label="Nodes" value={d.text_or("nodes", &n.nodes.to_string())}
                    error={d.error("nodes")} hint={AttrValue::from(format!("1 to p = {}", params.p))} on_commit={commit("nodes")} />
                <TextField name="ch" label="Channels (graph)" value={d.text_or("ch", &n.channels.to_string())}
                    error={d.error("ch")} hint={AttrValue::from("GRAPH line's nChannels, 1 to 64")} on_commit={commit("ch")} />
                <TextField name="intra" label="Bandwidth per channel, intra-node" value={d.text_or("intra", &n.intra.text)}
                    error={d.error("intra")} hint={AttrValue::from("GRAPH line's bw x/…, e.g. 20GB/s")} on_commit={commit("intra")} />
                <TextField name="inter" label="Bandwidth per channel, inter-node" value={d.text_or("inter", &n.inter.text)}
                    error={d.error("inter")} hint={AttrValue::from("GRAPH line's bw …/y, e.g. 20GB/s")} on_commit={commit("inter")} />
                <TextField name="netlat" label="Extra inter-node latency" value={d.text_or("netlat", &n.netlat.text)}
                    error={d.error("netlat")} hint={AttrValue::from("the net plugin's; 0us for IB and sockets")} on_commit={commit("netlat")} />
                <TextField name="cc" label="Compute capability × 10" value={d.text_or("cc", &n.cc.to_string())}
                    error={d.error("cc")} hint={AttrValue::from("70 V100, 80 A100, 90 H100, 100 B200")} on_commit={commit("cc")} />
                <SelectField name="link" label="Path inside a node" options={links}
                    selected={if n.nvlink { "nvl" } else { "pci" }} error={d.error("link")} on_commit={commit("link")} />
                <div class="field wide-field">
                    <label for="f-nccl-log">{"… or paste NCCL_DEBUG=INFO lines (GRAPH, INIT)"}</label>
                    <textarea id="f-nccl-log" rows="3" placeholder="NCCL INFO Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/PIX, sameChannels 1"
                        onchange={on_paste} />
                    if !notes.is_empty() {
                        <ul class="muted" id="nccl-log-read">{ for notes.iter().map(|t| html! { <li>{t.clone()}</li> }) }</ul>
                    }
                </div>
            }
        </form>
    }
}
