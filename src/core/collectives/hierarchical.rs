//! Hierarchical all-reduce (`hier`, `hier_rd`): the two-level all-reduce of
//! the course's topology section, in three labelled phases.
//!
//! 1. **Reduce inside each node**: a binomial tree to the node's leader
//!    (local rank 0), all nodes at once: `⌈log₂g⌉` rounds of whole tensors.
//! 2. **All-reduce among the node leaders**: a ring all-reduce (`hier`) or a
//!    recursive-doubling all-reduce (`hier_rd`) over the `N` leaders. The
//!    choice is two registry entries of one struct, [`Hierarchical`], with a
//!    [`LeaderAlgorithm`] field.
//! 3. **Broadcast inside each node**: a binomial tree from the leader,
//!    `⌈log₂g⌉` rounds.
//!
//! Any `N ≥ 1` nodes and any node sizes `g ≥ 1` work (with `p ≥ 2`): one node
//! is just reduce + broadcast; one rank per node is just the leaders'
//! all-reduce. Unequal nodes run their trees side by side; the deepest sets
//! the number of rounds (reduce rounds aligned at the start, broadcast rounds
//! at the end).
//!
//! Closed form on the flat model (every message costs `α + m·β`, reductions
//! `m·γ`), with `g` the largest node:
//! `T = ⌈log₂g⌉(α + nβ + nγ) + T_leaders(N) + ⌈log₂g⌉(α + nβ)`, where
//! `T_leaders` is the ring all-reduce `2(N−1)α + 2(N−1)/N·nβ + (N−1)/N·nγ`
//! or the recursive-doubling all-reduce over `N` (with its labelled
//! non-power-of-two adaptation). Sources: the binomial reduce and broadcast
//! and the ring / recursive-doubling all-reduce of Thakur, Rabenseifner &
//! Gropp 2005 (§2, §4), composed as in the hierarchical all-reduce of
//! Sanders, Speck & Träff 2009 and NCCL's tree/ring split.

use super::narrate::fold_text;
use super::binomial_tree::{binomial_levels, level_note};
use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts, flat_topo, TopologyInfo};
use super::pieces::Split;
use crate::core::cost::formulas::{ceil_log2, Formula};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{formulas, CostParams};
use crate::core::schedule::ring::ring_all_reduce_schedule;
use crate::core::schedule::{
    check_args, Computation, Phase, Round, Schedule, ScheduleError, Transfer,
};
use crate::core::topology::Topology;
use crate::core::units::format_time;
use crate::core::cost::protocol::Rounds;

/// The all-reduce the node leaders run among themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderAlgorithm {
    /// Ring all-reduce over the leaders.
    Ring,
    /// Recursive-doubling all-reduce over the leaders.
    RecursiveDoubling,
}

/// Hierarchical all-reduce: reduce inside nodes, all-reduce among leaders,
/// broadcast inside nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hierarchical {
    /// What the leaders run.
    pub leaders: LeaderAlgorithm,
}

/// `hier`: ring among the leaders.
pub(super) const HIER_RING: Hierarchical = Hierarchical {
    leaders: LeaderAlgorithm::Ring,
};
/// `hier_rd`: recursive doubling among the leaders.
pub(super) const HIER_RD: Hierarchical = Hierarchical {
    leaders: LeaderAlgorithm::RecursiveDoubling,
};

/// `⌈log₂g⌉` of the largest node: the rounds of each intra-node phase.
fn depth(topo: &Topology) -> u32 {
    topo.node_sizes()
        .into_iter()
        .map(ceil_log2)
        .max()
        .unwrap_or(0)
}

