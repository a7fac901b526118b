//! The α–β(–γ) cost model of all-reduce: closed forms, their building blocks,
//! exact crossovers, nccl-tests bandwidths, and the time of an executed
//! schedule.
//!
//! # The model
//! Sending one message of `m` bytes between two ranks costs `α + m·β`
//! (Hockney's model as used by Thakur, Rabenseifner & Gropp 2005,
//! "Optimization of Collective Communication Operations in MPICH", IJHPCA
//! 19(1), §2):
//! - `α`: start-up latency per message, in seconds;
//! - `β`: transfer time per byte, in seconds per byte (the inverse of the
//!   usable byte bandwidth: 12.5 GB/s gives β = 0.08 ns/B);
//! - `γ`: reduction compute time per byte, in seconds per byte. Optional; it
//!   defaults to 0, as in the seed's worked examples.
//!
//! All formulas take the tensor size `n` in **bytes** (an `f64`, so sizes
//! above 2⁵³ B lose exactness but never panic) and return seconds.
//!
//! # Assumptions (for every closed form)
//! - A rank can send one message and receive one message at the same time
//!   (full duplex); messages of one round proceed in parallel without
//!   contention, so a round costs its slowest message.
//! - Chunks are equal: `n/p` bytes for ring and recursive-halving blocks. An
//!   executed schedule whose `n` does not divide by `p` has one extra element
//!   in some chunks and is slightly slower (see [`executed_time`]).
//! - Recursive doubling, recursive halving and Rabenseifner's algorithm are
//!   defined for `p` a power of two. For other `p` the published adaptation is
//!   used and **labelled** ([`Formula::pow2_adapted`]): with
//!   `p′ = 2^⌊log₂ p⌋` and `r = p − p′` extra ranks, each extra rank first
//!   folds its whole tensor into a partner inside the power-of-two subset (one
//!   full-message step, `α + nβ + nγ`), the algorithm runs on the `p′` ranks,
//!   and the partners finally hand the whole result back (one more full-message
//!   step, `α + nβ`). This is the MPICH scheme of Thakur et al. 2005, §4
//!   (their Rabenseifner variant folds in only half-messages; we charge whole
//!   messages, as the schedule generators of this crate do).
//! - The binomial tree is a basic, unpipelined reduce to a root followed by a
//!   broadcast; it needs `⌈log₂ p⌉` levels for any `p` and no adaptation.
//! - The naive root is serialised at the root: the root receives one full
//!   tensor at a time and sends one full tensor at a time.
//!
//! `p ≤ 1` gives zero cost everywhere (there is nothing to communicate).

use std::fmt;

use super::units;

/// Model constants: α (s), β (s/B) and γ (s/B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostParams {
    /// Start-up latency per message, seconds.
    pub alpha: f64,
    /// Transfer time per byte, seconds per byte.
    pub beta: f64,
    /// Reduction compute time per byte, seconds per byte (0 to ignore).
    pub gamma: f64,
}

impl CostParams {
    /// α and β with γ = 0.
    pub fn new(alpha: f64, beta: f64) -> Self {
        CostParams {
            alpha,
            beta,
            gamma: 0.0,
        }
    }

    /// The seed's §9 example: α = 5 µs, β = 0.08 ns/B (100 Gb/s), γ = 0.
    pub fn seed_example() -> Self {
        CostParams::new(5e-6, 0.08e-9)
    }

    /// The same parameters with reduction cost `gamma` (s/B).
    pub fn with_gamma(self, gamma: f64) -> Self {
        CostParams { gamma, ..self }
    }
}

/// The all-reduce algorithms of the cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// Ring reduce-scatter then ring all-gather.
    Ring,
    /// Binomial-tree reduce to a root, then binomial broadcast.
    Tree,
    /// Recursive doubling: full-buffer exchange with partner `rank XOR 2^k`.
    RecursiveDoubling,
    /// Rabenseifner: recursive-halving reduce-scatter, then recursive-doubling
    /// all-gather.
    Rabenseifner,
    /// Every rank sends to a root, which sends the result back, one message at
    /// a time.
    NaiveRoot,
}

impl Algorithm {
    /// All algorithms, in display order.
    pub fn all() -> [Algorithm; 5] {
        [
            Algorithm::Ring,
            Algorithm::Tree,
            Algorithm::RecursiveDoubling,
            Algorithm::Rabenseifner,
            Algorithm::NaiveRoot,
        ]
    }

