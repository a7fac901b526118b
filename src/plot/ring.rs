//! The rank ring's geometry (user units of a 1000 × 1000 view box centred
//! at 0): where each rank sits, where a transfer's curved arrow starts and
//! ends on the rank boxes, and where its label goes so that it covers no
//! other label or box. Pure: the app's `RankRing` component draws these.

use std::f64::consts::PI;

/// Largest p with a grid: p rows of p chunks stay readable on a phone up to
/// here; above it the ring draws colours only (no numbers) at every width.
pub const GRID_MAX_P: usize = 16;

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

/// The contributor label if it fits the cell, else the count "k/p" (the
/// tooltip keeps the full list).
pub fn fit_who(who: &str, count: usize, p: usize, cell_w: f64, font: f64) -> String {
    if text_width(who, font) <= cell_w - 4.0 || count == 0 {
        who.to_string()
    } else {
        format!("{count}/{p}")
    }
}

/// `(r cos θ, r sin θ)`. The browser's `Math.cos` and `Math.sin`, so the
/// page does not link Rust's software trigonometry (about 3 KB gzipped)
/// for a drawing's coordinates.
#[cfg(target_arch = "wasm32")]
pub fn polar(r: f64, theta: f64) -> (f64, f64) {
    (r * js_sys::Math::cos(theta), r * js_sys::Math::sin(theta))
}

/// `(r cos θ, r sin θ)` with Rust's own trigonometry (native builds and
/// tests).
#[cfg(not(target_arch = "wasm32"))]
pub fn polar(r: f64, theta: f64) -> (f64, f64) {
    (r * theta.cos(), r * theta.sin())
}

/// The angle of rank `i` of `p`: rank 0 at the top, clockwise on screen.
pub fn angle(i: usize, p: usize) -> f64 {
    -PI / 2.0 + 2.0 * PI * i as f64 / p as f64
}

/// An axis-aligned rectangle `[x0, y0, x1, y1]` in user units.
pub type Rect = [f64; 4];

/// Font size of an arrow label (`.arrow-label` in the stylesheet).
pub const ARROW_FONT: f64 = 20.0;

/// Estimated width of `text` in the bold sans-serif of the labels.
pub fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * font * 0.62
}

/// Area of the intersection of two rectangles.
pub fn overlap(a: &Rect, b: &Rect) -> f64 {
    let w = a[2].min(b[2]) - a[0].max(b[0]);
    let h = a[3].min(b[3]) - a[1].max(b[1]);
    if w > 0.0 && h > 0.0 {
        w * h
    } else {
        0.0
    }
}

/// Whether the point lies strictly inside the rectangle.
pub fn inside(r: &Rect, (x, y): (f64, f64)) -> bool {
    x > r[0] && x < r[2] && y > r[1] && y < r[3]
}

/// Where the ray from `o` (inside the box) towards `q` leaves the box of
/// half-size `hw` × `hh` centred at `c`.
pub fn box_exit(c: (f64, f64), o: (f64, f64), q: (f64, f64), hw: f64, hh: f64) -> (f64, f64) {
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
pub struct Curve {
    /// Start, on the sender's box.
    pub from: (f64, f64),
    /// Control point.
    pub ctrl: (f64, f64),
    /// End, on the receiver's box.
    pub to: (f64, f64),
    /// Unit normal the curve is offset towards.
    pub side: (f64, f64),
    /// Between neighbouring ranks.
    pub near: bool,
}

impl Curve {
    /// The point at parameter `t` ∈ [0, 1].
    pub fn at(&self, t: f64) -> (f64, f64) {
        let (w0, w1, w2) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t), t * t);
        (
            w0 * self.from.0 + w1 * self.ctrl.0 + w2 * self.to.0,
            w0 * self.from.1 + w1 * self.ctrl.1 + w2 * self.to.1,
        )
    }

    /// Unit tangent at `t`.
    pub fn tangent(&self, t: f64) -> (f64, f64) {
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
pub fn rank_label_spots(
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
pub fn arrow_curves(
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
pub fn place_labels(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn rank_zero_is_at_the_top_and_the_ring_turns_clockwise() {
        // Screen y grows downwards: −π/2 is the top, 0 the right.
        assert!(close(polar(300.0, angle(0, 4)), (0.0, -300.0)));
        assert!(close(polar(300.0, angle(1, 4)), (300.0, 0.0)));
        assert!(close(polar(300.0, angle(2, 4)), (0.0, 300.0)));
    }

    #[test]
    fn rectangles_boxes_and_labels_by_hand() {
        assert_eq!(overlap(&[0.0, 0.0, 2.0, 2.0], &[1.0, 1.0, 3.0, 3.0]), 1.0);
        assert_eq!(overlap(&[0.0, 0.0, 1.0, 1.0], &[2.0, 2.0, 3.0, 3.0]), 0.0);
        assert!(inside(&[0.0, 0.0, 2.0, 2.0], (1.0, 1.0)));
        assert!(!inside(&[0.0, 0.0, 2.0, 2.0], (2.0, 1.0)));
        // From the centre towards (10, 5), a 4 × 4 box is left through its
        // right side at t = 2/10: (2, 1).
        assert!(close(
            box_exit((0.0, 0.0), (0.0, 0.0), (10.0, 5.0), 2.0, 2.0),
            (2.0, 1.0)
        ));
        // Six characters at 26 units: 6 · 26 · 0.62.
        assert!((text_width("rank 3", 26.0) - 96.72).abs() < 1e-9);
        // "0,1,2,3" at 10 units is 43.4 wide: too wide for a 20-unit cell.
        assert_eq!(fit_who("0,1,2,3", 4, 8, 20.0, 10.0), "4/8");
        assert_eq!(fit_who("0", 1, 8, 20.0, 10.0), "0");
    }

    #[test]
    fn the_two_directions_of_an_exchange_take_opposite_sides() {
        let p = 4;
        let radius = 300.0;
        let centres: Vec<(f64, f64)> = (0..p).map(|r| polar(radius, angle(r, p))).collect();
        let arrow = |src, dst| RingArrow {
            src,
            dst,
            label: "c0".into(),
            reduce: true,
        };
        let arrows = [arrow(0, 1), arrow(1, 0)];
        let curves = arrow_curves(&arrows, &centres, p, radius, 120.0, (70.0, 70.0));
        assert!(curves.iter().all(|c| c.near));
        // Opposite offsets: the sides are each other's negatives.
        assert!(close(
            curves[0].side,
            (-curves[1].side.0, -curves[1].side.1)
        ));
        let boxes: Vec<Rect> = centres
            .iter()
            .map(|&(x, y)| [x - 70.0, y - 70.0, x + 70.0, y + 70.0])
            .collect();
        let at = place_labels(&arrows, &curves, &boxes, [-500.0, -500.0, 500.0, 500.0]);
        assert_eq!(at.len(), 2);
        assert!(!close(at[0], at[1]));
        for &(x, y) in &at {
            assert!(
                boxes.iter().all(|b| !inside(b, (x, y))),
                "a label centre inside a box"
            );
        }
    }
}
