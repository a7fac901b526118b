//! The cost page's sentences and protocol panels against hand-derived
//! numbers.

use super::all_to_all::all_to_all_panel;
use super::protocol::{mpi_panel, nccl_panels, table_sizes};
use super::{preset_note, units_line};
use crate::core::cost::nccl_tune::{Algo, Inputs, Node, Proto, Version};
use crate::core::cost::CostParams;
use crate::core::units::format_time;
use crate::params::cost::CostViewParams;
use crate::params::protocol::{NcclFields, ProtoChoice};
use crate::params::Query;

fn cost(query: &str) -> CostViewParams {
    let (p, errors) = CostViewParams::from_query(&Query::parse(query), &CostViewParams::default());
    assert!(errors.is_empty(), "{errors:?}");
    p
}

#[test]
fn the_units_line_names_every_input_with_its_unit() {
    let line = units_line(&cost("p=16&alpha=5us&bw=100Gb/s&size=8KiB"));
    assert!(
        line.starts_with(&format!("p = 16; α = {}; ", format_time(5e-6))),
        "{line}"
    );
    // 100 Gb/s is 12.5 GB/s, so β = 1 / 12.5 GB/s = 0.08 ns per byte.
    assert!(
        line.contains("100 Gb/s = 12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"),
        "{line}"
    );
    assert!(line.ends_with("; n = 8,192 B (8 KiB, 8.192 kB)"), "{line}");
    let mpi = units_line(&cost("p=16&alpha=5us&bw=100Gb/s&size=8KiB&proto=mpi"));
    assert!(mpi.ends_with("; MPI protocol: eager below 4 KiB"), "{mpi}");
    let nccl = units_line(&cost("p=16&size=8KiB&proto=nccl&nodes=2"));
    assert!(
        nccl.ends_with("; NCCL v2.30.7-1 model, 2 node(s)"),
        "{nccl}"
    );
    assert_eq!(preset_note(&cost("p=16")), None);
}

#[test]
fn the_mpi_panel_adds_one_round_trip_per_rendezvous_round() {
    // p = 2, α = 1 µs, 1 GB/s (β = 1 ns/B), n = 1 MiB, eager below 4 KiB,
    // handshake 2α = 2 µs. The ring's two rounds each move n/2 = 512 KiB,
    // above the limit: 2 rendezvous rounds, 4 µs of handshakes, on top of
    // 2(p − 1)α + 2(p − 1)/p · nβ = 2 µs + 1,048,576 ns.
    let params = cost("p=2&alpha=1us&bw=1GB/s&size=1MiB&proto=mpi");
    let panel = mpi_panel(params.p, params.n_bytes(), params.model(), &params.proto)
        .expect("proto=mpi shows the panel");
    assert_eq!(
        panel.heading,
        "MPI protocol: eager below 4 KiB, rendezvous from there"
    );
    assert!(
        panel
            .rule
            .contains(&format!("{} more (2α)", format_time(2e-6))),
        "{}",
        panel.rule
    );
    let ring = panel
        .rows
        .iter()
        .find(|r| r.alg.key() == "ring")
        .expect("the ring is compared");
    assert_eq!(ring.rendezvous_rounds, 2);
    assert_eq!(ring.handshakes, format_time(4e-6));
    assert_eq!(ring.base, format_time(2e-6 + 1_048_576e-9));
    assert_eq!(ring.total, format_time(6e-6 + 1_048_576e-9));
    assert_eq!(panel.rows.iter().filter(|r| r.winner).count(), 1);
    assert!(panel
        .winner
        .as_deref()
        .is_some_and(|w| w.starts_with("Fastest at 1.049 MB (1 MiB) with the protocol: ")));
    // The ranges cover [0, ∞): the first starts at 0 B, the last ends at ∞.
    assert!(panel
        .ranges
        .first()
        .is_some_and(|r| r.text.starts_with("0 B – ")));
    assert!(panel
        .ranges
        .last()
        .is_some_and(|r| r.text.contains(" – ∞: ")));
    // Without proto=mpi there is no panel.
    let plain = cost("p=2&alpha=1us&bw=1GB/s&size=1MiB");
    assert_eq!(
        mpi_panel(plain.p, plain.n_bytes(), plain.model(), &plain.proto),
        None
    );
}

