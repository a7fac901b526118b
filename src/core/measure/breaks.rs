//! Names for a breakpoint: an MPI log's step near the library's eager limit
//! is the switch from eager to rendezvous sends
//! ([`crate::core::cost::protocol`]); an nccl-tests log's step near a size
//! where NCCL's own model changes its pick is a protocol (or algorithm)
//! switch ([`crate::core::cost::nccl_tune`]). "Near" is within a factor of
//! 2: a sweep that doubles its sizes cannot place a step more finely.

use crate::core::cost::nccl_tune::{Func, Tuning};
use crate::core::cost::protocol::OPEN_MPI_SM_EAGER;
use crate::core::units::{format_decimal, group_thousands};

/// The eager limit to compare with and where it comes from: the log's
/// annotation (`eager=`, the runner's `--eager-limit`), else Open MPI's
/// shared-memory default.
pub fn eager_limit(annotated: Option<u64>) -> (f64, &'static str) {
    match annotated {
        Some(b) => (b as f64, "the MPI library's, from the log's annotation"),
        None => (
            OPEN_MPI_SM_EAGER,
            "Open MPI's shared-memory default (btl_sm/vader_eager_limit)",
        ),
    }
}

fn bytes(b: f64) -> String {
    format!("{} B", group_thousands(b.round() as u64))
}

/// Names a breakpoint of message sizes between `lo` and `hi` bytes (the
/// regime fit's bracket or interval) when the eager limit lies within a
/// factor of 2 of it.
pub fn eager_break(lo: f64, hi: f64, eager: (f64, &str)) -> Option<String> {
    let (e, source) = eager;
    (e >= lo / 2.0 && e <= hi * 2.0).then(|| {
        format!(
            "eager → rendezvous: the eager limit of {} ({source}) lies within a factor of 2 of the breakpoint ({} – {} messages)",
            bytes(e),
            bytes(lo),
            bytes(hi)
        )
    })
}

/// Names a step of a single log between tensor sizes `lo` and `hi` bytes
/// whose algorithm sends messages of `shares` of the tensor: when one of
/// its messages crosses the eager limit there.
pub fn eager_size_break(lo: f64, hi: f64, shares: &[f64], eager: (f64, &str)) -> Option<String> {
    shares
        .iter()
        .filter(|&&s| s > 0.0)
        .find_map(|&s| eager_break(s * lo, s * hi, eager))
}

/// Names a step between tensor sizes `lo` and `hi` bytes of an nccl-tests
/// log of `f` when NCCL's model `t` changes its pick within a factor of 2
/// of it; `inputs` says where the model's inputs came from.
pub fn nccl_break(lo: f64, hi: f64, t: &Tuning, f: Func, inputs: &str) -> Option<String> {
    let a = (lo / 2.0).max(1.0) as u64;
    let b = (hi * 2.0) as u64;
    let switches = t.switches(f, a.max(1), b.max(a + 1));
    let (at, to) = switches.first()?;
    let from = t.pick(f, at.saturating_sub(1).max(1))?;
    let kind = if from.algo == to.algo {
        "protocol"
    } else {
        "algorithm"
    };
    Some(format!(
        "{kind} switch {from} → {to}: NCCL {}'s model changes its pick at {} for {} ranks on {} node(s) ({inputs})",
        t.inputs.version.tag(),
        format_decimal(*at as f64),
        t.inputs.ranks,
        t.inputs.nodes
    ))
}
