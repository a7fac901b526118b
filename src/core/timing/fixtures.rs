//! Clocks the timing modules' tests share.

use super::run;

use super::clock::{Clock, ClockOptions, Faults, Mode};
use crate::core::collectives::Algorithm;
use crate::core::topology::Topology;

/// The course's ring: p = 4, 100 MB of f32 (25 MB chunks), 12.5 GB/s,
/// α = 0, on the clock of `mode` with `faults`.
pub(crate) fn ring4(mode: Mode, faults: &Faults) -> Clock {
    let topo = Topology::flat(4, 0.0, 1.0 / 12.5e9);
    let s = Algorithm::RING
        .generate_on(&topo, 25_000_000, 4)
        .expect("valid");
    run(
        &s,
        &topo,
        &ClockOptions {
            faults: faults.clone(),
            ..ClockOptions::new(mode)
        },
    )
    .expect("runs")
}
