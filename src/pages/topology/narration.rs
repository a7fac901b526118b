//! The words of a step: the phase label (the core's round title, naming
//! the level) and the narration, read from the run.

use crate::core::schedule::Op;
use crate::core::topology::LinkClass;
use crate::core::topology_view::{find, TopoRun};
use crate::core::units::{format_bytes_short, format_time};

/// Phase label: the core's round title naming the level.
pub fn phase_label(run: &TopoRun, step: usize) -> String {
    match step.checked_sub(1) {
        None => format!("{}: initial buffers (before round 1)", run.label),
        Some(i) => run.titles.get(i).cloned().unwrap_or_default(),
    }
}

/// Narration: the round's title, what the receivers do, its transfers by
/// link class, the largest message, the round's executed time and how much
/// of the result is complete (all read from the run).
pub fn narration(run: &TopoRun, step: usize) -> String {
    let sched = run.schedule();
    let p = sched.p;
    let Some(i) = step.checked_sub(1) else {
        return format!(
            "Before any transfer each of the {p} ranks holds only its own tensor. {} does this: {}.",
            run.label,
            find(run.alg).map_or("", |a| a.summary)
        );
    };
    let Some(round) = sched.rounds.get(i) else {
        return String::new();
    };
    let classes = run.classes.get(i).map(Vec::as_slice).unwrap_or(&[]);
    let mut by = Vec::new();
    for c in [
        LinkClass::Flat,
        LinkClass::Intra,
        LinkClass::Nic,
        LinkClass::Core,
    ] {
        let k = classes.iter().filter(|x| **x == c).count();
        if k > 0 {
            by.push(format!("{k} over the {} link", c.label()));
        }
    }
    let reduces = round
        .transfers
        .iter()
        .filter(|t| t.op == Op::Reduce)
        .count();
    let what = if reduces == round.transfers.len() {
        "each receiver adds what arrives to its own copy"
    } else if reduces == 0 {
        "each receiver copies a finished range (no addition)"
    } else {
        "some receivers add, others copy finished ranges"
    };
    let largest = round.largest_bytes(sched.elem_bytes);
    let t = run.round_times.get(i).copied().unwrap_or(0.0);
    let done = run.trace.complete_sentence(step);
    format!(
        "{}: {what}. {} transfers at once ({}), the largest {}; the round lasts {} (its slowest message).{done}",
        run.titles.get(i).cloned().unwrap_or_default(),
        round.transfers.len(),
        by.join(", "),
        format_bytes_short(largest as f64),
        format_time(t)
    )
}
