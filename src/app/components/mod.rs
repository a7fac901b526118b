//! Shared UI components. The ring and collectives views share the picture
//! ([`rank_ring`]), the byte counters, the transfer log, the check panel and
//! the time panel.

pub mod byte_counters;
pub mod check_panel;
pub mod field;
pub mod link_fields;
pub mod rank_grid;
pub mod rank_ring;
pub mod scroll_x;
pub mod select_field;
pub mod step_controls;
pub mod time_panel;
pub mod transfer_log;
