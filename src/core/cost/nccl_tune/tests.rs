use super::*;

fn a100_node(v: Version) -> Tuning {
    // 8 × A100 on one NVSwitch node: ring and tree graphs of 12 channels of
    // 20 GB/s, NVL/PIX, balanced tree, 24 coll channels (the p4d log's
    // GRAPH lines), compute capability 8.0.
    tune(&Inputs::nvlink_node(v, 8, 12, 20.0, 80)).expect("valid inputs")
}

fn close(got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol, "{got} vs {want}");
}

#[test]
fn ring_at_p8_on_one_node_one_size_per_protocol_by_hand() {
    // Constants (v2.19.3 tuning.cc:56-106, v2.30.7 :150-204): Ring base
    // latency LL 6.6, LL128 14.0, Simple 8.4 µs; NVLink hardware latency
    // LL 0.6, LL128 1.9, Simple 3.4 µs; Ampere one-node llMaxBw 87.7 GB/s;
    // perChMaxRingLL128Bw 20 GB/s. nsteps = 2(8 − 1) = 14, ratio 8/14;
    // busBw = 12 channels × 20 GB/s = 240 GB/s.
    //
    // Latencies: LL 6.6 + 14 × 0.6 = 15.0 µs; LL128 14.0 + 14 × 1.9 =
    // 40.6 µs; Simple 8.4 + 14 × 3.4 = 56.0 µs.
    // Bandwidths: LL (v2.19) min(87.7, 240/4 = 60) × 8/14 = 34.2857 GB/s,
    // (v2.30) min(87.7, 240/2 = 120) × 8/14 = 50.1143; LL128 min(240 ×
    // 0.92 = 220.8, 12 × 20 = 240) × 8/14 = 126.1714; Simple 240 × 8/14 =
    // 137.1429 GB/s.
    //
    // 64 KiB: Ring/LL 15.0 + 65536/34285.7 = 16.911 µs (v2.19), 15.0 +
    //   65536/50114.3 = 16.308 µs (v2.30); Ring/LL128 41.119, Ring/Simple
    //   56.478, Tree/LL 18.960: LL wins.
    // 16 MiB: Ring/LL128 40.6 + 16777216/126171.4 = 173.572 µs; Ring/Simple
    //   56.0 + 122.334 = 178.334; Ring/LL 504.3 (v2.19): LL128 wins.
    // 256 MiB: Ring/Simple 56.0 + 268435456/137142.9 = 2013.342 µs;
    //   Ring/LL128 40.6 + 2127.546 = 2168.146: Simple wins.
    for (v, ll) in [(Version::V2_19, 16.911), (Version::V2_30, 16.308)] {
        let t = a100_node(v);
        let ring = |p, n| t.time(Func::AllReduce, Algo::Ring, p, n).expect("on");
        close(ring(Proto::LL, 65_536), ll, 0.001);
        close(ring(Proto::LL128, 65_536), 41.119, 0.001);
        close(ring(Proto::Simple, 65_536), 56.478, 0.001);
        close(ring(Proto::LL128, 16 << 20), 173.572, 0.001);
        close(ring(Proto::Simple, 16 << 20), 178.334, 0.001);
        close(ring(Proto::Simple, 256 << 20), 2013.342, 0.001);
        close(ring(Proto::LL128, 256 << 20), 2168.146, 0.001);
        let pick = |n| {
            let p = t.pick(Func::AllReduce, n).expect("a pick");
            (p.algo, p.proto)
        };
        assert_eq!(pick(65_536), (Algo::Ring, Proto::LL), "{v:?}");
        assert_eq!(pick(16 << 20), (Algo::Ring, Proto::LL128), "{v:?}");
        assert_eq!(pick(256 << 20), (Algo::Ring, Proto::Simple), "{v:?}");
        close(
            t.time(Func::AllReduce, Algo::Tree, Proto::LL, 65_536)
                .expect("on"),
            18.960,
            0.001,
        );
    }
}

#[test]
fn the_switches_are_where_the_lines_cross() {
    // LL → LL128 where 15.0 + n/(1000·bw_LL) = 40.6 + n/(1000·bw_LL128):
    // n = 25 600 / (1/bw_LL − 1/bw_LL128) = 1 205 220 B (v2.19) and
    // 2 128 249 B (v2.30); LL128 → Simple at 15 400 / (1/126.1714 −
    // 1/137.1429) = 24 288 000 B (both).
    for (v, first) in [(Version::V2_19, 1_205_220.0), (Version::V2_30, 2_128_249.0)] {
        let t = a100_node(v);
        let s = t.switches(Func::AllReduce, 1, 1 << 30);
        let keys: Vec<(Algo, Proto)> = s.iter().map(|(_, p)| (p.algo, p.proto)).collect();
        assert_eq!(
            keys,
            vec![(Algo::Ring, Proto::LL128), (Algo::Ring, Proto::Simple)],
            "{v:?}"
        );
        close(s[0].0 as f64, first, first * 1e-4);
        close(s[1].0 as f64, 24_288_000.0, 24_288_000.0 * 1e-4);
        let why = switch_reason(
            &t,
            Func::AllReduce,
            t.pick(Func::AllReduce, s[0].0 - 1).expect("pick"),
            s[0].1,
            s[0].0,
        );
        assert!(why.starts_with("LL's half-width lines"), "{why}");
    }
}

