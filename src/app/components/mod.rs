//! Shared UI components. The ring and collectives views share the picture
//! ([`rank_ring`]), the byte counters, the transfer log, the check panel and
//! the time panel. Every chart gets a "Data" table ([`data_table`]) with
//! downloads ([`downloads`]); every stepped view a "Copy link to this step"
//! button ([`copy_link`]). The timeline and trace views share the Gantt
//! chart of a clock ([`gantt`]).

pub mod byte_counters;
pub mod chart_box;
pub mod check_panel;
pub mod chunk_grid;
pub mod computing;
pub mod copy_link;
pub mod data_table;
pub mod downloads;
pub mod field;
pub mod gantt;
pub mod link_fields;
pub mod rank_grid;
pub mod rank_ring;
pub mod scroll_x;
pub mod select_field;
pub mod step_controls;
pub mod time_panel;
pub mod transfer_log;
