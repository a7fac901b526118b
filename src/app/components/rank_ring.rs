//! SVG ring of ranks. Each rank shows its buffer as cells (one per chunk);
//! a cell's colour and label say which ranks' contributions it holds. The
//! current round's transfers are arrows labelled with what they carry.
//!
//! The component only draws what it is given: [`RingCell`]s and
//! [`RingArrow`]s built by the view from the executed trace.

use std::f64::consts::PI;

use yew::prelude::*;

use crate::core::units::decimal;

/// Largest p with a grid: p rows of p chunks stay readable on a phone up to
/// here; above it the ring draws colours only (no numbers) at every width.
pub const GRID_MAX_P: usize = 16;

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

/// One transfer of the current round.
#[derive(Clone, Debug, PartialEq)]
pub struct RingArrow {
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// Short label, e.g. "c3" or "0..4".
    pub label: String,
    /// True for a reduce (added), false for a copy.
    pub reduce: bool,
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

/// The contributor label if it fits the cell, else the count "k/p" (the
/// tooltip keeps the full list).
fn fit_who(who: &str, count: usize, p: usize, cell_w: f64, font: f64) -> String {
    if text_width(who, font) <= cell_w - 4.0 || count == 0 {
        who.to_string()
    } else {
        format!("{count}/{p}")
    }
}

/// `(r cos θ, r sin θ)`. The browser's `Math.cos` and `Math.sin`, so the
/// page does not link Rust's software trigonometry (about 3 KB gzipped)
/// for a drawing's coordinates.
fn polar(r: f64, theta: f64) -> (f64, f64) {
    (r * js_sys::Math::cos(theta), r * js_sys::Math::sin(theta))
}

fn angle(i: usize, p: usize) -> f64 {
    -PI / 2.0 + 2.0 * PI * i as f64 / p as f64
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

/// An axis-aligned rectangle `[x0, y0, x1, y1]` in user units.
type Rect = [f64; 4];

/// Font size of an arrow label (`.arrow-label` in the stylesheet).
const ARROW_FONT: f64 = 20.0;

/// Estimated width of `text` in the bold sans-serif of the labels.
fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * font * 0.62
}

/// Area of the intersection of two rectangles.
fn overlap(a: &Rect, b: &Rect) -> f64 {
    let w = a[2].min(b[2]) - a[0].max(b[0]);
    let h = a[3].min(b[3]) - a[1].max(b[1]);
    if w > 0.0 && h > 0.0 {
        w * h
    } else {
        0.0
    }
}

fn inside(r: &Rect, (x, y): (f64, f64)) -> bool {
    x > r[0] && x < r[2] && y > r[1] && y < r[3]
}

/// Where the ray from `o` (inside the box) towards `q` leaves the box of
/// half-size `hw` × `hh` centred at `c`.
fn box_exit(c: (f64, f64), o: (f64, f64), q: (f64, f64), hw: f64, hh: f64) -> (f64, f64) {
    let (ux, uy) = (q.0 - o.0, q.1 - o.1);
    // the ray's parameter where it crosses the side it heads for, on one axis
    let cross = |u: f64, centre: f64, half: f64, from: f64| {
        if u > 1e-9 {
            (centre + half - from) / u
        } else if u < -1e-9 {
            (centre - half - from) / u
        } else {
            f64::INFINITY
        }
    };
    let (tx, ty) = (cross(ux, c.0, hw, o.0), cross(uy, c.1, hh, o.1));
    let t = tx.min(ty);
    (o.0 + ux * t, o.1 + uy * t)
}

/// A transfer arrow: the quadratic curve `from` → `to` with control point
/// `ctrl`; `side` is the unit normal its curve is offset towards.
struct Curve {
    from: (f64, f64),
    ctrl: (f64, f64),
    to: (f64, f64),
    side: (f64, f64),
    /// Between neighbouring ranks.
    near: bool,
}

impl Curve {
    fn at(&self, t: f64) -> (f64, f64) {
        let (w0, w1, w2) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t), t * t);
        (
            w0 * self.from.0 + w1 * self.ctrl.0 + w2 * self.to.0,
            w0 * self.from.1 + w1 * self.ctrl.1 + w2 * self.to.1,
        )
    }

    /// Unit tangent at `t`.
    fn tangent(&self, t: f64) -> (f64, f64) {
        let x = (1.0 - t) * (self.ctrl.0 - self.from.0) + t * (self.to.0 - self.ctrl.0);
        let y = (1.0 - t) * (self.ctrl.1 - self.from.1) + t * (self.to.1 - self.ctrl.1);
        let len = (x * x + y * y).sqrt().max(1e-9);
        (x / len, y / len)
    }
}

