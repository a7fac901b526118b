//! What the page computes once and hands to its panels (a leaf, so the
//! panels and the page name it without naming each other).

use crate::core::step::report::Report;

use crate::pages::common::shared::Shared;

/// The report shared with the panels.
pub type SharedReport = Shared<Report>;
