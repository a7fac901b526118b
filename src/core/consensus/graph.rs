//! Communication graphs for gossip: ring, path, star, complete, 2-D torus,
//! hypercube, the static exponential graph and a seeded random connected graph.

use std::cell::OnceCell;
use std::fmt;

use super::ConsensusError;

/// Largest number of nodes a [`Graph`] may have.
pub const MAX_NODES: usize = 1024;

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny deterministic generator, so
/// a seed always gives the same graph or the same initial values on every
/// platform. Not for cryptography.
pub use crate::core::rng::SplitMix64;

/// The shape of a communication graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphKind {
    /// Cycle 0–1–…–(p−1)–0 (degree 2; degree 1 when p = 2).
    Ring,
    /// Chain 0–1–…–(p−1).
    Path,
    /// Node 0 is the hub joined to every other node.
    Star,
    /// Every pair of nodes is joined.
    Complete,
    /// A `rows × cols` grid with wrap-around in both directions; node
    /// `r·cols + c` sits at row `r`, column `c`. Needs p = rows·cols.
    Torus {
        /// Number of grid rows (≥ 1).
        rows: usize,
        /// Number of grid columns (≥ 1).
        cols: usize,
    },
    /// log₂ p-dimensional hypercube: i and j are joined when they differ in
    /// one bit. Needs p a power of two.
    Hypercube,
    /// Static exponential graph (Ying et al. 2021, "Exponential graph is
    /// provably efficient for decentralized deep training"): a *directed*
    /// graph where node i sends to (i + 2^k) mod p for k = 0 … ⌈log₂ p⌉ − 1.
    Exponential,
    /// A connected random graph drawn from the seed given to [`Graph::new`]:
    /// a random spanning tree (every node, in a shuffled order, attaches to a
    /// uniformly chosen earlier node) plus p random extra edge attempts
    /// (duplicates and self-loops skipped). Average degree is below 4.
    Random,
}

impl GraphKind {
    /// The URL name: `ring`, `path`, `star`, `complete`, `torus`,
    /// `hypercube`, `exp`, `random`.
    pub fn key(self) -> &'static str {
        match self {
            GraphKind::Ring => "ring",
            GraphKind::Path => "path",
            GraphKind::Star => "star",
            GraphKind::Complete => "complete",
            GraphKind::Torus { .. } => "torus",
            GraphKind::Hypercube => "hypercube",
            GraphKind::Exponential => "exp",
            GraphKind::Random => "random",
        }
    }
}

impl fmt::Display for GraphKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphKind::Torus { rows, cols } => write!(f, "{rows}×{cols} torus"),
            GraphKind::Exponential => f.write_str("exponential graph"),
            GraphKind::Random => f.write_str("random connected graph"),
            k => f.write_str(k.key()),
        }
    }
}

/// A communication graph on nodes `0..p`.
///
/// `in_neighbours[i]` lists (sorted, without `i`) the nodes whose values node
/// i reads in one gossip round. For undirected graphs this is the ordinary
/// neighbour set and the relation is symmetric; for the exponential graph an
/// edge i → j means "j reads i", so `in_neighbours[j]` contains i.
#[derive(Clone, Debug)]
pub struct Graph {
    /// The shape.
    pub kind: GraphKind,
    /// Number of nodes.
    pub p: usize,
    /// Seed used by [`GraphKind::Random`] (kept for all kinds so the URL can carry it).
    pub seed: u64,
    /// True for the directed exponential graph.
    pub directed: bool,
    /// Sorted in-neighbours of every node, excluding the node itself
    /// ([`Graph::in_neighbours`]); for the complete graph written on first
    /// use (p(p − 1) entries, 4 MB at p = 1 024, which its weights, checks
    /// and spectrum never read).
    in_neighbours: OnceCell<Vec<Vec<usize>>>,
}

/// Equal when the shape and the neighbour lists are equal, whether or not
/// the complete graph's lists were written.
impl PartialEq for Graph {
    fn eq(&self, other: &Self) -> bool {
        (self.kind, self.p, self.seed, self.directed)
            == (other.kind, other.p, other.seed, other.directed)
            && (self.kind == GraphKind::Complete || self.in_neighbours() == other.in_neighbours())
    }
}

