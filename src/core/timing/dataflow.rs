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
//! # How it runs
//! An event-driven simulation: timed events (entries, failures, ends of α,
//! ends of flows, ends of reductions) ordered by time and then by
//! insertion, so the run is deterministic.
//! - **Pair groups.** Every piece from one sender to one receiver crosses
//!   the same resources with the same cap, so at every moment all of them
//!   move at the same rate. They form a group with one clock: `v`, the bytes
//!   each member has moved since the group last became busy. A member ends
//!   when `v` reaches its own mark (`v` at its start + its bytes), so a
//!   change of shares updates one clock per group, never each piece, and a
//!   group whose rate does not change is not touched at all.
//! - **Queues.** The ends of α come in the order they were started (one α
//!   per link class), so they wait in first-in-first-out queues; only the
//!   ends of groups and reductions need the binary heap.
//! - **Dense state.** The schedule is flattened once into per-rank rows of
//!   `(round, transfer)`; ranks, pieces and resources are vector indices.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use super::clock::{
    Blocked, Clock, ClockError, ClockOptions, Message, Mode, Outcome, RankClock, MAX_PIECES,
};
use super::resources::Network;
use crate::core::schedule::{Chunks, Op, Round, Schedule};
use crate::core::topology::LinkClass;

const NONE: u64 = u64::MAX;
/// "No round": a (rank, piece) that is not in a round now.
const IDLE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Enter(u32),
    Fail(u32),
    /// The group's first member ends (group, the group's version).
    End(u32, u32),
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

/// The end of one flow's α, queued first in, first out.
#[derive(Clone, Copy, Debug)]
struct AlphaEnd {
    t: f64,
    seq: u64,
    slot: u32,
    ver: u32,
}

/// One piece in flight (during α or while its bytes flow).
#[derive(Clone, Copy, Debug)]
struct Flow {
    inst: u64,
    bytes: u64,
    start: f64,
    flow_start: f64,
    group: u32,
    /// Incarnation of the slot: bumped when the flow ends or is cut, so no
    /// queued α end or group member can match a later flow in the slot.
    ver: u32,
    live: bool,
    flowing: bool,
}

