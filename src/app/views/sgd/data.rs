//! What the page computes once and hands to its panels (a leaf, so the
//! panels and the page name it without naming each other).

use nalgebra::DMatrix;

use crate::core::sgd::{Lab, Problem};

use crate::pages::common::shared::Shared;

/// A training run shared by the page and its panels: the problem, the
/// mixing matrix and the three strategies' traces (compared by identity).
pub type SharedLab = Shared<(Problem, DMatrix<f64>, Lab)>;
