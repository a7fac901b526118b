//! `#model`: the model's rules and their sources, stated once.

use yew::prelude::*;

/// `#model` (a plain function: no state, so no component around it).
pub fn model_note() -> Html {
    html! {
        <section class="panel wide" id="model" aria-labelledby="model-h">
            <h2 class="panel-h" id="model-h">{"The model of one step"}</h2>
            <ul>
                <li>{"Layers in forward order, each with a parameter count (25M = 25 × 10⁶ parameters; a count, not a size), a gradient type (fp32 4 bytes, bf16 and fp16 2), one forward time and a backward time per layer. Gradients become ready in reverse layer order."}</li>
                <li>
                    {"Buckets as PyTorch DDP forms them after its first-iteration rebuild ("}<code>{"Reducer::rebuild_buckets"}</code>{" calls "}
                    <code>{"compute_bucket_assignment_by_size"}</code>{"): walk the gradients in ready order and close a bucket as soon as its bytes reach its cap. \
                      The first cap is "}<code>{"_DEFAULT_FIRST_BUCKET_BYTES"}</code>{", 1 MiB (first=), every later one "}<code>{"bucket_cap_mb"}</code>
                    {", 25 MiB = 26,214,400 B (bucket=). A tensor is never split, so a bucket can pass its cap by its last tensor. \
                      Recent PyTorch releases use bucket_cap_mb for the first bucket too when you set it; first= equal to bucket= reproduces that."}
                </li>
                <li>{"One communication stream: a bucket's all-reduce starts when the bucket is ready and the previous all-reduce has ended. Its time is the registry schedule's executed time on this network (α + bytes × β per message, each round as long as its slowest message), not a new formula."}</li>
                <li>{"The step ends when compute and communication have both ended. Exposed communication is the step time minus the compute time. overlap=0 starts every all-reduce after the backward pass."}</li>
                <li>{"D-PSGD's exchange starts with the step and runs beside the compute, since its update takes the gradient at the old model: max(compute, exchange). Local SGD: h compute steps, then one all-reduce of the model."}</li>
                <li>{"ZeRO-2 (mode=zero2): the same buckets and order, each reduce-scattered instead of all-reduced; after the last one, the updated parameters are all-gathered in one collective, not overlapped."}</li>
                <li>{"FSDP, ZeRO-3 (mode=fsdp), one unit per layer: each layer's parameters are all-gathered before its forward and again before its backward (resharded after forward, every layer). \
                      Layer l + 1's all-gather is issued when layer l's forward starts (prefetch one layer); the last layer's backward all-gather when the forward ends; \
                      in backward, layer l − 1's when layer l's backward starts; layer l's gradients are reduce-scattered when its backward ends. \
                      One stream, first in first out; at one instant the reduce-scatter of the layer that just ended goes before the next prefetch. \
                      fwd= is the whole forward pass, split evenly over the layers. overlap=0 prefetches nothing and reduce-scatters after the backward pass."}</li>
                <li>{"Every reduce-scatter and all-gather is the registry's schedule executed on this network: ring reduce-scatter (rs) and ring all-gather (ag) for alg=ring; \
                      recursive halving reduce-scatter (rh) and recursive doubling all-gather, the halves of Rabenseifner's all-reduce, for alg=rab. \
                      The other all-reduces are not a reduce-scatter followed by an all-gather, so ZeRO-2 and FSDP do not run on them."}</li>
                <li>{"Memory per rank with mixed-precision Adam (Rajbhandari et al. 2020, \"ZeRO\", §3): 2 bytes of parameters, 2 of gradients and K of optimizer state per parameter (optim=, 12 by default). \
                      DDP (4 + K)Ψ; ZeRO-1 4Ψ + KΨ/N; ZeRO-2 2Ψ + (2 + K)Ψ/N; ZeRO-3 (4 + K)Ψ/N, and FSDP holds the largest layer gathered as well."}</li>
                <li>{"Not modelled: data loading, the optimizer step, compute slowed by communication sharing the GPU, and several communication streams."}</li>
            </ul>
        </section>
    }
}