    /// Display name, e.g. "recursive doubling".
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Tree => "binomial tree",
            Algorithm::RecursiveDoubling => "recursive doubling",
            Algorithm::Rabenseifner => "Rabenseifner",
            Algorithm::NaiveRoot => "naive root",
        }
    }

    /// Short machine name used in URLs and schedules: "ring", "tree", "rd",
    /// "rab", "naive".
    pub fn short(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Tree => "tree",
            Algorithm::RecursiveDoubling => "rd",
            Algorithm::Rabenseifner => "rab",
            Algorithm::NaiveRoot => "naive",
        }
    }

    /// Inverse of [`Algorithm::short`] (case-insensitive).
    pub fn from_short(s: &str) -> Option<Algorithm> {
        let s = s.trim().to_ascii_lowercase();
        Algorithm::all().into_iter().find(|a| a.short() == s)
    }

    /// Position in [`Algorithm::all`] (for palettes and tables).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The closed-form all-reduce time of this algorithm (dispatches to
    /// [`ring_allreduce`] etc.).
    pub fn cost(self, p: usize, n_bytes: f64, c: CostParams) -> Formula {
        match self {
            Algorithm::Ring => ring_allreduce(p, n_bytes, c),
            Algorithm::Tree => binomial_tree_allreduce(p, n_bytes, c),
            Algorithm::RecursiveDoubling => recursive_doubling_allreduce(p, n_bytes, c),
            Algorithm::Rabenseifner => rabenseifner_allreduce(p, n_bytes, c),
            Algorithm::NaiveRoot => naive_root_allreduce(p, n_bytes, c),
        }
    }

    /// The cost as a line in `n`: `(intercept, slope)` with
    /// `T(n) = intercept + slope·n` (seconds, seconds per byte).
    pub fn line(self, p: usize, c: CostParams) -> (f64, f64) {
        let [a, b, g] = self.factors(p);
        (a * c.alpha, b * c.beta + g * c.gamma)
    }

    /// The multipliers `[startups, byte_factor, gamma_factor]` of α, nβ and
    /// nγ at `p` ranks (the same numbers as the [`Formula`] fields), computed
    /// without building the written-out calculation.
    pub fn factors(self, p: usize) -> [f64; 3] {
        let (pp, r) = pow2_split(p);
        let k = f64::from(floor_log2(pp));
        let fpp = (pp - 1) as f64 / pp as f64;
        let q = p.max(1);
        let fp = (q - 1) as f64 / q as f64;
        let l = f64::from(ceil_log2(p));
        let adapted = r != 0;
        match self {
            Algorithm::Ring => [2.0 * (q - 1) as f64, 2.0 * fp, fp],
            Algorithm::Tree => [2.0 * l, 2.0 * l, l],
            Algorithm::RecursiveDoubling if adapted => [k + 2.0, k + 2.0, k + 1.0],
            Algorithm::RecursiveDoubling => [k, k, k],
            Algorithm::Rabenseifner if adapted => [2.0 * k + 2.0, 2.0 * fpp + 2.0, fpp + 1.0],
            Algorithm::Rabenseifner => [2.0 * k, 2.0 * fpp, fpp],
            Algorithm::NaiveRoot => [2.0 * (q - 1) as f64, 2.0 * (q - 1) as f64, (q - 1) as f64],
        }
    }

    fn terms(self, p: usize) -> Terms {
        match self {
            Algorithm::Ring => ring_terms(p),
            Algorithm::Tree => tree_terms(p),
            Algorithm::RecursiveDoubling => rd_terms(p),
            Algorithm::Rabenseifner => rab_terms(p),
            Algorithm::NaiveRoot => naive_terms(p),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A closed-form time, split into its α, β and γ parts, with the written-out
/// calculation.
///
/// `time = startups·α + byte_factor·n·β + gamma_factor·n·γ`, all in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    /// What was costed, e.g. "ring all-reduce" or "recursive-halving reduce-scatter".
    pub name: String,
    /// The symbolic formula used, e.g. "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ".
    pub expression: String,
    /// Number of sequential start-ups (the multiplier of α).
    pub startups: f64,
    /// Multiplier of `n·β`: bytes on the critical path per byte of tensor.
    pub byte_factor: f64,
    /// Multiplier of `n·γ`: bytes reduced on the critical path per byte of tensor.
    pub gamma_factor: f64,
    /// Total time, seconds.
    pub time: f64,
    /// `startups·α`, seconds.
    pub alpha_part: f64,
    /// `byte_factor·n·β`, seconds.
    pub beta_part: f64,
    /// `gamma_factor·n·γ`, seconds.
    pub gamma_part: f64,
    /// Which form applies: "power-of-two formula", "any p", or
    /// "non-power-of-two adaptation (…)" — shown next to the number.
    pub label: String,
    /// True when `p` is not a power of two and the fold-in/unfold adaptation
    /// was applied instead of the power-of-two formula.
    pub pow2_adapted: bool,
    /// The calculation written out step by step, numbers and units substituted.
    pub substituted: Vec<String>,
}

/// Coefficients of a cost before the parameters are substituted.
#[derive(Clone, Debug, PartialEq)]
struct Terms {
    name: &'static str,
    expression: String,
    startups: f64,
    byte_factor: f64,
    gamma_factor: f64,
    /// The α multiplier with `p` substituted, e.g. "2(16−1)".
    startups_text: String,
    /// The nβ multiplier with `p` substituted, e.g. "2(16−1)/16".
    bytes_text: String,
    /// The nγ multiplier with `p` substituted.
    gamma_text: String,
    label: String,
    pow2_adapted: bool,
    /// Extra explanation lines (e.g. the non-power-of-two adaptation).
    notes: Vec<String>,
}

impl Terms {
    fn formula(self, p: usize, n: f64, c: CostParams) -> Formula {
        let alpha_part = self.startups * c.alpha;
        let beta_part = self.byte_factor * n * c.beta;
        let gamma_part = self.gamma_factor * n * c.gamma;
        let time = alpha_part + beta_part + gamma_part;
        let with_gamma = c.gamma != 0.0 && self.gamma_factor != 0.0;

        let mut lines = Vec::new();
        lines.push(
            format!(
                "p = {p}, α = {}, β = {}, n = {}",
                fmt_input_time(c.alpha),
                fmt_beta(c.beta),
                fmt_bytes(n)
            ) + &if c.gamma != 0.0 {
                format!(", γ = {}", fmt_beta(c.gamma))
            } else {
                String::new()
            },
        );
        let expr = if with_gamma {
            self.expression.clone()
        } else {
            strip_gamma(&self.expression)
        };
        lines.push(format!("T = {expr}"));
        lines.extend(self.notes.iter().map(|n| {
            if with_gamma {
                n.clone()
            } else {
                strip_gamma(n)
            }
        }));
        // Coefficients with p substituted.
        let mut s = format!(
            "  = {} × {} + {} × {} × {}",
            self.startups_text,
            fmt_input_time(c.alpha),
            self.bytes_text,
            fmt_bytes(n),
            fmt_beta(c.beta)
        );
        if with_gamma {
            s += &format!(
                " + {} × {} × {}",
                self.gamma_text,
                fmt_bytes(n),
                fmt_beta(c.gamma)
            );
        }
        lines.push(s);
        // Coefficients evaluated, nβ evaluated.
        let mut s = format!(
            "  = {} × {} + {} × {}",
            fmt_coeff(self.startups),
            fmt_input_time(c.alpha),
            fmt_coeff(self.byte_factor),
            fmt_time(n * c.beta)
        );
        if with_gamma {
            s += &format!(
                " + {} × {}",
                fmt_coeff(self.gamma_factor),
                fmt_time(n * c.gamma)
            );
        }
        lines.push(s);
        let mut s = format!("  = {} + {}", fmt_time(alpha_part), fmt_time(beta_part));
        if with_gamma {
            s += &format!(" + {}", fmt_time(gamma_part));
        }
        lines.push(s);
        lines.push(format!("  = {}", fmt_time(time)));

        Formula {
            name: self.name.to_string(),
            expression: expr,
            startups: self.startups,
            byte_factor: self.byte_factor,
            gamma_factor: self.gamma_factor,
            time,
            alpha_part,
            beta_part,
            gamma_part,
            label: self.label,
            pow2_adapted: self.pow2_adapted,
            substituted: lines,
        }
    }
}

/// Removes the γ terms from a symbolic expression or note (when γ = 0):
/// "log₂p(α + nβ + nγ)" → "log₂p(α + nβ)", "2(p−1)(α + nβ) + (p−1)·nγ" →
/// "2(p−1)(α + nβ)". Only top-level " + " separate terms.
fn strip_gamma(expr: &str) -> String {
    let inner = expr.replace(" + nγ)", ")");
    let mut terms = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b' ' if depth == 0 && inner[i..].starts_with(" + ") => {
                terms.push(&inner[start..i]);
                start = i + 3;
                i += 3;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    terms.push(&inner[start..]);
    terms
        .into_iter()
        .filter(|t| !t.contains('γ'))
        .collect::<Vec<_>>()
        .join(" + ")
}

// ---------------------------------------------------------------------------
// Integer helpers.

/// `⌈log₂ p⌉` for `p ≥ 1` (0 for `p ≤ 1`).
pub fn ceil_log2(p: usize) -> u32 {
    if p <= 1 {
        0
    } else {
        usize::BITS - (p - 1).leading_zeros()
    }
}

/// `⌊log₂ p⌋` for `p ≥ 1` (0 for `p ≤ 1`).
pub fn floor_log2(p: usize) -> u32 {
    if p <= 1 {
        0
    } else {
        usize::BITS - 1 - p.leading_zeros()
    }
}

/// The power-of-two subset used by the non-power-of-two adaptation:
/// `(p′, r) = (2^⌊log₂ p⌋, p − p′)`.
pub fn pow2_split(p: usize) -> (usize, usize) {
    let pp = 1usize << floor_log2(p.max(1));
    (pp, p.max(1) - pp)
}

fn adaptation_note(p: usize, extra: &str) -> String {
    let (pp, r) = pow2_split(p);
    format!(
        "p = {p} is not a power of two: p′ = 2^⌊log₂{p}⌋ = {pp}, and the r = {r} extra rank{} fold into the p′ subset and are unfolded at the end: {extra}",
        if r == 1 { "" } else { "s" }
    )
}

const ADAPTED_LABEL: &str = "non-power-of-two adaptation (fold-in / unfold, MPICH)";
const POW2_LABEL: &str = "power-of-two formula";
const ANY_P_LABEL: &str = "any p";

// ---------------------------------------------------------------------------
// Building blocks. `n` is always the size of the whole tensor in bytes.

fn ring_rs_terms(p: usize) -> Terms {
    let p = p.max(1);
    let f = (p - 1) as f64 / p as f64;
    Terms {
        name: "ring reduce-scatter",
        expression: "(p−1)α + (p−1)/p·nβ + (p−1)/p·nγ".into(),
        startups: (p - 1) as f64,
        byte_factor: f,
        gamma_factor: f,
        startups_text: format!("({p}−1)"),
        bytes_text: format!("({p}−1)/{p}"),
        gamma_text: format!("({p}−1)/{p}"),
        label: ANY_P_LABEL.into(),
        pow2_adapted: false,
        notes: vec![],
    }
}

fn ring_ag_terms(p: usize) -> Terms {
    let p = p.max(1);
    let f = (p - 1) as f64 / p as f64;
    Terms {
        name: "ring all-gather",
        expression: "(p−1)α + (p−1)/p·nβ".into(),
        startups: (p - 1) as f64,
        byte_factor: f,
        gamma_factor: 0.0,
        startups_text: format!("({p}−1)"),
        bytes_text: format!("({p}−1)/{p}"),
        gamma_text: "0".into(),
        label: ANY_P_LABEL.into(),
        pow2_adapted: false,
        notes: vec![],
    }
}

fn rh_rs_terms(p: usize) -> Terms {
    let (pp, r) = pow2_split(p);
    let k = floor_log2(pp);
    let f = (pp - 1) as f64 / pp as f64;
    if r == 0 {
        Terms {
            name: "recursive-halving reduce-scatter",
            expression: "log₂p·α + (p−1)/p·nβ + (p−1)/p·nγ".into(),
            startups: f64::from(k),
            byte_factor: f,
            gamma_factor: f,
            startups_text: format!("log₂{pp}"),
            bytes_text: format!("({pp}−1)/{pp}"),
            gamma_text: format!("({pp}−1)/{pp}"),
            label: POW2_LABEL.into(),
            pow2_adapted: false,
            notes: vec![],
        }
    } else {
        let sum = halving_sum(pp, r);
        let pf = p as f64;
        Terms {
            name: "recursive-halving reduce-scatter",
            expression: "(log₂p′ + 2)α + (1 + S/p + 1/p)·nβ + (1 + S/p)·nγ".into(),
            startups: f64::from(k) + 2.0,
            byte_factor: 1.0 + (sum + 1) as f64 / pf,
            gamma_factor: 1.0 + sum as f64 / pf,
            startups_text: format!("(log₂{pp} + 2)"),
            bytes_text: format!("(1 + {sum}/{p} + 1/{p})"),
            gamma_text: format!("(1 + {sum}/{p})"),
            label: ADAPTED_LABEL.into(),
            pow2_adapted: true,
            notes: vec![
                adaptation_note(
                    p,
                    "+(α + nβ + nγ) for the fold-in and +(α + nβ/p) to hand each extra rank its chunk",
                ),
                halving_note(pp, r, sum, p),
            ],
        }
    }
}

/// `S = Σ_{d = 1, 2, 4, …, p′/2} (d + min(d, r))`: chunks (of n/p bytes) on
/// the critical path of recursive halving / doubling over `p′` ranks when the
/// first `r` of them each hold two chunks (their own and a folded-in rank's).
/// `S = p′ − 1` when `r = 0`.
fn halving_sum(pp: usize, r: usize) -> u64 {
    let mut d = 1usize;
    let mut s = 0u64;
    while d < pp {
        s += (d + d.min(r)) as u64;
        d *= 2;
    }
    s
}

fn halving_note(pp: usize, r: usize, sum: u64, p: usize) -> String {
    format!(
        "the first r = {r} of the p′ = {pp} ranks carry two chunks of n/{p}, so the round at distance d moves d + min(d, r) chunks: S = {sum}"
    )
}

fn rd_ag_terms(p: usize) -> Terms {
    let (pp, r) = pow2_split(p);
    let k = floor_log2(pp);
    let f = (pp - 1) as f64 / pp as f64;
    if r == 0 {
        Terms {
            name: "recursive-doubling all-gather",
            expression: "log₂p·α + (p−1)/p·nβ".into(),
            startups: f64::from(k),
            byte_factor: f,
            gamma_factor: 0.0,
            startups_text: format!("log₂{pp}"),
            bytes_text: format!("({pp}−1)/{pp}"),
            gamma_text: "0".into(),
            label: POW2_LABEL.into(),
            pow2_adapted: false,
            notes: vec![],
        }
    } else {
        let sum = halving_sum(pp, r);
        let pf = p as f64;
        Terms {
            name: "recursive-doubling all-gather",
            expression: "(log₂p′ + 2)α + (1/p + S/p + 1)·nβ".into(),
            startups: f64::from(k) + 2.0,
            byte_factor: (1 + sum) as f64 / pf + 1.0,
            gamma_factor: 0.0,
            startups_text: format!("(log₂{pp} + 2)"),
            bytes_text: format!("(1/{p} + {sum}/{p} + 1)"),
            gamma_text: "0".into(),
            label: ADAPTED_LABEL.into(),
            pow2_adapted: true,
            notes: vec![
                adaptation_note(
                    p,
                    "+(α + nβ/p) for each extra rank to hand over its chunk and +(α + nβ) to unfold the whole result",
                ),
                halving_note(pp, r, sum, p),
            ],
        }
    }
}

fn binomial_bcast_terms(p: usize) -> Terms {
    let l = ceil_log2(p);
    Terms {
        name: "binomial broadcast",
        expression: "⌈log₂p⌉(α + nβ)".into(),
        startups: f64::from(l),
        byte_factor: f64::from(l),
        gamma_factor: 0.0,
        startups_text: format!("⌈log₂{p}⌉"),
        bytes_text: format!("⌈log₂{p}⌉"),
        gamma_text: "0".into(),
        label: ANY_P_LABEL.into(),
        pow2_adapted: false,
        notes: vec![],
    }
}

fn binomial_reduce_terms(p: usize) -> Terms {
    let l = ceil_log2(p);
    Terms {
        name: "binomial reduce",
        expression: "⌈log₂p⌉(α + nβ + nγ)".into(),
        startups: f64::from(l),
        byte_factor: f64::from(l),
        gamma_factor: f64::from(l),
        startups_text: format!("⌈log₂{p}⌉"),
        bytes_text: format!("⌈log₂{p}⌉"),
        gamma_text: format!("⌈log₂{p}⌉"),
        label: ANY_P_LABEL.into(),
        pow2_adapted: false,
        notes: vec![],
    }
}

// ---------------------------------------------------------------------------
// All-reduce terms.

fn ring_terms(p: usize) -> Terms {
    let p = p.max(1);
    let f = (p - 1) as f64 / p as f64;
    Terms {
        name: "ring all-reduce",
        expression: "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ".into(),
        startups: 2.0 * (p - 1) as f64,
        byte_factor: 2.0 * f,
        gamma_factor: f,
        startups_text: format!("2({p}−1)"),
        bytes_text: format!("2({p}−1)/{p}"),
        gamma_text: format!("({p}−1)/{p}"),
        label: ANY_P_LABEL.into(),
        pow2_adapted: false,
        notes: vec![],
    }
}

fn tree_terms(p: usize) -> Terms {
    let l = ceil_log2(p);
    Terms {
        name: "binomial tree all-reduce",
        expression: "2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ".into(),
        startups: 2.0 * f64::from(l),
        byte_factor: 2.0 * f64::from(l),
        gamma_factor: f64::from(l),
        startups_text: format!("2⌈log₂{p}⌉"),
        bytes_text: format!("2⌈log₂{p}⌉"),
        gamma_text: format!("⌈log₂{p}⌉"),
        label: if p.is_power_of_two() || p <= 1 {
            ANY_P_LABEL.into()
        } else {
            format!("any p (⌈log₂{p}⌉ = {l} levels)")
        },
        pow2_adapted: false,
        notes: vec![],
    }
}

fn rd_terms(p: usize) -> Terms {
    let (pp, r) = pow2_split(p);
    let k = floor_log2(pp);
    if r == 0 {
        Terms {
            name: "recursive doubling all-reduce",
            expression: "log₂p(α + nβ + nγ)".into(),
            startups: f64::from(k),
            byte_factor: f64::from(k),
            gamma_factor: f64::from(k),
            startups_text: format!("log₂{pp}"),
            bytes_text: format!("log₂{pp}"),
            gamma_text: format!("log₂{pp}"),
            label: POW2_LABEL.into(),
            pow2_adapted: false,
            notes: vec![],
        }
    } else {
        Terms {
            name: "recursive doubling all-reduce",
            expression: "(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ".into(),
            startups: f64::from(k) + 2.0,
            byte_factor: f64::from(k) + 2.0,
            gamma_factor: f64::from(k) + 1.0,
            startups_text: format!("(log₂{pp} + 2)"),
            bytes_text: format!("(log₂{pp} + 2)"),
            gamma_text: format!("(log₂{pp} + 1)"),
            label: ADAPTED_LABEL.into(),
            pow2_adapted: true,
            notes: vec![adaptation_note(p, "+2(α + nβ) + nγ")],
        }
    }
}

fn rab_terms(p: usize) -> Terms {
    let (pp, r) = pow2_split(p);
    let k = floor_log2(pp);
    let f = (pp - 1) as f64 / pp as f64;
    if r == 0 {
        Terms {
            name: "Rabenseifner all-reduce",
            expression: "2log₂p·α + 2(p−1)/p·nβ + (p−1)/p·nγ".into(),
            startups: 2.0 * f64::from(k),
            byte_factor: 2.0 * f,
            gamma_factor: f,
            startups_text: format!("2log₂{pp}"),
            bytes_text: format!("2({pp}−1)/{pp}"),
            gamma_text: format!("({pp}−1)/{pp}"),
            label: POW2_LABEL.into(),
            pow2_adapted: false,
            notes: vec![],
        }
    } else {
        Terms {
            name: "Rabenseifner all-reduce",
            expression: "(2log₂p′ + 2)α + (2(p′−1)/p′ + 2)·nβ + ((p′−1)/p′ + 1)·nγ".into(),
            startups: 2.0 * f64::from(k) + 2.0,
            byte_factor: 2.0 * f + 2.0,
            gamma_factor: f + 1.0,
            startups_text: format!("(2log₂{pp} + 2)"),
            bytes_text: format!("(2({pp}−1)/{pp} + 2)"),
            gamma_text: format!("(({pp}−1)/{pp} + 1)"),
            label: ADAPTED_LABEL.into(),
            pow2_adapted: true,
            notes: vec![adaptation_note(p, "+2(α + nβ) + nγ")],
        }
    }
}

fn naive_terms(p: usize) -> Terms {
    let p = p.max(1);
    Terms {
        name: "naive root all-reduce",
        expression: "2(p−1)(α + nβ) + (p−1)·nγ".into(),
        startups: 2.0 * (p - 1) as f64,
        byte_factor: 2.0 * (p - 1) as f64,
        gamma_factor: (p - 1) as f64,
        startups_text: format!("2({p}−1)"),
        bytes_text: format!("2({p}−1)"),
        gamma_text: format!("({p}−1)"),
        label: ANY_P_LABEL.into(),
        pow2_adapted: false,
        notes: vec![],
    }
}

/// Ring all-reduce (ring reduce-scatter + ring all-gather):
/// `T = 2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4 (ring / "reduce-scatter +
/// all-gather"); Patarasuk & Yuan 2009. Seed §9: p = 16, α = 5 µs,
/// β = 0.08 ns/B, 8 KiB gives ≈ 151.2 µs.
pub fn ring_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    ring_terms(p).formula(p, n_bytes, c)
}

/// Basic binomial-tree all-reduce (unpipelined reduce to a root, then
/// broadcast, full tensor per message):
/// `T = 2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §2 (binomial reduce and
/// broadcast); seed §7.
pub fn binomial_tree_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    tree_terms(p).formula(p, n_bytes, c)
}

