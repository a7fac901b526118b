//! Collective Lab: an interactive visualiser for distributed SGD and
//! collective communication.
//!
//! - [`core`]: the pure, deterministic model (units, schedules, execution,
//!   cost model, consensus, SGD). No browser imports; tested natively.
//! - [`params`]: view parameters and their URL query form (the embedding API).
//! - [`plot`]: plotters charts rendered to SVG strings.
//! - `app`: the Yew single-page app (wasm32 only).

pub mod core;
pub mod export;
pub mod params;
pub mod plot;

#[cfg(target_arch = "wasm32")]
pub mod app;
