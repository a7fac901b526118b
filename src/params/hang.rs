//! `?view=hang`'s parameters: none but the app-wide ones (`show=`,
//! `embed`); the dumps are opened in the page, never named in the URL.

/// The hang view's panels, in the page's order (what `show=` takes).
pub const PANELS: &[&str] = &["title", "input", "answer", "groups"];