#[test]
fn the_tables_differ_where_the_versions_do() {
    // Tree/Simple latency: v2.19 0 + 2 × 7 × 28 = 392 µs; v2.30 8.4 + 2 ×
    // 7 × 4.0 = 64.4 µs. Tree bandwidths are the same: Simple 240 × 0.92 ×
    // 0.5 = 110.4, LL 220.8/3.8 × 0.5 = 29.0526, LL128 220.8 × 7/9 × 0.5 =
    // 85.8667 GB/s; Tree/LL latency 6.8 + 2 × 7 × 0.6 = 15.2 µs.
    let c = |v, a: Algo, p: Proto| a100_node(v).cells[4][a as usize][p as usize];
    close(
        f64::from(c(Version::V2_19, Algo::Tree, Proto::Simple).lat),
        392.0,
        1e-4,
    );
    close(
        f64::from(c(Version::V2_30, Algo::Tree, Proto::Simple).lat),
        64.4,
        1e-4,
    );
    for v in Version::ALL {
        close(f64::from(c(v, Algo::Tree, Proto::Simple).bw), 110.4, 1e-4);
        close(f64::from(c(v, Algo::Tree, Proto::LL).bw), 29.0526, 1e-4);
        close(f64::from(c(v, Algo::Tree, Proto::LL128).bw), 85.8667, 1e-4);
        close(f64::from(c(v, Algo::Tree, Proto::LL).lat), 15.2, 1e-4);
    }
    assert_eq!(
        a100_node(Version::V2_30).max_threads,
        [[512, 640, 512], [512, 640, 512]]
    );
}

#[test]
fn nccl_proto_turns_cells_off_and_v2_30_refuses_unknown_tokens() {
    let mut i = Inputs::nvlink_node(Version::V2_30, 8, 12, 20.0, 80);
    i.proto_env = Some("LL128".into());
    let t = tune(&i).expect("valid");
    // Only LL128: Ring/LL128 at every size.
    for n in [8, 65_536, 1 << 30] {
        let p = t.pick(Func::AllReduce, n).expect("a pick");
        assert_eq!(p.proto, Proto::LL128, "{n}");
    }
    assert_eq!(
        t.notes,
        vec!["NCCL_PROTO set by environment to LL128".to_string()]
    );
    i.proto_env = Some("^LL128,Simple".into());
    let t = tune(&i).expect("valid");
    assert!(t.time(Func::AllReduce, Algo::Ring, Proto::LL, 8).is_some());
    assert!(t
        .time(Func::AllReduce, Algo::Ring, Proto::Simple, 8)
        .is_none());
    i.proto_env = Some("AllReduce:Simple;Broadcast:LL".into());
    let t = tune(&i).expect("valid");
    assert_eq!(
        t.pick(Func::AllReduce, 8).map(|p| p.proto),
        Some(Proto::Simple)
    );
    assert_eq!(
        t.pick(Func::Broadcast, 1 << 30).map(|p| p.proto),
        Some(Proto::LL)
    );
    i.proto_env = Some("LL256".into());
    assert!(tune(&i).expect_err("refused").contains("LL256"));
    // v2.19 ignores the unknown token: nothing enabled, so Ring's backup.
    i.version = Version::V2_19;
    let t = tune(&i).expect("v2.19 ignores it");
    let p = t.pick(Func::AllReduce, 8).expect("backup");
    assert!(p.backup && p.algo == Algo::Ring);
    // NCCL_ALGO=Tree: only Tree.
    i.proto_env = None;
    i.algo_env = Some("Tree".into());
    let t = tune(&i).expect("valid");
    assert_eq!(
        t.pick(Func::AllReduce, 1 << 30).map(|p| p.algo),
        Some(Algo::Tree)
    );
}

#[test]
fn ll128_follows_the_path_and_architecture_rule() {
    let mut i = Inputs::nvlink_node(Version::V2_19, 8, 12, 20.0, 86);
    // v2.19: only compute capabilities 7.0, 8.0 and 9.0.
    assert!(tune(&i)
        .expect("valid")
        .time(Func::AllReduce, Algo::Ring, Proto::LL128, 8)
        .is_none());
    i.version = Version::V2_30;
    assert!(tune(&i)
        .expect("valid")
        .time(Func::AllReduce, Algo::Ring, Proto::LL128, 8)
        .is_some());
    // A PCI path inside the node (PHB > NVB) turns it off.
    i.ring.type_intra = Path::Phb;
    assert!(tune(&i)
        .expect("valid")
        .time(Func::AllReduce, Algo::Ring, Proto::LL128, 8)
        .is_none());
}