impl Graph {
    /// Builds the graph `kind` on `p` nodes (`seed` is used by
    /// [`GraphKind::Random`] only).
    ///
    /// # Errors
    /// [`ConsensusError::InvalidGraph`] when p is outside 2..=[`MAX_NODES`],
    /// p is not a power of two for a hypercube, or p ≠ rows·cols for a torus.
    pub fn new(kind: GraphKind, p: usize, seed: u64) -> Result<Graph, ConsensusError> {
        if !(2..=MAX_NODES).contains(&p) {
            return Err(ConsensusError::InvalidGraph(format!(
                "a graph needs from 2 to {MAX_NODES} nodes (got p = {p})"
            )));
        }
        if kind == GraphKind::Complete {
            // every other node: the lists are written when first asked for
            return Ok(Graph {
                kind,
                p,
                seed,
                directed: false,
                in_neighbours: OnceCell::new(),
            });
        }
        // Sorted, duplicate-free neighbour lists (insert_sorted), so no
        // set type is linked for them.
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); p];
        let mut join = |a: usize, b: usize| {
            if a != b {
                insert_sorted(&mut adj[a], b);
                insert_sorted(&mut adj[b], a);
            }
        };
        let mut directed = false;
        match kind {
            GraphKind::Ring => (0..p).for_each(|i| join(i, (i + 1) % p)),
            GraphKind::Path => (0..p - 1).for_each(|i| join(i, i + 1)),
            GraphKind::Star => (1..p).for_each(|i| join(0, i)),
            GraphKind::Complete => {} // built above
            GraphKind::Torus { rows, cols } => {
                if rows == 0 || cols == 0 || rows.checked_mul(cols) != Some(p) {
                    return Err(ConsensusError::InvalidGraph(format!(
                        "a {rows}×{cols} torus has {} nodes, not p = {p}",
                        rows.saturating_mul(cols)
                    )));
                }
                for r in 0..rows {
                    for c in 0..cols {
                        let i = r * cols + c;
                        join(i, r * cols + (c + 1) % cols);
                        join(i, ((r + 1) % rows) * cols + c);
                    }
                }
            }
            GraphKind::Hypercube => {
                if !p.is_power_of_two() {
                    return Err(ConsensusError::InvalidGraph(format!(
                        "a hypercube needs p to be a power of two (got p = {p})"
                    )));
                }
                let dims = p.trailing_zeros();
                for i in 0..p {
                    for b in 0..dims {
                        join(i, i ^ (1 << b));
                    }
                }
            }
            GraphKind::Exponential => {
                directed = true;
                let mut ins: Vec<Vec<usize>> = vec![Vec::new(); p];
                for i in 0..p {
                    for off in exponential_offsets(p) {
                        insert_sorted(&mut ins[(i + off) % p], i);
                    }
                }
                adj = ins;
            }
            GraphKind::Random => {
                let mut rng = SplitMix64::new(seed);
                let mut order: Vec<usize> = (0..p).collect();
                for i in (1..p).rev() {
                    let j = rng.below(i + 1);
                    order.swap(i, j);
                }
                for k in 1..p {
                    let parent = order[rng.below(k)];
                    join(order[k], parent);
                }
                for _ in 0..p {
                    let a = rng.below(p);
                    let b = rng.below(p);
                    join(a, b);
                }
            }
        }
        Ok(Graph {
            kind,
            p,
            seed,
            directed,
            in_neighbours: OnceCell::from(adj),
        })
    }

    /// Degree of node i: its number of in-neighbours (for undirected graphs,
    /// its ordinary degree). 0 for an out-of-range i.
    pub fn degree(&self, i: usize) -> usize {
        if self.kind == GraphKind::Complete {
            return if i < self.p { self.p - 1 } else { 0 };
        }
        self.in_neighbours().get(i).map_or(0, Vec::len)
    }

    /// `in_neighbours()[i]`: the nodes whose values node i reads, sorted,
    /// without i (for undirected graphs, its neighbours). The complete
    /// graph's p(p − 1) entries are written on the first call.
    pub fn in_neighbours(&self) -> &[Vec<usize>] {
        self.in_neighbours.get_or_init(|| {
            if self.kind != GraphKind::Complete {
                return Vec::new();
            }
            let p = self.p;
            (0..p)
                .map(|i| {
                    let mut row = Vec::with_capacity(p - 1);
                    row.extend((0..i).chain(i + 1..p));
                    row
                })
                .collect()
        })
    }

    /// Largest degree Δ.
    pub fn max_degree(&self) -> usize {
        (0..self.p).map(|i| self.degree(i)).max().unwrap_or(0)
    }

    /// Edges for drawing: `(a, b)` with a < b for undirected graphs (each
    /// once), `(src, dst)` for the directed exponential graph.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (dst, ins) in self.in_neighbours().iter().enumerate() {
            for &src in ins {
                if self.directed || src < dst {
                    out.push((src, dst));
                }
            }
        }
        out
    }

    /// True when every node can reach every other node along edges (strong
    /// connectivity for the directed graph). Breadth-first search both ways.
    pub fn is_connected(&self) -> bool {
        if self.kind == GraphKind::Complete {
            // every pair is joined (p ≥ 2); skips p² list pushes at p = 1024
            return true;
        }
        let reach = |forward: bool| {
            let mut seen = vec![false; self.p];
            let mut stack = vec![0usize];
            seen[0] = true;
            let mut outs: Vec<Vec<usize>> = vec![Vec::new(); self.p];
            for (dst, ins) in self.in_neighbours().iter().enumerate() {
                for &src in ins {
                    if forward {
                        outs[src].push(dst);
                    } else {
                        outs[dst].push(src);
                    }
                }
            }
            while let Some(v) = stack.pop() {
                for &w in &outs[v] {
                    if !seen[w] {
                        seen[w] = true;
                        stack.push(w);
                    }
                }
            }
            seen.iter().all(|&s| s)
        };
        reach(true) && reach(false)
    }

    /// The translation group under which the graph is invariant, as a
    /// `(rows, cols)` grid of the cyclic group Z_rows × Z_cols: ring, complete
    /// and exponential graphs are `(1, p)`, the torus is `(rows, cols)`.
    /// `None` for other graphs. Used for the closed-form circulant spectrum.
    pub fn circulant_shape(&self) -> Option<(usize, usize)> {
        match self.kind {
            GraphKind::Ring | GraphKind::Complete | GraphKind::Exponential => Some((1, self.p)),
            GraphKind::Torus { rows, cols } => Some((rows, cols)),
            _ => None,
        }
    }

    /// Node positions for a drawing, in the unit square `[0, 1]²` (y grows
    /// downwards). Ring-like graphs sit on a circle starting at the top and
    /// going clockwise, the path on a line, the star's hub in the centre, the
    /// torus on its grid. The hypercube sits on its circle in Gray-code order
    /// (0, 1, 3, 2, 6, 7, 5, 4, …), so neighbours on the circle differ in one
    /// bit and are joined: at p = 4 a square, with no crossing edges.
    pub fn layout(&self) -> Vec<(f64, f64)> {
        let p = self.p;
        let circle = |i: usize, n: usize| {
            let a = std::f64::consts::TAU * i as f64 / n.max(1) as f64;
            (0.5 + 0.45 * a.sin(), 0.5 - 0.45 * a.cos())
        };
        match self.kind {
            GraphKind::Path => (0..p)
                .map(|i| (0.05 + 0.9 * i as f64 / (p - 1).max(1) as f64, 0.5))
                .collect(),
            GraphKind::Star => (0..p)
                .map(|i| {
                    if i == 0 {
                        (0.5, 0.5)
                    } else {
                        circle(i - 1, p - 1)
                    }
                })
                .collect(),
            GraphKind::Torus { rows, cols } => (0..p)
                .map(|i| {
                    let (r, c) = (i / cols, i % cols);
                    (
                        0.05 + 0.9 * (c as f64 + 0.5) / cols as f64,
                        0.05 + 0.9 * (r as f64 + 0.5) / rows as f64,
                    )
                })
                .collect(),
            // Node i at the place k whose Gray code k ^ (k >> 1) is i: k is
            // the XOR of i's right shifts.
            GraphKind::Hypercube => (0..p)
                .map(|i| {
                    let k = (0..usize::BITS).fold(0, |k, s| k ^ i.checked_shr(s).unwrap_or(0));
                    circle(k, p)
                })
                .collect(),
            _ => (0..p).map(|i| circle(i, p)).collect(),
        }
    }
}

