//! Collective Lab: an interactive visualiser for distributed SGD and
//! collective communication.
//!
//! - [`core`]: the pure, deterministic model (units, schedules, execution,
//!   cost model, consensus, SGD). No browser imports; tested natively.
//! - `params`: view parameters and their URL query form (the embedding API).
//! - `pages`: what each page shows (numbers, sentences, rows), one folder
//!   per view, computed natively from `core` and `params`.
//! - `plot`: plotters charts rendered to SVG strings.
//! - `app`: the Yew single-page app (wasm32 only).
//!
//! Without the default feature `views`, the crate is the collectives' core
//! only (what the MPI runner links): no `params`, `plot`, `export`, `app`,
//! and no consensus, SGD, step, practice, measure or work modules in `core`.

pub mod core;
#[cfg(feature = "views")]
pub mod export;
#[cfg(feature = "views")]
pub mod pages;
#[cfg(feature = "views")]
pub mod params;
#[cfg(feature = "views")]
pub mod plot;

#[cfg(all(target_arch = "wasm32", feature = "views"))]
pub mod app;

/// The heap of every wasm binary: talc instead of Rust's default dlmalloc
/// (smaller code on every page; see docs/size.md).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
