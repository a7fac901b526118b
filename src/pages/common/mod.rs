//! What more than one page computes: the shared handle a page passes to its
//! panels ([`Shared`]), a collective executed on real buffers for the
//! collectives and ring pages ([`trace`]), and the clocks of one case for
//! the timeline and trace pages ([`clocks`]).

pub mod check;
pub mod clocks;
pub mod shared;
pub mod trace;
pub mod transfer_log;

pub use shared::Shared;

#[cfg(test)]
mod tests;
