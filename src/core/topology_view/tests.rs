use proptest::prelude::*;

use super::*;

fn gb(x: f64) -> f64 {
    x * 1e9
}

/// Simple links for hand arithmetic: intra 1 s + 100 B/s, NIC 10 s + 10 B/s, core 5 B/s.
fn hand(nodes: usize, gpus: usize, racks: usize, lanes: usize) -> Topology {
    Topology::unequal(
        vec![gpus; nodes],
        racks,
        lanes,
        Link::new(1.0, 100.0),
        Link::new(10.0, 10.0),
        5.0,
    )
    .expect("valid")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-30)
}

#[test]
fn course_multilane_1gb_over_4_lanes() {
    let s = multilane_service_time(1e9, 4, 12.5e9).expect("valid");
    assert_eq!(s.per_lane_bytes, 250e6);
    assert!(close(s.time, 0.020));
    assert!(close(s.one_lane_time, 0.080));
    assert!(multilane_service_time(1e9, 0, 12.5e9).is_err());
    assert!(multilane_service_time(1e9, 4, 0.0).is_err());

    // The executed multi-lane all-reduce agrees: 2 nodes × 4 GPUs, 1 GB
    // (250 M f32), NIC 12.5 GB/s with α = 0. Each local rank owns a 250 MB
    // slice; the 2-node ring sends 125 MB twice over its own NIC: 250 MB per
    // lane, 2 × 10 ms = 20 ms. On one shared NIC, 4 × 125 MB per round: 80 ms.
    for (lanes, per_lane, ms) in [(4, 250e6, 20.0), (1, 1e9, 80.0), (2, 500e6, 40.0)] {
        let t = Topology::unequal(
            vec![4; 2],
            1,
            lanes,
            Link::new(0.0, gb(300.0)),
            Link::new(0.0, gb(12.5)),
            0.0,
        )
        .expect("valid");
        let r = run("multilane", &t, 250_000_000, 4).expect("runs");
        assert!(r.verified);
        let tot = r.totals(&t);
        assert_eq!(tot.nic_out[0][0] as f64, per_lane);
        assert_eq!(tot.max_nic() as f64, per_lane);
        assert!(
            close(r.inter_node_time(), ms / 1e3),
            "{lanes} lanes: {}",
            r.inter_node_time()
        );
    }
}

#[test]
fn course_flexreduce_groups_2_and_3() {
    let t = example_topology(vec![2, 3], 1, 1).expect("valid");
    let r = run("flex", &t, 12, 4).expect("runs");
    assert!(r.verified);
    let c = flex_counts(&r, &t).expect("counts");
    let reduced: Vec<u64> = c.workers.iter().map(|w| w.reduced).collect();
    let owned: Vec<u64> = c.workers.iter().map(|w| w.responsible).collect();
    let fetched: Vec<u64> = c.workers.iter().map(|w| w.fetched).collect();
    assert_eq!(reduced, vec![6, 6, 4, 4, 4]);
    assert_eq!(owned, vec![3, 3, 2, 2, 2]);
    assert_eq!(fetched, vec![3, 3, 2, 2, 2]);
    // 6 partial-sum entries cross in each direction.
    assert_eq!(c.crossing, vec![vec![0, 6], vec![6, 0]]);
    assert_sentence(&r.titles[2], "cross-subtree exchange: fetch", &[]);
    assert_eq!(
        r.titles[0],
        "reduce-scatter inside each subtree, round 1 of 2"
    );
    assert!(flex_counts(&run("flat", &t, 12, 4).expect("runs"), &t).is_err());
}

