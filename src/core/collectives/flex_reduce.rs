//! `flex`: FlexReduce-style all-reduce over unequal groups (the course's
//! §10 "FlexReduce: unequal groups"). The groups are the topology's nodes
//! (`Topology::unequal(vec![2, 3], …)` for the course's subtrees of 2 and
//! 3 workers); a flat topology counts each rank as a group of one.
//!
//! With `k` groups of sizes `s_0 … s_{k−1}` and the tensor split into `k`
//! parts (part `q` is the responsibility of group `q`):
//! 1. **reduce-scatter inside each group**: every part is split into `s_h`
//!    pieces inside group `h`; worker `i` of the group ends with the
//!    group's partial sum on piece `i` of every part, `n/s_h` elements
//!    (12 entries: 6 per worker in the 2-group, 4 in the 3-group).
//! 2. **fetch the other groups' partial sums**: worker `i` of group `g` is
//!    responsible for piece `i` of part `g` (`n/(k·s_g)`: 3 and 2 entries)
//!    and receives, from every other group, the partial sums on that range
//!    from the workers whose pieces overlap it. For groups 2 and 3 and 12
//!    entries, 6 entries cross in each direction.
//! 3. **return the finished ranges** (the reverse copies), so every worker
//!    holds the final sum on all its pieces;
//! 4. **all-gather inside each group** (ring) rebuilds the whole tensor.

use std::ops::Range;

use super::pieces::flat_formula;
use super::pieces::{
    all_reduce, ceil_div, ring_all_gather, ring_reduce_scatter, rounds, side_by_side, sub_range,
    Split,
};
use super::{factors_of, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo};
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{check_args, Op, Phase, Schedule, ScheduleError, Transfer};
use crate::core::topology::{LinkClass, Topology};
use crate::core::cost::protocol::Rounds;

/// Level text of the in-group reduce-scatter.
pub const GROUP_RS: &str = "reduce-scatter inside each subtree";
/// Level text of the cross-group fetch.
pub const FETCH: &str =
    "cross-subtree exchange: fetch the other subtree's partial sums for your range";
/// Level text of the return of finished ranges.
pub const RETURN: &str = "cross-subtree exchange: finished ranges go back";
/// Level text of the in-group all-gather.
pub const GROUP_AG: &str = "all-gather inside each subtree";

/// Part `q` of the tensor: the range group `q` is responsible for.
pub fn part(n: u64, groups: usize, q: usize) -> Range<u64> {
    sub_range(&(0..n), groups, q)
}

/// The range worker `i` of group `g` is responsible for: piece `i` of part `g`.
pub fn responsibility(n: u64, sizes: &[usize], g: usize, i: usize) -> Range<u64> {
    let s = sizes.get(g).copied().unwrap_or(1);
    sub_range(&part(n, sizes.len(), g), s, i)
}

/// The FlexReduce all-reduce on `topo`, groups = nodes.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn flex_schedule(topo: &Topology, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    let p = topo.p();
    check_args(p, n, elem_bytes)?;
    let sizes = topo.node_sizes();
    let k = sizes.len();
    let members: Vec<Vec<usize>> = (0..k).map(|g| topo.node_ranks(g).collect()).collect();
    // pieces[h][i]: worker i of group h, piece i of every part.
    let pieces: Vec<Vec<Vec<Range<u64>>>> = sizes
        .iter()
        .map(|&s| {
            (0..s)
                .map(|i| (0..k).map(|q| sub_range(&part(n, k, q), s, i)).collect())
                .collect()
        })
        .collect();
    let rs = side_by_side(
        members
            .iter()
            .zip(&pieces)
            .map(|(m, pc)| ring_reduce_scatter(m, pc))
            .collect(),
    );
    let ag = side_by_side(
        members
            .iter()
            .zip(&pieces)
            .map(|(m, pc)| ring_all_gather(m, pc))
            .collect(),
    );
    let mut fetch = Vec::new();
    for (g, mg) in members.iter().enumerate() {
        for (i, &dst) in mg.iter().enumerate() {
            let want = responsibility(n, &sizes, g, i);
            for (h, mh) in members.iter().enumerate() {
                if h == g {
                    continue;
                }
                let mut any = false;
                for (j, &src) in mh.iter().enumerate() {
                    let have = sub_range(&part(n, k, g), sizes[h], j);
                    let lo = want.start.max(have.start);
                    let hi = want.end.min(have.end);
                    if lo < hi {
                        any = true;
                        fetch.push(Transfer {
                            src,
                            dst,
                            range: lo..hi,
                            op: Op::Reduce,
                            chunk: None,
                        });
                    }
                }
                if !any {
                    // An empty responsibility (n smaller than the pieces):
                    // still one zero-byte message, as in the flat ring.
                    fetch.push(Transfer {
                        src: mh[0],
                        dst,
                        range: want.start..want.start,
                        op: Op::Reduce,
                        chunk: None,
                    });
                }
            }
        }
    }
    let back: Vec<Transfer> = fetch
        .iter()
        .map(|t| Transfer {
            src: t.dst,
            dst: t.src,
            range: t.range.clone(),
            op: Op::Copy,
            chunk: None,
        })
        .collect();
    let mut all = rounds(rs, Phase::ReduceScatter, GROUP_RS);
    if k >= 2 {
        all.extend(rounds(vec![fetch], Phase::Reduce, FETCH));
        all.extend(rounds(vec![back], Phase::Broadcast, RETURN));
    }
    all.extend(rounds(ag, Phase::AllGather, GROUP_AG));
    Ok(all_reduce(p, n, elem_bytes, all))
}