/// Where each shown rank label goes, `(rank, x, baseline y)`, and its
/// estimated extent (text-anchor middle), for rank boxes `box_h` high on a
/// ring of `radius`: above the box (below it for the bottom half of a small
/// ring, `row_layout`), or outside the ring for the compact boxes; above 16
/// ranks every (p / 16)-th rank is labelled.
fn rank_label_spots(
    p: usize,
    radius: f64,
    box_h: f64,
    row_layout: bool,
) -> Vec<(usize, f64, f64, Rect)> {
    let label_font = if p > GRID_MAX_P { 32.0 } else { 26.0 };
    (0..p)
        .filter(|r| p <= 16 || r % (p / 16).max(1) == 0)
        .map(|r| {
            let (cx, cy) = polar(radius, angle(r, p));
            let y0 = cy - box_h / 2.0;
            let below = row_layout && cy > 1.0;
            let (lx, ly) = if row_layout {
                (cx, if below { y0 + box_h + 30.0 } else { y0 - 12.0 })
            } else {
                let (x, y) = polar((radius + box_h / 2.0 + 24.0).min(480.0), angle(r, p));
                (x, y + 8.0)
            };
            let hw = text_width(&format!("rank {r}"), label_font) / 2.0;
            let extent = [
                lx - hw,
                ly - label_font * 0.95,
                lx + hw,
                ly + label_font * 0.3,
            ];
            (r, lx, ly, extent)
        })
        .collect()
}

/// The curve of each arrow ([`Curve`]) between the rank boxes centred at
/// `centres` on a ring of `radius` (`box_h` the box height; `box_hw` ×
/// `box_hh` the half-size of a box with its outline): a quadratic curve that
/// starts and ends on the box outlines (plus a gap for the arrowhead), where
/// the line from the box towards the curve's control point leaves the box,
/// so a head never covers a chunk's digits.
fn arrow_curves(
    arrows: &[RingArrow],
    centres: &[(f64, f64)],
    p: usize,
    radius: f64,
    box_h: f64,
    (box_hw, box_hh): (f64, f64),
) -> Vec<Curve> {
    let inner = radius - box_h / 2.0 - 14.0;
    arrows
        .iter()
        .map(|a| {
            let (ts, td) = (angle(a.src, p), angle(a.dst, p));
            let (sx, sy) = polar(inner, ts);
            let (dx, dy) = polar(inner, td);
            let gap = ((a.dst + p - a.src) % p).min((a.src + p - a.dst) % p);
            // Neighbours: a shallow inward bow; distant partners: through the middle.
            let (mx, my) = ((sx + dx) / 2.0, (sy + dy) / 2.0);
            let pull = if gap <= 1 { 0.78 } else { 0.25 };
            // Offset the two directions of an exchange so they don't overlap.
            let (vx, vy) = (dx - sx, dy - sy);
            let len = (vx * vx + vy * vy).sqrt().max(1e-9);
            let side = (-vy / len, vx / len);
            let off = if gap <= 1 { 10.0 } else { 40.0 };
            let q = (mx * pull + side.0 * off, my * pull + side.1 * off);
            // The two directions of an exchange also meet a box at
            // different points.
            let shift = (box_hh * 0.3).min(12.0);
            let end = |c: (f64, f64), q: (f64, f64), margin: f64| {
                let o = (c.0 + side.0 * shift, c.1 + side.1 * shift);
                box_exit(c, o, q, box_hw + margin, box_hh + margin)
            };
            let (from, to) = (end(centres[a.src], q, 4.0), end(centres[a.dst], q, 8.0));
            // Neighbours: bow by two fifths of the gap between the two box
            // edges (not of the distance between centres: a hook), inwards.
            let q = if gap <= 1 {
                let (mx, my) = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
                let m = (mx * mx + my * my).sqrt().max(1e-9);
                let chord = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
                let k = (1.0 - 0.4 * chord / m).max(0.0);
                (mx * k + side.0 * off, my * k + side.1 * off)
            } else {
                q
            };
            let (from, to) = (end(centres[a.src], q, 4.0), end(centres[a.dst], q, 8.0));
            Curve {
                from,
                ctrl: q,
                to,
                side,
                near: gap <= 1,
            }
        })
        .collect()
}

