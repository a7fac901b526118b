//! The dataflow simulation's state and what each event does to it: a rank
//! enters, a piece starts (its α begins), its α ends and its bytes flow,
//! it arrives (and is reduced), a rank fails.

use std::collections::{BinaryHeap, VecDeque};

use super::events::{AlphaEnd, Ev, Kind};
use super::plan::{Ent, Group, Member, Tx, IDLE, NONE};
use crate::core::cost::protocol::Rendezvous;
use crate::core::schedule::Chunks;
use crate::core::timing::clock::{Message, RankClock};

/// One piece in flight (during α or while its bytes flow).
#[derive(Clone, Copy, Debug)]
pub(super) struct Flow {
    pub(super) inst: u64,
    pub(super) bytes: u64,
    pub(super) start: f64,
    pub(super) flow_start: f64,
    pub(super) group: u32,
    /// Incarnation of the slot: bumped when the flow ends or is cut, so no
    /// queued α end or group member can match a later flow in the slot.
    pub(super) ver: u32,
    pub(super) live: bool,
    pub(super) flowing: bool,
}

pub(super) struct Sim {
    /// β of each resource, seconds per byte (copied from the network).
    pub(super) beta: Vec<f64>,
    pub(super) gamma: f64,
    pub(super) k: usize,
    pub(super) eb: u64,
    pub(super) keep: bool,
    pub(super) tx: Vec<Tx>,
    pub(super) groups: Vec<Group>,
    pub(super) ent: Vec<Ent>,
    pub(super) first: Vec<u32>,
    // per (rank, piece), index rank * k + piece
    /// Index into `ent` of the first message of its current (or next) round.
    pub(super) pos: Vec<u32>,
    /// The round it is in, or [`IDLE`].
    pub(super) cur: Vec<u32>,
    /// Messages of that round.
    pub(super) span: Vec<u32>,
    pub(super) outstanding: Vec<u32>,
    pub(super) cause: Vec<u64>,
    // per rank
    pub(super) entered: Vec<bool>,
    pub(super) failed: Vec<bool>,
    pub(super) ranks: Vec<RankClock>,
    pub(super) act_cnt: Vec<u32>,
    pub(super) since: Vec<f64>,
    // per piece instance: bit 0 = done at the sender, bit 1 = done at the receiver
    pub(super) flags: Vec<u8>,
    pub(super) pred: Vec<u64>,
    pub(super) rec_of: Vec<u32>,
    pub(super) flows: Vec<Flow>,
    pub(super) free: Vec<u32>,
    // per resource: members flowing, and the groups with a member flowing
    pub(super) load: Vec<u32>,
    pub(super) on_res: Vec<Vec<u32>>,
    pub(super) mark: Vec<u32>,
    pub(super) gen: u32,
    pub(super) scratch: Vec<u32>,
    pub(super) heap: BinaryHeap<Ev>,
    pub(super) queues: Vec<VecDeque<AlphaEnd>>,
    pub(super) alphas: Vec<f64>,
    /// MPI's eager/rendezvous rule: a piece at or above the limit waits
    /// the handshake on top of its α ([`crate::core::cost::protocol`]).
    pub(super) protocol: Option<Rendezvous>,
    pub(super) seq: u64,
    pub(super) now: f64,
    pub(super) records: Vec<Message>,
}

impl Sim {
    pub(super) fn enter(&mut self, x: usize) {
        if self.failed[x] {
            return;
        }
        self.entered[x] = true;
        if self.first[x] == self.first[x + 1] {
            self.ranks[x].finish = Some(self.now);
            return;
        }
        self.try_activate(x, 0, NONE);
    }

    /// Puts rank `x`'s piece `j` into its next round when it may enter it.
    fn try_activate(&mut self, x: usize, j: usize, cause: u64) {
        if self.failed[x] || !self.entered[x] {
            return;
        }
        let s = x * self.k + j;
        let pos = self.pos[s] as usize;
        let end = self.first[x + 1] as usize;
        if self.cur[s] != IDLE || pos >= end {
            return;
        }
        if j > 0 && self.pos[s - 1] as usize <= pos {
            return; // piece j − 1 has not finished this round here yet
        }
        let round = self.ent[pos].round;
        let mut hi = pos + 1;
        while hi < end && self.ent[hi].round == round {
            hi += 1;
        }
        self.cur[s] = round;
        self.span[s] = (hi - pos) as u32;
        self.outstanding[s] = (hi - pos) as u32;
        if self.keep {
            self.cause[s] = cause;
        }
        for i in pos..hi {
            let g = self.ent[i].g;
            let gr = &self.groups[self.tx[g as usize].group as usize];
            let peer = if gr.src as usize == x { gr.dst } else { gr.src } as usize;
            if self.cur[peer * self.k + j] == round {
                self.start(g, j, cause);
            }
        }
    }

