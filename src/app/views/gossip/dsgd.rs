//! One decentralised SGD step: the course's fixed worked example, computed by the core.

use yew::prelude::*;

use crate::core::consensus::{
    dsgd_explain, dsgd_step, mixing_matrix, Graph, GraphKind, WeightRule,
};

/// The worked D-SGD step panel.
#[component]
pub fn DsgdExample() -> Html {
    let dsgd = use_memo((), |_| {
        let g = Graph::new(GraphKind::Ring, 3, 0).ok()?;
        let w = mixing_matrix(&g, WeightRule::Uniform).ok()?;
        let s = dsgd_step(&w, &[3.0, 6.0, 12.0], &[0.0, 2.0, 1.0], 0.5).ok()?;
        dsgd_explain(&w, &s, 1)
    });
    html! {
        <section class="panel" aria-labelledby="dsgd-h">
            <h2 class="panel-h" id="dsgd-h">{"One decentralised SGD step (worked example)"}</h2>
            <p>{"A fixed example, separate from the graph above: a node holds 6; its neighbours hold 3 and 12; all three weights are 1/3. Its gradient, taken at its own current model, is 2, and η = 0.5."}</p>
            if let Some(e) = dsgd.as_ref() {
                <p><strong>{"Convention used here (the course notes', as in D-PSGD): gradient at the current local model, mix, then subtract η·g."}</strong></p>
                <ol>
                    <li><code id="dsgd-mix">{e.mixed.clone()}</code></li>
                    <li><code id="dsgd-next">{e.mix_then_step.clone()}</code></li>
                </ol>
                <p>{"Without mixing the same local step gives "}<code id="dsgd-local">{e.local_only.clone()}</code>{"."}</p>
                <p><strong>{"Alternative order (labelled, not used above): local gradient step first, then mix."}</strong>
                    {" It needs the neighbours' gradients too; we assume 0 and 1 (the worked example gives only this node's): "}
                    <code id="dsgd-alt">{e.step_then_mix.clone()}</code>
                    {". The two orders agree only when the neighbourhood's weighted gradient equals the node's own."}</p>
            }
        </section>
    }
}
