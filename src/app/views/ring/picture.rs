//! The ring view's picture: every rank's chunks after the rounds run so far
//! (or their means, at the mean step) and this round's messages, drawn with
//! the shared [`rank_picture`] (the ring, or a grid when narrow) up to
//! [`RING_MAX_P`] ranks; above it, up to [`CHUNK_GRID_MAX_P`], the p × p
//! [`ChunkGridCanvas`] of contributor counts; above that a notice.

use yew::prelude::*;

use crate::app::components::chunk_grid::{ChunkGridCanvas, CHUNK_GRID_MAX_P, RING_MAX_P};
use crate::app::components::rank_grid::{rank_picture, GRID_MAX_P};
use crate::app::components::rank_ring::{RingArrow, RingCell};
use crate::core::execute::{ChunkGrid, State, Trace};
use crate::core::schedule::{chunk_range, Op};
use crate::core::units::format_bytes_short;
use crate::core::units::format_exact_or_approx;
use crate::pages::common::shared::Shared;
use crate::pages::common::trace::SharedTrace;
use crate::params::ring::{ELEM_BYTES, MAX_DRAWN_P};

/// Props of [`RingPicture`].
#[derive(Properties, PartialEq)]
pub struct RingPictureProps {
    /// Number of ranks.
    pub p: usize,
    /// The executed ring all-reduce with its states (`None` above
    /// [`MAX_DRAWN_P`]: numbers only).
    pub trace: Option<SharedTrace>,
    /// Current step (0 = before round 1; rounds + 1 = the mean step).
    pub step: usize,
    /// The step is the mean step.
    pub mean_step: bool,
    /// The contributor counts and their changes, for
    /// `RING_MAX_P < p ≤ CHUNK_GRID_MAX_P` (else `None`).
    pub grid: Option<Shared<ChunkGrid>>,
    /// The phase line, for the caption.
    pub phase_label: AttrValue,
}

fn cell(
    trace: &Trace,
    state: Option<&State>,
    means: Option<&Vec<Vec<f64>>>,
    r: usize,
    c: usize,
) -> RingCell {
    let p = trace.schedule.p;
    let range = chunk_range(trace.schedule.n, p, c);
    let seg = trace.segments_in(&range).start;
    match state {
        // no text is drawn above GRID_MAX_P ranks (neither ring nor grid): the colour needs the count only
        Some(st) if range.start < range.end && p > GRID_MAX_P => RingCell {
            value: String::new(),
            who: String::new(),
            count: st.contributors[r][seg].len(),
            title: String::new(),
        },
        Some(st) if range.start < range.end => {
            let who = &st.contributors[r][seg];
            let v = means.map_or(st.values[r][seg], |m| m[r][seg]);
            RingCell {
                value: format_exact_or_approx(v),
                who: if means.is_some() {
                    "mean".into()
                } else {
                    who.label(p)
                },
                count: who.len(),
                title: format!(
                    "rank {r}, chunk {c} ({}): value {} from ranks {}",
                    format_bytes_short((range.end - range.start) as f64 * ELEM_BYTES as f64),
                    format_exact_or_approx(v),
                    who.label(p)
                ),
            }
        }
        _ => RingCell {
            value: "—".into(),
            who: String::new(),
            count: 0,
            title: format!("rank {r}, chunk {c}: empty"),
        },
    }
}

/// The ring of ranks, or the chunk grid, or the "not drawn" notice.
#[component]
pub fn RingPicture(props: &RingPictureProps) -> Html {
    let p = props.p;
    if p > RING_MAX_P {
        let grid = props.grid.as_ref().filter(|_| p <= CHUNK_GRID_MAX_P);
        let notice = if grid.is_some() {
            format!("At p = {p} the ring is not drawn: the grid below shows every rank's chunks instead, \
                one row per rank. The schedule runs in full and every number comes from it.")
        } else {
            format!("p = {p} is above {CHUNK_GRID_MAX_P}, so the ring is not drawn: the schedule still runs in full \
                and every number below comes from it.")
        };
        let Some(grid) = grid else {
            return html! { <p class="notice">{notice}</p> };
        };
        let rounds = grid.num_rounds();
        let rounds_done = props.step.min(rounds);
        let label = format!(
            "Chunk grid of {p} ranks × {p} chunks after {rounds_done} of {rounds} rounds ({}): \
             colour shows how many ranks' inputs each chunk holds, from own data only to the complete sum.",
            props.phase_label
        );
        return html! {
            <>
                <p class="notice">{notice}</p>
                <ChunkGridCanvas grid={grid.clone()} {rounds_done} label={label} />
            </>
        };
    }
    let Some(trace) = props.trace.as_ref().filter(|_| p <= MAX_DRAWN_P) else {
        return html! {
            <p class="notice">
                {format!("p = {p} is above {MAX_DRAWN_P}, so the ring is not drawn: the schedule still runs in full \
                    and every number below comes from it.")}
            </p>
        };
    };
    let rounds = trace.num_rounds();
    let step = props.step;
    let rounds_done = step.min(rounds);
    let means = props.mean_step.then(|| trace.final_mean());
    // one state per render (rebuilt from the nearest checkpoint), not per cell
    let state = trace.state_at(rounds_done);
    let cells: Vec<Vec<RingCell>> = (0..p)
        .map(|r| {
            (0..p)
                .map(|c| cell(trace, state.as_deref(), means.as_ref(), r, c))
                .collect()
        })
        .collect();
    let arrows: Vec<RingArrow> = if (1..=rounds).contains(&step) {
        trace.schedule.rounds[step - 1]
            .transfers
            .iter()
            .map(|t| RingArrow {
                src: t.src,
                dst: t.dst,
                label: t.chunk.map_or_else(|| "all".into(), |c| format!("c{c}")),
                reduce: t.op == Op::Reduce,
            })
            .collect()
    } else {
        Vec::new()
    };
    rank_picture(
        p,
        cells,
        arrows,
        format!("Ring of {p} ranks; {}", props.phase_label),
    )
}
