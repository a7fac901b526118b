//! `?view=step`: what the training-step page says beside the core's
//! report ([`crate::core::step::report`]): the strategies' names, the note
//! under a sharded step's chart (ZeRO-2: reduce-scatter then all-gather;
//! FSDP: all-gather per layer before forward and backward, the ZeRO
//! paper's stage 3), and the time-to-quality run and its rows.

pub mod quality;

#[cfg(test)]
mod tests;

use crate::core::sgd::Strategy;
use crate::core::step::quality::{quality, QualityRow, StepClock};
use crate::core::step::report::{report, Report};
use crate::core::step::Sharding;
use crate::core::units::format_time;
use crate::pages::common::shared::Shared;
use crate::params::sgd::SgdParams;
use crate::params::step::StepParams;

/// The report shared with the page's panels (compared by identity).
pub type SharedReport = Shared<Report>;

/// The strategy's name here: local SGD says whether it averages.
pub fn label(s: Strategy, h: Option<usize>) -> String {
    match (s, h) {
        (Strategy::Local, Some(h)) => format!("local SGD (average every {h} steps)"),
        _ => s.label().to_string(),
    }
}

/// The row names without their notes, comma-separated.
pub fn names(v: &[Strategy]) -> String {
    // The row names without their notes: "all-reduce SGD", "D-PSGD", "local SGD".
    v.iter()
        .map(|s| s.label().split(" (").next().unwrap_or(s.label()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The clocks as bits (a memo key).
pub type Key = (SgdParams, [(u64, Option<(usize, u64)>); 3], Option<u64>);

/// The run and its rows: (optimal loss, target, rows).
pub type Computed = Result<(f64, f64, Vec<QualityRow>), String>;

/// The training run of the key's SGD case and the time-to-quality
/// rows on its clocks: (optimal loss, target, rows).
///
/// # Errors
/// The training model's message.
pub fn compute(k: &Key) -> Computed {
    let clocks = k.1.map(|(s, e)| StepClock {
        per_step: f64::from_bits(s),
        every: e.map(|(h, x)| (h, f64::from_bits(x))),
    });
    let (_, _, lab) = k.0.lab_setup().run().map_err(|e| e.to_string())?;
    // no target given: 5 % above the lowest loss reachable
    let target = k.2.map_or(lab.optimal_loss * 1.05, f64::from_bits);
    Ok((lab.optimal_loss, target, quality(&lab, &clocks, target)))
}

/// The row's name: all-reduce SGD says how it shards (`mode`).
pub fn name(s: Strategy, h: Option<usize>, mode: Sharding) -> String {
    match (s, mode) {
        (Strategy::AllReduce, Sharding::Zero2 | Sharding::Fsdp) => {
            format!("all-reduce SGD as {}", mode.label())
        }
        _ => label(s, h),
    }
}

/// What the chart of a sharded step shows, in a sentence or two.
pub fn sharded_note(r: &Report, p: &StepParams, mode: Sharding) -> String {
    let run = r.shown_or_ddp().0.run;
    let names = r.halves.map_or("", |h| h.names());
    match mode {
        Sharding::Ddp => String::new(),
        Sharding::Zero2 => format!(
            "ZeRO-2: DDP's {} buckets ({}) reduce-scattered (RS), then the updated parameters all-gathered (AG), not overlapped, \
             on the registry's {names}. A tick marks when a collective was issued.",
            run.buckets.len().saturating_sub(1),
            p.caps_line()
        ),
        Sharding::Fsdp => format!(
            "FSDP: each layer all-gathered before its forward and again before its backward (AG), reduce-scattered after its backward (RS), \
             one layer prefetched, on the registry's {names}. fwd= is split evenly over the layers: {} each. A tick marks when a collective was issued.",
            // layer 1's forward, at nominal speed
            format_time(run.others.as_ref().unwrap_or(&run.compute).first().map_or(0.0, |c| c.end - c.start))
        ),
    }
}

/// The report of the case `p` describes: every strategy's step on the
/// clock, the shown sharding and the memory.
///
/// # Errors
/// The case's or the step model's message.
pub fn step_report(p: &StepParams) -> Result<Report, String> {
    p.case().and_then(|c| report(&c).map_err(|e| e.to_string()))
}

/// `#step-measured`: a measured step (`measured=STEP,EXPOSED`, seconds,
/// from a profiler trace through the trace view's link) beside the
/// model's step of `r`, with the model-to-measured ratio of each. `None`
/// without `measured=`.
pub fn measured_line(r: &Report, p: &StepParams) -> Option<String> {
    let m = p.measured.as_ref()?;
    let (step, exposed) = (*m.value.first()?, *m.value.get(1)?);
    let run = r.shown_or_ddp().0.run;
    let ratio = |model: f64, measured: f64| {
        if measured > 0.0 {
            format!("{}×", crate::core::units::sig_trimmed(model / measured, 3))
        } else {
            "– (none measured)".to_string()
        }
    };
    Some(format!(
        "Measured (the trace's step): {} with {} of exposed communication. This model: {} with {} exposed. \
         Model ÷ measured: step {}, exposed communication {}. The measured step also holds what the model leaves out \
         (the optimizer, data loading, the profiler's own cost), and a collective's measured time includes waiting for the other ranks.",
        format_time(step),
        format_time(exposed),
        format_time(run.step_time),
        format_time(run.exposed()),
        ratio(run.step_time, step),
        ratio(run.exposed(), exposed),
    ))
}
