use proptest::prelude::*;

use super::*;
use crate::core::collectives::{generate, Algorithm};
use crate::core::cost::CostParams;
use crate::core::schedule::Op;
use crate::core::schedule::{Computation, Round, Transfer};
use crate::core::timing::executed_time_with;
use crate::core::timing::lockstep::{executed_time_on, round_times};
use crate::core::topology::Link;

/// 2 nodes × 2 ranks, one NIC each; intra 1 s + 100 B/s, NIC 10 s + 10 B/s.
fn two_nodes(lanes: usize) -> Topology {
    Topology::unequal(
        vec![2; 2],
        1,
        lanes,
        Link::new(1.0, 100.0),
        Link::new(10.0, 10.0),
        0.0,
    )
    .expect("valid")
}

fn one_round(p: usize, transfers: Vec<(usize, usize, u64)>) -> Schedule {
    Schedule {
        p,
        n: 1000,
        elem_bytes: 1,
        collective: Computation::AllReduce,
        rounds: vec![Round {
            phase: crate::core::schedule::Phase::Exchange,
            note: String::new(),
            transfers: transfers
                .into_iter()
                .map(|(src, dst, len)| Transfer {
                    src,
                    dst,
                    range: 0..len,
                    op: Op::Copy,
                    chunk: None,
                })
                .collect(),
        }],
    }
}

#[test]
fn two_transfers_through_one_nic_take_twice_as_long() {
    let mut t = two_nodes(1);
    if let Topology::Hierarchical(h) = &mut t {
        h.inter.alpha = 0.0;
    }
    // Ranks 0 and 1 (node 0) both send 100 B to node 1 through NIC 0.
    let one = one_round(4, vec![(0, 2, 100)]);
    let two = one_round(4, vec![(0, 2, 100), (1, 3, 100)]);
    let t1 = executed_time_on(&one, &t, 0.0);
    let t2 = executed_time_on(&two, &t, 0.0);
    assert_eq!(t1, 10.0); // 100 B / 10 B/s
    assert_eq!(t2, 20.0); // 200 B share the NIC
                          // With a NIC per rank (lanes = 2) they no longer share.
    let mut t = two_nodes(2);
    if let Topology::Hierarchical(h) = &mut t {
        h.inter.alpha = 0.0;
    }
    assert_eq!(executed_time_on(&two, &t, 0.0), 10.0);
}

#[test]
fn resources_add_up_per_direction_and_zero_bytes_pay_alpha() {
    let t = two_nodes(1);
    // Full duplex: 0 → 2 and 2 → 0 use NIC out and NIC in separately.
    let s = one_round(4, vec![(0, 2, 100), (2, 0, 100)]);
    assert_eq!(round_times(&s, &t, 0.0), vec![10.0 + 10.0]);
    // Intra: separate ports do not share; two messages out of rank 0 share its egress port.
    let s = one_round(4, vec![(0, 1, 100), (2, 3, 100)]);
    assert_eq!(round_times(&s, &t, 0.0), vec![1.0 + 1.0]);
    let s = one_round(4, vec![(0, 1, 100), (0, 1, 100)]);
    assert_eq!(round_times(&s, &t, 0.0), vec![1.0 + 2.0]);
    // An empty message still pays α of its class; the slowest class wins.
    let s = one_round(4, vec![(0, 1, 0), (1, 2, 0)]);
    assert_eq!(round_times(&s, &t, 0.0), vec![10.0]);
    // γ adds per reduced byte.
    let mut s = one_round(4, vec![(0, 1, 100)]);
    s.rounds[0].transfers[0].op = Op::Reduce;
    assert_eq!(round_times(&s, &t, 0.01), vec![1.0 + 1.0 + 1.0]);
}

