//! Dataflow timing: per-rank clocks, no barrier (`../shared/design.md`,
//! "Dataflow timing model").
//!
//! - **Ranks run their own rounds in order.** A message of round r moves
//!   once both its sender and its receiver have entered round r (a
//!   rendezvous, as MPI's large messages and NCCL's steps behave). A rank
//!   enters round r + 1 when its round-r sends have left and its round-r
//!   receives have arrived, and γ has been paid for a reduce. A round in
//!   which a rank has no message is passed at once.
//! - **Resources** ([`super::resources`]): messages crossing a resource at
//!   the same time share it equally. A message's rate is the smallest of its
//!   shares (`bandwidth / messages on the resource`), recomputed whenever a
//!   message starts or ends on one of its resources. A message pays α before
//!   its bytes flow; α holds no bandwidth.
//! - **Segments.** With k segments every message travels as k pieces (the
//!   element range split as [`crate::core::schedule::chunk_range`] splits a
//!   tensor) and each rank runs its round sequence once per piece. Piece j
//!   of round r moves once both ends have finished piece j of their earlier
//!   rounds; on each rank, piece j of a round starts only after piece j − 1
//!   of that round has ended there. So a rank forwards a piece as soon as it
//!   holds it: pipelining follows from the rule.
//! - **Late, slow, failed.** A late rank enters at its delay. A slow rank's
//!   ports run at its factor ([`super::resources::Network`]). A failed rank
//!   stops at its time: the pieces it is sending or receiving are cut and
//!   never arrive, and it starts nothing more. Ranks that need it block;
//!   the run ends when nothing more can move ([`Outcome::Stalled`]).
//!
//! An event-driven simulation: a binary heap of timed events (entries,
//! failures, ends of α, ends of flows, ends of reductions), ordered by time
//! and then by insertion, so the run is deterministic.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::clock::{
    Blocked, Clock, ClockError, ClockOptions, Message, Mode, Outcome, RankClock, MAX_PIECES,
};
use super::resources::Network;
use crate::core::schedule::{Chunks, Op, Schedule};

const NONE: u64 = u64::MAX;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Enter(u32),
    Fail(u32),
    Alpha(u32, u32),
    FlowEnd(u32, u32),
    Reduce(u64, u32),
}

#[derive(Clone, Copy, Debug)]
struct Ev {
    t: f64,
    seq: u64,
    kind: Kind,
}

