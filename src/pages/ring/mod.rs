//! `?view=ring`: what the ring page shows. [`run::RingRun`] answers the
//! page's questions (the round's transfers and sentences, the byte
//! counters, the check and the mean) from one execution of the ring
//! all-reduce on real buffers: drawn and checkpointed up to
//! [`crate::params::ring::MAX_DRAWN_P`] ranks, streamed above.

pub mod run;

use crate::core::units::format_exact_or_approx;
use crate::pages::common::check::Check;
use run::RingRun;

/// What the check panel says after `rounds_done` rounds.
pub fn check(run: &RingRun, rounds_done: usize, mean_step: bool) -> Check {
    let (p, rounds) = (run.p(), run.rounds());
    Check::after(
        rounds_done,
        rounds,
        || run.verification(),
        || {
            let inputs: Vec<String> = run
                .inputs()
                .into_iter()
                .map(format_exact_or_approx)
                .collect();
            let sum_text = match inputs.as_slice() {
                all if p <= 8 => all.join(" + "),
                [a, b, .., z] => format!("{a} + {b} + … + {z}"),
                all => all.join(" + "),
            };
            let sum = format_exact_or_approx(run.sum());
            let mut text = format!(
                "all {p} ranks hold the element-wise sum {sum_text} = {sum} in every element."
            );
            if mean_step {
                text.push_str(&format!(
                    " Mean step: {sum} / {p} = {} on every rank.",
                    format_exact_or_approx(run.mean())
                ));
            }
            text
        },
    )
}

/// The phase label and the narration at `step`.
/// (`executing`: the values are still being executed, so no numbers yet.)
pub fn status(run: &RingRun, step: usize, mean_step: bool, executing: bool) -> (String, String) {
    let p = run.p();
    let phase_label = if step == 0 {
        "Initial buffers (before round 1)".to_string()
    } else if mean_step {
        "Mean: divide by p (local, no transfer)".to_string()
    } else {
        run.round_label(step - 1)
    };
    let narration = if mean_step && executing {
        format!("Each rank divides its sum by p = {p} on its own. No bytes move in this step.")
    } else if mean_step {
        format!(
            "Each rank divides its sum by p = {p} on its own: {} / {p} = {}. No bytes move in this step.",
            format_exact_or_approx(run.sum()),
            format_exact_or_approx(run.mean())
        )
    } else {
        run.narrate(step.min(run.rounds()))
    };
    (phase_label, narration)
}

#[cfg(test)]
mod tests;
