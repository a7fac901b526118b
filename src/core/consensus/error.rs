//! Why a consensus computation could not be done ([`ConsensusError`]).

use std::fmt;

/// Why a consensus computation could not be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsensusError {
    /// The graph cannot be built (size, power of two, torus shape).
    InvalidGraph(String),
    /// The weight rule does not apply to this graph.
    RuleNeedsGraph(String),
    /// A matrix is not square, is empty or has a non-finite entry.
    InvalidMatrix(String),
    /// A vector has the wrong length.
    LengthMismatch {
        /// Length required (usually p).
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// No unique stationary distribution π.
    NoStationary(String),
    /// An eigenvalue decomposition did not converge.
    EigenFailed(String),
}

impl fmt::Display for ConsensusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConsensusError::InvalidGraph(m)
            | ConsensusError::RuleNeedsGraph(m)
            | ConsensusError::InvalidMatrix(m)
            | ConsensusError::NoStationary(m)
            | ConsensusError::EigenFailed(m) => f.write_str(m),
            ConsensusError::LengthMismatch { expected, got } => {
                write!(f, "expected {expected} values, one per node (got {got})")
            }
        }
    }
}

impl std::error::Error for ConsensusError {}
