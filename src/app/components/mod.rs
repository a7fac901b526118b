//! Shared UI components.

pub mod field;
pub mod rank_ring;
pub mod step_controls;
