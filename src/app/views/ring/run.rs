//! What the ring view shows, from one of two executions of the same ring
//! all-reduce: a checkpointed [`Trace`] with contributor sets when the ring
//! is drawn (p ≤ [`MAX_DRAWN_P`]), or above that a [`Streamed`] run that
//! executes the rounds one at a time on real values and never holds the
//! whole schedule (2 million transfers at p = 1024). Both give the same
//! numbers (tested in the core); this type answers the view's questions
//! from either.

use crate::app::components::chunk_grid::{CHUNK_GRID_MAX_P, RING_MAX_P};
use crate::app::components::transfer_log::{entries_of, round_entries, LogEntry};
use crate::app::shared::Shared;
use crate::app::views::collectives::trace::{checkpointed_collective, SharedTrace};
use crate::core::collectives::{flat, Algorithm};
use crate::core::execute::{
    chunk_grid, default_init, execute_streamed, narrate_round, ChunkGrid, Streamed, Verification,
};
use crate::core::schedule::chunk_range;
use crate::core::schedule::ring::{ring_all_reduce_round, ring_all_reduce_rounds};
use crate::core::schedule::Transfer;
use crate::core::timing::{executed_time, explain, explain_counted};
use crate::params::ring::{ELEM_BYTES, MAX_DRAWN_P};

/// An executed ring all-reduce (compared by identity).
#[derive(Clone, PartialEq)]
pub enum RingRun {
    /// Drawn: every state can be rebuilt, values are logged.
    Drawn(SharedTrace),
    /// Numbers only: counters, final values and the verification.
    Numbers(Shared<Streamed>),
}

impl RingRun {
    /// Executes the ring all-reduce of `elements` f32 elements on `p` ranks:
    /// checkpointed when drawn, streamed above [`MAX_DRAWN_P`]. `None` when
    /// the schedule cannot be built (p < 2 or no elements).
    pub fn execute(p: usize, elements: u64) -> Option<RingRun> {
        if p <= MAX_DRAWN_P {
            return checkpointed_collective(Algorithm::RING, &flat(p), elements)
                .map(RingRun::Drawn);
        }
        if elements == 0 {
            return None;
        }
        let cuts: Vec<u64> = (0..p).map(|c| chunk_range(elements, p, c).start).collect();
        execute_streamed(
            p,
            elements,
            ELEM_BYTES,
            &cuts,
            ring_all_reduce_rounds(p, elements),
            &default_init,
        )
        .ok()
        .map(|s| RingRun::Numbers(Shared::new(s)))
    }

    /// The contributor counts of every rank's chunks and each round's
    /// changes ([`chunk_grid`]) of the ring that ran, for the chunk grid
    /// drawn when `RING_MAX_P < p ≤ CHUNK_GRID_MAX_P`; `None` otherwise.
    /// The drawn trace's own schedule, or (numbers only) the same ring
    /// rounds the streamed run executed, regenerated one at a time.
    pub fn chunk_grid(&self) -> Option<ChunkGrid> {
        let (p, n) = (self.p(), self.n());
        if p <= RING_MAX_P || p > CHUNK_GRID_MAX_P {
            return None;
        }
        match self {
            RingRun::Drawn(t) => chunk_grid(p, n, &t.schedule.rounds).ok(),
            RingRun::Numbers(_) => chunk_grid(p, n, ring_all_reduce_rounds(p, n)).ok(),
        }
    }

    /// The drawn trace, when there is one.
    pub fn trace(&self) -> Option<&SharedTrace> {
        match self {
            RingRun::Drawn(t) => Some(t),
            RingRun::Numbers(_) => None,
        }
    }

    /// Number of ranks.
    pub fn p(&self) -> usize {
        match self {
            RingRun::Drawn(t) => t.schedule.p,
            RingRun::Numbers(s) => s.p,
        }
    }

    /// Tensor length, elements.
    pub fn n(&self) -> u64 {
        match self {
            RingRun::Drawn(t) => t.schedule.n,
            RingRun::Numbers(s) => s.n,
        }
    }

    /// Number of rounds, 2(p − 1).
    pub fn rounds(&self) -> usize {
        match self {
            RingRun::Drawn(t) => t.num_rounds(),
            RingRun::Numbers(s) => s.num_rounds(),
        }
    }

    /// The check of the final buffers.
    pub fn verification(&self) -> &Verification {
        match self {
            RingRun::Drawn(t) => &t.verification,
            RingRun::Numbers(s) => &s.verification,
        }
    }