#[test]
fn the_nccl_table_has_a_row_per_power_of_four_and_the_chosen_size() {
    // 1 KiB · 4^k for k = 0 … 10 is 11 sizes up to 1 GiB; 1 MiB is one of
    // them, 1000 B is not (12 sizes, first).
    assert_eq!(table_sizes(1_048_576.0).len(), 11);
    let odd = table_sizes(1000.0);
    assert_eq!((odd.len(), odd[0], odd[1]), (12, 1000, 1024));
    let params = cost("p=8&size=1MiB&proto=nccl");
    let panels = nccl_panels(params.p, params.n_bytes(), &params.proto).expect("proto=nccl");
    let table = panels.table.expect("the default node is accepted");
    assert_eq!(
        table.heading,
        "NCCL's pick: all-reduce, 8 ranks on 1 node(s), NCCL v2.30.7-1"
    );
    assert_eq!(table.heads.len(), Algo::ALL.len() * Proto::ALL.len());
    assert_eq!(table.rows.len(), 11);
    let chosen: Vec<&str> = table
        .rows
        .iter()
        .filter(|r| r.chosen)
        .map(|r| r.size.as_str())
        .collect();
    assert_eq!(chosen, ["1 MiB (n)"]);
    for r in &table.rows {
        assert_eq!(r.cells.len(), table.heads.len());
        assert!(r.cells.iter().filter(|c| c.1).count() <= 1, "{r:?}");
    }
    assert!(panels.switches.is_some());
}

#[test]
fn refused_nccl_inputs_give_a_sentence_and_no_switches() {
    // The URL keeps p ≥ 2 and the fields in range; a field set out of the
    // model's range directly (0 channels) is refused by the model itself.
    let mut params = cost("p=8&size=1MiB&proto=nccl");
    params.proto.nccl.channels = 0;
    let panels = nccl_panels(params.p, params.n_bytes(), &params.proto).expect("proto=nccl");
    let e = panels.table.expect_err("refused");
    assert_eq!(
        e,
        "NCCL's model refuses these inputs: the ring graph needs 1 to 64 channels"
    );
    assert_eq!(panels.switches, None);
}

#[test]
fn the_default_nccl_fields_are_the_lab_s_one_default_node() {
    let from_fields = NcclFields::default().inputs(8);
    assert_eq!(
        from_fields,
        Node::A100_NVSWITCH.inputs(Version::V2_30, 8, 1)
    );
    assert_eq!(
        from_fields,
        Inputs::nvlink_node(Version::V2_30, 8, 12, 20.0, 80)
    );
}

#[test]
fn with_proto_nccl_the_answer_is_nccl_s_pick_and_the_alpha_beta_table_is_labelled() {
    // NCCL v2.30.7's model for 8 A100s on one NVSwitch node, 12 channels of
    // 20 GB/s: Ring/LL at 64 KiB in 16.31 µs (the browser test reads the
    // same cell in the table).
    let params = cost(
        "p=8&alpha=1us&bw=450GB/s&size=64KiB&proto=nccl&nccl_ver=2.30&ch=12&intra=20GB/s&inter=20GB/s&nodes=1&cc=80&link=nvl",
    );
    let panels = nccl_panels(params.p, params.n_bytes(), &params.proto).expect("proto=nccl");
    let table = panels.table.expect("accepted inputs");
    assert_eq!(
        table.answer,
        "NCCL's pick at 65.54 kB (64 KiB): Ring/LL, 16.31 µs."
    );
    let note = super::protocol::textbook_note(ProtoChoice::Nccl).expect("a label");
    assert!(note.starts_with("The textbook α–β model, from the α–β fields"));
    assert!(super::protocol::textbook_note(ProtoChoice::None).is_none());
}