/// Recursive-doubling all-reduce (full-buffer exchange with `rank XOR 2^k`):
/// `T = log₂p(α + nβ + nγ)` for `p` a power of two; otherwise the labelled
/// adaptation `(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ` with `p′ = 2^⌊log₂p⌋`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.4 (recursive doubling and
/// its non-power-of-two handling).
pub fn recursive_doubling_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    rd_terms(p).formula(p, n_bytes, c)
}

/// Rabenseifner all-reduce (recursive-halving reduce-scatter, then
/// recursive-doubling all-gather):
/// `T = 2log₂p·α + 2(p−1)/p·nβ + (p−1)/p·nγ` for `p` a power of two;
/// otherwise the labelled adaptation
/// `(2log₂p′ + 2)α + (2(p′−1)/p′ + 2)·nβ + ((p′−1)/p′ + 1)·nγ`.
///
/// Source: Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005, §4.4.
pub fn rabenseifner_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    rab_terms(p).formula(p, n_bytes, c)
}

/// Naive root all-reduce, serialised at the root: `p − 1` full tensors in,
/// one at a time, then `p − 1` full tensors out:
/// `T = 2(p−1)(α + nβ) + (p−1)·nγ`, any `p`.
///
/// Seed §6: p = 4, 100 MB at 12.5 GB/s, α = 0 gives 48 ms (the ring: 12 ms).
pub fn naive_root_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    naive_terms(p).formula(p, n_bytes, c)
}

