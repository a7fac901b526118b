//! The state at the time cursor, in words, for each mode shown.

use yew::prelude::*;

use crate::core::timing::gantt::{moment, narrate};
use crate::core::units::format_time;
use crate::pages::common::clocks::SharedRuns;

/// Props of [`cursor_narration`].
#[derive(PartialEq)]
pub struct CursorNarrationProps {
    /// The runs.
    pub runs: SharedRuns,
    /// The cursor, seconds.
    pub t: f64,
}

/// `#narration`: who moves and who waits for whom at `t`.
pub fn cursor_narration(props: &CursorNarrationProps) -> Html {
    let t = props.t;
    html! {
        <div class="status" id="narration" aria-live="polite">
            <p class="phase">{format!("At t = {}", format_time(t))}</p>
            { for props.runs.0.runs.iter().map(|r| html! {
                <p class="narration"><strong>{format!("{}: ", r.mode.label())}</strong>{narrate(&moment(&r.clock, t))}</p>
            }) }
        </div>
    }
}
