//! The pure core. Nothing here imports `yew`, `web_sys` or `wasm_bindgen`.
//! Every number the app shows is computed here and checked by native tests.

pub mod collectives;
#[cfg(feature = "views")]
pub mod consensus;
pub mod cost;
pub mod data_url;
pub mod execute;
pub mod flight;
#[cfg(feature = "views")]
pub mod measure;
pub mod order;
#[cfg(feature = "views")]
pub mod practice;
pub mod profiler;
pub mod rng;
pub mod schedule;
#[cfg(feature = "views")]
pub mod sgd;
#[cfg(feature = "views")]
pub mod step;
pub mod timing;
pub mod topology;
pub mod topology_view;
pub mod trace_event;
pub mod units;
#[cfg(feature = "views")]
pub mod work;