/// Ring reduce-scatter of an `n`-byte tensor: `(p−1)α + (p−1)/p·nβ + (p−1)/p·nγ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.
pub fn ring_reduce_scatter(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    ring_rs_terms(p).formula(p, n_bytes, c)
}

/// Ring all-gather producing an `n`-byte tensor: `(p−1)α + (p−1)/p·nβ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (ring allgather).
pub fn ring_all_gather(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    ring_ag_terms(p).formula(p, n_bytes, c)
}

/// Recursive-halving reduce-scatter: `log₂p·α + (p−1)/p·nβ + (p−1)/p·nγ` for
/// `p` a power of two. Otherwise (labelled), as the schedule generator
/// `schedule::recursive::recursive_halving_reduce_scatter` runs it: a
/// whole-tensor fold-in `α + nβ + nγ`; halving over `p′ = 2^⌊log₂p⌋` ranks of
/// which the first `r` hold two chunks of `n/p`, so the round at distance `d`
/// moves `d + min(d, r)` chunks (`S` chunks in all); and a final `α + nβ/p`
/// handing each extra rank its chunk:
/// `(log₂p′ + 2)α + (1 + S/p + 1/p)·nβ + (1 + S/p)·nγ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.3 (recursive halving).
pub fn recursive_halving_reduce_scatter(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    rh_rs_terms(p).formula(p, n_bytes, c)
}

/// Recursive-doubling all-gather: `log₂p·α + (p−1)/p·nβ` for `p` a power of
/// two. Otherwise (labelled), mirroring the recursive-halving adaptation:
/// each extra rank hands its chunk to a partner (`α + nβ/p`), doubling runs on
/// `p′` ranks with `S` chunks on the critical path, and the whole result is
/// unfolded (`α + nβ`): `(log₂p′ + 2)α + (1/p + S/p + 1)·nβ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (recursive doubling allgather).
pub fn recursive_doubling_all_gather(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    rd_ag_terms(p).formula(p, n_bytes, c)
}

/// Binomial-tree broadcast of `n` bytes: `⌈log₂p⌉(α + nβ)`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (binomial broadcast).
pub fn binomial_broadcast(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    binomial_bcast_terms(p).formula(p, n_bytes, c)
}

/// Binomial-tree reduce of `n` bytes to a root: `⌈log₂p⌉(α + nβ + nγ)`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §2.
pub fn binomial_reduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    binomial_reduce_terms(p).formula(p, n_bytes, c)
}

/// All five algorithms at one size, in [`Algorithm::all`] order.
pub fn all_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Vec<(Algorithm, Formula)> {
    Algorithm::all()
        .into_iter()
        .map(|a| (a, a.cost(p, n_bytes, c)))
        .collect()
}

/// The fastest algorithm at `n_bytes`. Ties go to the earlier algorithm in
/// [`Algorithm::all`] order.
pub fn best_at(p: usize, n_bytes: f64, c: CostParams) -> Algorithm {
    let mut best = Algorithm::Ring;
    let mut best_t = f64::INFINITY;
    for a in Algorithm::all() {
        let (a0, a1) = a.line(p, c);
        let t = a0 + a1 * n_bytes;
        if t < best_t {
            best_t = t;
            best = a;
        }
    }
    best
}

// ---------------------------------------------------------------------------
// Crossovers.

/// Where two algorithms cost the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossover {
    /// The algorithm that is faster below `n_bytes` (the one with fewer start-ups).
    pub below: Algorithm,
    /// The algorithm that is faster above `n_bytes`.
    pub above: Algorithm,
    /// Break-even message size, bytes.
    pub n_bytes: f64,
    /// The common time there, seconds.
    pub time: f64,
}

/// The break-even size of `a` and `b`: costs are lines `T = A + B·n`, so
/// `n* = (A_b − A_a)/(B_a − B_b)`. `None` when the lines are parallel or meet
/// at `n ≤ 0` (one algorithm is never slower for any positive size).
pub fn crossover(a: Algorithm, b: Algorithm, p: usize, c: CostParams) -> Option<Crossover> {
    let (ia, sa) = a.line(p, c);
    let (ib, sb) = b.line(p, c);
    let ds = sa - sb;
    if ds == 0.0 || !ds.is_finite() {
        return None;
    }
    let n = (ib - ia) / ds;
    if !(n > 0.0 && n.is_finite()) {
        return None;
    }
    // Below n* the one with the smaller intercept wins.
    let (below, above) = if ia < ib { (a, b) } else { (b, a) };
    Some(Crossover {
        below,
        above,
        n_bytes: n,
        time: ia + sa * n,
    })
}

/// All pairwise crossovers at positive sizes, sorted by size.
pub fn crossovers(p: usize, c: CostParams) -> Vec<Crossover> {
    let all = Algorithm::all();
    let mut out = Vec::new();
    for (i, &a) in all.iter().enumerate() {
        for &b in &all[i + 1..] {
            if let Some(x) = crossover(a, b, p, c) {
                out.push(x);
            }
        }
    }
    out.sort_by(|x, y| x.n_bytes.total_cmp(&y.n_bytes));
    out
}

/// A range of message sizes with one fastest algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end, bytes (inclusive; 0 for the first interval).
    pub from: f64,
    /// Upper end, bytes (exclusive; `f64::INFINITY` for the last interval).
    pub to: f64,
    /// The fastest algorithm inside the interval.
    pub best: Algorithm,
}

