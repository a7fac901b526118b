//! Several ranks of one job: their collectives matched by process group
//! and order, and who arrived last.
//!
//! The rule: within one process group every rank issues the same
//! collectives in the same order (PyTorch's `ProcessGroup` contract, which
//! its Flight Recorder checks by sequence number), so the n-th collective of
//! a group on one rank is the n-th on every other. A rank's arrival is its
//! operation's start; the last rank to arrive holds the others up, and each
//! of them waits `last start − its start` (HTA's "collective arrival"
//! reading). Start times are compared on the traces' own clocks: on one
//! host they share one clock; across hosts they are as aligned as the
//! hosts' clocks are.

use super::types::{Comm, RankProfile};

/// One rank's part in a matched collective.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrival {
    /// The rank.
    pub rank: usize,
    /// Its start, µs on the trace's clock.
    pub start: f64,
    /// Its duration, µs.
    pub dur: f64,
    /// How long it waited for the last rank, s (0 for the last).
    pub wait: f64,
}

/// One collective matched across ranks.
#[derive(Clone, Debug, PartialEq)]
pub struct Matched {
    /// The process group's name.
    pub pg: String,
    /// Its place in the group's order, from 0.
    pub index: usize,
    /// What it is, from the first rank ("all-reduce").
    pub label: String,
    /// S in bytes, from the first rank, where known.
    pub bytes: Option<u64>,
    /// Every rank's part, in rank order.
    pub arrivals: Vec<Arrival>,
    /// Latest start − earliest start, s.
    pub spread: f64,
    /// The rank that started last.
    pub last: usize,
    /// False when the ranks disagree on what it is or its size.
    pub agree: bool,
}

/// Matches the collectives of `ranks` (each with its rank number), per
/// process group in order, up to the shortest rank's count in that group.
/// Groups that only one rank shows are left out. Rows come in start order.
pub fn match_ranks(ranks: &[(usize, &RankProfile)]) -> Vec<Matched> {
    let mut pgs: Vec<&str> = Vec::new();
    for (_, p) in ranks {
        for c in &p.comms {
            if !pgs.contains(&c.pg.as_str()) {
                pgs.push(&c.pg);
            }
        }
    }
    let mut out = Vec::new();
    for pg in pgs {
        let lists: Vec<(usize, Vec<&Comm>)> = ranks
            .iter()
            .map(|(r, p)| {
                (
                    *r,
                    p.comms.iter().filter(|c| c.pg == pg).collect::<Vec<_>>(),
                )
            })
            .filter(|(_, l)| !l.is_empty())
            .collect();
        if lists.len() < 2 {
            continue;
        }
        let n = lists.iter().map(|(_, l)| l.len()).min().unwrap_or(0);
        for i in 0..n {
            let first = lists[0].1[i];
            let agree = lists
                .iter()
                .all(|(_, l)| l[i].label == first.label && l[i].nelems == first.nelems);
            let (last, latest) =
                lists
                    .iter()
                    .fold((lists[0].0, f64::NEG_INFINITY), |acc, (r, l)| {
                        if l[i].start > acc.1 {
                            (*r, l[i].start)
                        } else {
                            acc
                        }
                    });
            let earliest = lists
                .iter()
                .map(|(_, l)| l[i].start)
                .fold(f64::INFINITY, f64::min);
            let mut arrivals: Vec<Arrival> = lists
                .iter()
                .map(|(r, l)| Arrival {
                    rank: *r,
                    start: l[i].start,
                    dur: l[i].dur,
                    wait: (latest - l[i].start) * 1e-6,
                })
                .collect();
            arrivals.sort_by_key(|a| a.rank);
            out.push(Matched {
                pg: pg.to_string(),
                index: i,
                label: first.label.clone(),
                bytes: first.bytes(),
                arrivals,
                spread: (latest - earliest) * 1e-6,
                last,
                agree,
            });
        }
    }
    out.sort_by(|a, b| {
        let s = |m: &Matched| {
            m.arrivals
                .iter()
                .map(|a| a.start)
                .fold(f64::INFINITY, f64::min)
        };
        s(a).total_cmp(&s(b))
    });
    out
}
