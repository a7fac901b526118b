//! Building blocks shared by the topology-aware all-reduces: rings inside a
//! group of ranks over arbitrary element pieces, and merging the rounds of
//! groups that run at the same time.

use std::ops::Range;

use crate::core::cost::formulas::Formula;
use crate::core::cost::CostParams;
use crate::core::schedule::{chunk_range, Computation, Op, Phase, Round, Schedule, Transfer};
use crate::core::topology::Topology;
use crate::core::units::decimal;
use crate::core::units::{format_decimal, format_time};

/// Piece `i` of `parts` nearly equal pieces of the element range `r`
/// (the first `len % parts` pieces get one extra element, as
/// [`chunk_range`] does for the whole tensor).
pub fn sub_range(r: &Range<u64>, parts: usize, i: usize) -> Range<u64> {
    let c = chunk_range(r.end.saturating_sub(r.start), parts, i);
    r.start + c.start..r.start + c.end
}

/// Ring reduce-scatter among `members` (ranks, in ring order): member `i`
/// ends holding the group's sum on `pieces[i]` (a list of ranges).
/// `m − 1` rounds; in round `k` member `i` sends its pieces
/// `(i − k − 1) mod m` to member `i + 1`, which adds them. Empty ranges are
/// kept (a zero-byte message still pays α, as in the flat ring).
/// Returns one transfer list per round; no rounds when `m ≤ 1`.
pub fn ring_reduce_scatter(members: &[usize], pieces: &[Vec<Range<u64>>]) -> Vec<Vec<Transfer>> {
    ring(members, pieces, 1, Op::Reduce)
}

/// Ring all-gather among `members`: member `i` starts with the result on
/// `pieces[i]`; `m − 1` rounds; in round `k` member `i` copies pieces
/// `(i − k) mod m` to member `i + 1`. Every member ends with every piece.
pub fn ring_all_gather(members: &[usize], pieces: &[Vec<Range<u64>>]) -> Vec<Vec<Transfer>> {
    ring(members, pieces, 0, Op::Copy)
}

fn ring(members: &[usize], pieces: &[Vec<Range<u64>>], shift: usize, op: Op) -> Vec<Vec<Transfer>> {
    let m = members.len().min(pieces.len());
    if m < 2 {
        return Vec::new();
    }
    (0..m - 1)
        .map(|k| {
            let mut v = Vec::new();
            for i in 0..m {
                let piece = (i + 2 * m - k - shift) % m;
                for r in &pieces[piece] {
                    v.push(Transfer {
                        src: members[i],
                        dst: members[(i + 1) % m],
                        range: r.clone(),
                        op,
                        chunk: None,
                    });
                }
            }
            v
        })
        .collect()
}

/// Runs several groups' rounds side by side: round `k` of the result holds
/// round `k` of every group that still has one.
pub fn side_by_side(groups: Vec<Vec<Vec<Transfer>>>) -> Vec<Vec<Transfer>> {
    let len = groups.iter().map(Vec::len).max().unwrap_or(0);
    let mut out: Vec<Vec<Transfer>> = vec![Vec::new(); len];
    for g in groups {
        for (k, ts) in g.into_iter().enumerate() {
            out[k].extend(ts);
        }
    }
    out
}

/// Wraps transfer lists into rounds of one phase with the level text `note`.
pub fn rounds(list: Vec<Vec<Transfer>>, phase: Phase, note: &str) -> Vec<Round> {
    list.into_iter()
        .map(|transfers| Round {
            phase,
            note: note.to_string(),
            transfers,
        })
        .collect()
}

/// The all-reduce schedule on `p` ranks, `n` elements of
/// `elem_bytes` bytes, made of `rounds`.
pub fn all_reduce(p: usize, n: u64, elem_bytes: u64, rounds: Vec<Round>) -> Schedule {
    Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds,
    }
}

/// `(N, G)`: the node count and the ranks per node of `topo`, when the
/// arguments can be costed by a closed form over equal nodes (`p ≥ 2`,
/// `n ≥ 1`, `elem_bytes ≥ 1`, every node the same size); `None` otherwise.
pub fn equal_nodes(topo: &Topology, n: u64, elem_bytes: u64) -> Option<(usize, usize)> {
    let p = topo.p();
    if p < 2 || n == 0 || elem_bytes == 0 || !topo.equal_nodes() {
        return None;
    }
    let nodes = topo.nodes();
    Some((nodes, p / nodes))
}

/// `⌈a / b⌉` for the number of ranks sharing one NIC (b ≥ 1).
pub fn ceil_div(a: usize, b: usize) -> usize {
    a.div_ceil(b.max(1))
}

