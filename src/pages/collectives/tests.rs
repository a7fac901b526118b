//! The collectives page's check against the executed ring.

use super::check;
use crate::core::collectives::Algorithm;
use crate::core::topology::Topology;
use crate::pages::common::check::Check;
use crate::pages::common::trace::collective_trace;

#[test]
fn the_check_waits_for_the_last_round_then_names_the_sum() {
    // The ring on 4 ranks: 6 rounds; inputs rank + 1 sum to 10.
    let topo = Topology::flat(4, 0.0, 1e-9);
    let trace = collective_trace(Algorithm::RING, &topo, 128).expect("runs");
    assert_eq!(check(&trace, 3), Check::Pending { done: 3, rounds: 6 });
    assert_eq!(
        check(&trace, 6),
        Check::Verified(
            "all 4 ranks hold the element-wise sum 10 in every element; no contribution was added twice."
                .into()
        )
    );
}

#[test]
fn an_all_to_all_is_checked_on_the_blocks_addressed_to_each_rank() {
    // Bruck on 5 ranks: ⌈log₂5⌉ = 3 rounds; 25 blocks of 4 elements.
    let topo = Topology::flat(5, 0.0, 1e-9);
    let trace = collective_trace(Algorithm::BRUCK, &topo, 400).expect("runs");
    assert_eq!(check(&trace, 2), Check::Pending { done: 2, rounds: 3 });
    assert_eq!(
        check(&trace, 3),
        Check::Verified(
            "each of the 5 ranks holds the block every rank addressed to it, copied and never added; \
             no contribution was added twice."
                .into()
        )
    );
}
