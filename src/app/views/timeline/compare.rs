//! Lock-step against dataflow: both totals, the difference, and why the
//! waiting differs when the finish does not.

use yew::prelude::*;

use crate::core::timing::clock::Mode;
use crate::core::timing::story::contrast;
use crate::pages::common::clocks::SharedRuns;

/// Props of [`mode_contrast`].
#[derive(PartialEq)]
pub struct ModeContrastProps {
    /// The runs.
    pub runs: SharedRuns,
}

/// The contrast sentences (`#contrast`); nothing when one mode is shown.
pub fn mode_contrast(props: &ModeContrastProps) -> Html {
    let r = &props.runs.0;
    let find = |m: Mode| r.runs.iter().find(|x| x.mode == m).map(|x| &x.clock);
    let (Some(df), Some(ls)) = (find(Mode::Dataflow), find(Mode::LockStep)) else {
        return Html::default();
    };
    html! {
        <div class="contrast" id="contrast">
            { for contrast(df, ls, &r.faults).into_iter().map(|s| html! { <p>{s}</p> }) }
        </div>
    }
}