    /// Each rank's input value (of its first element).
    pub fn inputs(&self) -> Vec<f64> {
        let first = |rows: &[Vec<f64>]| -> Vec<f64> {
            rows.iter()
                .map(|row| row.first().copied().unwrap_or(0.0))
                .collect()
        };
        match self {
            RingRun::Drawn(t) => t.state_at(0).map(|s| first(&s.values)).unwrap_or_default(),
            RingRun::Numbers(s) => first(&s.initial),
        }
    }

    /// The expected sum (of the first element).
    pub fn sum(&self) -> f64 {
        let expected = match self {
            RingRun::Drawn(t) => &t.expected,
            RingRun::Numbers(s) => &s.expected,
        };
        expected.first().copied().unwrap_or(0.0)
    }

    /// The mean step's value, as the core computed it (final buffers ÷ p).
    pub fn mean(&self) -> f64 {
        let means = match self {
            RingRun::Drawn(t) => t.final_mean(),
            RingRun::Numbers(s) => s.final_mean(),
        };
        means
            .first()
            .and_then(|row| row.first().copied())
            .unwrap_or(0.0)
    }

    /// Label of round `i` (0-based), e.g. "reduce-scatter, round 2 of 3".
    pub fn round_label(&self, i: usize) -> String {
        match self {
            RingRun::Drawn(t) => t.schedule.round_label(i),
            RingRun::Numbers(s) => ring_all_reduce_round(s.p, s.n, i)
                .map(|(_, label)| label)
                .unwrap_or_default(),
        }
    }

    /// The narration after `rounds_done` rounds ([`Trace::narrate`]).
    pub fn narrate(&self, rounds_done: usize) -> String {
        match self {
            RingRun::Drawn(t) => t.narrate(rounds_done),
            RingRun::Numbers(s) => {
                let (p, rounds) = (s.p, s.num_rounds());
                let Some(i) = rounds_done.checked_sub(1) else {
                    return narrate_round(p, None, "", s.elem_bytes, None, None);
                };
                let Some((round, label)) = ring_all_reduce_round(p, s.n, i) else {
                    return String::new();
                };
                let done = (rounds_done == rounds).then(|| s.verification.ok());
                narrate_round(p, Some(&round), &label, s.elem_bytes, None, done)
            }
        }
    }

    /// Bytes each rank has sent after `rounds` rounds.
    pub fn sent_after(&self, rounds: usize) -> Vec<u64> {
        match self {
            RingRun::Drawn(t) => t.sent_after(rounds),
            RingRun::Numbers(s) => s.sent_after(rounds),
        }
    }

    /// Bytes each rank has received after `rounds` rounds.
    pub fn recv_after(&self, rounds: usize) -> Vec<u64> {
        match self {
            RingRun::Drawn(t) => t.recv_after(rounds),
            RingRun::Numbers(s) => s.recv_after(rounds),
        }
    }

    /// Number of transfers in round `k` (1-based; 0 when out of range).
    pub fn transfers_in(&self, k: usize) -> usize {
        let Some(i) = k.checked_sub(1) else {
            return 0;
        };
        match self {
            RingRun::Drawn(t) => t.schedule.rounds.get(i).map_or(0, |r| r.transfers.len()),
            RingRun::Numbers(s) => s.transfers.get(i).copied().unwrap_or(0),
        }
    }

    /// The transfer log of round `step` (1-based), each transfer described by `what`.
    pub fn entries(&self, step: usize, what: impl Fn(&Transfer) -> String) -> Vec<LogEntry> {
        match self {
            RingRun::Drawn(t) => round_entries(t, step, what),
            RingRun::Numbers(s) => step
                .checked_sub(1)
                .and_then(|i| ring_all_reduce_round(s.p, s.n, i))
                .map(|(round, _)| entries_of(&round, s.elem_bytes, &[], what))
                .unwrap_or_default(),
        }
    }

    /// The ring's α–β time, seconds, and its explanation
    /// ([`executed_time`], [`explain`]).
    pub fn time(&self, alpha: f64, beta: f64) -> (f64, String) {
        match self {
            RingRun::Drawn(t) => (
                executed_time(&t.schedule, alpha, beta),
                explain(&t.schedule, alpha, beta),
            ),
            RingRun::Numbers(s) => (
                s.executed_time(alpha, beta),
                explain_counted(&s.round_max_bytes, &s.transfers, alpha, beta),
            ),
        }
    }
}