/// The most nearly square torus shape for `p` ranks: rows = the largest
/// divisor of `p` that is at most √p, cols = p / rows (16 → 4×4, 12 → 3×4;
/// a prime p gives 1 × p, a ring).
pub fn torus_shape(p: usize) -> (usize, usize) {
    let mut rows = 1;
    let mut d = 1;
    while d * d <= p {
        if p.is_multiple_of(d) {
            rows = d;
        }
        d += 1;
    }
    (rows, p / rows.max(1))
}

/// The distinct offsets 2^k mod p, k = 0 … ⌈log₂ p⌉ − 1, of the static
/// exponential graph (Ying et al. 2021). For p = 8: 1, 2, 4.
pub fn exponential_offsets(p: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut off = 1usize;
    while off < p {
        out.push(off);
        off *= 2;
    }
    out
}

/// Inserts `x` into the sorted list `v` unless it is there already.
fn insert_sorted(v: &mut Vec<usize>, x: usize) {
    if let Err(i) = v.binary_search(&x) {
        v.insert(i, x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_complete_graph_writes_its_lists_only_when_asked_for() {
        // the gossip view's whole run at p = 1024 never reads the 1024 × 1023 entries
        let run = super::super::GossipRun::with_dense_limit(
            GraphKind::Complete,
            1024,
            1,
            super::super::WeightRule::Metropolis,
            &super::super::InitPattern::Linear,
            (10, 100.0),
            super::super::DENSE_LIST_MAX_P,
        )
        .expect("run");
        let g = &run.graph;
        assert!(g.in_neighbours.get().is_none(), "lists written");
        assert_eq!(
            (g.degree(0), g.degree(1023), g.degree(1024)),
            (1023, 1023, 0)
        );
        assert_eq!(g.max_degree(), 1023);
        assert!(g.is_connected());
        assert!(g.in_neighbours.get().is_none(), "lists written");
        // written on demand: node 2 of 5 reads 0, 1, 3, 4; equal either way
        let small = Graph::new(GraphKind::Complete, 5, 0).expect("complete");
        let written = small.clone();
        assert_eq!(written.in_neighbours()[2], vec![0, 1, 3, 4]);
        assert_eq!(written, small);
        assert_eq!(written.edges().len(), 10);
    }

    #[test]
    fn shapes_have_the_expected_degrees() {
        let ring = Graph::new(GraphKind::Ring, 4, 0).expect("ring");
        assert_eq!(ring.in_neighbours()[0], vec![1, 3]);
        assert_eq!(ring.edges().len(), 4);
        let ring2 = Graph::new(GraphKind::Ring, 2, 0).expect("ring p=2");
        assert_eq!(ring2.in_neighbours()[0], vec![1]);
        let star = Graph::new(GraphKind::Star, 5, 0).expect("star");
        assert_eq!((star.degree(0), star.degree(3)), (4, 1));
        let path = Graph::new(GraphKind::Path, 5, 0).expect("path");
        assert_eq!((path.degree(0), path.degree(2)), (1, 2));
        let torus = Graph::new(GraphKind::Torus { rows: 3, cols: 4 }, 12, 0).expect("torus");
        assert!((0..12).all(|i| torus.degree(i) == 4));
        assert_eq!(torus.in_neighbours()[0], vec![1, 3, 4, 8]);
        let cube = Graph::new(GraphKind::Hypercube, 8, 0).expect("cube");
        assert_eq!(cube.in_neighbours()[5], vec![1, 4, 7]);
        let complete = Graph::new(GraphKind::Complete, 6, 0).expect("complete");
        assert_eq!(complete.edges().len(), 15);
        assert_eq!(complete.in_neighbours()[2], vec![0, 1, 3, 4, 5]);
        assert!(!complete.directed && complete.is_connected());
        let two = Graph::new(GraphKind::Complete, 2, 0).expect("complete");
        assert_eq!(two.in_neighbours(), vec![vec![1], vec![0]]);
        assert!(Graph::new(GraphKind::Complete, 1, 0).is_err());
    }

    #[test]
    fn the_hypercube_is_drawn_in_gray_code_order() {
        // p = 4: places 0, 1, 2, 3 clockwise from the top hold nodes 0, 1,
        // 3, 2, so every edge (0–1, 1–3, 3–2, 2–0) is a side of the square
        let at = |g: &Graph, i: usize| {
            let (x, y) = g.layout()[i];
            ((x * 100.0).round() / 100.0, (y * 100.0).round() / 100.0)
        };
        let sq = Graph::new(GraphKind::Hypercube, 4, 0).expect("square");
        assert_eq!(at(&sq, 0), (0.5, 0.05)); // top
        assert_eq!(at(&sq, 1), (0.95, 0.5)); // right
        assert_eq!(at(&sq, 3), (0.5, 0.95)); // bottom
        assert_eq!(at(&sq, 2), (0.05, 0.5)); // left

        // p = 8: neighbouring places differ in one bit, so each pair is an edge
        let cube = Graph::new(GraphKind::Hypercube, 8, 0).expect("cube");
        let place: Vec<(f64, f64)> = (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 8.0;
                (0.5 + 0.45 * a.sin(), 0.5 - 0.45 * a.cos())
            })
            .collect();
        let node_at = |k: usize| {
            (0..8)
                .find(|&i| cube.layout()[i] == place[k])
                .expect("a node")
        };
        let order: Vec<usize> = (0..8).map(node_at).collect();
        assert_eq!(order, vec![0, 1, 3, 2, 6, 7, 5, 4]);
        for k in 0..8 {
            let (a, b) = (order[k], order[(k + 1) % 8]);
            assert_eq!((a ^ b).count_ones(), 1, "{a} and {b}");
        }
    }

    #[test]
    fn exponential_graph_is_directed_with_log_degree() {
        assert_eq!(exponential_offsets(8), vec![1, 2, 4]);
        assert_eq!(exponential_offsets(6), vec![1, 2, 4]);
        assert_eq!(exponential_offsets(2), vec![1]);
        let g = Graph::new(GraphKind::Exponential, 8, 0).expect("exp");
        assert!(g.directed);
        // node 0 reads from 0−1, 0−2, 0−4 (mod 8)
        assert_eq!(g.in_neighbours()[0], vec![4, 6, 7]);
        assert_eq!(g.edges().len(), 24);
        assert!(g.is_connected());
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert!(Graph::new(GraphKind::Ring, 1, 0).is_err());
        assert!(Graph::new(GraphKind::Ring, MAX_NODES + 1, 0).is_err());
        assert!(Graph::new(GraphKind::Hypercube, 6, 0).is_err());
        let e = Graph::new(GraphKind::Torus { rows: 3, cols: 3 }, 8, 0).expect_err("9 ≠ 8");
        assert!(e.to_string().contains("3×3 torus has 9 nodes"));
    }

    #[test]
    fn random_graph_is_seeded_and_connected() {
        let a = Graph::new(GraphKind::Random, 30, 7).expect("random");
        let b = Graph::new(GraphKind::Random, 30, 7).expect("random");
        let c = Graph::new(GraphKind::Random, 30, 8).expect("random");
        assert_eq!(a, b);
        assert_ne!(a.in_neighbours(), c.in_neighbours());
        assert!(a.is_connected() && c.is_connected());
        // at least the spanning tree's p − 1 edges, at most p − 1 + p
        let e = a.edges().len();
        assert!((29..=59).contains(&e), "{e} edges");
    }

    #[test]
    fn splitmix_matches_reference_values() {
        // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