#[test]
fn two_nodes_of_one_gpu_as_the_rtx_5090_log_prints() {
    // NCCL 2.29.7 (v2.30 rules), 2 ranks, 2 nodes, compute capability 12.0,
    // sockets (GPU→NIC beyond PXN: LL128 off). Graphs inferred from the
    // log's own numbers (it has no GRAPH lines): ring 2 channels of 1.2 GB/s,
    // tree 2 × 2.4 GB/s, tree pattern 3 (one GPU per node).
    let g = Graph {
        channels: 2,
        bw_intra: 1.2,
        bw_inter: 1.2,
        type_intra: Path::Loc,
        type_inter: Path::Sys,
        same_channels: true,
        pattern: 4,
    };
    let i = Inputs {
        version: Version::V2_30,
        ranks: 2,
        nodes: 2,
        cc: 120,
        cpu: Cpu::Intel,
        ring: g,
        tree: Graph {
            bw_intra: 2.4,
            bw_inter: 2.4,
            pattern: 3,
            ..g
        },
        coll_channels: 4,
        latency_inter: 0.0,
        proto_env: None,
        algo_env: None,
    };
    let t = tune(&i).expect("valid");
    // AllReduce row of the log: 16.8/0.5 31.0/0.0 36.4/1.9 | 16.6/1.2
    // 31.0/0.0 36.4/2.4. By hand: Ring/LL 6.6 + 2 × 5.0 (Tree's network
    // latency: one GPU per node) = 16.6; Tree/Simple bw 4.8 × 0.92 × 0.85 ×
    // 0.5 = 1.877; Tree/LL 4.416/3.8 × 0.85 × 0.5 = 0.494.
    let want = [
        [(16.8, 0.5), (31.0, 0.0), (36.4, 1.9)],
        [(16.6, 1.2), (31.0, 0.0), (36.4, 2.4)],
    ];
    for (cells, wants) in t.cells[4].iter().zip(&want) {
        for (c, &(lat, bw)) in cells.iter().zip(wants) {
            close(f64::from(c.lat), lat, 0.05);
            close(f64::from(c.bw), bw, 0.05);
        }
    }
    // Broadcast: 9.3/1.2 18.0/0.0 22.4/2.4 (sameChannels: one NET hop).
    let b = t.cells[0][1];
    close(f64::from(b[0].lat), 9.3, 0.05);
    close(f64::from(b[2].lat), 22.4, 0.05);
    close(f64::from(b[2].bw), 2.4, 0.05);
    assert_eq!(t.max_threads[1][2], 256, "2.4 GB/s ≤ PCI_BW");
    // Broadcast picks: LL up to 16 KiB, Simple from 32 KiB (switch where
    // 9.3 + n/1200 = 22.4 + n/2400: n = 31 440 B).
    let s = t.switches(Func::Broadcast, 1024, 1 << 27);
    assert_eq!(s.len(), 1);
    close(s[0].0 as f64, 31_440.0, 2.0);
}

#[test]
fn three_h100_nodes_per_call_times_follow_the_2_19_rules() {
    // NVIDIA/nccl issue #1453 (NCCL 2.22, inferred): 24 ranks on 3 nodes,
    // graphs 8 channels of 24 GB/s between nodes, tree pattern 3, 16 coll
    // channels, Intel CPU. Tree/LL: lat 6.8 + 2 × (7 × 0.6 + 1 × 5.0) = 25.2,
    // bw min(192 × 0.92/3.8, 20.4) × 0.85 × 0.5 = 8.67; Ring/Simple lat
    // (8.4 + 40 × 3.4 + 6 × 14) × 1.4 = 319.76, bw 192 × 24/46 = 100.174.
    let g = Graph {
        channels: 8,
        bw_intra: 24.0,
        bw_inter: 24.0,
        type_intra: Path::Nvl,
        type_inter: Path::Pxn,
        same_channels: false,
        pattern: 4,
    };
    let i = Inputs {
        version: Version::V2_19,
        ranks: 24,
        nodes: 3,
        cc: 90,
        cpu: Cpu::Intel,
        ring: g,
        tree: Graph { pattern: 3, ..g },
        coll_channels: 16,
        latency_inter: 0.0,
        proto_env: None,
        algo_env: None,
    };
    let t = tune(&i).expect("valid");
    // (bytes, algo id, proto id, logged time µs)
    let logged = [
        (8u64, 0, 0, 25.200924),
        (128, 0, 0, 25.214764),
        (256, 0, 0, 25.229528),
        (512, 0, 0, 25.259054),
        (2048, 0, 0, 25.495272),
        (65536, 0, 0, 37.798233),
        (131_072, 0, 1, 51.603912),
        (262_144, 0, 1, 54.707825),
        (536_870_912, 1, 2, 5679.147949),
        (1_073_741_824, 1, 2, 11038.536133),
        (8_589_934_592, 1, 2, 86069.968750),
    ];
    for (n, a, p, time) in logged {
        let pick = t.pick(Func::AllReduce, n).expect("a pick");
        assert_eq!((pick.algo as usize, pick.proto as usize), (a, p), "{n} B");
        close(pick.time, time, 0.1);
    }
}
