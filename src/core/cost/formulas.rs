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

/// One coefficient of a closed form (the multiplier of α, nβ or nγ): its
/// value and its text with `p` substituted, e.g. `1.875` and "2(16−1)/16".
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Coeff {
    value: f64,
    text: String,
}

impl Coeff {
    /// A coefficient with its own text.
    pub(crate) fn new(value: f64, text: String) -> Coeff {
        Coeff { value, text }
    }
    /// No term.
    pub(crate) fn zero() -> Coeff {
        Coeff::new(0.0, "0".into())
    }
    /// `(p−1)`: the rounds of a ring.
    pub(crate) fn steps(p: usize) -> Coeff {
        Coeff::new((p - 1) as f64, format!("({p}−1)"))
    }
    /// `(p−1)/p`: the share of the tensor a ring rank sends.
    pub(crate) fn share(p: usize) -> Coeff {
        Coeff::new((p - 1) as f64 / p as f64, format!("({p}−1)/{p}"))
    }
    /// `⌈log₂p⌉`: the levels of a binomial tree.
    pub(crate) fn levels(p: usize) -> Coeff {
        Coeff::new(f64::from(ceil_log2(p)), format!("⌈log₂{p}⌉"))
    }
    /// `log₂p′` for a power of two `p′`.
    pub(crate) fn log2(pp: usize) -> Coeff {
        Coeff::new(f64::from(floor_log2(pp)), format!("log₂{pp}"))
    }
    /// Twice this coefficient, e.g. "2(16−1)".
    pub(crate) fn twice(self) -> Coeff {
        Coeff::new(2.0 * self.value, format!("2{}", self.text))
    }
    /// This coefficient plus `k`, e.g. "(log₂8 + 2)".
    pub(crate) fn plus(self, k: u32) -> Coeff {
        Coeff::new(self.value + f64::from(k), format!("({} + {k})", self.text))
    }
}

/// Coefficients of a cost before the parameters are substituted: the
/// `[α, nβ, nγ]` multipliers, the symbolic expression and which form
/// applies.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Terms {
    name: &'static str,
    expression: &'static str,
    coeffs: [Coeff; 3],
    label: String,
    pow2_adapted: bool,
    /// Extra explanation lines (e.g. the non-power-of-two adaptation).
    notes: Vec<String>,
}

