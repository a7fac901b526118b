//! SVG ring of ranks. Each rank shows its buffer as cells (one per chunk);
//! a cell's colour and label say which ranks' contributions it holds. The
//! current round's transfers are arrows labelled with what they carry.
//!
//! The component only draws what it is given: [`RingCell`]s and
//! [`RingArrow`]s built by the view from the executed trace.

use std::f64::consts::PI;

use yew::prelude::*;

use crate::core::units::decimal;
use crate::plot::ring::{
    angle, arrow_curves, fit_who, place_labels, polar, rank_label_spots, Rect, ARROW_FONT,
};
pub use crate::plot::ring::{RingArrow, GRID_MAX_P};

/// One chunk of one rank's buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct RingCell {
    /// Main label (the value held, e.g. "5").
    pub value: String,
    /// Contributor label (e.g. "0,3", "all").
    pub who: String,
    /// Number of contributing ranks, `0..=p`.
    pub count: usize,
    /// Tooltip with the full description.
    pub title: String,
}

/// Props of [`RankRing`].
#[derive(Properties, PartialEq)]
pub struct RankRingProps {
    /// Number of ranks.
    pub p: usize,
    /// `cells[rank]`: that rank's chunks in order.
    pub cells: Vec<Vec<RingCell>>,
    /// This round's transfers.
    pub arrows: Vec<RingArrow>,
    /// Accessible description of the picture.
    pub caption: AttrValue,
}

/// Largest p whose cells carry text (value, contributors, tooltip); above it
/// only a cell's [`RingCell::count`] is drawn, so callers may leave the texts
/// empty.
pub const MAX_TEXT_P: usize = 8;

/// Sequential colour-blind-safe ramp (viridis samples), light to dark.
pub(crate) const RAMP: [&str; 8] = [
    "#fde725", "#b5de2b", "#6ece58", "#35b779", "#1f9e89", "#26828e", "#31688e", "#3e4989",
];
/// Colour of a chunk that holds the complete sum.
pub(crate) const FULL: &str = "#440154";

/// `(cell colour, text colour)` of a chunk holding the inputs of `count` of
/// `p` ranks: none (empty), one (own data only: the lightest colour, and
/// only it), a partial sum of 2 … p − 1 (the next five colours of the ramp,
/// in bins of equal width: darker = more ranks) or all p (the complete sum).
pub(crate) fn fill(count: usize, p: usize) -> (&'static str, &'static str) {
    if count == 0 {
        return ("var(--empty-cell)", "var(--fg)");
    }
    if count >= p {
        return (FULL, "#ffffff");
    }
    // Partial sums use the lighter part of the ramp so they never look like
    // the complete sum, and never the colour of a rank's own data.
    const PARTIAL: usize = 5;
    let idx = if count == 1 {
        0
    } else {
        1 + ((count - 2) * PARTIAL) / (p - 2)
    };
    let c = RAMP[idx.min(PARTIAL)];
    let text = if idx >= 4 { "#ffffff" } else { "#000000" };
    (c, text)
}

