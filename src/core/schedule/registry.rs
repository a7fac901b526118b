//! One entry point for every collective generator, keyed by the `alg` URL
//! values `ring`, `tree`, `rd`, `rh`, `rab`, `naive`, `rs`, `ag`.

use std::fmt;

use super::naive::naive_root;
use super::recursive::{rabenseifner, recursive_doubling, recursive_halving_reduce_scatter};
use super::ring::{ring_all_gather, ring_all_reduce, ring_reduce_scatter};
use super::tree::binomial_tree;
use super::{Phase, Schedule, ScheduleError};
use crate::core::cost::{self, executed_time, CostParams, Formula};
use crate::core::execute::{default_init, execute, ExecOptions};
use crate::core::units::group_thousands;

/// A collective algorithm the app can generate and animate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Ring all-reduce: ring reduce-scatter + ring all-gather.
    Ring,
    /// Binomial-tree reduce to rank 0, then binomial broadcast.
    Tree,
    /// Recursive doubling all-reduce (full-buffer exchanges).
    RecursiveDoubling,
    /// Recursive halving reduce-scatter.
    RecursiveHalving,
    /// Rabenseifner all-reduce: recursive halving + recursive doubling all-gather.
    Rabenseifner,
    /// Naive root all-reduce (everything through rank 0).
    NaiveRoot,
    /// Ring reduce-scatter on its own.
    ReduceScatter,
    /// Ring all-gather on its own.
    AllGather,
}

impl Algorithm {
    /// Every algorithm, in the order the summary table lists them.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Ring,
        Algorithm::Tree,
        Algorithm::RecursiveDoubling,
        Algorithm::RecursiveHalving,
        Algorithm::Rabenseifner,
        Algorithm::NaiveRoot,
        Algorithm::ReduceScatter,
        Algorithm::AllGather,
    ];

    /// The `alg` URL value.
    pub fn short(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Tree => "tree",
            Algorithm::RecursiveDoubling => "rd",
            Algorithm::RecursiveHalving => "rh",
            Algorithm::Rabenseifner => "rab",
            Algorithm::NaiveRoot => "naive",
            Algorithm::ReduceScatter => "rs",
            Algorithm::AllGather => "ag",
        }
    }

    /// Parses an `alg` URL value (case-insensitive, surrounding blanks ignored).
    pub fn from_short(s: &str) -> Option<Algorithm> {
        let s = s.trim().to_ascii_lowercase();
        Algorithm::ALL.into_iter().find(|a| a.short() == s)
    }

    /// Human name, e.g. "Rabenseifner all-reduce".
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring all-reduce",
            Algorithm::Tree => "binomial tree reduce + broadcast",
            Algorithm::RecursiveDoubling => "recursive doubling all-reduce",
            Algorithm::RecursiveHalving => "recursive halving reduce-scatter",
            Algorithm::Rabenseifner => "Rabenseifner all-reduce",
            Algorithm::NaiveRoot => "naive root all-reduce",
            Algorithm::ReduceScatter => "ring reduce-scatter",
            Algorithm::AllGather => "ring all-gather",
        }
    }

    /// The collective computed: "all-reduce", "reduce-scatter" or "all-gather".
    pub fn collective_name(self) -> &'static str {
        match self {
            Algorithm::RecursiveHalving | Algorithm::ReduceScatter => "reduce-scatter",
            Algorithm::AllGather => "all-gather",
            _ => "all-reduce",
        }
    }

    /// True for the algorithms that compute a full all-reduce.
    pub fn is_all_reduce(self) -> bool {
        self.collective_name() == "all-reduce"
    }

    /// How a phase of this algorithm proceeds, e.g. "by recursive halving",
    /// for labels such as "reduce-scatter by recursive halving, round 2 of 3".
    /// Empty when the phase name says it all.
    pub fn method(self, phase: Phase) -> &'static str {
        match (self, phase) {
            (_, Phase::FoldIn | Phase::FoldOut) => "",
            (Algorithm::Ring | Algorithm::ReduceScatter | Algorithm::AllGather, _) => {
                "around the ring"
            }
            (Algorithm::Tree, _) => "along a binomial tree",
            (Algorithm::NaiveRoot, _) => "through root 0",
            (Algorithm::RecursiveDoubling, _) => "by recursive doubling",
            (_, Phase::ReduceScatter) => "by recursive halving",
            (_, Phase::AllGather) => "by recursive doubling",
            _ => "",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Generates the schedule of `alg` for `p` ranks and `n` elements of
/// `elem_bytes` bytes. Any `p ≥ 2` works (non-powers of two fold as in
/// MPICH, Thakur, Rabenseifner & Gropp 2005 §4) and any `n ≥ 1`, including
/// `n < p` (some chunks are then empty).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn generate(
    alg: Algorithm,
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    match alg {
        Algorithm::Ring => ring_all_reduce(p, n, elem_bytes),
        Algorithm::Tree => binomial_tree(p, n, elem_bytes),
        Algorithm::RecursiveDoubling => recursive_doubling(p, n, elem_bytes),
        Algorithm::RecursiveHalving => recursive_halving_reduce_scatter(p, n, elem_bytes),
        Algorithm::Rabenseifner => rabenseifner(p, n, elem_bytes),
        Algorithm::NaiveRoot => naive_root(p, n, elem_bytes),
        Algorithm::ReduceScatter => ring_reduce_scatter(p, n, elem_bytes).map(|s| Schedule {
            algorithm: "rs",
            ..s
        }),
        Algorithm::AllGather => ring_all_gather(p, n, elem_bytes).map(|s| Schedule {
            algorithm: "ag",
            ..s
        }),
    }
}

