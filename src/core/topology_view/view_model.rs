//! Display geometry of the topology picture: where racks, nodes, ranks,
//! NICs and the rack core sit, in SVG units, and the paths of arrows.
//!
//! Pure layout only: no timing, byte count or formula lives here (those
//! come from [`crate::core::topology_view`]). Racks are stacked
//! top to bottom, the nodes of a rack sit in rows of [`NODES_PER_ROW`] (fewer
//! in the narrow picture when the nodes are wide),
//! the ranks of a node in rows of [`RANKS_PER_ROW`], each node's NICs along
//! its bottom edge, and the rack core (when there are two or more racks) is
//! a vertical bar on the right joined to every rack by an uplink.

use crate::core::units::decimal;

/// Nodes per row inside a rack.
pub const NODES_PER_ROW: usize = 4;
/// Ranks per row inside a node.
pub const RANKS_PER_ROW: usize = 4;
/// Radius of a rank's circle.
pub const RANK_R: f64 = 13.0;
/// Distance between rank centres.
pub const RANK_GAP: f64 = 36.0;
/// Above this many ranks the picture is compact: nodes only, no rank circles.
pub const COMPACT_ABOVE_P: usize = 32;

const PAD: f64 = 10.0;
const NODE_TITLE: f64 = 18.0;
const NIC_H: f64 = 26.0;
const NIC_GAP: f64 = 4.0;
const NODE_GAP: f64 = 14.0;
const BUS: f64 = 14.0;
const RACK_TITLE: f64 = 18.0;
const RACK_GAP: f64 = 16.0;
const CORE_W: f64 = 34.0;
const CORE_GAP: f64 = 30.0;
const COMPACT_NODE_W: f64 = 92.0;
const COMPACT_NODE_BODY: f64 = 22.0;
/// Width the narrow picture's node rows keep within, SVG units (about
/// 1.5 × a 375 px screen's picture, so text stays near two thirds of its
/// size).
const NARROW_W: f64 = 560.0;

/// An axis-aligned box, SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Centre point.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// One NIC: which node and lane, and its box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NicBox {
    /// Node index.
    pub node: usize,
    /// Lane (NIC index inside the node).
    pub lane: usize,
    /// Where it is drawn.
    pub rect: Rect,
}

/// The whole picture's geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Total width and height.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// True when ranks are not drawn (many ranks).
    pub compact: bool,
    /// One box per rack (empty when there is a single rack).
    pub racks: Vec<Rect>,
    /// One box per node, in node order.
    pub nodes: Vec<Rect>,
    /// Centre of each rank, in rank order (the node's centre when compact).
    pub ranks: Vec<(f64, f64)>,
    /// Every NIC, node by node, lane by lane.
    pub nics: Vec<NicBox>,
    /// The rack core bar, when there are two or more racks.
    pub core: Option<Rect>,
    /// Uplink of each rack to the core: (from, to) points.
    pub uplinks: Vec<((f64, f64), (f64, f64))>,
    /// The inter-node network inside each rack, drawn in the NIC style:
    /// a bus under every row of nodes, a drop from every NIC to it, and a
    /// connector joining the rows (empty with a single node).
    pub fabric: Vec<((f64, f64), (f64, f64))>,
}

