//! Fair sharing of resources: messages crossing a resource at the same time
//! share it equally, so whenever a group starts or stops flowing on a
//! resource, every group on it gets its new rate and, when that changed, a
//! new end event.

use super::events::Kind;
use super::sim::Sim;

impl Sim {
    /// The seconds per byte of group `gi`'s members at the current loads.
    fn rate(&self, gi: u32) -> f64 {
        let gr = &self.groups[gi as usize];
        gr.ids[..usize::from(gr.nids)]
            .iter()
            .map(|&id| self.beta[id as usize] * self.load[id as usize] as f64)
            .fold(gr.cap, f64::max)
    }

    /// After the loads on `ids` changed: every group with a member on them
    /// whose rate changed gets the new rate and a new end event; `gi` (whose
    /// members changed) gets a new end event in any case when `renew`.
    pub(super) fn reshare(&mut self, ids: &[u32], gi: u32, renew: bool) {
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
    pub(super) fn schedule_end(&mut self, gi: u32) {
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
    pub(super) fn leave(&mut self, gi: u32, slot: u32) {
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
}
