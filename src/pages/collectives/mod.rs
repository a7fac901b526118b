//! `?view=collectives`: what the collectives page says of the executed
//! schedule beyond the registry's own narration
//! ([`crate::core::collectives::narrate`]): the check of the final
//! buffers at a step, against the element-wise reduction.

#[cfg(test)]
mod tests;

use crate::core::execute::Trace;
use crate::core::schedule::Computation;
use crate::core::units::format_exact_or_approx;
use crate::pages::common::check::Check;

/// What a column of the picture's cells is, plural then singular: the
/// block each rank sent to the row's rank for an all-to-all, a chunk of
/// the tensor otherwise.
pub fn columns(collective: &Computation) -> (&'static str, &'static str) {
    if *collective == Computation::AllToAll {
        ("blocks sent by ranks", "block sent by a rank")
    } else {
        ("chunks", "chunk")
    }
}

/// What the check panel says at `step`.
pub fn check(trace: &Trace, step: usize) -> Check {
    let (s, rounds, p) = (&trace.schedule, trace.num_rounds(), trace.schedule.p);
    Check::after(
        step,
        rounds,
        || &trace.verification,
        || {
            let what = match &s.collective {
                Computation::AllReduce => format!(
                    "all {p} ranks hold the element-wise sum {} in every element",
                    format_exact_or_approx(trace.expected.first().copied().unwrap_or(0.0))
                ),
                Computation::ReduceScatter { .. } => {
                    format!("each of the {p} ranks holds the complete sum on the chunk it owns")
                }
                Computation::AllGather { .. } => {
                    format!("all {p} ranks hold every rank's chunk, copied and never added")
                }
                Computation::AllToAll => format!(
                    "each of the {p} ranks holds the block every rank addressed to it, copied and never added"
                ),
            };
            format!("{what}; no contribution was added twice.")
        },
    )
}
