//! The cost page's sentences and protocol panels against hand-derived
//! numbers.

use super::protocol::{mpi_panel, nccl_panels, table_sizes};
use super::{preset_note, units_line};
use crate::core::cost::nccl_tune::{Algo, Inputs, Node, Proto, Version};
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
