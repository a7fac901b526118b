//! (sgd: in progress)
