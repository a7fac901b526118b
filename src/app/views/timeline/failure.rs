//! The failure panel: shown when a clock stalls. It names the failed ranks,
//! who waits for whom, who (if anyone) finished, and what real systems do.

use yew::prelude::*;

use crate::core::timing::story::failure;
use crate::pages::common::clocks::SharedRuns;

/// Props of [`failure_panel`].
#[derive(PartialEq)]
pub struct FailurePanelProps {
    /// The runs.
    pub runs: SharedRuns,
}

/// `#failure`: one block per stalled mode; nothing when every mode completes.
pub fn failure_panel(props: &FailurePanelProps) -> Html {
    let stalled: Vec<_> = props
        .runs
        .0
        .runs
        .iter()
        .filter(|r| !r.clock.completes())
        .collect();
    if stalled.is_empty() {
        return Html::default();
    }
    html! {
        <section class="panel wide failure" id="failure" role="alert" aria-labelledby="failure-h">
            <h2 class="panel-h" id="failure-h">{"The collective does not complete"}</h2>
            { for stalled.iter().map(|r| {
                let lines = failure(&r.clock);
                html! {
                    <div class="failure-mode">
                        <h3>{r.mode.label()}</h3>
                        <ul>{ for lines.iter().skip(1).map(|l| html! { <li>{l.clone()}</li> }) }</ul>
                    </div>
                }
            }) }
            <p class="muted">
                {"What real systems do: nothing here returns a value, and neither does a real job. NCCL's watchdog in PyTorch's "}
                <code>{"ProcessGroupNCCL"}</code>
                {" aborts the communicator once a collective exceeds the timeout (the "}
                <code>{"timeout"}</code>
                {" argument of "}
                <a href="https://pytorch.org/docs/stable/distributed.html#torch.distributed.init_process_group">
                    <code>{"torch.distributed.init_process_group"}</code></a>
                {"), the process exits, and an elastic launcher such as "}
                <a href="https://pytorch.org/docs/stable/elastic/run.html">{"torchrun"}</a>
                {" restarts the workers, which resume from the last checkpoint."}
            </p>
        </section>
    }
}
