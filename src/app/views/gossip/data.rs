//! What the page computes once and hands to its panels (a leaf, so the
//! panels and the page name it without naming each other).

use crate::core::consensus::GossipRun;

use crate::pages::common::shared::Shared;

/// A computed run shared by the page and its panels (compared by identity).
pub type SharedRun = Shared<GossipRun>;