#[test]
fn cross_names_the_ring_rd_crossover_and_says_the_ring_never_wins_at_a_power_of_two() {
    use crate::core::collectives::compare::best_intervals;
    // p = 8, α = 5 µs, β = 0.08 ns/B. Recursive doubling: 3α + 3nβ; the
    // ring: 14α + 1.75nβ. Even where 55 µs = 1.25 · 0.08 ns/B · n, at
    // n = 550 kB, both 15 µs + 3 · 0.08e-9 · 550e3 s = 147 µs. Rabenseifner
    // (6α + 1.75nβ) has the ring's bytes with fewer start-ups: at 1.1 MB it
    // takes 30 + 154 = 184 µs against the ring's 224 µs.
    let params = cost("p=8&alpha=5us&beta=0.08ns/B&size=550000B&cross=rd,ring");
    let intervals = best_intervals(params.p, params.model());
    let pair = super::pair_crossover(&params, &intervals).expect("cross=");
    assert_eq!(
        pair.text,
        "Recursive doubling and ring break even at 550 kB (537.1 KiB), both 147.0 µs: recursive doubling is faster below, ring above."
    );
    assert!(pair.calculation.len() >= 2, "{:?}", pair.calculation);
    assert_eq!(
        pair.never_fastest.as_deref(),
        Some("In this model ring is never the fastest of all at these parameters: at 1.1 MB (1.049 MiB), for one, Rabenseifner is faster still, and no range above is its own.")
    );
    // Rabenseifner against recursive doubling: Rabenseifner does win above.
    let rab = cost("p=8&alpha=5us&beta=0.08ns/B&size=8KiB&cross=rd,rab");
    let pair = super::pair_crossover(&rab, &best_intervals(rab.p, rab.model())).expect("cross=");
    assert_eq!(pair.never_fastest, None);
    // Without cross= there is none; a bad pair is a field error.
    assert!(super::pair_crossover(&cost("p=8"), &intervals).is_none());
    let (_, errs) =
        CostViewParams::from_query(&Query::parse("cross=rd,rd"), &CostViewParams::default());
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].field, "cross");
    let (_, errs) =
        CostViewParams::from_query(&Query::parse("cross=ring"), &CostViewParams::default());
    assert!(
        errs[0].message.contains("two algorithms"),
        "{}",
        errs[0].message
    );
    let (_, errs) =
        CostViewParams::from_query(&Query::parse("cross=rd,nope"), &CostViewParams::default());
    assert!(errs[0].message.contains("nope"), "{}", errs[0].message);
}

#[test]
fn the_why_sets_the_winner_against_the_runner_up() {
    use crate::core::collectives::compare::all_allreduce;
    // p = 16, α = 5 µs, β = 0.08 ns/B, n = 8 KiB (nβ = 655.36 ns).
    // Recursive doubling: 4α = 20 µs and 4nβ = 2.621 µs (22.62 µs);
    // Rabenseifner: 8α = 40 µs and 2·15/16·nβ = 1.229 µs (41.23 µs), the
    // runner-up (the binomial tree: 40 µs + 5.243 µs).
    let params = cost("p=16&alpha=5us&bw=100Gb/s&size=8KiB");
    let table = all_allreduce(params.p, params.n_bytes(), params.model());
    assert_eq!(
        super::why_fastest(&table, params.n_bytes()).as_deref(),
        Some("At 8.192 kB (8 KiB) the start-ups decide: recursive doubling pays 4α = 20.00 µs against Rabenseifner's 8α = 40.00 µs, while their byte terms are 2.621 µs and 1.229 µs.")
    );
    // At 64 MiB Rabenseifner wins on bytes against recursive doubling? No:
    // against the ring, with the same bytes and fewer start-ups.
    let big = cost("p=16&alpha=5us&bw=100Gb/s&size=64MiB");
    let table = all_allreduce(big.p, big.n_bytes(), big.model());
    let why = super::why_fastest(&table, big.n_bytes()).expect("a sentence");
    assert!(why.starts_with("At 67.11 MB (64 MiB) the start-ups decide: Rabenseifner pays 8α = 40.00 µs against ring's 30α = 150.0 µs"), "{why}");
    assert!(super::why_fastest(&table[..1], 1.0).is_none());
}