#[test]
fn flexreduce_other_groups() {
    // Groups 1 and 3, 12 entries: the lone worker holds all 12, owns the first
    // half (6); the 3-group reduces 4 each and owns 2 each; 6 cross each way.
    let t = example_topology(vec![1, 3], 1, 1).expect("valid");
    let c = flex_counts(&run("flex", &t, 12, 4).expect("runs"), &t).expect("counts");
    let v: Vec<(u64, u64)> = c
        .workers
        .iter()
        .map(|w| (w.reduced, w.responsible))
        .collect();
    assert_eq!(v, vec![(12, 6), (4, 2), (4, 2), (4, 2)]);
    assert_eq!(c.crossing, vec![vec![0, 6], vec![6, 0]]);
    // Three groups 2, 2, 4 and 24 entries: parts of 8; reduced 12/12/6,
    // responsible 4/4/2; every group sends each other group 8 entries; a
    // worker fetches its range from both other groups.
    let t = example_topology(vec![2, 2, 4], 1, 2).expect("valid");
    let r = run("flex", &t, 24, 4).expect("runs");
    assert!(r.verified);
    let c = flex_counts(&r, &t).expect("counts");
    let v: Vec<(u64, u64, u64)> = c
        .workers
        .iter()
        .map(|w| (w.reduced, w.responsible, w.fetched))
        .collect();
    assert_eq!(
        v,
        vec![
            (12, 4, 8),
            (12, 4, 8),
            (12, 4, 8),
            (12, 4, 8),
            (6, 2, 4),
            (6, 2, 4),
            (6, 2, 4),
            (6, 2, 4)
        ]
    );
    assert_eq!(
        c.crossing,
        vec![vec![0, 8, 8], vec![8, 0, 8], vec![8, 8, 0]]
    );
}

#[test]
fn course_rat_vs_flat_ring_two_racks_of_four() {
    // 2 racks × 4 workers, as 2 nodes of 4 or as 8 nodes of 1: the flat ring
    // crosses the core twice in each of its 14 rounds with n/8 (3.5 n in
    // all, 1.75 n per direction); RAT sends one aggregate n across and n
    // back (2 n, n per direction). n = 8 MB here.
    let n_bytes = 8_000_000u64;
    for (nodes, gpus) in [(2, 4), (8, 1)] {
        let t = example_topology(vec![gpus; nodes], 2, 1).expect("valid");
        let c = core_crossing(&t, n_bytes / 4, 4).expect("runs");
        assert_eq!(c.rat.bytes, 16_000_000);
        assert_eq!(c.rat.out, vec![8_000_000, 8_000_000]);
        assert_eq!((c.rat.messages, c.rat.rounds), (8, 2));
        assert_eq!(c.flat.bytes, 28_000_000);
        assert_eq!(c.flat.out, vec![14_000_000, 14_000_000]);
        assert_eq!((c.flat.messages, c.flat.rounds), (28, 14));
        assert!(c.reason.contains("14 rounds"));
    }
    // 4 racks of 2: RAT sends 3 aggregates to rack 0 and 3 back (6 n);
    // the flat ring crosses 4 boundaries × 14 rounds × n/8 = 7 n.
    let t = example_topology(vec![2; 4], 4, 1).expect("valid");
    let c = core_crossing(&t, 8, 1).expect("runs");
    assert_eq!((c.rat.bytes, c.flat.bytes), (48, 56));
    // One rack: nothing crosses a core (RAT then treats each node as a rack),
    // and the comparison table leaves RAT out.
    let t = example_topology(vec![4, 4], 1, 1).expect("valid");
    let c = core_crossing(&t, 8, 1).expect("runs");
    assert_eq!((c.rat.bytes, c.flat.bytes), (0, 0));
    assert!(compare(&t, 8, 1).iter().all(|r| r.alg != "rat"));
    // Racks of unequal size: RAT refuses.
    let t = example_topology(vec![1, 2], 2, 1).expect("valid");
    let e = core_crossing(&t, 8, 1);
    assert!(
        matches!(e, Err(TopoError::Schedule(ScheduleError::Shape(_)))),
        "{e:?}"
    );
}

