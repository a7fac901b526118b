//! The finished simulation as a [`Clock`]: every rank's finish, busy and
//! waiting time, the outcome (complete, or stalled with who waits for whom)
//! and the messages with their critical path.

use super::sim::Sim;
use crate::core::timing::clock::{Blocked, Clock, Mode, Outcome};

impl Sim {
    pub(super) fn finish(mut self, fail: Vec<Option<f64>>) -> Clock {
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
        crate::core::order::sort_usize(&mut waits_for);
        waits_for.dedup();
        Blocked {
            rank: x,
            round: round.map_or(0, |e| e.round as usize),
            piece: j,
            waits_for,
        }
    }
}