#[test]
fn the_all_to_all_panel_at_the_seed_parameters() {
    // p = 16, α = 5 µs, β = 0.08 ns/B, n = 8 KiB = 8,192 B: a block is
    // n/p² = 32 B. Pairwise: 15 start-ups, 15 blocks = 480 B per rank,
    // 75 µs + 480 · 0.08 ns = 75.0384 µs. Bruck: 4 rounds of 8 blocks,
    // 32 blocks = 1,024 B, 20 µs + 81.92 ns = 20.08192 µs. All at once:
    // 5 µs + 38.4 ns = 5.0384 µs, the fastest.
    let c = CostParams::new(5e-6, 0.08e-9);
    let panel = all_to_all_panel(16, 8192.0, c);
    let got: Vec<(&str, &str, bool)> = panel
        .rows
        .iter()
        .map(|r| (r.alg.key(), r.startups.as_str(), r.fastest))
        .collect();
    assert_eq!(
        got,
        [
            ("pairwise", "15", false),
            ("bruck", "4", false),
            ("linear", "1", true)
        ]
    );
    let times: Vec<&str> = panel.rows.iter().map(|r| r.time.as_str()).collect();
    let bytes: Vec<&str> = panel.rows.iter().map(|r| r.bytes.as_str()).collect();
    assert_eq!(times, ["75.04 µs", "20.08 µs", "5.038 µs"]);
    assert_eq!(bytes, ["480 B", "1.024 kB (1 KiB)", "480 B"]);
    assert!(
        panel.lede.contains("each rank sends 512 B of its own"),
        "{}",
        panel.lede
    );
    // The break-even: 11α = 17/256 · nβ, n = 11 · 5 µs · 256 / (17 · 0.08 ns)
    // = 10,352,941 B; both take 75 µs + 15/256 · n · β = 123.53 µs there.
    assert!(
        panel
            .bruck_pairwise
            .contains("4 start-ups against pairwise's 15"),
        "{}",
        panel.bruck_pairwise
    );
    assert!(
        panel.bruck_pairwise.contains("32 blocks against 15"),
        "{}",
        panel.bruck_pairwise
    );
    assert!(
        panel.bruck_pairwise.contains("below 10.35 MB (9.873 MiB)"),
        "{}",
        panel.bruck_pairwise
    );
    assert!(
        panel.bruck_pairwise.contains("both take 123.5 µs there"),
        "{}",
        panel.bruck_pairwise
    );
    assert_eq!(
        panel.calculation.last().map(String::as_str),
        Some("  ≈ 10,352,941 B (10.35 MB = 9.873 MiB)")
    );
    assert!(panel.all_at_once.contains("p − 1 = 15 messages"));
}

#[test]
fn bruck_and_pairwise_are_one_exchange_at_three_ranks_and_alpha_zero_favours_pairwise() {
    // p = 3: Bruck's ⌈log₂3⌉ = 2 rounds move distances {1} and {2}, one
    // block each: 2 start-ups and 2 blocks, exactly pairwise's p − 1.
    let c = CostParams::new(5e-6, 0.08e-9);
    let three = all_to_all_panel(3, 9000.0, c);
    assert!(
        three
            .bruck_pairwise
            .starts_with("At p = 3 Bruck and pairwise pay the same: 2 start-ups and 2 blocks"),
        "{}",
        three.bruck_pairwise
    );
    assert!(three.calculation.is_empty());
    // α = 0: start-ups are free, so pairwise's fewer bytes win at every size.
    let free = all_to_all_panel(16, 8192.0, CostParams::new(0.0, 0.08e-9));
    assert!(
        free.bruck_pairwise
            .contains("pairwise is faster at every size"),
        "{}",
        free.bruck_pairwise
    );
}