impl PartialEq for Ev {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Ev {}
impl PartialOrd for Ev {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ev {
    /// Reversed, so the max-heap pops the earliest event (then the first pushed).
    fn cmp(&self, o: &Self) -> Ordering {
        o.t.total_cmp(&self.t).then(o.seq.cmp(&self.seq))
    }
}

/// One piece in flight (during α or while its bytes flow).
#[derive(Clone, Debug)]
struct Flow {
    inst: u64,
    src: u32,
    dst: u32,
    bytes: u64,
    start: f64,
    flow_start: f64,
    remaining: f64,
    /// Seconds per byte at the current shares.
    eff: f64,
    last: f64,
    ver: u32,
    ids: [u32; 4],
    nids: u8,
    cap: f64,
    live: bool,
    flowing: bool,
    /// True once its rate has been set (after α).
    rated: bool,
}

/// A transfer of the schedule, flattened.
#[derive(Clone, Copy, Debug)]
struct Tx {
    round: u32,
    src: u32,
    dst: u32,
    len: u64,
    reduce: bool,
}

/// A rank's rounds with messages, as compressed rows: round `rounds[i]`
/// holds the transfers `msgs[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default)]
struct Parts {
    rounds: Vec<u32>,
    start: Vec<u32>,
    msgs: Vec<u32>,
}

impl Parts {
    fn len(&self) -> usize {
        self.rounds.len()
    }
    fn msgs(&self, i: usize) -> &[u32] {
        let lo = self.start[i] as usize;
        let hi = self
            .start
            .get(i + 1)
            .map_or(self.msgs.len(), |&h| h as usize);
        &self.msgs[lo..hi]
    }
}

struct Sim<'a> {
    net: &'a Network<'a>,
    gamma: f64,
    k: usize,
    eb: u64,
    keep: bool,
    tx: Vec<Tx>,
    parts: Vec<Parts>,
    // per (rank, piece), index rank * k + piece
    pos: Vec<u32>,
    active: Vec<bool>,
    outstanding: Vec<u32>,
    cause: Vec<u64>,
    // per rank
    entered: Vec<bool>,
    failed: Vec<bool>,
    ranks: Vec<RankClock>,
    act_cnt: Vec<u32>,
    since: Vec<f64>,
    // per piece instance: bit 0 = done at the sender, bit 1 = done at the receiver
    flags: Vec<u8>,
    pred: Vec<u64>,
    rec_of: Vec<u32>,
    flows: Vec<Flow>,
    free: Vec<u32>,
    on_res: Vec<Vec<u32>>,
    mark: Vec<u32>,
    gen: u32,
    heap: BinaryHeap<Ev>,
    seq: u64,
    now: f64,
    records: Vec<Message>,
}

/// The dataflow clock of `schedule` on `net` (see the module doc).
///
/// # Errors
/// [`ClockError::TooLarge`] beyond [`MAX_PIECES`] pieces; fault errors from
/// [`super::clock::Faults::check`].
pub fn clock(
    schedule: &Schedule,
    net: &Network<'_>,
    opts: &ClockOptions,
) -> Result<Clock, ClockError> {
    let p = schedule.p;
    opts.faults.check(p)?;
    let k = opts.segments.max(1);
    let transfers: usize = schedule.rounds.iter().map(|r| r.transfers.len()).sum();
    let pieces = transfers as u64 * k as u64;
    if pieces > MAX_PIECES {
        return Err(ClockError::TooLarge {
            pieces,
            limit: MAX_PIECES,
        });
    }
    let mut tx = Vec::with_capacity(transfers);
    let mut per_rank: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p];
    for (r, round) in schedule.rounds.iter().enumerate() {
        for t in &round.transfers {
            let g = tx.len() as u32;
            tx.push(Tx {
                round: r as u32,
                src: t.src as u32,
                dst: t.dst as u32,
                len: t.len(),
                reduce: t.op == Op::Reduce,
            });
            per_rank[t.src].push((r as u32, g));
            per_rank[t.dst].push((r as u32, g));
        }
    }
    let parts: Vec<Parts> = per_rank
        .into_iter()
        .map(|list| {
            let mut parts = Parts::default();
            for (r, g) in list {
                if parts.rounds.last() != Some(&r) {
                    parts.rounds.push(r);
                    parts.start.push(parts.msgs.len() as u32);
                }
                parts.msgs.push(g);
            }
            parts
        })
        .collect();
    let late = opts.faults.late_of(p);
    let n_inst = pieces as usize;
    let mut sim = Sim {
        net,
        gamma: opts.gamma,
        k,
        eb: schedule.elem_bytes,
        keep: opts.keep_events,
        tx,
        parts,
        pos: vec![0; p * k],
        active: vec![false; p * k],
        outstanding: vec![0; p * k],
        cause: vec![NONE; p * k],
        entered: vec![false; p],
        failed: vec![false; p],
        ranks: late.iter().map(|&t| RankClock::entered_at(t)).collect(),
        act_cnt: vec![0; p],
        since: vec![0.0; p],
        flags: vec![0; n_inst],
        pred: if opts.keep_events {
            vec![NONE; n_inst]
        } else {
            Vec::new()
        },
        rec_of: if opts.keep_events {
            vec![u32::MAX; n_inst]
        } else {
            Vec::new()
        },
        flows: Vec::new(),
        free: Vec::new(),
        on_res: vec![Vec::new(); net.len()],
        mark: vec![0; 0],
        gen: 0,
        heap: BinaryHeap::new(),
        seq: 0,
        now: 0.0,
        records: Vec::new(),
    };
    for (r, &t) in late.iter().enumerate() {
        sim.push(t, Kind::Enter(r as u32));
    }
    for (r, t) in opts.faults.fail_of(p).iter().enumerate() {
        if let Some(t) = t {
            sim.push(*t, Kind::Fail(r as u32));
        }
    }
    sim.run();
    Ok(sim.finish(opts.faults.fail_of(p)))
}

