//! The simulation's timed events and the loop that runs them: the binary
//! heap (entries, failures, ends of groups and reductions) and the
//! first-in-first-out queues of α ends, one per link class, merged by time
//! and then by insertion.

use std::cmp::Ordering;

use super::sim::Sim;

#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Enter(u32),
    Fail(u32),
    /// The group's first member ends (group, the group's version).
    End(u32, u32),
    Reduce(u64, u32),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Ev {
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
pub(super) struct AlphaEnd {
    pub(super) t: f64,
    pub(super) seq: u64,
    pub(super) slot: u32,
    pub(super) ver: u32,
}

/// Which event comes next.
enum Next {
    Heap,
    Queue(usize),
}

impl Sim {
    pub(super) fn push(&mut self, t: f64, kind: Kind) {
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

    /// Runs at most `budget` events: how many ran, and true when none is
    /// left.
    pub(super) fn run(&mut self, budget: usize) -> (usize, bool) {
        for used in 0..budget {
            let Some(next) = self.next() else {
                return (used, true);
            };
            match next {
                Next::Heap => {
                    let Some(ev) = self.heap.pop() else {
                        return (used, true);
                    };
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
                        return (used, true);
                    };
                    self.now = a.t;
                    self.alpha_done(a.slot, a.ver);
                }
            }
        }
        (budget, self.next().is_none())
    }
}