/// Full label of round `i` of a schedule made by `alg`, e.g.
/// "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2".
/// Empty when `i` is out of range.
pub fn round_title(alg: Algorithm, schedule: &Schedule, i: usize) -> String {
    let (Some(round), Some((k, of))) = (schedule.rounds.get(i), schedule.position_in_phase(i))
    else {
        return String::new();
    };
    let method = alg.method(round.phase);
    let head = if method.is_empty() {
        round.phase.label().to_string()
    } else {
        format!("{} {method}", round.phase.label())
    };
    if round.note.is_empty() {
        format!("{head}, round {k} of {of}")
    } else {
        format!("{head}, round {k} of {of}: {}", round.note)
    }
}

/// The cost model's closed form for `alg` at `p` ranks and `n_bytes` bytes
/// (see [`crate::core::cost`] for each formula and its source). For
/// non-powers of two the recursive algorithms use the labelled adaptation
/// ([`Formula::pow2_adapted`]).
pub fn closed_form(alg: Algorithm, p: usize, n_bytes: f64, c: CostParams) -> Formula {
    match alg {
        Algorithm::Ring => cost::ring_allreduce(p, n_bytes, c),
        Algorithm::Tree => cost::binomial_tree_allreduce(p, n_bytes, c),
        Algorithm::RecursiveDoubling => cost::recursive_doubling_allreduce(p, n_bytes, c),
        Algorithm::RecursiveHalving => cost::recursive_halving_reduce_scatter(p, n_bytes, c),
        Algorithm::Rabenseifner => cost::rabenseifner_allreduce(p, n_bytes, c),
        Algorithm::NaiveRoot => cost::naive_root_allreduce(p, n_bytes, c),
        Algorithm::ReduceScatter => cost::ring_reduce_scatter(p, n_bytes, c),
        Algorithm::AllGather => cost::ring_all_gather(p, n_bytes, c),
    }
}

/// One row of the comparison table: what an executed schedule costs, beside
/// the closed form.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgorithmSummary {
    /// The algorithm.
    pub alg: Algorithm,
    /// Number of rounds of the schedule.
    pub rounds: usize,
    /// Largest number of bytes any one rank sends.
    pub max_sent_bytes: u64,
    /// Largest number of bytes any one rank receives.
    pub max_recv_bytes: u64,
    /// α–β time of the executed schedule (each round costs the max over its
    /// transfers of α + bytes·β; [`crate::core::cost::executed_time`]), seconds.
    pub executed_time: f64,
    /// The cost model's closed form at the same `p` and size.
    pub closed_form: Formula,
    /// True when the executed result equals the element-wise reduction.
    pub verified: bool,
    /// Why the executed time differs from the closed form, when it does.
    pub difference: Option<String>,
}

impl AlgorithmSummary {
    /// True when the executed time equals the closed form (relative 1e-9).
    pub fn agrees(&self) -> bool {
        times_agree(self.executed_time, self.closed_form.time)
    }
}

/// True when two times in seconds agree to a relative 1e-9 (or both are 0).
pub fn times_agree(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-30)
}

