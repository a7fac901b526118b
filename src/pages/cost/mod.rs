//! `?view=cost`: what the cost page shows beyond the core's tables. The
//! line of units under the controls ([`units_line`]), the preset's caveat
//! ([`preset_note`]), and the protocol panels as rows and sentences
//! ([`protocol`]): MPI's eager/rendezvous rule (Open MPI's defaults, see
//! [`crate::core::cost::protocol`]) and NCCL's tuning model
//! ([`crate::core::cost::nccl_tune`], a port of NCCL's `src/graph/tuning.cc`),
//! and the all-to-all panel ([`all_to_all`]).

pub mod all_to_all;
pub mod protocol;

#[cfg(test)]
mod tests;

use crate::core::collectives::compare::{
    best_at, best_of, crossover, crossover_calculation, Interval,
};
use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::units::{
    bandwidth_chain, capitalise, decimal, format_beta, format_binary, format_both, format_size,
    format_time,
};
use crate::params::cost::{CostViewParams, Link};
use crate::params::protocol::ProtoChoice;

/// The units line: "p = 16; α = 5 µs; 100 Gb/s = 12.5 GB/s → β = 80 ps/B;
/// n = 8,192 B (8 KiB, 8.192 kB)", then γ when it is not 0, then the
/// protocol layer when one is chosen.
pub fn units_line(params: &CostViewParams) -> String {
    let model = params.model();
    let link = match &params.link {
        Link::Bandwidth(b) => bandwidth_chain(&b.value),
        Link::Beta(b) => format!("β = {} (given directly)", format_beta(b.value)),
    };
    let mut line = format!(
        "p = {}; α = {}; {link}; n = {}",
        params.p,
        format_time(model.alpha),
        format_size(params.size.value.bytes)
    );
    if model.gamma != 0.0 {
        line.push_str(&format!("; γ = {}", format_beta(model.gamma)));
    }
    let proto = &params.proto;
    match proto.choice {
        ProtoChoice::None => {}
        ProtoChoice::Mpi => line.push_str(&format!(
            "; MPI protocol: eager below {}",
            format_binary(proto.eager.value.bytes as f64)
        )),
        ProtoChoice::Nccl => line.push_str(&format!(
            "; NCCL {} model, {} node(s)",
            proto.nccl.version.tag(),
            proto.nccl.nodes.min(params.p)
        )),
    }
    line
}

/// The caveat under a preset's numbers (`None` without `preset=`).
pub fn preset_note(params: &CostViewParams) -> Option<String> {
    params.preset.map(|pr| {
        format!(
            "Preset: {}. These are round illustrative numbers for a link class, not measurements of a product.",
            pr.label()
        )
    })
}

/// Why the fastest algorithm wins at n, in one sentence: it is set against
/// the runner-up (the second fastest), on the term where they differ in
/// its favour. "At 8.192 kB (8 KiB) the start-ups decide: recursive
/// doubling pays 4α = 20.00 µs against Rabenseifner's 8α = 40.00 µs,
/// while their byte terms are 2.621 µs and 1.229 µs." `None` with fewer
/// than two rows. The terms are those of [`crate::core::cost::formulas`]
/// (Thakur, Rabenseifner & Gropp 2005).
pub fn why_fastest(table: &[(Algorithm, Formula)], n: f64) -> Option<String> {
    let mut rows: Vec<&(Algorithm, Formula)> = table.iter().collect();
    crate::core::order::sort_by_f64(&mut rows, |(_, f)| f.time);
    let [(w, fw), (r, fr), ..] = rows.as_slice() else {
        return None;
    };
    let (wn, rn) = (w.short_label(), r.short_label());
    let ups = |f: &Formula| {
        format!(
            "{}α = {}",
            decimal::fixed(f.startups, 0),
            format_time(f.alpha_part)
        )
    };
    let at = format_both(n);
    let sentence = if fw.alpha_part < fr.alpha_part && fw.beta_part >= fr.beta_part {
        format!(
            "at {at} the start-ups decide: {wn} pays {} against {rn}'s {}, while their byte terms are {} and {}.",
            ups(fw),
            ups(fr),
            format_time(fw.beta_part),
            format_time(fr.beta_part)
        )
    } else if fw.beta_part + fw.gamma_part < fr.beta_part + fr.gamma_part
        && fw.alpha_part >= fr.alpha_part
    {
        format!(
            "at {at} the bytes decide: {wn}'s byte term is {} against {rn}'s {}, while their start-ups cost {} and {}.",
            format_time(fw.beta_part + fw.gamma_part),
            format_time(fr.beta_part + fr.gamma_part),
            format_time(fw.alpha_part),
            format_time(fr.alpha_part)
        )
    } else {
        format!(
            "at {at} {wn} has no more start-ups ({}) and no more bytes ({}) than {rn} ({} and {}).",
            ups(fw),
            format_time(fw.beta_part + fw.gamma_part),
            ups(fr),
            format_time(fr.beta_part + fr.gamma_part)
        )
    };
    Some(capitalise(&sentence))
}

