//! `#quality`'s run key and counts line, and `#tuner` as plain data: the
//! time-to-quality run (the SGD lab's training run, each step turned into
//! seconds by this page's step times) and the bucket tuner's verdict (the
//! step time at caps of 1 … 1024 MiB against DDP's default of 25 MiB,
//! PyTorch's `bucket_cap_mb`).

use crate::core::step::report::Report;
use crate::core::step::spans::CommKind;
use crate::core::step::strategies::{tuner_point, Tuner, TunerPoint};
use crate::core::step::{Sharding, StepOptions};
use crate::core::units::{format_binary, format_time};
use crate::params::step::StepParams;

use super::Key;

/// The time-to-quality run's key for the report `r` of `p`: the lab's
/// parameters, each strategy's clock (all-reduce SGD's is the step shown:
/// DDP's, or ZeRO-2's or FSDP's, the same updates so the same losses step
/// by step) and the target.
pub fn quality_key(r: &Report, p: &StepParams) -> Key {
    let local = r.local_straggler.unwrap_or(r.local);
    let shown = r.shown_or_ddp().0;
    (
        p.lab_params(),
        [
            (shown.run.step_time.to_bits(), None),
            (
                r.gossip
                    .as_ref()
                    .map_or(f64::NAN, |g| g.step_time())
                    .to_bits(),
                None,
            ),
            (
                local.compute.to_bits(),
                p.h.map(|h| (h, local.allreduce.to_bits())),
            ),
        ],
        p.target.map(f64::to_bits),
    )
}

/// Above the run: whose workers the steps and the seconds come from (`m`
/// the lab's workers).
pub fn quality_counts(m: usize, p: &StepParams) -> String {
    if m == p.p {
        format!("The lab's {m} workers are this view's p = {} ranks.", p.p)
    } else {
        format!(
            "Steps and losses come from the SGD lab's problem with its m = {m} workers (shards=); seconds per step come from this view's p = {} ranks.",
            p.p
        )
    }
}

/// Under `#quality`: what h does in the lab.
pub const QUALITY_FOOT: &str =
    "The lab's local SGD averages the models every h steps (h=, as here); without h it never communicates.";

/// The step of `p` under `mode` with the bucket cap `cap` (bytes).
///
/// # Errors
/// The case's or the step model's message.
pub fn tuner_at(p: &StepParams, mode: Sharding, cap: u64) -> Result<TunerPoint, String> {
    let case = p.case()?;
    let mut net = case.net.clone();
    let opts = StepOptions {
        sharding: mode,
        ..case.opts
    };
    tuner_point(&case.model, &mut net, &opts, cap).map_err(|e| e.to_string())
}

/// The tuner's verdict: the best cap against DDP's default.
pub fn tuner_verdict(t: &Tuner) -> String {
    let best = t.points[t.best];
    let def = t.points[t.default];
    if t.best == t.default {
        format!(
            "DDP's default of 25 MiB is already the best cap here ({}).",
            format_time(def.step_time)
        )
    } else {
        format!(
            "Best cap {}: {} a step ({} buckets), {} less than DDP's default 25 MiB ({}, {} buckets).",
            format_binary(best.cap as f64),
            format_time(best.step_time),
            best.buckets,
            format_time(t.saving()),
            format_time(def.step_time),
            def.buckets
        )
    }
}

/// FSDP's tuner: the cap plays no part (`t` its step, seconds).
pub fn tuner_fixed(t: f64) -> String {
    format!(
        "FSDP communicates layer by layer, so the bucket cap plays no part: {} at every cap.",
        format_time(t)
    )
}

/// The tuner's progress line: `n` of `of` caps timed.
pub fn tuner_progress(n: usize, of: usize) -> String {
    format!("Timing the step at {of} caps: {n} of {of} done …")
}

/// Under the tuner: the trade-off, for the collective `mode` buckets.
pub fn tuner_foot(mode: Sharding) -> String {
    format!(
        "Small buckets start early but pay the {c}'s start-ups many times; large buckets start late and \
         leave the last {c} exposed. The first bucket keeps its own cap (first=).",
        c = mode.bucket_kind().map_or("all-reduce", CommKind::label)
    )
}

/// ZeRO-2's tuner: what it times.
pub const TUNER_ZERO2: &str =
    "Timing ZeRO-2's step: its buckets are reduce-scattered as DDP's are all-reduced, then one all-gather follows.";