/// Element counts for closed forms: the real quotient (`exact`, the
/// textbook formula, equal to the executed time when every split is even)
/// or the floor (a lower bound: every executed piece is at least this big).
#[derive(Clone, Copy, Debug)]
pub struct Split {
    /// Real division when true, floor division when false.
    pub exact: bool,
}

impl Split {
    /// Real division: the closed form.
    pub const EXACT: Split = Split { exact: true };
    /// Floor division: a lower bound.
    pub const FLOOR: Split = Split { exact: false };

    /// `x / parts` elements.
    pub fn div(self, x: f64, parts: usize) -> f64 {
        let q = x / parts.max(1) as f64;
        if self.exact {
            q
        } else {
            q.floor()
        }
    }
}

/// A flat-model closed form (every message costs `α + m·β`, reduced bytes
/// `m·γ`): `startups·α + byte_factor·n·β + gamma_factor·n·γ`, written out.
pub fn flat_formula(
    name: &str,
    expression: &str,
    [startups, byte_factor, gamma_factor]: [f64; 3],
    n_bytes: f64,
    c: CostParams,
    label: String,
) -> Formula {
    let alpha_part = startups * c.alpha;
    let beta_part = byte_factor * n_bytes * c.beta;
    let gamma_part = gamma_factor * n_bytes * c.gamma;
    let time = alpha_part + beta_part + gamma_part;
    Formula {
        name: name.to_string(),
        expression: expression.to_string(),
        startups,
        byte_factor,
        gamma_factor,
        time,
        alpha_part,
        beta_part,
        gamma_part,
        label: label.clone(),
        pow2_adapted: false,
        substituted: vec![
            label,
            format!(
                "T = {} × α + {} × n·β + {} × n·γ with n = {}",
                decimal::shortest(startups),
                decimal::fixed(byte_factor, 4),
                decimal::fixed(gamma_factor, 4),
                format_decimal(n_bytes)
            ),
            format!(
                "  = {} + {} + {}",
                format_time(alpha_part),
                format_time(beta_part),
                format_time(gamma_part)
            ),
            format!("  = {}", format_time(time)),
        ],
    }
}

/// Test helper for registry entries: on `nodes × gpus` (1–8 each) the
/// schedule verifies and, with `n` a multiple of `equal_parts`, the
/// flat-model closed form equals the executed α–β–γ time.
#[cfg(test)]
pub(crate) fn check_registry_entry(alg: super::Algorithm) {
    use crate::core::execute::{default_init, execute, ExecOptions};
    use crate::core::timing::executed_time_with;
    let c = CostParams::new(3e-6, 0.1e-9).with_gamma(0.02e-9);
    for nodes in 1..=8 {
        for gpus in 1..=8 {
            if nodes * gpus < 2 {
                continue;
            }
            let topo = super::nodes_of(nodes, gpus).expect("valid");
            let n = 3 * alg.equal_parts(&topo) as u64;
            let s = alg.generate_on(&topo, n, 4).expect("valid");
            let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
            assert!(t.verification.ok(), "{} N={nodes} g={gpus}", alg.key());
            let exec = executed_time_with(&s, c);
            let closed = alg.closed_form_on(&topo, (n * 4) as f64, c).time;
            assert!(
                super::times_agree(exec, closed),
                "{} N={nodes} g={gpus}: executed {exec} vs closed {closed}",
                alg.key()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_ring_leaves_piece_i_at_member_i() {
        let pieces: Vec<Vec<Range<u64>>> = (0..3).map(|i| vec![chunk_range(9, 3, i)]).collect();
        let rs = ring_reduce_scatter(&[4, 5, 6], &pieces);
        assert_eq!(rs.len(), 2);
        // Last round: member i receives its own piece i from member i − 1.
        let last = &rs[1];
        assert!(last
            .iter()
            .any(|t| t.src == 4 && t.dst == 5 && t.range == (3..6)));
        assert!(last
            .iter()
            .any(|t| t.src == 6 && t.dst == 4 && t.range == (0..3)));
        let ag = ring_all_gather(&[4, 5, 6], &pieces);
        // First all-gather round: member i copies its own piece i onwards.
        assert!(ag[0]
            .iter()
            .any(|t| t.src == 4 && t.dst == 5 && t.range == (0..3) && t.op == Op::Copy));
        assert!(ring_reduce_scatter(&[7], &pieces).is_empty());
        assert_eq!(sub_range(&(6..12), 4, 0), 6..8);
        assert_eq!(sub_range(&(6..12), 4, 3), 11..12);
    }
}