/// The cells of every rank as one `<path>` per fill colour (for p > 8, where
/// cells carry no text): a handful of elements instead of p² rectangles, so
/// the first paint builds few nodes and a step only rewrites the `d` of the
/// colours that changed. Coordinates are whole tenths of a user unit (the
/// group is scaled by 0.1), written as integers.
fn cell_paths(
    cells: &[Vec<RingCell>],
    origins: impl Iterator<Item = (f64, f64)>,
    cols: usize,
    cell_w: f64,
    cell_h: f64,
    p: usize,
) -> Html {
    use std::fmt::Write;
    let tenths = |v: f64| (v * 10.0).round() as i64;
    let (w, h) = (tenths(cell_w - 1.0), tenths(cell_h - 1.0));
    let tail = format!("h{w}v{h}h-{w}z");
    // (fill, path data) sorted by fill (kept sorted on insert: no sort code
    // in the binary); at most 8 colours
    let mut layers: Vec<(&'static str, String)> = Vec::new();
    for (chunks, (x0, y0)) in cells.iter().zip(origins) {
        for (c, cell) in chunks.iter().enumerate() {
            let x = tenths(x0 + (c % cols) as f64 * cell_w);
            let y = tenths(y0 + (c / cols) as f64 * cell_h);
            let (bg, _) = fill(cell.count, p);
            let i = match layers.binary_search_by(|(f, _)| f.cmp(&bg)) {
                Ok(i) => i,
                Err(i) => {
                    layers.insert(i, (bg, String::with_capacity(24 * cells.len())));
                    i
                }
            };
            if let Some((_, d)) = layers.get_mut(i) {
                let _ = write!(d, "M{x},{y}");
                d.push_str(&tail);
            }
        }
    }
    // keyed by colour, so a step patches only the layers whose cells moved
    let paths = layers.into_iter().map(|(bg, d)| {
        html! {
            <path key={bg} {d} class="cell-rect" style={format!("fill:{bg};stroke-width:10")} />
        }
    });
    html! {
        <g class="cells" transform="scale(0.1)">{ for paths }</g>
    }
}

/// The ring picture.
#[component]
pub fn RankRing(props: &RankRingProps) -> Html {
    let p = props.p.max(1);
    let radius = if p <= 8 { 300.0 } else { 370.0 };
    let per = 2.0 * PI * radius / p as f64;
    let row_layout = p <= MAX_TEXT_P;
    let (cols, rows) = if row_layout {
        (p, 1)
    } else {
        let c = (p as f64).sqrt().ceil() as usize;
        (c, p.div_ceil(c))
    };
    let box_w = if row_layout {
        (per * 0.8).min(330.0)
    } else {
        (per * 0.78).min(160.0)
    };
    let cell_w = box_w / cols as f64;
    let cell_h = if row_layout { 84.0 } else { cell_w };
    let box_h = cell_h * rows as f64;
    let show_text = row_layout;
    let font = crate::core::units::clamp(cell_w * 0.4, 12.0, 34.0);

    let ranks = props.cells.iter().enumerate().map(|(r, chunks)| {
        let (cx, cy) = polar(radius, angle(r, p));
        let x0 = cx - box_w / 2.0;
        let y0 = cy - box_h / 2.0;
        // Above 8 ranks the cells carry no text: they are drawn together as
        // one path per colour (below), not one element each.
        let cells = chunks.iter().enumerate().filter(|_| show_text).map(|(c, cell)| {
            let x = x0 + c as f64 * cell_w;
            let (bg, fg) = fill(cell.count, p);
            html! {
                <g key={format!("{r}-{c}")} class="cell">
                    <rect x={decimal::fixed(x, 1)} y={decimal::fixed(y0, 1)}
                        width={decimal::fixed(cell_w - 1.0, 1)} height={decimal::fixed(cell_h - 1.0, 1)}
                        rx="3" style={format!("fill:{bg}")} class="cell-rect">
                        <title>{cell.title.clone()}</title>
                    </rect>
                    <text x={decimal::fixed(x + cell_w / 2.0, 1)} y={decimal::fixed(y0 + cell_h * 0.45, 1)}
                        text-anchor="middle" style={format!("fill:{fg};font-size:{}px", decimal::fixed(font, 0))} class="cell-value">
                        {cell.value.clone()}
                    </text>
                    <text x={decimal::fixed(x + cell_w / 2.0, 1)} y={decimal::fixed(y0 + cell_h * 0.82, 1)}
                        text-anchor="middle" style={format!("fill:{fg};font-size:{}px", decimal::fixed((font * 0.6).max(8.0), 0))} class="cell-who">
                        {fit_who(&cell.who, cell.count, p, cell_w, (font * 0.6).max(8.0))}
                    </text>
                </g>
            }
        });
        html! {
            <g key={format!("rank-{r}")} class="rank">
                <rect x={decimal::fixed(x0 - 3.0, 1)} y={decimal::fixed(y0 - 3.0, 1)}
                    width={decimal::fixed(box_w + 5.0, 1)} height={decimal::fixed(box_h + 5.0, 1)}
                    rx="6" class="rank-box" />
                { for cells }
            </g>
        }
    });
    let grid = (!show_text).then(|| {
        let origins = (0..p).map(|r| {
            let (cx, cy) = polar(radius, angle(r, p));
            (cx - box_w / 2.0, cy - box_h / 2.0)
        });
        cell_paths(&props.cells, origins, cols, cell_w, cell_h, p)
    });

    // Rank labels go in their own layer, above every box, so a neighbour's
    // box never covers them.
    let rank_labels = rank_label_spots(p, radius, box_h, row_layout);
    let labels = rank_labels.iter().map(|&(r, lx, ly, _)| {
        html! {
            <text key={format!("label-{r}")} x={decimal::fixed(lx, 1)} y={decimal::fixed(ly, 1)} text-anchor="middle" class="rank-label">
                {format!("rank {r}")}
            </text>
        }
    });

    // Outline of each rank's box (as drawn by `.rank-box`).
    let (box_hw, box_hh) = (box_w / 2.0 + 3.0, box_h / 2.0 + 3.0);
    let centres: Vec<(f64, f64)> = (0..p).map(|r| polar(radius, angle(r, p))).collect();
    let mut obstacles: Vec<Rect> = centres
        .iter()
        .map(|&(cx, cy)| [cx - box_hw, cy - box_hh, cx + box_hw, cy + box_hh])
        .collect();
    obstacles.extend(rank_labels.iter().map(|l| l.3));

    // The view box holds every box and rank label (a label beside a box on
    // the left or right of a large ring reaches past x = ±500).
    let half_w = obstacles
        .iter()
        .fold(500.0_f64, |m, b| m.max(-b[0] + 6.0).max(b[2] + 6.0));
    let half_h = if row_layout {
        (radius + box_h / 2.0 + 45.0).min(500.0)
    } else {
        500.0
    };
    let half_h = obstacles
        .iter()
        .fold(half_h, |m, b| m.max(-b[1] + 6.0).max(b[3] + 6.0));
    let view_box = format!(
        "{} {} {} {}",
        decimal::fixed(-half_w, 0),
        decimal::fixed(-half_h, 0),
        decimal::fixed(2.0 * half_w, 0),
        decimal::fixed(2.0 * half_h, 0)
    );

    // Arrow geometry: a quadratic curve between the two boxes, ending on
    // the box outlines ([`arrow_curves`]).
    let curves = arrow_curves(&props.arrows, &centres, p, radius, box_h, (box_hw, box_hh));
    // Labels beside their arrows, up to 16 ranks ([`place_labels`]).
    let view = [-half_w, -half_h, half_w, half_h];
    let label_at = if p <= 16 {
        place_labels(&props.arrows, &curves, &obstacles, view)
    } else {
        Vec::new()
    };

    let arrows = props.arrows.iter().zip(&curves).enumerate().map(|(i, (a, c))| {
        let ((sx, sy), (cx, cy), (dx, dy)) = (c.from, c.ctrl, c.to);
        let path = format!("M{},{} Q{},{} {},{}", decimal::fixed(sx, 1), decimal::fixed(sy, 1), decimal::fixed(cx, 1), decimal::fixed(cy, 1), decimal::fixed(dx, 1), decimal::fixed(dy, 1));
        let cls = if a.reduce { "arrow reduce" } else { "arrow copy" };
        let marker = if a.reduce { "url(#head-reduce)" } else { "url(#head-copy)" };
        let label = label_at.get(i).map(|&(lx, ly)| {
            html! {
                <text x={decimal::fixed(lx, 1)} y={decimal::fixed(ly + ARROW_FONT * 0.35, 1)} text-anchor="middle" class="arrow-label">
                    {a.label.clone()}
                </text>
            }
        });
        html! {
            <g key={format!("a{i}-{}-{}", a.src, a.dst)} class={cls}>
                <path d={path} marker-end={marker} />
                { for label }
            </g>
        }
    });

    html! {
        <figure class="rank-ring">
            <svg viewBox={view_box} role="img" aria-label={props.caption.clone()}>
                <defs>
                    <marker id="head-reduce" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z" class="head reduce" />
                    </marker>
                    <marker id="head-copy" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z" class="head copy" />
                    </marker>
                </defs>
                <circle cx="0" cy="0" r={decimal::shortest(radius)} class="ring-guide" />
                { for ranks }
                { for grid }
                { for arrows }
                { for labels }
            </svg>
            <figcaption class="legend">
                <span class="key"><span class="swatch" style={format!("background:{}", RAMP[0])}></span>{"own data only"}</span>
                <span class="key"><span class="swatch" style={format!("background:{}", RAMP[3])}></span>{"partial sum (darker = more ranks)"}</span>
                <span class="key"><span class="swatch" style={format!("background:{FULL}")}></span>{"complete sum (all ranks)"}</span>
                <span class="key"><span class="line reduce"></span>{"reduce (add)"}</span>
                <span class="key"><span class="line copy"></span>{"copy"}</span>
            </figcaption>
        </figure>
    }
}
