//! The strip of phase chips above the picture: each phase of the schedule
//! with its method and number of rounds; the current one highlighted.

use yew::prelude::*;

use crate::core::collectives::narrate::phases;
use crate::core::collectives::Algorithm;
use crate::core::schedule::Phase;
use crate::pages::common::trace::SharedTrace;

/// A phase's name in the strip and the counters.
pub fn phase_title(ph: Phase) -> &'static str {
    match ph {
        Phase::FoldIn => "fold-in",
        Phase::FoldOut => "unfold",
        other => other.label(),
    }
}

/// Props of [`phase_strip`].
#[derive(PartialEq)]
pub struct PhaseStripProps {
    /// The algorithm (names the method of each phase).
    pub alg: Algorithm,
    /// The executed schedule.
    pub trace: SharedTrace,
    /// Current step (0 = before round 1).
    pub step: usize,
}

/// The phase strip (`.phase-strip`).
pub fn phase_strip(props: &PhaseStripProps) -> Html {
    let step = props.step;
    let mut first = 1usize;
    let chips = phases(&props.trace.schedule)
        .into_iter()
        .map(|(ph, k)| {
            let range = first..first + k;
            first += k;
            let here = range.contains(&step);
            let fold = matches!(ph, Phase::FoldIn | Phase::FoldOut);
            let method = props.alg.method(ph);
            let name = if method.is_empty() {
                phase_title(ph).to_string()
            } else {
                format!("{} {method}", phase_title(ph))
            };
            html! {
                <li class={classes!("phase-chip", here.then_some("current"), fold.then_some("fold"))}
                    aria-current={here.then_some("step")}>
                    {format!("{name}: {k} round{}", if k == 1 { "" } else { "s" })}
                </li>
            }
        })
        .collect::<Html>();
    html! { <ol class="phase-strip" aria-label="Phases">{chips}</ol> }
}
