//! The topology page's rows and words against hand-derived counts.

use super::narration::{narration, phase_label};
use super::step::{link_rows, rank_rows};
use super::{run_for, run_key};
use crate::core::units::format_bytes_short;
use crate::params::topology::TopologyParams;
use crate::params::Query;

fn params(query: &str) -> TopologyParams {
    let (p, errors) = TopologyParams::from_query(&Query::parse(query), &TopologyParams::default());
    assert!(errors.is_empty(), "{errors:?}");
    p
}

#[test]
fn the_flat_ring_on_two_nodes_crosses_each_nic_once_a_round() {
    // 2 nodes × 2 GPUs, the flat ring 0 → 1 → 2 → 3 → 0 on 16 B (4 f32):
    // chunks of 4 B, 2 (p − 1) = 6 rounds. Each rank sends one chunk a
    // round (24 B in all); the edges 1 → 2 and 3 → 0 leave a node, so each
    // node's NIC sends and receives 4 B a round, 24 B in all.
    let (topo, run) = run_for(&params("alg=flat&nodes=2&gpus=2&size=16B")).expect("runs");
    assert_eq!(run.num_rounds(), 6);
    let ranks = rank_rows(&run, 6, &topo);
    assert_eq!(ranks.len(), 4);
    let b24 = format_bytes_short(24.0);
    for r in &ranks {
        assert_eq!(r.cells, vec![b24.clone(), b24.clone()], "{}", r.label);
    }
    assert_eq!(ranks[2].label, "rank 2 (node 1, NIC 0)");
    let nics = link_rows(&run, 6, &topo);
    let b4 = format_bytes_short(4.0);
    for node in 0..2 {
        let row = nics
            .iter()
            .find(|r| r.id.as_deref() == Some(&format!("nic-{node}-0")))
            .expect("one NIC per node");
        assert_eq!(
            row.cells,
            vec![b4.clone(), b4.clone(), b24.clone(), b24.clone()]
        );
    }
    // Before round 1 nothing has moved.
    assert!(rank_rows(&run, 0, &topo)
        .iter()
        .all(|r| r.cells == vec!["0 B".to_string(), "0 B".to_string()]));
}

#[test]
fn before_round_one_the_words_say_what_each_rank_holds() {
    let (_, run) = run_for(&params("alg=flat&nodes=2&gpus=2&size=16B")).expect("runs");
    assert_eq!(
        phase_label(&run, 0),
        format!("{}: initial buffers (before round 1)", run.label)
    );
    assert!(narration(&run, 0)
        .starts_with("Before any transfer each of the 4 ranks holds only its own tensor."));
    assert_eq!(narration(&run, 7), "");
    assert_eq!(phase_label(&run, 1), run.titles[0]);
}

#[test]
fn the_run_key_ignores_the_step_and_bad_shapes_give_a_message() {
    assert_eq!(run_key(&params("step=3")), run_key(&params("step=5")));
    let p = TopologyParams {
        nodes: 0,
        ..TopologyParams::default()
    };
    assert!(run_for(&p).is_err());
}