    fn start(&mut self, g: u32, j: usize, cause: u64) {
        let t = self.tx[g as usize];
        let piece = Chunks::new(t.len, self.k).range(j);
        let bytes = (piece.end - piece.start) * self.eb;
        let inst = u64::from(g) * self.k as u64 + j as u64;
        if self.keep {
            self.pred[inst as usize] = cause;
        }
        let (src, dst, queue) = {
            let gr = &self.groups[t.group as usize];
            (gr.src as usize, gr.dst as usize, usize::from(gr.queue))
        };
        for x in [src, dst] {
            if self.act_cnt[x] == 0 {
                self.since[x] = self.now;
            }
            self.act_cnt[x] += 1;
        }
        let flow = Flow {
            inst,
            bytes,
            start: self.now,
            flow_start: self.now,
            group: t.group,
            ver: 0,
            live: true,
            flowing: false,
        };
        // A reused slot keeps counting its incarnations, so that no stale
        // α end or member of the flow it held before can match the new one.
        let (slot, ver) = match self.free.pop() {
            Some(s) => {
                let ver = self.flows[s as usize].ver.wrapping_add(1);
                self.flows[s as usize] = Flow { ver, ..flow };
                (s, ver)
            }
            None => {
                self.flows.push(flow);
                ((self.flows.len() - 1) as u32, 0)
            }
        };
        self.seq += 1;
        let alpha = self.alphas[queue];
        let a = AlphaEnd {
            t: match self.protocol {
                Some(p) => self.now + alpha + p.extra(bytes as f64, alpha),
                None => self.now + alpha,
            },
            seq: self.seq,
            slot,
            ver,
        };
        self.queues[queue].push_back(a);
    }

    pub(super) fn alpha_done(&mut self, slot: u32, ver: u32) {
        let now = self.now;
        let f = &mut self.flows[slot as usize];
        if !f.live || f.ver != ver {
            return;
        }
        f.flow_start = now;
        if f.bytes == 0 {
            self.finish_flow(slot);
            return;
        }
        f.flowing = true;
        let (gi, bytes) = (f.group, f.bytes);
        self.seq += 1;
        let seq = self.seq;
        let gr = &mut self.groups[gi as usize];
        if gr.n == 0 {
            gr.v = 0.0;
            gr.last = now;
            gr.members.clear();
        } else if gr.eff > 0.0 {
            gr.v += (now - gr.last) / gr.eff;
            gr.last = now;
        }
        gr.n += 1;
        let mark = gr.v + bytes as f64;
        // Its end is queued anew only if it comes first in the group.
        let first = gr.members.peek().is_none_or(|m| mark < m.mark);
        gr.members.push(Member {
            mark,
            seq,
            slot,
            ver,
        });
        let (ids, n) = (gr.ids, usize::from(gr.nids));
        let joined = gr.n == 1;
        for &id in &ids[..n] {
            self.load[id as usize] += 1;
            if joined {
                self.on_res[id as usize].push(gi);
            }
        }
        self.reshare(&ids[..n], gi, first);
    }

    pub(super) fn group_end(&mut self, gi: u32, ver: u32) {
        let now = self.now;
        let gr = &mut self.groups[gi as usize];
        if gr.ver != ver {
            return;
        }
        if gr.eff > 0.0 {
            gr.v += (now - gr.last) / gr.eff;
        }
        gr.last = now;
        // schedule_end left a live member on top
        let Some(m) = gr.members.pop() else {
            return;
        };
        let f = &self.flows[m.slot as usize];
        if !(f.live && f.flowing && f.ver == m.ver) {
            self.schedule_end(gi); // never expected: try the next member
            return;
        }
        self.leave(gi, m.slot);
        self.finish_flow(m.slot);
    }

