//! The "Check" panel of the ring and collectives views: whether the executed
//! schedule's result was verified against the expected reduction.

use yew::prelude::*;

pub use crate::pages::common::check::Check;

/// Props of [`check_panel`].
#[derive(PartialEq)]
pub struct CheckPanelProps {
    /// The verdict.
    pub check: Check,
}

/// The check panel (`#check`).
pub fn check_panel(props: &CheckPanelProps) -> Html {
    let line = match &props.check {
        Check::Pending { done, rounds } => html! {
            <p class="check pending" id="check">{format!("Not finished: {done} of {rounds} rounds run.")}</p>
        },
        Check::Executing(what) => html! {
            <p class="check pending" id="check" role="status" aria-busy="true">
                {format!("Checking: executing {what} …")}
                <progress aria-label={format!("Executing {what}")}></progress>
            </p>
        },
        Check::Verified(what) => {
            html! { <p class="check ok" id="check">{format!("✓ Verified: {what}")}</p> }
        }
        Check::Failed(what) => {
            html! { <p class="check bad" id="check" role="alert">{format!("✗ {what}")}</p> }
        }
    };
    html! {
        <section class="panel" aria-labelledby="check-h">
            <h2 class="panel-h" id="check-h">{"Check"}</h2>
            {line}
        </section>
    }
}
