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
                <li>{"ZeRO-2 (mode=zero2): DDP's buckets are reduce-scattered; after the last, one all-gather of the updated parameters, not overlapped. \
                      FSDP (mode=fsdp), one unit per layer: an all-gather before each layer's forward and again before its backward; layer l + 1's is issued when layer l's forward starts, \
                      the last layer's when the forward ends, layer l − 1's when layer l's backward starts; a layer's reduce-scatter when its backward ends, ahead of a prefetch issued at that instant. \
                      One stream, first in first out; fwd= is split evenly over the layers; overlap=0 prefetches nothing. \
                      The collectives are the registry's ring reduce-scatter and all-gather (alg=ring), or recursive halving and doubling (alg=rab)."}</li>
                <li>{"Memory per rank, mixed-precision Adam (Rajbhandari et al. 2020, §3), K = optim=: DDP (4 + K)Ψ; ZeRO-1 4Ψ + KΨ/N; ZeRO-2 2Ψ + (2 + K)Ψ/N; ZeRO-3 (4 + K)Ψ/N, plus the largest layer gathered for FSDP."}</li>
                <li>{"Not modelled: data loading, the optimizer step, compute slowed by communication sharing the GPU, and several communication streams."}</li>
            </ul>
        </section>
    }
}