#[test]
fn hand_derived_times_on_two_nodes_of_two() {
    // p = 4, 400 B; intra 1 s + 100 B/s, NIC 10 s + 10 B/s.
    // flat: 6 rounds × max(1 + 100/100, 10 + 100/10) = 6 × 20 = 120 s.
    let t = hand(2, 2, 1, 1);
    let r = run("flat", &t, 400, 1).expect("runs");
    assert_eq!(r.time, 120.0);
    assert_eq!(r.closed_form, Some(120.0));
    // multilane, one NIC: intra RS 1 + 200/100 = 3; two inter rounds with
    // 2 × 100 B through the NIC: 10 + 20 = 30 each; intra AG 3: 66 s.
    let r = run("multilane", &t, 400, 1).expect("runs");
    assert_eq!(r.round_times, vec![3.0, 30.0, 30.0, 3.0]);
    assert_eq!(r.closed_form, Some(66.0));
    // Two NICs: the inter rounds take 10 + 10: 46 s.
    let r = run("multilane", &hand(2, 2, 1, 2), 400, 1).expect("runs");
    assert_eq!(r.time, 46.0);
    assert_eq!(r.closed_form, Some(46.0));
    // rat on 2 racks of one node: in-rack RS 3; 2 × 200 B cross to rack 0:
    // NIC 400/10 = 40, core 400/5 = 80 → 90; back 90; AG 3: 186 s.
    let t = hand(2, 2, 2, 1);
    let r = run("rat", &t, 400, 1).expect("runs");
    assert_eq!(r.round_times, vec![3.0, 90.0, 90.0, 3.0]);
    assert_eq!(r.closed_form, Some(186.0));
    // flex on nodes 2 and 2 (= 2 groups): RS 1 + 200/100 = 3; fetch: each
    // worker receives its 100 B from one worker of the other group; 2 per
    // NIC: 10 + 200/10 = 30; return 30; AG 3: 66 s.
    let r = run("flex", &hand(2, 2, 1, 1), 400, 1).expect("runs");
    assert_eq!(r.round_times, vec![3.0, 30.0, 30.0, 3.0]);
    assert_eq!(r.closed_form, Some(66.0));
}

#[test]
fn compare_counts_startups_nic_bytes_and_the_busiest_link() {
    let t = hand(2, 2, 1, 1);
    let rows = compare(&t, 400, 1);
    let keys: Vec<&str> = rows.iter().map(|r| r.alg).collect();
    assert_eq!(keys, vec!["flat", "hier", "hier_rd", "multilane", "flex"]); // rat needs racks
    let flat = &rows[0];
    // hier: reduce 1 + 400/100 = 5; leaders' ring 2 × (10 + 200/10) = 60; broadcast 5: 70 s.
    // hier_rd: 5 + one exchange of 400 B, 10 + 40 = 50, + 5 = 60 s, the fastest.
    assert_eq!(rows[1].time, 70.0);
    assert_eq!(rows[1].closed_form, Some(70.0));
    assert_eq!(rows[2].time, 60.0);
    assert_eq!((rows[2].inter_startups, rows[2].max_nic_bytes), (1, 400));
    // Every ring round crosses the node boundary: 6 inter-node start-ups;
    // each NIC direction carries 100 B per round: 600 B.
    assert_eq!(
        (flat.inter_startups, flat.max_nic_bytes, flat.core_bytes),
        (6, 600, 0)
    );
    assert_eq!(flat.busiest_bytes, 600);
    assert!(flat.busiest_link.contains("NIC 0"));
    let ml = &rows[3];
    assert_eq!((ml.inter_startups, ml.max_nic_bytes), (2, 400));
    // algbw = 400 B / 66 s; busbw = algbw × 2 × 3/4.
    assert!(close(ml.algbw, 400.0 / 66.0));
    assert!(close(ml.busbw, 400.0 / 66.0 * 1.5));
    let s = bottleneck_sentence(&rows);
    assert_sentence(
        &s,
        "hierarchical all-reduce (recursive doubling among node leaders) is fastest (60.00 s)",
        &["flat ring over all ranks is slowest", "node 0 NIC 0"],
    );
    assert_eq!(bottleneck_sentence(&[]), "");
    assert!(matches!(
        run("nope", &t, 4, 1),
        Err(TopoError::UnknownAlgorithm(_))
    ));
}