impl Terms {
    /// A form valid for any `p`.
    pub(crate) fn any_p(name: &'static str, expression: &'static str, coeffs: [Coeff; 3]) -> Terms {
        Terms {
            name,
            expression,
            coeffs,
            label: ANY_P_LABEL.into(),
            pow2_adapted: false,
            notes: Vec::new(),
        }
    }
    /// The power-of-two form when `p` is a power of two, otherwise the
    /// labelled fold-in / unfold adaptation built by `adapted` from
    /// `(p′, r)` ([`pow2_split`]) as `(expression, coefficients, notes)`.
    pub(crate) fn pow2_or_adapted(
        name: &'static str,
        p: usize,
        pow2: (&'static str, fn(usize) -> [Coeff; 3]),
        adapted: impl FnOnce(usize, usize) -> (&'static str, [Coeff; 3], Vec<String>),
    ) -> Terms {
        let (pp, r) = pow2_split(p);
        let (expression, coeffs, notes) = if r == 0 {
            (pow2.0, pow2.1(pp), Vec::new())
        } else {
            adapted(pp, r)
        };
        Terms {
            name,
            expression,
            coeffs,
            label: if r == 0 { POW2_LABEL } else { ADAPTED_LABEL }.into(),
            pow2_adapted: r != 0,
            notes,
        }
    }
    /// The same terms with another label.
    pub(crate) fn labelled(self, label: String) -> Terms {
        Terms { label, ..self }
    }
}

impl Terms {
    /// The formula at `p` ranks, `n` bytes and the parameters `c`, written out.
    pub(crate) fn formula(self, p: usize, n: f64, c: CostParams) -> Formula {
        let [startups, bytes, gamma] = &self.coeffs;
        let alpha_part = startups.value * c.alpha;
        let beta_part = bytes.value * n * c.beta;
        let gamma_part = gamma.value * n * c.gamma;
        let time = alpha_part + beta_part + gamma_part;
        let with_gamma = c.gamma != 0.0 && gamma.value != 0.0;

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
            self.expression.to_string()
        } else {
            strip_gamma(self.expression)
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
            startups.text,
            format_input_time(c.alpha),
            bytes.text,
            format_bytes_exact(n),
            format_beta(c.beta)
        );
        if with_gamma {
            s += &format!(
                " + {} × {} × {}",
                gamma.text,
                format_bytes_exact(n),
                format_beta(c.gamma)
            );
        }
        lines.push(s);
        // Coefficients evaluated, nβ evaluated.
        let mut s = format!(
            "  = {} × {} + {} × {}",
            format_coeff(startups.value),
            format_input_time(c.alpha),
            format_coeff(bytes.value),
            format_time(n * c.beta)
        );
        if with_gamma {
            s += &format!(
                " + {} × {}",
                format_coeff(gamma.value),
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
            startups: startups.value,
            byte_factor: bytes.value,
            gamma_factor: gamma.value,
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

/// The note that explains the fold-in / unfold adaptation at `p` ranks.
pub(crate) fn adaptation_note(p: usize, extra: &str) -> String {
    let (pp, r) = pow2_split(p);
    format!(
        "p = {p} is not a power of two: p′ = 2^⌊log₂{p}⌋ = {pp}, and the r = {r} extra rank{} fold into the p′ subset and are unfolded at the end: {extra}",
        if r == 1 { "" } else { "s" }
    )
}

const ADAPTED_LABEL: &str = "non-power-of-two adaptation (fold-in / unfold, MPICH)";
const POW2_LABEL: &str = "power-of-two formula";
const ANY_P_LABEL: &str = "any p";

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

/// `(S, note)`: [`halving_sum`] over `p′` ranks of which `r` carry two
/// chunks, and the line that explains it.
pub(crate) fn halving_note(pp: usize, r: usize, p: usize) -> (u64, String) {
    let sum = halving_sum(pp, r);
    (
        sum,
        format!(
            "the first r = {r} of the p′ = {pp} ranks carry two chunks of n/{p}, so the round at distance d moves d + min(d, r) chunks: S = {sum}"
        ),
    )
}

// ---------------------------------------------------------------------------
// Building blocks without a registry entry of their own. The closed forms of
// the registered algorithms live in their files under
// `crate::core::collectives`. `n` is always the size of the whole tensor in
// bytes.

/// Recursive-doubling all-gather: `log₂p·α + (p−1)/p·nβ` for `p` a power of
/// two. Otherwise (labelled), mirroring the recursive-halving adaptation:
/// each extra rank hands its chunk to a partner (`α + nβ/p`), doubling runs on
/// `p′` ranks with `S` chunks on the critical path, and the whole result is
/// unfolded (`α + nβ`): `(log₂p′ + 2)α + (1/p + S/p + 1)·nβ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (recursive doubling allgather).
pub fn recursive_doubling_all_gather_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    Terms::pow2_or_adapted(
        "recursive-doubling all-gather",
        p,
        ("log₂p·α + (p−1)/p·nβ", |pp| {
            [Coeff::log2(pp), Coeff::share(pp), Coeff::zero()]
        }),
        |pp, r| {
            let (sum, note) = halving_note(pp, r, p);
            let bytes = Coeff::new(
                (1 + sum) as f64 / p as f64 + 1.0,
                format!("(1/{p} + {sum}/{p} + 1)"),
            );
            let fold = "+(α + nβ/p) for each extra rank to hand over its chunk and +(α + nβ) to unfold the whole result";
            (
                "(log₂p′ + 2)α + (1/p + S/p + 1)·nβ",
                [Coeff::log2(pp).plus(2), bytes, Coeff::zero()],
                vec![adaptation_note(p, fold), note],
            )
        },
    )
    .formula(p, n_bytes, c)
}

/// Binomial-tree broadcast of `n` bytes: `⌈log₂p⌉(α + nβ)`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (binomial broadcast).
pub fn binomial_broadcast_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let coeffs = [Coeff::levels(p), Coeff::levels(p), Coeff::zero()];
    Terms::any_p("binomial broadcast", "⌈log₂p⌉(α + nβ)", coeffs).formula(p, n_bytes, c)
}

/// Binomial-tree reduce of `n` bytes to a root: `⌈log₂p⌉(α + nβ + nγ)`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §2.
pub fn binomial_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let coeffs = [Coeff::levels(p), Coeff::levels(p), Coeff::levels(p)];
    Terms::any_p("binomial reduce", "⌈log₂p⌉(α + nβ + nγ)", coeffs).formula(p, n_bytes, c)
}
