//! `?view=timeline`: what the timeline page shows around its clocks (the
//! clocks themselves are [`crate::pages::common::clocks`], shared with the
//! trace page): the cursor as the URL writes it, the notes under the
//! charts, the link to the trace page of the case, and the pipelining
//! panel's job and comparison line
//! ([`crate::core::collectives::pipelining`]).

#[cfg(test)]
mod tests;

use crate::core::collectives::pipelining::{Case, Comparison, ComparisonJob, Sweep};
use crate::core::cost::CostParams;
use crate::core::timing::clock::{Faults, Mode};
use crate::core::units::{decimal, format_input_time, format_time};
use crate::pages::common::clocks::Runs;
use crate::params::encode;
use crate::params::ring::ELEM_BYTES;
use crate::params::timeline::TimelineParams;
use crate::params::trace::TraceParams;

/// A cursor time as the URL writes it: "5ms", "12.5us".
pub fn cursor_text(t: f64) -> String {
    format_input_time(t).replace(' ', "").replace('µ', "u")
}

/// Notes under the charts: grouping and merging, from the core's flags;
/// above `tooltip_rows_max` rows the bars carry no tooltips.
pub fn chart_notes(r: &Runs, tooltip_rows_max: usize) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(g) = r.runs.first().and_then(|x| x.gantt.group) {
        v.push(format!(
            "Above 64 ranks each row is a group of {g} ranks, shaded by its busy share over time."
        ));
    }
    if r.runs
        .first()
        .is_some_and(|x| x.gantt.rows.len() > tooltip_rows_max)
    {
        v.push(format!(
            "Above {} rows the bars have no tooltips; the per-rank table and the CSV downloads hold their times.",
            tooltip_rows_max
        ));
    }
    if r.runs.iter().any(|x| x.gantt.merged_pieces) {
        v.push("The pieces of one rank-round are drawn as one bar.".into());
    }
    if r.runs.iter().any(|x| x.gantt.merged_rounds) {
        v.push(
            "Touching bars of one kind on a rank are merged across rounds to keep the chart light."
                .into(),
        );
    }
    v
}

/// The faults in words: "rank 2 starting 5.000 ms late", "rank 3 at 0.5×
/// the bandwidth", "rank 1 failing at 2.000 ms", joined with "and".
pub fn faults_text(f: &Faults) -> String {
    let late = f
        .late
        .iter()
        .map(|&(r, t)| format!("rank {r} starting {} late", format_time(t)));
    let slow = f.slow.iter().map(|&(r, x)| {
        // 0 < x ≤ 1: three decimals, trailing zeros dropped (not
        // decimal::shortest, which links the float parser: 8 KB).
        let f = decimal::fixed(x, 3);
        let f = f.trim_end_matches('0').trim_end_matches('.');
        format!("rank {r} at {f}× the bandwidth")
    });
    let fail = f
        .fail
        .iter()
        .map(|&(r, t)| format!("rank {r} failing at {}", format_time(t)));
    late.chain(slow)
        .chain(fail)
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The page's headline when a rank is late, slow or failed: the same case
/// with every rank healthy against this one, on the first clock shown.
/// "Every rank healthy: 12.00 ms. With rank 2 starting 5.000 ms late:
/// 17.00 ms, 1.42× as long (dataflow clock)." `None` without faults (or
/// when the healthy clock does not complete).
pub fn fault_headline(r: &Runs) -> Option<String> {
    if r.faults.is_empty() {
        return None;
    }
    let run = r.runs.first()?;
    let healthy = run.healthy?;
    let with = faults_text(&r.faults);
    // Not label().to_lowercase(): that links Unicode's case tables (8 KB).
    let clock = match run.mode {
        Mode::Dataflow => "dataflow",
        Mode::LockStep => "lock-step",
    };
    Some(match run.totals.time {
        Some(t) => format!(
            "Every rank healthy: {}. With {with}: {}, {}× as long ({clock} clock).",
            format_time(healthy),
            format_time(t),
            decimal::fixed(t / healthy.max(f64::MIN_POSITIVE), 2)
        ),
        None => format!(
            "Every rank healthy: {}. With {with}: the collective never completes; it stops at {} ({clock} clock).",
            format_time(healthy),
            format_time(run.clock.end)
        ),
    })
}

/// The words of [`trace_link`]: the trace page models a run without
/// faults, so with late, slow or failed ranks the link says so. `None` for
/// an algorithm the runner does not run ([`crate::core::collectives::Algorithm::runner_runs`]: the
/// all-to-alls), whose trace the trace page would refuse.
pub fn trace_link_text(p: &TimelineParams) -> Option<&'static str> {
    if !p.alg.runner_runs() {
        None
    } else if p.faults().is_empty() {
        Some("Measured this case with the MPI runner? Open its trace beside the model")
    } else {
        Some("Measured this case with the MPI runner? Open its trace beside the model (the trace page models it without the late, slow or failed ranks)")
    }
}

/// The trace view of this case (`?view=trace&…`).
pub fn trace_link(p: &TimelineParams) -> String {
    let mut pairs = vec![("view", "trace".to_string())];
    pairs.extend(TraceParams(p.clone()).to_pairs());
    format!("?{}", encode(&pairs))
}

/// One sweep's best: "ring 1.2 ms (k = 4)", or that it does not complete.
pub fn best_text(s: &Sweep) -> String {
    match s.best {
        Some((k, t)) => format!("{} {} (k = {k})", s.alg.short_label(), format_time(t)),
        None => format!("{} — (does not complete)", s.alg.short_label()),
    }
}

/// The basic tree's closed form against each compared sweep at its best k.
pub fn comparison_line(c: &Comparison) -> String {
    let mut parts = vec![format!(
        "basic tree formula 2⌈log₂p⌉(α + nβ): {}",
        format_time(c.tree_formula)
    )];
    parts.extend(c.sweeps.iter().map(best_text));
    parts.extend(
        c.missing
            .iter()
            .map(|k| format!("{k}: not in this build's registry")),
    );
    format!("{} (dataflow, each at its best k).", parts.join("; "))
}

/// The job of the case: the compared sweeps and the case's own.
pub fn job(p: &TimelineParams) -> ComparisonJob {
    let topo = p.topology();
    let faults = p.faults();
    let case = Case {
        topo: &topo,
        n: p.elements().max(1),
        elem_bytes: ELEM_BYTES,
        gamma: p.gamma.value,
        faults: &faults,
    };
    let link = p.flat_link();
    let c = CostParams::new(link.alpha, link.beta()).with_gamma(p.gamma.value);
    ComparisonJob::new(&case, c, Some(p.alg))
}