#[test]
fn the_registry_answers_the_topology_questions() {
    // The six entries the view offered from its own list before, in the
    // same order, each found by its key (case and blanks ignored).
    let keys: Vec<_> = algorithms().iter().map(|a| a.key).collect();
    assert_eq!(
        keys,
        ["flat", "hier", "hier_rd", "multilane", "rat", "flex"]
    );
    for a in algorithms() {
        assert_eq!(
            find(&format!(" {} ", a.key.to_uppercase())).map(|f| f.key),
            Some(a.key)
        );
    }
    // Only the rack-aware all-reduce needs two racks to be compared.
    let racks: Vec<_> = algorithms().iter().map(|a| a.min_racks).collect();
    assert_eq!(racks, [1, 1, 1, 1, 2, 1]);
    // The message reads as the old hand-written one.
    assert_eq!(
        TopoError::UnknownAlgorithm("nope".into()).to_string(),
        "unknown algorithm \"nope\" (choose flat, hier, hier_rd, multilane, rat or flex)"
    );
    // One rack: the comparison leaves `rat` out; two racks list it.
    let one = hand(2, 2, 1, 1);
    let two = hand(2, 2, 2, 1);
    let listed = |t: &Topology| -> Vec<&str> { compare(t, 8, 4).iter().map(|r| r.alg).collect() };
    assert!(!listed(&one).contains(&"rat"), "{:?}", listed(&one));
    assert!(listed(&two).contains(&"rat"), "{:?}", listed(&two));
}

#[test]
fn one_nic_per_gpu_multilane_speeds_up_the_flat_ring_does_not() {
    // 2 nodes, 1 GB of f32, intra 300 GB/s + 1 µs, NIC 12.5 GB/s + 5 µs.
    let base = example_topology(vec![1, 1], 1, 1).expect("valid");
    let n = 250_000_000;
    let per_gpu = sweep_gpus(&base, n, 4, 8, true).expect("hierarchical");
    let shared = sweep_gpus(&base, n, 4, 8, false).expect("hierarchical");
    let times = |ss: &[Series], k: &str| -> Vec<f64> {
        ss.iter()
            .find(|s| s.alg == k)
            .map(|s| s.points.iter().map(|p| p.time).collect())
            .unwrap_or_default()
    };
    let ml = times(&per_gpu, "multilane");
    let flex = times(&per_gpu, "flex");
    let flat = times(&shared, "flat");
    assert_eq!(ml.len(), 8);
    for w in ml.windows(2).chain(flex.windows(2)) {
        assert!(w[1] < w[0], "{ml:?} {flex:?}");
    }
    for w in flat.windows(2) {
        assert!(w[1] >= w[0], "{flat:?}");
    }
    // 1 GPU per node: both are the 2-rank ring, 2 × (5 µs + 40 ms).
    assert!(close(ml[0], 2.0 * (5e-6 + 0.04)));
    assert!(close(flat[0], ml[0]));
    // 8 GPUs, 8 NICs: 14 × (1 µs + 125 MB / 300 GB/s) + 2 × (5 µs + 62.5 MB / 12.5 GB/s).
    assert!(close(
        ml[7],
        14.0 * (1e-6 + 125e6 / 300e9) + 2.0 * (5e-6 + 62.5e6 / 12.5e9)
    ));
    // The leader-based hierarchical all-reduce sends the whole tensor through
    // the leader's one NIC whatever the GPU count: 80 ms at 1 GPU, then the
    // binomial intra-node levels add 2⌈log₂g⌉ × 3.33 ms (100 ms at 8 GPUs),
    // still below the flat ring's 30 × 5 ms = 150 ms at 16 ranks.
    let hier = times(&per_gpu, "hier");
    assert!(close(hier[0], 2.0 * (5e-6 + 0.04)));
    assert!(close(
        hier[7],
        6.0 * (1e-6 + 1e9 / 300e9) + 2.0 * (5e-6 + 0.04)
    ));
    assert!(close(flat[7], 30.0 * (5e-6 + 62.5e6 / 12.5e9)));
    assert!(hier[7] < flat[7] && ml[7] < hier[7]);
    assert!(sweep_gpus(&Topology::flat(4, 0.0, 1e-9), n, 4, 8, true).is_err());
    let sizes = sweep_sizes(&base, &[4, 4000, 4_000_000], 4).expect("valid");
    assert!(sizes
        .iter()
        .all(|s| s.points.windows(2).all(|w| w[1].time > w[0].time)));
}