/// Where each arrow's label goes (its centre), given the arrows' `curves`,
/// the boxes and rank labels as `obstacles` and the picture's `view`: beside
/// its own arrow, on the side its curve is offset to (so the two directions
/// of an exchange label opposite sides), at the point along it nearest the
/// preferred spot (the middle, or near the sender for an arrow through the
/// crowded middle) where it covers no other label, box or rank label and
/// crosses few arrows.
fn place_labels(
    arrows: &[RingArrow],
    curves: &[Curve],
    obstacles: &[Rect],
    view: Rect,
) -> Vec<(f64, f64)> {
    // points along every arrow
    let samples: Vec<(f64, f64)> = curves
        .iter()
        .flat_map(|c| (0..=16).map(move |k| c.at(k as f64 / 16.0)))
        .collect();
    let mut placed: Vec<Rect> = Vec::new();
    let mut label_at: Vec<(f64, f64)> = Vec::new();
    for (a, c) in arrows.iter().zip(curves) {
        let (hw, hh) = (
            text_width(&a.label, ARROW_FONT) / 2.0 + 3.0,
            ARROW_FONT * 0.6,
        );
        // Through the middle, the middle is crowded: start near the sender.
        let ts = if c.near {
            [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78]
        } else {
            [0.3, 0.22, 0.4, 0.5, 0.6, 0.7, 0.78]
        };
        let mut best = (f64::INFINITY, (0.0, 0.0));
        let candidates = [1.0, -1.0, 0.0]
            .into_iter()
            .flat_map(|sign| ts.map(|t| (sign, t)));
        for (rank, (sign, t)) in candidates.enumerate() {
            let (bx, by) = c.at(t);
            let (tx, ty) = c.tangent(t);
            // unit normal towards the preferred side
            let (mut nx, mut ny) = (-ty, tx);
            if nx * c.side.0 + ny * c.side.1 < 0.0 {
                (nx, ny) = (-nx, -ny);
            }
            let d = sign * (nx.abs() * hw + ny.abs() * hh + 4.0);
            let (lx, ly) = (bx + nx * d, by + ny * d);
            let r = [lx - hw, ly - hh, lx + hw, ly + hh];
            let area = (r[2] - r[0]) * (r[3] - r[1]);
            // Covering a label, box or the edge is ruled out; crossing an
            // arrow (the label has a halo) costs about as much as moving one
            // candidate further from the preferred spot.
            let cost = 10.0
                * placed
                    .iter()
                    .chain(obstacles)
                    .map(|o| overlap(&r, o))
                    .sum::<f64>()
                + 10.0 * (area - overlap(&r, &view))
                + 10.0 * samples.iter().filter(|s| inside(&r, **s)).count() as f64
                + 15.0 * rank as f64;
            if cost < best.0 {
                best = (cost, (lx, ly));
            }
        }
        let (lx, ly) = best.1;
        placed.push([lx - hw, ly - hh, lx + hw, ly + hh]);
        label_at.push((lx, ly));
    }
    label_at
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
