//! The collectives view's picture: every rank's chunks at the current step
//! (from the core's `chunk_states`) and this round's messages, drawn with
//! the shared [`rank_picture`] (the ring, or a grid when narrow); above
//! [`RING_MAX_P`] ranks the [`ChunkGridCanvas`] of the core's
//! `chunk_counts`, repainted per step only where they changed.

use yew::prelude::*;

use crate::app::components::chunk_grid::{ChunkGridCanvas, RING_MAX_P};
use crate::app::components::rank_grid::{rank_picture, GRID_MAX_P};
use crate::app::components::rank_ring::{RingArrow, RingCell};
use crate::core::collectives::narrate::{chunk_counts, chunk_states, transfer_label};
use crate::core::collectives::Algorithm;
use crate::core::execute::ChunkGrid;
use crate::core::schedule::Op;
use crate::core::units::format_exact_or_approx;
use crate::pages::common::shared::Shared;
use crate::pages::common::trace::SharedTrace;

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
    let grid = use_memo(props.trace.clone(), |t| {
        let (p, rounds) = (t.schedule.p, t.num_rounds());
        (p > RING_MAX_P)
            .then(|| {
                let steps = (0..=rounds).map(|k| chunk_counts(t, k).unwrap_or_default());
                ChunkGrid::from_steps(p, steps)
            })
            .flatten()
            .map(Shared::new)
    });
    let trace = &props.trace;
    let s = &trace.schedule;
    let p = s.p;
    if let Some(grid) = (*grid).clone() {
        let rounds = grid.num_rounds();
        let rounds_done = props.step.min(rounds);
        let (columns, column) = crate::pages::collectives::columns(&s.collective);
        let label = format!(
            "Chunk grid of {} on {p} ranks × {p} {columns} after {rounds_done} of {rounds} rounds ({}): \
             colour shows how many ranks' inputs each cell holds, from own data only to the complete sum.",
            props.alg.label(),
            props.phase_label
        );
        return html! {
            <>
                <p class="notice">{format!("At p = {p} the ranks are drawn as a grid: one row per rank, one column per \
                    {column}; this round's messages are listed in the transfer log.")}</p>
                <ChunkGridCanvas {grid} {rounds_done} {label} columns={columns} />
            </>
        };
    }
    let cells: Vec<Vec<RingCell>> = if p > GRID_MAX_P {
        // no text is drawn (neither ring nor grid): the colours need the contributor counts only
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
                            format_exact_or_approx(cs.value)
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
                    label: format!("{} {}", transfer_label(s, &t.range), t.op.label()),
                    reduce: t.op == Op::Reduce,
                })
                .collect()
        })
        .unwrap_or_default();
    rank_picture(
        p,
        cells,
        arrows,
        format!("{} on {p} ranks; {}", props.alg.label(), props.phase_label),
    )
}
