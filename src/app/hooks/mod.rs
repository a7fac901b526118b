//! The app's hooks, one per file: [`use_view_state`] (a view's state in a
//! reducer, written back to the URL), [`use_deferred`] (heavy work after
//! the first paint), [`use_after_paint`] (a heavy effect after the first
//! paint) and [`use_resumable`] (long work in short slices, with progress).
//! The state they keep is in [`crate::app::state`].

mod after_paint;
mod use_after_paint;
mod use_deferred;
mod use_resumable;
mod use_view_state;

pub use use_after_paint::use_after_paint;
pub use use_deferred::{use_deferred, Deferred};
pub use use_resumable::{use_resumable, Resumable};
pub use use_view_state::use_view_state;
