//! The compact picture of many ranks: a p × p chunk grid on a `<canvas>`,
//! one row per rank and one column per chunk, coloured by how many ranks'
//! inputs each chunk holds (the ring's colour key). It draws a
//! [`ChunkGrid`] from the core and repaints, per step, only the cells the
//! rounds in between changed ([`ChunkGrid::repaint`]): at p = 256 a step
//! redraws 256 of 65 536 cells and builds no DOM nodes.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::rank_ring::fill;
use crate::core::execute::ChunkGrid;
use crate::pages::common::shared::Shared;

pub use crate::params::ring::{CHUNK_GRID_MAX_P, RING_MAX_P};

/// Colour of an empty chunk (n < p) on the canvas, which cannot read the
/// stylesheet's `--empty-cell`: readable on the light and the dark theme.
const EMPTY: &str = "#9aa3ad";

/// Side of one cell, canvas pixels: about 768 px in all, at least 2.
fn cell_px(p: usize) -> usize {
    (768 / p.max(1)).clamp(2, 48)
}

/// The colour key at this p: each colour of the ring's ramp ([`fill`])
/// with the contributor counts it stands for (e.g. at p = 128: 1 rank, then
/// 2–27, 28–52, 53–77, 78–102 and 103–127 ranks), the complete sum last.
fn key(p: usize) -> Vec<(&'static str, String)> {
    let mut runs: Vec<(&'static str, usize, usize)> = Vec::new();
    for count in 1..=p {
        let colour = fill(count, p).0;
        match runs.last_mut() {
            Some((c, _, hi)) if *c == colour => *hi = count,
            _ => runs.push((colour, count, count)),
        }
    }
    runs.into_iter()
        .map(|(colour, lo, hi)| {
            let text = match (lo, hi) {
                (l, _) if l == p => format!("all {p} ranks: complete sum"),
                (1, 1) => "1 rank: own data only".to_string(),
                (1, h) => format!("1–{h} ranks (1 = own data only)"),
                (l, h) if l == h => format!("{l} ranks"),
                (l, h) => format!("{l}–{h} ranks"),
            };
            (colour, text)
        })
        .collect()
}

/// Props of [`ChunkGridCanvas`].
#[derive(Properties, PartialEq)]
pub struct ChunkGridProps {
    /// The executed schedule's contributor counts and their changes.
    pub grid: Shared<ChunkGrid>,
    /// Rounds run so far (clamped to the grid's rounds).
    pub rounds_done: usize,
    /// What the picture shows at this step (its accessible name).
    pub label: AttrValue,
    /// What a column is, in the axis note ("chunks" unless told).
    #[prop_or(AttrValue::Static("chunks"))]
    pub columns: AttrValue,
}

/// What the canvas shows now: the grid, after how many rounds, every
/// cell's count and the cells marked as changed by that round (kept so that
/// a step repaints only what changed).
struct Painted {
    grid: Shared<ChunkGrid>,
    rounds: usize,
    counts: Vec<u32>,
    marked: Vec<usize>,
}

fn context(canvas: &NodeRef) -> Option<CanvasRenderingContext2d> {
    canvas
        .cast::<HtmlCanvasElement>()?
        .get_context("2d")
        .ok()??
        .dyn_into()
        .ok()
}

/// `(cell colour, mark colour)` of a count: the ring's colour key.
fn colours(count: u32, p: usize) -> (&'static str, &'static str) {
    match fill(count as usize, p) {
        (c, t) if c.starts_with('#') => (c, t),
        _ => (EMPTY, "#000000"),
    }
}

/// True when cells are big enough for a gap and a mark (p ≤ 128).
fn roomy(p: usize) -> bool {
    cell_px(p) >= 6
}

/// Draws cells one by one, setting the fill colour only when it changes.
struct Pen<'a> {
    ctx: &'a CanvasRenderingContext2d,
    current: &'static str,
    px: f64,
    side: f64,
}

