//! (consensus: in progress)