fn shapes() -> impl Strategy<Value = (Vec<usize>, usize, usize)> {
    (1usize..=8, 1usize..=8, 1usize..=8, 0usize..4).prop_filter_map(
        "p ≥ 2",
        |(nodes, gpus, lanes, rk)| {
            let racks = [1, 2, 4, nodes][rk];
            let racks = if racks >= 1 && nodes % racks == 0 {
                racks
            } else {
                1
            };
            (nodes * gpus >= 2).then_some((vec![gpus; nodes], racks, lanes.min(gpus)))
        },
    )
}

fn unequal() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(1usize..=8, 1..=8)
        .prop_filter("p ≥ 2", |v| v.iter().sum::<usize>() >= 2)
}

fn links() -> impl Strategy<Value = (Link, Link, f64)> {
    (
        0.0f64..1e-5,
        1e9f64..1e12,
        0.0f64..1e-4,
        1e8f64..1e11,
        1e8f64..1e11,
    )
        .prop_map(|(ai, bi, ae, be, core)| (Link::new(ai, bi), Link::new(ae, be), core))
}

fn check(r: &TopoRun, topo: &Topology) -> Result<(), TestCaseError> {
    prop_assert!(r.verified, "{} not verified", r.alg);
    let tot = r.totals(topo);
    let sent = r.schedule().bytes_sent_per_rank();
    prop_assert_eq!(tot.by_class.total(), sent.iter().sum::<u64>());
    prop_assert_eq!(&tot.sent, &sent);
    if let Some(lb) = r.lower_bound {
        prop_assert!(
            r.time >= lb * (1.0 - 1e-9),
            "{}: {} < lower bound {}",
            r.alg,
            r.time,
            lb
        );
    }
    if let Some(cf) = r.closed_form {
        prop_assert!(cf >= r.lower_bound.unwrap_or(0.0) * (1.0 - 1e-9));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// 1–8 nodes × 1–8 ranks per node: verified, bytes per link add up to
    /// bytes per rank, executed ≥ lower bound; with n a multiple of p the
    /// closed form is the executed time.
    #[test]
    fn every_topology_algorithm_on_equal_nodes(
        (sizes, racks, lanes) in shapes(),
        (intra, inter, core) in links(),
        n in 1u64..3000,
        eb in prop_oneof![Just(1u64), Just(4u64)],
    ) {
        let topo = Topology::unequal(sizes, racks, lanes, intra, inter, core).expect("valid");
        let p = topo.p() as u64;
        for a in algorithms() {
            for n in [n, (n / p).max(1) * p] {
                match run_opts(a.key, &topo, n, eb, false) {
                    Ok(r) => {
                        check(&r, &topo)?;
                        if n % p == 0 {
                            let cf = r.closed_form;
                            prop_assert!(cf.is_some() || a.key == "hier_rd", "{} has no closed form", a.key);
                            if let Some(cf) = cf {
                                prop_assert!(close(cf, r.time), "{}: closed {} vs executed {}", a.key, cf, r.time);
                            }
                        }
                    }
                    Err(e) => prop_assert!(false, "{}: {}", a.key, e),
                }
            }
        }
    }

    /// Unequal nodes (FlexReduce's groups): every algorithm that accepts
    /// them verifies and respects its lower bound; multi-lane and RAT (whose
    /// groups are then the nodes) refuse unequal sizes.
    #[test]
    fn every_topology_algorithm_on_unequal_nodes(
        sizes in unequal(),
        lanes in 1usize..=4,
        (intra, inter, core) in links(),
        n in 1u64..3000,
    ) {
        let topo = Topology::unequal(sizes.clone(), 1, lanes, intra, inter, core).expect("valid");
        let equal = sizes.windows(2).all(|w| w[0] == w[1]);
        for a in algorithms() {
            match run_opts(a.key, &topo, n, 4, false) {
                Ok(r) => check(&r, &topo)?,
                Err(TopoError::Schedule(ScheduleError::Shape(_))) => {
                    prop_assert!(!equal && (a.key == "multilane" || a.key == "rat"), "{}", a.key);
                }
                Err(e) => prop_assert!(false, "{}: {}", a.key, e),
            }
        }
    }
}

#[test]
fn busbw_above_the_nic_speed_on_two_nodes() {
    // 2 nodes × 8 GPUs, one 12.5 GB/s NIC each, 1 GB, α = 0, intra 300 GB/s.
    // Intra: 14 rounds × 125 MB / 300 GB/s; inter: 2 rounds × 8 × 62.5 MB
    // through the NIC = 2 × 40 ms. algbw ≈ 11.65 GB/s, busbw = × 2 × 15/16 ≈ 21.84 GB/s.
    let t = Topology::unequal(
        vec![8; 2],
        1,
        1,
        Link::new(0.0, gb(300.0)),
        Link::new(0.0, gb(12.5)),
        0.0,
    )
    .expect("valid");
    let r = run("multilane", &t, 250_000_000, 4).expect("runs");
    let time = 14.0 * 125e6 / 300e9 + 0.08;
    assert!(close(r.time, time));
    assert!(close(r.algbw, 1e9 / time));
    assert!(close(r.busbw, 1e9 / time * 30.0 / 16.0));
    assert!(r.busbw > gb(12.5));
    let note = busbw_note(&r, &t);
    assert_sentence(
        &note,
        "algbw = 1 GB / 85.83 ms = 11.65 GB/s; busbw = algbw × 2 × 15/16 = 21.84 GB/s.",
        &["above the 12.5 GB/s of one NIC", "busiest NIC carries 1 GB"],
    );
}

#[test]
fn titles_name_the_level() {
    // hier on 2 nodes × 4: 2 reduce rounds, the leaders' ring of 2 rounds, 2 broadcast rounds.
    let t = hand(2, 4, 1, 1);
    let r = run("hier", &t, 8, 1).expect("runs");
    assert_eq!(r.titles.len(), 6);
    assert_sentence(
        &r.titles[0],
        "intra-node reduce to the node leader, round 1 of 2",
        &[],
    );
    assert_eq!(
        r.titles[2],
        "inter-node all-reduce among node leaders, round 1 of 2: reduce-scatter among node leaders"
    );
    assert_eq!(
        r.titles[3],
        "inter-node all-reduce among node leaders, round 2 of 2: all-gather among node leaders"
    );
    assert!(r.titles[5].starts_with("intra-node broadcast from the node leader, round 2 of 2"));
    let r = run("multilane", &t, 8, 1).expect("runs");
    assert_eq!(r.titles[0], "intra-node reduce-scatter, round 1 of 3");
    assert_eq!(
        r.titles[3],
        "inter-node reduce-scatter of each GPU's slice, every NIC lane at once, round 1 of 1"
    );
    let r = run("rat", &hand(2, 4, 2, 1), 8, 1).expect("runs");
    assert_eq!(
        r.titles[3],
        "cross-rack exchange: each rack aggregate crosses the core to rack 0, round 1 of 1"
    );
}

/// `s` starts with `head` and contains every one of `parts`.
fn assert_sentence(s: &str, head: &str, parts: &[&str]) {
    assert!(s.starts_with(head), "{s}");
    for part in parts {
        assert!(s.contains(part), "{part} missing from: {s}");
    }
}
