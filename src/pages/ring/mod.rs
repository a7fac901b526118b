//! `?view=ring`: what the ring page shows. [`run::RingRun`] answers the
//! page's questions (the round's transfers and sentences, the byte
//! counters, the check and the mean) from one execution of the ring
//! all-reduce on real buffers: drawn and checkpointed up to
//! [`crate::params::ring::MAX_DRAWN_P`] ranks, streamed above.

pub mod run;

#[cfg(test)]
mod tests;