/// Lays out `node_sizes` (ranks per node, in node order) in `racks` racks
/// of consecutive nodes with `lanes` NICs per node. `compact` forces the
/// compact form; it is also used when there are more than
/// [`COMPACT_ABOVE_P`] ranks. Zero racks or lanes count as one.
pub fn layout(node_sizes: &[usize], racks: usize, lanes: usize, compact: bool) -> Layout {
    let p: usize = node_sizes.iter().sum();
    let narrow = compact;
    let compact = compact || p > COMPACT_ABOVE_P;
    let racks = racks.max(1);
    let lanes = lanes.max(1);
    let nodes = node_sizes.len();
    let per_rack = nodes.div_ceil(racks).max(1);
    let widest = node_sizes.iter().copied().max().unwrap_or(1).max(1);
    let cols = widest.min(RANKS_PER_ROW);
    let rank_rows = widest.div_ceil(RANKS_PER_ROW);
    let nic_min_w = if compact { 40.0 } else { 46.0 };
    let node_w = if compact {
        COMPACT_NODE_W.max(lanes as f64 * (nic_min_w + NIC_GAP) + 2.0 * PAD)
    } else {
        (cols as f64 * RANK_GAP + 2.0 * PAD).max(lanes as f64 * (nic_min_w + NIC_GAP) + 2.0 * PAD)
    };
    let body = if compact {
        COMPACT_NODE_BODY
    } else {
        rank_rows as f64 * RANK_GAP
    };
    let node_h = NODE_TITLE + body + NIC_H + 2.0 * PAD;
    // The forced compact form is the narrow picture (small screens): its
    // rows hold as many nodes as fit in NARROW_W, so wide nodes (many NICs)
    // stack instead of shrinking to an unreadable strip.
    let per_row = if narrow {
        (((NARROW_W + NODE_GAP) / (node_w + NODE_GAP)) as usize).clamp(1, NODES_PER_ROW)
    } else {
        NODES_PER_ROW
    };
    let row_nodes = per_rack.min(per_row);
    let node_rows = per_rack.div_ceil(per_row);
    let has_racks = racks > 1;
    let rack_pad = if has_racks { PAD } else { 0.0 };
    let rack_title = if has_racks { RACK_TITLE } else { 0.0 };
    let rack_w = row_nodes as f64 * node_w + (row_nodes as f64 - 1.0) * NODE_GAP + 2.0 * rack_pad;
    let rack_h = rack_title
        + node_rows as f64 * (node_h + BUS)
        + (node_rows as f64 - 1.0) * NODE_GAP
        + 2.0 * rack_pad;

    let mut out = Layout {
        width: 0.0,
        height: 0.0,
        compact,
        racks: Vec::new(),
        nodes: Vec::with_capacity(nodes),
        ranks: Vec::with_capacity(p),
        nics: Vec::with_capacity(nodes * lanes),
        core: None,
        uplinks: Vec::new(),
        fabric: Vec::new(),
    };
    let networked = nodes > 1;
    let bus_right = PAD + rack_w - rack_pad / 2.0;
    let mut bus_ys: Vec<f64> = Vec::new();
    for rack in 0..racks {
        let ry = PAD + rack as f64 * (rack_h + RACK_GAP);
        if has_racks {
            out.racks.push(Rect {
                x: PAD,
                y: ry,
                w: rack_w,
                h: rack_h,
            });
        }
        for k in 0..per_rack {
            let node = rack * per_rack + k;
            let Some(&size) = node_sizes.get(node) else {
                break;
            };
            let (row, col) = (k / per_row, k % per_row);
            let r = Rect {
                x: PAD + rack_pad + col as f64 * (node_w + NODE_GAP),
                y: ry + rack_pad + rack_title + row as f64 * (node_h + BUS + NODE_GAP),
                w: node_w,
                h: node_h,
            };
            for g in 0..size {
                if compact {
                    out.ranks
                        .push((r.x + r.w / 2.0, r.y + NODE_TITLE + PAD + body / 2.0));
                } else {
                    let (rr, rc) = (g / RANKS_PER_ROW, g % RANKS_PER_ROW);
                    out.ranks.push((
                        r.x + PAD + (rc as f64 + 0.5) * RANK_GAP,
                        r.y + NODE_TITLE + PAD + (rr as f64 + 0.5) * RANK_GAP,
                    ));
                }
            }
            let nic_w = (node_w - 2.0 * PAD - (lanes as f64 - 1.0) * NIC_GAP) / lanes as f64;
            let bus_y = r.y + r.h + BUS / 2.0 + 1.0;
            if networked && col == 0 {
                bus_ys.push(bus_y);
                out.fabric.push(((r.x, bus_y), (bus_right, bus_y)));
            }
            for lane in 0..lanes {
                if networked {
                    let x = r.x + PAD + lane as f64 * (nic_w + NIC_GAP) + nic_w / 2.0;
                    out.fabric.push(((x, r.y + r.h - PAD), (x, bus_y)));
                }
                out.nics.push(NicBox {
                    node,
                    lane,
                    rect: Rect {
                        x: r.x + PAD + lane as f64 * (nic_w + NIC_GAP),
                        y: r.y + r.h - PAD - NIC_H,
                        w: nic_w,
                        h: NIC_H,
                    },
                });
            }
            out.nodes.push(r);
        }
        if let (Some(&first), Some(&last)) = (bus_ys.first(), bus_ys.last()) {
            if last > first {
                out.fabric.push(((bus_right, first), (bus_right, last)));
            }
            out.uplinks.push(((bus_right, first), (0.0, first)));
        }
        bus_ys.clear();
    }
    let racks_h = racks as f64 * rack_h + (racks as f64 - 1.0) * RACK_GAP;
    let mut width = 2.0 * PAD + rack_w;
    if !has_racks {
        out.uplinks.clear();
    }
    if has_racks {
        let core = Rect {
            x: width + CORE_GAP - PAD,
            y: PAD,
            w: CORE_W,
            h: racks_h,
        };
        // Each rack's uplink runs from its bus to the core.
        for u in &mut out.uplinks {
            u.1 .0 = core.x;
        }
        width = core.x + core.w + PAD;
        out.core = Some(core);
    }
    out.width = width;
    out.height = racks_h + 2.0 * PAD;
    out
}