/// A member of a group: ends when the group's clock reaches `mark`.
#[derive(Clone, Copy, Debug)]
struct Member {
    mark: f64,
    seq: u64,
    slot: u32,
    ver: u32,
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
struct Group {
    src: u32,
    dst: u32,
    class: LinkClass,
    ids: [u32; 4],
    nids: u8,
    cap: f64,
    /// Index of the α queue of its link class.
    queue: u8,
    /// Seconds per byte of each member at the current shares.
    eff: f64,
    /// Bytes each member has moved since the group became busy.
    v: f64,
    /// When `v` was last brought up to date, seconds.
    last: f64,
    /// Members flowing.
    n: u32,
    /// Version of its queued end event.
    ver: u32,
    members: BinaryHeap<Member>,
}

/// A transfer of the schedule, flattened.
#[derive(Clone, Copy, Debug)]
struct Tx {
    len: u64,
    group: u32,
    round: u32,
    reduce: bool,
}

/// One message of a rank's row: its round and its transfer.
#[derive(Clone, Copy, Debug, Default)]
struct Ent {
    round: u32,
    g: u32,
}

/// The schedule flattened for the simulation.
struct Plan {
    tx: Vec<Tx>,
    groups: Vec<Group>,
    /// α of each queue, seconds.
    alphas: Vec<f64>,
    /// Every rank's messages in round order: rank `x`'s are
    /// `ent[first[x]..first[x + 1]]`.
    ent: Vec<Ent>,
    first: Vec<u32>,
}

/// Builds the [`Plan`] from the rounds in one pass, checking every
/// transfer; `Ok(Err(count))` when there are more than [`MAX_PIECES`]
/// pieces (`count` transfers).
fn plan<R: Borrow<Round>>(
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
    let mut pairs: HashMap<u64, u32> = HashMap::new();
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
                    let key = (u64::from(s) << 32) | u64::from(d);
                    let next = groups.len() as u32;
                    let g = *pairs.entry(key).or_insert(next);
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

struct Sim<'a> {
    net: &'a Network<'a>,
    gamma: f64,
    k: usize,
    eb: u64,
    keep: bool,
    tx: Vec<Tx>,
    groups: Vec<Group>,
    ent: Vec<Ent>,
    first: Vec<u32>,
    // per (rank, piece), index rank * k + piece
    /// Index into `ent` of the first message of its current (or next) round.
    pos: Vec<u32>,
    /// The round it is in, or [`IDLE`].
    cur: Vec<u32>,
    /// Messages of that round.
    span: Vec<u32>,
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
    // per resource: members flowing, and the groups with a member flowing
    load: Vec<u32>,
    on_res: Vec<Vec<u32>>,
    mark: Vec<u32>,
    gen: u32,
    scratch: Vec<u32>,
    heap: BinaryHeap<Ev>,
    queues: Vec<VecDeque<AlphaEnd>>,
    alphas: Vec<f64>,
    seq: u64,
    now: f64,
    records: Vec<Message>,
}

/// The dataflow clock of `schedule` on `net` (see the module doc).
///
/// # Errors
/// [`ClockError::TooLarge`] beyond [`MAX_PIECES`] pieces; fault errors from
/// [`super::clock::Faults::check`]; [`ClockError::Malformed`] for a
/// transfer outside `0..p` or from a rank to itself.
pub fn clock(
    schedule: &Schedule,
    net: &Network<'_>,
    opts: &ClockOptions,
) -> Result<Clock, ClockError> {
    clock_rounds(schedule.p, schedule.elem_bytes, &schedule.rounds, net, opts)
}

/// [`clock`] of the schedule on `p` ranks whose rounds are `rounds`, in
/// order (`elem_bytes` bytes per element), read once and never held: a
/// caller that generates rounds one at a time (the ring's numbers-only
/// path) times two million messages without a [`Schedule`] of them.
///
/// # Errors
/// As [`clock`].
pub fn clock_rounds<R: Borrow<Round>>(
    p: usize,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = R>,
    net: &Network<'_>,
    opts: &ClockOptions,
) -> Result<Clock, ClockError> {
    opts.faults.check(p)?;
    let k = opts.segments.max(1);
    let plan = plan(p, rounds, net, k)?;
    let late = opts.faults.late_of(p);
    let n_inst = plan.tx.len() * k;
    let keep = opts.keep_events;
    let mut sim = Sim {
        net,
        gamma: opts.gamma,
        k,
        eb: elem_bytes,
        keep,
        pos: (0..p * k).map(|s| plan.first[s / k]).collect(),
        tx: plan.tx,
        groups: plan.groups,
        ent: plan.ent,
        first: plan.first,
        cur: vec![IDLE; p * k],
        span: vec![0; p * k],
        outstanding: vec![0; p * k],
        cause: if keep { vec![NONE; p * k] } else { Vec::new() },
        entered: vec![false; p],
        failed: vec![false; p],
        ranks: late.iter().map(|&t| RankClock::entered_at(t)).collect(),
        act_cnt: vec![0; p],
        since: vec![0.0; p],
        flags: vec![0; n_inst],
        pred: if keep { vec![NONE; n_inst] } else { Vec::new() },
        rec_of: if keep {
            vec![u32::MAX; n_inst]
        } else {
            Vec::new()
        },
        flows: Vec::new(),
        free: Vec::new(),
        load: vec![0; net.len()],
        on_res: vec![Vec::new(); net.len()],
        mark: Vec::new(),
        gen: 0,
        scratch: Vec::new(),
        heap: BinaryHeap::new(),
        queues: vec![VecDeque::new(); plan.alphas.len()],
        alphas: plan.alphas,
        seq: 0,
        now: 0.0,
        records: Vec::new(),
    };
    sim.mark = vec![0; sim.groups.len()];
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

/// Which event comes next.
enum Next {
    Heap,
    Queue(usize),
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

    /// The earliest of the heap's top and the queues' fronts, by time and
    /// then by insertion.
    fn next(&self) -> Option<Next> {
        let mut best: Option<(f64, u64, Next)> = self.heap.peek().map(|e| (e.t, e.seq, Next::Heap));
        for (i, q) in self.queues.iter().enumerate() {
            if let Some(a) = q.front() {
                let earlier = best
                    .as_ref()
                    .is_none_or(|b| a.t.total_cmp(&b.0).then(a.seq.cmp(&b.1)) == Ordering::Less);
                if earlier {
                    best = Some((a.t, a.seq, Next::Queue(i)));
                }
            }
        }
        best.map(|b| b.2)
    }

    fn run(&mut self) {
        while let Some(next) = self.next() {
            match next {
                Next::Heap => {
                    let Some(ev) = self.heap.pop() else { break };
                    self.now = ev.t;
                    match ev.kind {
                        Kind::Enter(x) => self.enter(x as usize),
                        Kind::Fail(x) => self.fail(x as usize),
                        Kind::End(g, ver) => self.group_end(g, ver),
                        Kind::Reduce(inst, rec) => self.reduce_done(inst, rec),
                    }
                }
                Next::Queue(i) => {
                    let Some(a) = self.queues[i].pop_front() else {
                        break;
                    };
                    self.now = a.t;
                    self.alpha_done(a.slot, a.ver);
                }
            }
        }
    }

    fn enter(&mut self, x: usize) {
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
        let a = AlphaEnd {
            t: self.now + self.alphas[queue],
            seq: self.seq,
            slot,
            ver,
        };
        self.queues[queue].push_back(a);
    }

    fn alpha_done(&mut self, slot: u32, ver: u32) {
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

    /// The seconds per byte of group `gi`'s members at the current loads.
    fn rate(&self, gi: u32) -> f64 {
        let gr = &self.groups[gi as usize];
        gr.ids[..usize::from(gr.nids)]
            .iter()
            .map(|&id| self.net.beta(id) * self.load[id as usize] as f64)
            .fold(gr.cap, f64::max)
    }

    /// After the loads on `ids` changed: every group with a member on them
    /// whose rate changed gets the new rate and a new end event; `gi` (whose
    /// members changed) gets a new end event in any case when `renew`.
    fn reshare(&mut self, ids: &[u32], gi: u32, renew: bool) {
        self.gen = self.gen.wrapping_add(1);
        let mut todo = std::mem::take(&mut self.scratch);
        todo.clear();
        for &id in ids {
            for &h in &self.on_res[id as usize] {
                if self.mark[h as usize] != self.gen {
                    self.mark[h as usize] = self.gen;
                    todo.push(h);
                }
            }
        }
        if self.mark[gi as usize] != self.gen {
            todo.push(gi);
        }
        for &h in &todo {
            let eff = self.rate(h);
            let now = self.now;
            let gr = &mut self.groups[h as usize];
            if eff == gr.eff && !(renew && h == gi) {
                continue; // its members' ends are where they were
            }
            if gr.eff > 0.0 {
                gr.v += (now - gr.last) / gr.eff;
            }
            gr.last = now;
            gr.eff = eff;
            self.schedule_end(h);
        }
        self.scratch = todo;
    }

    /// Queues the end of group `gi`'s first live member (none when it has
    /// no member flowing: its queued end, if any, goes stale).
    fn schedule_end(&mut self, gi: u32) {
        let gr = &mut self.groups[gi as usize];
        gr.ver = gr.ver.wrapping_add(1);
        if gr.n == 0 {
            return;
        }
        while let Some(m) = gr.members.peek() {
            let f = &self.flows[m.slot as usize];
            if f.live && f.flowing && f.ver == m.ver {
                break;
            }
            gr.members.pop();
        }
        let Some(m) = gr.members.peek() else {
            return;
        };
        // (at eff = 0, an infinitely fast link, the member ends at once)
        let t = self.now + (m.mark - gr.v).max(0.0) * gr.eff;
        let ver = gr.ver;
        self.push(t, Kind::End(gi, ver));
    }

    /// Group `gi`'s flow `slot` stops flowing (it ended or was cut).
    fn leave(&mut self, gi: u32, slot: u32) {
        self.flows[slot as usize].flowing = false;
        let gr = &mut self.groups[gi as usize];
        let (ids, n) = (gr.ids, usize::from(gr.nids));
        gr.n -= 1;
        let emptied = gr.n == 0;
        if emptied {
            gr.members.clear();
        }
        for &id in &ids[..n] {
            self.load[id as usize] -= 1;
            if emptied {
                let list = &mut self.on_res[id as usize];
                if let Some(i) = list.iter().position(|&h| h == gi) {
                    list.swap_remove(i);
                }
            }
        }
        self.reshare(&ids[..n], gi, true);
    }

    fn group_end(&mut self, gi: u32, ver: u32) {
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

    fn reduce_done(&mut self, inst: u64, rec: u32) {
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
        for (x, failed_at) in fail.iter().enumerate() {
            if self.act_cnt[x] > 0 && !self.failed[x] {
                let since = self.since[x];
                self.ranks[x].busy += end - since;
            }
            let rc = &mut self.ranks[x];
            let until = rc
                .finish
                .or(failed_at.filter(|_| self.failed[x]))
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
        let end = self.first[x + 1];
        let j = (0..self.k)
            .find(|&j| self.pos[x * self.k + j] < end)
            .unwrap_or(0);
        let s = x * self.k + j;
        let pos = self.pos[s] as usize;
        let round = self.ent.get(pos).filter(|_| pos < end as usize);
        let mut waits_for: Vec<usize> = match round {
            Some(e) => self.ent[pos..end as usize]
                .iter()
                .take_while(|m| m.round == e.round)
                .filter_map(|m| {
                    let gr = &self.groups[self.tx[m.g as usize].group as usize];
                    let (side, peer) = if gr.src as usize == x {
                        (1, gr.dst)
                    } else {
                        (2, gr.src)
                    };
                    let inst = u64::from(m.g) * self.k as u64 + j as u64;
                    (self.flags[inst as usize] & side == 0).then_some(peer as usize)
                })
                .collect(),
            None => Vec::new(),
        };
        waits_for.sort_unstable();
        waits_for.dedup();
        Blocked {
            rank: x,
            round: round.map_or(0, |e| e.round as usize),
            piece: j,
            waits_for,
        }
    }
}