#[test]
fn core_is_shared_per_rack_direction() {
    // 2 racks of one node of 2 ranks; NIC 10 B/s, core 5 B/s.
    let t = Topology::unequal(
        vec![2; 2],
        2,
        2,
        Link::new(0.0, 100.0),
        Link::new(0.0, 10.0),
        5.0,
    )
    .expect("valid");
    let s = one_round(4, vec![(0, 2, 50), (1, 3, 50)]);
    // Each NIC carries 50 B (5 s); the rack-0 uplink carries 100 B at 5 B/s: 20 s.
    assert_eq!(round_times(&s, &t, 0.0), vec![20.0]);
    let tr = round_traffic(&s, &t);
    assert_eq!(tr[0].core_out, vec![100, 0]);
    assert_eq!(tr[0].core_in, vec![0, 100]);
    assert_eq!(tr[0].nic_out[0], vec![50, 50]);
    assert_eq!(tr[0].by_class.core, 100);
    assert_eq!(tr[0].core_messages, 2);
    assert_eq!(
        transfer_classes(&s, &t),
        vec![vec![LinkClass::Core, LinkClass::Core]]
    );
}

fn algorithms() -> impl Strategy<Value = Algorithm> {
    proptest::sample::select(Algorithm::all().collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On a flat topology the topology timing is today's executed time, bit for bit.
    #[test]
    fn flat_topology_is_todays_executed_time(
        alg in algorithms(),
        p in 2usize..=64,
        n in 1u64..5000,
        eb in 1u64..9,
        alpha in 0.0f64..1e-3,
        beta in 0.0f64..1e-8,
        gamma in prop_oneof![Just(0.0f64), 0.0f64..1e-9],
    ) {
        let s = generate(alg, p, n, eb).expect("valid");
        let topo = Topology::flat(p, alpha, beta);
        let c = CostParams { alpha, beta, gamma };
        prop_assert_eq!(executed_time_on(&s, &topo, gamma), executed_time_with(&s, c));
        prop_assert_eq!(
            round_times(&s, &topo, gamma),
            crate::core::timing::executed_round_times(&s, c)
        );
    }

    /// Every byte a rank sends is counted on exactly one link class, and
    /// inter-node bytes once on a NIC out and once on a NIC in.
    #[test]
    fn bytes_per_link_add_up_to_bytes_per_rank(
        alg in algorithms(),
        nodes in 1usize..=6,
        gpus in 1usize..=6,
        lanes in 1usize..=6,
        n in 1u64..500,
    ) {
        prop_assume!(nodes * gpus >= 2);
        let racks = if nodes % 2 == 0 { 2 } else { 1 };
        let topo = Topology::unequal(vec![gpus; nodes], racks, lanes, Link::new(1e-6, 1e11), Link::new(5e-6, 1e10), 2e10)
            .expect("valid");
        let s = generate(alg, nodes * gpus, n, 4).expect("valid");
        let per = round_traffic(&s, &topo);
        let sent = s.bytes_sent_per_rank();
        let total: u64 = sent.iter().sum();
        let cum = cumulative_traffic(&per, &topo);
        let all = cum.last().cloned().unwrap_or_else(|| Traffic::zero(&topo));
        prop_assert_eq!(all.by_class.total(), total);
        prop_assert_eq!(&all.sent, &sent);
        prop_assert_eq!(all.recv.iter().sum::<u64>(), total);
        let inter = all.by_class.nic + all.by_class.core;
        prop_assert_eq!(all.nic_out.iter().flatten().sum::<u64>(), inter);
        prop_assert_eq!(all.nic_in.iter().flatten().sum::<u64>(), inter);
        prop_assert_eq!(all.core_total(), all.by_class.core);
        for r in &per {
            prop_assert_eq!(r.by_class.total(), r.sent.iter().sum::<u64>());
        }
    }
}

#[test]
fn busiest_resource_is_the_nic_out_of_the_sending_node() {
    // two_nodes(1): intra-node 100 B/s, NIC 10 B/s. Rank 0 sends 100 B to
    // rank 2 (node 1, through NIC 0 out of node 0 and NIC 0 into node 1:
    // 100 B / 10 B/s = 10 s on each) and 100 B to rank 1 (inside node 0:
    // 100 B / 100 B/s = 1 s on its port). The two NIC directions tie at
    // 100 B and 10 s; the first in `Resource`'s order wins: NIC out.
    let s = one_round(4, vec![(0, 2, 100), (0, 1, 100)]);
    let (r, bytes, time) = busiest_resource(&s, &two_nodes(1)).expect("nodes share resources");
    assert_eq!(r, Resource::NicOut { node: 0, lane: 0 });
    assert_eq!(bytes, 100);
    assert_eq!(time, 10.0);
    assert!(busiest_resource(&s, &Topology::flat(4, 0.0, 1.0)).is_none());
}
