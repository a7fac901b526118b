//! The cost view's all-to-all panel: the three all-to-all entries of the
//! registry (pairwise exchange, Bruck, linear: every send at once) at the page's p, α, β
//! and n, with the Bruck–pairwise break-even and why it falls where it
//! does.
//!
//! # The rule
//! The page's n is the whole p × p block matrix, as everywhere in the lab
//! ([`crate::core::collectives::all_to_all`]): each rank sends n/p bytes of
//! its own (nccl-tests' `alltoall_perf` size), one block of n/p² to every
//! rank. The closed forms are Thakur, Rabenseifner & Gropp 2005, §3:
//! pairwise `(p−1)α + (p−1)/p²·nβ`, Bruck `⌈log₂p⌉α + Σₖbₖ/p²·nβ`, all at
//! once (linear) `α + (p−1)/p²·nβ`. Bruck has fewer start-ups and more bytes than
//! pairwise (a block may travel several hops), so the two break even at
//! one size; linear has the fewest of both in this model, which a real
//! network's incast does not grant it (the panel says so).

use crate::core::collectives::compare::{crossover, crossover_calculation};
use crate::core::collectives::Algorithm;
use crate::core::cost::CostParams;
use crate::core::units::{capitalise, decimal, format_both, format_time};
use crate::params::collectives::MAX_P as COLLECTIVES_MAX_P;
use crate::params::timeline::MAX_P as TIMELINE_MAX_P;

/// The all-to-all entries, in the panel's order.
pub const ALL_TO_ALL: [Algorithm; 3] = [Algorithm::PAIRWISE, Algorithm::BRUCK, Algorithm::LINEAR];

/// One algorithm's row.
#[derive(Clone, Debug, PartialEq)]
pub struct AllToAllRow {
    /// The registry entry.
    pub alg: Algorithm,
    /// Start-ups on the critical path (the multiplier of α), e.g. "15".
    pub startups: String,
    /// Bytes each rank sends on the critical path, e.g. "480 B".
    pub bytes: String,
    /// The closed form's time, e.g. "75.04 µs".
    pub time: String,
    /// The closed form, e.g. "(p−1)α + (p−1)/p²·nβ".
    pub expression: String,
    /// True for the fastest (every one of a tie).
    pub fastest: bool,
}

/// What the panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct AllToAllPanel {
    /// What n means here, with the per-rank and per-block sizes.
    pub lede: String,
    /// Pairwise, Bruck and linear.
    pub rows: Vec<AllToAllRow>,
    /// The Bruck–pairwise break-even (or why they never cross).
    pub bruck_pairwise: String,
    /// Its solved equation, line by line (empty when they never cross).
    pub calculation: Vec<String>,
    /// Why linear is never slower here, and why it is in life.
    pub all_at_once: String,
    /// Where to watch them: (link text, `?view=…` href) for the collectives
    /// view (Bruck, block by block) and the timeline (linear's sends sharing
    /// the port), at this p where those views accept it.
    pub links: Vec<(String, String)>,
}

/// The panel at `p` ranks (≥ 2), an `n`-byte block matrix and the model `c`
/// (α in s, β and γ in s/B; all-to-all reduces nothing, so γ plays no part).
pub fn all_to_all_panel(p: usize, n: f64, c: CostParams) -> AllToAllPanel {
    let p = p.max(2);
    let formulas: Vec<_> = ALL_TO_ALL.iter().map(|&a| (a, a.cost(p, n, c))).collect();
    let best = formulas
        .iter()
        .map(|(_, f)| f.time)
        .fold(f64::INFINITY, f64::min);
    let rows = formulas
        .iter()
        .map(|(a, f)| AllToAllRow {
            alg: *a,
            startups: decimal::fixed(f.startups, 0),
            bytes: format_both(f.byte_factor * n),
            time: format_time(f.time),
            expression: f.expression.clone(),
            fastest: f.time <= best * (1.0 + 1e-12),
        })
        .collect();
    let lede = format!(
        "The same n = {} as a p × p block matrix: each rank sends {} of its own (nccl-tests' alltoall_perf size), one block of n/p² = {} to every rank.",
        format_both(n),
        format_both(n / p as f64),
        format_both(n / (p * p) as f64)
    );
    let (bruck, pairwise) = (&formulas[1].1, &formulas[0].1);
    let blocks = |b: f64| whole(b * (p * p) as f64);
    let (text, calculation) = match crossover(Algorithm::BRUCK, Algorithm::PAIRWISE, p, c) {
        Some(x) => (
            format!(
                "Bruck pays {} start-ups against pairwise's {}, but a block may travel several hops, so each rank sends {} blocks against {}: Bruck is faster below {}, pairwise above (both take {} there).",
                whole(bruck.startups),
                whole(pairwise.startups),
                blocks(bruck.byte_factor),
                blocks(pairwise.byte_factor),
                format_both(x.n_bytes),
                format_time(x.time)
            ),
            crossover_calculation(Algorithm::BRUCK, Algorithm::PAIRWISE, p, c).unwrap_or_default(),
        ),
        None if bruck.startups == pairwise.startups && bruck.byte_factor == pairwise.byte_factor => (
            format!(
                "At p = {p} Bruck and pairwise pay the same: {} start-ups and {} blocks per rank each.",
                whole(bruck.startups),
                blocks(bruck.byte_factor)
            ),
            Vec::new(),
        ),
        None => {
            let faster = if bruck.time <= pairwise.time { "Bruck" } else { "pairwise" };
            (
                format!("Bruck and pairwise never break even at these parameters: {faster} is faster at every size."),
                Vec::new(),
            )
        }
    };
    let all_at_once = format!(
        "Linear posts every send at once: it pays one start-up and sends every block once, so this model never finds it slower. A real network does: its p − 1 = {} messages leave together and meet at every receiver, which is why MPICH posts them in batches and switches to pairwise exchange for long messages (Thakur, Rabenseifner & Gropp 2005).",
        p - 1
    );
    let (pc, pt) = (
        p.min(COLLECTIVES_MAX_P as usize),
        p.min(TIMELINE_MAX_P as usize),
    );
    let links = vec![
        (
            format!("Bruck block by block at p = {pc} (collectives view)"),
            format!("?view=collectives&alg=bruck&p={pc}"),
        ),
        (
            format!("linear on the clock at p = {pt}, its sends sharing the port (timeline view)"),
            format!("?view=timeline&alg=linear&p={pt}"),
        ),
    ];
    AllToAllPanel {
        lede,
        rows,
        bruck_pairwise: capitalise(&text),
        calculation,
        all_at_once,
        links,
    }
}

/// A count (start-ups or blocks) as a whole number, printed without std's
/// float formatting.
fn whole(x: f64) -> String {
    decimal::fixed(x, 0)
}