/// The fastest algorithm on each interval of `n ∈ [0, ∞)`: the lower envelope
/// of the five cost lines. Adjacent intervals always have different winners,
/// and each boundary is an exact break-even size from [`crossover`].
pub fn best_intervals(p: usize, c: CostParams) -> Vec<Interval> {
    let mut cuts: Vec<f64> = crossovers(p, c).iter().map(|x| x.n_bytes).collect();
    cuts.dedup();
    let mut bounds = vec![0.0];
    bounds.extend(cuts);
    let mut out: Vec<Interval> = Vec::new();
    for (i, &lo) in bounds.iter().enumerate() {
        let hi = bounds.get(i + 1).copied().unwrap_or(f64::INFINITY);
        if hi <= lo {
            continue;
        }
        let probe = if hi.is_finite() {
            0.5 * (lo + hi)
        } else {
            2.0 * lo + 1.0
        };
        let best = best_at(p, probe, c);
        match out.last_mut() {
            Some(last) if last.best == best => last.to = hi,
            _ => out.push(Interval {
                from: lo,
                to: hi,
                best,
            }),
        }
    }
    out
}

/// The crossovers that change the winner: the boundaries of
/// [`best_intervals`], as `Crossover`s.
pub fn envelope_crossovers(p: usize, c: CostParams) -> Vec<Crossover> {
    let iv = best_intervals(p, c);
    iv.windows(2)
        .map(|w| {
            let n = w[1].from;
            let (i0, s0) = w[0].best.line(p, c);
            Crossover {
                below: w[0].best,
                above: w[1].best,
                n_bytes: n,
                time: i0 + s0 * n,
            }
        })
        .collect()
}

/// The break-even size of `a` and `b` written out the way a student solves
/// it, e.g. for p = 16, α = 5 µs, β = 0.08 ns/B:
/// `["T_rd = 4α + 4·nβ", "T_rab = 8α + 1.875·nβ",
///   "T_rd = T_rab when n = (8 − 4)α / ((4 − 1.875)β)",
///   "  = 4 × 5 µs / (2.125 × 0.08 ns/B)",
///   "  = 117,647 B (117.6 kB = 114.9 KiB)"]`.
/// `None` when the two never cross at a positive size (see [`crossover`]).
pub fn crossover_calculation(
    a: Algorithm,
    b: Algorithm,
    p: usize,
    c: CostParams,
) -> Option<Vec<String>> {
    let x = crossover(a, b, p, c)?;
    let (lo, hi) = (x.below.terms(p), x.above.terms(p));
    let with_gamma = c.gamma != 0.0;
    let line = |alg: Algorithm, t: &Terms| {
        let mut s = format!(
            "T_{} = {}α + {}·nβ",
            alg.short(),
            fmt_coeff(t.startups),
            fmt_coeff(t.byte_factor)
        );
        if with_gamma {
            s += &format!(" + {}·nγ", fmt_coeff(t.gamma_factor));
        }
        s
    };
    let da = hi.startups - lo.startups;
    let db = lo.byte_factor - hi.byte_factor;
    let dg = lo.gamma_factor - hi.gamma_factor;
    let (den_sym, den_num) = if with_gamma {
        (
            format!(
                "(({} − {})β + ({} − {})γ)",
                fmt_coeff(lo.byte_factor),
                fmt_coeff(hi.byte_factor),
                fmt_coeff(lo.gamma_factor),
                fmt_coeff(hi.gamma_factor)
            ),
            format!(
                "({} × {} + {} × {})",
                fmt_coeff(db),
                fmt_beta(c.beta),
                fmt_coeff(dg),
                fmt_beta(c.gamma)
            ),
        )
    } else {
        (
            format!(
                "(({} − {})β)",
                fmt_coeff(lo.byte_factor),
                fmt_coeff(hi.byte_factor)
            ),
            format!("({} × {})", fmt_coeff(db), fmt_beta(c.beta)),
        )
    };
    let n = x.n_bytes;
    let exact = if n < 1e15 {
        format!("{} B", units::group_thousands(n.round() as u64))
    } else {
        fmt_bytes(n)
    };
    let approx = if n.fract() == 0.0 { "" } else { "≈ " };
    let dec = units::format_decimal(n);
    let bin = units::format_binary(n);
    let systems = if dec == bin {
        dec
    } else {
        format!("{dec} = {bin}")
    };
    Some(vec![
        line(x.below, &lo),
        line(x.above, &hi),
        format!(
            "T_{} = T_{} when n = ({} − {})α / {den_sym}",
            x.below.short(),
            x.above.short(),
            fmt_coeff(hi.startups),
            fmt_coeff(lo.startups)
        ),
        format!(
            "  = {} × {} / {den_num}",
            fmt_coeff(da),
            fmt_input_time(c.alpha)
        ),
        format!(
            "  {}{approx}{exact} ({systems})",
            if approx.is_empty() { "= " } else { "" }
        ),
    ])
}

// ---------------------------------------------------------------------------
// Sweeps.

/// Times (seconds) of every algorithm at every size: `out[i][a]` is
/// algorithm `Algorithm::all()[a]` at `sizes[i]` bytes.
pub fn sweep_sizes(p: usize, sizes: &[f64], c: CostParams) -> Vec<[f64; 5]> {
    let lines = Algorithm::all().map(|a| a.line(p, c));
    sizes
        .iter()
        .map(|&n| lines.map(|(i, s)| i + s * n))
        .collect()
}

/// Times (seconds) of every algorithm at one size over several `p`:
/// `out[i][a]` is algorithm `a` at `ps[i]` ranks.
pub fn sweep_ranks(ps: &[usize], n_bytes: f64, c: CostParams) -> Vec<[f64; 5]> {
    ps.iter()
        .map(|&p| {
            Algorithm::all().map(|a| {
                let (i, s) = a.line(p, c);
                i + s * n_bytes
            })
        })
        .collect()
}

/// The fastest algorithm on a grid: `out[j][i]` is the winner at `ps[j]` ranks
/// and `sizes[i]` bytes.
pub fn winner_map(sizes: &[f64], ps: &[usize], c: CostParams) -> Vec<Vec<Algorithm>> {
    ps.iter()
        .map(|&p| sizes.iter().map(|&n| best_at(p, n, c)).collect())
        .collect()
}

/// `count` sizes spaced evenly in log scale from `lo` to `hi` bytes (both
/// included; `count ≥ 2`, else just `[lo]`).
pub fn log_sizes(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if count < 2 || !(lo > 0.0 && hi > lo) {
        return vec![lo];
    }
    let (a, b) = (lo.ln(), hi.ln());
    (0..count)
        .map(|i| (a + (b - a) * i as f64 / (count - 1) as f64).exp())
        .collect()
}

// ---------------------------------------------------------------------------
// nccl-tests bandwidths.

/// Algorithm bandwidth as nccl-tests defines it: `algbw = S / t`, bytes per
/// second, for a tensor of `S` bytes and a time of `t` seconds. 0 when `t ≤ 0`.
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md.
pub fn algbw(size_bytes: f64, t: f64) -> f64 {
    if t > 0.0 {
        size_bytes / t
    } else {
        0.0
    }
}

/// Bus bandwidth of an all-reduce as nccl-tests defines it:
/// `busbw = algbw · 2(p−1)/p`, bytes per second. It is comparable with the
/// link speed: a bandwidth-optimal all-reduce has `busbw → 1/β`.
///
/// Source: NVIDIA nccl-tests, doc/PERFORMANCE.md.
pub fn busbw(algbw: f64, p: usize) -> f64 {
    let p = p.max(1) as f64;
    algbw * 2.0 * (p - 1.0) / p
}

/// algbw and busbw of one all-reduce, with the calculation written out.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclBandwidths {
    /// `S / t`, bytes per second.
    pub algbw: f64,
    /// `algbw · 2(p−1)/p`, bytes per second.
    pub busbw: f64,
    /// The two calculations with numbers and units, e.g.
    /// "algbw = S / t = 100,000,000 B / 12.00 ms = 8.333 GB/s".
    pub lines: Vec<String>,
}