/// An SVG path for an arrow from `a` to `b`: a quadratic curve bent to the
/// left of the direction of travel by `bend` × the distance (so a → b and
/// b → a never overlap), shortened by `trim` at both ends so it starts and
/// stops at the edge of a circle of that radius. Also returns the curve's
/// midpoint (for a label).
pub fn arrow_path(a: (f64, f64), b: (f64, f64), bend: f64, trim: f64) -> (String, (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    if len < 1e-9 {
        // Same point (compact picture, same node): a small loop above it.
        let (x, y) = a;
        let d = format!(
            "M {} {} C {} {} {} {} {} {}",
            decimal::fixed(x - 6.0, 1),
            decimal::fixed(y - trim, 1),
            decimal::fixed(x - 22.0, 1),
            decimal::fixed(y - trim - 26.0, 1),
            decimal::fixed(x + 22.0, 1),
            decimal::fixed(y - trim - 26.0, 1),
            decimal::fixed(x + 6.0, 1),
            decimal::fixed(y - trim, 1)
        );
        return (d, (x, y - trim - 20.0));
    }
    let (ux, uy) = (dx / len, dy / len);
    // Left normal of the direction of travel (SVG y points down).
    let (nx, ny) = (uy, -ux);
    let off = bend * len;
    let c = (a.0 + dx / 2.0 + nx * off, a.1 + dy / 2.0 + ny * off);
    let trim = trim.min(len / 3.0);
    let start = towards(a, c, trim);
    let end = towards(b, c, trim);
    let mid = (
        0.25 * start.0 + 0.5 * c.0 + 0.25 * end.0,
        0.25 * start.1 + 0.5 * c.1 + 0.25 * end.1,
    );
    (
        format!(
            "M {} {} Q {} {} {} {}",
            decimal::fixed(start.0, 1),
            decimal::fixed(start.1, 1),
            decimal::fixed(c.0, 1),
            decimal::fixed(c.1, 1),
            decimal::fixed(end.0, 1),
            decimal::fixed(end.1, 1)
        ),
        mid,
    )
}

/// The point `d` along the segment from `p` towards `q`.
fn towards(p: (f64, f64), q: (f64, f64), d: f64) -> (f64, f64) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len = dx.hypot(dy);
    if len < 1e-9 {
        p
    } else {
        (p.0 + dx / len * d, p.1 + dy / len * d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_nodes_of_four_in_one_rack() {
        let l = layout(&[4, 4], 1, 4, false);
        assert!(!l.compact);
        assert_eq!((l.nodes.len(), l.ranks.len(), l.nics.len()), (2, 8, 8));
        assert!(l.racks.is_empty() && l.core.is_none() && l.uplinks.is_empty());
        // One bus under the row and one drop per NIC.
        assert_eq!(l.fabric.len(), 1 + 8);
        let bus_y = l.fabric[0].0 .1;
        assert!(bus_y > l.nodes[0].y + l.nodes[0].h);
        assert!(
            layout(&[8], 1, 4, false).fabric.is_empty(),
            "one node: no network"
        );
        // Node 1 sits right of node 0, same row; ranks 0..4 inside node 0.
        assert!(l.nodes[1].x > l.nodes[0].x + l.nodes[0].w);
        assert_eq!(l.nodes[1].y, l.nodes[0].y);
        for r in 0..4 {
            let (x, y) = l.ranks[r];
            let n = l.nodes[0];
            assert!(
                x > n.x && x < n.x + n.w && y > n.y && y < n.y + n.h,
                "rank {r}"
            );
        }
        // NIC lane 3 of node 1 is inside node 1, below its ranks.
        let nic = l.nics[7];
        assert_eq!((nic.node, nic.lane), (1, 3));
        assert!(nic.rect.y > l.ranks[7].1 + RANK_R);
        assert!(l.width >= l.nodes[1].x + l.nodes[1].w);
    }

    #[test]
    fn racks_stack_and_join_the_core() {
        let l = layout(&[4, 4], 2, 1, false);
        assert_eq!(l.racks.len(), 2);
        let core = l.core.expect("two racks have a core");
        assert!(l.racks[1].y > l.racks[0].y + l.racks[0].h);
        assert!(core.x > l.racks[0].x + l.racks[0].w);
        assert_eq!(l.uplinks.len(), 2);
        // Each uplink ends on the core bar.
        assert!(l.uplinks.iter().all(|u| (u.1 .0 - core.x).abs() < 1e-9));
        assert!(l.height >= l.racks[1].y + l.racks[1].h);
    }

    #[test]
    fn unequal_nodes_and_compact_form() {
        let l = layout(&[2, 3], 1, 1, false);
        assert_eq!(l.ranks.len(), 5);
        assert!(l.ranks[2].0 > l.nodes[1].x);
        let big = layout(&[8; 8], 2, 8, false);
        assert!(big.compact, "64 ranks is compact");
        assert_eq!(big.ranks.len(), 64);
        // Ranks of one node share its anchor.
        assert_eq!(big.ranks[8], big.ranks[15]);
        // 4 nodes per rack in one row.
        assert_eq!(big.nodes[3].y, big.nodes[0].y);
        let forced = layout(&[2, 2], 1, 1, true);
        assert!(forced.compact);
        // The narrow picture of 4 nodes with 8 NICs each: a node is
        // 8 × (40 + 4) + 2 × 10 = 372 wide, so one fits in 560 and the
        // nodes stack (each its own row); with 4 NICs (196 wide) two fit.
        let eight = layout(&[8; 4], 1, 8, true);
        assert_eq!(eight.nodes[0].w, 372.0);
        assert!(eight.nodes[1].y > eight.nodes[0].y);
        assert_eq!(eight.nodes[1].x, eight.nodes[0].x);
        let four = layout(&[8; 4], 1, 4, true);
        assert_eq!(four.nodes[1].y, four.nodes[0].y);
        assert!(four.nodes[2].y > four.nodes[0].y);
        // The full picture keeps four to a row.
        let full = layout(&[8; 4], 1, 8, false);
        assert_eq!(full.nodes[3].y, full.nodes[0].y);
    }

    #[test]
    fn arrows_bend_apart_and_stop_at_the_circle() {
        let (d1, m1) = arrow_path((0.0, 0.0), (100.0, 0.0), 0.2, 10.0);
        let (_, m2) = arrow_path((100.0, 0.0), (0.0, 0.0), 0.2, 10.0);
        assert!(d1.starts_with("M "));
        // Left of +x travel is up (y < 0); the return trip bends down.
        assert!(m1.1 < 0.0 && m2.1 > 0.0);
        let (d, _) = arrow_path((5.0, 5.0), (5.0, 5.0), 0.2, 10.0);
        assert!(d.contains(" C "));
    }
}
