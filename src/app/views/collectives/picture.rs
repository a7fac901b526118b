//! The collectives view's picture: every rank's chunks at the current step
//! (from the core's `chunk_states`) and this round's messages, drawn with
//! the shared [`RankRing`].

use yew::prelude::*;

use super::trace::SharedTrace;
use crate::app::components::rank_ring::{RankRing, RingArrow, RingCell, MAX_TEXT_P};
use crate::core::collectives::narrate::{chunk_counts, chunk_states, fmt_value, range_label};
use crate::core::collectives::Algorithm;
use crate::core::schedule::Op;

/// Props of [`CollectivePicture`].
#[derive(Properties, PartialEq)]
pub struct CollectivePictureProps {
    /// The algorithm (for the caption).
    pub alg: Algorithm,
    /// The executed schedule.
    pub trace: SharedTrace,
    /// Current step (0 = before round 1).
    pub step: usize,
    /// The phase line, for the caption.
    pub phase_label: AttrValue,
}

/// The ring of ranks with their chunks and this round's arrows.
#[component]
pub fn CollectivePicture(props: &CollectivePictureProps) -> Html {
    let trace = &props.trace;
    let s = &trace.schedule;
    let p = s.p;
    let cells: Vec<Vec<RingCell>> = if p > MAX_TEXT_P {
        // no text is drawn: the colours need the contributor counts only
        chunk_counts(trace, props.step)
            .unwrap_or_default()
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|count| RingCell {
                        value: String::new(),
                        who: String::new(),
                        count,
                        title: String::new(),
                    })
                    .collect()
            })
            .collect()
    } else {
        chunk_states(trace, props.step)
            .unwrap_or_default()
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|cs| RingCell {
                        value: if cs.empty {
                            "—".into()
                        } else if cs.uniform {
                            fmt_value(cs.value)
                        } else {
                            "…".into()
                        },
                        who: if cs.empty { String::new() } else { cs.who },
                        count: if cs.empty { 0 } else { cs.count },
                        title: cs.detail,
                    })
                    .collect()
            })
            .collect()
    };
    let arrows: Vec<RingArrow> = props
        .step
        .checked_sub(1)
        .and_then(|i| s.rounds.get(i))
        .map(|round| {
            round
                .transfers
                .iter()
                .map(|t| RingArrow {
                    src: t.src,
                    dst: t.dst,
                    label: format!("{} {}", range_label(s.n, p, &t.range), t.op.name()),
                    reduce: t.op == Op::Reduce,
                })
                .collect()
        })
        .unwrap_or_default();
    html! {
        <RankRing {p} {cells} {arrows}
            caption={format!("{} on {p} ranks; {}", props.alg.label(), props.phase_label)} />
    }
}