/// [`algbw`] and [`busbw`] for a tensor of `size_bytes` bytes all-reduced in
/// `t` seconds over `p` ranks (nccl-tests, doc/PERFORMANCE.md).
pub fn nccl_bandwidths(size_bytes: f64, t: f64, p: usize) -> NcclBandwidths {
    let a = algbw(size_bytes, t);
    let b = busbw(a, p);
    let pp = p.max(1);
    NcclBandwidths {
        algbw: a,
        busbw: b,
        lines: vec![
            format!(
                "algbw = S / t = {} / {} = {}",
                fmt_bytes(size_bytes),
                fmt_time(t),
                units::format_bandwidth(a)
            ),
            format!(
                "busbw = algbw × 2(p−1)/p = {} × 2({pp}−1)/{pp} = {} × {} = {}",
                units::format_bandwidth(a),
                units::format_bandwidth(a),
                fmt_coeff(2.0 * (pp as f64 - 1.0) / pp as f64),
                units::format_bandwidth(b)
            ),
        ],
    }
}

// ---------------------------------------------------------------------------
// Time of an executed schedule: one implementation, in `core::timing`.

pub use super::timing::{executed_round_times, executed_time, executed_time_with};

// ---------------------------------------------------------------------------
// Formatting: results with 4 significant figures (units module); inputs
// and coefficients with trailing zeros trimmed, as a student writes them.

