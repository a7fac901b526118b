//! The schedule flattened once for the simulation: its transfers, every
//! rank's messages in round order, and the pair groups (every piece from one
//! sender to one receiver, which share one route and one clock).

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::core::schedule::{Op, Round};
use crate::core::timing::clock::{ClockError, MAX_PIECES};
use crate::core::timing::resources::Network;
use crate::core::topology::LinkClass;

pub(super) const NONE: u64 = u64::MAX;
/// "No round": a (rank, piece) that is not in a round now.
pub(super) const IDLE: u32 = u32::MAX;

/// A member of a group: ends when the group's clock reaches `mark`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Member {
    pub(super) mark: f64,
    pub(super) seq: u64,
    pub(super) slot: u32,
    pub(super) ver: u32,
}

impl PartialEq for Member {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Member {}
impl PartialOrd for Member {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Member {
    /// Reversed: the max-heap's top is the smallest mark (then the first joined).
    fn cmp(&self, o: &Self) -> Ordering {
        o.mark.total_cmp(&self.mark).then(o.seq.cmp(&self.seq))
    }
}

/// The pieces from one sender to one receiver (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub(super) src: u32,
    pub(super) dst: u32,
    pub(super) class: LinkClass,
    pub(super) ids: [u32; 4],
    pub(super) nids: u8,
    pub(super) cap: f64,
    /// Index of the α queue of its link class.
    pub(super) queue: u8,
    /// Seconds per byte of each member at the current shares.
    pub(super) eff: f64,
    /// Bytes each member has moved since the group became busy.
    pub(super) v: f64,
    /// When `v` was last brought up to date, seconds.
    pub(super) last: f64,
    /// Members flowing.
    pub(super) n: u32,
    /// Version of its queued end event.
    pub(super) ver: u32,
    pub(super) members: BinaryHeap<Member>,
}

/// A transfer of the schedule, flattened.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tx {
    pub(super) len: u64,
    pub(super) group: u32,
    pub(super) round: u32,
    pub(super) reduce: bool,
}

/// One message of a rank's row: its round and its transfer.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Ent {
    pub(super) round: u32,
    pub(super) g: u32,
}

/// The schedule flattened for the simulation.
pub(super) struct Plan {
    pub(super) tx: Vec<Tx>,
    pub(super) groups: Vec<Group>,
    /// α of each queue, seconds.
    pub(super) alphas: Vec<f64>,
    /// Every rank's messages in round order: rank `x`'s are
    /// `ent[first[x]..first[x + 1]]`.
    pub(super) ent: Vec<Ent>,
    pub(super) first: Vec<u32>,
}

/// Builds the [`Plan`] from the rounds in one pass, checking every
/// transfer; `Ok(Err(count))` when there are more than [`MAX_PIECES`]
/// pieces (`count` transfers).
pub(super) fn plan<R: Borrow<Round>>(
    p: usize,
    rounds: impl IntoIterator<Item = R>,
    net: &Network<'_>,
    k: usize,
) -> Result<Plan, ClockError> {
    let limit = MAX_PIECES / k as u64;
    let mut tx: Vec<Tx> = Vec::new();
    let mut count = vec![0u32; p + 1];
    let mut groups: Vec<Group> = Vec::new();
    let mut alphas: Vec<f64> = Vec::new();
    // The last receiver of each sender, and every pair seen.
    let mut recent: Vec<(u32, u32)> = vec![(IDLE, IDLE); p];
    // Per sender, the group of each receiver seen (a sender has few
    // receivers, so a scan; no hash map type is linked for it).
    let mut pairs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p];
    let mut transfers: u64 = 0;
    for (r, round) in rounds.into_iter().enumerate() {
        for t in &round.borrow().transfers {
            if t.src >= p || t.dst >= p || t.src == t.dst || p > net.p() {
                return Err(ClockError::Malformed(format!(
                    "the schedule sends from rank {} to rank {} on {} ranks",
                    t.src, t.dst, p
                )));
            }
            transfers += 1;
            if transfers > limit {
                continue; // only counted, for the message
            }
            let (s, d) = (t.src as u32, t.dst as u32);
            let group = match recent[t.src] {
                (dst, g) if dst == d => g,
                _ => {
                    let next = groups.len() as u32;
                    let seen = &mut pairs[t.src];
                    let g = match seen.iter().find(|(dst, _)| *dst == d) {
                        Some(&(_, g)) => g,
                        None => {
                            seen.push((d, next));
                            next
                        }
                    };
                    if g == next {
                        let route = net.route(t.src, t.dst);
                        let queue = match alphas.iter().position(|&a| a == route.alpha) {
                            Some(i) => i,
                            None => {
                                alphas.push(route.alpha);
                                alphas.len() - 1
                            }
                        };
                        groups.push(Group {
                            src: s,
                            dst: d,
                            class: route.class,
                            ids: route.ids,
                            nids: route.len,
                            cap: route.cap_beta,
                            queue: queue as u8,
                            eff: 0.0,
                            v: 0.0,
                            last: 0.0,
                            n: 0,
                            ver: 0,
                            members: BinaryHeap::new(),
                        });
                    }
                    recent[t.src] = (d, g);
                    g
                }
            };
            tx.push(Tx {
                len: t.len(),
                group,
                round: r as u32,
                reduce: t.op == Op::Reduce,
            });
            count[t.src + 1] += 1;
            count[t.dst + 1] += 1;
        }
    }
    if transfers > limit {
        return Err(ClockError::TooLarge {
            pieces: transfers * k as u64,
            limit: MAX_PIECES,
        });
    }
    for x in 0..p {
        count[x + 1] += count[x];
    }
    let first = count;
    let mut fill: Vec<u32> = first[..p].to_vec();
    let mut ent = vec![Ent::default(); first[p] as usize];
    for (g, t) in tx.iter().enumerate() {
        let gr = &groups[t.group as usize];
        for x in [gr.src as usize, gr.dst as usize] {
            ent[fill[x] as usize] = Ent {
                round: t.round,
                g: g as u32,
            };
            fill[x] += 1;
        }
    }
    Ok(Plan {
        tx,
        groups,
        alphas,
        ent,
        first,
    })
}
