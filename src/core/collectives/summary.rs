//! The comparison of an executed schedule with its closed form: one
//! [`AlgorithmSummary`] per algorithm, the agreement rule ([`ShownTimes`])
//! and the reason a time may differ ([`expected_difference`]).

use super::shapes::flat;
use super::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::CostParams;
use crate::core::execute::{default_init, execute, ExecOptions};
use crate::core::schedule::ScheduleError;
use crate::core::timing::executed_time;
use crate::core::topology::Topology;
use crate::core::units::{format_signed_time, format_time, format_time_sig, group_thousands};

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
    /// transfers of α + bytes·β; [`crate::core::timing::executed_time`]), seconds.
    pub executed_time: f64,
    /// The cost model's closed form at the same topology and size.
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

    /// True when the executed time and the closed form agree to the 4
    /// significant digits the views show: within the relative
    /// [`SHOWN_AGREEMENT`] (5·10⁻⁵), the rule of the ✓ in
    /// [`ShownTimes`]. Chunks that differ by one element add such a
    /// sub-nanosecond gap; [`Self::agrees`] implies this.
    pub fn agrees_to_shown_digits(&self) -> bool {
        times_within(self.executed_time, self.closed_form.time, SHOWN_AGREEMENT)
    }

    /// The executed time and the closed form as the views print them, with
    /// the verdict ([`ShownTimes::new`]).
    pub fn shown(&self) -> ShownTimes {
        ShownTimes::new(self.executed_time, self.closed_form.time)
    }

    /// The executed time minus the closed form, seconds.
    pub fn excess(&self) -> f64 {
        self.executed_time - self.closed_form.time
    }
}

/// True when two times in seconds agree to a relative 1e-9 (or both are 0).
pub fn times_agree(a: f64, b: f64) -> bool {
    times_within(a, b, 1e-9)
}

/// True when `|a − b| ≤ rel · max(|a|, |b|)` (or both are 0).
fn times_within(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-30)
}

/// The relative tolerance of the ✓ beside an executed time and its closed
/// form: 5·10⁻⁵, never more than half a unit in the 4th significant digit
/// (half a unit is 5·10⁻⁵ of a value whose digits are 9.999… and 5·10⁻⁴ of
/// one whose digits are 1.000…), so two times within it agree to the 4
/// digits [`crate::core::units::format_time`] shows.
pub const SHOWN_AGREEMENT: f64 = 5e-5;

/// How an executed time compares with its closed form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeAgreement {
    /// Equal up to floating-point error (relative 10⁻⁹, [`times_agree`]).
    Equal,
    /// Not equal, but within the relative [`SHOWN_AGREEMENT`]: the same to
    /// the 4 digits shown (e.g. chunks that differ by one element).
    ToShownDigits,
    /// Further apart than [`SHOWN_AGREEMENT`].
    Differ,
}

/// An executed time and its closed form as the views print them, with the
/// verdict, so that the numbers and the verdict never contradict each other.
///
/// The rule, one relative tolerance everywhere: the two agree (✓) when
/// `|executed − closed| ≤ 5·10⁻⁵ · max(executed, closed)`
/// ([`SHOWN_AGREEMENT`]); the ✓ says "to 4 digits" with the exact gap
/// unless they are also equal up to floating-point error (relative 10⁻⁹).
///
/// - Agreeing times print the same digits on both sides: both show
///   [`format_time`] of the larger of the two. Two times within the
///   tolerance that round differently lie on either side of a 4-digit
///   rounding boundary (e.g. 35.875 ms computed as 35.87499… and
///   35.87500…), and the larger one rounds that boundary half up:
///   both show 35.88 ms.
/// - Times that differ print with the fewest significant digits (at least
///   4) at which they print differently, and the verdict gives the gap.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownTimes {
    /// The verdict.
    pub agreement: TimeAgreement,
    /// The executed time as shown.
    pub executed: String,
    /// The closed form as shown.
    pub closed_form: String,
    /// The executed time minus the closed form, signed
    /// ([`format_signed_time`]): "+0.3200 ns".
    pub gap: String,
}

