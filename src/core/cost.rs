//! (cost: in progress)