impl Pen<'_> {
    fn rect(&mut self, colour: &'static str, x: f64, y: f64, w: f64, h: f64) {
        if colour != self.current {
            self.ctx.set_fill_style_str(colour);
            self.current = colour;
        }
        self.ctx.fill_rect(x, y, w, h);
    }

    fn cell(&mut self, cell: usize, count: u32, p: usize) {
        let (r, c) = (cell / p, cell % p);
        let (px, side) = (self.px, self.side);
        self.rect(
            colours(count, p).0,
            c as f64 * px,
            r as f64 * px,
            side,
            side,
        );
    }

    fn mark(&mut self, cell: usize, count: u32, p: usize) {
        let (r, c) = (cell / p, cell % p);
        let d = (self.px / 3.0).floor();
        let off = ((self.side - d) / 2.0).floor();
        let (x, y) = (c as f64 * self.px + off, r as f64 * self.px + off);
        self.rect(colours(count, p).1, x, y, d, d);
    }
}

/// Brings the canvas to the state after `to` rounds of `grid`: every cell
/// when the grid is new to it, else only the cells changed in between and
/// the marks of the last round and this one.
fn paint(
    canvas: &NodeRef,
    painted: &RefCell<Option<Painted>>,
    grid: &Shared<ChunkGrid>,
    to: usize,
) {
    let Some(ctx) = context(canvas) else {
        return;
    };
    let p = grid.p.max(1);
    let to = to.min(grid.num_rounds());
    let px = cell_px(p) as f64;
    // a 1 px gap between cells when they are big enough to show it
    let side = if roomy(p) { px - 1.0 } else { px };
    let mut pen = Pen {
        ctx: &ctx,
        current: "",
        px,
        side,
    };
    let mut slot = painted.borrow_mut();
    let state = match slot.take() {
        Some(mut last) if last.grid == *grid => {
            for (r, c, v) in grid.repaint(last.rounds, to) {
                if let Some(old) = last.counts.get_mut(r * p + c) {
                    *old = v;
                    pen.cell(r * p + c, v, p);
                }
            }
            // unmark the last round's cells
            for &cell in &last.marked {
                if let Some(&v) = last.counts.get(cell) {
                    pen.cell(cell, v, p);
                }
            }
            last.rounds = to;
            last.marked.clear();
            last
        }
        _ => {
            let counts = grid.counts_after(to);
            let size = p as f64 * px;
            ctx.clear_rect(0.0, 0.0, size, size);
            for (r, row) in counts.chunks(p).enumerate() {
                // one rectangle per run of equal counts when cells touch
                let mut c = 0;
                while c < row.len() {
                    let run = if roomy(p) {
                        1
                    } else {
                        row[c..].iter().take_while(|&&v| v == row[c]).count()
                    };
                    let w = run as f64 * px - (px - side);
                    pen.rect(colours(row[c], p).0, c as f64 * px, r as f64 * px, w, side);
                    c += run;
                }
            }
            Painted {
                grid: grid.clone(),
                rounds: to,
                counts,
                marked: Vec::new(),
            }
        }
    };
    let mut state = state;
    if roomy(p) {
        let this_round = to.checked_sub(1).and_then(|i| grid.changes.get(i));
        for ch in this_round.into_iter().flatten() {
            let cell = ch.rank as usize * p + ch.chunk as usize;
            if let Some(&v) = state.counts.get(cell) {
                pen.mark(cell, v, p);
                state.marked.push(cell);
            }
        }
    }
    *slot = Some(state);
}

/// The chunk grid with its axis note and colour key.
#[component]
pub fn ChunkGridCanvas(props: &ChunkGridProps) -> Html {
    let canvas = use_node_ref();
    let painted: Rc<RefCell<Option<Painted>>> = use_mut_ref(|| None);
    {
        let canvas = canvas.clone();
        use_effect_with(
            (props.grid.clone(), props.rounds_done),
            move |(grid, to)| paint(&canvas, &painted, grid, *to),
        );
    }
    let p = props.grid.p;
    let size = (p * cell_px(p)).to_string();
    html! {
        <figure class="chunk-grid">
            <p class="chunk-grid-axes muted">
                {format!("Rows: ranks 0 to {} (top to bottom). Columns: {} 0 to {} (left to right).", p.saturating_sub(1), props.columns, p.saturating_sub(1))}
            </p>
            <canvas ref={canvas} width={size.clone()} height={size} role="img" aria-label={props.label.clone()} />
            <figcaption class="legend">
                { for key(p).into_iter().map(|(colour, text)| html! {
                    <span class="key"><span class="swatch" style={format!("background:{colour}")}></span>{text}</span>
                }) }
                if roomy(p) {
                    <span class="key"><span class="swatch dot"></span>{"dot: changed by this round"}</span>
                }
            </figcaption>
        </figure>
    }
}
