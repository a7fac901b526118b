//! Protocols in the measure view, on fixture logs: NCCL's debug lines
//! against the port of its tuning model (public logs and two labelled
//! synthetic ones), and breakpoint names.

use super::analysis::{analyse, Settings};
use super::nccl_debug::{compare, read, tuner_row};
use crate::core::cost::nccl_tune::{Algo, Cpu, Func, Graph, Inputs, Path, Proto, Version};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/logs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap_or_default()
}

fn a100(p: usize) -> Inputs {
    Inputs::nvlink_node(Version::V2_30, p, 12, 20.0, 80)
}

#[test]
fn the_rtx_5090_log_table_and_every_pick_agree_with_the_port() {
    // NCCL 2.29.7 (v2.30's rules). The log has no GRAPH lines: its ring
    // graph (2 channels of 1.2 GB/s) and tree graph (2 × 2.4 GB/s, pattern
    // 3 for one GPU per node) are read off its own Ring/Simple and
    // Tree/Simple bandwidths; the socket path is beyond PXN (LL128 off).
    let text = fixture("nccl-debug-eunomia-2.29.7-rtx5090-2rank-tuning-broadcast.txt");
    let d = read(&text, &a100(2)).expect("NCCL lines");
    assert!(!d.inputs.graphs);
    let table = d.table.as_ref().expect("a table");
    // 5 functions × (3 + 3 + 3 + 3 + 3) algorithms' cells + PAT's 3.
    assert_eq!(table.cells.len(), 5 * 7 * 3);
    assert!(table.has_pat);
    assert_eq!(d.version, Some(Version::V2_30));
    assert_eq!(d.calls.len(), 18, "1 KiB … 128 MiB, each once");
    let g = Graph {
        channels: 2,
        bw_intra: 1.2,
        bw_inter: 1.2,
        type_intra: Path::Loc,
        type_inter: Path::Sys,
        same_channels: true,
        pattern: 4,
    };
    let inputs = Inputs {
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
    let c = compare(&d, &inputs).expect("compared");
    // Tree and Ring: 2 algorithms × 3 protocols × 5 functions = 30 cells,
    // every one within 0.1; 75 cells of CollNet, NVLS, NVLSTree and PAT.
    assert_eq!(c.cell_agreement(), (30, 30));
    assert_eq!(c.not_modelled_cells, 75);
    assert_eq!(c.pick_agreement(), (18, 18));
    let first_simple = c
        .picks
        .iter()
        .find(|p| p.logged.proto == Proto::Simple)
        .map(|p| p.logged.bytes);
    assert_eq!(first_simple, Some(32_768));
}

#[test]
fn issue_1453_per_call_times_and_picks_follow_the_2_19_rules() {
    // 24 H100s on 3 nodes; 2.22's per-call lines carry the predicted time.
    let text = fixture("nccl-debug-issue1453-2.22-3x8xh100-percall-times.txt");
    let d = read(&text, &a100(24)).expect("NCCL lines");
    assert_eq!(d.version, Some(Version::V2_19), "numeric ids, no function");
    assert!(d.table.is_none());
    assert_eq!(d.calls.len(), 11);
    let g = Graph {
        channels: 8,
        bw_intra: 24.0,
        bw_inter: 24.0,
        type_intra: Path::Nvl,
        type_inter: Path::Pxn,
        same_channels: false,
        pattern: 4,
    };
    let inputs = Inputs {
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
    let c = compare(&d, &inputs).expect("compared");
    assert_eq!(c.pick_agreement(), (11, 11));
    for p in &c.picks {
        let (_, _, t) = p.port.expect("a pick");
        let logged = p.logged.time.expect("2.22 prints the time");
        assert!(
            (t - logged).abs() <= 0.1,
            "{} B: {t} vs {logged}",
            p.logged.bytes
        );
    }
}

#[test]
fn issue_1595_ring_simple_time_and_the_table_header() {
    // 8 H100s on one node, NCCL_PROTO=Simple (in the issue's command line,
    // not echoed in the excerpt), ring graph 12 × 30 GB/s NVL (360 GB/s).
    let text = fixture("nccl-debug-issue1595-2.2x-8xh100-tuning-header.txt");
    let d = read(&text, &a100(8)).expect("NCCL lines");
    let mut i = Inputs::nvlink_node(Version::V2_19, 8, 12, 30.0, 90);
    i.proto_env = Some("Simple".into());
    let c = compare(&d, &i).expect("compared");
    assert_eq!(c.pick_agreement(), (1, 1));
    let (a, p, t) = c.picks[0].port.expect("a pick");
    assert_eq!((a, p), (Algo::Ring, Proto::Simple));
    // 56.0 + 805306368 / (1000 × 360 × 8/14) = 3970.684 µs (logged 3970.683594).
    assert!((t - 3970.683594).abs() < 0.1, "{t}");
    // The excerpt keeps the Max NThreads row and 3 Broadcast cells (Tree: 0.0/0.0).
    let table = d.table.as_ref().expect("a table");
    assert_eq!(table.threads.len(), 9);
    assert_eq!(c.cell_agreement(), (3, 3));
}

#[test]
fn the_p4d_log_gives_the_graph_inputs_and_its_nccl_proto() {
    let text = fixture("nccl-debug-gnosia93-2.27.3-p4d-a100-graph-proto-env.txt");
    let d = read(&text, &a100(4)).expect("NCCL lines");
    assert!(d.inputs.graphs);
    let i = &d.inputs.inputs;
    assert_eq!((i.ranks, i.nodes, i.coll_channels, i.cc), (4, 1, 24, 80));
    assert_eq!(
        (i.ring.channels, i.ring.bw_intra, i.ring.type_intra),
        (12, 20.0, Path::Nvl)
    );
    assert_eq!(i.tree.pattern, 1);
    assert_eq!(d.proto_env.as_ref().map(|e| e.1.as_str()), Some("simple"));
    let c = compare(&d, i).expect("compared");
    // Ring/Simple: 240 × 4/6 = 160 GB/s, 8.4 + 6 × 3.4 = 28.8 µs; LL off.
    let ring = c.tuning.cells[4][1];
    assert!((f64::from(ring[2].bw) - 160.0).abs() < 1e-3);
    assert!((f64::from(ring[2].lat) - 28.8).abs() < 1e-4);
    assert_eq!(ring[0].bw, 0.0);
}

#[test]
fn a_busbw_step_at_the_ll_to_ll128_switch_is_named() {
    // SYNTHETIC (tests/fixtures/logs): 8 A100s, times from NCCL v2.30's model.
    let text = fixture("nccl-synthetic-2.30-8xa100-ll-ll128-switch.txt");
    let a = analyse(&text, &Settings::default());
    let la = a.log.as_ref().expect("a log");
    assert_eq!(la.resolved.p.p, 8);
    let named: Vec<&String> = la.steps.iter().filter_map(|s| s.2.as_ref()).collect();
    assert!(
        named
            .iter()
            .any(|n| n.starts_with("protocol switch Ring/LL → Ring/LL128")),
        "{:?}",
        la.steps
    );
    let r = a.nccl.as_ref().expect("NCCL lines");
    let c = r
        .comparison
        .as_ref()
        .expect("GRAPH lines")
        .as_ref()
        .expect("ok");
    assert_eq!(c.pick_agreement(), (28, 28));
}

#[test]
fn nccl_proto_ll128_is_shown_and_followed() {
    // SYNTHETIC: the same run with NCCL_PROTO=LL128.
    let text = fixture("nccl-synthetic-2.30-8xa100-proto-ll128.txt");
    let a = analyse(&text, &Settings::default());
    let r = a.nccl.as_ref().expect("NCCL lines");
    let (line, v) = r.debug.proto_env.clone().expect("the env line");
    assert_eq!((line, v.as_str()), (11, "LL128"));
    let c = r
        .comparison
        .as_ref()
        .expect("GRAPH lines")
        .as_ref()
        .expect("ok");
    assert!(c.picks.iter().all(|p| p.logged.proto == Proto::LL128));
    // Tree/LL128 (31.5 µs) while its lower latency wins, then Ring/LL128.
    assert_eq!(
        c.picks.iter().filter(|p| p.logged.algo == "Tree").count(),
        17
    );
    assert_eq!(c.pick_agreement(), (28, 28));
}

#[test]
fn kernel_names_and_tuner_rows() {
    let d = read(
        "ncclDevKernel_AllReduce_Sum_f16_RING_LL 12.3us\nncclKernel_AllReduce_TREE_LL128_Sum_float\nncclDevKernel_AllGather_COLLNET_DIRECT_SIMPLE\n",
        &a100(8),
    )
    .expect("kernels");
    let k: Vec<(Option<&str>, Option<Proto>)> =
        d.kernels.iter().map(|k| (k.algo, k.proto)).collect();
    assert_eq!(
        k,
        vec![
            (Some("Ring"), Some(Proto::LL)),
            (Some("Tree"), Some(Proto::LL128)),
            (Some("CollNetDirect"), Some(Proto::Simple))
        ]
    );
    assert_eq!(
        tuner_row(Func::AllReduce, 0, 65_536, Algo::Tree, Proto::LL, 1, 8),
        "allreduce,0,65536,tree,ll,-1,1,8"
    );
}

/// The regime fit of every group of `text` (one per p and side).
fn regime_fits(text: &str) -> Vec<super::regime::RegimeFit> {
    let a = analyse(text, &Settings::default());
    a.regimes
        .into_iter()
        .map(|r| r.expect("a regime fit"))
        .collect()
}

#[test]
fn open_mpi_at_p2_ring_against_recursive_doubling_done_when() {
    // tests/fixtures/logs/ompi-tuned-{ring,rd}-p2.txt (scripts/make_protocol_logs.sh,
    // Open MPI 4.1.4, 2 ranks on 2 shared cores, 4 B – 16 MiB): each file
    // holds the runner's schedule (left) and MPI_Allreduce with the tuned
    // component forced to the same algorithm (right).
    let text = fixture("ompi-tuned-ring-p2.txt") + &fixture("ompi-tuned-rd-p2.txt");
    let a = analyse(&text, &Settings::default());
    assert_eq!(a.logs.len(), 4);
    let fits = regime_fits(&text);
    assert_eq!(fits.len(), 2, "ours and Open MPI's, fitted apart");
    for (f, name) in fits.iter().zip(&a.regime_names) {
        // The eager limit (4096 B, in the annotation) is the step: messages
        // of 2048 B are eager, of 4096 B rendezvous.
        assert_eq!(f.breakpoint.bracket, (2048.0, 4096.0));
        assert!(name
            .as_deref()
            .is_some_and(|n| n.starts_with("eager → rendezvous")));
        for l in &f.logs {
            assert!(l.rms_rel <= 0.25, "{}: rms {}", l.label, l.rms_rel);
        }
        let x = &f.crossovers[0];
        // rd's message goes rendezvous at 4096 B while the ring's halves
        // stay eager: the first predicted crossover.
        assert_eq!(x.predicted.first(), Some(&4096.0));
        let r = x.ratio().expect("both crossovers");
        assert!((0.5..=2.0).contains(&r), "predicted / measured = {r}");
    }
    // The one-line joint fits of the same groups for contrast: rms ≥ 35 %.
    for j in a.joint.iter().map(|j| j.as_ref().expect("a joint fit")) {
        assert!(
            j.logs.iter().all(|l| l.rms_rel > 0.35),
            "{:?}",
            j.logs.iter().map(|l| l.rms_rel).collect::<Vec<_>>()
        );
    }
}

#[test]
fn the_older_runner_pair_at_p2_fits_two_regimes() {
    // runner-osu-ring-rd-p2.txt (8 B – 4 MiB, the runner's own schedules):
    // the one-line joint fit's rms residuals are 57 % and 62 %.
    let f = &regime_fits(&fixture("runner-osu-ring-rd-p2.txt"))[0];
    assert_eq!(f.breakpoint.bracket, (2048.0, 4096.0));
    let rms: Vec<f64> = f.logs.iter().map(|l| l.rms_rel).collect();
    assert!(rms.iter().all(|&r| r < 0.25), "{rms:?}");
    let x = &f.crossovers[0];
    assert_eq!(x.predicted.first(), Some(&4096.0));
    // Measured: the times first cross between 2 and 4 KiB (2.822 kB).
    let m = x.measured[0];
    assert!((2800.0..2850.0).contains(&m), "{m}");
}

#[test]
fn open_mpi_at_p4_ring_against_rabenseifner_falls_short() {
    // 4 ranks on 2 shared cores (oversubscribed): Rabenseifner's 4 rounds
    // beat the ring's 6 at every size below 1 MiB, the data's step is at
    // 512-byte messages (not at the 4 KiB eager limit, so it is not named
    // eager → rendezvous), and above 1 MiB the times scatter by up to 2×.
    // The done-when (rms ≤ 25 %, predicted crossover within 2× of the
    // measured one) is NOT met on this machine: these values are pinned so
    // that a quieter regeneration of the fixtures shows up here.
    let text = fixture("ompi-tuned-ring-p4.txt") + &fixture("ompi-tuned-rab-p4.txt");
    let a = analyse(&text, &Settings::default());
    let fits = regime_fits(&text);
    assert_eq!(fits.len(), 2);
    for (f, name) in fits.iter().zip(&a.regime_names) {
        assert!(f.breakpoint.bracket.1 <= 1024.0, "{:?}", f.breakpoint);
        assert!(name.is_none());
        assert!(
            !f.gamma_separable,
            "ring and Rabenseifner reduce half of what they send"
        );
        assert!(f.logs.iter().all(|l| l.rms_rel > 0.25 && l.rms_rel < 0.5));
    }
    assert!(fits[0].crossovers[0].predicted.is_empty());
}

#[test]
fn a_measured_tree_beating_nccl_s_pick_gives_a_tuner_row() {
    // SYNTHETIC: NCCL_ALGO=Ring at the model's times, NCCL_ALGO=Tree at half
    // its model time from 64 KiB to 1 MiB. NCCL's pick there is Ring/LL
    // (64 KiB: 16.31 µs); the tree's best cell is Tree/LL (18.96 µs), halved
    // 9.48 µs: the pick is 16.31/9.48 − 1 = 72 % slower.
    let text = fixture("nccl-synthetic-2.30-8xa100-ring-vs-tree.txt");
    let a = analyse(&text, &Settings::default());
    let r = a.nccl.as_ref().expect("NCCL lines");
    let (regrets, rows) = r.regrets.as_ref().expect("two forced sweeps");
    let sizes: Vec<f64> = regrets.iter().map(|g| g.bytes).collect();
    assert_eq!(
        sizes,
        vec![65536.0, 131072.0, 262144.0, 524288.0, 1048576.0]
    );
    assert!(regrets
        .iter()
        .all(|g| g.picked == Algo::Ring && g.faster == Algo::Tree));
    assert!(
        (regrets[0].loss - (16.31 / 9.48 - 1.0)).abs() < 0.01,
        "{}",
        regrets[0].loss
    );
    // Tree's best protocol at √(64 KiB · 1 MiB) = 256 KiB by the model:
    // LL128 (36.59 µs) before LL (37.76 µs).
    assert_eq!(
        rows,
        &vec!["allreduce,65536,1048576,tree,ll128,-1,1,8".to_string()]
    );
}