impl ShownTimes {
    /// Compares `executed` with `closed` (seconds) by the rule above.
    pub fn new(executed: f64, closed: f64) -> Self {
        let agreement = if times_agree(executed, closed) {
            TimeAgreement::Equal
        } else if times_within(executed, closed, SHOWN_AGREEMENT) {
            TimeAgreement::ToShownDigits
        } else {
            TimeAgreement::Differ
        };
        let (executed_shown, closed_shown) = if agreement == TimeAgreement::Differ {
            (4..=17)
                .map(|d| (format_time_sig(executed, d), format_time_sig(closed, d)))
                .find(|(e, c)| e != c)
                .unwrap_or_else(|| (format_time(executed), format_time(closed)))
        } else {
            let both = format_time(executed.max(closed));
            (both.clone(), both)
        };
        ShownTimes {
            agreement,
            executed: executed_shown,
            closed_form: closed_shown,
            gap: format_signed_time(executed - closed),
        }
    }

    /// True for the ✓: within the relative [`SHOWN_AGREEMENT`].
    pub fn agrees(&self) -> bool {
        self.agreement != TimeAgreement::Differ
    }

    /// The verdict in a table cell: "✓", "✓ to 4 digits (+1.067 ns)" or
    /// "differs by +4.000 s".
    pub fn cell(&self) -> String {
        match self.agreement {
            TimeAgreement::Equal => "✓".into(),
            TimeAgreement::ToShownDigits => format!("✓ to 4 digits ({})", self.gap),
            TimeAgreement::Differ => format!("differs by {}", self.gap),
        }
    }

    /// The verdict as a sentence, ending in "Why: {why}" unless `why` is
    /// empty (the reason of [`AlgorithmSummary::difference`]).
    pub fn sentence(&self, why: &str) -> String {
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" Why: {why}")
        };
        match self.agreement {
            TimeAgreement::Equal => "✓ The executed schedule and the closed form agree.".into(),
            TimeAgreement::ToShownDigits => format!(
                "✓ Executed and closed form both show {}: they agree to 4 significant digits; \
                 the exact difference is {}.{why}",
                self.executed, self.gap
            ),
            TimeAgreement::Differ => format!(
                "≠ They differ by {}: executed {} vs closed form {}.{why}",
                self.gap, self.executed, self.closed_form
            ),
        }
    }
}

/// Explains why an executed schedule's time can differ from the closed form,
/// or `None` when the two are expected to agree exactly: every chunk (of
/// [`Algorithm::equal_parts`]) equal and non-empty. The closed
/// forms include the labelled non-power-of-two adaptation, which the
/// generators follow exactly.
pub fn expected_difference(alg: Algorithm, p: usize, n: u64) -> Option<String> {
    expected_difference_on(alg, &flat(p), n)
}

/// [`expected_difference`] on any topology.
pub fn expected_difference_on(alg: Algorithm, topo: &Topology, n: u64) -> Option<String> {
    let parts = alg.equal_parts(topo);
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

/// Generates, executes and costs `alg` at `p` ranks (flat topology) and `n`
/// elements of `elem_bytes` bytes, with α and β from `c` (γ is ignored, as in
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
    summarize_on(alg, &flat(p), n, elem_bytes, c)
}

/// [`summarize`] on any topology (the time is still the flat model's).
///
/// # Errors
/// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summarize_on(
    alg: Algorithm,
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<AlgorithmSummary, ScheduleError> {
    let s = alg.generate_on(topo, n, elem_bytes)?;
    let p = s.p;
    let mut sent = vec![0u64; p];
    let mut recv = vec![0u64; p];
    for t in s.rounds.iter().flat_map(|r| &r.transfers) {
        sent[t.src] += t.bytes(elem_bytes);
        recv[t.dst] += t.bytes(elem_bytes);
    }
    let verified = execute(&s, &default_init, ExecOptions { keep_states: false })
        .is_ok_and(|t| t.verification.ok());
    let executed = executed_time(&s, c.alpha, c.beta);
    let closed = alg.closed_form_on(
        topo,
        s.total_bytes() as f64,
        CostParams::new(c.alpha, c.beta),
    );
    let difference = if times_agree(executed, closed.time) {
        None
    } else {
        Some(expected_difference_on(alg, topo, n).unwrap_or_else(|| {
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

/// [`summarize`] for every flat algorithm (those that do not follow nodes),
/// in registry order.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summary_table(
    p: usize,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<Vec<AlgorithmSummary>, ScheduleError> {
    Algorithm::all()
        .filter(|a| !a.needs_nodes())
        .map(|a| summarize(a, p, n, elem_bytes, c))
        .collect()
}

/// [`summarize_on`] for every registered algorithm on `topo`, in registry order.
///
/// # Errors
/// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summary_table_on(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<Vec<AlgorithmSummary>, ScheduleError> {
    Algorithm::all()
        .map(|a| summarize_on(a, topo, n, elem_bytes, c))
        .collect()
}