    fn finish_flow(&mut self, slot: u32) {
        let f = self.flows[slot as usize];
        {
            let fl = &mut self.flows[slot as usize];
            fl.live = false;
            fl.ver = fl.ver.wrapping_add(1);
        }
        self.free.push(slot);
        let t = self.tx[(f.inst / self.k as u64) as usize];
        let (src, dst) = {
            let gr = &self.groups[f.group as usize];
            (gr.src as usize, gr.dst as usize)
        };
        let reduce_time = if t.reduce {
            f.bytes as f64 * self.gamma
        } else {
            0.0
        };
        let rec = if self.keep {
            self.record(&f, t, self.now, self.now + reduce_time, true)
        } else {
            u32::MAX
        };
        self.ranks[src].sent += f.bytes;
        self.ranks[dst].received += f.bytes;
        self.done_at(src, f.inst, 1);
        if reduce_time > 0.0 {
            self.push(self.now + reduce_time, Kind::Reduce(f.inst, rec));
        } else {
            self.done_at(dst, f.inst, 2);
        }
    }

    fn record(&mut self, f: &Flow, t: Tx, arrival: f64, done: f64, delivered: bool) -> u32 {
        let i = self.records.len() as u32;
        let gr = &self.groups[f.group as usize];
        let pred = self.pred[f.inst as usize];
        let pred = (pred != NONE)
            .then(|| self.rec_of.get(pred as usize).copied())
            .flatten()
            .filter(|&r| r != u32::MAX)
            .map(|r| r as usize);
        self.records.push(Message {
            round: t.round as usize,
            piece: (f.inst % self.k as u64) as usize,
            src: gr.src as usize,
            dst: gr.dst as usize,
            bytes: f.bytes,
            reduce: t.reduce,
            class: gr.class,
            start: f.start,
            flow_start: f.flow_start,
            arrival,
            done,
            delivered,
            critical: false,
            pred,
        });
        self.rec_of[f.inst as usize] = i;
        i
    }

    pub(super) fn reduce_done(&mut self, inst: u64, rec: u32) {
        let t = self.tx[(inst / self.k as u64) as usize];
        let dst = self.groups[t.group as usize].dst as usize;
        if self.failed[dst] {
            return;
        }
        if let Some(m) = self.records.get_mut(rec as usize) {
            m.done = self.now;
        }
        self.done_at(dst, inst, 2);
    }

    /// Piece instance `inst` is over for rank `x` (`side` 1 = sender, 2 = receiver).
    fn done_at(&mut self, x: usize, inst: u64, side: u8) {
        if self.failed[x] {
            return;
        }
        self.flags[inst as usize] |= side;
        self.act_cnt[x] -= 1;
        if self.act_cnt[x] == 0 {
            let since = self.since[x];
            self.ranks[x].busy += self.now - since;
        }
        let j = (inst % self.k as u64) as usize;
        let s = x * self.k + j;
        self.outstanding[s] -= 1;
        if self.outstanding[s] > 0 {
            return;
        }
        self.cur[s] = IDLE;
        self.pos[s] += self.span[s];
        if j + 1 == self.k && self.pos[s] == self.first[x + 1] {
            self.ranks[x].finish = Some(self.now);
        }
        self.try_activate(x, j, inst);
        if j + 1 < self.k {
            self.try_activate(x, j + 1, inst);
        }
    }

    pub(super) fn fail(&mut self, x: usize) {
        self.ranks[x].failed_at = Some(self.now);
        if self.ranks[x].finish.is_some() {
            return; // it had done its part
        }
        if self.act_cnt[x] > 0 {
            let since = self.since[x];
            self.ranks[x].busy += self.now - since;
            self.act_cnt[x] = 0;
        }
        self.failed[x] = true;
        let doomed: Vec<u32> = (0..self.flows.len() as u32)
            .filter(|&s| {
                let f = &self.flows[s as usize];
                let gr = &self.groups[f.group as usize];
                f.live && (gr.src as usize == x || gr.dst as usize == x)
            })
            .collect();
        for slot in doomed {
            let f = self.flows[slot as usize];
            if f.flowing {
                let gr = &mut self.groups[f.group as usize];
                if gr.eff > 0.0 {
                    gr.v += (self.now - gr.last) / gr.eff;
                }
                gr.last = self.now;
                self.leave(f.group, slot);
            }
            {
                let fl = &mut self.flows[slot as usize];
                fl.live = false;
                fl.ver = fl.ver.wrapping_add(1);
            }
            self.free.push(slot);
            if self.keep {
                let t = self.tx[(f.inst / self.k as u64) as usize];
                self.record(&f, t, self.now, self.now, false);
            }
            let gr = &self.groups[f.group as usize];
            let peer = if gr.src as usize == x { gr.dst } else { gr.src } as usize;
            if !self.failed[peer] {
                self.act_cnt[peer] -= 1;
                if self.act_cnt[peer] == 0 {
                    let since = self.since[peer];
                    self.ranks[peer].busy += self.now - since;
                }
            }
        }
    }
}