fn trim(s: String) -> String {
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A result time: "151.2 µs", "12.00 ms".
fn fmt_time(s: f64) -> String {
    units::format_time(s)
}

/// An input time, trailing zeros trimmed: "5 µs".
fn fmt_input_time(s: f64) -> String {
    match units::format_time(s).split_once(' ') {
        Some((v, u)) => format!("{} {u}", trim(v.to_string())),
        None => units::format_time(s),
    }
}

fn fmt_beta(b: f64) -> String {
    units::format_beta(b)
}

fn fmt_bytes(n: f64) -> String {
    if n.fract() == 0.0 && (0.0..1e15).contains(&n) {
        format!("{} B", units::group_thousands(n as u64))
    } else {
        format!("{} B", trim(units::sig(n, 4)))
    }
}

fn fmt_coeff(x: f64) -> String {
    trim(units::sig(x, 4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::execute::{default_init, execute, ExecOptions};
    use crate::core::schedule::{naive::naive_root, ring::ring_all_reduce};

    const KIB8: f64 = 8192.0;
    const MIB64: f64 = 67_108_864.0;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(f64::MIN_POSITIVE)
    }

    fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
        assert!(close(got, want, rel), "{what}: got {got:e}, want {want:e}");
    }

    /// Seed §9, derived by hand: nβ = 8192 × 0.08 ns = 655.36 ns.
    /// rd = 4(5 µs + 655.36 ns) = 22.62144 µs; ring = 30 × 5 µs + 1.875 × 655.36 ns
    /// = 151.2288 µs; tree = 8(5.65536 µs) = 45.24288 µs; rab = 40 µs + 1.2288 µs.
    #[test]
    fn seed_section9_small_message() {
        let c = CostParams::seed_example();
        let rd = recursive_doubling_allreduce(16, KIB8, c);
        let ring = ring_allreduce(16, KIB8, c);
        let tree = binomial_tree_allreduce(16, KIB8, c);
        let rab = rabenseifner_allreduce(16, KIB8, c);
        assert_close(rd.time, 22.62144e-6, 1e-12, "rd");
        assert_close(ring.time, 151.2288e-6, 1e-12, "ring");
        assert_close(tree.time, 45.24288e-6, 1e-12, "tree");
        assert_close(rab.time, 41.2288e-6, 1e-12, "rab");
        assert_eq!(best_at(16, KIB8, c), Algorithm::RecursiveDoubling);
        // α and β parts.
        assert_close(ring.alpha_part, 150e-6, 1e-12, "ring α part");
        assert_close(ring.beta_part, 1.2288e-6, 1e-12, "ring β part");
        assert_eq!(ring.gamma_part, 0.0);
        assert_eq!(rd.startups, 4.0);
        assert_eq!(rab.byte_factor, 1.875);
        assert!(!rd.pow2_adapted && rd.label == "power-of-two formula");
    }

    /// 64 MiB: nβ = 67,108,864 × 0.08 ns = 5.36870912 ms.
    /// rab = 40 µs + 1.875 nβ = 10.10633 ms; ring = 150 µs + 1.875 nβ = 10.21633 ms;
    /// rd = 4(5 µs + nβ) = 21.49484 ms; tree = 42.98967 ms.
    #[test]
    fn seed_section9_large_message() {
        let c = CostParams::seed_example();
        let t = |a: Algorithm| a.cost(16, MIB64, c).time;
        assert_close(t(Algorithm::Rabenseifner), 10.106_329_6e-3, 1e-9, "rab");
        assert_close(t(Algorithm::Ring), 10.216_329_6e-3, 1e-9, "ring");
        assert_close(
            t(Algorithm::RecursiveDoubling),
            21.494_836_48e-3,
            1e-9,
            "rd",
        );
        assert_close(t(Algorithm::Tree), 42.989_672_96e-3, 1e-9, "tree");
        assert_eq!(best_at(16, MIB64, c), Algorithm::Rabenseifner);
        assert!(t(Algorithm::Ring) < t(Algorithm::RecursiveDoubling));
    }

    /// p = 1024: ring = 2046 × 5 µs + 2(1023)/1024 × 5.36870912 ms = 20.95649 ms;
    /// rab = 20 × 5 µs + the same β part = 10.82649 ms.
    #[test]
    fn seed_section9_1024_workers() {
        let c = CostParams::seed_example();
        let ring = ring_allreduce(1024, MIB64, c);
        let rab = rabenseifner_allreduce(1024, MIB64, c);
        assert_close(
            ring.time,
            10.23e-3 + 1023.0 / 512.0 * 5.368_709_12e-3,
            1e-12,
            "ring",
        );
        assert!(
            ring.time > 20.955e-3 && ring.time < 20.965e-3,
            "ring ≈ 20.96 ms"
        );
        assert!(
            rab.time > 10.825e-3 && rab.time < 10.835e-3,
            "rab ≈ 10.83 ms"
        );
        assert_eq!(ring.startups, 2046.0);
        assert_eq!(rab.startups, 20.0);
    }

    /// rd 4α + 4nβ = rab 8α + 1.875nβ ⇒ n = 4α / (2.125β) = 117,647.06 B.
    #[test]
    fn seed_crossover_rd_rabenseifner() {
        let c = CostParams::seed_example();
        let x = crossover(Algorithm::RecursiveDoubling, Algorithm::Rabenseifner, 16, c)
            .expect("the lines cross");
        assert_close(
            x.n_bytes,
            4.0 * 5e-6 / (2.125 * 0.08e-9),
            1e-12,
            "crossover",
        );
        assert!((x.n_bytes - 117_647.06).abs() < 0.01);
        assert_eq!(x.below, Algorithm::RecursiveDoubling);
        assert_eq!(x.above, Algorithm::Rabenseifner);
        // ≈ 114.9 KiB.
        assert!((x.n_bytes / 1024.0 - 114.89).abs() < 0.01);
        // The envelope: rd below, Rabenseifner above, nothing else.
        let iv = best_intervals(16, c);
        assert_eq!(iv.len(), 2);
        assert_eq!(iv[0].best, Algorithm::RecursiveDoubling);
        assert_eq!(iv[0].from, 0.0);
        assert_eq!(iv[1].best, Algorithm::Rabenseifner);
        assert_eq!(iv[0].to, x.n_bytes);
        assert_eq!(iv[1].to, f64::INFINITY);
        let env = envelope_crossovers(16, c);
        assert_eq!(env.len(), 1);
        assert_eq!(env[0].n_bytes, x.n_bytes);
        // Ring and Rabenseifner have the same slope: no crossover.
        assert!(crossover(Algorithm::Ring, Algorithm::Rabenseifner, 16, c).is_none());
    }

    /// Seed §6: p = 4, 100 MB, 12.5 GB/s (β = 0.08 ns/B), α = 0.
    /// Ring: 6 rounds × 25 MB × 0.08 ns/B = 6 × 2 ms = 12 ms.
    /// Naive root: 6 messages × 100 MB × 0.08 ns/B = 6 × 8 ms = 48 ms.
    #[test]
    fn seed_section6_ring_vs_naive_root() {
        let c = CostParams::new(0.0, 1.0 / 12.5e9);
        assert_close(ring_allreduce(4, 1e8, c).time, 12e-3, 1e-12, "ring");
        assert_close(naive_root_allreduce(4, 1e8, c).time, 48e-3, 1e-12, "naive");
    }

    /// The closed forms equal the time of the executed schedules (25 M f32
    /// elements = 100 MB; a round costs its slowest transfer).
    #[test]
    fn closed_forms_equal_executed_ring_and_naive() {
        let beta = 1.0 / 12.5e9;
        let ring = execute(
            &ring_all_reduce(4, 25_000_000, 4).expect("valid ring"),
            &default_init,
            ExecOptions { keep_states: false },
        )
        .expect("ring executes");
        assert!(ring.verification.ok());
        let naive = execute(
            &naive_root(4, 25_000_000, 4).expect("valid naive"),
            &default_init,
            ExecOptions { keep_states: false },
        )
        .expect("naive executes");
        assert_close(
            executed_time(&ring.schedule, 0.0, beta),
            12e-3,
            1e-12,
            "ring exec",
        );
        assert_close(
            executed_time(&naive.schedule, 0.0, beta),
            48e-3,
            1e-12,
            "naive exec",
        );

        // With α > 0, γ > 0 and several p (n divisible by p).
        for p in [2usize, 3, 4, 5, 7, 8, 16, 33] {
            let n_el = 1000 * p as u64;
            let bytes = (n_el * 4) as f64;
            for c in [
                CostParams::seed_example(),
                CostParams::new(2e-6, 1e-9).with_gamma(0.25e-9),
            ] {
                let rs = ring_all_reduce(p, n_el, 4).expect("ring");
                let ns = naive_root(p, n_el, 4).expect("naive");
                assert_close(
                    executed_time_with(&rs, c),
                    ring_allreduce(p, bytes, c).time,
                    1e-12,
                    "ring α>0",
                );
                assert_close(
                    executed_time_with(&ns, c),
                    naive_root_allreduce(p, bytes, c).time,
                    1e-12,
                    "naive α>0",
                );
            }
        }
    }

    /// The recursive generators (issue 5) run exactly the closed forms, for
    /// powers of two and, through the labelled adaptations, for other p.
    /// p = 12 (p′ = 8, r = 4): S = (1 + 1) + (2 + 2) + (4 + 4) = 14, so
    /// recursive halving costs 5α + (1 + 14/12 + 1/12)·nβ = 5α + 2.25·nβ.
    #[test]
    fn closed_forms_equal_executed_recursive_schedules() {
        use crate::core::schedule::recursive as sr;
        let c = CostParams::new(1e-6, 1e-9).with_gamma(0.5e-9);
        for p in [2usize, 3, 4, 5, 6, 7, 8, 12, 16, 24, 33] {
            // Divisible by p and by p′, so every chunk and block is equal.
            let n_el = 10 * (p * pow2_split(p).0) as u64;
            let nb = (n_el * 2) as f64;
            let pairs = [
                (
                    sr::recursive_doubling(p, n_el, 2).expect("rd"),
                    recursive_doubling_allreduce(p, nb, c),
                ),
                (
                    sr::rabenseifner(p, n_el, 2).expect("rab"),
                    rabenseifner_allreduce(p, nb, c),
                ),
                (
                    sr::recursive_halving_reduce_scatter(p, n_el, 2).expect("rh"),
                    recursive_halving_reduce_scatter(p, nb, c),
                ),
                (
                    sr::recursive_doubling_all_gather(p, n_el, 2).expect("rdag"),
                    recursive_doubling_all_gather(p, nb, c),
                ),
            ];
            for (s, f) in pairs {
                assert_close(
                    executed_time_with(&s, c),
                    f.time,
                    1e-12,
                    &format!("{} p={p}", f.name),
                );
                assert_eq!(f.pow2_adapted, !p.is_power_of_two(), "{} p={p}", f.name);
                assert_eq!(s.num_rounds() as f64, f.startups, "{} p={p} rounds", f.name);
            }
        }
        let rh = recursive_halving_reduce_scatter(12, 1.0, CostParams::new(0.0, 1.0));
        assert_eq!((rh.startups, rh.byte_factor), (5.0, 2.25));
        assert_eq!(halving_sum(8, 4), 14);
        assert_eq!(halving_sum(16, 0), 15);
    }

    /// 10 elements over p = 4 gives chunks 3, 3, 2, 2: each of the 6 ring rounds
    /// carries 3 elements, not 2.5, so the executed time exceeds the closed form
    /// by exactly 6 × 0.5 element.
    #[test]
    fn uneven_chunks_cost_the_largest_chunk() {
        let c = CostParams::new(1e-6, 1e-9);
        let s = ring_all_reduce(4, 10, 8).expect("ring");
        let exec = executed_time_with(&s, c);
        let closed = ring_allreduce(4, 80.0, c).time;
        assert_close(
            exec - closed,
            6.0 * 4.0 * 1e-9,
            1e-9,
            "one half element per round",
        );
        assert_eq!(executed_round_times(&s, c).len(), 6);
    }

    /// Zero-byte transfers (n < p) still pay α, as in `core::timing`.
    #[test]
    fn agrees_with_timing_module() {
        use crate::core::schedule::tree::binomial_tree;
        let c = CostParams::seed_example();
        // 2 elements over 4 ranks: chunks 1, 1, 0, 0; 6 rounds × α + 1 element.
        let s = ring_all_reduce(4, 2, 4).expect("ring");
        assert_close(
            executed_time_with(&s, c),
            6.0 * (5e-6 + 4.0 * 0.08e-9),
            1e-12,
            "6 rounds",
        );
        // The binomial tree schedule matches its closed form for any p.
        for p in [2usize, 3, 5, 8, 12, 16] {
            let s = binomial_tree(p, 1000, 4).expect("tree");
            assert_close(
                executed_time(&s, c.alpha, c.beta),
                binomial_tree_allreduce(p, 4000.0, c).time,
                1e-12,
                "tree",
            );
        }
    }

    /// p = 12 is not a power of two: p′ = 8, r = 4.
    /// rd: (3 + 2)(α + nβ) = 5 × 5.65536 µs = 28.2768 µs.
    /// rab: (2·3 + 2)α + (2·7/8 + 2)nβ = 40 µs + 3.75 × 655.36 ns = 42.4576 µs.
    /// tree: 2⌈log₂12⌉ = 8 levels: 45.24288 µs, no adaptation.
    #[test]
    fn non_power_of_two_is_adapted_and_labelled() {
        let c = CostParams::seed_example();
        let rd = recursive_doubling_allreduce(12, KIB8, c);
        assert!(rd.pow2_adapted);
        assert!(rd.label.contains("non-power-of-two"));
        assert_close(rd.time, 28.2768e-6, 1e-12, "rd p=12");
        assert!(rd
            .substituted
            .iter()
            .any(|l| l.contains("p′ = 2^⌊log₂12⌋ = 8")));
        let rab = rabenseifner_allreduce(12, KIB8, c);
        assert!(rab.pow2_adapted);
        assert_close(rab.time, 42.4576e-6, 1e-12, "rab p=12");
        let tree = binomial_tree_allreduce(12, KIB8, c);
        assert!(!tree.pow2_adapted);
        assert_close(tree.time, 45.24288e-6, 1e-12, "tree p=12");
        assert_eq!(pow2_split(12), (8, 4));
        assert_eq!(pow2_split(16), (16, 0));
        assert_eq!((floor_log2(12), ceil_log2(12)), (3, 4));
        for a in [Algorithm::Ring, Algorithm::NaiveRoot, Algorithm::Tree] {
            assert!(!a.cost(12, KIB8, c).pow2_adapted);
        }
    }

    /// The all-reduce closed forms are sums of their building blocks.
    #[test]
    fn building_blocks_compose() {
        let c = CostParams::new(3e-6, 0.1e-9).with_gamma(0.05e-9);
        for p in [2usize, 3, 6, 8, 12, 16, 100, 1024] {
            let n = 1e6;
            let ring = ring_reduce_scatter(p, n, c).time + ring_all_gather(p, n, c).time;
            assert_close(ring_allreduce(p, n, c).time, ring, 1e-12, "ring = rs + ag");
            // Rabenseifner = recursive halving + recursive doubling all-gather
            // for powers of two. Otherwise Rabenseifner folds once around the
            // whole all-reduce, while the stand-alone blocks each fold on
            // their own (and serve all p ranks), so they cost more.
            let rab = recursive_halving_reduce_scatter(p, n, c).time
                + recursive_doubling_all_gather(p, n, c).time;
            if p.is_power_of_two() {
                assert_close(
                    rabenseifner_allreduce(p, n, c).time,
                    rab,
                    1e-12,
                    "rab = rh + rd-ag",
                );
            } else {
                assert!(rabenseifner_allreduce(p, n, c).time < rab, "p = {p}");
            }
            let tree = binomial_reduce(p, n, c).time + binomial_broadcast(p, n, c).time;
            assert_close(binomial_tree_allreduce(p, n, c).time, tree, 1e-12, "tree");
        }
        // p = 8: recursive halving sends n/2 + n/4 + n/8 = 7n/8 in 3 steps.
        let rh = recursive_halving_reduce_scatter(8, 64e6, CostParams::new(1.0, 1.0));
        assert_eq!((rh.startups, rh.byte_factor), (3.0, 0.875));
        assert_eq!(rh.beta_part, 56e6);
    }

    /// γ adds (p−1)/p·nγ to the ring: p = 4, n = 1 MB, γ = 1 ns/B gives 750 µs.
    #[test]
    fn gamma_part() {
        let c = CostParams::new(0.0, 0.0).with_gamma(1e-9);
        let f = ring_allreduce(4, 1e6, c);
        assert_close(f.gamma_part, 750e-6, 1e-12, "ring γ");
        assert_close(naive_root_allreduce(4, 1e6, c).time, 3e-3, 1e-12, "naive γ");
        assert_close(
            recursive_doubling_allreduce(4, 1e6, c).time,
            2e-3,
            1e-12,
            "rd γ",
        );
        assert!(f.expression.contains('γ'));
        assert!(!ring_allreduce(4, 1e6, CostParams::new(1.0, 1.0))
            .expression
            .contains('γ'));
    }

    /// nccl-tests: ring at p = 4, 100 MB, 12 ms gives algbw = 8.333 GB/s and
    /// busbw = 8.333 × 2·3/4 = 12.5 GB/s, the link speed.
    #[test]
    fn algbw_and_busbw() {
        let a = algbw(1e8, 12e-3);
        assert_close(a, 1e8 / 12e-3, 1e-12, "algbw");
        assert_close(busbw(a, 4), 12.5e9, 1e-12, "busbw");
        assert_close(busbw(algbw(1e8, 48e-3), 4), 3.125e9, 1e-12, "naive busbw");
        assert_eq!(algbw(1e8, 0.0), 0.0);
    }

    #[test]
    fn crossover_written_out() {
        let c = CostParams::seed_example();
        let lines =
            crossover_calculation(Algorithm::Rabenseifner, Algorithm::RecursiveDoubling, 16, c)
                .expect("they cross");
        assert_eq!(
            lines,
            vec![
                "T_rd = 4α + 4·nβ",
                "T_rab = 8α + 1.875·nβ",
                "T_rd = T_rab when n = (8 − 4)α / ((4 − 1.875)β)",
                "  = 4 × 5 µs / (2.125 × 0.08 ns/B)",
                "  ≈ 117,647 B (117.6 kB = 114.9 KiB)",
            ]
        );
        assert!(crossover_calculation(Algorithm::Ring, Algorithm::Rabenseifner, 16, c).is_none());
        let g = crossover_calculation(
            Algorithm::Rabenseifner,
            Algorithm::RecursiveDoubling,
            16,
            c.with_gamma(1e-11),
        )
        .expect("they cross");
        assert!(g[2].contains("γ"), "{g:?}");
    }

    /// p = 4, 100 MB in 12 ms: algbw = 8.333 GB/s, busbw = 12.5 GB/s.
    #[test]
    fn nccl_bandwidths_written_out() {
        let b = nccl_bandwidths(1e8, 12e-3, 4);
        assert_close(b.busbw, 12.5e9, 1e-12, "busbw");
        assert_eq!(
            b.lines[0],
            "algbw = S / t = 100,000,000 B / 12.00 ms = 8.333 GB/s"
        );
        assert_eq!(
            b.lines[1],
            "busbw = algbw × 2(p−1)/p = 8.333 GB/s × 2(4−1)/4 = 8.333 GB/s × 1.5 = 12.5 GB/s"
        );
    }

    #[test]
    fn show_the_calculation_ring() {
        let f = ring_allreduce(16, KIB8, CostParams::seed_example());
        let s = f.substituted.join("\n");
        assert!(s.contains("T = 2(p−1)α + 2(p−1)/p·nβ"), "{s}");
        assert!(!s.contains('γ'), "{s}");
        assert!(
            s.contains("2(16−1) × 5 µs + 2(16−1)/16 × 8,192 B × 0.08 ns/B"),
            "{s}"
        );
        assert!(s.contains("= 30 × 5 µs + 1.875 × 655.4 ns"), "{s}");
        assert!(s.contains("= 150.0 µs + 1.229 µs"), "{s}");
        assert_eq!(
            f.substituted.last().map(String::as_str),
            Some("  = 151.2 µs")
        );
    }

    /// The fast numeric path and the written-out formula use the same numbers.
    #[test]
    fn factors_match_formulas() {
        for p in 0usize..=300 {
            for a in Algorithm::all() {
                let t = a.terms(p);
                assert_eq!(
                    a.factors(p),
                    [t.startups, t.byte_factor, t.gamma_factor],
                    "{a} p={p}"
                );
            }
        }
    }

    #[test]
    fn algorithm_names_round_trip() {
        for a in Algorithm::all() {
            assert_eq!(Algorithm::from_short(a.short()), Some(a));
            assert_eq!(Algorithm::all()[a.index()], a);
        }
        assert_eq!(Algorithm::from_short("RAB"), Some(Algorithm::Rabenseifner));
        assert_eq!(Algorithm::from_short("bogus"), None);
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let c = CostParams::seed_example();
        for p in [0usize, 1] {
            for a in Algorithm::all() {
                assert_eq!(a.cost(p, 1e6, c).time, 0.0, "{a} p={p}");
            }
        }
        assert_eq!(log_sizes(1.0, 1024.0, 11).len(), 11);
        assert_close(log_sizes(1.0, 1024.0, 11)[10], 1024.0, 1e-12, "log end");
        assert_eq!(log_sizes(0.0, 1.0, 5), vec![0.0]);
        let m = winner_map(&[8.0, 1e9], &[16, 1024], c);
        assert_eq!(m[0][0], Algorithm::RecursiveDoubling);
        assert_eq!(m[1][1], Algorithm::Rabenseifner);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn params() -> impl Strategy<Value = CostParams> {
        (
            1e-9f64..1e-3,
            1e-13f64..1e-8,
            prop_oneof![Just(0.0), 1e-13f64..1e-9],
        )
            .prop_map(|(a, b, g)| CostParams::new(a, b).with_gamma(g))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn monotone_in_n_and_alpha(p in 2usize..5000, n in 1.0f64..1e10, k in 1.0f64..10.0, c in params()) {
            for a in Algorithm::all() {
                let t = a.cost(p, n, c).time;
                prop_assert!(a.cost(p, n * k, c).time >= t, "{} not monotone in n", a);
                let c2 = CostParams { alpha: c.alpha * k, ..c };
                prop_assert!(a.cost(p, n, c2).time >= t, "{} not monotone in α", a);
                prop_assert!(t > 0.0);
            }
        }

        #[test]
        fn crossover_solver_agrees_with_brute_force(p in 2usize..5000, c in params()) {
            let iv = best_intervals(p, c);
            prop_assert!(!iv.is_empty());
            prop_assert_eq!(iv[0].from, 0.0);
            prop_assert_eq!(iv[iv.len() - 1].to, f64::INFINITY);
            for w in iv.windows(2) {
                prop_assert_eq!(w[0].to, w[1].from);
                prop_assert!(w[0].best != w[1].best);
            }
            // Scan 400 sizes from 1 B to 1 TB: the interval's winner is as fast
            // as the brute-force minimum.
            for n in log_sizes(1.0, 1e12, 400) {
                let brute = Algorithm::all()
                    .into_iter()
                    .map(|a| a.cost(p, n, c).time)
                    .fold(f64::INFINITY, f64::min);
                let inter = iv.iter().find(|i| n >= i.from && n < i.to).expect("covered");
                let t = inter.best.cost(p, n, c).time;
                prop_assert!(t <= brute * (1.0 + 1e-9), "p={} n={} {} {} vs {}", p, n, inter.best, t, brute);
            }
            // Every boundary is an exact break-even of its two winners.
            for x in envelope_crossovers(p, c) {
                let ta = x.below.cost(p, x.n_bytes, c).time;
                let tb = x.above.cost(p, x.n_bytes, c).time;
                prop_assert!((ta - tb).abs() <= 1e-9 * ta.max(tb));
            }
        }
    }
}
