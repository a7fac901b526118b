//! Collectives that know the topology they run on. Each generator has the
//! signature `(&Topology, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError>`
//! and each file carries its closed form and a lower bound on its executed
//! time ([`crate::core::topology::timing`]).
//!
//! - [`flat_topo`]: the ring over all ranks in rank order;
//! - [`multilane`]: intra-node reduce-scatter → per-lane inter-node all-reduce → intra-node all-gather;
//! - [`rat`]: rack-aware (reduce inside the rack, one aggregate crosses the core);
//! - [`flex`]: FlexReduce over unequal groups.

pub mod flat_topo;
pub mod flex;
pub mod multilane;
pub mod pieces;
pub mod rat;
