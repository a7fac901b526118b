//! The simulation's timed events and the loop that runs them: the binary
//! heap (entries, failures, ends of groups and reductions) and the
//! first-in-first-out queues of α ends, one per link class, merged by time
//! and then by insertion.

use std::cmp::Ordering;

use super::events::{Ev, Kind};
use super::sim::Sim;

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
