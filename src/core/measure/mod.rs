//! Measured logs: read a pasted nccl-tests, OSU or generic benchmark table,
//! check its bandwidths row by row, and fit the α–β model to it.
//!
//! Pipeline (every step is a pure function, tested natively):
//! 1. [`import`] detects the format ([`detect`]) and runs one parser per
//!    format ([`nccl`], [`osu`], [`generic`]). A line that cannot be read is
//!    reported with its 1-based line number and the reason
//!    ([`LineMessage`]); the rest is still imported.
//! 2. [`checks::check`] recomputes algbw = size / time and busbw = algbw ×
//!    the collective's factor (nccl-tests, doc/PERFORMANCE.md) within the
//!    printed precision, the `# Avg bus bandwidth` trailer, `#wrong` counts,
//!    and an optional line rate; [`checks::resolve`] takes p from the log
//!    or infers it from busbw / algbw.
//! 3. [`fit::fit`] fits α and β under an algorithm model ([`model`]) with a
//!    Huber M-estimator, optionally piecewise with up to two breakpoints.
//! 4. [`synthetic`] writes example logs from a known α, β and algorithm.
//!
//! Units inside this module are SI: sizes in bytes, times in seconds,
//! bandwidths in bytes per second.

pub mod analysis;
pub mod annotate;
pub mod breaks;
pub mod checks;
mod columns;
pub mod detect;
pub mod export;
pub mod fit;
pub mod generic;
pub mod gloo;
pub mod joint;
mod log;
pub mod lsq;
pub mod model;
pub mod nccl;
pub mod nccl_debug;
pub mod nccl_init;
pub mod osu;
mod pipeline;
pub mod regime;
pub mod synthetic;
pub mod ucc;

pub use log::*;
pub use model::{CollectiveKind, Model};
pub use pipeline::import;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_protocol;
#[cfg(test)]
mod tests_real;
