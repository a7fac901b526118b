//! The simulation's events: what happens at a time ([`Kind`]), its place in
//! the binary heap ([`Ev`], latest-first order reversed so the heap pops the
//! earliest, ties by insertion), and an α end on a link class's queue.

use std::cmp::Ordering;

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
    pub(super) t: f64,
    pub(super) seq: u64,
    pub(super) kind: Kind,
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