/// The crossover that `cross=A,B` asks about: the break-even sentence, its
/// written-out calculation, and whether either of the two is ever the
/// fastest of all on these parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PairCrossover {
    /// "Ring and recursive doubling break even at 2.2 MB (2.098 MiB):
    /// recursive doubling is faster below, the ring above." (or that they
    /// never cross, and which one is always faster).
    pub text: String,
    /// The solved equation, line by line (empty when they never cross).
    pub calculation: Vec<String>,
    /// Said when the faster one above the crossover is never the fastest of
    /// all: which one beats it there, and that the table's ranges hold no
    /// range of its own.
    pub never_fastest: Option<String>,
}

/// The pair crossover of `params.cross` at `params.p` under the α–β model,
/// from the closed forms of [`crate::core::collectives::compare`]
/// (`intervals`: the fastest algorithm on each range of n, from
/// `best_intervals`). `None` without `cross=`.
pub fn pair_crossover(params: &CostViewParams, intervals: &[Interval]) -> Option<PairCrossover> {
    let (a, b) = params.cross?;
    let (p, model) = (params.p, params.model());
    let name = |x: Algorithm| x.short_label();
    let Some(x) = crossover(a, b, p, model) else {
        // Parallel lines or a crossing at n ≤ 0: one is faster at every size.
        let faster = best_of(&[(a, a.line(p, model)), (b, b.line(p, model))], 1.0).unwrap_or(a);
        let slower = if faster == a { b } else { a };
        return Some(PairCrossover {
            text: capitalise(&format!(
                "{} and {} never break even at p = {p}: {} is faster at every size.",
                name(a),
                name(b),
                name(faster)
            )),
            calculation: Vec::new(),
            never_fastest: never(slower, intervals, params, 1.0),
        });
    };
    let text = capitalise(&format!(
        "{} and {} break even at {}, both {}: {} is faster below, {} above.",
        name(a),
        name(b),
        format_both(x.n_bytes),
        format_time(x.time),
        name(x.below),
        name(x.above)
    ));
    Some(PairCrossover {
        text,
        calculation: crossover_calculation(a, b, p, model).unwrap_or_default(),
        never_fastest: never(x.above, intervals, params, 2.0 * x.n_bytes),
    })
}

/// The sentence that `alg` is never the fastest of all (`None` when some
/// range of `intervals` is its own), naming the one that beats it at `n`.
fn never(
    alg: Algorithm,
    intervals: &[Interval],
    params: &CostViewParams,
    n: f64,
) -> Option<String> {
    if intervals.iter().any(|iv| iv.best == alg) {
        return None;
    }
    let there = best_at(params.p, n, params.model());
    Some(format!(
        "In this model {} is never the fastest of all at these parameters: at {}, for one, {} is faster still, and no range above is its own.",
        alg.short_label(),
        format_both(n),
        there.short_label()
    ))
}
