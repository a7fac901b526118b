//! Closed forms of the α–β–γ model and their written-out substitution: one
//! [`Formula`] per algorithm and per building block, each with its source.

use super::CostParams;
use crate::core::units::{
    format_beta, format_bytes_exact, format_coeff, format_input_time, format_time,
};

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
                format_input_time(c.alpha),
                format_beta(c.beta),
                format_bytes_exact(n)
            ) + &if c.gamma != 0.0 {
                format!(", γ = {}", format_beta(c.gamma))
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
            format_input_time(c.alpha),
            self.bytes_text,
            format_bytes_exact(n),
            format_beta(c.beta)
        );
        if with_gamma {
            s += &format!(
                " + {} × {} × {}",
                self.gamma_text,
                format_bytes_exact(n),
                format_beta(c.gamma)
            );
        }
        lines.push(s);
        // Coefficients evaluated, nβ evaluated.
        let mut s = format!(
            "  = {} × {} + {} × {}",
            format_coeff(self.startups),
            format_input_time(c.alpha),
            format_coeff(self.byte_factor),
            format_time(n * c.beta)
        );
        if with_gamma {
            s += &format!(
                " + {} × {}",
                format_coeff(self.gamma_factor),
                format_time(n * c.gamma)
            );
        }
        lines.push(s);
        let mut s = format!(
            "  = {} + {}",
            format_time(alpha_part),
            format_time(beta_part)
        );
        if with_gamma {
            s += &format!(" + {}", format_time(gamma_part));
        }
        lines.push(s);
        lines.push(format!("  = {}", format_time(time)));

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
pub(crate) fn halving_sum(pp: usize, r: usize) -> u64 {
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
/// all-gather"); Patarasuk & Yuan 2009. Course §9: p = 16, α = 5 µs,
/// β = 0.08 ns/B, 8 KiB gives ≈ 151.2 µs.
pub fn ring_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    ring_terms(p).formula(p, n_bytes, c)
}

/// Basic binomial-tree all-reduce (unpipelined reduce to a root, then
/// broadcast, full tensor per message):
/// `T = 2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §2 (binomial reduce and
/// broadcast); course §7.
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
/// Course §6: p = 4, 100 MB at 12.5 GB/s, α = 0 gives 48 ms (the ring: 12 ms).
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
