//! (units: in progress)