/// Closed form of [`flex_schedule`], seconds (exact when every split is even; bytes
/// for `n`):
///
/// `T = 2·Σ_{r=0}^{max s − 2} (α_intra + β_intra·n/min{s_h : s_h − 1 > r})
///    + 2·(α_inter + max(max_g ⌈s_g/L⌉·(k − 1)·n/(k·s_g)·β_inter, X·β_core))`
///
/// where the in-group rings of different sizes run side by side (a round
/// lasts as long as the biggest piece still moving), and in each exchange
/// round NIC lane `ℓ` of group `g` carries `(k − 1)·n/(k·s_g)` for each of
/// its `⌈s_g/L⌉` workers. `X = (k/K)(k − k/K)·n/k` is the bytes on one rack's
/// core uplink with `K ≥ 2` equal racks (0 otherwise). Flat topology (every
/// group one rank): `2(α + (n/p)·β)`, a direct reduce-scatter + all-gather.
///
/// With [`Split::EXACT`] this is the closed form; with [`Split::FLOOR`]
/// (every piece rounded down) a lower bound on the executed time.
pub fn topo_time(topo: &Topology, n: u64, elem_bytes: u64, s: Split) -> Option<f64> {
    let p = topo.p();
    if p < 2 || n == 0 || elem_bytes == 0 {
        return None;
    }
    let sizes = topo.node_sizes();
    let k = sizes.len();
    let eb = elem_bytes as f64;
    let intra = topo.link(LinkClass::Intra);
    let inter = topo.link(LinkClass::Nic);
    let part = s.div(n as f64, k);
    let piece = |sz: usize| s.div(part, sz);
    let smax = sizes.iter().copied().max().unwrap_or(1);
    let mut t = 0.0;
    for r in 0..smax.saturating_sub(1) {
        let smallest = sizes
            .iter()
            .copied()
            .filter(|&sz| sz - 1 > r)
            .min()
            .unwrap_or(smax);
        t += 2.0 * (intra.alpha + k as f64 * piece(smallest) * eb * intra.beta);
    }
    if k >= 2 {
        let exch = if let Topology::Flat { .. } = topo {
            // every rank is a group of one: its port receives (then sends)
            // its part from each of the k − 1 others
            (k as f64 - 1.0) * piece(1) * eb * inter.beta
        } else {
            let nic = sizes
                .iter()
                .map(|&sz| ceil_div(sz, topo.lanes()) as f64 * (k as f64 - 1.0) * piece(sz) * eb)
                .fold(0.0, f64::max)
                * inter.beta;
            let racks = topo.racks();
            let core = if racks >= 2 {
                let per_rack = (k / racks) as f64;
                per_rack * (k as f64 - per_rack) * part * eb * topo.core_beta()
            } else {
                0.0
            };
            nic.max(core)
        };
        t += 2.0 * (inter.alpha + exch);
    }
    Some(t)
}

/// Least common multiple of the group sizes (saturating).
fn lcm(sizes: &[usize]) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    sizes.iter().fold(1usize, |acc, &s| {
        let s = s.max(1);
        (acc / gcd(acc, s)).saturating_mul(s)
    })
}

/// Registry entry of [`flex_schedule`].
pub struct FlexReduce;

