//! Honest caveats, with this run's algbw and busbw for the two-level tree
//! remark.

use yew::prelude::*;

/// Props of [`caveats_panel`].
#[derive(PartialEq)]
pub struct CaveatsProps {
    /// The busbw sentence for this run, built from the core's algbw/busbw
    /// (e.g. "Here hierarchical: algbw 21 GB/s, busbw 37 GB/s, NIC 12.5 GB/s").
    pub busbw_sentence: AttrValue,
}

/// The caveats panel.
pub fn caveats_panel(props: &CaveatsProps) -> Html {
    html! {
        <section class="panel wide" aria-labelledby="topo-caveats-h" id="caveats">
            <h2 class="panel-h" id="topo-caveats-h">{"What this model does not say"}</h2>
            <ul>
                <li>{"Fewer inter-node participants does not cut network bytes by exactly the number of GPUs per node: \
                    what crosses the NICs depends on the schedule (compare the “bytes per NIC” column) and the time on which link is busiest."}</li>
                <li>{"Lanes help only if every NIC sustains its bandwidth at the same time; a shared PCIe switch, a slow \
                    host path or a congested fabric removes the gain the model shows."}</li>
                <li>{"Failures are not modelled: a lost rank stops every one of these collectives; recovery needs its own mechanism."}</li>
                <li>{"Not modelled either: pipelining within a message, protocol switches, reduction compute, congestion from other jobs."}</li>
                <li id="busbw-caveat">
                    {"A two-level tree’s “busbw” can exceed the NIC speed. nccl-tests computes busbw = algbw × 2(p−1)/p, \
                    the per-rank bytes a flat ring would move; a hierarchical schedule moves most of them over the fast \
                    intra-node links, so the figure credits the NIC with traffic it never carried. "}
                    {props.busbw_sentence.clone()}
                </li>
            </ul>
        </section>
    }
}
