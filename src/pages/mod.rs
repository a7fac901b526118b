//! What each page shows, computed natively: one folder per `?view=` key
//! (`pages/<key>/`), holding that page's numbers, sentences and table rows,
//! computed from [`crate::core`] and [`crate::params`] and never from the
//! browser. The views in `app/views/<key>/` only lay out and render them.
//! A page never names another page; what two pages share lives in
//! [`common`]. `tests/layers.rs` holds both rules.
//!
//! The pattern is Yew's `function_router` example, whose `content.rs`
//! keeps the posts as plain types that `pages/` only renders.

pub mod collectives;
pub mod common;
pub mod cost;
pub mod gossip;
pub mod hang;
pub mod measure;
pub mod practice;
pub mod ring;
pub mod sgd;
pub mod start;
pub mod step;
pub mod timeline;
pub mod topology;
pub mod trace;
