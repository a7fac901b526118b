//! The `measure` view reads no view parameters from the URL except
//! `example=`; its panels are listed here, next to the
//! other views' parameters, for `show=`.

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title", "input", "report", "units", "regimes", "nccl", "fit", "charts", "table",
];