impl CollectiveAlgorithm for FlexReduce {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "flex",
            label: "FlexReduce over unequal groups",
            short_label: "FlexReduce",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Nodes,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        match phase {
            Phase::ReduceScatter | Phase::AllGather => "around a ring inside each group",
            Phase::Reduce => "from the other groups",
            Phase::Broadcast => "back to the other groups",
            _ => "",
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        flex_schedule(topo, n, elem)
    }
    /// Flat model (every message `α + m·β`), `k` groups, part `L = n/k`:
    /// in-group rounds `r = 0 … max s − 2` cost `α + L/s_r·β` (`s_r` the
    /// smallest group still moving, its pieces the largest), twice
    /// (reduce-scatter with γ, all-gather); the fetch and the return cost
    /// `α + L/s₍₂₎·β` each, `s₍₂₎` the second-smallest group (the largest
    /// overlap of two groups' pieces).
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        let sizes = topo.node_sizes();
        let k = sizes.len().max(1) as f64;
        let mut sorted = sizes.clone();
        crate::core::order::sort_usize(&mut sorted);
        let smax = sorted.last().copied().unwrap_or(1);
        let smin = sorted.first().copied().unwrap_or(1).max(1) as f64;
        // In-group round r: each worker of the smallest group still in its
        // ring sends one piece of every part (k pieces of L/s through its
        // port, n/s in all); a reduce adds one piece, L/s.
        let (mut rs_bytes, mut rs_gamma) = (0.0, 0.0);
        for r in 0..smax.saturating_sub(1) {
            let smallest = sorted.iter().copied().find(|&s| s - 1 > r).unwrap_or(smax) as f64;
            rs_bytes += 1.0 / smallest;
            rs_gamma += 1.0 / (k * smallest);
        }
        // Exchange: a worker of the smallest group receives its range
        // (L/s_min) from each of the k − 1 other groups through its port,
        // then sends it back; the largest overlap is L/s₍₂₎.
        let (startups, cross_bytes, cross_gamma) = if sorted.len() >= 2 {
            (
                2.0 * (smax as f64 - 1.0) + 2.0,
                (k - 1.0) / (k * smin),
                1.0 / (k * sorted[1] as f64),
            )
        } else {
            (2.0 * (smax as f64 - 1.0), 0.0, 0.0)
        };
        flat_formula(
            self.descriptor().label,
            "2·Σᵣ(α + n/sᵣ·β) + 2(α + (k−1)·L/s₍₁₎·β) + (Σᵣ L/sᵣ + L/s₍₂₎)·γ, L = n/k",
            [
                startups,
                2.0 * (rs_bytes + cross_bytes),
                rs_gamma + cross_gamma,
            ],
            n_bytes,
            c,
            format!("k = {} groups of sizes {:?}", sizes.len(), sizes),
        )
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        factors_of(self, topo)
    }
    fn flat_rounds(&self, _p: usize) -> Rounds {
        // Follows nodes: no critical path from p alone.
        Vec::new()
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        let sizes = topo.node_sizes();
        sizes.len().max(1).saturating_mul(lcm(&sizes))
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        Some(TopologyInfo {
            key: "flex",
            label: "FlexReduce over unequal groups",
            short_label: "FlexReduce",
            summary: "reduce-scatter inside each group, fetch the other groups' partial sums for your range, return them, all-gather inside the group",
            min_racks: 1,
        })
    }
    fn topology_schedule(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        flex_schedule(topo, n, elem)
    }
    fn topology_time(&self, topo: &Topology, n: u64, elem: u64, split: Split) -> Option<f64> {
        topo_time(topo, n, elem, split)
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        match round.phase {
            Phase::ReduceScatter => "inside every group, each worker passes its pieces to the next worker, which adds them".into(),
            Phase::Reduce => "each worker fetches the other groups' partial sums for the range it is responsible for and adds them".into(),
            Phase::Broadcast => "each worker sends its finished range back to the workers of the other groups (no addition)".into(),
            Phase::AllGather => "inside every group, each worker passes finished pieces to the next worker, which copies them (no addition)".into(),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn closed_form_equals_executed_time_for_nodes_and_gpus_up_to_8() {
        super::super::pieces::check_registry_entry(super::super::Algorithm::FLEX);
    }

    #[test]
    fn unequal_groups_2_3_flat_model_by_hand() {
        use crate::core::cost::CostParams;
        use crate::core::topology::{Link, Topology};
        // Groups 2 and 3, 12 entries of 1 B, α = 1 s, β = 1 s/B: parts of 6.
        // Every rank has one port, so a worker's pieces of both parts share
        // it: in-group round 1: 2 × 3 B (2-group) and 2 × 2 B → 1 + 6;
        // round 2 (only the 3-group): 2 × 2 B → 1 + 4; fetch and return: a
        // 2-group worker's range of 3 B arrives from the other group (then
        // leaves again) → 1 + 3 each; all-gather 7 + 5:
        // 7 + 5 + 4 + 4 + 7 + 5 = 32 s (20 s when ports did not add up).
        let l = Link::new(0.0, 1.0);
        let topo = Topology::unequal(vec![2, 3], 1, 1, l, l, 1.0).expect("valid");
        let alg = super::super::Algorithm::FLEX;
        assert_eq!(alg.equal_parts(&topo), 12);
        let s = alg.generate_on(&topo, 12, 1).expect("valid");
        let exec = crate::core::timing::executed_time(&s, 1.0, 1.0);
        assert_eq!(exec, 32.0);
        assert_eq!(
            alg.closed_form_on(&topo, 12.0, CostParams::new(1.0, 1.0))
                .time,
            32.0
        );
    }
}