/// One intra-node phase over every node: reduce rounds aligned at the start,
/// broadcast rounds at the end, so every round has one distance `d`.
fn intra_phase(topo: &Topology, n: u64, reduce: bool) -> Vec<Round> {
    let depth = depth(topo) as usize;
    let mut rounds: Vec<Round> = (0..depth)
        .map(|i| Round {
            phase: if reduce {
                Phase::NodeReduce
            } else {
                Phase::NodeBroadcast
            },
            note: level_note("local rank", depth, i, reduce),
            transfers: Vec::new(),
        })
        .collect();
    for k in 0..topo.nodes() {
        let ranks = topo.node_ranks(k);
        let node = binomial_levels(ranks.start, ranks.len(), n, reduce);
        let shift = if reduce { 0 } else { depth - node.len() };
        for (j, ts) in node.into_iter().enumerate() {
            if let Some(round) = rounds.get_mut(j + shift) {
                round.transfers.extend(ts);
            }
        }
    }
    rounds
}

impl Hierarchical {
    /// The leaders' all-reduce over `nodes` leaders, ranks renumbered to the
    /// leaders' global ranks and phases relabelled to the leader level.
    fn leader_rounds(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Vec<Round>, ScheduleError> {
        let nodes = topo.nodes();
        if nodes < 2 {
            return Ok(Vec::new());
        }
        let leaders: Vec<usize> = (0..nodes).map(|k| topo.node_ranks(k).start).collect();
        let inner = match self.leaders {
            LeaderAlgorithm::Ring => ring_all_reduce_schedule(nodes, n, elem_bytes)?,
            LeaderAlgorithm::RecursiveDoubling => {
                super::recursive_doubling_schedule(nodes, n, elem_bytes)?
            }
        };
        Ok(inner
            .rounds
            .into_iter()
            .map(|r| Round {
                phase: match r.phase {
                    Phase::ReduceScatter => Phase::LeaderReduceScatter,
                    Phase::AllGather => Phase::LeaderAllGather,
                    Phase::Exchange => Phase::LeaderExchange,
                    other => other,
                },
                note: if r.note.is_empty() {
                    String::new()
                } else {
                    format!("leaders numbered by node, {}", r.note)
                },
                transfers: r
                    .transfers
                    .into_iter()
                    .map(|t| Transfer {
                        src: leaders[t.src],
                        dst: leaders[t.dst],
                        chunk: None,
                        ..t
                    })
                    .collect(),
            })
            .collect())
    }

    fn leader_formula(&self, nodes: usize, n_bytes: f64, c: CostParams) -> Formula {
        match self.leaders {
            LeaderAlgorithm::Ring => super::ring_all_reduce_time(nodes, n_bytes, c),
            LeaderAlgorithm::RecursiveDoubling => {
                super::recursive_doubling_all_reduce_time(nodes, n_bytes, c)
            }
        }
    }
}

impl CollectiveAlgorithm for Hierarchical {
    fn descriptor(&self) -> Descriptor {
        let (key, label, short_label) = match self.leaders {
            LeaderAlgorithm::Ring => (
                "hier",
                "hierarchical all-reduce (ring among node leaders)",
                "hierarchical (ring)",
            ),
            LeaderAlgorithm::RecursiveDoubling => (
                "hier_rd",
                "hierarchical all-reduce (recursive doubling among node leaders)",
                "hierarchical (rd)",
            ),
        };
        Descriptor {
            key,
            label,
            short_label,
            collective: CollectiveKind::AllReduce,
            layout: Layout::Nodes,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        match (phase, self.leaders) {
            (Phase::NodeReduce | Phase::NodeBroadcast, _) => "along a binomial tree",
            (Phase::LeaderReduceScatter | Phase::LeaderAllGather, LeaderAlgorithm::Ring) => {
                "around the ring"
            }
            (Phase::LeaderExchange, _) => "by recursive doubling",
            _ => "",
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        let p = topo.p();
        check_args(p, n, elem)?;
        let mut rounds = intra_phase(topo, n, true);
        rounds.extend(self.leader_rounds(topo, n, elem)?);
        rounds.extend(intra_phase(topo, n, false));
        Ok(Schedule {
            p,
            n,
            elem_bytes: elem,
            collective: Computation::AllReduce,
            rounds,
        })
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        let nodes = topo.nodes();
        let g = 1usize << depth(topo);
        let reduce = formulas::binomial_reduce_time(g, n_bytes, c);
        let leaders = self.leader_formula(nodes, n_bytes, c);
        let bcast = formulas::binomial_broadcast_time(g, n_bytes, c);
        let parts = [&reduce, &leaders, &bcast];
        let total = |f: fn(&Formula) -> f64| parts.iter().map(|x| f(x)).sum::<f64>();
        let time = total(|f| f.time);
        Formula {
            name: self.descriptor().label.to_string(),
            expression: format!(
                "⌈log₂g⌉(α + nβ + nγ) + T_{}(N) + ⌈log₂g⌉(α + nβ)",
                match self.leaders {
                    LeaderAlgorithm::Ring => "ring",
                    LeaderAlgorithm::RecursiveDoubling => "rd",
                }
            ),
            startups: total(|f| f.startups),
            byte_factor: total(|f| f.byte_factor),
            gamma_factor: total(|f| f.gamma_factor),
            time,
            alpha_part: total(|f| f.alpha_part),
            beta_part: total(|f| f.beta_part),
            gamma_part: total(|f| f.gamma_part),
            label: format!(
                "N = {nodes} nodes, ⌈log₂g⌉ = {} levels; leaders: {}",
                depth(topo),
                leaders.label
            ),
            pow2_adapted: leaders.pow2_adapted,
            substituted: vec![
                format!(
                    "N = {nodes} nodes, largest node g = {} ranks (⌈log₂g⌉ = {} levels)",
                    topo.node_sizes().into_iter().max().unwrap_or(0),
                    depth(topo)
                ),
                "T = T_reduce inside nodes + T_leaders + T_broadcast inside nodes".into(),
                format!(
                    "  = {} + {} + {}",
                    format_time(reduce.time),
                    format_time(leaders.time),
                    format_time(bcast.time)
                ),
                format!("  = {}", format_time(time)),
            ],
        }
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let f = self.closed_form(topo, 1.0, CostParams::new(0.0, 0.0));
        [f.startups, f.byte_factor, f.gamma_factor]
    }
    fn flat_rounds(&self, _p: usize) -> Rounds {
        // Follows nodes: no critical path from p alone.
        Vec::new()
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        match self.leaders {
            LeaderAlgorithm::Ring => topo.nodes(),
            LeaderAlgorithm::RecursiveDoubling => 1,
        }
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        Some(match self.leaders {
            LeaderAlgorithm::Ring => TopologyInfo {
                key: "hier",
                label: "hierarchical all-reduce (ring among node leaders)",
                short_label: "hierarchical (ring among leaders)",
                summary: "reduce inside each node to its leader, ring all-reduce among the node leaders, broadcast inside the node",
                min_racks: 1,
            },
            LeaderAlgorithm::RecursiveDoubling => TopologyInfo {
                key: "hier_rd",
                label: "hierarchical all-reduce (recursive doubling among node leaders)",
                short_label: "hierarchical (recursive doubling among leaders)",
                summary: "reduce inside each node to its leader, recursive-doubling all-reduce among the node leaders, broadcast inside the node",
                min_racks: 1,
            },
        })
    }
    fn topology_schedule(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        self.generate(topo, n, elem)
    }
    fn topology_time(&self, topo: &Topology, n: u64, elem: u64, split: Split) -> Option<f64> {
        match self.leaders {
            LeaderAlgorithm::Ring => flat_topo::hier_topo_time(topo, n, elem, split),
            LeaderAlgorithm::RecursiveDoubling => flat_topo::hier_rd_topo_time(topo, n, elem, split),
        }
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        match round.phase {
            Phase::NodeReduce => "inside every node at once, partial sums (whole tensors) move one level down \
                 a binomial tree towards the node's leader (local rank 0) and are added"
                .into(),
            Phase::LeaderReduceScatter => {
                "each node leader sends one chunk to the next leader, which adds it to its own copy".into()
            }
            Phase::LeaderAllGather => {
                "each node leader passes a finished chunk to the next leader, which copies it (no addition)"
                    .into()
            }
            Phase::LeaderExchange => {
                "partner leaders swap their whole buffers and each adds what it receives".into()
            }
            Phase::NodeBroadcast => {
                "inside every node at once, the finished sum is copied one level further from the leader (no addition)"
                    .into()
            }
            _ => fold_text(round).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{nodes_of, summarize_on, times_agree, Algorithm};
    use super::*;
    use crate::core::execute::{default_init, execute, ExecOptions};
    use crate::core::timing::executed_time;

    #[test]
    fn closed_form_equals_executed_time_for_nodes_and_gpus_up_to_8() {
        // 840 elements divide by every N in 1..=8, so the leaders' ring
        // chunks are equal.
        let c = CostParams::new(3e-6, 0.1e-9);
        for alg in [HIER_RING, HIER_RD] {
            for nodes in 1..=8 {
                for gpus in 1..=8 {
                    if nodes * gpus < 2 {
                        continue;
                    }
                    let topo = nodes_of(nodes, gpus).expect("valid");
                    let s = alg.generate(&topo, 840, 4).expect("valid");
                    let t = execute(&s, &default_init, ExecOptions { keep_states: false })
                        .expect("runs");
                    assert!(
                        t.verification.ok(),
                        "{} N={nodes} g={gpus}",
                        alg.descriptor().key
                    );
                    let exec = executed_time(&s, c.alpha, c.beta);
                    let closed = alg.closed_form(&topo, 3360.0, c).time;
                    assert!(
                        times_agree(exec, closed),
                        "{} N={nodes} g={gpus}: {exec} vs {closed}",
                        alg.descriptor().key
                    );
                }
            }
        }
    }

    #[test]
    fn two_nodes_of_four_by_hand() {
        // N = 2, g = 4, n = 1000 B, α = 1 s, β = 1 ms/B: reduce 2 rounds of
        // 1 + 1 = 2 s; leaders' ring 2 rounds of 1 + 500 × 0.001 = 1.5 s;
        // broadcast 2 rounds of 2 s: 4 + 3 + 4 = 11 s.
        let topo = nodes_of(2, 4).expect("valid");
        let c = CostParams::new(1.0, 1e-3);
        let row = summarize_on(Algorithm::HIER, &topo, 1000, 1, c).expect("valid");
        assert_eq!(row.rounds, 6);
        assert!((row.executed_time - 11.0).abs() < 1e-12);
        assert!((row.closed_form.time - 11.0).abs() < 1e-12);
        assert!(row.verified);
        // Leaders 0 and 4 send 2 × 500 B to each other and 2 × 1000 B in the
        // broadcast (0 → 2, 0 → 1): 3000 B, the most of any rank.
        assert_eq!(row.max_sent_bytes, 3000);
        let s = HIER_RING.generate(&topo, 1000, 1).expect("valid");
        let pairs = s.rounds[0].pairs();
        assert_eq!(pairs, vec![(1, 0), (3, 2), (5, 4), (7, 6)]);
        let pairs = s.rounds[2].pairs();
        assert_eq!(pairs, vec![(0, 4), (4, 0)]);
        let phases: Vec<_> = s.rounds.iter().map(|r| r.phase.label()).collect();
        assert_eq!(
            phases,
            [
                "reduce inside each node",
                "reduce inside each node",
                "reduce-scatter among node leaders",
                "all-gather among node leaders",
                "broadcast inside each node",
                "broadcast inside each node"
            ]
        );
    }

    #[test]
    fn unequal_nodes_verify_and_flat_is_the_ring() {
        let link = crate::core::topology::Link::new(0.0, 1.0);
        let topo = Topology::unequal(vec![3, 1, 2], 1, 1, link, link, 1.0).expect("valid");
        for alg in [HIER_RING, HIER_RD] {
            let s = alg.generate(&topo, 12, 4).expect("valid");
            let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
            assert!(t.verification.ok());
        }
        // On the flat topology every rank is a node: just the ring.
        let flat = Topology::flat(5, 0.0, 0.0);
        let s = HIER_RING.generate(&flat, 10, 4).expect("valid");
        assert_eq!(s.num_rounds(), 8);
        assert_eq!(HIER_RING.factors(&flat), Algorithm::RING.factors(5));
    }
}