impl Sim<'_> {
    fn push(&mut self, t: f64, kind: Kind) {
        self.seq += 1;
        self.heap.push(Ev {
            t,
            seq: self.seq,
            kind,
        });
    }

    fn run(&mut self) {
        while let Some(ev) = self.heap.pop() {
            self.now = ev.t;
            match ev.kind {
                Kind::Enter(x) => self.enter(x as usize),
                Kind::Fail(x) => self.fail(x as usize),
                Kind::Alpha(slot, ver) => self.alpha_done(slot, ver),
                Kind::FlowEnd(slot, ver) => self.flow_end(slot, ver),
                Kind::Reduce(inst, rec) => self.reduce_done(inst, rec),
            }
        }
    }

    fn enter(&mut self, x: usize) {
        if self.failed[x] {
            return;
        }
        self.entered[x] = true;
        if self.parts[x].len() == 0 {
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
        if self.active[s] || pos >= self.parts[x].len() {
            return;
        }
        if j > 0 && self.pos[s - 1] as usize <= pos {
            return; // piece j − 1 has not finished this round here yet
        }
        self.active[s] = true;
        self.cause[s] = cause;
        let round = self.parts[x].rounds[pos];
        let msgs: Vec<u32> = self.parts[x].msgs(pos).to_vec();
        self.outstanding[s] = msgs.len() as u32;
        for g in msgs {
            let t = self.tx[g as usize];
            let peer = if t.src as usize == x { t.dst } else { t.src } as usize;
            let sp = peer * self.k + j;
            let ppos = self.pos[sp] as usize;
            if self.active[sp] && self.parts[peer].rounds.get(ppos) == Some(&round) {
                self.start(g, j, cause);
            }
        }
    }

    fn start(&mut self, g: u32, j: usize, cause: u64) {
        let t = self.tx[g as usize];
        let piece = Chunks::new(t.len, self.k).range(j);
        let bytes = (piece.end - piece.start) * self.eb;
        let route = self.net.route(t.src as usize, t.dst as usize);
        let inst = u64::from(g) * self.k as u64 + j as u64;
        if self.keep {
            self.pred[inst as usize] = cause;
        }
        for x in [t.src as usize, t.dst as usize] {
            if self.act_cnt[x] == 0 {
                self.since[x] = self.now;
            }
            self.act_cnt[x] += 1;
        }
        let flow = Flow {
            inst,
            src: t.src,
            dst: t.dst,
            bytes,
            start: self.now,
            flow_start: self.now,
            remaining: bytes as f64,
            eff: 0.0,
            last: self.now,
            ver: 0,
            ids: route.ids,
            nids: route.len,
            cap: route.cap_beta,
            live: true,
            flowing: false,
            rated: false,
        };
        let slot = match self.free.pop() {
            Some(s) => {
                // Versions keep counting on a reused slot, so the events
                // still queued for its previous flow never match this one.
                let ver = self.flows[s as usize].ver.wrapping_add(1);
                self.flows[s as usize] = Flow { ver, ..flow };
                s
            }
            None => {
                self.flows.push(flow);
                (self.flows.len() - 1) as u32
            }
        };
        let ver = self.flows[slot as usize].ver;
        self.push(self.now + route.alpha, Kind::Alpha(slot, ver));
    }

    fn alpha_done(&mut self, slot: u32, ver: u32) {
        let f = &mut self.flows[slot as usize];
        if !f.live || f.ver != ver {
            return;
        }
        f.flow_start = self.now;
        if f.bytes == 0 {
            self.finish_flow(slot);
            return;
        }
        f.flowing = true;
        f.last = self.now;
        let ids = f.ids;
        let n = usize::from(f.nids);
        for &id in &ids[..n] {
            self.on_res[id as usize].push(slot);
        }
        self.recompute_around(&ids[..n], Some(slot));
    }

    /// Recomputes the rate of every flow on `ids` (and of `also`).
    fn recompute_around(&mut self, ids: &[u32], also: Option<u32>) {
        self.gen = self.gen.wrapping_add(1);
        if self.mark.len() < self.flows.len() {
            self.mark.resize(self.flows.len(), 0);
        }
        let mut todo: Vec<u32> = Vec::new();
        for &id in ids {
            for &s in &self.on_res[id as usize] {
                if self.mark[s as usize] != self.gen {
                    self.mark[s as usize] = self.gen;
                    todo.push(s);
                }
            }
        }
        if let Some(s) = also {
            if self.mark[s as usize] != self.gen {
                todo.push(s);
            }
        }
        for s in todo {
            self.recompute(s);
        }
    }

    fn recompute(&mut self, slot: u32) {
        let now = self.now;
        let eff = {
            let f = &self.flows[slot as usize];
            f.ids[..usize::from(f.nids)]
                .iter()
                .map(|&id| self.net.beta(id) * self.on_res[id as usize].len() as f64)
                .fold(f.cap, f64::max)
        };
        let f = &mut self.flows[slot as usize];
        if !f.live || !f.flowing {
            return;
        }
        if f.eff > 0.0 {
            f.remaining = (f.remaining - (now - f.last) / f.eff).max(0.0);
        } else if f.rated || now > f.last {
            f.remaining = 0.0;
        }
        f.rated = true;
        f.eff = eff;
        f.last = now;
        f.ver += 1;
        let end = now + f.remaining * eff;
        let ver = f.ver;
        self.push(end, Kind::FlowEnd(slot, ver));
    }

    fn detach(&mut self, slot: u32) {
        let f = &self.flows[slot as usize];
        let ids = f.ids;
        let n = usize::from(f.nids);
        if !f.flowing {
            return;
        }
        for &id in &ids[..n] {
            let list = &mut self.on_res[id as usize];
            if let Some(i) = list.iter().position(|&s| s == slot) {
                list.swap_remove(i);
            }
        }
        self.flows[slot as usize].flowing = false;
        self.recompute_around(&ids[..n], None);
    }

    fn flow_end(&mut self, slot: u32, ver: u32) {
        let f = &self.flows[slot as usize];
        if !f.live || f.ver != ver {
            return;
        }
        self.detach(slot);
        self.finish_flow(slot);
    }

    fn finish_flow(&mut self, slot: u32) {
        let f = self.flows[slot as usize].clone();
        self.flows[slot as usize].live = false;
        self.flows[slot as usize].ver += 1;
        self.free.push(slot);
        let t = self.tx[(f.inst / self.k as u64) as usize];
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
        self.ranks[f.src as usize].sent += f.bytes;
        self.ranks[f.dst as usize].received += f.bytes;
        self.done_at(f.src as usize, f.inst, 1);
        if reduce_time > 0.0 {
            self.push(self.now + reduce_time, Kind::Reduce(f.inst, rec));
        } else {
            self.done_at(f.dst as usize, f.inst, 2);
        }
    }

    fn record(&mut self, f: &Flow, t: Tx, arrival: f64, done: f64, delivered: bool) -> u32 {
        let i = self.records.len() as u32;
        let route = self.net.route(f.src as usize, f.dst as usize);
        let pred = self.pred[f.inst as usize];
        let pred = (pred != NONE)
            .then(|| self.rec_of.get(pred as usize).copied())
            .flatten()
            .filter(|&r| r != u32::MAX)
            .map(|r| r as usize);
        self.records.push(Message {
            round: t.round as usize,
            piece: (f.inst % self.k as u64) as usize,
            src: f.src as usize,
            dst: f.dst as usize,
            bytes: f.bytes,
            reduce: t.reduce,
            class: route.class,
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

    fn reduce_done(&mut self, inst: u64, rec: u32) {
        let t = self.tx[(inst / self.k as u64) as usize];
        if self.failed[t.dst as usize] {
            return;
        }
        if let Some(m) = self.records.get_mut(rec as usize) {
            m.done = self.now;
        }
        self.done_at(t.dst as usize, inst, 2);
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
        self.active[s] = false;
        self.pos[s] += 1;
        if j + 1 == self.k && self.pos[s] as usize == self.parts[x].len() {
            self.ranks[x].finish = Some(self.now);
        }
        self.try_activate(x, j, inst);
        if j + 1 < self.k {
            self.try_activate(x, j + 1, inst);
        }
    }

    fn fail(&mut self, x: usize) {
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
                f.live && (f.src as usize == x || f.dst as usize == x)
            })
            .collect();
        for slot in doomed {
            self.detach(slot);
            let f = self.flows[slot as usize].clone();
            self.flows[slot as usize].live = false;
            self.flows[slot as usize].ver += 1;
            self.free.push(slot);
            if self.keep {
                let t = self.tx[(f.inst / self.k as u64) as usize];
                self.record(&f, t, self.now, self.now, false);
            }
            let peer = if f.src as usize == x { f.dst } else { f.src } as usize;
            if !self.failed[peer] {
                self.act_cnt[peer] -= 1;
                if self.act_cnt[peer] == 0 {
                    let since = self.since[peer];
                    self.ranks[peer].busy += self.now - since;
                }
            }
        }
    }

    fn finish(mut self, fail: Vec<Option<f64>>) -> Clock {
        let p = self.ranks.len();
        let complete = self.ranks.iter().all(|r| r.finish.is_some());
        let end = if complete {
            self.ranks
                .iter()
                .filter_map(|r| r.finish)
                .fold(0.0, f64::max)
        } else {
            self.now
        };
        let outcome = if complete {
            Outcome::Complete
        } else {
            let blocked = (0..p)
                .filter(|&x| self.ranks[x].finish.is_none() && !self.failed[x])
                .map(|x| self.blocked(x))
                .collect();
            Outcome::Stalled { at: end, blocked }
        };
        for (x, fail_x) in fail.iter().enumerate().take(p) {
            if self.act_cnt[x] > 0 && !self.failed[x] {
                let since = self.since[x];
                self.ranks[x].busy += end - since;
            }
            let rc = &mut self.ranks[x];
            let until = rc
                .finish
                .or(fail_x.filter(|_| self.failed[x]))
                .unwrap_or(end);
            rc.wait = (until - rc.entered - rc.busy).max(0.0);
        }
        let mut clock = Clock {
            mode: Mode::Dataflow,
            p,
            segments: self.k,
            messages: std::mem::take(&mut self.records),
            ranks: self.ranks,
            outcome,
            end,
            message_count: self.flags.len(),
        };
        clock.mark_critical();
        clock
    }

    fn blocked(&self, x: usize) -> Blocked {
        let j = (0..self.k)
            .find(|&j| (self.pos[x * self.k + j] as usize) < self.parts[x].len())
            .unwrap_or(0);
        let s = x * self.k + j;
        let pos = self.pos[s] as usize;
        let round = self.parts[x].rounds.get(pos).copied().unwrap_or(0) as usize;
        let mut waits_for: Vec<usize> = if pos < self.parts[x].len() {
            self.parts[x]
                .msgs(pos)
                .iter()
                .filter_map(|&g| {
                    let t = self.tx[g as usize];
                    let (side, peer) = if t.src as usize == x {
                        (1, t.dst)
                    } else {
                        (2, t.src)
                    };
                    let inst = u64::from(g) * self.k as u64 + j as u64;
                    (self.flags[inst as usize] & side == 0).then_some(peer as usize)
                })
                .collect()
        } else {
            Vec::new()
        };
        waits_for.sort_unstable();
        waits_for.dedup();
        Blocked {
            rank: x,
            round,
            piece: j,
            waits_for,
        }
    }
}
