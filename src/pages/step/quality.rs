//! `#quality`'s run key and counts line, and `#tuner` as plain data: the
//! time-to-quality run (the SGD lab's training run, each step turned into
//! seconds by this page's step times) and the bucket tuner's verdict (the
//! step time at caps of 1 … 1024 MiB against DDP's default of 25 MiB,
//! PyTorch's `bucket_cap_mb`).

use crate::core::sgd::Strategy;
use crate::core::step::quality::QualityRow;
use crate::core::step::report::Report;
use crate::core::step::spans::CommKind;
use crate::core::step::strategies::{tuner_point, Tuner, TunerPoint};
use crate::core::step::{Sharding, StepOptions};
use crate::core::units::{format_binary, format_time};
use crate::params::query::Query;
use crate::params::sgd::SgdParams;
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

// ----- The time-to-quality module's wire -----
//
// The run (the SGD lab's training problem, about 26 KB of the step page
// gzipped) happens in a module of its own (`modules/quality`), loaded when
// `#quality` first asks for it ([`crate::app::module`]). The page sends the
// run's key and gets the rows back as plain values: the lab's parameters as
// their canonical query (`SgdParams::to_pairs`) and the rest as numbers,
// which a JavaScript number carries exactly (every clock and target is an
// `f64`; every count is below 2⁵³).

/// Numbers per strategy's clock on the wire: seconds per step, h (NaN:
/// none) and the extra seconds every h-th step (NaN: none).
pub const CLOCK_WIRE: usize = 3;

/// The key `k` for the module: the lab's query and
/// [`CLOCK_WIRE`] × 3 clock numbers followed by the target (NaN: none).
pub fn key_to_wire(k: &Key) -> (String, Vec<f64>) {
    let query = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(k.0.to_pairs())
        .finish();
    let mut nums = Vec::with_capacity(3 * CLOCK_WIRE + 1);
    for (s, e) in k.1 {
        nums.push(f64::from_bits(s));
        match e {
            Some((h, x)) => nums.extend([h as f64, f64::from_bits(x)]),
            None => nums.extend([f64::NAN, f64::NAN]),
        }
    }
    nums.push(k.2.map_or(f64::NAN, f64::from_bits));
    (query, nums)
}

/// The key [`key_to_wire`] sent.
///
/// # Errors
/// A sentence when the query has a bad field (its message) or the numbers
/// are not 3 clocks and a target.
pub fn key_from_wire(query: &str, nums: &[f64]) -> Result<Key, String> {
    let (lab, errs) = SgdParams::from_query(&Query::parse(query), &SgdParams::default());
    if let Some(e) = errs.first() {
        return Err(format!(
            "The lab's parameters did not parse: {}: {}",
            e.field, e.message
        ));
    }
    if nums.len() != 3 * CLOCK_WIRE + 1 {
        return Err(format!(
            "Expected {} numbers (3 clocks and a target), got {}.",
            3 * CLOCK_WIRE + 1,
            nums.len()
        ));
    }
    let clock = |c: &[f64]| -> Result<(u64, Option<(usize, u64)>), String> {
        let every = if c[1].is_nan() {
            None
        } else if c[1] >= 1.0 && c[1].fract() == 0.0 && c[1] < 9.007_199_254_740_992e15 {
            Some((c[1] as usize, c[2].to_bits()))
        } else {
            return Err(format!("h must be a whole number of steps, got {}.", c[1]));
        };
        Ok((c[0].to_bits(), every))
    };
    let clocks = [
        clock(&nums[0..3])?,
        clock(&nums[3..6])?,
        clock(&nums[6..9])?,
    ];
    let target = Some(nums[9]).filter(|t| !t.is_nan()).map(f64::to_bits);
    Ok((lab, clocks, target))
}

/// The run's result on the wire: the optimal loss, the target, then per
/// row its strategy's index ([`Strategy::index`]), the steps to the target
/// (−1: not reached), its seconds (NaN: none), the number of points n and
/// n (seconds, loss) pairs.
pub fn computed_to_wire(c: &(f64, f64, Vec<QualityRow>)) -> Vec<f64> {
    let (opt, target, rows) = c;
    let mut v = vec![*opt, *target];
    for r in rows {
        v.push(r.strategy.index() as f64);
        v.push(r.steps_to_target.map_or(-1.0, |s| s as f64));
        v.push(r.seconds_to_target.unwrap_or(f64::NAN));
        v.push(r.points.len() as f64);
        for &(t, l) in &r.points {
            v.extend([t, l]);
        }
    }
    v
}

/// The result [`computed_to_wire`] laid out, or `None` when `v` is not one
/// (a short or malformed array).
pub fn computed_from_wire(v: &[f64]) -> Option<(f64, f64, Vec<QualityRow>)> {
    let whole = |x: f64| {
        (x >= 0.0 && x.fract() == 0.0 && x < 9.007_199_254_740_992e15).then_some(x as usize)
    };
    let (&opt, &target) = (v.first()?, v.get(1)?);
    let mut rows = Vec::new();
    let mut i = 2;
    while i < v.len() {
        let head = v.get(i..i + 4)?;
        let strategy = *Strategy::ALL.get(whole(head[0])?)?;
        let steps_to_target = if head[1] < 0.0 {
            None
        } else {
            Some(whole(head[1])?)
        };
        let seconds_to_target = Some(head[2]).filter(|s| !s.is_nan());
        let n = whole(head[3])?;
        let flat = v.get(i + 4..i + 4 + 2 * n)?;
        let points = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        rows.push(QualityRow {
            strategy,
            points,
            steps_to_target,
            seconds_to_target,
        });
        i += 4 + 2 * n;
    }
    Some((opt, target, rows))
}

/// What the module computes: the key from the wire, its run
/// ([`super::compute`]) and the result on the wire.
///
/// # Errors
/// [`key_from_wire`]'s or the training model's message.
pub fn run_wire(query: &str, nums: &[f64]) -> Result<Vec<f64>, String> {
    let key = key_from_wire(query, nums)?;
    super::compute(&key).map(|c| computed_to_wire(&c))
}