/// Explains why an executed schedule's time can differ from the closed form,
/// or `None` when the two are expected to agree exactly: every chunk (of `p`
/// ring chunks, or of the `p'` Rabenseifner blocks) equal and non-empty. The
/// closed forms include the labelled non-power-of-two adaptation, which the
/// generators follow exactly.
pub fn expected_difference(alg: Algorithm, p: usize, n: u64) -> Option<String> {
    let pp = super::recursive::Fold::new(p).core;
    let parts = match alg {
        Algorithm::Rabenseifner => pp,
        Algorithm::Tree | Algorithm::NaiveRoot | Algorithm::RecursiveDoubling => 1,
        _ => p,
    };
    if n < parts as u64 {
        return Some(format!(
            "n = {} elements < {parts} chunks: some chunks are empty, their messages still pay α, \
             and the other chunks are larger than n/{parts}",
            group_thousands(n)
        ));
    }
    if !n.is_multiple_of(parts as u64) {
        return Some(format!(
            "n = {} elements does not divide into {parts} equal chunks: the larger chunks set each round's time",
            group_thousands(n)
        ));
    }
    None
}

/// Generates, executes and costs `alg` at `p` ranks and `n` elements of
/// `elem_bytes` bytes, with α and β from `c` (γ is ignored, as in
/// [`executed_time`]).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summarize(
    alg: Algorithm,
    p: usize,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<AlgorithmSummary, ScheduleError> {
    let s = generate(alg, p, n, elem_bytes)?;
    let mut sent = vec![0u64; p];
    let mut recv = vec![0u64; p];
    for t in s.rounds.iter().flat_map(|r| &r.transfers) {
        sent[t.src] += t.len() * elem_bytes;
        recv[t.dst] += t.len() * elem_bytes;
    }
    let verified = execute(&s, &default_init, ExecOptions { keep_states: false })
        .is_ok_and(|t| t.verification.ok());
    let executed = executed_time(&s, c.alpha, c.beta);
    let closed = closed_form(
        alg,
        p,
        s.total_bytes() as f64,
        CostParams::new(c.alpha, c.beta),
    );
    let difference = if times_agree(executed, closed.time) {
        None
    } else {
        Some(expected_difference(alg, p, n).unwrap_or_else(|| {
            "unexpected: the executed schedule and the closed form disagree".into()
        }))
    };
    Ok(AlgorithmSummary {
        alg,
        rounds: s.num_rounds(),
        max_sent_bytes: sent.iter().copied().max().unwrap_or(0),
        max_recv_bytes: recv.iter().copied().max().unwrap_or(0),
        executed_time: executed,
        closed_form: closed,
        verified,
        difference,
    })
}

/// [`summarize`] for every algorithm in [`Algorithm::ALL`] order.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summary_table(
    p: usize,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<Vec<AlgorithmSummary>, ScheduleError> {
    Algorithm::ALL
        .iter()
        .map(|&a| summarize(a, p, n, elem_bytes, c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_round_trip() {
        let shorts: Vec<_> = Algorithm::ALL.iter().map(|a| a.short()).collect();
        assert_eq!(
            shorts,
            ["ring", "tree", "rd", "rh", "rab", "naive", "rs", "ag"]
        );
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_short(a.short()), Some(a));
        }
        assert_eq!(
            Algorithm::from_short(" RAB "),
            Some(Algorithm::Rabenseifner)
        );
        assert_eq!(Algorithm::from_short("bogus"), None);
    }

    #[test]
    fn titles_name_the_method_and_partner() {
        let s = generate(Algorithm::Rabenseifner, 8, 64, 4).expect("valid");
        assert_eq!(
            round_title(Algorithm::Rabenseifner, &s, 1),
            "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2"
        );
        assert_eq!(
            round_title(Algorithm::Rabenseifner, &s, 3),
            "all-gather by recursive doubling, round 1 of 3: partner = rank XOR 1"
        );
        assert_eq!(round_title(Algorithm::Rabenseifner, &s, 6), "");
        let s = generate(Algorithm::RecursiveDoubling, 6, 64, 4).expect("valid");
        assert!(round_title(Algorithm::RecursiveDoubling, &s, 0).starts_with("fold-in"));
        assert!(round_title(Algorithm::RecursiveDoubling, &s, 3).starts_with("unfold"));
    }

    #[test]
    fn every_algorithm_rejects_one_rank() {
        for a in Algorithm::ALL {
            assert_eq!(generate(a, 1, 8, 4), Err(ScheduleError::TooFewRanks(1)));
        }
    }
}
