//! What the timeline and trace pages compute once per case (never per
//! cursor step): the clocks of the modes shown, their Gantt bars, the
//! fault-free baselines and the event times, all from the core.

use std::rc::Rc;

use super::shared::Shared;
use crate::core::collectives::Algorithm;
use crate::core::schedule::{Schedule, ScheduleError};
use crate::core::timing::clock::{Clock, ClockOptions, Faults, Mode};
use crate::core::timing::gantt::{event_times, gantt, Gantt};
use crate::core::timing::run;
use crate::core::timing::story::{totals, Totals};
use crate::core::topology::Topology;
use crate::params::ring::ELEM_BYTES;
use crate::params::timeline::TimelineParams;

/// One mode's clock and what is drawn from it.
#[derive(Debug)]
pub struct Run {
    /// Dataflow or lock-step.
    pub mode: Mode,
    /// The clock.
    pub clock: Clock,
    /// Its bars.
    pub gantt: Rc<Gantt>,
    /// Its whole-clock numbers.
    pub totals: Totals,
    /// The same case's finish with every rank healthy, seconds (`None`
    /// without faults, or when that clock does not complete).
    pub healthy: Option<f64>,
}

/// Every mode shown for one case.
#[derive(Debug)]
pub struct Runs {
    /// The algorithm.
    pub alg: Algorithm,
    /// One per mode shown, dataflow first.
    pub runs: Vec<Run>,
    /// The distinct event times of all of them, sorted.
    pub times: Vec<f64>,
    /// The longest clock, seconds (the shared axis).
    pub end: f64,
    /// Tensor bytes.
    pub bytes: u64,
    /// The faults of the case.
    pub faults: Faults,
}

/// The runs shared by a page and its panels, compared by identity (they
/// are large).
pub type SharedRuns = Shared<Runs>;

/// The case without its cursor: what the runs depend on.
pub fn case_key(p: &TimelineParams) -> TimelineParams {
    TimelineParams {
        t: TimelineParams::default().t,
        ..p.clone()
    }
}

/// How a page builds its schedule: [`Algorithm::generate_on`] (every
/// entry) or a narrower form that links fewer generators.
type Generate = fn(Algorithm, &Topology, u64, u64) -> Result<Schedule, ScheduleError>;

/// Runs every mode of `p` (see the module doc); any registry algorithm.
///
/// # Errors
/// The schedule's or the clock's message.
pub fn compute(p: &TimelineParams) -> Result<Runs, String> {
    compute_with(p, Algorithm::generate_on)
}

/// [`compute`] for a case the MPI runner can have traced
/// ([`Algorithm::runner_runs`]; the trace view), linking only those
/// algorithms' generators.
///
/// # Errors
/// As [`compute`], and the schedule's message for an algorithm the runner
/// does not run.
pub fn compute_runner_case(p: &TimelineParams) -> Result<Runs, String> {
    compute_with(p, Algorithm::generate_runner_case)
}

fn compute_with(p: &TimelineParams, generate: Generate) -> Result<Runs, String> {
    let topo = p.topology();
    let n = p.elements().max(1);
    let schedule = generate(p.alg, &topo, n, ELEM_BYTES)
        .map_err(|e| format!("Could not build the {} schedule here: {e:?}", p.alg.key()))?;
    let faults = p.faults();
    let bytes = schedule.total_bytes();
    let mut runs = Vec::new();
    for mode in p.mode.modes() {
        let opts = ClockOptions {
            segments: p.segments,
            gamma: p.gamma.value,
            faults: faults.clone(),
            ..ClockOptions::new(mode)
        };
        let clock = run(&schedule, &topo, &opts).map_err(|e| e.to_string())?;
        let baseline = if faults.is_empty() {
            None
        } else {
            let clean = ClockOptions {
                faults: Faults::default(),
                keep_events: false,
                ..opts
            };
            run(&schedule, &topo, &clean).ok()
        };
        let totals = totals(&clock, p.alg.collective(), bytes as f64, baseline.as_ref());
        let healthy = baseline.filter(Clock::completes).map(|b| b.end);
        runs.push(Run {
            mode,
            gantt: Rc::new(gantt(&clock)),
            clock,
            totals,
            healthy,
        });
    }
    let mut times: Vec<f64> = runs.iter().flat_map(|r| event_times(&r.clock)).collect();
    crate::core::order::sort_f64(&mut times);
    let end = runs.iter().map(|r| r.clock.end).fold(0.0, f64::max);
    let eps = 1e-12 + 1e-9 * end;
    times.dedup_by(|a, b| (*a - *b).abs() <= eps);
    Ok(Runs {
        alg: p.alg,
        runs,
        times,
        end,
        bytes,
        faults,
    })
}
